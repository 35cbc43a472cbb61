//===- SharedMemoryOps.cpp - Shared-memory buffers and async copies -------===//
//
// A shared buffer is a pointer into the block's shared memory (its offset
// from the plan); its shared layout maps element offsets to coordinates, so
// its inverse places each register's element. Async copies go through the
// target's hook, or become a load and a shared store when it declines (the
// commit and wait then have nothing to do).
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

/// Per register of a tensor of `layout`, the pointer to its element in the
/// shared buffer `base` of type `memType`; failure with an error when the
/// buffer's layout cannot be inverted.
FailureOr<SmallVector<Value>> emitSharedAddresses(OpBuilder &b, Location loc,
                                                  LoweringContext &ctx,
                                                  Operation *op, Value base,
                                                  gpu::MemDescType memType,
                                                  const LinearLayout &layout) {
  FailureOr<ThreadIndex> tid = getThreadIndex(b, loc, ctx, op);
  if (failed(tid))
    return failure();
  SmallVector<Value> ptrs;
  // Row-major swizzled buffers in closed form, as their readers address
  // them (SharedTiles.cpp).
  if (std::optional<SwizzledTile> tile = SwizzledTile::forBuffer(memType)) {
    for (auto &coords : emitAllCoords(b, loc, layout, *tid))
      ptrs.push_back(LLVM::GEPOp::create(
          b, loc, base.getType(), b.getI8Type(), base,
          ArrayRef<LLVM::GEPArg>{tile->getOffset(b, loc, coords)}));
    return ptrs;
  }
  llvm::Expected<LinearLayout> inverse =
      gpu::toLinearLayout(memType).tryInvert();
  if (!inverse) {
    llvm::consumeError(inverse.takeError());
    return op->emitError("the shared layout ")
           << memType.getEncoding() << " does not give each element one place";
  }
  // Byte offsets: the element type may be one LLVM has no type for (fp8).
  Value bytes = createI32(b, loc, getElementBytes(memType.getElementType()));
  for (auto &coords : emitAllCoords(b, loc, layout, *tid)) {
    SmallVector<Value> offset(inverse->getNumOutDims(), createI32(b, loc, 0));
    for (auto [d, coord] : llvm::enumerate(coords))
      xorBases(b, loc, *inverse, getTensorDimName(d), coord, offset);
    // Output 0 is the element offset (a "block" output, if any, is 0 for
    // one block per cluster).
    Value byteOffset = LLVM::MulOp::create(b, loc, offset[0], bytes);
    ptrs.push_back(LLVM::GEPOp::create(b, loc, base.getType(), b.getI8Type(),
                                       base,
                                       ArrayRef<LLVM::GEPArg>{byteOffset}));
  }
  return ptrs;
}

/// How many consecutive registers of `layout` one access to a buffer of
/// `memType` may move: they must hold consecutive elements of one row group
/// of a row-major swizzled buffer, or, in any other layout, elements the
/// buffer's layout places at consecutive offsets (a column-major ring's
/// groups down a column).
unsigned getSharedVectorWidth(gpu::MemDescType memType,
                              const LinearLayout &layout) {
  if (std::optional<SwizzledTile> tile = SwizzledTile::forBuffer(memType))
    return getTileAccessWidth(layout, memType.getShape().size(),
                              tile->getVector());
  auto [dim, run] = getRegisterRun(layout);
  if (dim < 0 || run == 1)
    return 1;
  llvm::Expected<LinearLayout> inverse =
      gpu::toLinearLayout(memType).tryInvert();
  if (!inverse) {
    llvm::consumeError(inverse.takeError());
    return 1;
  }
  // Offset bit i must be coordinate bit i along the run, for every bit the
  // access spans (output 0 is the element offset).
  // Owned: a StringRef to the returned string died at the end of the
  // statement (AddressSanitizer: stack-use-after-scope).
  std::string dimName = getTensorDimName(dim);
  unsigned bits = 0;
  while ((1u << (bits + 1)) <= run &&
         bits < unsigned(inverse->getInDimSizeLog2(dimName))) {
    ArrayRef<int32_t> basis = inverse->getBasis(dimName, bits);
    if (basis[0] != (1 << bits) ||
        llvm::any_of(basis.drop_front(), [](int32_t v) { return v != 0; }))
      break;
    ++bits;
  }
  // ... and no other coordinate bit may touch those offset bits (a swizzle
  // inside the group would reorder it).
  int32_t low = (1 << bits) - 1;
  for (unsigned d = 0; d < inverse->getNumInDims(); ++d) {
    std::string name = getTensorDimName(d);
    for (unsigned i = 0; i < unsigned(inverse->getInDimSizeLog2(name)); ++i)
      if (!(name == dimName && i < bits) &&
          (inverse->getBasis(name, i)[0] & low) != 0)
        return 1;
  }
  return 1u << bits;
}

/// Stores the registers of `value` (a tensor of `type`) into the buffer.
LogicalResult storeToShared(ConversionPatternRewriter &rewriter, Location loc,
                            LoweringContext &ctx, Operation *op, Value value,
                            RankedTensorType type, Value base,
                            gpu::MemDescType memType) {
  LinearLayout layout = getLayout(type);
  FailureOr<SmallVector<Value>> ptrs =
      emitSharedAddresses(rewriter, loc, ctx, op, base, memType, layout);
  if (failed(ptrs))
    return failure();
  SmallVector<Value> regs = unpackRegisters(rewriter, loc, value, type);
  std::set<SmallVector<int32_t>> seen;
  Value always = LLVM::ConstantOp::create(rewriter, loc, rewriter.getI1Type(),
                                          rewriter.getBoolAttr(true));
  // Runs of registers the buffer holds contiguously go in one store.
  unsigned vec = getSharedVectorWidth(memType, layout);
  unsigned bytes = getElementBytes(regs.front().getType());
  for (size_t r = 0; r < regs.size(); r += vec) {
    // Copies in other threads hold the same value: all may write it.
    if (!seen.insert(getRegisterCoords(layout, r)).second)
      continue;
    Value stored = buildVector(rewriter, loc, ArrayRef(regs).slice(r, vec));
    if (failed(
            ctx.hooks.storeShared(rewriter, loc, (*ptrs)[r], stored, always)))
      LLVM::StoreOp::create(rewriter, loc, stored, (*ptrs)[r], bytes * vec);
  }
  return success();
}

struct LocalAllocLowering : public GPUPattern<gpu::LocalAllocOp> {
  using GPUPattern::GPUPattern;
  LogicalResult
  matchAndRewrite(gpu::LocalAllocOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto it = ctx.plan.bufferOffsets.find(op);
    if (it == ctx.plan.bufferOffsets.end())
      return op.emitError("shared buffer outside the module's plan");
    FailureOr<Value> base =
        getSharedPointer(rewriter, op.getLoc(), ctx,
                         createI32(rewriter, op.getLoc(), it->second), op);
    if (failed(base))
      return failure();
    if (op.getSrc() &&
        failed(storeToShared(rewriter, op.getLoc(), ctx, op, adaptor.getSrc(),
                             cast<RankedTensorType>(op.getSrc().getType()),
                             *base, cast<gpu::MemDescType>(op.getType()))))
      return failure();
    rewriter.replaceOp(op, *base);
    return success();
  }
};

struct LocalStoreLowering : public GPUPattern<gpu::LocalStoreOp> {
  using GPUPattern::GPUPattern;
  LogicalResult
  matchAndRewrite(gpu::LocalStoreOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(storeToShared(rewriter, op.getLoc(), ctx, op, adaptor.getValue(),
                             cast<RankedTensorType>(op.getValue().getType()),
                             adaptor.getDst(),
                             cast<gpu::MemDescType>(op.getDst().getType()))))
      return failure();
    rewriter.eraseOp(op);
    return success();
  }
};

struct LocalLoadLowering : public GPUPattern<gpu::LocalLoadOp> {
  using GPUPattern::GPUPattern;
  LogicalResult
  matchAndRewrite(gpu::LocalLoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getType());
    auto memType = cast<gpu::MemDescType>(op.getSrc().getType());
    LinearLayout layout = getLayout(type);
    Type element = getTypeConverter()->convertType(type.getElementType());
    Type resultType = getTypeConverter()->convertType(type);
    if (op->hasAttr(kReadInPlaceAttrName)) {
      // The dot reads the buffer itself; nothing reads these registers.
      if (!op->hasOneUse() || !isa<DotOp>(*op->getUsers().begin()))
        return op.emitError("a local_load read in place must feed one dot");
      rewriter.replaceOpWithNewOp<LLVM::PoisonOp>(op, resultType);
      return success();
    }
    if (std::optional<SwizzledTile> tile = SwizzledTile::forBuffer(memType)) {
      FailureOr<ThreadIndex> tid = getThreadIndex(rewriter, loc, ctx, op);
      if (failed(tid))
        return failure();
      Value base = adaptor.getSrc();
      FailureOr<SmallVector<Value>> regs = readSwizzledTile(
          rewriter, loc, ctx, op, *tid, layout, element, *tile,
          [&](OpBuilder &b, Location l, Value byteOffset) -> Value {
            return LLVM::GEPOp::create(b, l, base.getType(), b.getI8Type(),
                                       base,
                                       ArrayRef<LLVM::GEPArg>{byteOffset});
          });
      if (failed(regs))
        return failure();
      rewriter.replaceOp(op, packRegisters(rewriter, loc, resultType, *regs));
      return success();
    }
    FailureOr<SmallVector<Value>> ptrs = emitSharedAddresses(
        rewriter, loc, ctx, op, adaptor.getSrc(), memType, layout);
    if (failed(ptrs))
      return failure();
    SmallVector<Value> regs;
    for (Value ptr : *ptrs) {
      FailureOr<Value> loaded =
          ctx.hooks.loadShared(rewriter, loc, ptr, element);
      regs.push_back(
          succeeded(loaded)
              ? *loaded
              : LLVM::LoadOp::create(rewriter, loc, element, ptr).getResult());
    }
    rewriter.replaceOp(op, packRegisters(rewriter, loc, resultType, regs));
    return success();
  }
};

struct LocalDeallocLowering : public GPUPattern<gpu::LocalDeallocOp> {
  using GPUPattern::GPUPattern;
  LogicalResult
  matchAndRewrite(gpu::LocalDeallocOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    // The plan gives every buffer its own bytes for the whole kernel.
    rewriter.eraseOp(op);
    return success();
  }
};

struct MemDescIndexLowering : public GPUPattern<gpu::MemDescIndexOp> {
  using GPUPattern::GPUPattern;
  LogicalResult
  matchAndRewrite(gpu::MemDescIndexOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    // Buffers of the leading dimension follow each other.
    auto type = cast<gpu::MemDescType>(op.getType());
    int64_t bytes = getElementBytes(type.getElementType());
    for (int64_t d : type.getShape())
      bytes *= d;
    Location loc = op.getLoc();
    Value offset = LLVM::MulOp::create(rewriter, loc, adaptor.getIndex(),
                                       createI32(rewriter, loc, bytes));
    rewriter.replaceOp(
        op, LLVM::GEPOp::create(rewriter, loc, adaptor.getSrc().getType(),
                                rewriter.getI8Type(), adaptor.getSrc(),
                                ArrayRef<LLVM::GEPArg>{offset}));
    return success();
  }
};

struct MemDescTransLowering : public GPUPattern<gpu::MemDescTransOp> {
  using GPUPattern::GPUPattern;
  LogicalResult
  matchAndRewrite(gpu::MemDescTransOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    // The same bytes; the result type's layout says how they are indexed.
    rewriter.replaceOp(op, adaptor.getSrc());
    return success();
  }
};

struct AsyncCopyLowering : public GPUPattern<gpu::AsyncCopyGlobalToLocalOp> {
  using GPUPattern::GPUPattern;
  LogicalResult
  matchAndRewrite(gpu::AsyncCopyGlobalToLocalOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto ptrType = cast<RankedTensorType>(op.getSrc().getType());
    auto memType = cast<gpu::MemDescType>(op.getDst().getType());
    LinearLayout layout = getLayout(ptrType);
    FailureOr<SmallVector<Value>> dsts = emitSharedAddresses(
        rewriter, loc, ctx, op, adaptor.getDst(), memType, layout);
    if (failed(dsts))
      return failure();
    SmallVector<Value> srcs =
        unpackRegisters(rewriter, loc, adaptor.getSrc(), ptrType);
    SmallVector<Value> masks, others;
    if (adaptor.getMask())
      masks = unpackRegisters(rewriter, loc, adaptor.getMask(),
                              op.getMask().getType());
    if (adaptor.getOther())
      others = unpackRegisters(rewriter, loc, adaptor.getOther(),
                               op.getOther().getType());
    Type element = getTypeConverter()->convertType(memType.getElementType());
    unsigned bytes = getElementBytes(element);
    // Whole runs move at once where both the global pointers and the
    // buffer's rows hold them contiguously.
    unsigned vec = std::min(getVectorWidth(ctx, op.getSrc(), op.getMask(),
                                           memType.getElementType()),
                            getSharedVectorWidth(memType, layout));
    Type accessType =
        vec == 1 ? element : Type(VectorType::get({int64_t(vec)}, element));
    Value always = LLVM::ConstantOp::create(rewriter, loc, rewriter.getI1Type(),
                                            rewriter.getBoolAttr(true));
    std::set<SmallVector<int32_t>> seen;
    for (size_t r = 0; r < srcs.size(); r += vec) {
      if (!seen.insert(getRegisterCoords(layout, r)).second)
        continue;
      Value pred = masks.empty() ? Value() : masks[r];
      // The target copies without the registers (zero-filling masked
      // elements); `other` other than zero needs the synchronous path.
      if (others.empty() &&
          succeeded(ctx.hooks.asyncCopy(rewriter, loc, (*dsts)[r], srcs[r],
                                        vec * bytes, pred ? pred : always)))
        continue;
      SmallVector<Value> otherRegs;
      for (unsigned i = 0; i < vec; ++i)
        otherRegs.push_back(others.empty() ? createZero(rewriter, loc, element)
                                           : others[r + i]);
      Value loaded =
          emitMaskedLoad(rewriter, loc, ctx, srcs[r], accessType, pred,
                         buildVector(rewriter, loc, otherRegs), vec * bytes);
      LLVM::StoreOp::create(rewriter, loc, loaded, (*dsts)[r], vec * bytes);
    }
    rewriter.replaceOp(op, createI32(rewriter, loc, 0));
    return success();
  }
};

struct AsyncCommitGroupLowering : public GPUPattern<gpu::AsyncCommitGroupOp> {
  using GPUPattern::GPUPattern;
  LogicalResult
  matchAndRewrite(gpu::AsyncCommitGroupOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    (void)ctx.hooks.asyncCommitGroup(rewriter, op.getLoc());
    rewriter.replaceOp(op, createI32(rewriter, op.getLoc(), 0));
    return success();
  }
};

struct AsyncWaitLowering : public GPUPattern<gpu::AsyncWaitOp> {
  using GPUPattern::GPUPattern;
  LogicalResult
  matchAndRewrite(gpu::AsyncWaitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    (void)ctx.hooks.asyncWait(rewriter, op.getLoc(), op.getNum());
    rewriter.replaceOp(op, createI32(rewriter, op.getLoc(), 0));
    return success();
  }
};

} // namespace

void lowering::populateSharedMemoryPatterns(GPUTypeConverter &converter,
                                            RewritePatternSet &patterns,
                                            LoweringContext &ctx) {
  patterns.add<LocalAllocLowering, LocalStoreLowering, LocalLoadLowering,
               LocalDeallocLowering, MemDescIndexLowering, MemDescTransLowering,
               AsyncCopyLowering, AsyncCommitGroupLowering, AsyncWaitLowering>(
      converter, ctx);
}
