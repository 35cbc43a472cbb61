//===- LowerCompute.cpp - Reductions, scans, histograms and dots ----------===//
//
// reduce: a linalg.generic whose body is the combine region, seeded with the
// first element along the axis (a region has no identity to start from) and
// iterating the rest; its floating-point operations may be reassociated, so
// that LLVM keeps partial results in vector lanes (the order of a Triton
// reduction is unspecified; it is the same in every run and with any number
// of threads). scan: a sequential loop along the axis carrying the
// accumulators. histogram: a loop counting in-range, unmasked elements. dot:
// operands are first widened to the accumulator's type (fp16/bf16/fp8 -> fp32,
// int8 -> int32), then one linalg.generic over (batch, m, k, n) with n
// innermost so that LLVM vectorizes along rows of B and C; every output
// accumulates its K products in order with fused multiply-adds (floats),
// whatever the thread count.
//
//===----------------------------------------------------------------------===//
#include "Lowering.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace mlir::tessera;
using namespace mlir::tessera::cpu;

namespace {

/// Clones the single-block combine `region` at `b`, its arguments bound to
/// `accumulators` then `values`; returns what its terminator yields. With
/// `reassociate`, its floating-point operations may be reassociated (a
/// reduction's order is unspecified, as on GPUs, where it is a tree), which
/// lets LLVM vectorize the loop with partial sums in vector lanes.
SmallVector<Value> cloneCombine(OpBuilder &b, Region &region,
                                ValueRange accumulators, ValueRange values,
                                bool reassociate = false) {
  Block &block = region.front();
  IRMapping mapping;
  unsigned n = accumulators.size();
  for (unsigned i = 0; i < n; ++i) {
    mapping.map(block.getArgument(i), accumulators[i]);
    mapping.map(block.getArgument(n + i), values[i]);
  }
  for (Operation &op : block.without_terminator()) {
    Operation *clone = b.clone(op, mapping);
    auto fastMath = dyn_cast<arith::ArithFastMathInterface>(clone);
    // Arithmetic only: a comparison's flags say nothing about order.
    if (reassociate && fastMath &&
        llvm::all_of(clone->getResultTypes(),
                     [](Type type) { return isa<FloatType>(type); }))
      clone->setAttr(
          fastMath.getFastMathAttrName(),
          arith::FastMathFlagsAttr::get(
              b.getContext(), fastMath.getFastMathFlagsAttr().getValue() |
                                  arith::FastMathFlags::reassoc));
  }
  SmallVector<Value> results;
  for (Value v : block.getTerminator()->getOperands())
    results.push_back(mapping.lookupOrDefault(v));
  return results;
}

/// The combine region must work on the converted element types as they are.
LogicalResult checkCombineTypes(Operation *op, Region &region,
                                const TypeConverter &converter) {
  for (BlockArgument arg : region.front().getArguments())
    if (converter.convertType(arg.getType()) != arg.getType())
      return op->emitError() << "combine region over " << arg.getType()
                             << " values is not supported on the CPU backend";
  return success();
}

/// Offsets/sizes/strides of the slice [start, start + size) along `axis`.
void axisSlice(OpBuilder &b, ArrayRef<int64_t> shape, int64_t axis,
               int64_t start, int64_t size,
               SmallVectorImpl<OpFoldResult> &offsets,
               SmallVectorImpl<OpFoldResult> &sizes,
               SmallVectorImpl<OpFoldResult> &strides) {
  for (auto [d, extent] : llvm::enumerate(shape)) {
    bool isAxis = (int64_t)d == axis;
    offsets.push_back(b.getIndexAttr(isAxis ? start : 0));
    sizes.push_back(b.getIndexAttr(isAxis ? size : extent));
    strides.push_back(b.getIndexAttr(1));
  }
}

struct ReduceOpLowering : public OpConversionPattern<ReduceOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ReduceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(checkCombineTypes(op, op.getCombineOp(), *getTypeConverter())))
      return failure();
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    ValueRange srcs = adaptor.getSrcs();
    auto srcType = cast<RankedTensorType>(srcs.front().getType());
    ArrayRef<int64_t> shape = srcType.getShape();
    int64_t axis = op.getAxis();
    int64_t rank = srcType.getRank();
    int64_t n = shape[axis];
    SmallVector<int64_t> resultShape;
    for (int64_t d = 0; d < rank; ++d)
      if (d != axis)
        resultShape.push_back(shape[d]);

    // Seeds: the first element along the axis, as rank-reduced slices.
    SmallVector<Value> inits, rests;
    SmallVector<Type> accTypes;
    for (Value src : srcs) {
      Type elemType = cast<RankedTensorType>(src.getType()).getElementType();
      auto accType = RankedTensorType::get(resultShape, elemType);
      accTypes.push_back(accType);
      SmallVector<OpFoldResult> offsets, sizes, strides;
      axisSlice(rewriter, shape, axis, 0, 1, offsets, sizes, strides);
      inits.push_back(tensor::ExtractSliceOp::create(
          rewriter, loc, accType, src, offsets, sizes, strides));
      if (n > 1) {
        SmallVector<OpFoldResult> rOffsets, rSizes, rStrides;
        axisSlice(rewriter, shape, axis, 1, n - 1, rOffsets, rSizes, rStrides);
        rests.push_back(tensor::ExtractSliceOp::create(
            rewriter, loc, src, rOffsets, rSizes, rStrides));
      }
    }

    SmallVector<Value> results = inits;
    if (n > 1) {
      SmallVector<AffineExpr> accExprs;
      for (int64_t d = 0; d < rank; ++d)
        if (d != axis)
          accExprs.push_back(getAffineDimExpr(d, ctx));
      AffineMap identity = AffineMap::getMultiDimIdentityMap(rank, ctx);
      AffineMap accMap = AffineMap::get(rank, 0, accExprs, ctx);
      SmallVector<AffineMap> maps(rests.size(), identity);
      maps.append(inits.size(), accMap);
      SmallVector<utils::IteratorType> iterators(rank,
                                                 utils::IteratorType::parallel);
      iterators[axis] = utils::IteratorType::reduction;
      unsigned numSrcs = srcs.size();
      auto generic = linalg::GenericOp::create(
          rewriter, loc, accTypes, rests, inits, maps, iterators,
          [&](OpBuilder &b, Location nestedLoc, ValueRange args) {
            SmallVector<Value> combined =
                cloneCombine(b, op.getCombineOp(), args.drop_front(numSrcs),
                             args.take_front(numSrcs), /*reassociate=*/true);
            linalg::YieldOp::create(b, nestedLoc, combined);
          });
      results.assign(generic.getResults().begin(), generic.getResults().end());
    }
    // A rank-1 reduction yields scalars.
    if (rank == 1)
      for (Value &result : results)
        result = tensor::ExtractOp::create(rewriter, loc, result, ValueRange{});
    rewriter.replaceOp(op, results);
    return success();
  }
};

struct ScanOpLowering : public OpConversionPattern<ScanOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ScanOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(checkCombineTypes(op, op.getCombineOp(), *getTypeConverter())))
      return failure();
    Location loc = op.getLoc();
    SmallVector<Value> srcs(adaptor.getSrcs());
    auto srcType = cast<RankedTensorType>(srcs.front().getType());
    int64_t axis = op.getAxis();
    int64_t n = srcType.getDimSize(axis);
    bool reverse = op.getReverse();
    // Outer loops over every position but the axis; the axis loop inside.
    SmallVector<int64_t> outerShape(srcType.getShape());
    outerShape[axis] = 1;
    SmallVector<Value> inits;
    for (Value src : srcs)
      inits.push_back(
          createEmpty(rewriter, loc, cast<RankedTensorType>(src.getType())));
    SmallVector<Value> results = buildLoopNest(
        rewriter, loc, outerShape, inits,
        [&](OpBuilder &b, Location l, ValueRange ivs,
            ValueRange outs) -> SmallVector<Value> {
          auto indicesAt = [&](OpBuilder &ib, Value k) {
            SmallVector<Value> indices(ivs);
            indices[axis] = k;
            return indices;
          };
          // The first element along the scan order is its own prefix.
          Value first = createIndex(b, l, reverse ? n - 1 : 0);
          SmallVector<Value> accs, tensors;
          for (auto [src, out] : llvm::zip(srcs, outs)) {
            Value x = tensor::ExtractOp::create(b, l, src, indicesAt(b, first));
            accs.push_back(x);
            tensors.push_back(
                tensor::InsertOp::create(b, l, x, out, indicesAt(b, first)));
          }
          if (n == 1)
            return tensors;
          SmallVector<Value> carried = accs;
          carried.append(tensors);
          unsigned numSrcs = srcs.size();
          auto loop = scf::ForOp::create(
              b, l, createIndex(b, l, 1), createIndex(b, l, n),
              createIndex(b, l, 1), carried,
              [&](OpBuilder &lb, Location ll, Value j, ValueRange args) {
                Value k = j;
                if (reverse)
                  k = arith::SubIOp::create(lb, ll, createIndex(lb, ll, n - 1),
                                            j);
                SmallVector<Value> indices = indicesAt(lb, k);
                SmallVector<Value> xs;
                for (Value src : srcs)
                  xs.push_back(tensor::ExtractOp::create(lb, ll, src, indices));
                SmallVector<Value> combined = cloneCombine(
                    lb, op.getCombineOp(), args.take_front(numSrcs), xs);
                SmallVector<Value> next = combined;
                for (auto [value, tensor] :
                     llvm::zip(combined, args.drop_front(numSrcs)))
                  next.push_back(
                      tensor::InsertOp::create(lb, ll, value, tensor, indices));
                scf::YieldOp::create(lb, ll, next);
              });
          return SmallVector<Value>(loop.getResults().drop_front(numSrcs));
        });
    rewriter.replaceOp(op, results);
    return success();
  }
};

struct HistogramOpLowering : public OpConversionPattern<HistogramOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(HistogramOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = getTypeConverter()->convertType<RankedTensorType>(op.getType());
    int64_t numBins = type.getDimSize(0);
    Value src = adaptor.getSrc(), mask = adaptor.getMask();
    auto srcType = cast<RankedTensorType>(src.getType());
    Value zeros =
        linalg::FillOp::create(rewriter, loc,
                               createZero(rewriter, loc, rewriter.getI32Type()),
                               createEmpty(rewriter, loc, type))
            .getResult(0);
    Value result =
        buildLoopNest(
            rewriter, loc, srcType.getShape(), zeros,
            [&](OpBuilder &b, Location l, ValueRange ivs,
                ValueRange args) -> SmallVector<Value> {
              Value v = toI64(b, l, tensor::ExtractOp::create(b, l, src, ivs));
              Value zero = createZero(b, l, b.getI64Type());
              Value bins =
                  arith::ConstantOp::create(b, l, b.getI64IntegerAttr(numBins));
              // Created one by one: the order of arguments' evaluation is
              // unspecified, and tests read the IR.
              Value nonNegative = arith::CmpIOp::create(
                  b, l, arith::CmpIPredicate::sge, v, zero);
              Value belowBins = arith::CmpIOp::create(
                  b, l, arith::CmpIPredicate::slt, v, bins);
              Value counted =
                  arith::AndIOp::create(b, l, nonNegative, belowBins);
              if (mask)
                counted = arith::AndIOp::create(
                    b, l, counted, tensor::ExtractOp::create(b, l, mask, ivs));
              auto ifOp = scf::IfOp::create(
                  b, l, counted,
                  [&](OpBuilder &t, Location tl) {
                    Value bin =
                        arith::IndexCastOp::create(t, tl, t.getIndexType(), v);
                    Value count =
                        tensor::ExtractOp::create(t, tl, args[0], bin);
                    Value one = arith::ConstantOp::create(
                        t, tl, t.getI32IntegerAttr(1));
                    Value next = arith::AddIOp::create(t, tl, count, one);
                    scf::YieldOp::create(t, tl,
                                         Value(tensor::InsertOp::create(
                                             t, tl, next, args[0], bin)));
                  },
                  [&](OpBuilder &e, Location el) {
                    scf::YieldOp::create(e, el, args[0]);
                  });
              return {ifOp.getResult(0)};
            })
            .front();
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// Converts every element of `value` to `elemType` (dot operands to the
/// accumulator's type).
Value castElements(OpBuilder &b, Location loc, Value value, Type elemType) {
  auto type = cast<RankedTensorType>(value.getType());
  Type from = type.getElementType();
  if (from == elemType)
    return value;
  auto resultType = RankedTensorType::get(type.getShape(), elemType);
  unsigned rank = type.getRank();
  AffineMap identity = AffineMap::getMultiDimIdentityMap(rank, b.getContext());
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{resultType}, ValueRange{value},
      ValueRange{createEmpty(b, loc, resultType)},
      SmallVector<AffineMap>{identity, identity},
      SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
      [&](OpBuilder &nb, Location l, ValueRange args) {
        Value x = args[0];
        Value converted;
        if (isa<FloatType>(from) && isa<FloatType>(elemType))
          converted =
              from.getIntOrFloatBitWidth() < elemType.getIntOrFloatBitWidth()
                  ? Value(arith::ExtFOp::create(nb, l, elemType, x))
                  : Value(arith::TruncFOp::create(nb, l, elemType, x));
        else if (isa<IntegerType>(from) && isa<IntegerType>(elemType))
          converted =
              from.getIntOrFloatBitWidth() < elemType.getIntOrFloatBitWidth()
                  ? Value(arith::ExtSIOp::create(nb, l, elemType, x))
                  : Value(arith::TruncIOp::create(nb, l, elemType, x));
        else if (isa<IntegerType>(from))
          converted = arith::SIToFPOp::create(nb, l, elemType, x);
        else
          converted = arith::FPToSIOp::create(nb, l, elemType, x);
        linalg::YieldOp::create(nb, l, converted);
      });
  return generic.getResult(0);
}

struct DotOpLowering : public OpConversionPattern<DotOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(DotOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    auto resultType = cast<RankedTensorType>(adaptor.getC().getType());
    Type resultElem = resultType.getElementType();
    // A float accumulator narrower than fp32 (out_dtype=fp16) is kept in
    // fp32 and rounded once, after the last product: matrix units keep at
    // least fp32 inside an instruction and round per instruction (or never,
    // where fp16 dots run on fp32 units), while rounding after every
    // product would lose about log2(K) bits more than any GPU does.
    Type accType = resultElem;
    if (isa<FloatType>(resultElem) && resultElem.getIntOrFloatBitWidth() < 32)
      accType = rewriter.getF32Type();
    Value c = castElements(rewriter, loc, adaptor.getC(), accType);
    auto cType = cast<RankedTensorType>(c.getType());
    Value a = castElements(rewriter, loc, adaptor.getA(), accType);
    Value b = castElements(rewriter, loc, adaptor.getB(), accType);
    int64_t rank = cType.getRank();
    bool batched = rank == 3;
    // Iteration space (batch?, m, k, n), n innermost.
    unsigned numDims = batched ? 4 : 3;
    unsigned k = batched ? 2 : 1;
    SmallVector<AffineMap> maps = cpu::getDotIndexingMaps(ctx, batched);
    SmallVector<utils::IteratorType> iterators(numDims,
                                               utils::IteratorType::parallel);
    iterators[k] = utils::IteratorType::reduction;
    bool isFloat = isa<FloatType>(accType);
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{cType}, ValueRange{a, b}, ValueRange{c}, maps,
        iterators, [&](OpBuilder &nb, Location l, ValueRange args) {
          Value result;
          if (isFloat)
            result = math::FmaOp::create(nb, l, args[0], args[1], args[2]);
          else
            result = arith::AddIOp::create(
                nb, l, args[2], arith::MulIOp::create(nb, l, args[0], args[1]));
          linalg::YieldOp::create(nb, l, result);
        });
    if (accType.isF32() &&
        isExactInBf16(getElementTypeOrSelf(adaptor.getA().getType())) &&
        isExactInBf16(getElementTypeOrSelf(adaptor.getB().getType())))
      generic->setAttr(kBf16OperandsAttr, rewriter.getUnitAttr());
    rewriter.replaceOp(
        op, castElements(rewriter, loc, generic.getResult(0), resultElem));
    return success();
  }
};

} // namespace

bool cpu::isExactInBf16(Type type) {
  auto floatType = dyn_cast<FloatType>(type);
  if (!floatType)
    return false;
  const llvm::fltSemantics &sem = floatType.getFloatSemantics();
  const llvm::fltSemantics &bf16 = llvm::APFloat::BFloat();
  // No more mantissa, and no exponent outside bf16's normal range: every
  // value (a subnormal fp8 number included) is a bf16 number.
  return llvm::APFloat::semanticsPrecision(sem) <=
             llvm::APFloat::semanticsPrecision(bf16) &&
         llvm::APFloat::semanticsMaxExponent(sem) <=
             llvm::APFloat::semanticsMaxExponent(bf16) &&
         llvm::APFloat::semanticsMinExponent(sem) >=
             llvm::APFloat::semanticsMinExponent(bf16);
}

SmallVector<AffineMap> cpu::getDotIndexingMaps(MLIRContext *ctx, bool batched) {
  unsigned numDims = batched ? 4 : 3;
  unsigned m = batched ? 1 : 0, k = m + 1, n = m + 2;
  auto d = [&](unsigned i) { return getAffineDimExpr(i, ctx); };
  SmallVector<AffineExpr> aExprs, bExprs, cExprs;
  if (batched) {
    aExprs.push_back(d(0));
    bExprs.push_back(d(0));
    cExprs.push_back(d(0));
  }
  aExprs.append({d(m), d(k)});
  bExprs.append({d(k), d(n)});
  cExprs.append({d(m), d(n)});
  return {AffineMap::get(numDims, 0, aExprs, ctx),
          AffineMap::get(numDims, 0, bExprs, ctx),
          AffineMap::get(numDims, 0, cExprs, ctx)};
}

void cpu::populateComputePatterns(const CpuTypeConverter &converter,
                                  RewritePatternSet &patterns) {
  patterns.add<ReduceOpLowering, ScanOpLowering, HistogramOpLowering,
               DotOpLowering>(converter, patterns.getContext());
}
