//===- SharedExchange.cpp - Layout conversions through shared memory ------===//
//
// When two layouts place elements in different threads, every thread writes
// its registers to the scratch space and reads back those of the new
// layout. The scratch holds the tensor row-major, except that the 16-byte
// groups of each row are XOR-permuted by the row (a swizzle): the eight
// rows a column access, or a matrix load of 8 x 16 bytes, touches then fall
// in different banks. Both sides move whole groups where their registers
// run along the rows (vector accesses); the reading side is offered to the
// target first (LoweringHooks::loadSharedTile), which may read matrices at
// once.
//
//===----------------------------------------------------------------------===//
#include "Lowering.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

#include <set>

using namespace mlir;
using namespace mlir::tessera;
using namespace mlir::tessera::lowering;

namespace {

/// The type a register of `type` is kept as in shared memory.
Type getStorageType(Type type) {
  if (isa<LLVM::LLVMPointerType>(type))
    return IntegerType::get(type.getContext(), 64);
  if (type.isInteger(1))
    return IntegerType::get(type.getContext(), 8);
  return type;
}

} // namespace

uint64_t lowering::getConvertScratchBytes(RankedTensorType src,
                                          RankedTensorType dst) {
  if (haveSameThreadMap(getLayout(src), getLayout(dst)))
    return 0;
  Type element = src.getElementType();
  unsigned bytes = isa<PointerType>(element) ? 8 : getElementBytes(element);
  return uint64_t(src.getNumElements()) * bytes;
}

FailureOr<SmallVector<Value>> lowering::exchangeThroughShared(
    ConversionPatternRewriter &rewriter, Location loc, LoweringContext &ctx,
    Operation *op, ArrayRef<Value> srcRegs, const LinearLayout &src,
    const LinearLayout &dst, ArrayRef<int64_t> shape) {
  FailureOr<ThreadIndex> tid = getThreadIndex(rewriter, loc, ctx, op);
  if (failed(tid))
    return failure();
  Type regType = srcRegs.front().getType();
  Type storage = getStorageType(regType);
  unsigned bytes = getElementBytes(storage);
  unsigned rank = shape.size();
  SwizzledTile scratch = SwizzledTile::forExchange(shape, bytes);
  auto pointerAt = [&](OpBuilder &b, Location l,
                       Value byteOffset) -> FailureOr<Value> {
    Value offset = LLVM::AddOp::create(b, l, byteOffset,
                                       createI32(b, l, ctx.plan.scratchOffset));
    return getSharedPointer(b, l, ctx, offset, op);
  };
  auto barrier = [&]() -> LogicalResult {
    if (failed(ctx.hooks.createBarrier(rewriter, loc)))
      return op->emitError("the ")
             << ctx.hooks.getName()
             << " target has no block barrier, which this layout conversion "
                "through shared memory needs";
    return success();
  };
  auto toStorage = [&](Value value) -> Value {
    if (isa<LLVM::LLVMPointerType>(regType))
      return LLVM::PtrToIntOp::create(rewriter, loc, storage, value);
    if (storage != regType)
      return LLVM::ZExtOp::create(rewriter, loc, storage, value);
    return value;
  };
  auto fromStorage = [&](Value value) -> Value {
    if (isa<LLVM::LLVMPointerType>(regType))
      return LLVM::IntToPtrOp::create(rewriter, loc, regType, value);
    if (storage != regType)
      return LLVM::TruncOp::create(rewriter, loc, regType, value);
    return value;
  };

  // Earlier users of the scratch space must be done reading it.
  if (failed(barrier()))
    return failure();
  SmallVector<SmallVector<Value>> srcCoords =
      emitAllCoords(rewriter, loc, src, *tid);
  // Copies of one element in several threads hold the same value, so they
  // may all write it; registers of one thread holding the same element are
  // written once.
  unsigned storeWidth = getTileAccessWidth(src, rank, scratch.getVector());
  std::set<SmallVector<int32_t>> written;
  Value always = LLVM::ConstantOp::create(rewriter, loc, rewriter.getI1Type(),
                                          rewriter.getBoolAttr(true));
  for (size_t reg = 0; reg < srcRegs.size(); reg += storeWidth) {
    if (!written.insert(getRegisterCoords(src, reg)).second)
      continue;
    FailureOr<Value> ptr = pointerAt(
        rewriter, loc, scratch.getOffset(rewriter, loc, srcCoords[reg]));
    if (failed(ptr))
      return failure();
    SmallVector<Value> group;
    for (unsigned i = 0; i < storeWidth; ++i)
      group.push_back(toStorage(srcRegs[reg + i]));
    Value stored =
        storeWidth == 1 ? group.front() : buildVector(rewriter, loc, group);
    if (failed(ctx.hooks.storeShared(rewriter, loc, *ptr, stored, always)))
      LLVM::StoreOp::create(rewriter, loc, stored, *ptr, bytes * storeWidth);
  }
  if (failed(barrier()))
    return failure();

  // The stores above found the shared base, so the pointers below do too.
  FailureOr<SmallVector<Value>> loaded =
      readSwizzledTile(rewriter, loc, ctx, op, *tid, dst, storage, scratch,
                       [&](OpBuilder &b, Location l, Value byteOffset) {
                         return *pointerAt(b, l, byteOffset);
                       });
  if (failed(loaded))
    return failure();
  SmallVector<Value> result;
  for (Value value : *loaded)
    result.push_back(fromStorage(value));
  return result;
}
