//===- ConvertToGPU.cpp - Give every tensor a layout ----------------------===//
//
// tessera -> tessera_gpu. Every tensor gets the default blocked layout of its
// shape for the launch shape in the options. Ops whose result layout follows
// from their operand's keep that relation instead of moving data (the rules
// of LayoutPropagation.h): reductions yield slices of their operand's layout;
// transposes, reshapes, joins, splits and concatenations relabel the
// operand's LinearLayout. Operands that need
// another layout than the one they have get a convert_layout, which later
// passes propagate or remove.
//
//===----------------------------------------------------------------------===//
#include "tessera/Dialect/TesseraGPU/IR/LayoutPropagation.h"
#include "tessera/Transforms/Passes.h"

#include "mlir/Dialect/Func/Transforms/FuncConversions.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::tessera {
#define GEN_PASS_DEF_TESSERACONVERTTOGPU
#include "tessera/Transforms/Passes.h.inc"
} // namespace mlir::tessera

using namespace mlir;
using namespace mlir::tessera;
using namespace mlir::tessera::gpu;

namespace {

/// Tensors without a layout get the default blocked layout of their shape;
/// everything else is left alone.
class LayoutTypeConverter : public TypeConverter {
public:
  LayoutTypeConverter(MLIRContext *ctx, LaunchShape launch) : launch(launch) {
    addConversion([](Type type) { return type; });
    addConversion([this, ctx](RankedTensorType type) -> Type {
      if (type.getEncoding())
        return type;
      return withEncoding(type, defaultLayout(ctx, type.getShape()));
    });
    // A block pointer's tile takes the layout its loads yield and its stores
    // take, so that a load's result stays the type its pointer points to.
    addConversion([this](PointerType type) -> Type {
      auto tile = dyn_cast<RankedTensorType>(type.getPointeeType());
      if (!tile || tile.getEncoding())
        return type;
      return PointerType::get(convertType(tile), type.getAddressSpace());
    });
    auto convert = [](OpBuilder &builder, Type type, ValueRange inputs,
                      Location loc) -> Value {
      if (inputs.size() != 1 || !isa<RankedTensorType>(type) ||
          !isa<RankedTensorType>(inputs[0].getType()))
        return {};
      return ConvertLayoutOp::create(builder, loc, type, inputs[0]);
    };
    addSourceMaterialization(convert);
    addTargetMaterialization(convert);
  }

  /// The default layout of a tensor of `shape`.
  BlockedAttr defaultLayout(MLIRContext *ctx, ArrayRef<int64_t> shape) const {
    return getDefaultBlockedEncoding(ctx, shape, launch.numWarps,
                                     launch.threadsPerWarp, launch.numCTAs);
  }

  LaunchShape launch;
};

Value convertTo(ConversionPatternRewriter &rewriter, Location loc, Value value,
                Attribute encoding) {
  auto type = cast<RankedTensorType>(value.getType());
  if (type.getEncoding() == encoding)
    return value;
  return ConvertLayoutOp::create(rewriter, loc, withEncoding(type, encoding),
                                 value);
}

/// Any op whose results simply take the converted types: elementwise
/// arithmetic, loads and stores, splats, ranges, scans, ... Operands are
/// remapped to their converted types by the framework.
class GenericConversion : public ConversionPattern {
public:
  GenericConversion(const TypeConverter &converter, MLIRContext *ctx)
      : ConversionPattern(converter, MatchAnyOpTypeTag(), /*benefit=*/1, ctx) {}

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    StringRef dialect = op->getDialect() ? op->getDialect()->getNamespace() : "";
    if (dialect != "tessera" && dialect != "arith" && dialect != "math")
      return failure();
    SmallVector<Type> resultTypes;
    if (failed(getTypeConverter()->convertTypes(op->getResultTypes(),
                                                resultTypes)))
      return failure();
    OperationState state(op->getLoc(), op->getName(), operands, resultTypes,
                         op->getAttrs(), op->getSuccessors());
    // A tensor constant's value carries the result type, layout included.
    if (auto constant = dyn_cast<arith::ConstantOp>(op))
      if (auto dense = dyn_cast<DenseElementsAttr>(constant.getValue()))
        state.attributes.set(
            constant.getValueAttrName(),
            dense.reshape(cast<ShapedType>(resultTypes.front())));
    for (Region &region : op->getRegions()) {
      Region *newRegion = state.addRegion();
      rewriter.inlineRegionBefore(region, *newRegion, newRegion->end());
      if (failed(rewriter.convertRegionTypes(newRegion, *getTypeConverter())))
        return failure();
    }
    rewriter.replaceOp(op, rewriter.create(state)->getResults());
    return success();
  }
};

/// Base of the patterns that need the converter's launch shape.
template <typename OpTy>
class LayoutPattern : public OpConversionPattern<OpTy> {
public:
  LayoutPattern(const LayoutTypeConverter &converter, MLIRContext *ctx)
      : OpConversionPattern<OpTy>(converter, ctx, /*benefit=*/2),
        layouts(converter) {}

protected:
  const LayoutTypeConverter &layouts;
};

/// A reduction's result lives in the slice of its operand's layout: the
/// threads that held one row now hold that row's result.
struct ReduceConversion : public LayoutPattern<ReduceOp> {
  using LayoutPattern::LayoutPattern;
  LogicalResult
  matchAndRewrite(ReduceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto srcType = cast<RankedTensorType>(adaptor.getSrcs()[0].getType());
    SmallVector<Type> resultTypes;
    for (Type type : op.getResultTypes()) {
      auto tensor = dyn_cast<RankedTensorType>(type);
      if (!tensor) {
        resultTypes.push_back(type);
        continue;
      }
      resultTypes.push_back(withEncoding(
          tensor, getSliceEncoding(srcType.getEncoding(), srcType.getShape(),
                                   op.getAxis(), layouts.launch)));
    }
    // All operands share the first one's layout.
    SmallVector<Value> srcs;
    for (Value src : adaptor.getSrcs())
      srcs.push_back(convertTo(rewriter, op.getLoc(), src,
                               srcType.getEncoding()));
    auto newOp =
        ReduceOp::create(rewriter, op.getLoc(), resultTypes, srcs, op.getAxis());
    rewriter.inlineRegionBefore(op.getCombineOp(), newOp.getCombineOp(),
                                newOp.getCombineOp().end());
    rewriter.replaceOp(op, newOp.getResults());
    return success();
  }
};

/// expand_dims needs its operand in the slice (along the new axis) of the
/// result's layout.
struct ExpandDimsConversion : public LayoutPattern<ExpandDimsOp> {
  using LayoutPattern::LayoutPattern;
  LogicalResult
  matchAndRewrite(ExpandDimsOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType = cast<RankedTensorType>(
        getTypeConverter()->convertType(op.getType()));
    Attribute slice = inferExpandDimsOperandEncoding(
        resultType.getEncoding(), resultType.getShape(), op.getAxis(),
        layouts.launch);
    Value src = convertTo(rewriter, op.getLoc(), adaptor.getSrc(), slice);
    rewriter.replaceOpWithNewOp<ExpandDimsOp>(op, resultType, src,
                                              op.getAxis());
    return success();
  }
};

/// broadcast keeps the layout: the operand takes the result's layout (with
/// its size-1 dimensions broadcast over the threads).
struct BroadcastConversion : public LayoutPattern<BroadcastOp> {
  using LayoutPattern::LayoutPattern;
  LogicalResult
  matchAndRewrite(BroadcastOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType = cast<RankedTensorType>(
        getTypeConverter()->convertType(op.getType()));
    Attribute encoding = inferBroadcastOperandEncoding(
        resultType.getEncoding(), resultType.getShape(),
        op.getSrc().getType().getShape(), layouts.launch);
    Value src = convertTo(rewriter, op.getLoc(), adaptor.getSrc(), encoding);
    rewriter.replaceOpWithNewOp<BroadcastOp>(op, resultType, src);
    return success();
  }
};

/// An FMA dot: the operands take dot-operand layouts of the result's.
struct DotConversion : public LayoutPattern<DotOp> {
  using LayoutPattern::LayoutPattern;
  LogicalResult
  matchAndRewrite(DotOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType = cast<RankedTensorType>(
        getTypeConverter()->convertType(op.getType()));
    Attribute parent = resultType.getEncoding();
    Value a = convertTo(rewriter, op.getLoc(), adaptor.getA(),
                        DotOperandAttr::get(getContext(), 0, parent, 0));
    Value b = convertTo(rewriter, op.getLoc(), adaptor.getB(),
                        DotOperandAttr::get(getContext(), 1, parent, 0));
    Value c = convertTo(rewriter, op.getLoc(), adaptor.getC(), parent);
    rewriter.replaceOpWithNewOp<DotOp>(op, resultType, a, b, c,
                                       op.getInputPrecision(),
                                       op.getMaxNumImpreciseAcc());
    return success();
  }
};

/// trans relabels the dimensions of its operand's layout.
struct TransConversion : public LayoutPattern<TransOp> {
  using LayoutPattern::LayoutPattern;
  LogicalResult
  matchAndRewrite(TransOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto srcType = cast<RankedTensorType>(adaptor.getSrc().getType());
    Attribute encoding =
        inferTransEncoding(srcType.getEncoding(), srcType.getShape(),
                           op.getOrder(), layouts.launch);
    rewriter.replaceOpWithNewOp<TransOp>(op,
                                         withEncoding(op.getType(), encoding),
                                         adaptor.getSrc(), op.getOrder());
    return success();
  }
};

/// reshape keeps every element in its thread and register: the operand's
/// layout seen through the new shape (row-major order is preserved).
struct ReshapeConversion : public LayoutPattern<ReshapeOp> {
  using LayoutPattern::LayoutPattern;
  LogicalResult
  matchAndRewrite(ReshapeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto srcType = cast<RankedTensorType>(adaptor.getSrc().getType());
    Attribute encoding =
        inferReshapeEncoding(srcType.getEncoding(), srcType.getShape(),
                             op.getType().getShape(), layouts.launch);
    auto newOp = rewriter.replaceOpWithNewOp<ReshapeOp>(
        op, withEncoding(op.getType(), encoding), adaptor.getSrc());
    newOp.setAllowReorder(op.getAllowReorder());
    return success();
  }
};

/// join adds a register holding the second operand.
struct JoinConversion : public LayoutPattern<JoinOp> {
  using LayoutPattern::LayoutPattern;
  LogicalResult
  matchAndRewrite(JoinOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto srcType = cast<RankedTensorType>(adaptor.getLhs().getType());
    Value rhs = convertTo(rewriter, op.getLoc(), adaptor.getRhs(),
                          srcType.getEncoding());
    Attribute encoding = inferJoinResultEncoding(
        srcType.getEncoding(), srcType.getShape(), layouts.launch);
    rewriter.replaceOpWithNewOp<JoinOp>(
        op, withEncoding(op.getType(), encoding), adaptor.getLhs(), rhs);
    return success();
  }
};

/// split needs the pair (the minor dimension of 2) in one thread's
/// registers; each result drops that register.
struct SplitConversion : public LayoutPattern<SplitOp> {
  using LayoutPattern::LayoutPattern;
  LogicalResult
  matchAndRewrite(SplitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto srcType = op.getSrc().getType();
    unsigned rank = srcType.getRank();
    SmallVector<unsigned> order;
    for (int64_t d = rank - 1; d >= 0; --d)
      order.push_back(d);
    const LaunchShape &launch = layouts.launch;
    BlockedAttr pairLayout = getBlockedEncoding(
        getContext(), srcType.getShape(), order, /*sizePerThread=*/2,
        launch.numWarps, launch.threadsPerWarp, launch.numCTAs);
    Value src = convertTo(rewriter, op.getLoc(), adaptor.getSrc(), pairLayout);
    FailureOr<Attribute> encoding =
        inferSplitResultEncoding(pairLayout, srcType.getShape(), launch);
    assert(succeeded(encoding) && "the pair layout holds pairs in registers");
    auto resultType = withEncoding(op.getOutLHS().getType(), *encoding);
    rewriter.replaceOpWithNewOp<SplitOp>(op, TypeRange{resultType, resultType},
                                         src);
    return success();
  }
};

/// cat stacks the second operand in registers above the first along dim 0.
struct CatConversion : public LayoutPattern<CatOp> {
  using LayoutPattern::LayoutPattern;
  LogicalResult
  matchAndRewrite(CatOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto srcType = cast<RankedTensorType>(adaptor.getLhs().getType());
    Value rhs = convertTo(rewriter, op.getLoc(), adaptor.getRhs(),
                          srcType.getEncoding());
    Attribute encoding = inferCatResultEncoding(
        srcType.getEncoding(), srcType.getShape(), layouts.launch);
    rewriter.replaceOpWithNewOp<CatOp>(op, withEncoding(op.getType(), encoding),
                                       adaptor.getLhs(), rhs);
    return success();
  }
};

class ConvertToGPUPass
    : public mlir::tessera::impl::TesseraConvertToGPUBase<ConvertToGPUPass> {
public:
  using TesseraConvertToGPUBase::TesseraConvertToGPUBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    if (numWarps < 1 || !llvm::isPowerOf2_32(numWarps) || threadsPerWarp < 1 ||
        !llvm::isPowerOf2_32(threadsPerWarp) || numCTAs < 1 ||
        !llvm::isPowerOf2_32(numCTAs)) {
      module.emitError("num-warps, threads-per-warp and num-ctas must be "
                       "powers of two; got ")
          << numWarps.getValue() << ", " << threadsPerWarp.getValue()
          << " and " << numCTAs.getValue();
      return signalPassFailure();
    }
    LaunchShape launch{numWarps, threadsPerWarp, numCTAs};
    LayoutTypeConverter converter(ctx, launch);

    RewritePatternSet patterns(ctx);
    patterns.add<GenericConversion>(converter, ctx);
    patterns.add<ReduceConversion, ExpandDimsConversion, BroadcastConversion,
                 DotConversion, TransConversion, ReshapeConversion,
                 JoinConversion, SplitConversion, CatConversion>(converter,
                                                                 ctx);
    ConversionTarget legality(*ctx);
    legality.addLegalDialect<TesseraGPUDialect>();
    legality.markUnknownOpDynamicallyLegal([&](Operation *op) {
      if (auto func = dyn_cast<FunctionOpInterface>(op))
        return converter.isLegal(func.getArgumentTypes()) &&
               converter.isLegal(func.getResultTypes()) &&
               llvm::all_of(func.getFunctionBody().getArgumentTypes(),
                            [&](Type t) { return converter.isLegal(t); });
      return converter.isLegal(op);
    });
    populateFunctionOpInterfaceTypeConversionPattern<func::FuncOp>(patterns,
                                                                   converter);
    populateCallOpTypeConversionPattern(patterns, converter);
    populateReturnOpTypeConversionPattern(patterns, converter);
    populateBranchOpInterfaceTypeConversionPattern(patterns, converter);
    scf::populateSCFStructuralTypeConversions(converter, patterns);

    if (failed(applyPartialConversion(module, legality, std::move(patterns))))
      return signalPassFailure();

    setLaunchShape(module, launch);
    if (!target.empty())
      module->setAttr(TesseraGPUDialect::kTargetAttrName,
                      StringAttr::get(ctx, this->target));
  }
};

} // namespace
