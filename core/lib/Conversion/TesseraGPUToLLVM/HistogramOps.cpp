//===- HistogramOps.cpp - tessera.histogram through shared memory ---------===//
//
// The bins are i32 counters in the scratch space: the block's threads zero
// them, the one thread owning each element (copies of an element in other
// threads or registers count once) adds 1 to its bin with a shared-memory
// atomic, and every register of the result reads its bin back. Values
// outside [0, numBins) (negative ones included, compared unsigned) and
// masked-off elements are not counted.
//
//===----------------------------------------------------------------------===//
#include "Lowering.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

using namespace mlir;
using namespace mlir::tessera;
using namespace mlir::tessera::lowering;

namespace {

struct HistogramLowering : public GPUPattern<HistogramOp> {
  using GPUPattern::GPUPattern;

  LogicalResult
  matchAndRewrite(HistogramOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto srcType = cast<RankedTensorType>(op.getSrc().getType());
    auto resultType = cast<RankedTensorType>(op.getType());
    int64_t bins = resultType.getShape()[0];
    FailureOr<ThreadIndex> tid = getThreadIndex(rewriter, loc, ctx, op);
    if (failed(tid))
      return failure();
    auto counter = [&](OpBuilder &b, Value bin) {
      Value byteOffset = LLVM::AddOp::create(
          b, loc, LLVM::MulOp::create(b, loc, bin, createI32(b, loc, 4)),
          createI32(b, loc, int64_t(ctx.plan.scratchOffset)));
      return getSharedPointer(b, loc, ctx, byteOffset, op);
    };
    auto barrier = [&]() -> LogicalResult {
      if (succeeded(ctx.hooks.createBarrier(rewriter, loc)))
        return success();
      return op.emitError("the ")
             << ctx.hooks.getName()
             << " target has no block barrier, which tl.histogram needs";
    };

    // 1. Zero the counters, thread t the bins t, t + T, ... (after a
    //    barrier: an earlier op may still read the scratch space).
    if (failed(barrier()))
      return failure();
    unsigned numThreads = ctx.threadsPerWarp * ctx.numWarps;
    Value flat = LLVM::AddOp::create(
        rewriter, loc,
        LLVM::MulOp::create(rewriter, loc, tid->warp,
                            createI32(rewriter, loc, ctx.threadsPerWarp)),
        tid->lane);
    for (int64_t first = 0; first < bins; first += numThreads) {
      Value bin = LLVM::AddOp::create(rewriter, loc, flat,
                                      createI32(rewriter, loc, first));
      Value inRange =
          LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::ult, bin,
                               createI32(rewriter, loc, bins));
      FailureOr<Value> ptr = counter(rewriter, bin);
      if (failed(ptr))
        return failure();
      emitIf(rewriter, loc, inRange, {}, [&](OpBuilder &b) {
        LLVM::StoreOp::create(b, loc, createI32(b, loc, 0), *ptr);
        return SmallVector<Value>{};
      });
    }
    if (failed(barrier()))
      return failure();

    // 2. Count each element once.
    LinearLayout srcLayout = getLayout(srcType);
    uint32_t copiedRegisters = 0;
    for (auto &[dim, mask] : srcLayout.getFreeVariableMasks())
      if (dim == kRegisterDim)
        copiedRegisters = uint32_t(mask);
    Value owner = emitOwnerPredicate(rewriter, loc, srcLayout, *tid);
    SmallVector<Value> values =
        unpackRegisters(rewriter, loc, adaptor.getSrc(), srcType);
    SmallVector<Value> masks;
    if (op.getMask())
      masks = unpackRegisters(rewriter, loc, adaptor.getMask(),
                              op.getMask().getType());
    auto valueType = cast<IntegerType>(srcType.getElementType());
    for (auto [r, value] : llvm::enumerate(values)) {
      if (r & copiedRegisters)
        continue;
      Value pred = LLVM::ICmpOp::create(
          rewriter, loc, LLVM::ICmpPredicate::ult, value,
          createConstant(rewriter, loc, value.getType(), bins));
      if (owner)
        pred = LLVM::AndOp::create(rewriter, loc, pred, owner);
      if (!masks.empty())
        pred = LLVM::AndOp::create(rewriter, loc, pred, masks[r]);
      Value bin = value;
      if (valueType.getWidth() > 32)
        bin = LLVM::TruncOp::create(rewriter, loc, rewriter.getI32Type(), bin);
      else if (valueType.getWidth() < 32)
        bin = LLVM::ZExtOp::create(rewriter, loc, rewriter.getI32Type(), bin);
      FailureOr<Value> ptr = counter(rewriter, bin);
      if (failed(ptr))
        return failure();
      emitIf(rewriter, loc, pred, {}, [&](OpBuilder &b) {
        LLVM::AtomicRMWOp::create(b, loc, LLVM::AtomicBinOp::add, *ptr,
                                  createI32(b, loc, 1),
                                  LLVM::AtomicOrdering::monotonic);
        return SmallVector<Value>{};
      });
    }
    if (failed(barrier()))
      return failure();

    // 3. Every register of the result reads its bin.
    SmallVector<Value> results;
    for (const SmallVector<Value> &coords :
         emitAllCoords(rewriter, loc, getLayout(resultType), *tid)) {
      FailureOr<Value> ptr = counter(rewriter, coords[0]);
      if (failed(ptr))
        return failure();
      results.push_back(
          LLVM::LoadOp::create(rewriter, loc, rewriter.getI32Type(), *ptr));
    }
    rewriter.replaceOp(
        op,
        packRegisters(rewriter, loc,
                      getTypeConverter()->convertType(resultType), results));
    return success();
  }
};

} // namespace

uint64_t lowering::getHistogramScratchBytes(HistogramOp op) {
  return 4 * uint64_t(cast<RankedTensorType>(op.getType()).getShape()[0]);
}

void lowering::populateHistogramPatterns(GPUTypeConverter &converter,
                                         RewritePatternSet &patterns,
                                         LoweringContext &ctx) {
  patterns.add<HistogramLowering>(converter, ctx);
}
