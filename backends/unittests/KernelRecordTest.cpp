//===- KernelRecordTest.cpp - The CompiledKernel the host builds ----------===//
#include "tessera/Backend/KernelRecord.h"
#include "tessera/Dialect/Tessera/IR/Dialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::tessera;
using ::testing::HasSubstr;

namespace {

class KernelRecordTest : public ::testing::Test {
protected:
  KernelRecordTest() {
    ctx.loadDialect<TesseraDialect, func::FuncDialect, LLVM::LLVMDialect>();
    target.backend = "test";
    target.arch = "t1";
    target.warpSize = 64;
    options.numWarps = 8;
    options.numStages = 2;
  }

  OwningOpRef<ModuleOp> parse(llvm::StringRef text) {
    return parseSourceString<ModuleOp>(text, &ctx);
  }

  /// What buildCompiledKernel gives for kernel `k` of `text`.
  llvm::Expected<CompiledKernel> build(llvm::StringRef text) {
    OwningOpRef<ModuleOp> module = parse(text);
    if (!module)
      return llvm::createStringError("the test module does not parse");
    return buildCompiledKernel(*module, "k", target, options);
  }

  /// The error build() gives for `text`.
  std::string buildError(llvm::StringRef text) {
    llvm::Expected<CompiledKernel> kernel = build(text);
    EXPECT_FALSE(static_cast<bool>(kernel));
    return kernel ? "" : llvm::toString(kernel.takeError());
  }

  MLIRContext ctx;
  TargetDescription target;
  CompileOptions options;
};

TEST_F(KernelRecordTest, SkeletonFromTheLoweredKernelsRecord) {
  // As a GPU plugin leaves it: the record on the lowered kernel, the shared
  // memory the lowering planned on the module, a stage's metadata.
  llvm::Expected<CompiledKernel> kernel = build(R"mlir(
    module attributes {tessera_gpu.shared_memory = 4096 : i64} {
      llvm.func @k(%a: !llvm.ptr<1>, %n: i32) attributes {
          tessera.signature_types = ["*fp16", "i32"],
          tessera.signature_names = ["a_ptr", "n"],
          tessera.kernel_metadata = {maps = ["one", "two"], note = "x"}} {
        llvm.return
      }
    })mlir");
  ASSERT_TRUE(static_cast<bool>(kernel)) << llvm::toString(kernel.takeError());
  EXPECT_EQ(kernel->backend, "test");
  EXPECT_EQ(kernel->arch, "t1");
  EXPECT_EQ(kernel->name, "k");
  ASSERT_EQ(kernel->params.size(), 2u);
  EXPECT_EQ(kernel->params[0].name, "a_ptr");
  EXPECT_EQ(kernel->params[0].type, "*fp16");
  EXPECT_EQ(kernel->params[1].name, "n");
  EXPECT_EQ(kernel->params[1].type, "i32");
  EXPECT_EQ(kernel->numWarps, 8u);
  EXPECT_EQ(kernel->threadsPerWarp, 64u);
  EXPECT_EQ(kernel->numStages, 2u);
  EXPECT_EQ(kernel->sharedMemoryBytes, 4096u);
  EXPECT_EQ(kernel->metadata["kernel"], "k");
  EXPECT_EQ(kernel->metadata["maps"], "one\ntwo");
  EXPECT_EQ(kernel->metadata["note"], "x");
  // The emitter's part is left to it.
  EXPECT_TRUE(kernel->format.empty());
  EXPECT_TRUE(kernel->binary.empty());
}

TEST_F(KernelRecordTest, AnEntryWrapperIsWhatLaunches) {
  llvm::Expected<CompiledKernel> kernel = build(R"mlir(
    module {
      llvm.func internal @k(%x: i32) attributes {
          tessera.signature_types = ["i32"], tessera.signature_names = ["x"]} {
        llvm.return
      }
      llvm.func @k_entry(%args: !llvm.ptr) attributes {
          tessera.entry_of = "k",
          tessera.signature_types = ["i32"], tessera.signature_names = ["x"]} {
        llvm.return
      }
    })mlir");
  ASSERT_TRUE(static_cast<bool>(kernel)) << llvm::toString(kernel.takeError());
  EXPECT_EQ(kernel->name, "k_entry");
  EXPECT_EQ(kernel->metadata["kernel"], "k");
  EXPECT_EQ(kernel->sharedMemoryBytes, 0u);
}

TEST_F(KernelRecordTest, AKernelWithoutARecordIsAnError) {
  EXPECT_THAT(
      buildError(R"mlir(module { llvm.func @k() { llvm.return } })mlir"),
      HasSubstr("backend 'test' lowered no kernel 'k' with a "
                "signature record"));
  EXPECT_THAT(
      buildError(R"mlir(module { llvm.func @j() { llvm.return } })mlir"),
      HasSubstr("backend 'test' lowered no kernel named 'k'"));
}

TEST_F(KernelRecordTest, MetadataMustBeText) {
  EXPECT_THAT(buildError(R"mlir(
    module {
      llvm.func @k() attributes {tessera.signature_types = [],
          tessera.signature_names = [], tessera.kernel_metadata = {n = 3}} {
        llvm.return
      }
    })mlir"),
              HasSubstr("kernel metadata 'n' is neither a string nor an "
                        "array of strings"));
}

TEST_F(KernelRecordTest, SetKernelMetadataReplacesOneKey) {
  OwningOpRef<ModuleOp> module = parse(R"mlir(
    module {
      llvm.func @k() { llvm.return }
    })mlir");
  ASSERT_TRUE(module);
  Operation *func = &module->getBody()->front();
  Builder b(&ctx);
  setKernelMetadata(func, "a", b.getStringAttr("1"));
  setKernelMetadata(func, "b", b.getStrArrayAttr({"2", "3"}));
  setKernelMetadata(func, "a", b.getStringAttr("4"));
  auto dict = func->getAttrOfType<DictionaryAttr>(kKernelMetadataAttrName);
  ASSERT_TRUE(dict);
  EXPECT_EQ(dict.size(), 2u);
  EXPECT_EQ(cast<StringAttr>(dict.get("a")).getValue(), "4");
  EXPECT_EQ(cast<ArrayAttr>(dict.get("b")).size(), 2u);
}

TEST_F(KernelRecordTest, RecordNamesParametersAndRefusesTensors) {
  OwningOpRef<ModuleOp> module = parse(R"mlir(
    module {
      func.func @k(%p: !tessera.ptr<f32> {tessera.name = "x_ptr"},
                   %u: i32 {tessera.signature_type = "u32"}, %f: f16)
          attributes {tessera.kernel} { return }
      func.func @bad(%t: tensor<4xf32>) attributes {tessera.kernel} { return }
    })mlir");
  ASSERT_TRUE(module);
  auto kernel = module->lookupSymbol<func::FuncOp>("k");
  ASSERT_TRUE(succeeded(recordKernelSignature(kernel, "a test")));
  auto types = kernel->getAttrOfType<ArrayAttr>(kSignatureTypesAttrName);
  auto names = kernel->getAttrOfType<ArrayAttr>(kSignatureNamesAttrName);
  ASSERT_TRUE(types && names);
  EXPECT_EQ(cast<StringAttr>(types[1]).getValue(), "u32");
  EXPECT_EQ(cast<StringAttr>(names[0]).getValue(), "x_ptr");
  EXPECT_EQ(cast<StringAttr>(names[2]).getValue(), "arg2");
  // The frontend's per-argument spelling is consumed by the record.
  EXPECT_FALSE(kernel.getArgAttr(1, "tessera.signature_type"));

  std::string diagnostics;
  ScopedDiagnosticHandler handler(&ctx, [&](Diagnostic &d) {
    diagnostics += d.str();
    return success();
  });
  auto bad = module->lookupSymbol<func::FuncOp>("bad");
  EXPECT_TRUE(failed(recordKernelSignature(bad, "a test")));
  EXPECT_THAT(diagnostics, HasSubstr("cannot be passed to a test launch"));
  EXPECT_FALSE(bad->hasAttr(kSignatureTypesAttrName));
}

} // namespace
