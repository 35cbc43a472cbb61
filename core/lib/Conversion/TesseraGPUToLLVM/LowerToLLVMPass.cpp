//===- LowerToLLVMPass.cpp - The shared lowering as a pass ----------------===//
#include "Lowering.h"

#include "tessera/Dialect/TesseraGPU/IR/LayoutUtils.h"

#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Conversion/UBToLLVM/UBToLLVM.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace mlir::tessera;
using namespace mlir::tessera::lowering;

uint64_t mlir::tessera::getSharedScratchBytes(Operation *op) {
  if (auto cvt = dyn_cast<gpu::ConvertLayoutOp>(op))
    return getConvertScratchBytes(
        cast<RankedTensorType>(cvt.getSrc().getType()),
        cast<RankedTensorType>(cvt.getType()));
  if (auto reduce = dyn_cast<ReduceOp>(op))
    return getReduceScratchBytes(reduce);
  if (auto scan = dyn_cast<ScanOp>(op))
    return getScanScratchBytes(scan);
  if (auto histogram = dyn_cast<HistogramOp>(op))
    return getHistogramScratchBytes(histogram);
  if (isa<AtomicRMWOp, AtomicCASOp>(op) &&
      !isa<RankedTensorType>(op->getResult(0).getType()))
    return 8;
  return 0;
}

SharedMemoryPlan lowering::planSharedMemory(ModuleOp module) {
  auto recorded = module->getAttrOfType<DictionaryAttr>(kSharedPlanAttrName);
  if (!recorded)
    return gpu::planSharedMemory(module, getSharedScratchBytes);
  SharedMemoryPlan plan;
  auto get = [&](StringRef name) -> uint64_t {
    auto value = recorded.getAs<IntegerAttr>(name);
    return value ? value.getInt() : 0;
  };
  plan.scratchOffset = get("scratch_offset");
  plan.scratchBytes = get("scratch_bytes");
  plan.buffersEnd = get("buffers_end");
  module.walk([&](gpu::LocalAllocOp alloc) {
    if (auto offset = alloc->getAttrOfType<IntegerAttr>(kBufferOffsetAttrName))
      plan.bufferOffsets[alloc] = offset.getInt();
  });
  return plan;
}

namespace {

struct PlanSharedMemoryPass
    : public PassWrapper<PlanSharedMemoryPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(PlanSharedMemoryPass)

  StringRef getArgument() const final { return "tessera-plan-shared-memory"; }
  StringRef getDescription() const final {
    return "Place the buffers and scratch space in shared memory, reusing "
           "the bytes of buffers whose lives ended";
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SharedMemoryPlan plan =
        gpu::planSharedMemory(module, getSharedScratchBytes);
    Builder b(&getContext());
    for (auto [alloc, offset] : plan.bufferOffsets)
      alloc->setAttr(kBufferOffsetAttrName, b.getI64IntegerAttr(offset));
    module->setAttr(
        kSharedPlanAttrName,
        b.getDictionaryAttr(
            {b.getNamedAttr("buffers_end",
                            b.getI64IntegerAttr(plan.buffersEnd)),
             b.getNamedAttr("scratch_bytes",
                            b.getI64IntegerAttr(plan.scratchBytes)),
             b.getNamedAttr("scratch_offset",
                            b.getI64IntegerAttr(plan.scratchOffset))}));
  }
};

struct LowerToLLVMPass
    : public PassWrapper<LowerToLLVMPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(LowerToLLVMPass)

  LowerToLLVMPass(std::shared_ptr<LoweringHooks> hooks,
                  GPULoweringOptions options)
      : hooks(std::move(hooks)), options(options) {}

  StringRef getArgument() const final { return "tessera-lower-to-llvm"; }
  StringRef getDescription() const final {
    return "Lower laid-out tensors to the LLVM dialect through target hooks";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<LLVM::LLVMDialect>();
    hooks->getDependentDialects(registry);
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    FailureOr<gpu::LaunchShape> shape = gpu::getLaunchShape(module);
    if (failed(shape)) {
      module.emitError("the module has no tessera_gpu launch attributes; run "
                       "convert-to-gpu first");
      return signalPassFailure();
    }
    if (shape->numCTAs != 1) {
      module.emitError("the shared lowering handles one block per cluster; "
                       "num_ctas is ")
          << shape->numCTAs;
      return signalPassFailure();
    }
    ModuleAxisInfoAnalysis axis(module);
    LoweringContext ctx{*hooks,
                        options,
                        unsigned(shape->threadsPerWarp),
                        unsigned(shape->numWarps),
                        axis,
                        planSharedMemory(module)};

    MLIRContext *mlirContext = &getContext();
    LowerToLLVMOptions llvmOptions(mlirContext);
    llvmOptions.overrideIndexBitwidth(options.indexBitwidth);
    GPUTypeConverter converter(mlirContext, llvmOptions,
                               options.sharedAddressSpace);

    RewritePatternSet patterns(mlirContext);
    hooks->populatePatterns(converter, patterns);
    populateFunctionPatterns(converter, patterns, ctx);
    populateElementwisePatterns(converter, patterns, ctx);
    populateShapePatterns(converter, patterns, ctx);
    populateMemoryPatterns(converter, patterns, ctx);
    populateDescriptorPatterns(converter, patterns, ctx);
    populateSharedMemoryPatterns(converter, patterns, ctx);
    populateReducePatterns(converter, patterns, ctx);
    populateScanPatterns(converter, patterns, ctx);
    populateDotPatterns(converter, patterns, ctx);
    populateMiscPatterns(converter, patterns, ctx);
    populateHistogramPatterns(converter, patterns, ctx);
    arith::populateArithToLLVMConversionPatterns(converter, patterns);
    populateMathToLLVMConversionPatterns(converter, patterns);
    cf::populateControlFlowToLLVMConversionPatterns(converter, patterns);
    ub::populateUBToLLVMConversionPatterns(converter, patterns);

    ConversionTarget target(*mlirContext);
    target.addLegalDialect<LLVM::LLVMDialect>();
    target.addLegalOp<ModuleOp>();
    // What the hooks create (ops of the target's dialects) is the target's
    // business.
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    target.addIllegalDialect<TesseraDialect, gpu::TesseraGPUDialect,
                             arith::ArithDialect, math::MathDialect,
                             cf::ControlFlowDialect, func::FuncDialect>();
    // A pattern that rejects an op says why; the framework's follow-up
    // "failed to legalize" for the same op adds nothing and is dropped.
    bool explained = false;
    ScopedDiagnosticHandler handler(mlirContext, [&](Diagnostic &diag) {
      if (diag.getSeverity() != DiagnosticSeverity::Error)
        return failure();
      if (explained && StringRef(diag.str()).starts_with("failed to legalize"))
        return success();
      explained = true;
      return failure();
    });
    if (failed(applyPartialConversion(module, target, std::move(patterns))))
      return signalPassFailure();

    module->removeAttr(kSharedPlanAttrName);
    module->setAttr(kSharedMemoryAttrName,
                    IntegerAttr::get(IntegerType::get(mlirContext, 32),
                                     int64_t(ctx.plan.total())));
  }

  std::shared_ptr<LoweringHooks> hooks;
  GPULoweringOptions options;
};

} // namespace

std::unique_ptr<Pass>
mlir::tessera::createLowerToLLVMPass(std::shared_ptr<LoweringHooks> hooks,
                                     GPULoweringOptions options) {
  return std::make_unique<LowerToLLVMPass>(std::move(hooks), options);
}

std::unique_ptr<Pass> mlir::tessera::createPlanSharedMemoryPass() {
  return std::make_unique<PlanSharedMemoryPass>();
}

void mlir::tessera::registerPlanSharedMemoryPass() {
  PassRegistration<PlanSharedMemoryPass>();
}

void mlir::tessera::buildLowerToLLVMPipeline(
    OpPassManager &pm, std::shared_ptr<LoweringHooks> hooks,
    GPULoweringOptions options) {
  pm.addPass(createPlanSharedMemoryPass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(createLowerToLLVMPass(std::move(hooks), options));
  pm.addPass(createReconcileUnrealizedCastsPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
}
