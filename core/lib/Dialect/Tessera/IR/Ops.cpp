//===- Ops.cpp - Verifiers, builders and effects of tessera ops -----------===//
#include "tessera/Dialect/Tessera/IR/Dialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::tessera;

namespace {
/// "2x4" for diagnostics.
std::string shapeStr(ArrayRef<int64_t> shape) {
  std::string s;
  llvm::raw_string_ostream os(s);
  llvm::interleave(shape, os, "x");
  if (shape.empty())
    os << "scalar";
  return s;
}

ArrayRef<int64_t> shapeOf(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return tensor.getShape();
  return {};
}

bool isPermutation(ArrayRef<int32_t> order, int64_t rank) {
  if ((int64_t)order.size() != rank)
    return false;
  SmallVector<bool> seen(rank, false);
  for (int32_t d : order) {
    if (d < 0 || d >= rank || seen[d])
      return false;
    seen[d] = true;
  }
  return true;
}

bool isFloat8(Type t) {
  return isa<Float8E4M3FNType, Float8E5M2Type, Float8E4M3FNUZType,
             Float8E5M2FNUZType, Float8E4M3B11FNUZType>(t);
}
} // namespace

//===----------------------------------------------------------------------===//
// Making and reshaping blocks
//===----------------------------------------------------------------------===//

LogicalResult MakeRangeOp::verify() {
  int64_t start = getStart(), end = getEnd();
  auto type = getType();
  if (type.getRank() != 1)
    return emitOpError("result must be a rank-1 tensor, got ") << type;
  if (end <= start)
    return emitOpError("range end (")
           << end << ") must be greater than its start (" << start << ")";
  if (type.getDimSize(0) != end - start)
    return emitOpError("result has ")
           << type.getDimSize(0) << " elements but the range [" << start
           << ", " << end << ") has " << end - start;
  if (!llvm::isPowerOf2_64(end - start))
    return emitOpError("range length ")
           << end - start << " must be a power of two";
  return success();
}

LogicalResult BroadcastOp::verify() {
  auto src = getSrc().getType(), dst = getType();
  if (src.getRank() != dst.getRank())
    return emitOpError("source and result must have the same rank; got ")
           << src.getRank() << " and " << dst.getRank()
           << " (use expand_dims to add dimensions first)";
  for (auto [i, s, d] : llvm::enumerate(src.getShape(), dst.getShape()))
    if (s != d && s != 1)
      return emitOpError("cannot broadcast dimension ")
             << i << " of size " << s << " to " << d
             << ": only dimensions of size 1 broadcast";
  return success();
}

LogicalResult ExpandDimsOp::verify() {
  auto src = getSrc().getType(), dst = getType();
  int64_t axis = getAxis();
  if (axis < 0 || axis > src.getRank())
    return emitOpError("axis ") << axis << " is out of range [0, "
                                << src.getRank() << "]";
  SmallVector<int64_t> expected(src.getShape());
  expected.insert(expected.begin() + axis, 1);
  if (dst.getShape() != ArrayRef<int64_t>(expected))
    return emitOpError("result shape ")
           << shapeStr(dst.getShape()) << " should be "
           << shapeStr(expected) << " (a 1 inserted at axis " << axis << ")";
  return success();
}

LogicalResult ReshapeOp::verify() {
  auto src = getSrc().getType(), dst = getType();
  if (src.getNumElements() != dst.getNumElements())
    return emitOpError("cannot reshape ")
           << shapeStr(src.getShape()) << " (" << src.getNumElements()
           << " elements) to " << shapeStr(dst.getShape()) << " ("
           << dst.getNumElements() << " elements)";
  return success();
}

LogicalResult TransOp::verify() {
  auto src = getSrc().getType(), dst = getType();
  ArrayRef<int32_t> order = getOrder();
  if (!isPermutation(order, src.getRank()))
    return emitOpError("order must be a permutation of 0..")
           << src.getRank() - 1 << " for a rank-" << src.getRank()
           << " tensor";
  for (auto [i, d] : llvm::enumerate(order))
    if (dst.getDimSize(i) != src.getDimSize(d))
      return emitOpError("result dimension ")
             << i << " has size " << dst.getDimSize(i)
             << " but source dimension " << d << " has size "
             << src.getDimSize(d);
  return success();
}

LogicalResult JoinOp::verify() {
  SmallVector<int64_t> expected(getLhs().getType().getShape());
  expected.push_back(2);
  if (getType().getShape() != ArrayRef<int64_t>(expected))
    return emitOpError("result shape ")
           << shapeStr(getType().getShape()) << " should be "
           << shapeStr(expected) << " (the operands' shape with a new minor "
           << "dimension of 2)";
  return success();
}

LogicalResult SplitOp::verify() {
  auto src = getSrc().getType();
  if (src.getRank() < 1 || src.getShape().back() != 2)
    return emitOpError("the source's minor dimension must have size 2, got "
                       "shape ")
           << shapeStr(src.getShape());
  auto expected = src.getShape().drop_back();
  if (getOutLHS().getType().getShape() != expected)
    return emitOpError("results should have shape ")
           << shapeStr(expected) << ", got "
           << shapeStr(getOutLHS().getType().getShape());
  return success();
}

LogicalResult CatOp::verify() {
  auto src = getLhs().getType(), dst = getType();
  if (src.getRank() != dst.getRank() || src.getRank() < 1)
    return emitOpError("operands and result must have the same rank");
  SmallVector<int64_t> expected(src.getShape());
  expected[0] *= 2;
  if (dst.getShape() != ArrayRef<int64_t>(expected))
    return emitOpError("result shape ")
           << shapeStr(dst.getShape()) << " should be " << shapeStr(expected);
  return success();
}

//===----------------------------------------------------------------------===//
// Pointers
//===----------------------------------------------------------------------===//

LogicalResult BitcastOp::verify() {
  Type src = getElementTypeOrSelf(getSrc().getType());
  Type dst = getElementTypeOrSelf(getType());
  if (isa<PointerType>(src) != isa<PointerType>(dst))
    return emitOpError("cannot bitcast between a pointer and a non-pointer; "
                       "use int_to_ptr or ptr_to_int");
  if (!isa<PointerType>(src) &&
      src.getIntOrFloatBitWidth() != dst.getIntOrFloatBitWidth())
    return emitOpError("bitcast needs types of the same width, got ")
           << src << " (" << src.getIntOrFloatBitWidth() << " bits) and "
           << dst << " (" << dst.getIntOrFloatBitWidth() << " bits)";
  return success();
}

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

void LoadOp::build(OpBuilder &builder, OperationState &state, Value ptr,
                   Value mask, Value other) {
  build(builder, state, getLoadedType(ptr.getType()), ptr, mask, other,
        /*boundaryCheck=*/ArrayRef<int32_t>{}, /*padding=*/nullptr,
        CacheModifier::none, EvictionPolicy::normal, /*isVolatile=*/false);
}

/// Shared checks of loads and stores through block pointers.
static LogicalResult verifyBoundaryCheck(Operation *op, Type ptrType,
                                         ArrayRef<int32_t> boundaryCheck,
                                         bool hasMask) {
  auto ptr = dyn_cast<PointerType>(ptrType);
  bool isBlock = ptr && ptr.isBlockPointer();
  if (!isBlock) {
    if (!boundaryCheck.empty())
      return op->emitOpError("boundaryCheck applies only to block pointers; "
                             "use a mask with tensors of pointers");
    return success();
  }
  if (hasMask)
    return op->emitOpError("block pointer accesses take no mask; use "
                           "boundaryCheck");
  int64_t rank = cast<RankedTensorType>(ptr.getPointeeType()).getRank();
  for (int32_t d : boundaryCheck)
    if (d < 0 || d >= rank)
      return op->emitOpError("boundaryCheck dimension ")
             << d << " is out of range for a rank-" << rank << " block";
  return success();
}

LogicalResult LoadOp::verify() {
  if (getOther() && !getMask())
    return emitOpError("'other' needs a mask: it is what masked-off lanes "
                       "read");
  if (getPadding() && !(isa<PointerType>(getPtr().getType()) &&
                        cast<PointerType>(getPtr().getType()).isBlockPointer()))
    return emitOpError("padding applies only to block pointers");
  return verifyBoundaryCheck(*this, getPtr().getType(), getBoundaryCheck(),
                             bool(getMask()));
}

void LoadOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  effects.emplace_back(MemoryEffects::Read::get(), &getPtrMutable(),
                       SideEffects::DefaultResource::get());
  // A volatile load must stay where it is and happen exactly once.
  if (getIsVolatile())
    effects.emplace_back(MemoryEffects::Write::get(),
                         SideEffects::DefaultResource::get());
}

LogicalResult StoreOp::verify() {
  return verifyBoundaryCheck(*this, getPtr().getType(), getBoundaryCheck(),
                             bool(getMask()));
}

void StoreOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  effects.emplace_back(MemoryEffects::Write::get(), &getPtrMutable(),
                       SideEffects::DefaultResource::get());
}

LogicalResult AtomicRMWOp::verify() {
  Type elem = getElementTypeOrSelf(getVal().getType());
  bool isFloat = isa<FloatType>(elem);
  switch (getRmwOp()) {
  case RMWOp::fadd:
    if (!isFloat)
      return emitOpError("fadd needs floating-point values, got ") << elem;
    break;
  case RMWOp::add:
  case RMWOp::umax:
  case RMWOp::umin:
  case RMWOp::And:
  case RMWOp::Or:
  case RMWOp::Xor:
    if (!isa<IntegerType>(elem))
      return emitOpError() << stringifyRMWOp(getRmwOp())
                           << " needs integer values, got " << elem
                           << (isFloat ? " (use fadd for floats)" : "");
    break;
  case RMWOp::max:
  case RMWOp::min:
  case RMWOp::xchg:
    break;
  }
  unsigned width = isa<PointerType>(elem) ? 64 : elem.getIntOrFloatBitWidth();
  if (width != 16 && width != 32 && width != 64)
    return emitOpError("atomics act on 16-, 32- or 64-bit values, got ")
           << elem;
  return success();
}

LogicalResult AtomicCASOp::verify() {
  Type elem = getElementTypeOrSelf(getVal().getType());
  if (isa<PointerType>(elem))
    return success();
  unsigned width = elem.getIntOrFloatBitWidth();
  if (width != 16 && width != 32 && width != 64)
    return emitOpError("compare-and-swap acts on 16-, 32- or 64-bit values, "
                       "got ")
           << elem;
  return success();
}

//===----------------------------------------------------------------------===//
// Tensor descriptors and block pointers
//===----------------------------------------------------------------------===//

LogicalResult MakeTensorDescOp::verify() {
  auto block = getType().getBlockType();
  if ((int64_t)getShape().size() != block.getRank())
    return emitOpError("expected ")
           << block.getRank() << " sizes and strides for a rank-"
           << block.getRank() << " block, got " << getShape().size();
  auto base = cast<PointerType>(getBase().getType());
  if (base.getPointeeType() != block.getElementType())
    return emitOpError("base points to ")
           << base.getPointeeType() << " but the block holds "
           << block.getElementType();
  return success();
}

/// The block read or written through a descriptor: its block type, with
/// leading dimensions of size 1 optionally dropped.
static LogicalResult verifyDescriptorBlock(Operation *op, TensorDescType desc,
                                           ValueRange indices,
                                           RankedTensorType value) {
  auto block = desc.getBlockType();
  if ((int64_t)indices.size() != block.getRank())
    return op->emitOpError("expected ")
           << block.getRank() << " indices for a rank-" << block.getRank()
           << " descriptor, got " << indices.size();
  if (value.getElementType() != block.getElementType())
    return op->emitOpError("element type ")
           << value.getElementType() << " does not match the descriptor's "
           << block.getElementType();
  ArrayRef<int64_t> shape = block.getShape();
  while (shape.size() > value.getShape().size() && shape.front() == 1)
    shape = shape.drop_front();
  if (shape != value.getShape())
    return op->emitOpError("block shape ")
           << shapeStr(value.getShape()) << " does not match the descriptor's "
           << shapeStr(block.getShape());
  return success();
}

LogicalResult DescriptorLoadOp::verify() {
  return verifyDescriptorBlock(*this, getDesc().getType(), getIndices(),
                               getType());
}

LogicalResult DescriptorStoreOp::verify() {
  return verifyDescriptorBlock(*this, getDesc().getType(), getIndices(),
                               getSrc().getType());
}

LogicalResult MakeBlockPtrOp::verify() {
  auto tile =
      cast<RankedTensorType>(cast<PointerType>(getType()).getPointeeType());
  int64_t rank = tile.getRank();
  if ((int64_t)getShape().size() != rank)
    return emitOpError("expected ")
           << rank << " sizes, strides and offsets for a rank-" << rank
           << " block, got " << getShape().size();
  if (!isPermutation(getOrder(), rank))
    return emitOpError("order must be a permutation of 0..") << rank - 1;
  auto base = cast<PointerType>(getBase().getType());
  if (base.getPointeeType() != tile.getElementType())
    return emitOpError("base points to ")
           << base.getPointeeType() << " but the block holds "
           << tile.getElementType();
  return success();
}

LogicalResult AdvanceOp::verify() {
  auto tile =
      cast<RankedTensorType>(cast<PointerType>(getType()).getPointeeType());
  if ((int64_t)getOffsets().size() != tile.getRank())
    return emitOpError("expected ")
           << tile.getRank() << " offsets, got " << getOffsets().size();
  return success();
}

//===----------------------------------------------------------------------===//
// Linear algebra, reductions and scans
//===----------------------------------------------------------------------===//

LogicalResult DotOp::verify() {
  auto a = getA().getType(), b = getB().getType(), c = getC().getType();
  int64_t rank = a.getRank();
  if (rank != 2 && rank != 3)
    return emitOpError("operands must be 2-D (or 3-D with a batch "
                       "dimension), got rank ")
           << rank;
  if (b.getRank() != rank || c.getRank() != rank)
    return emitOpError("a, b and c must have the same rank");
  int64_t m = a.getDimSize(rank - 2), k = a.getDimSize(rank - 1);
  int64_t kb = b.getDimSize(rank - 2), n = b.getDimSize(rank - 1);
  if (k != kb)
    return emitOpError("inner dimensions differ: a is ")
           << shapeStr(a.getShape()) << " and b is " << shapeStr(b.getShape());
  if (c.getDimSize(rank - 2) != m || c.getDimSize(rank - 1) != n)
    return emitOpError("accumulator shape ")
           << shapeStr(c.getShape()) << " should be " << m << "x" << n;
  if (rank == 3 && (a.getDimSize(0) != b.getDimSize(0) ||
                    a.getDimSize(0) != c.getDimSize(0)))
    return emitOpError("batch dimensions differ");
  Type ea = a.getElementType(), eb = b.getElementType(),
       ec = c.getElementType();
  if (isa<PointerType>(ea) || isa<PointerType>(eb))
    return emitOpError("cannot multiply pointers");
  bool bothFp8 = isFloat8(ea) && isFloat8(eb);
  if (ea != eb && !bothFp8)
    return emitOpError("a and b must have the same element type, got ")
           << ea << " and " << eb;
  if (isa<IntegerType>(ea) != isa<IntegerType>(ec))
    return emitOpError("an integer dot accumulates in integers and a float "
                       "dot in floats; got inputs ")
           << ea << " and accumulator " << ec;
  return success();
}

SmallVector<int64_t> ReduceOp::getResultShape() {
  auto src = cast<RankedTensorType>(getSrcs().front().getType());
  SmallVector<int64_t> shape(src.getShape());
  shape.erase(shape.begin() + getAxis());
  return shape;
}

/// The checks reduce and scan share on their operands.
static LogicalResult verifyReduceOrScanOperands(Operation *op,
                                                ValueRange srcs, int64_t axis) {
  if (srcs.empty())
    return op->emitOpError("needs at least one operand");
  auto first = cast<RankedTensorType>(srcs.front().getType());
  for (Value src : srcs.drop_front())
    if (cast<RankedTensorType>(src.getType()).getShape() != first.getShape())
      return op->emitOpError("all operands must have the same shape");
  if (axis < 0 || axis >= first.getRank())
    return op->emitOpError("axis ")
           << axis << " is out of range for a rank-" << first.getRank()
           << " tensor";
  return success();
}

/// The combine region takes 2N scalars of the operands' element types and
/// yields N of them.
static LogicalResult verifyCombineRegion(Operation *op, Region &region,
                                         ValueRange srcs) {
  Block &block = region.front();
  unsigned n = srcs.size();
  if (block.getNumArguments() != 2 * n)
    return op->emitOpError("combine region must take ")
           << 2 * n << " arguments (accumulated then new values), got "
           << block.getNumArguments();
  for (unsigned i = 0; i < 2 * n; ++i) {
    Type expected = getElementTypeOrSelf(srcs[i % n].getType());
    if (block.getArgument(i).getType() != expected)
      return op->emitOpError("combine region argument ")
             << i << " has type " << block.getArgument(i).getType()
             << " but operand " << i % n << " holds " << expected;
  }
  Operation *term = block.getTerminator();
  if (term->getNumOperands() != n)
    return op->emitOpError("combine region must yield ")
           << n << " values, got " << term->getNumOperands();
  for (unsigned i = 0; i < n; ++i)
    if (term->getOperand(i).getType() != getElementTypeOrSelf(srcs[i].getType()))
      return op->emitOpError("combine region yields ")
             << term->getOperand(i).getType() << " for operand " << i
             << ", which holds " << getElementTypeOrSelf(srcs[i].getType());
  return success();
}

LogicalResult ReduceOp::verify() {
  if (failed(verifyReduceOrScanOperands(*this, getSrcs(), getAxis())))
    return failure();
  if (getNumResults() != getSrcs().size())
    return emitOpError("expected one result per operand");
  SmallVector<int64_t> shape = getResultShape();
  for (auto [src, res] : llvm::zip(getSrcs(), getResults())) {
    Type elem = getElementTypeOrSelf(src.getType());
    if (getElementTypeOrSelf(res.getType()) != elem)
      return emitOpError("result type ")
             << res.getType() << " does not hold the operand's " << elem;
    if (shape.empty() ? isa<RankedTensorType>(res.getType())
                      : shapeOf(res.getType()) != ArrayRef<int64_t>(shape))
      return emitOpError("result should have shape ")
             << shapeStr(shape) << ", got " << res.getType();
  }
  return success();
}

LogicalResult ReduceOp::verifyRegions() {
  return verifyCombineRegion(*this, getCombineOp(), getSrcs());
}

LogicalResult ScanOp::verify() {
  if (failed(verifyReduceOrScanOperands(*this, getSrcs(), getAxis())))
    return failure();
  if (getResultTypes() != getSrcs().getTypes())
    return emitOpError("results must have the operands' types");
  return success();
}

LogicalResult ScanOp::verifyRegions() {
  return verifyCombineRegion(*this, getCombineOp(), getSrcs());
}

LogicalResult HistogramOp::verify() {
  auto src = getSrc().getType();
  if (src.getRank() != 1 || getType().getRank() != 1)
    return emitOpError("source and result must be rank-1 tensors");
  if (getMask() && getMask().getType().getShape() != src.getShape())
    return emitOpError("mask must have the source's shape");
  return success();
}

//===----------------------------------------------------------------------===//
// Elementwise operations
//===----------------------------------------------------------------------===//

static void addPurityEffects(
    bool pure,
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  if (pure)
    return;
  effects.emplace_back(MemoryEffects::Read::get(),
                       SideEffects::DefaultResource::get());
  effects.emplace_back(MemoryEffects::Write::get(),
                       SideEffects::DefaultResource::get());
}

void ExternElementwiseOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  addPurityEffects(getPure(), effects);
}

void InlineAsmElementwiseOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  addPurityEffects(getPure(), effects);
}

LogicalResult InlineAsmElementwiseOp::verify() {
  if (getPackedElement() < 1)
    return emitOpError("packed_element must be at least 1");
  return success();
}

LogicalResult FpToFpOp::verify() {
  auto src = cast<FloatType>(getElementTypeOrSelf(getSrc().getType()));
  auto dst = cast<FloatType>(getElementTypeOrSelf(getType()));
  bool narrowing = dst.getWidth() < src.getWidth() ||
                   (dst.getWidth() == src.getWidth() && dst != src);
  if (narrowing && !getRounding())
    return emitOpError("converting ")
           << src << " to " << dst << " needs a rounding mode";
  if (!narrowing && getRounding())
    return emitOpError("widening ")
           << src << " to " << dst << " is exact and takes no rounding mode";
  return success();
}

//===----------------------------------------------------------------------===//
// Hints and debugging
//===----------------------------------------------------------------------===//

LogicalResult HintOp::verify() {
  int64_t rank = std::max<int64_t>(1, shapeOf(getSrc().getType()).size());
  for (auto [name, arr] :
       {std::pair{"divisibility", getDivisibility()},
        std::pair{"contiguity", getContiguity()},
        std::pair{"constancy", getConstancy()}}) {
    if (!arr)
      continue;
    if ((int64_t)arr->size() != rank)
      return emitOpError() << name << " needs " << rank
                           << " entries (one per dimension), got "
                           << arr->size();
    for (int64_t v : *arr)
      if (v < 1 || !llvm::isPowerOf2_64(v))
        return emitOpError() << name << " values must be powers of two, got "
                             << v;
  }
  return success();
}

LogicalResult PrintOp::verify() {
  if (getIsSigned().size() != getArgs().size())
    return emitOpError("isSigned needs one entry per printed value: got ")
           << getIsSigned().size() << " for " << getArgs().size()
           << " values";
  return success();
}

#define GET_OP_CLASSES
#include "tessera/Dialect/Tessera/IR/TesseraOps.cpp.inc"
