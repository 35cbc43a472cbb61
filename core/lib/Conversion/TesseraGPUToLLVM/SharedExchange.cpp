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
#include "llvm/Support/MathExtras.h"

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

/// Where each element of the exchanged tensor lives in the scratch space.
class ScratchAddressing {
public:
  ScratchAddressing(ArrayRef<int64_t> shape, unsigned bytes)
      : shape(shape), bytes(bytes) {
    for (int i = int(shape.size()) - 2; i >= 0; --i)
      strides.insert(strides.begin(), strides.front() * shape[i + 1]);
    int64_t last = shape.back();
    vec = std::max<int64_t>(1, std::min<int64_t>(last, 16 / bytes));
    if (shape.size() >= 2) {
      // Rows of fewer than eight groups share a phase with their
      // neighbours, so that eight consecutive rows still cover eight
      // distinct 16-byte bank groups.
      int64_t groups = last / vec;
      maxPhase = std::min<int64_t>(groups, 8);
      perPhase = std::max<int64_t>(1, 8 / groups);
    }
  }

  /// Elements per contiguous, aligned group of a row.
  unsigned getVector() const { return vec; }

  /// The byte offset (i32) of the element at `coords`.
  Value getOffset(OpBuilder &b, Location loc, ArrayRef<Value> coords) const {
    unsigned rank = shape.size();
    Value col = coords.back();
    if (maxPhase > 1) {
      Value phase = coords[rank - 2];
      if (perPhase > 1)
        phase = LLVM::LShrOp::create(
            b, loc, phase, createI32(b, loc, llvm::Log2_64(perPhase)));
      phase =
          LLVM::AndOp::create(b, loc, phase, createI32(b, loc, maxPhase - 1));
      if (vec > 1)
        phase = LLVM::ShlOp::create(b, loc, phase,
                                    createI32(b, loc, llvm::Log2_64(vec)));
      col = LLVM::XOrOp::create(b, loc, col, phase);
    }
    Value flat = col;
    for (unsigned d = 0; d + 1 < rank; ++d)
      flat = LLVM::AddOp::create(
          b, loc, flat,
          LLVM::MulOp::create(b, loc, coords[d],
                              createI32(b, loc, strides[d])));
    return LLVM::MulOp::create(b, loc, flat, createI32(b, loc, bytes));
  }

private:
  SmallVector<int64_t> shape;
  SmallVector<int64_t> strides = {1};
  unsigned bytes;
  int64_t vec = 1, perPhase = 1, maxPhase = 1;
};

/// How many consecutive registers of `layout` hold consecutive elements of
/// one row group (at most `vec`): the width of its vector accesses.
unsigned getAccessWidth(const LinearLayout &layout, unsigned rank,
                        unsigned vec) {
  auto [dim, run] = getRegisterRun(layout);
  if (dim != int(rank) - 1)
    return 1;
  return std::min(run, vec);
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
  ScratchAddressing scratch(shape, bytes);
  auto pointerTo = [&](OpBuilder &b, Location l,
                       ArrayRef<Value> coords) -> FailureOr<Value> {
    Value offset = LLVM::AddOp::create(b, l, scratch.getOffset(b, l, coords),
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
  unsigned storeWidth = getAccessWidth(src, rank, scratch.getVector());
  std::set<SmallVector<int32_t>> written;
  Value always = LLVM::ConstantOp::create(rewriter, loc, rewriter.getI1Type(),
                                          rewriter.getBoolAttr(true));
  for (size_t reg = 0; reg < srcRegs.size(); reg += storeWidth) {
    if (!written.insert(getRegisterCoords(src, reg)).second)
      continue;
    FailureOr<Value> ptr = pointerTo(rewriter, loc, srcCoords[reg]);
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

  SmallVector<Value> result;
  if (rank == 2) {
    SharedTile tile;
    tile.op = op;
    tile.layout = &dst;
    tile.elementType = storage;
    tile.contiguous = scratch.getVector();
    tile.lane = tid->lane;
    tile.warp = tid->warp;
    tile.address = [&](OpBuilder &b, Location l, Value row,
                       Value col) -> Value {
      FailureOr<Value> ptr = pointerTo(b, l, {row, col});
      assert(succeeded(ptr) && "the stores above found the shared base");
      return *ptr;
    };
    FailureOr<SmallVector<Value>> loaded =
        ctx.hooks.loadSharedTile(rewriter, loc, tile);
    if (succeeded(loaded)) {
      for (Value value : *loaded)
        result.push_back(fromStorage(value));
      return result;
    }
  }
  SmallVector<SmallVector<Value>> dstCoords =
      emitAllCoords(rewriter, loc, dst, *tid);
  unsigned loadWidth = getAccessWidth(dst, rank, scratch.getVector());
  Type accessType =
      loadWidth == 1 ? storage : Type(VectorType::get({loadWidth}, storage));
  for (size_t reg = 0; reg < dstCoords.size(); reg += loadWidth) {
    FailureOr<Value> ptr = pointerTo(rewriter, loc, dstCoords[reg]);
    if (failed(ptr))
      return failure();
    FailureOr<Value> loaded =
        ctx.hooks.loadShared(rewriter, loc, *ptr, accessType);
    if (failed(loaded))
      loaded = LLVM::LoadOp::create(rewriter, loc, accessType, *ptr,
                                    bytes * loadWidth)
                   .getResult();
    if (loadWidth == 1) {
      result.push_back(fromStorage(*loaded));
      continue;
    }
    for (unsigned i = 0; i < loadWidth; ++i)
      result.push_back(fromStorage(LLVM::ExtractElementOp::create(
          rewriter, loc, *loaded, createI32(rewriter, loc, i))));
  }
  return result;
}
