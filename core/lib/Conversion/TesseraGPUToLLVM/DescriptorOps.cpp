//===- DescriptorOps.cpp - Descriptors and block pointers as tiled accesses
//===//
//
// A tensor descriptor is its base, shape and strides; a block read or
// written through it becomes one address and one bounds check per register
// (elements outside the shape read as the padding value and are not
// written). Runs of registers along the last dimension move as vectors when
// the last stride is 1 (which the op requires) and the axis analysis proves
// the base, the row stride, the block's column index and the row length
// aligned. Targets with tensor-memory copies may lower these ops
// themselves before this pattern runs.
//
// A block pointer (tl.make_block_ptr) is the same plus its offsets, which
// tl.advance moves; only the dimensions its access lists in boundaryCheck
// are checked, as Triton does. Its accesses move one element per register.
//
//===----------------------------------------------------------------------===//
#include "Lowering.h"

#include "tessera/Dialect/TesseraGPU/IR/LayoutUtils.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

#include <set>

using namespace mlir;
using namespace mlir::tessera;
using namespace mlir::tessera::lowering;

namespace {

/// The fields of a converted descriptor.
struct Descriptor {
  Value base;
  SmallVector<Value> shape, strides;
};

Descriptor unpackDescriptor(OpBuilder &b, Location loc, Value desc,
                            int64_t rank) {
  Descriptor d;
  d.base = LLVM::ExtractValueOp::create(b, loc, desc, 0);
  for (int64_t i = 0; i < rank; ++i) {
    d.shape.push_back(LLVM::ExtractValueOp::create(b, loc, desc, 1 + i));
    d.strides.push_back(
        LLVM::ExtractValueOp::create(b, loc, desc, 1 + rank + i));
  }
  return d;
}

/// The largest power of two dividing `n` (n > 0), capped.
int64_t powerOfTwoDividing(int64_t n, int64_t cap) {
  int64_t p = 1;
  while (p < cap && n % (2 * p) == 0)
    p *= 2;
  return p;
}

/// Registers per access: the layout's run along the last dimension, cut to
/// what the analysis proves aligned and what the target moves at once.
unsigned getDescriptorVectorWidth(LoweringContext &ctx, MakeTensorDescOp make,
                                  Value lastIndex, const LinearLayout &layout,
                                  Type element) {
  auto [dim, run] = getRegisterRun(layout);
  int64_t rank = layout.getNumOutDims();
  if (dim != rank - 1 || !make)
    return 1;
  unsigned bytes = getElementBytes(element);
  int64_t vec = std::min<int64_t>(
      run, std::max(1u, ctx.options.maxVectorBits / (bytes * 8)));
  auto divisibility = [&](Value v) {
    return ctx.axis.getAxisInfo(v).getDivisibility(0);
  };
  vec = std::min(vec, powerOfTwoDividing(divisibility(lastIndex), vec));
  vec = std::min(vec,
                 powerOfTwoDividing(divisibility(make.getShape().back()), vec));
  // Base and row stride aligned to the whole access, in bytes.
  vec = std::min(vec,
                 powerOfTwoDividing(divisibility(make.getBase()) / bytes, vec));
  if (rank > 1)
    vec = std::min(vec, powerOfTwoDividing(
                            divisibility(make.getStrides()[rank - 2]), vec));
  return std::max<int64_t>(1, vec);
}

/// Per register: the address and the in-bounds predicate.
FailureOr<std::pair<SmallVector<Value>, SmallVector<Value>>>
emitAddresses(ConversionPatternRewriter &rewriter, Location loc,
              LoweringContext &ctx, Operation *op, const Descriptor &desc,
              ValueRange indices, const LinearLayout &layout, Type element) {
  FailureOr<ThreadIndex> tid = getThreadIndex(rewriter, loc, ctx, op);
  if (failed(tid))
    return failure();
  SmallVector<Value> ptrs, inBounds;
  Type i64 = rewriter.getI64Type();
  for (auto &coords : emitAllCoords(rewriter, loc, layout, *tid)) {
    Value offset = createI64(rewriter, loc, 0);
    Value ok;
    for (auto [d, coord] : llvm::enumerate(coords)) {
      Value index = LLVM::AddOp::create(rewriter, loc, indices[d], coord);
      // Unsigned: a negative index is out of bounds too.
      Value inside = LLVM::ICmpOp::create(
          rewriter, loc, LLVM::ICmpPredicate::ult, index, desc.shape[d]);
      ok = ok ? LLVM::AndOp::create(rewriter, loc, ok, inside).getResult()
              : inside;
      Value wide = LLVM::SExtOp::create(rewriter, loc, i64, index);
      offset = LLVM::AddOp::create(
          rewriter, loc, offset,
          LLVM::MulOp::create(rewriter, loc, wide, desc.strides[d]));
    }
    ptrs.push_back(LLVM::GEPOp::create(rewriter, loc, desc.base.getType(),
                                       element, desc.base,
                                       ArrayRef<LLVM::GEPArg>{offset}));
    inBounds.push_back(ok);
  }
  return std::make_pair(ptrs, inBounds);
}

/// What a load reads where its predicate fails: zeros, or NaN for a float
/// tile whose descriptor or block pointer asks for it.
Value createPadding(OpBuilder &b, Location loc, Type element, bool nan) {
  if (nan && isa<FloatType>(element))
    return LLVM::ConstantOp::create(
        b, loc, element,
        b.getFloatAttr(element, std::numeric_limits<double>::quiet_NaN()));
  return createZero(b, loc, element);
}

/// Loads a tile from `ptrs` (one address a register), `vec` consecutive
/// registers an access, reading `pad` where `inBounds` (null: always
/// inside) does not hold.
SmallVector<Value> emitTileLoad(ConversionPatternRewriter &rewriter,
                                Location loc, LoweringContext &ctx,
                                ArrayRef<Value> ptrs, ArrayRef<Value> inBounds,
                                Type element, Value pad, unsigned vec) {
  unsigned bytes = getElementBytes(element);
  SmallVector<Value> results;
  for (size_t r = 0; r < ptrs.size(); r += vec) {
    Type accessType =
        vec == 1 ? element : VectorType::get({int64_t(vec)}, element);
    Value other = buildVector(rewriter, loc, SmallVector<Value>(vec, pad));
    Value loaded = emitMaskedLoad(rewriter, loc, ctx, ptrs[r], accessType,
                                  inBounds[r], other, vec * bytes);
    if (vec == 1) {
      results.push_back(loaded);
      continue;
    }
    for (unsigned i = 0; i < vec; ++i)
      results.push_back(LLVM::ExtractElementOp::create(
          rewriter, loc, loaded, createI32(rewriter, loc, i)));
  }
  return results;
}

/// Stores the tile `tile` (converted, of `type` with `layout`) to `ptrs`,
/// `vec` registers an access, where `inBounds` (null: always inside) holds:
/// each element once, by the thread owning it, from its first register.
LogicalResult emitTileStore(ConversionPatternRewriter &rewriter, Location loc,
                            LoweringContext &ctx, Operation *op, Value tile,
                            RankedTensorType type, const LinearLayout &layout,
                            ArrayRef<Value> ptrs, ArrayRef<Value> inBounds,
                            Type element, unsigned vec) {
  FailureOr<ThreadIndex> tid = getThreadIndex(rewriter, loc, ctx, op);
  if (failed(tid))
    return failure();
  Value owner = emitOwnerPredicate(rewriter, loc, layout, *tid);
  std::set<SmallVector<int32_t>> seen;
  SmallVector<Value> values = unpackRegisters(rewriter, loc, tile, type);
  unsigned bytes = getElementBytes(element);
  for (size_t r = 0; r < ptrs.size(); r += vec) {
    if (!seen.insert(getRegisterCoords(layout, r)).second)
      continue;
    Value value =
        buildVector(rewriter, loc, ArrayRef<Value>(values).slice(r, vec));
    Value pred = inBounds[r];
    if (owner)
      pred = pred ? LLVM::AndOp::create(rewriter, loc, pred, owner).getResult()
                  : owner;
    emitMaskedStore(rewriter, loc, ctx, ptrs[r], value, pred, vec * bytes);
  }
  return success();
}

struct MakeTensorDescLowering : public GPUPattern<MakeTensorDescOp> {
  using GPUPattern::GPUPattern;
  LogicalResult
  matchAndRewrite(MakeTensorDescOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    SmallVector<Value> fields{adaptor.getBase()};
    fields.append(adaptor.getShape().begin(), adaptor.getShape().end());
    fields.append(adaptor.getStrides().begin(), adaptor.getStrides().end());
    rewriter.replaceOp(
        op,
        packRegisters(rewriter, op.getLoc(),
                      getTypeConverter()->convertType(op.getType()), fields));
    return success();
  }
};

struct DescriptorLoadLowering : public GPUPattern<DescriptorLoadOp> {
  using GPUPattern::GPUPattern;
  LogicalResult
  matchAndRewrite(DescriptorLoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getType());
    LinearLayout layout = getLayout(type);
    Type element = getTypeConverter()->convertType(type.getElementType());
    Descriptor desc =
        unpackDescriptor(rewriter, loc, adaptor.getDesc(), type.getRank());
    FailureOr<std::pair<SmallVector<Value>, SmallVector<Value>>> addresses =
        emitAddresses(rewriter, loc, ctx, op, desc, adaptor.getIndices(),
                      layout, element);
    if (failed(addresses))
      return failure();
    auto &[ptrs, inBounds] = *addresses;
    auto make = op.getDesc().getDefiningOp<MakeTensorDescOp>();
    unsigned vec = getDescriptorVectorWidth(ctx, make, op.getIndices().back(),
                                            layout, type.getElementType());
    Value pad = createPadding(rewriter, loc, element,
                              make && make.getPadding() == PaddingOption::nan);
    SmallVector<Value> results =
        emitTileLoad(rewriter, loc, ctx, ptrs, inBounds, element, pad, vec);
    rewriter.replaceOp(op, packRegisters(rewriter, loc,
                                         getTypeConverter()->convertType(type),
                                         results));
    return success();
  }
};

struct DescriptorStoreLowering : public GPUPattern<DescriptorStoreOp> {
  using GPUPattern::GPUPattern;
  LogicalResult
  matchAndRewrite(DescriptorStoreOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getSrc().getType());
    LinearLayout layout = getLayout(type);
    Type element = getTypeConverter()->convertType(type.getElementType());
    Descriptor desc =
        unpackDescriptor(rewriter, loc, adaptor.getDesc(), type.getRank());
    FailureOr<std::pair<SmallVector<Value>, SmallVector<Value>>> addresses =
        emitAddresses(rewriter, loc, ctx, op, desc, adaptor.getIndices(),
                      layout, element);
    if (failed(addresses))
      return failure();
    auto &[ptrs, inBounds] = *addresses;
    auto make = op.getDesc().getDefiningOp<MakeTensorDescOp>();
    unsigned vec = getDescriptorVectorWidth(ctx, make, op.getIndices().back(),
                                            layout, type.getElementType());
    if (failed(emitTileStore(rewriter, loc, ctx, op, adaptor.getSrc(), type,
                             layout, ptrs, inBounds, element, vec)))
      return failure();
    rewriter.eraseOp(op);
    return success();
  }
};

/// The fields of a converted block pointer.
struct BlockPointer {
  Value base;
  SmallVector<Value> shape, strides, offsets;
};

BlockPointer unpackBlockPointer(OpBuilder &b, Location loc, Value ptr,
                                int64_t rank) {
  BlockPointer p;
  p.base = LLVM::ExtractValueOp::create(b, loc, ptr, 0);
  for (int64_t i = 0; i < rank; ++i) {
    p.shape.push_back(LLVM::ExtractValueOp::create(b, loc, ptr, 1 + i));
    p.strides.push_back(
        LLVM::ExtractValueOp::create(b, loc, ptr, 1 + rank + i));
    p.offsets.push_back(
        LLVM::ExtractValueOp::create(b, loc, ptr, 1 + 2 * rank + i));
  }
  return p;
}

Value packBlockPointer(OpBuilder &b, Location loc, Type type,
                       const BlockPointer &p) {
  SmallVector<Value> fields{p.base};
  fields.append(p.shape);
  fields.append(p.strides);
  fields.append(p.offsets);
  return packRegisters(b, loc, type, fields);
}

/// Per register of `layout`: the address of its element behind `ptr`, and
/// whether it lies inside the dimensions in `checked` (null when none is
/// checked). Indices are 64-bit: the offset plus the register's coordinate.
FailureOr<std::pair<SmallVector<Value>, SmallVector<Value>>>
emitBlockPointerAddresses(ConversionPatternRewriter &rewriter, Location loc,
                          LoweringContext &ctx, Operation *op,
                          const BlockPointer &ptr, ArrayRef<int32_t> checked,
                          const LinearLayout &layout, Type element) {
  FailureOr<ThreadIndex> tid = getThreadIndex(rewriter, loc, ctx, op);
  if (failed(tid))
    return failure();
  Type i64 = rewriter.getI64Type();
  SmallVector<Value> starts;
  for (Value offset : ptr.offsets)
    starts.push_back(LLVM::SExtOp::create(rewriter, loc, i64, offset));
  SmallVector<Value> ptrs, inBounds;
  for (auto &coords : emitAllCoords(rewriter, loc, layout, *tid)) {
    Value offset = createI64(rewriter, loc, 0);
    Value ok;
    for (auto [d, coord] : llvm::enumerate(coords)) {
      Value index =
          LLVM::AddOp::create(rewriter, loc, starts[d],
                              LLVM::ZExtOp::create(rewriter, loc, i64, coord));
      if (llvm::is_contained(checked, int32_t(d))) {
        // 0 <= index < shape in one unsigned comparison (shapes are not
        // negative).
        Value inside = LLVM::ICmpOp::create(
            rewriter, loc, LLVM::ICmpPredicate::ult, index, ptr.shape[d]);
        ok = ok ? LLVM::AndOp::create(rewriter, loc, ok, inside).getResult()
                : inside;
      }
      offset = LLVM::AddOp::create(
          rewriter, loc, offset,
          LLVM::MulOp::create(rewriter, loc, index, ptr.strides[d]));
    }
    ptrs.push_back(LLVM::GEPOp::create(rewriter, loc, ptr.base.getType(),
                                       element, ptr.base,
                                       ArrayRef<LLVM::GEPArg>{offset}));
    inBounds.push_back(ok);
  }
  return std::make_pair(ptrs, inBounds);
}

struct MakeBlockPtrLowering : public GPUPattern<MakeBlockPtrOp> {
  using GPUPattern::GPUPattern;
  LogicalResult
  matchAndRewrite(MakeBlockPtrOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    BlockPointer p;
    p.base = adaptor.getBase();
    p.shape.append(adaptor.getShape().begin(), adaptor.getShape().end());
    p.strides.append(adaptor.getStrides().begin(), adaptor.getStrides().end());
    p.offsets.append(adaptor.getOffsets().begin(), adaptor.getOffsets().end());
    rewriter.replaceOp(
        op, packBlockPointer(rewriter, op.getLoc(),
                             getTypeConverter()->convertType(op.getType()), p));
    return success();
  }
};

struct AdvanceLowering : public GPUPattern<AdvanceOp> {
  using GPUPattern::GPUPattern;
  LogicalResult
  matchAndRewrite(AdvanceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    int64_t rank = adaptor.getOffsets().size();
    BlockPointer p = unpackBlockPointer(rewriter, loc, adaptor.getPtr(), rank);
    for (auto [offset, delta] : llvm::zip(p.offsets, adaptor.getOffsets()))
      offset = LLVM::AddOp::create(rewriter, loc, offset, delta);
    rewriter.replaceOp(
        op, packBlockPointer(rewriter, loc,
                             getTypeConverter()->convertType(op.getType()), p));
    return success();
  }
};

/// A load through a block pointer; loads through other pointers are
/// MemoryOps'.
struct BlockPointerLoadLowering : public GPUPattern<LoadOp> {
  using GPUPattern::GPUPattern;
  LogicalResult
  matchAndRewrite(LoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto ptrType = dyn_cast<PointerType>(op.getPtr().getType());
    if (!ptrType || !ptrType.isBlockPointer())
      return rewriter.notifyMatchFailure(op, "not a block pointer");
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getType());
    if (!gpu::getDistributedEncoding(type))
      return op.emitError("the block pointer's tile has no layout; run "
                          "convert-to-gpu first");
    LinearLayout layout = getLayout(type);
    Type element = getTypeConverter()->convertType(type.getElementType());
    BlockPointer ptr =
        unpackBlockPointer(rewriter, loc, adaptor.getPtr(), type.getRank());
    FailureOr<std::pair<SmallVector<Value>, SmallVector<Value>>> addresses =
        emitBlockPointerAddresses(rewriter, loc, ctx, op, ptr,
                                  op.getBoundaryCheck(), layout, element);
    if (failed(addresses))
      return failure();
    auto &[ptrs, inBounds] = *addresses;
    // Unchecked padding is undefined in Triton; zeros keep runs
    // deterministic.
    Value pad = createPadding(rewriter, loc, element,
                              op.getPadding() == PaddingOption::nan);
    SmallVector<Value> results =
        emitTileLoad(rewriter, loc, ctx, ptrs, inBounds, element, pad, 1);
    rewriter.replaceOp(op, packRegisters(rewriter, loc,
                                         getTypeConverter()->convertType(type),
                                         results));
    return success();
  }
};

/// A store through a block pointer: each element once, by its owner.
struct BlockPointerStoreLowering : public GPUPattern<StoreOp> {
  using GPUPattern::GPUPattern;
  LogicalResult
  matchAndRewrite(StoreOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto ptrType = dyn_cast<PointerType>(op.getPtr().getType());
    if (!ptrType || !ptrType.isBlockPointer())
      return rewriter.notifyMatchFailure(op, "not a block pointer");
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getValue().getType());
    if (!gpu::getDistributedEncoding(type))
      return op.emitError("the block pointer's tile has no layout; run "
                          "convert-to-gpu first");
    LinearLayout layout = getLayout(type);
    Type element = getTypeConverter()->convertType(type.getElementType());
    BlockPointer ptr =
        unpackBlockPointer(rewriter, loc, adaptor.getPtr(), type.getRank());
    FailureOr<std::pair<SmallVector<Value>, SmallVector<Value>>> addresses =
        emitBlockPointerAddresses(rewriter, loc, ctx, op, ptr,
                                  op.getBoundaryCheck(), layout, element);
    if (failed(addresses))
      return failure();
    auto &[ptrs, inBounds] = *addresses;
    if (failed(emitTileStore(rewriter, loc, ctx, op, adaptor.getValue(), type,
                             layout, ptrs, inBounds, element, 1)))
      return failure();
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void lowering::populateDescriptorPatterns(GPUTypeConverter &converter,
                                          RewritePatternSet &patterns,
                                          LoweringContext &ctx) {
  patterns.add<MakeTensorDescLowering, DescriptorLoadLowering,
               DescriptorStoreLowering, MakeBlockPtrLowering, AdvanceLowering>(
      converter, ctx);
  // Before MemoryOps' patterns, which take the other loads and stores.
  patterns.add<BlockPointerLoadLowering, BlockPointerStoreLowering>(
      converter, ctx, /*benefit=*/2);
}
