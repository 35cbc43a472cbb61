//===- CompileOnlyTest.cpp - Status and report of compile-only runs -------===//
#include "tessera/Conformance/Report.h"

#include "llvm/Support/FormatVariadic.h"

#include "gtest/gtest.h"

using namespace mlir::tessera::conformance;

namespace {
CompileRecord makeRecord(llvm::StringRef kernel, int registers,
                         CompileOrigin origin) {
  CompileRecord record;
  record.kernel = kernel.str();
  record.signature = "*fp32:16,*fp32:16,*fp32:16,i32,1024";
  record.numWarps = 4;
  record.numStages = 3;
  record.registers = registers;
  record.spillBytes = registers < 0 ? -1 : 0;
  record.sharedMemoryBytes = 2048;
  record.format = "cubin";
  record.binaryBytes = 5120;
  record.seconds = 0.25;
  record.origin = origin;
  return record;
}

CaseReport makeCase(llvm::StringRef name, Status status,
                    std::vector<CompileRecord> kernels) {
  CaseReport c;
  c.file = "01_vector_add";
  c.kernel = "add_kernel";
  c.name = name.str();
  c.id = c.file + "/" + c.kernel + "/" + c.name;
  c.status = status;
  c.kernels = std::move(kernels);
  return c;
}

/// Two cases compiling the same kernel (the second reuses it), one whose
/// compilation failed, and a static check that passed.
RunReport makeCompileOnlyReport() {
  RunReport report;
  report.backend = "nvptx";
  report.arch = "sm_90a";
  report.seed = 7;
  report.configMode = "all";
  report.compileOnly = true;
  report.cases = {
      makeCase("n=1", Status::Compiled,
               {makeRecord("add_kernel", 26, CompileOrigin::Compiled)}),
      makeCase("n=1000", Status::Compiled,
               {makeRecord("add_kernel", 26, CompileOrigin::Reused)}),
      makeCase("n=4097", Status::Fail, {}),
      makeCase("configs", Status::Pass, {}),
  };
  report.cases[2].message = "01_vector_add.py:9:5: error: undefined name";
  return report;
}
} // namespace

TEST(CompileOnlyTest, StatusOfACompiledCase) {
  std::optional<std::string> none, xfail = std::string("wrong results");
  CaseOutcome compiled;
  compiled.compiledOnly = true;
  EXPECT_EQ(deriveStatus(compiled, none), Status::Compiled);
  // Compiling says nothing of an entry about results: not an unexpected
  // pass.
  EXPECT_EQ(deriveStatus(compiled, xfail), Status::Compiled);

  CaseOutcome failed = compiled;
  failed.error = "ptxas fatal: Unresolved extern function";
  EXPECT_EQ(deriveStatus(failed, none), Status::Fail);
  EXPECT_EQ(deriveStatus(failed, xfail), Status::ExpectedFailure);

  // A static check that fails still fails the case.
  CaseOutcome badCheck = compiled;
  badCheck.checks = {{"config problems", 1, 0}};
  EXPECT_EQ(deriveStatus(badCheck, none), Status::Fail);

  CaseOutcome unsupported = compiled;
  unsupported.unsupportedReason = "no fp8e4nv";
  EXPECT_EQ(deriveStatus(unsupported, none), Status::NotSupported);

  EXPECT_FALSE(isFailingStatus(Status::Compiled));
  EXPECT_EQ(stringifyStatus(Status::Compiled), "compiled");
  EXPECT_EQ(parseStatus("compiled"), Status::Compiled);
}

TEST(CompileOnlyTest, OriginNames) {
  for (CompileOrigin origin : {CompileOrigin::Compiled,
                               CompileOrigin::DiskCache, CompileOrigin::Reused})
    EXPECT_EQ(parseCompileOrigin(stringifyCompileOrigin(origin)), origin);
  EXPECT_EQ(parseCompileOrigin("launched"), std::nullopt);
}

TEST(CompileOnlyTest, Summary) {
  RunSummary s = makeCompileOnlyReport().getSummary();
  EXPECT_EQ(s.total(), 4u);
  EXPECT_EQ(s.compiled, 2u);
  EXPECT_EQ(s.pass, 1u);
  EXPECT_EQ(s.fail, 1u);
  EXPECT_FALSE(s.succeeded());
  RunSummary ok;
  ok.compiled = 5;
  ok.notSupported = 1;
  ok.expectedFailure = 1;
  EXPECT_TRUE(ok.succeeded());
}

TEST(CompileOnlyTest, JSON) {
  std::string text =
      llvm::formatv("{0}", makeCompileOnlyReport().toJSON()).str();
  llvm::Expected<llvm::json::Value> parsed = llvm::json::parse(text);
  ASSERT_TRUE(static_cast<bool>(parsed)) << llvm::toString(parsed.takeError());
  const llvm::json::Object *root = parsed->getAsObject();
  ASSERT_NE(root, nullptr);
  EXPECT_EQ(root->getBoolean("compile-only"), true);
  EXPECT_EQ(root->getObject("summary")->getInteger("compiled"), 2);
  const llvm::json::Array *cases = root->getArray("cases");
  ASSERT_NE(cases, nullptr);
  const llvm::json::Object *first = (*cases)[0].getAsObject();
  EXPECT_EQ(first->getString("status"), "compiled");
  const llvm::json::Array *kernels = first->getArray("kernels");
  ASSERT_NE(kernels, nullptr);
  ASSERT_EQ(kernels->size(), 1u);
  const llvm::json::Object *kernel = (*kernels)[0].getAsObject();
  EXPECT_EQ(kernel->getString("kernel"), "add_kernel");
  EXPECT_EQ(kernel->getString("signature"),
            "*fp32:16,*fp32:16,*fp32:16,i32,1024");
  EXPECT_EQ(kernel->getInteger("num_warps"), 4);
  EXPECT_EQ(kernel->getInteger("num_stages"), 3);
  EXPECT_EQ(kernel->getInteger("registers"), 26);
  EXPECT_EQ(kernel->getInteger("spill_bytes"), 0);
  EXPECT_EQ(kernel->getInteger("shared_memory_bytes"), 2048);
  EXPECT_EQ(kernel->getString("format"), "cubin");
  EXPECT_EQ(kernel->getInteger("binary_bytes"), 5120);
  EXPECT_EQ(kernel->getNumber("compile_seconds"), 0.25);
  EXPECT_EQ(kernel->getString("origin"), "compiled");
  // A case that compiled nothing has an empty list, not none.
  EXPECT_EQ((*cases)[2].getAsObject()->getArray("kernels")->size(), 0u);

  // Runs that execute have no kernel lists.
  RunReport run = makeCompileOnlyReport();
  run.compileOnly = false;
  llvm::json::Value value = run.toJSON();
  const llvm::json::Object *runCase =
      (*value.getAsObject()->getArray("cases"))[0].getAsObject();
  EXPECT_EQ(runCase->getArray("kernels"), nullptr);
}

TEST(CompileOnlyTest, RegistersTheBackendDoesNotReport) {
  CompileRecord record = makeRecord("add_kernel", -1, CompileOrigin::Compiled);
  llvm::json::Value value = toJSON(record);
  EXPECT_EQ(value.getAsObject()->getInteger("registers"), -1);
  EXPECT_EQ(value.getAsObject()->getInteger("spill_bytes"), -1);
  RunReport report = makeCompileOnlyReport();
  report.cases = {makeCase("n=1", Status::Compiled, {record})};
  std::string text;
  llvm::raw_string_ostream os(text);
  report.printCompiledKernels(os);
  EXPECT_NE(text.find("01_vector_add/add_kernel      4       3     -       -"),
            std::string::npos)
      << text;
}

TEST(CompileOnlyTest, Table) {
  std::string text;
  llvm::raw_string_ostream os(text);
  makeCompileOnlyReport().print(os);
  // One line per distinct kernel, the reused one not repeated.
  EXPECT_NE(text.find("1 kernels compiled (registers and spills '-': not "
                      "reported by the backend):\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("01_vector_add/add_kernel      4       3    26       "
                      "0    2048  cubin       5120    0.25s  compiled    "
                      "*fp32:16,*fp32:16,*fp32:16,i32,1024\n"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("reused"), std::string::npos) << text;
  // A compiled case's row says that nothing ran.
  EXPECT_NE(text.find("compiled, not executed"), std::string::npos) << text;
  // Compiled cases are not listed among those that did not pass.
  EXPECT_EQ(text.find("compiled: 01_vector_add"), std::string::npos) << text;
  EXPECT_NE(text.find("fail: 01_vector_add/add_kernel/n=4097\n"
                      "  01_vector_add.py:9:5: error: undefined name\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("4 cases: 2 compiled, 1 passed, 1 failed, 0 not "
                      "supported, 0 expected failures, 0 unexpected passes"),
            std::string::npos)
      << text;
}
