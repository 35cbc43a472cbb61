//===- LowerShape.cpp - Reshaping blocks on the CPU -----------------------===//
//
// With one thread per program instance, layouts carry no information: a
// convert_layout is the identity, and reshapes, transposes, joins, splits and
// concatenations are tensor-dialect ops on row-major data.
//
//===----------------------------------------------------------------------===//
#include "Lowering.h"

#include "mlir/Dialect/Utils/ReshapeOpsUtils.h"

using namespace mlir;
using namespace mlir::tessera;
using namespace mlir::tessera::cpu;

namespace {

/// Flattens `value` to rank 1 (no-op for rank 1).
Value collapseToVector(OpBuilder &b, Location loc, Value value) {
  auto type = cast<RankedTensorType>(value.getType());
  if (type.getRank() == 1)
    return value;
  ReassociationIndices all;
  for (int64_t d = 0; d < type.getRank(); ++d)
    all.push_back(d);
  return tensor::CollapseShapeOp::create(
      b, loc, value, SmallVector<ReassociationIndices>{all});
}

/// Reshapes a rank-1 tensor to `type` (no-op for rank 1).
Value expandFromVector(OpBuilder &b, Location loc, Value value,
                       RankedTensorType type) {
  if (type.getRank() == 1)
    return value;
  ReassociationIndices all;
  for (int64_t d = 0; d < type.getRank(); ++d)
    all.push_back(d);
  return tensor::ExpandShapeOp::create(b, loc, type, value,
                                       SmallVector<ReassociationIndices>{all});
}

struct ConvertLayoutOpLowering
    : public OpConversionPattern<gpu::ConvertLayoutOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(gpu::ConvertLayoutOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, adaptor.getSrc());
    return success();
  }
};

/// expand_dims inserts a unit dimension: the dimension before it (or after,
/// at axis 0) absorbs it.
struct ExpandDimsOpLowering : public OpConversionPattern<ExpandDimsOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ExpandDimsOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = getTypeConverter()->convertType<RankedTensorType>(op.getType());
    Value src = adaptor.getSrc();
    Location loc = op.getLoc();
    if (cast<RankedTensorType>(src.getType()).getRank() == 0) {
      rewriter.replaceOpWithNewOp<tensor::ExpandShapeOp>(
          op, type, src, SmallVector<ReassociationIndices>{});
      return success();
    }
    int64_t axis = op.getAxis();
    int64_t srcRank = type.getRank() - 1;
    SmallVector<ReassociationIndices> groups;
    for (int64_t d = 0; d < srcRank; ++d) {
      int64_t first = d < axis ? d : d + 1;
      groups.push_back({first});
    }
    // The new dimension joins its neighbour's group.
    if (axis == 0)
      groups.front().insert(groups.front().begin(), 0);
    else
      groups[axis - 1].push_back(axis);
    rewriter.replaceOp(
        op, tensor::ExpandShapeOp::create(rewriter, loc, type, src, groups));
    return success();
  }
};

/// Row-major reshape: through rank 1. With `allow_reorder` any order is
/// allowed, so keeping row-major order is correct too.
struct ReshapeOpLowering : public OpConversionPattern<ReshapeOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ReshapeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = getTypeConverter()->convertType<RankedTensorType>(op.getType());
    Location loc = op.getLoc();
    Value flat = collapseToVector(rewriter, loc, adaptor.getSrc());
    rewriter.replaceOp(op, expandFromVector(rewriter, loc, flat, type));
    return success();
  }
};

struct TransOpLowering : public OpConversionPattern<TransOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(TransOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = getTypeConverter()->convertType<RankedTensorType>(op.getType());
    Location loc = op.getLoc();
    SmallVector<int64_t> perm(op.getOrder().begin(), op.getOrder().end());
    Value empty = createEmpty(rewriter, loc, type);
    auto transpose = linalg::TransposeOp::create(rewriter, loc,
                                                 adaptor.getSrc(), empty, perm);
    rewriter.replaceOp(op, transpose.getResult());
    return success();
  }
};

/// Offsets/sizes/strides of the slice `index` (0 or 1) of the minor
/// dimension of a tensor of `shape`.
void minorSlice(OpBuilder &b, ArrayRef<int64_t> shape, int64_t index,
                SmallVectorImpl<OpFoldResult> &offsets,
                SmallVectorImpl<OpFoldResult> &sizes,
                SmallVectorImpl<OpFoldResult> &strides) {
  for (auto [d, size] : llvm::enumerate(shape)) {
    bool minor = d + 1 == shape.size();
    offsets.push_back(b.getIndexAttr(minor ? index : 0));
    sizes.push_back(b.getIndexAttr(minor ? 1 : size));
    strides.push_back(b.getIndexAttr(1));
  }
}

/// join: both operands go into one slice each of the new minor dimension.
struct JoinOpLowering : public OpConversionPattern<JoinOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(JoinOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = getTypeConverter()->convertType<RankedTensorType>(op.getType());
    Location loc = op.getLoc();
    Value result = createEmpty(rewriter, loc, type);
    SmallVector<Value> parts{adaptor.getLhs(), adaptor.getRhs()};
    for (auto [index, part] : llvm::enumerate(parts)) {
      SmallVector<OpFoldResult> offsets, sizes, strides;
      minorSlice(rewriter, type.getShape(), index, offsets, sizes, strides);
      result = tensor::InsertSliceOp::create(rewriter, loc, part, result,
                                             offsets, sizes, strides);
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct SplitOpLowering : public OpConversionPattern<SplitOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(SplitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto partType = getTypeConverter()->convertType<RankedTensorType>(
        op.getOutLHS().getType());
    auto srcType = cast<RankedTensorType>(adaptor.getSrc().getType());
    Location loc = op.getLoc();
    SmallVector<Value> parts;
    for (int64_t index = 0; index < 2; ++index) {
      SmallVector<OpFoldResult> offsets, sizes, strides;
      minorSlice(rewriter, srcType.getShape(), index, offsets, sizes, strides);
      parts.push_back(tensor::ExtractSliceOp::create(
          rewriter, loc, partType, adaptor.getSrc(), offsets, sizes, strides));
    }
    rewriter.replaceOp(op, parts);
    return success();
  }
};

/// cat: lhs then rhs along dimension 0.
struct CatOpLowering : public OpConversionPattern<CatOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(CatOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = getTypeConverter()->convertType<RankedTensorType>(op.getType());
    auto partType = cast<RankedTensorType>(adaptor.getLhs().getType());
    Location loc = op.getLoc();
    Value result = createEmpty(rewriter, loc, type);
    SmallVector<Value> parts{adaptor.getLhs(), adaptor.getRhs()};
    for (auto [index, part] : llvm::enumerate(parts)) {
      SmallVector<OpFoldResult> offsets, sizes, strides;
      for (auto [d, size] : llvm::enumerate(partType.getShape())) {
        offsets.push_back(rewriter.getIndexAttr(d == 0 ? index * size : 0));
        sizes.push_back(rewriter.getIndexAttr(size));
        strides.push_back(rewriter.getIndexAttr(1));
      }
      result = tensor::InsertSliceOp::create(rewriter, loc, part, result,
                                             offsets, sizes, strides);
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void cpu::populateShapePatterns(const CpuTypeConverter &converter,
                                RewritePatternSet &patterns) {
  patterns.add<ConvertLayoutOpLowering, ExpandDimsOpLowering, ReshapeOpLowering,
               TransOpLowering, JoinOpLowering, SplitOpLowering, CatOpLowering>(
      converter, patterns.getContext());
}
