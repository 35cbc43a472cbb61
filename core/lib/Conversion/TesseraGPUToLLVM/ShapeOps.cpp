//===- ShapeOps.cpp - Ranges, splats, views and layout conversions --------===//
//
// Ops that move elements between registers without computing: when the
// source and result layouts place elements in threads alike, each result
// register is some source register (found through the layouts); otherwise
// the elements travel through shared memory.
//
//===----------------------------------------------------------------------===//
#include "Lowering.h"

#include "tessera/Dialect/TesseraGPU/IR/LayoutUtils.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

#include <map>

using namespace mlir;
using namespace mlir::tessera;
using namespace mlir::tessera::lowering;

/// Row-major strides of `shape`.
static SmallVector<int64_t> getStrides(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> strides(shape.size(), 1);
  for (int i = int(shape.size()) - 2; i >= 0; --i)
    strides[i] = strides[i + 1] * shape[i + 1];
  return strides;
}

namespace {

/// True when the lane and warp bases of `dst`, passed through `project`,
/// are those of `src`: then a register's element is in the same thread in
/// both layouts, and registers can be matched by their register parts.
bool threadMapsAgree(
    const LinearLayout &src, const LinearLayout &dst,
    llvm::function_ref<SmallVector<int32_t>(ArrayRef<int32_t>)> project) {
  for (StringRef dim : {StringRef(kLaneDim), StringRef(kWarpDim)}) {
    unsigned srcBits = src.hasInDim(dim) ? src.getInDimSizeLog2(dim) : 0;
    unsigned dstBits = dst.hasInDim(dim) ? dst.getInDimSizeLog2(dim) : 0;
    if (srcBits != dstBits)
      return false;
    for (unsigned i = 0; i < dstBits; ++i)
      if (project(dst.getBasis(dim, i)) !=
          SmallVector<int32_t>(src.getBasis(dim, i)))
        return false;
  }
  return true;
}

/// Result registers taken from source registers under `project` (result
/// coordinates to source coordinates), or failure with an error.
LogicalResult rewireRegisters(
    ConversionPatternRewriter &rewriter, Operation *op, Value adaptorSrc,
    RankedTensorType srcType, RankedTensorType dstType,
    const TypeConverter &converter,
    llvm::function_ref<SmallVector<int32_t>(ArrayRef<int32_t>)> project) {
  LinearLayout src = getLayout(srcType), dst = getLayout(dstType);
  std::optional<SmallVector<int32_t>> map;
  if (threadMapsAgree(src, dst, project))
    map = mapRegisters(src, dst, project);
  if (!map)
    return op->emitError("the source layout ")
           << srcType.getEncoding() << " does not hold the elements of "
           << dstType.getEncoding()
           << " in the same threads; a layout conversion is needed first";
  SmallVector<Value> regs =
      unpackRegisters(rewriter, op->getLoc(), adaptorSrc, srcType);
  SmallVector<Value> result;
  for (int32_t reg : *map)
    result.push_back(regs[reg]);
  rewriter.replaceOp(op, packRegisters(rewriter, op->getLoc(),
                                       converter.convertType(dstType), result));
  return success();
}

struct MakeRangeLowering : public GPUPattern<MakeRangeOp> {
  using GPUPattern::GPUPattern;
  LogicalResult
  matchAndRewrite(MakeRangeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    FailureOr<ThreadIndex> tid = getThreadIndex(rewriter, loc, ctx, op);
    if (failed(tid))
      return failure();
    auto type = op.getType();
    SmallVector<Value> regs;
    Value start = createI32(rewriter, loc, op.getStart());
    for (auto &coords : emitAllCoords(rewriter, loc, getLayout(type), *tid))
      regs.push_back(op.getStart() == 0
                         ? coords[0]
                         : LLVM::AddOp::create(rewriter, loc, coords[0], start)
                               .getResult());
    rewriter.replaceOp(op, packRegisters(rewriter, loc,
                                         getTypeConverter()->convertType(type),
                                         regs));
    return success();
  }
};

struct SplatLowering : public GPUPattern<SplatOp> {
  using GPUPattern::GPUPattern;
  LogicalResult
  matchAndRewrite(SplatOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = cast<RankedTensorType>(op.getType());
    SmallVector<Value> regs(getNumRegisters(type), adaptor.getSrc());
    rewriter.replaceOp(op, packRegisters(rewriter, op.getLoc(),
                                         getTypeConverter()->convertType(type),
                                         regs));
    return success();
  }
};

struct BroadcastLowering : public GPUPattern<BroadcastOp> {
  using GPUPattern::GPUPattern;
  LogicalResult
  matchAndRewrite(BroadcastOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto srcType = cast<RankedTensorType>(op.getSrc().getType());
    auto dstType = cast<RankedTensorType>(op.getType());
    ArrayRef<int64_t> srcShape = srcType.getShape();
    return rewireRegisters(rewriter, op, adaptor.getSrc(), srcType, dstType,
                           *getTypeConverter(), [&](ArrayRef<int32_t> c) {
                             SmallVector<int32_t> p(c);
                             for (auto [d, size] : llvm::enumerate(srcShape))
                               if (size == 1)
                                 p[d] = 0;
                             return p;
                           });
  }
};

struct ExpandDimsLowering : public GPUPattern<ExpandDimsOp> {
  using GPUPattern::GPUPattern;
  LogicalResult
  matchAndRewrite(ExpandDimsOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto srcType = cast<RankedTensorType>(op.getSrc().getType());
    unsigned axis = op.getAxis();
    return rewireRegisters(rewriter, op, adaptor.getSrc(), srcType,
                           cast<RankedTensorType>(op.getType()),
                           *getTypeConverter(), [&](ArrayRef<int32_t> c) {
                             SmallVector<int32_t> p(c);
                             p.erase(p.begin() + axis);
                             return p;
                           });
  }
};

struct TransLowering : public GPUPattern<TransOp> {
  using GPUPattern::GPUPattern;
  LogicalResult
  matchAndRewrite(TransOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto srcType = cast<RankedTensorType>(op.getSrc().getType());
    ArrayRef<int32_t> order = op.getOrder();
    // Result dimension i is source dimension order[i].
    return rewireRegisters(rewriter, op, adaptor.getSrc(), srcType,
                           cast<RankedTensorType>(op.getType()),
                           *getTypeConverter(), [&](ArrayRef<int32_t> c) {
                             SmallVector<int32_t> p(c.size());
                             for (auto [i, d] : llvm::enumerate(order))
                               p[d] = c[i];
                             return p;
                           });
  }
};

struct ReshapeLowering : public GPUPattern<ReshapeOp> {
  using GPUPattern::GPUPattern;
  LogicalResult
  matchAndRewrite(ReshapeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto srcType = cast<RankedTensorType>(op.getSrc().getType());
    auto dstType = cast<RankedTensorType>(op.getType());
    SmallVector<int64_t> srcStrides = getStrides(srcType.getShape());
    SmallVector<int64_t> dstStrides = getStrides(dstType.getShape());
    // Row-major reshapes of power-of-two shapes relabel bits, so coordinates
    // (and layout bases) map through the flat offset.
    return rewireRegisters(rewriter, op, adaptor.getSrc(), srcType, dstType,
                           *getTypeConverter(), [&](ArrayRef<int32_t> c) {
                             int64_t flat = 0;
                             for (auto [coord, stride] :
                                  llvm::zip(c, dstStrides))
                               flat += coord * stride;
                             SmallVector<int32_t> p;
                             for (int64_t stride : srcStrides) {
                               p.push_back(int32_t(flat / stride));
                               flat %= stride;
                             }
                             return p;
                           });
  }
};

/// tessera.split: the halves along the last dimension (of size 2), which
/// each thread holds in registers.
struct SplitLowering : public GPUPattern<SplitOp> {
  using GPUPattern::GPUPattern;
  LogicalResult
  matchAndRewrite(SplitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto srcType = cast<RankedTensorType>(op.getSrc().getType());
    LinearLayout src = getLayout(srcType);
    SmallVector<Value> regs =
        unpackRegisters(rewriter, op.getLoc(), adaptor.getSrc(), srcType);
    SmallVector<Value> results;
    for (int32_t half = 0; half < 2; ++half) {
      auto dstType = cast<RankedTensorType>(op->getResult(half).getType());
      LinearLayout dst = getLayout(dstType);
      auto project = [&](ArrayRef<int32_t> c) {
        SmallVector<int32_t> p(c);
        p.push_back(half);
        return p;
      };
      // Thread bases are compared through the linear part of `project`.
      auto linear = [](ArrayRef<int32_t> c) {
        SmallVector<int32_t> p(c);
        p.push_back(0);
        return p;
      };
      std::optional<SmallVector<int32_t>> map;
      if (threadMapsAgree(src, dst, linear))
        map = mapRegisters(src, dst, project);
      if (!map)
        return op.emitError("the halves of a split must be in the same "
                            "thread's registers; the layout ")
               << srcType.getEncoding() << " splits them across threads";
      SmallVector<Value> picked;
      for (int32_t reg : *map)
        picked.push_back(regs[reg]);
      results.push_back(packRegisters(rewriter, op.getLoc(),
                                      getTypeConverter()->convertType(dstType),
                                      picked));
    }
    rewriter.replaceOp(op, results);
    return success();
  }
};

/// Where an element of a join or cat result comes from: which operand (0 or
/// 1) and its coordinates there. Linear over GF(2) in the coordinates.
using PickFn = llvm::function_ref<std::pair<int32_t, SmallVector<int32_t>>(
    ArrayRef<int32_t>)>;

/// Builds a result holding two operands' elements (tessera.join, tessera.cat)
/// from their registers: legal when every thread basis of the result picks
/// operand 0 at the operands' own thread basis, i.e. each thread holds both
/// operands' elements for its result elements in registers (the layout
/// inference gives the result the operands' layout plus a register bit).
LogicalResult combineOperands(ConversionPatternRewriter &rewriter,
                              Operation *op, ValueRange adaptorSrcs,
                              RankedTensorType srcType,
                              RankedTensorType dstType,
                              const TypeConverter &converter, PickFn pick) {
  LinearLayout src = getLayout(srcType), dst = getLayout(dstType);
  for (StringRef dim : {StringRef(kLaneDim), StringRef(kWarpDim)}) {
    unsigned srcBits = src.hasInDim(dim) ? src.getInDimSizeLog2(dim) : 0;
    unsigned dstBits = dst.hasInDim(dim) ? dst.getInDimSizeLog2(dim) : 0;
    bool agree = srcBits == dstBits;
    for (unsigned i = 0; agree && i < dstBits; ++i) {
      auto [which, coords] = pick(dst.getBasis(dim, i));
      agree =
          which == 0 && coords == SmallVector<int32_t>(src.getBasis(dim, i));
    }
    if (!agree)
      return op->emitError("the layout ")
             << dstType.getEncoding()
             << " does not keep both operands' elements in the threads that "
                "hold them in "
             << srcType.getEncoding();
  }
  std::map<SmallVector<int32_t>, int32_t> byCoords;
  int32_t numSrc =
      src.hasInDim(kRegisterDim) ? src.getInDimSize(kRegisterDim) : 1;
  for (int32_t reg = 0; reg < numSrc; ++reg)
    byCoords.try_emplace(getRegisterCoords(src, reg), reg);
  SmallVector<SmallVector<Value>, 2> regs;
  for (Value v : adaptorSrcs)
    regs.push_back(unpackRegisters(rewriter, op->getLoc(), v, srcType));
  int32_t numDst =
      dst.hasInDim(kRegisterDim) ? dst.getInDimSize(kRegisterDim) : 1;
  SmallVector<Value> result;
  for (int32_t reg = 0; reg < numDst; ++reg) {
    auto [which, coords] = pick(getRegisterCoords(dst, reg));
    auto it = byCoords.find(coords);
    if (it == byCoords.end())
      return op->emitError("the layout ")
             << dstType.getEncoding() << " holds an element of "
             << srcType.getEncoding() << " that no register of it holds";
    result.push_back(regs[which][it->second]);
  }
  rewriter.replaceOp(op, packRegisters(rewriter, op->getLoc(),
                                       converter.convertType(dstType), result));
  return success();
}

/// tessera.join: the operands become the two halves of a new minor
/// dimension of size 2, held in registers.
struct JoinLowering : public GPUPattern<JoinOp> {
  using GPUPattern::GPUPattern;
  LogicalResult
  matchAndRewrite(JoinOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    return combineOperands(rewriter, op, {adaptor.getLhs(), adaptor.getRhs()},
                           cast<RankedTensorType>(op.getLhs().getType()),
                           cast<RankedTensorType>(op.getType()),
                           *getTypeConverter(), [](ArrayRef<int32_t> c) {
                             return std::make_pair(
                                 c.back(), SmallVector<int32_t>(c.drop_back()));
                           });
  }
};

/// tessera.cat: lhs then rhs along dimension 0 (a power of two, so the
/// operand is the top bit of the coordinate).
struct CatLowering : public GPUPattern<CatOp> {
  using GPUPattern::GPUPattern;
  LogicalResult
  matchAndRewrite(CatOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto srcType = cast<RankedTensorType>(op.getLhs().getType());
    int32_t half = int32_t(srcType.getShape()[0]);
    return combineOperands(rewriter, op, {adaptor.getLhs(), adaptor.getRhs()},
                           srcType, cast<RankedTensorType>(op.getType()),
                           *getTypeConverter(), [half](ArrayRef<int32_t> c) {
                             SmallVector<int32_t> p(c);
                             p[0] &= half - 1;
                             return std::make_pair(int32_t((c[0] & half) != 0),
                                                   p);
                           });
  }
};

struct ConvertLayoutLowering : public GPUPattern<gpu::ConvertLayoutOp> {
  using GPUPattern::GPUPattern;
  LogicalResult
  matchAndRewrite(gpu::ConvertLayoutOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto srcType = cast<RankedTensorType>(op.getSrc().getType());
    auto dstType = cast<RankedTensorType>(op.getType());
    LinearLayout src = getLayout(srcType), dst = getLayout(dstType);
    auto identity = [](ArrayRef<int32_t> c) { return SmallVector<int32_t>(c); };
    if (threadMapsAgree(src, dst, identity))
      return rewireRegisters(rewriter, op, adaptor.getSrc(), srcType, dstType,
                             *getTypeConverter(), identity);
    SmallVector<Value> regs =
        unpackRegisters(rewriter, op.getLoc(), adaptor.getSrc(), srcType);
    FailureOr<SmallVector<Value>> moved = exchangeThroughShared(
        rewriter, op.getLoc(), ctx, op, regs, src, dst, srcType.getShape());
    if (failed(moved))
      return failure();
    rewriter.replaceOp(
        op, packRegisters(rewriter, op.getLoc(),
                          getTypeConverter()->convertType(dstType), *moved));
    return success();
  }
};

} // namespace

void lowering::populateShapePatterns(GPUTypeConverter &converter,
                                     RewritePatternSet &patterns,
                                     LoweringContext &ctx) {
  patterns.add<MakeRangeLowering, SplatLowering, BroadcastLowering,
               ExpandDimsLowering, TransLowering, ReshapeLowering,
               SplitLowering, JoinLowering, CatLowering, ConvertLayoutLowering>(
      converter, ctx);
}
