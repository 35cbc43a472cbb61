//===- ModuleEndToEndTest.cpp - Kernels whose helpers live elsewhere ------===//
//
// A kernel calling helpers of another module and package computes exactly
// what the same kernel written in one file computes, on the cpu plugin:
// once as a kernel file whose imports the runtime resolves, once as a
// program an embedder resolved (docs/embedding.md). Skipped where the build
// has no cpu plugin.
//
//===----------------------------------------------------------------------===//
#include "CpuRuntime.h"
#include "FakeBackend.h"
#include "TestSupport.h"

#include "tessera/Runtime/JitKernel.h"
#include "tessera/Runtime/Runtime.h"

#include "llvm/Support/JSON.h"

#include <cmath>
#include <cstring>

using namespace mlir::tessera;
using namespace mlir::tessera::runtime;
using namespace mlir::tessera::runtime::testing;

/// Checks an llvm::Error in a function that returns a value.
#define EXPECT_NO_ERROR(expr)                                                  \
  do {                                                                         \
    llvm::Error err_ = (expr);                                                 \
    EXPECT_FALSE(bool(err_)) << llvm::toString(std::move(err_));               \
  } while (false)

namespace {
std::string inputFile(llvm::StringRef name) {
  return std::string(TESSERA_SOURCE_DIR) +
         "/runtime/unittests/Inputs/modules/" + name.str();
}


constexpr int64_t kRows = 5, kCols = 37;

/// Runs `energy` over a fixed input and returns its per-row output bits.
std::vector<uint32_t> runEnergy(Runtime &rt, JitKernel &kernel) {
  std::vector<float> x(kRows * kCols), out(kRows, std::nanf(""));
  for (int64_t i = 0; i < kRows * kCols; ++i)
    x[i] = std::sin(0.37f * float(i)) * 3.0f;
  Buffer bx = llvm::cantFail(rt.allocate(x.size() * 4, "fp32"));
  Buffer bo = llvm::cantFail(rt.allocate(out.size() * 4, "fp32"));
  EXPECT_NO_ERROR(bx.copyFromHost(x.data(), x.size() * 4));
  EXPECT_NO_ERROR(bo.copyFromHost(out.data(), out.size() * 4));
  EXPECT_NO_ERROR(kernel.launch(Grid(GridDims{uint64_t(kRows), 1, 1}),
                                {bx, bo, kCols}, {{"BLOCK", 64}}));
  EXPECT_NO_ERROR(rt.getDevice()->synchronize());
  EXPECT_NO_ERROR(bo.copyToHost(out.data(), out.size() * 4));
  std::vector<uint32_t> bits(kRows);
  std::memcpy(bits.data(), out.data(), kRows * 4);
  return bits;
}

/// The host reference of `energy`, for one row.
double referenceRow(int64_t row) {
  double total = 0;
  for (int64_t c = 0; c < kCols; ++c) {
    float x = std::sin(0.37f * float(row * kCols + c)) * 3.0f;
    double v = x > 0 ? x : x * 0.125;   // leaky in the kernel
    double l = v > 0 ? v : v * 0.125;   // leaky in row_energy
    total += std::log1p(std::exp(v)) * l;
  }
  return total;
}

/// A function unit of the program, its source as in single_kernel.py.
llvm::json::Object functionUnit(llvm::StringRef name, int64_t line,
                                llvm::StringRef source,
                                llvm::json::Object globals) {
  return llvm::json::Object{
      {"kind", "function"},
      {"name", name},
      {"module", "energy_lib"},
      {"file", inputFile("single_kernel.py")},
      {"line", line},
      {"source", source},
      {"jit", true},
      {"options", llvm::json::Object{}},
      {"globals", std::move(globals)}};
}
} // namespace

TEST(ModuleEndToEndTest, HelpersInAPackageMatchOneFile) {
  ScratchDirectory cache;
  std::unique_ptr<Runtime> rt = openCPU(cache.path());
  if (!rt)
    GTEST_SKIP() << "no cpu plugin in this build";
  llvm::Expected<JitKernel &> split =
      rt->getJitKernel(inputFile("split_kernel.py"), "energy");
  ASSERT_EXPECTED(split);
  llvm::Expected<JitKernel &> single =
      rt->getJitKernel(inputFile("single_kernel.py"), "energy");
  ASSERT_EXPECTED(single);
  std::vector<uint32_t> a = runEnergy(*rt, *split);
  std::vector<uint32_t> b = runEnergy(*rt, *single);
  EXPECT_EQ(a, b);
  for (int64_t r = 0; r < kRows; ++r) {
    float got;
    std::memcpy(&got, &a[r], 4);
    double want = referenceRow(r);
    EXPECT_NEAR(got, want, 1e-4 * std::abs(want) + 1e-5) << "row " << r;
  }
}

TEST(ModuleEndToEndTest, ProgramFromAnEmbedderMatchesOneFile) {
  ScratchDirectory cache;
  std::unique_ptr<Runtime> rt = openCPU(cache.path());
  if (!rt)
    GTEST_SKIP() << "no cpu plugin in this build";
  auto symbol = [](llvm::StringRef name) {
    return llvm::json::Object{{"symbol", name}};
  };
  auto unit = [](llvm::StringRef id) {
    return llvm::json::Object{{"unit", id}};
  };
  llvm::json::Object units;
  units["lib:leaky"] = functionUnit(
      "leaky", 10,
      "@triton.jit\ndef leaky(x):\n    return tl.where(x > 0, x, x * "
      "SLOPE)\n",
      llvm::json::Object{
          {"triton", symbol("triton")},
          {"tl", symbol("triton.language")},
          {"SLOPE",
           llvm::json::Object{{"float", 0.125}, {"constexpr", true}}}});
  units["lib:soft"] = functionUnit(
      "soft", 15,
      "@triton.jit\ndef soft(x):\n    return libdevice.log1p(tl.exp(x))\n",
      llvm::json::Object{
          {"triton", symbol("triton")},
          {"tl", symbol("triton.language")},
          {"libdevice", symbol("triton.language.extra.libdevice")}});
  units["lib:row_energy"] = functionUnit(
      "row_energy", 20,
      "@triton.jit\ndef row_energy(x, AXIS: tl.constexpr):\n    return "
      "tl.sum(soft(x) * leaky(x), axis=AXIS)\n",
      llvm::json::Object{{"triton", symbol("triton")},
                         {"tl", symbol("triton.language")},
                         {"soft", unit("lib:soft")},
                         {"leaky", unit("lib:leaky")}});
  // The kernel reads its helpers through a module unit, as `import lib`.
  units["lib"] = llvm::json::Object{
      {"kind", "module"},
      {"module", "energy_lib"},
      {"file", inputFile("single_kernel.py")},
      {"globals", llvm::json::Object{{"leaky", unit("lib:leaky")},
                                     {"row_energy", unit("lib:row_energy")}}}};
  units["app:energy"] = functionUnit(
      "energy", 25,
      "@triton.jit\ndef energy(x_ptr, out_ptr, n_cols, BLOCK: "
      "tl.constexpr):\n"
      "    row = tl.program_id(0)\n"
      "    cols = tl.arange(0, BLOCK)\n"
      "    mask = cols < n_cols\n"
      "    x = tl.load(x_ptr + row * n_cols + cols, mask=mask, other=0.0)\n"
      "    x = lib.leaky(x)\n"
      "    tl.store(out_ptr + row, tl.sum(lib.row_energy(x[None, :], 1), "
      "axis=0))\n",
      llvm::json::Object{{"triton", symbol("triton")},
                         {"tl", symbol("triton.language")},
                         {"lib", unit("lib")}});
  llvm::json::Value doc = llvm::json::Object{{"format", "tessera-program"},
                                             {"version", 1},
                                             {"units", std::move(units)}};
  std::string text;
  llvm::raw_string_ostream(text) << doc;

  llvm::Expected<std::unique_ptr<KernelSource>> source =
      KernelSource::fromProgram(text, "app:energy");
  ASSERT_EXPECTED(source);
  EXPECT_EQ((*source)->getEntryName(), "energy");
  llvm::Expected<std::unique_ptr<JitKernel>> program =
      JitKernel::create(*rt, std::move(*source), "energy");
  ASSERT_EXPECTED(program);
  llvm::Expected<JitKernel &> single =
      rt->getJitKernel(inputFile("single_kernel.py"), "energy");
  ASSERT_EXPECTED(single);
  EXPECT_EQ(runEnergy(*rt, **program), runEnergy(*rt, *single));
}

TEST(ModuleEndToEndTest, MalformedProgramsNameTheUnitAndField) {
  auto errorOf = [](llvm::StringRef json) {
    llvm::Expected<std::unique_ptr<KernelSource>> source =
        KernelSource::fromProgram(json, "k");
    return source ? std::string("no error")
                  : llvm::toString(source.takeError());
  };
  EXPECT_NE(errorOf("{").find("not valid JSON"), std::string::npos);
  EXPECT_NE(errorOf(R"({"format":"tessera-program","version":2,"units":{}})")
                .find("unsupported 'version'"),
            std::string::npos);
  std::string unknownField = errorOf(
      R"({"format":"tessera-program","version":1,"units":{"k":{"kind":)"
      R"("module","module":"m","file":"f","extra":1}}})");
  EXPECT_NE(unknownField.find("unit 'k': unknown field 'extra'"),
            std::string::npos)
      << unknownField;
  std::string badValue = errorOf(
      R"({"format":"tessera-program","version":1,"units":{"k":{"kind":)"
      R"("module","module":"m","file":"f","globals":{"x":{"int":1,"str":"a"}}}}})");
  EXPECT_NE(badValue.find("unit 'k', global 'x': a value has exactly one form"),
            std::string::npos)
      << badValue;
  std::string parse = errorOf(
      R"({"format":"tessera-program","version":1,"units":{"k":{"kind":)"
      R"("function","name":"k","module":"m","file":"user.py","line":3,)"
      R"("source":"@triton.jit\ndef k(x):\n    return x +\n","jit":true}}})");
  EXPECT_NE(parse.find("user.py:5:"), std::string::npos) << parse;
}
