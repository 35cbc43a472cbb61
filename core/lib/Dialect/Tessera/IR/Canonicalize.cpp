//===- Canonicalize.cpp - Folders and canonical forms of tessera ops ------===//
//
// The canonical forms keep shape manipulation out of the way of the layout
// passes: splats sink through broadcasts, reshapes and transposes; chains of
// reshapes and transposes collapse; pointer increments combine; masks known
// to be all-true or all-false disappear; an addition after a dot becomes the
// dot's accumulator; float conversions of constants happen at compile time.
//
//===----------------------------------------------------------------------===//
#include "tessera/Dialect/Tessera/IR/Dialect.h"

#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::tessera;

namespace {
/// A splat constant of `type` built from the scalar `attr`, or null.
Attribute splatConstant(Attribute attr, Type type) {
  auto shaped = dyn_cast<ShapedType>(type);
  if (!attr || !shaped)
    return {};
  if (auto splat = dyn_cast<SplatElementsAttr>(attr))
    attr = splat.getSplatValue<Attribute>();
  if (!isa<IntegerAttr, FloatAttr>(attr))
    return {};
  return SplatElementsAttr::get(shaped, attr);
}

/// Replaces `op` (whose single operand is produced by a splat) with a splat
/// of the same scalar: shape manipulation of a uniform block is free.
template <typename OpTy> struct SinkSplat : public OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    auto splat = op->getOperand(0).template getDefiningOp<SplatOp>();
    if (!splat)
      return failure();
    rewriter.replaceOpWithNewOp<SplatOp>(op, op.getType(), splat.getSrc());
    return success();
  }
};

/// The constant mask value of a load or store: true/false when every lane is
/// known, nullopt otherwise.
std::optional<bool> constantMask(Value mask) {
  if (!mask)
    return std::nullopt;
  Attribute attr;
  if (!matchPattern(mask, m_Constant(&attr)))
    return std::nullopt;
  if (auto splat = dyn_cast<SplatElementsAttr>(attr))
    attr = splat.getSplatValue<Attribute>();
  if (auto b = dyn_cast<IntegerAttr>(attr))
    return !b.getValue().isZero();
  return std::nullopt;
}
} // namespace

//===----------------------------------------------------------------------===//
// Splat, broadcast, expand_dims
//===----------------------------------------------------------------------===//

OpFoldResult SplatOp::fold(FoldAdaptor adaptor) {
  return splatConstant(adaptor.getSrc(), getType());
}

OpFoldResult BroadcastOp::fold(FoldAdaptor adaptor) {
  if (getSrc().getType() == getType())
    return getSrc();
  return splatConstant(adaptor.getSrc(), getType());
}

//===----------------------------------------------------------------------===//
// fp_to_fp
//===----------------------------------------------------------------------===//

/// A finite constant converts at compile time (a load's `other=0.0` for an
/// fp8 block, say, which would otherwise be converted element by element in
/// every program) when the result is finite: out of range, the formats and
/// targets disagree (infinity, NaN or saturation), so those stay as they are.
OpFoldResult FpToFpOp::fold(FoldAdaptor adaptor) {
  Attribute attr = adaptor.getSrc();
  if (auto splat = dyn_cast_if_present<SplatElementsAttr>(attr))
    attr = splat.getSplatValue<Attribute>();
  auto value = dyn_cast_if_present<FloatAttr>(attr);
  if (!value || !value.getValue().isFinite())
    return {};
  auto dst = cast<FloatType>(getElementTypeOrSelf(getType()));
  APFloat converted = value.getValue();
  bool lost = false;
  APFloat::opStatus status = converted.convert(
      dst.getFloatSemantics(),
      getRounding() == RoundingMode::rtz ? APFloat::rmTowardZero
                                         : APFloat::rmNearestTiesToEven,
      &lost);
  if ((status & APFloat::opOverflow) || !converted.isFinite())
    return {};
  auto result = FloatAttr::get(dst, converted);
  if (auto shaped = dyn_cast<ShapedType>(getType()))
    return SplatElementsAttr::get(shaped, result);
  return result;
}

namespace {
/// broadcast(broadcast(x)) -> broadcast(x).
struct CombineBroadcasts : public OpRewritePattern<BroadcastOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(BroadcastOp op,
                                PatternRewriter &rewriter) const override {
    auto inner = op.getSrc().getDefiningOp<BroadcastOp>();
    if (!inner)
      return failure();
    rewriter.replaceOpWithNewOp<BroadcastOp>(op, op.getType(), inner.getSrc());
    return success();
  }
};
} // namespace

void BroadcastOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                              MLIRContext *context) {
  results.add<SinkSplat<BroadcastOp>, CombineBroadcasts>(context);
}

void ExpandDimsOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                               MLIRContext *context) {
  results.add<SinkSplat<ExpandDimsOp>>(context);
}

//===----------------------------------------------------------------------===//
// Reshape and trans
//===----------------------------------------------------------------------===//

OpFoldResult ReshapeOp::fold(FoldAdaptor adaptor) {
  if (getSrc().getType() == getType())
    return getSrc();
  return splatConstant(adaptor.getSrc(), getType());
}

namespace {
/// reshape(reshape(x)) -> reshape(x); reordering is allowed if either step
/// allowed it.
struct CombineReshapes : public OpRewritePattern<ReshapeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ReshapeOp op,
                                PatternRewriter &rewriter) const override {
    auto inner = op.getSrc().getDefiningOp<ReshapeOp>();
    if (!inner)
      return failure();
    // Read before the rewrite erases `op` (AddressSanitizer saw this read
    // freed memory).
    bool allowReorder = op.getAllowReorder() || inner.getAllowReorder();
    auto fused = rewriter.replaceOpWithNewOp<ReshapeOp>(op, op.getType(),
                                                        inner.getSrc());
    fused.setAllowReorder(allowReorder);
    return success();
  }
};
} // namespace

void ReshapeOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                            MLIRContext *context) {
  results.add<SinkSplat<ReshapeOp>, CombineReshapes>(context);
}

OpFoldResult TransOp::fold(FoldAdaptor adaptor) {
  bool identity = true;
  for (auto [i, d] : llvm::enumerate(getOrder()))
    identity &= (int64_t)i == d;
  if (identity && getSrc().getType() == getType())
    return getSrc();
  return splatConstant(adaptor.getSrc(), getType());
}

namespace {
/// trans(trans(x, inner), outer) -> trans(x, inner o outer).
struct CombineTransposes : public OpRewritePattern<TransOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(TransOp op,
                                PatternRewriter &rewriter) const override {
    auto inner = op.getSrc().getDefiningOp<TransOp>();
    if (!inner)
      return failure();
    SmallVector<int32_t> order;
    for (int32_t d : op.getOrder())
      order.push_back(inner.getOrder()[d]);
    rewriter.replaceOpWithNewOp<TransOp>(op, op.getType(), inner.getSrc(),
                                         order);
    return success();
  }
};
} // namespace

void TransOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                          MLIRContext *context) {
  results.add<SinkSplat<TransOp>, CombineTransposes>(context);
}

//===----------------------------------------------------------------------===//
// Pointers
//===----------------------------------------------------------------------===//

OpFoldResult AddPtrOp::fold(FoldAdaptor adaptor) {
  if (isZeroConstant(getOffset()))
    return getPtr();
  return {};
}

namespace {
/// addptr(addptr(p, a), b) -> addptr(p, a + b) when a and b have one type:
/// one increment instead of two, and the axis analysis sees one sum.
struct CombineAddPtrs : public OpRewritePattern<AddPtrOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(AddPtrOp op,
                                PatternRewriter &rewriter) const override {
    auto inner = op.getPtr().getDefiningOp<AddPtrOp>();
    if (!inner || inner.getOffset().getType() != op.getOffset().getType())
      return failure();
    Value sum = arith::AddIOp::create(rewriter, op.getLoc(), inner.getOffset(),
                                      op.getOffset());
    rewriter.replaceOpWithNewOp<AddPtrOp>(op, op.getType(), inner.getPtr(),
                                          sum);
    return success();
  }
};
} // namespace

void AddPtrOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                           MLIRContext *context) {
  results.add<CombineAddPtrs>(context);
}

OpFoldResult BitcastOp::fold(FoldAdaptor adaptor) {
  if (getSrc().getType() == getType())
    return getSrc();
  return {};
}

OpFoldResult AdvanceOp::fold(FoldAdaptor adaptor) {
  if (llvm::all_of(getOffsets(), isZeroConstant))
    return getPtr();
  return {};
}

//===----------------------------------------------------------------------===//
// Loads and stores with constant masks
//===----------------------------------------------------------------------===//

namespace {
struct FoldConstantLoadMask : public OpRewritePattern<LoadOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(LoadOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<bool> mask = constantMask(op.getMask());
    if (!mask)
      return failure();
    if (*mask) {
      // Every lane reads: the mask and the fallback value are dead.
      rewriter.modifyOpInPlace(op, [&] {
        op.getMaskMutable().clear();
        op.getOtherMutable().clear();
      });
      return success();
    }
    // No lane reads: the result is `other` (a volatile load still happens).
    if (!op.getOther() || op.getIsVolatile())
      return failure();
    rewriter.replaceOp(op, op.getOther());
    return success();
  }
};

struct FoldConstantStoreMask : public OpRewritePattern<StoreOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(StoreOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<bool> mask = constantMask(op.getMask());
    if (!mask)
      return failure();
    if (*mask)
      rewriter.modifyOpInPlace(op, [&] { op.getMaskMutable().clear(); });
    else
      rewriter.eraseOp(op);
    return success();
  }
};
} // namespace

void LoadOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                         MLIRContext *context) {
  results.add<FoldConstantLoadMask>(context);
}

void StoreOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                          MLIRContext *context) {
  results.add<FoldConstantStoreMask>(context);
}

//===----------------------------------------------------------------------===//
// Dot
//===----------------------------------------------------------------------===//

namespace {
/// add(dot(a, b, 0), c) -> dot(a, b, c): the matrix unit adds the
/// accumulator for free. Only when the dot has no other use.
template <typename AddOpTy>
struct FoldAddIntoDot : public OpRewritePattern<AddOpTy> {
  using OpRewritePattern<AddOpTy>::OpRewritePattern;
  LogicalResult matchAndRewrite(AddOpTy add,
                                PatternRewriter &rewriter) const override {
    for (unsigned i = 0; i < 2; ++i) {
      auto dot = add->getOperand(i).template getDefiningOp<DotOp>();
      if (!dot || !dot->hasOneUse() || !isZeroConstant(dot.getC()))
        continue;
      Value other = add->getOperand(1 - i);
      if (other.getType() != dot.getType())
        continue;
      rewriter.replaceOpWithNewOp<DotOp>(
          add, dot.getType(), dot.getA(), dot.getB(), other,
          dot.getInputPrecision(), dot.getMaxNumImpreciseAcc());
      rewriter.eraseOp(dot);
      return success();
    }
    return failure();
  }
};
} // namespace

void DotOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                        MLIRContext *context) {
  results.add<FoldAddIntoDot<arith::AddFOp>, FoldAddIntoDot<arith::AddIOp>>(
      context);
}
