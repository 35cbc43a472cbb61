//===- InlineMath.h - Math functions computed inline ------------*- C++ -*-===//
//
// Triton programs call CUDA's libdevice names (`div_rn`, `isnan`,
// `float2int_rz`, `pow(x, int)`, ...). NVIDIA's libdevice defines them; the
// host's libm and AMD's ocml lack many. A plugin whose library lacks one
// computes it with these functions from arith and math ops, on scalars or
// on tensors (elementwise, any encoding).
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_BACKEND_INLINEMATH_H
#define TESSERA_BACKEND_INLINEMATH_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/Value.h"

#include <optional>

namespace mlir::tessera {

/// The way a directed conversion rounds.
enum class RoundDirection { TowardZero, Down, Up };

/// Whether emitInlineMath computes `symbol` (a neutral `__tessera_*` name or
/// libdevice's) on operands and a result of these element types.
bool hasInlineMath(llvm::StringRef symbol, TypeRange operandElements,
                   Type resultElement);

/// The value of `symbol` computed from arith and math ops, or nullopt when
/// hasInlineMath says no: round-to-nearest arithmetic (`div_rn`, `fma_rn`,
/// `rsqrt`, ...), predicates (`isnan`, `finitef`, `signbit`, ...; the
/// result's integer type), conversions with nearest-even or truncating
/// rounding, `pow` with an integer exponent (in fp64, through math.powf),
/// and the directed roundings (`_rz`, `_rd`, `_ru`) of fp32 division,
/// reciprocal, square root and multiplication (in fp64, whose result lies on
/// the same side of every fp32 value as the exact one). Operands and result
/// are scalars or tensors of one shape.
std::optional<Value> emitInlineMath(OpBuilder &b, Location loc,
                                    llvm::StringRef symbol, ValueRange operands,
                                    Type resultType);

/// `x` (floats, or a tensor of them) rounded to the narrower or equal float
/// type `dst` (same shape) in `direction`: nearest-even first, then one step
/// where that went the other way. Exact when `x` is the exact value or on
/// the same side of every value of `dst` as the exact value.
Value emitDirectedTruncF(OpBuilder &b, Location loc, Value x, Type dst,
                         RoundDirection direction);

} // namespace mlir::tessera

#endif // TESSERA_BACKEND_INLINEMATH_H
