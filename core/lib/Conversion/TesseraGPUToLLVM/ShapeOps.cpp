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

#include <set>

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

/// The type a register of `type` is kept as in shared memory.
static Type getStorageType(Type type) {
  if (isa<LLVM::LLVMPointerType>(type))
    return IntegerType::get(type.getContext(), 64);
  if (type.isInteger(1))
    return IntegerType::get(type.getContext(), 8);
  return type;
}

uint64_t lowering::getConvertScratchBytes(RankedTensorType src,
                                          RankedTensorType dst) {
  if (haveSameThreadMap(getLayout(src), getLayout(dst)))
    return 0;
  Type element = src.getElementType();
  unsigned bytes = isa<PointerType>(element) ? 8 : getElementBytes(element);
  return uint64_t(src.getNumElements()) * bytes;
}

namespace {

/// Moves registers of a tensor of `shape` from layout `src` to `dst` through
/// the scratch space: every thread writes its elements at their row-major
/// offsets, waits, and reads the elements of its new registers.
FailureOr<SmallVector<Value>>
exchangeThroughShared(ConversionPatternRewriter &rewriter, Location loc,
                      LoweringContext &ctx, Operation *op,
                      ArrayRef<Value> srcRegs, const LinearLayout &src,
                      const LinearLayout &dst, ArrayRef<int64_t> shape) {
  FailureOr<ThreadIndex> tid = getThreadIndex(rewriter, loc, ctx, op);
  if (failed(tid))
    return failure();
  Type regType = srcRegs.front().getType();
  Type storage = getStorageType(regType);
  unsigned bytes = getElementBytes(storage);
  SmallVector<int64_t> strides = getStrides(shape);
  auto offsetOf = [&](ArrayRef<Value> coords) {
    Value flat = createI32(rewriter, loc, 0);
    for (auto [coord, stride] : llvm::zip(coords, strides)) {
      Value term = stride == 1
                       ? coord
                       : LLVM::MulOp::create(rewriter, loc, coord,
                                             createI32(rewriter, loc, stride));
      flat = LLVM::AddOp::create(rewriter, loc, flat, term);
    }
    Value byteOffset = LLVM::MulOp::create(rewriter, loc, flat,
                                           createI32(rewriter, loc, bytes));
    return LLVM::AddOp::create(rewriter, loc, byteOffset,
                               createI32(rewriter, loc, ctx.plan.scratchOffset))
        .getResult();
  };
  auto barrier = [&]() -> LogicalResult {
    if (failed(ctx.hooks.createBarrier(rewriter, loc)))
      return op->emitError("the ")
             << ctx.hooks.getName()
             << " target has no block barrier, which this layout conversion "
                "through shared memory needs";
    return success();
  };

  // Earlier users of the scratch space must be done reading it.
  if (failed(barrier()))
    return failure();
  SmallVector<SmallVector<Value>> srcCoords =
      emitAllCoords(rewriter, loc, src, *tid);
  // Copies of one element in several threads hold the same value, so they
  // may all write it; registers of one thread holding the same element are
  // written once.
  std::set<SmallVector<int32_t>> written;
  for (auto [reg, value] : llvm::enumerate(srcRegs)) {
    if (!written.insert(getRegisterCoords(src, reg)).second)
      continue;
    FailureOr<Value> ptr =
        getSharedPointer(rewriter, loc, ctx, offsetOf(srcCoords[reg]), op);
    if (failed(ptr))
      return failure();
    Value stored = value;
    if (isa<LLVM::LLVMPointerType>(regType))
      stored = LLVM::PtrToIntOp::create(rewriter, loc, storage, value);
    else if (storage != regType)
      stored = LLVM::ZExtOp::create(rewriter, loc, storage, value);
    Value always = LLVM::ConstantOp::create(rewriter, loc, rewriter.getI1Type(),
                                            rewriter.getBoolAttr(true));
    if (failed(ctx.hooks.storeShared(rewriter, loc, *ptr, stored, always)))
      LLVM::StoreOp::create(rewriter, loc, stored, *ptr, bytes);
  }
  if (failed(barrier()))
    return failure();
  SmallVector<SmallVector<Value>> dstCoords =
      emitAllCoords(rewriter, loc, dst, *tid);
  SmallVector<Value> result;
  for (auto &coords : dstCoords) {
    FailureOr<Value> ptr =
        getSharedPointer(rewriter, loc, ctx, offsetOf(coords), op);
    if (failed(ptr))
      return failure();
    FailureOr<Value> loaded =
        ctx.hooks.loadShared(rewriter, loc, *ptr, storage);
    if (failed(loaded))
      loaded =
          LLVM::LoadOp::create(rewriter, loc, storage, *ptr, bytes).getResult();
    Value value = *loaded;
    if (isa<LLVM::LLVMPointerType>(regType))
      value = LLVM::IntToPtrOp::create(rewriter, loc, regType, value);
    else if (storage != regType)
      value = LLVM::TruncOp::create(rewriter, loc, regType, value);
    result.push_back(value);
  }
  return result;
}

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
               SplitLowering, ConvertLayoutLowering>(converter, ctx);
}
