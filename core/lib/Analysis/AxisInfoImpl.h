//===- AxisInfoImpl.h - Shared helpers of the axis-info analysis -*- C++
//-*-===//
#ifndef TESSERA_LIB_ANALYSIS_AXISINFOIMPL_H
#define TESSERA_LIB_ANALYSIS_AXISINFOIMPL_H

#include "tessera/Analysis/AxisInfo.h"

#include "mlir/IR/Operation.h"
#include "mlir/IR/Types.h"
#include "llvm/ADT/APInt.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <numeric>

namespace mlir::tessera::axisinfo {

/// What the transfer functions need to know about a value's type.
struct TypeFacts {
  /// The block shape; [1] for scalars and rank-0 tensors. Dynamic sizes
  /// read as 1, which makes every run length 1 there.
  AxisInfo::DimVector shape;
  /// Width of an integer element (64 for index); 0 for anything else.
  unsigned bitWidth = 0;
  /// Size of one contiguity step: the pointee's byte size for pointers (0
  /// when unknown, e.g. block pointers), 1 otherwise.
  int64_t unit = 1;
  bool isInt = false;
  bool isPtr = false;

  unsigned rank() const { return shape.size(); }
};

/// Reads the facts of `type`.
TypeFacts getTypeFacts(Type type);

/// Bytes that one element of `type` occupies in memory when a pointer points
/// to it; 0 for types that are not scalars (block pointers' tiles).
int64_t getElementBytes(Type type);

using DimVector = AxisInfo::DimVector;

inline int64_t gcd(int64_t a, int64_t b) { return std::gcd(a, b); }
inline int64_t gcd(int64_t a, int64_t b, int64_t c) {
  return std::gcd(std::gcd(a, b), c);
}

inline int64_t divOf(int64_t value) {
  return AxisInfo::getDivisibilityOf(value);
}

/// Product of two powers of two, saturated at kMaxDivisibility.
inline int64_t mulDiv(int64_t a, int64_t b) {
  unsigned bits = llvm::Log2_64(a) + llvm::Log2_64(b);
  return int64_t(1) << std::min(bits, 62u);
}

/// The constant `value` (stored as AxisInfo stores it) as a `width`-bit
/// APInt, and back.
inline llvm::APInt toAP(int64_t value, unsigned width) {
  return llvm::APInt(width, static_cast<uint64_t>(value),
                     /*isSigned=*/width > 1, /*implicitTrunc=*/true);
}
inline int64_t fromAP(const llvm::APInt &value) {
  return value.getBitWidth() == 1 ? static_cast<int64_t>(value.getZExtValue())
                                  : value.getSExtValue();
}

inline bool isConstant(const AxisInfo &info, int64_t value) {
  return info.getConstantValue() == value;
}

/// The fact of a value of `facts` from per-dimension vectors. Run lengths
/// are kept divisors of the dimension, and a known constant replaces the rest
/// (it is the most precise fact there is).
AxisInfo makeFact(const TypeFacts &facts, DimVector c, DimVector d, DimVector k,
                  std::optional<int64_t> constant, bool nonNegative);

/// Everything constant along every dimension, nothing else known.
AxisInfo makeUniform(const TypeFacts &facts, int64_t divisibility = 1);

/// `info` as the fact of a value of `facts` (same shape).
AxisInfo retarget(const AxisInfo &info, const TypeFacts &facts);

// Rules of integer arithmetic (AxisInfoArith.cpp). Operands have the
// result's shape unless said otherwise.

/// addi, subi, muli, divsi, divui, remsi, remui, andi, ori, xori, shli,
/// shrui, shrsi, maxsi, minsi, maxui, minui.
AxisInfo inferIntBinary(Operation *op, const AxisInfo &a, const AxisInfo &b,
                        const TypeFacts &facts);
/// cmpi; `width` is the operands' integer width.
AxisInfo inferCmpI(Operation *op, const AxisInfo &a, const AxisInfo &b,
                   const TypeFacts &facts, unsigned width);
/// extsi, extui, trunci, index_cast, index_castui.
AxisInfo inferIntCast(Operation *op, const AxisInfo &src,
                      const TypeFacts &srcFacts, const TypeFacts &facts);
/// select; `scalarCond` when the condition is one i1 for the whole block.
AxisInfo inferSelect(const AxisInfo &cond, const AxisInfo &a, const AxisInfo &b,
                     bool scalarCond, const TypeFacts &facts);

} // namespace mlir::tessera::axisinfo

#endif // TESSERA_LIB_ANALYSIS_AXISINFOIMPL_H
