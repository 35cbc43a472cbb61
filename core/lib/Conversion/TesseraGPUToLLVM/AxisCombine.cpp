//===- AxisCombine.cpp - What reductions and scans share ------------------===//
//
// Both combine the elements along one axis with a region: they find the
// layout bits that move along the axis, inline the region, and exchange
// scalars of any width between lanes.
//
//===----------------------------------------------------------------------===//
#include "Lowering.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace mlir::tessera;
using namespace mlir::tessera::lowering;

FailureOr<SmallVector<unsigned>>
lowering::getAxisBits(const LinearLayout &layout, StringRef inDim,
                      unsigned axis, Operation *op, StringRef what) {
  SmallVector<unsigned> bits;
  if (!layout.hasInDim(inDim))
    return bits;
  for (auto [i, basis] : llvm::enumerate(layout.getBases(inDim))) {
    if (basis[axis] == 0)
      continue;
    for (auto [d, v] : llvm::enumerate(basis))
      if (d != axis && v != 0)
        return op->emitError("cannot ")
               << what << " along axis " << axis << " a layout whose " << inDim
               << " bit " << i << " moves along dimension " << d << " too";
    bits.push_back(i);
  }
  return bits;
}

SmallVector<Value> lowering::inlineCombine(OpBuilder &b, Region &region,
                                           ArrayRef<Value> acc,
                                           ArrayRef<Value> cur) {
  Block &block = region.front();
  IRMapping mapping;
  unsigned n = acc.size();
  for (unsigned i = 0; i < n; ++i) {
    mapping.map(block.getArgument(i), acc[i]);
    mapping.map(block.getArgument(n + i), cur[i]);
  }
  for (Operation &inner : block.without_terminator())
    b.clone(inner, mapping);
  SmallVector<Value> results;
  for (Value v : block.getTerminator()->getOperands())
    results.push_back(mapping.lookupOrDefault(v));
  return results;
}

Value lowering::emitPackedBits(OpBuilder &b, Location loc, Value value,
                               ArrayRef<unsigned> bits) {
  Value packed = createI32(b, loc, 0);
  for (auto [j, bit] : llvm::enumerate(bits)) {
    Value set = LLVM::AndOp::create(
        b, loc, LLVM::LShrOp::create(b, loc, value, createI32(b, loc, bit)),
        createI32(b, loc, 1));
    packed = LLVM::OrOp::create(
        b, loc, packed, LLVM::ShlOp::create(b, loc, set, createI32(b, loc, j)));
  }
  return packed;
}

Value lowering::emitAxisBlockIndex(OpBuilder &b, Location loc,
                                   ArrayRef<Value> threadCoords,
                                   ArrayRef<int32_t> registerPart,
                                   ArrayRef<int64_t> shape, unsigned axis,
                                   unsigned axisShift) {
  Value flat = createI32(b, loc, 0);
  int64_t stride = 1;
  for (int d = int(shape.size()) - 1; d >= 0; --d) {
    int64_t extent = shape[d];
    if (unsigned(d) == axis) {
      extent >>= axisShift;
      if (extent <= 1)
        continue;
    }
    Value coord = threadCoords[d];
    if (registerPart[d])
      coord = LLVM::XOrOp::create(b, loc, coord,
                                  createI32(b, loc, registerPart[d]));
    if (unsigned(d) == axis)
      coord = LLVM::LShrOp::create(b, loc, coord, createI32(b, loc, axisShift));
    flat = LLVM::AddOp::create(
        b, loc, flat,
        LLVM::MulOp::create(b, loc, coord, createI32(b, loc, stride)));
    stride *= extent;
  }
  return flat;
}

WarpScratch::WarpScratch(LoweringContext &ctx, Operation *op, ValueRange srcs,
                         uint64_t numSlots, int64_t numOut)
    : ctx(ctx), op(op), numOut(numOut) {
  uint64_t offset = ctx.plan.scratchOffset;
  for (Value src : srcs) {
    unsigned bytes = getElementBytes(getElementTypeOrSelf(src.getType()));
    offset = llvm::alignTo(offset, 8);
    regionStart.push_back(offset);
    elementBytes.push_back(bytes);
    offset += numSlots * uint64_t(numOut) * bytes;
  }
}

uint64_t WarpScratch::getBytes(ValueRange srcs, uint64_t numSlots,
                               uint64_t numOut) {
  uint64_t bytes = 0;
  for (Value src : srcs)
    bytes = llvm::alignTo(bytes, 8) +
            numSlots * numOut *
                getElementBytes(getElementTypeOrSelf(src.getType()));
  return bytes;
}

FailureOr<Value> WarpScratch::getPointer(OpBuilder &b, Location loc, unsigned i,
                                         Value slot, Value out) const {
  Value index = LLVM::AddOp::create(
      b, loc, LLVM::MulOp::create(b, loc, slot, createI32(b, loc, numOut)),
      out);
  Value byteOffset = LLVM::AddOp::create(
      b, loc,
      LLVM::MulOp::create(b, loc, index, createI32(b, loc, elementBytes[i])),
      createI32(b, loc, regionStart[i]));
  return getSharedPointer(b, loc, ctx, byteOffset, op);
}

FailureOr<Value> lowering::shuffleAny(OpBuilder &b, Location loc,
                                      LoweringHooks &hooks, Value value,
                                      unsigned mask) {
  Type type = value.getType();
  unsigned bits =
      isa<LLVM::LLVMPointerType>(type) ? 64 : type.getIntOrFloatBitWidth();
  Type i32 = b.getI32Type();
  if (bits == 32)
    return hooks.shuffleXor(b, loc, value, mask);
  if (bits < 32) {
    Type intType = b.getIntegerType(bits);
    Value asInt = isa<FloatType>(type)
                      ? LLVM::BitcastOp::create(b, loc, intType, value)
                      : value;
    Value wide = LLVM::ZExtOp::create(b, loc, i32, asInt);
    FailureOr<Value> got = hooks.shuffleXor(b, loc, wide, mask);
    if (failed(got))
      return failure();
    Value narrow = LLVM::TruncOp::create(b, loc, intType, *got);
    return isa<FloatType>(type)
               ? LLVM::BitcastOp::create(b, loc, type, narrow).getResult()
               : narrow;
  }
  // 64 bits: two halves.
  Value asInt = value;
  Type i64 = b.getI64Type();
  if (isa<LLVM::LLVMPointerType>(type))
    asInt = LLVM::PtrToIntOp::create(b, loc, i64, value);
  else if (isa<FloatType>(type))
    asInt = LLVM::BitcastOp::create(b, loc, i64, value);
  Value lo = LLVM::TruncOp::create(b, loc, i32, asInt);
  Value hi = LLVM::TruncOp::create(
      b, loc, i32, LLVM::LShrOp::create(b, loc, asInt, createI64(b, loc, 32)));
  FailureOr<Value> gotLo = hooks.shuffleXor(b, loc, lo, mask);
  FailureOr<Value> gotHi = hooks.shuffleXor(b, loc, hi, mask);
  if (failed(gotLo) || failed(gotHi))
    return failure();
  Value joined = LLVM::OrOp::create(
      b, loc, LLVM::ZExtOp::create(b, loc, i64, *gotLo),
      LLVM::ShlOp::create(b, loc, LLVM::ZExtOp::create(b, loc, i64, *gotHi),
                          createI64(b, loc, 32)));
  if (isa<LLVM::LLVMPointerType>(type))
    return LLVM::IntToPtrOp::create(b, loc, type, joined).getResult();
  if (isa<FloatType>(type))
    return LLVM::BitcastOp::create(b, loc, type, joined).getResult();
  return joined;
}
