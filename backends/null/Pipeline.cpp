//===- Pipeline.cpp - The null backend's stages ---------------------------===//
//
// After the core stages, one stage: "lower-to-llvm", which replaces each
// kernel by an LLVM-dialect function with the kernel's signature and an
// empty body. The null backend runs nothing, so the body is dropped by
// design; what a real backend lowers here (loads, dots, reductions through
// its hooks) is what this stage leaves out.
//
//===----------------------------------------------------------------------===//
#include "NullBackend.h"

#include "tessera/Backend/KernelRecord.h"
#include "tessera/Dialect/Tessera/IR/Dialect.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"

using namespace mlir;
using namespace mlir::tessera;

namespace {
/// The LLVM-dialect type a kernel parameter of `type` is passed as.
Type getLLVMParamType(Type type) {
  if (auto ptr = dyn_cast<PointerType>(type))
    return LLVM::LLVMPointerType::get(type.getContext(), ptr.getAddressSpace());
  if (type.isIndex())
    return IntegerType::get(type.getContext(), 64);
  return type;
}

struct NullLowerToLLVMPass
    : public PassWrapper<NullLowerToLLVMPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(NullLowerToLLVMPass)

  StringRef getArgument() const final { return "tessera-null-lower-to-llvm"; }
  StringRef getDescription() const final {
    return "Replace each kernel by an empty LLVM function of its signature";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<LLVM::LLVMDialect>();
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<Operation *> old = llvm::map_to_vector(
        module.getBody()->getOperations(), [](Operation &op) { return &op; });
    OpBuilder builder = OpBuilder::atBlockEnd(module.getBody());
    for (Operation *op : old) {
      auto func = dyn_cast<func::FuncOp>(op);
      if (func && func->hasAttr(kKernelAttrName) && !func.isDeclaration() &&
          failed(lowerKernel(func, builder)))
        return signalPassFailure();
    }
    // Device functions are inlined or unused by now, and nothing of them
    // would run anyway.
    for (Operation *op : old)
      op->erase();
  }

  LogicalResult lowerKernel(func::FuncOp kernel, OpBuilder &builder) {
    FunctionType type = kernel.getFunctionType();
    if (type.getNumResults() != 0)
      return kernel.emitError("a kernel returns nothing, but '")
             << kernel.getSymName() << "' returns " << type.getResults();
    SmallVector<Type> params =
        llvm::map_to_vector(type.getInputs(), getLLVMParamType);
    auto llvmType = LLVM::LLVMFunctionType::get(
        LLVM::LLVMVoidType::get(builder.getContext()), params);
    auto llvmFunc = LLVM::LLVMFuncOp::create(builder, kernel.getLoc(),
                                             kernel.getSymName(), llvmType);
    // The record the host builds the CompiledKernel from.
    for (StringRef record :
         {kSignatureTypesAttrName, kSignatureNamesAttrName}) {
      Attribute value = kernel->getAttr(record);
      if (!value)
        return kernel.emitError("kernel '")
               << kernel.getSymName() << "' has no " << record
               << " (the record-signature pass runs before this one)";
      llvmFunc->setAttr(record, value);
    }
    Block *body = llvmFunc.addEntryBlock(builder);
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(body);
    LLVM::ReturnOp::create(builder, kernel.getLoc(), ValueRange());
    return success();
  }
};
} // namespace

std::unique_ptr<Pass> mlir::tessera::createNullLowerToLLVMPass() {
  return std::make_unique<NullLowerToLLVMPass>();
}

void NullBackend::registerDialects(DialectRegistry &registry) const {
  registry.insert<LLVM::LLVMDialect>();
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
}

llvm::Error NullBackend::buildPipeline(Pipeline &pipeline,
                                       const TargetDescription &target,
                                       const CompileOptions &options) {
  return pipeline.insert(
      "end", {kLowerToLLVMStage.str(),
              "replace each kernel by an empty LLVM function of its signature",
              [](OpPassManager &pm, const PipelineOptions &) {
                pm.addPass(createRecordSignaturePass("the null backend's"));
                pm.addPass(createNullLowerToLLVMPass());
              }});
}
