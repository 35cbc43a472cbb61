//===- Fp8Conversions.h - 8-bit floats to and from wider ones ---*- C++ -*-===//
//
// LLVM has no 8-bit float types: the shared lowering holds fp8 values as i8
// codes and converts them in integer operations. Exposed for targets whose
// own lowerings meet fp8 registers (a matrix unit that multiplies them as
// a wider type).
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_CONVERSION_FP8CONVERSIONS_H
#define TESSERA_CONVERSION_FP8CONVERSIONS_H

#include "tessera/Dialect/Tessera/IR/Dialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"

namespace mlir::tessera {

/// The scalar `x` (as converted: i8 for an 8-bit float) converted from
/// `srcType` to `dstType`, one or both of them 8-bit floats, in integer
/// operations: exactly when widening, rounded as `rounding` says (to nearest
/// even or toward zero) when narrowing. Emits an error on `op` for a format
/// it does not know.
FailureOr<Value> emitFp8Conversion(OpBuilder &b, Location loc, Operation *op,
                                   Value x, FloatType srcType,
                                   FloatType dstType, RoundingMode rounding);

} // namespace mlir::tessera

#endif // TESSERA_CONVERSION_FP8CONVERSIONS_H
