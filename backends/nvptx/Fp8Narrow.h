//===- Fp8Narrow.h - Rounding to fp8 with cvt.satfinite ---------*- C++ -*-===//
//
// sm_89 and later convert f32 to e4m3 and e5m2 in one instruction
// (`cvt.rn.satfinite.{e4m3,e5m2}x2.f32`), where the core's integer sequence
// takes some twenty per element: an fp8 matmul's epilogue of 256 elements
// per thread took LLVM and ptxas seconds. The instruction saturates values
// past the largest finite and infinities to it; the core makes them infinity
// (e5m2) or NaN (e4m3fn), as IEEE rounding and the host references do, and
// keeps a NaN's sign. One integer compare of the magnitude's bits and one
// select restore exactly that.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_BACKENDS_NVPTX_FP8NARROW_H
#define TESSERA_BACKENDS_NVPTX_FP8NARROW_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"

namespace mlir::tessera::nvptx {

/// The i8 code of `x` (f16, bf16 or f32) rounded to nearest even into `dst`
/// (f8E4M3FN or f8E5M2), bit for bit the core's (LoweringHooks::narrowToFp8).
/// Fails, emitting nothing, for other types.
FailureOr<Value> emitNarrowToFp8(OpBuilder &b, Location loc, Value x,
                                 FloatType dst);

} // namespace mlir::tessera::nvptx

#endif // TESSERA_BACKENDS_NVPTX_FP8NARROW_H
