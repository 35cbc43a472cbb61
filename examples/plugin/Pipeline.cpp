//===- Pipeline.cpp - The example backend's stages ------------------------===//
//
// The core pipeline (every vendor-free stage) runs unchanged; the example
// adds the one stage a backend must have, "lower-to-llvm". It records each
// kernel's signature (the SDK's record-signature pass, which every plugin
// runs first there; the host builds the CompiledKernel from the record),
// then keeps each kernel's IR as text and leaves in its place an LLVM
// function stub of the same name carrying that text and the record, which
// the emitter reads back. A backend that generates code lowers the kernel here
// instead (the core's shared lowering and its hooks,
// tessera/Conversion/TesseraGPUToLLVM.h).
//
//===----------------------------------------------------------------------===//
#include "ExampleBackend.h"

#include "tessera/Backend/KernelRecord.h"
#include "tessera/Dialect/Tessera/IR/Dialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"

using namespace mlir;
using namespace example;

namespace {

struct ExportKernelsPass
    : public PassWrapper<ExportKernelsPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(ExportKernelsPass)
  StringRef getArgument() const final { return "example-export-kernels"; }
  StringRef getDescription() const final {
    return "Replace each kernel by an LLVM stub carrying its IR text";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<LLVM::LLVMDialect>();
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    OpBuilder builder(module.getContext());
    for (Operation &op : module.getBody()->getOperations()) {
      auto kernel = dyn_cast<func::FuncOp>(op);
      if (!kernel || !kernel->hasAttr(tessera::kKernelAttrName) ||
          kernel.isDeclaration())
        continue;
      std::string text;
      llvm::raw_string_ostream os(text);
      kernel->print(os);
      builder.setInsertionPoint(kernel);
      auto stub = LLVM::LLVMFuncOp::create(
          builder, kernel.getLoc(), kernel.getSymName(),
          LLVM::LLVMFunctionType::get(
              LLVM::LLVMVoidType::get(builder.getContext()), {}));
      stub.setPassthroughAttr(
          builder.getArrayAttr({builder.getStrArrayAttr({kIRAttr, text})}));
      for (llvm::StringRef record :
           {tessera::kSignatureTypesAttrName, tessera::kSignatureNamesAttrName})
        stub->setAttr(record, kernel->getAttr(record));
      OpBuilder::InsertionGuard guard(builder);
      builder.setInsertionPointToStart(stub.addEntryBlock(builder));
      LLVM::ReturnOp::create(builder, kernel.getLoc(), ValueRange());
    }
    // The kernels' device functions were inlined by the core stages or are
    // unused; what is left besides the stubs is exported with the kernels.
    for (Operation &op : llvm::make_early_inc_range(*module.getBody()))
      if (!isa<LLVM::LLVMFuncOp>(op))
        op.erase();
  }
};

} // namespace

void ExampleBackend::registerDialects(DialectRegistry &registry) const {
  registry.insert<LLVM::LLVMDialect>();
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
}

llvm::Error
ExampleBackend::buildPipeline(tessera::Pipeline &pipeline,
                              const tessera::TargetDescription &target,
                              const tessera::CompileOptions &options) {
  return pipeline.insert(
      "end",
      {tessera::kLowerToLLVMStage.str(),
       "keep each kernel's IR text and leave an LLVM stub in its place",
       [](OpPassManager &pm, const tessera::PipelineOptions &) {
         pm.addPass(tessera::createRecordSignaturePass("the example target"));
         pm.addPass(std::make_unique<ExportKernelsPass>());
       }});
}
