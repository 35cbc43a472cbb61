//===- AxisInfoRules.cpp - Transfer functions of the axis-info analysis ---===//
//
// One rule per modelled op: the fact of the result from the facts of the
// operands. Every rule must only state what holds on every execution; when
// in doubt a rule says less. The notation of the comments: `C`, `D`, `K` are
// the contiguity, divisibility and constancy of one dimension, `S` its size,
// and a "run" is an aligned group of `C` (or `K`) elements along it.
//
//===----------------------------------------------------------------------===//
#include "AxisInfoImpl.h"

#include "tessera/Dialect/Tessera/IR/Dialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::tessera;
using namespace mlir::tessera::axisinfo;

//===----------------------------------------------------------------------===//
// Type facts
//===----------------------------------------------------------------------===//

int64_t axisinfo::getElementBytes(Type type) {
  if (isa<PointerType>(type))
    return 8;
  if (type.isIntOrFloat())
    // Booleans live in memory as one byte.
    return std::max<int64_t>(1, type.getIntOrFloatBitWidth() / 8);
  return 0;
}

TypeFacts axisinfo::getTypeFacts(Type type) {
  TypeFacts facts;
  Type elem = type;
  if (auto tensor = dyn_cast<RankedTensorType>(type)) {
    for (int64_t size : tensor.getShape())
      facts.shape.push_back(ShapedType::isDynamic(size) ? 1 : size);
    elem = tensor.getElementType();
  }
  if (facts.shape.empty())
    facts.shape.push_back(1);
  if (auto ptr = dyn_cast<PointerType>(elem)) {
    facts.isPtr = true;
    facts.unit = getElementBytes(ptr.getPointeeType());
  } else if (isa<IntegerType>(elem)) {
    facts.isInt = true;
    facts.bitWidth = elem.getIntOrFloatBitWidth();
  } else if (isa<IndexType>(elem)) {
    facts.isInt = true;
    facts.bitWidth = 64;
  }
  return facts;
}

//===----------------------------------------------------------------------===//
// Building facts
//===----------------------------------------------------------------------===//

AxisInfo axisinfo::makeFact(const TypeFacts &facts, DimVector c, DimVector d,
                            DimVector k, std::optional<int64_t> constant,
                            bool nonNegative) {
  if (constant) {
    AxisInfo info = AxisInfo::getConstant(facts.shape, *constant);
    if (facts.isInt)
      return info;
    // Sign is an integer notion.
    return AxisInfo(info.getContiguity(), info.getDivisibility(),
                    info.getConstancy(), constant, false);
  }
  for (unsigned i = 0, e = facts.rank(); i < e; ++i) {
    c[i] = gcd(std::max<int64_t>(c[i], 1), facts.shape[i]);
    k[i] = gcd(std::max<int64_t>(k[i], 1), facts.shape[i]);
    d[i] = std::clamp<int64_t>(d[i], 1, AxisInfo::kMaxDivisibility);
  }
  return AxisInfo(c, d, k, std::nullopt, nonNegative && facts.isInt);
}

AxisInfo axisinfo::makeUniform(const TypeFacts &facts, int64_t divisibility) {
  DimVector ones(facts.rank(), 1);
  return makeFact(facts, ones, DimVector(facts.rank(), divisibility),
                  facts.shape, std::nullopt, false);
}

AxisInfo axisinfo::retarget(const AxisInfo &info, const TypeFacts &facts) {
  return makeFact(facts, DimVector(info.getContiguity()),
                  DimVector(info.getDivisibility()),
                  DimVector(info.getConstancy()), info.getConstantValue(),
                  info.isNonNegative());
}

namespace {

//===----------------------------------------------------------------------===//
// Constants
//===----------------------------------------------------------------------===//

/// Above this many elements a non-splat constant is only scanned for its
/// divisibility.
constexpr int64_t kMaxScannedElements = 1 << 16;

/// Exact facts of a non-splat integer constant, read from its elements.
AxisInfo inferDenseInts(DenseElementsAttr dense, const TypeFacts &facts) {
  SmallVector<int64_t> values;
  for (const APInt &v : dense.getValues<APInt>())
    values.push_back(fromAP(v));
  unsigned rank = facts.rank();
  int64_t minDiv = AxisInfo::kMaxDivisibility;
  bool nonNegative = facts.bitWidth > 1;
  for (int64_t v : values) {
    minDiv = std::min(minDiv, divOf(v));
    nonNegative &= v >= 0;
  }
  DimVector c(rank, 1), d(rank, minDiv), k(rank, 1);
  if ((int64_t)values.size() > kMaxScannedElements || values.size() == 0)
    return makeFact(facts, c, d, k, std::nullopt, nonNegative);

  int64_t n = values.size();
  for (unsigned dim = 0; dim < rank; ++dim) {
    int64_t size = facts.shape[dim];
    int64_t stride = 1;
    for (unsigned j = dim + 1; j < rank; ++j)
      stride *= facts.shape[j];
    auto coord = [&](int64_t idx) { return (idx / stride) % size; };
    // Whether `pred(first, element, offset)` holds in every run of `len`.
    auto holds = [&](int64_t len, auto pred) {
      for (int64_t idx = 0; idx < n; ++idx) {
        if (coord(idx) % len != 0)
          continue;
        for (int64_t t = 1; t < len; ++t)
          if (!pred(values[idx], values[idx + t * stride], t))
            return false;
      }
      return true;
    };
    // The longest runs that hold, among the divisors of the size.
    auto longest = [&](auto pred) {
      for (int64_t len = size; len > 1; --len)
        if (size % len == 0 && holds(len, pred))
          return len;
      return int64_t(1);
    };
    // Consecutive means +1 without wrapping: i32 values are stored
    // sign-extended, so INT32_MAX is not followed by INT32_MIN.
    if (facts.bitWidth > 1)
      c[dim] = longest([](int64_t first, int64_t v, int64_t t) {
        return first < std::numeric_limits<int64_t>::max() - t &&
               v == first + t;
      });
    k[dim] =
        longest([](int64_t first, int64_t v, int64_t) { return v == first; });
    int64_t div = AxisInfo::kMaxDivisibility;
    for (int64_t idx = 0; idx < n; ++idx)
      if (coord(idx) % c[dim] == 0)
        div = std::min(div, divOf(values[idx]));
    d[dim] = div;
  }
  return makeFact(facts, c, d, k, std::nullopt, nonNegative);
}

AxisInfo inferConstant(arith::ConstantOp op, const TypeFacts &facts) {
  Attribute value = op.getValue();
  if (auto attr = dyn_cast<IntegerAttr>(value))
    return AxisInfo::getConstant({}, fromAP(attr.getValue()));
  auto dense = dyn_cast<DenseElementsAttr>(value);
  if (!dense)
    return AxisInfo::getPessimistic(op.getType());
  if (dense.isSplat()) {
    if (facts.isInt)
      return AxisInfo::getConstant(facts.shape,
                                   fromAP(dense.getSplatValue<APInt>()));
    return makeUniform(facts);
  }
  if (!facts.isInt)
    return AxisInfo::getPessimistic(op.getType());
  return inferDenseInts(dense, facts);
}

//===----------------------------------------------------------------------===//
// Blocks and shapes
//===----------------------------------------------------------------------===//

AxisInfo inferMakeRange(MakeRangeOp op, const TypeFacts &facts) {
  int64_t start = static_cast<int32_t>(op.getStart());
  int64_t size = facts.shape[0];
  if (size == 1)
    return AxisInfo::getConstant(facts.shape, start);
  return makeFact(facts, {size}, {divOf(start)}, {1}, std::nullopt, start >= 0);
}

AxisInfo inferSplat(const AxisInfo &src, const TypeFacts &srcFacts,
                    const TypeFacts &facts) {
  unsigned rank = facts.rank();
  return makeFact(facts, DimVector(rank, 1),
                  DimVector(rank, src.getElementDivisibility(srcFacts.unit)),
                  facts.shape, src.getConstantValue(), src.isNonNegative());
}

AxisInfo inferBroadcast(const AxisInfo &src, const TypeFacts &srcFacts,
                        const TypeFacts &facts) {
  DimVector c(src.getContiguity()), d(src.getDivisibility()),
      k(src.getConstancy());
  for (unsigned i = 0, e = facts.rank(); i < e; ++i) {
    if (srcFacts.shape[i] != 1 || facts.shape[i] == 1)
      continue;
    // A repeated size-1 dimension: every element along it is the one
    // source element, whose divisibility the source states (C == 1 there).
    c[i] = 1;
    k[i] = facts.shape[i];
    d[i] = src.getDivisibilityAt(i, 1, srcFacts.unit);
  }
  return makeFact(facts, c, d, k, src.getConstantValue(), src.isNonNegative());
}

AxisInfo inferExpandDims(ExpandDimsOp op, const AxisInfo &src,
                         const TypeFacts &srcFacts, const TypeFacts &facts) {
  DimVector c(src.getContiguity()), d(src.getDivisibility()),
      k(src.getConstancy());
  unsigned axis = op.getAxis();
  c.insert(c.begin() + axis, 1);
  k.insert(k.begin() + axis, 1);
  d.insert(d.begin() + axis, src.getElementDivisibility(srcFacts.unit));
  return makeFact(facts, c, d, k, src.getConstantValue(), src.isNonNegative());
}

AxisInfo inferTrans(TransOp op, const AxisInfo &src, const TypeFacts &facts) {
  DimVector c, d, k;
  for (int32_t from : op.getOrder()) {
    c.push_back(src.getContiguity(from));
    d.push_back(src.getDivisibility(from));
    k.push_back(src.getConstancy(from));
  }
  return makeFact(facts, c, d, k, src.getConstantValue(), src.isNonNegative());
}

/// Row-major reshapes keep the innermost dimensions that have the same size
/// on both sides (ignoring size-1 dimensions): an element keeps its
/// coordinates along them, so their facts carry over. The other dimensions
/// only keep what holds for every element, and their constancy when the
/// source was constant over all of its other dimensions.
AxisInfo inferReshape(ReshapeOp op, const AxisInfo &src,
                      const TypeFacts &srcFacts, const TypeFacts &facts) {
  unsigned rank = facts.rank();
  int64_t elemDiv = src.getElementDivisibility(srcFacts.unit);
  DimVector c(rank, 1), d(rank, elemDiv), k(rank, 1);

  SmallVector<unsigned> srcDims, dstDims;
  for (unsigned i = 0; i < srcFacts.rank(); ++i)
    if (srcFacts.shape[i] != 1)
      srcDims.push_back(i);
  for (unsigned i = 0; i < rank; ++i)
    if (facts.shape[i] != 1)
      dstDims.push_back(i);

  if (!op.getAllowReorder()) {
    while (!srcDims.empty() && !dstDims.empty() &&
           srcFacts.shape[srcDims.back()] == facts.shape[dstDims.back()]) {
      unsigned s = srcDims.pop_back_val(), t = dstDims.pop_back_val();
      c[t] = src.getContiguity(s);
      d[t] = src.getDivisibility(s);
      k[t] = src.getConstancy(s);
    }
  }
  // Constant over every unmatched dimension: equal over all of them at once,
  // so whatever order the elements take there.
  bool restUniform = llvm::all_of(srcDims, [&](unsigned s) {
    return src.getConstancy(s) == srcFacts.shape[s];
  });
  if (restUniform)
    for (unsigned t : dstDims)
      k[t] = facts.shape[t];
  return makeFact(facts, c, d, k, src.getConstantValue(), src.isNonNegative());
}

//===----------------------------------------------------------------------===//
// Pointers
//===----------------------------------------------------------------------===//

/// ptr + offset * unit (bytes).
AxisInfo inferAddPtr(const AxisInfo &ptr, const AxisInfo &off,
                     const TypeFacts &facts) {
  int64_t unit = facts.unit;
  if (unit == 0)
    return AxisInfo::getPessimistic(facts.rank());
  DimVector c, d, k;
  for (unsigned i = 0, e = facts.rank(); i < e; ++i) {
    // Consecutive addresses: one side runs by one element while the other
    // stays put.
    int64_t ci = std::max(gcd(ptr.getConstancy(i), off.getContiguity(i)),
                          gcd(ptr.getContiguity(i), off.getConstancy(i)));
    c.push_back(ci);
    k.push_back(gcd(ptr.getConstancy(i), off.getConstancy(i)));
    d.push_back(std::min(ptr.getDivisibilityAt(i, ci, unit),
                         mulDiv(off.getDivisibilityAt(i, ci), divOf(unit))));
  }
  std::optional<int64_t> constant;
  if (ptr.getConstantValue() && off.getConstantValue())
    constant = static_cast<int64_t>(
        static_cast<uint64_t>(*ptr.getConstantValue()) +
        static_cast<uint64_t>(*off.getConstantValue()) * unit);
  return makeFact(facts, c, d, k, constant, false);
}

/// Reinterpretations that keep every bit (int_to_ptr, ptr_to_int, bitcast):
/// equal values stay equal and divisibility stays, but a run of consecutive
/// values stays one only when the step keeps its size in bytes.
AxisInfo inferReinterpret(const AxisInfo &src, const TypeFacts &srcFacts,
                          const TypeFacts &facts) {
  bool tracked =
      (srcFacts.isInt || srcFacts.isPtr) && (facts.isInt || facts.isPtr);
  if (!tracked) {
    // Floats: only constancy survives.
    return makeFact(facts, DimVector(facts.rank(), 1),
                    DimVector(facts.rank(), 1), DimVector(src.getConstancy()),
                    std::nullopt, false);
  }
  bool sameStep = srcFacts.unit == facts.unit && srcFacts.unit != 0;
  DimVector c, d;
  for (unsigned i = 0, e = facts.rank(); i < e; ++i) {
    int64_t ci = sameStep ? src.getContiguity(i) : 1;
    c.push_back(ci);
    d.push_back(
        src.getDivisibilityAt(i, ci, std::max<int64_t>(srcFacts.unit, 1)));
  }
  bool nonNegative = srcFacts.isInt && facts.isInt && src.isNonNegative();
  return makeFact(facts, c, d, DimVector(src.getConstancy()),
                  src.getConstantValue(), nonNegative);
}

/// A load yields unknown values, except that lanes reading one address under
/// one mask bit read one value.
AxisInfo inferLoad(LoadOp op, ArrayRef<AxisInfo> operands,
                   const TypeFacts &facts) {
  if (!isa<RankedTensorType>(op.getPtr().getType()))
    return AxisInfo::getPessimistic(facts.rank());
  DimVector k(operands[0].getConstancy());
  for (const AxisInfo &info : operands.drop_front())
    for (unsigned i = 0, e = facts.rank(); i < e; ++i)
      k[i] = gcd(k[i], info.getConstancy(i));
  return makeFact(facts, DimVector(facts.rank(), 1), DimVector(facts.rank(), 1),
                  k, std::nullopt, false);
}

/// `tl.multiple_of`, `tl.max_contiguous`, `tl.max_constancy`: the user's
/// claims and the analysis's own facts are both true, so the stronger of
/// each pair is kept; divisibility is then read at the kept runs' starts.
AxisInfo inferHint(HintOp op, const AxisInfo &src, const TypeFacts &facts) {
  auto hintContiguity = op.getContiguity();
  auto hintDivisibility = op.getDivisibility();
  auto hintConstancy = op.getConstancy();
  DimVector c, d, k;
  for (unsigned i = 0, e = facts.rank(); i < e; ++i) {
    int64_t size = facts.shape[i];
    int64_t ci = src.getContiguity(i);
    if (hintContiguity)
      ci = std::max(ci, gcd((*hintContiguity)[i], size));
    int64_t di = src.getDivisibilityAt(i, ci, std::max<int64_t>(facts.unit, 1));
    if (hintDivisibility)
      di = std::max(di, (*hintDivisibility)[i]);
    int64_t ki = src.getConstancy(i);
    if (hintConstancy)
      ki = std::max(ki, gcd((*hintConstancy)[i], size));
    c.push_back(ci);
    d.push_back(di);
    k.push_back(ki);
  }
  return makeFact(facts, c, d, k, src.getConstantValue(), src.isNonNegative());
}

/// An op that only moves a block into another layout: one tensor operand,
/// one result of the same shape and element type. Recognized by name for
/// `tessera_gpu.convert_layout` (so that this analysis needs none of that
/// dialect's headers), and generically for pure ops that declare they keep
/// shape and element type and whose types differ only in their encoding.
bool isLayoutConversion(Operation *op) {
  if (op->getNumOperands() != 1 || op->getNumResults() != 1 ||
      op->getNumRegions() != 0)
    return false;
  auto src = dyn_cast<RankedTensorType>(op->getOperand(0).getType());
  auto dst = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (!src || !dst || src.getShape() != dst.getShape() ||
      src.getElementType() != dst.getElementType())
    return false;
  if (op->getName().getStringRef() == "tessera_gpu.convert_layout")
    return true;
  return src.getEncoding() != dst.getEncoding() &&
         op->hasTrait<OpTrait::SameOperandsAndResultShape>() &&
         op->hasTrait<OpTrait::SameOperandsAndResultElementType>() &&
         isMemoryEffectFree(op);
}

} // namespace

std::optional<AxisInfo> mlir::tessera::inferAxisInfo(Operation *op,
                                                     ArrayRef<AxisInfo> in) {
  if (op->getNumResults() != 1)
    return std::nullopt;
  TypeFacts facts = getTypeFacts(op->getResult(0).getType());
  auto operandFacts = [&](unsigned i) {
    return getTypeFacts(op->getOperand(i).getType());
  };
  using Result = std::optional<AxisInfo>;
  return llvm::TypeSwitch<Operation *, Result>(op)
      .Case([&](arith::ConstantOp c) { return inferConstant(c, facts); })
      .Case([&](MakeRangeOp r) { return inferMakeRange(r, facts); })
      .Case<ProgramIdOp, NumProgramsOp>([&](Operation *) {
        return makeFact(facts, {1}, {1}, {1}, std::nullopt, true);
      })
      .Case([&](SplatOp) { return inferSplat(in[0], operandFacts(0), facts); })
      .Case([&](BroadcastOp) {
        return inferBroadcast(in[0], operandFacts(0), facts);
      })
      .Case([&](ExpandDimsOp e) {
        return inferExpandDims(e, in[0], operandFacts(0), facts);
      })
      .Case([&](ReshapeOp r) {
        return inferReshape(r, in[0], operandFacts(0), facts);
      })
      .Case([&](TransOp t) { return inferTrans(t, in[0], facts); })
      .Case([&](AddPtrOp) { return inferAddPtr(in[0], in[1], facts); })
      .Case<IntToPtrOp, PtrToIntOp, BitcastOp>([&](Operation *) {
        return inferReinterpret(in[0], operandFacts(0), facts);
      })
      .Case([&](LoadOp l) { return inferLoad(l, in, facts); })
      .Case([&](HintOp h) { return inferHint(h, in[0], facts); })
      .Case<arith::AddIOp, arith::SubIOp, arith::MulIOp, arith::DivSIOp,
            arith::DivUIOp, arith::RemSIOp, arith::RemUIOp, arith::AndIOp,
            arith::OrIOp, arith::XOrIOp, arith::ShLIOp, arith::ShRUIOp,
            arith::ShRSIOp, arith::MaxSIOp, arith::MinSIOp, arith::MaxUIOp,
            arith::MinUIOp>([&](Operation *o) -> Result {
        return inferIntBinary(o, in[0], in[1], facts);
      })
      .Case([&](arith::CmpIOp c) {
        return inferCmpI(c, in[0], in[1], facts, operandFacts(0).bitWidth);
      })
      .Case<arith::ExtSIOp, arith::ExtUIOp, arith::TruncIOp, arith::IndexCastOp,
            arith::IndexCastUIOp>([&](Operation *o) {
        return inferIntCast(o, in[0], operandFacts(0), facts);
      })
      .Case([&](arith::SelectOp s) {
        bool scalarCond = !isa<ShapedType>(s.getCondition().getType());
        return inferSelect(in[0], in[1], in[2], scalarCond, facts);
      })
      .Default([&](Operation *o) -> Result {
        if (isLayoutConversion(o))
          return retarget(in[0], facts);
        return std::nullopt;
      });
}
