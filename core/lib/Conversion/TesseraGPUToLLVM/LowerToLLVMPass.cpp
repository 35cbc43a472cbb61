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

SharedMemoryPlan lowering::planSharedMemory(ModuleOp module) {
  SharedMemoryPlan plan;
  uint64_t end = 0;
  module.walk([&](gpu::LocalAllocOp alloc) {
    auto type = cast<gpu::MemDescType>(alloc.getType());
    uint64_t bytes = getElementBytes(type.getElementType());
    for (int64_t d : type.getShape())
      bytes *= d;
    // Swizzled tiles start where their pattern does (however small: a
    // 512-byte tile of 64-byte rows still repeats every 512 bytes).
    auto layout = dyn_cast<gpu::SwizzledSharedAttr>(type.getEncoding());
    bool swizzled = layout && layout.getMaxPhase() > 1;
    end = llvm::alignTo(end, swizzled ? kSharedTileAlignment : 128);
    plan.bufferOffsets[alloc] = end;
    end += bytes;
  });
  plan.scratchOffset = llvm::alignTo(end, 128);
  module.walk([&](Operation *op) {
    uint64_t bytes = 0;
    if (auto cvt = dyn_cast<gpu::ConvertLayoutOp>(op))
      bytes =
          getConvertScratchBytes(cast<RankedTensorType>(cvt.getSrc().getType()),
                                 cast<RankedTensorType>(cvt.getType()));
    else if (auto reduce = dyn_cast<ReduceOp>(op))
      bytes = getReduceScratchBytes(reduce);
    else if (auto scan = dyn_cast<ScanOp>(op))
      bytes = getScanScratchBytes(scan);
    else if (auto histogram = dyn_cast<HistogramOp>(op))
      bytes = getHistogramScratchBytes(histogram);
    else if (isa<AtomicRMWOp, AtomicCASOp>(op) &&
             !isa<RankedTensorType>(op->getResult(0).getType()))
      bytes = 8;
    plan.scratchBytes = std::max(plan.scratchBytes, bytes);
  });
  return plan;
}

namespace {

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

void mlir::tessera::buildLowerToLLVMPipeline(
    OpPassManager &pm, std::shared_ptr<LoweringHooks> hooks,
    GPULoweringOptions options) {
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(createLowerToLLVMPass(std::move(hooks), options));
  pm.addPass(createReconcileUnrealizedCastsPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
}
