//===- Fp8Decoding.h - fp8 encodings decoded by integer arithmetic -*- C++
//-*-===//
//
// Reading an fp8 value as f32 needs no table: the seven magnitude bits,
// shifted into f32's exponent and mantissa fields and rebiased, are the
// value of every normal encoding; a subnormal one is its magnitude as an
// integer times the format's smallest subnormal; the sign bit moves to bit
// 31. A format's infinities and NaNs are the few encodings this gets wrong,
// selected separately. Every step is an integer or exact f32 operation that
// LLVM vectorizes (a table lookup would be a gather), and none produces an
// f32 subnormal, so a host running with denormals flushed decodes alike.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_BACKENDS_CPU_FP8DECODING_H
#define TESSERA_BACKENDS_CPU_FP8DECODING_H

#include "llvm/ADT/APFloat.h"

#include <cstdint>
#include <optional>

namespace mlir::tessera::cpu {

/// How the encodings of one fp8 format (1 sign, 7 magnitude bits) decode.
struct Fp8Decoding {
  /// Mantissa bits: magnitudes below 1 << mantissaBits are subnormal.
  unsigned mantissaBits = 0;
  /// Added to the magnitude shifted left by 23 - mantissaBits: the
  /// difference of f32's exponent bias and the format's, in the exponent
  /// field.
  uint32_t rebias = 0;
  /// The value of the subnormal magnitude 1 (2^(1 - bias - mantissaBits)).
  float subnormalUnit = 0;
  /// The smallest magnitude that is infinity or NaN; 128 when none is.
  unsigned firstNonFinite = 128;
  /// The magnitude that is infinity, if the format has one.
  std::optional<unsigned> infinity;
  /// 0x80 (negative zero's place) is NaN, as in the `fnuz` formats.
  bool negativeZeroIsNaN = false;
};

/// The decoding of `semantics`, checked against APFloat's value of all 256
/// encodings; nullopt for a format that is not 8 bits wide or whose
/// encodings do not follow the scheme above.
std::optional<Fp8Decoding> getFp8Decoding(const llvm::fltSemantics &semantics);

/// Decodes `bits` as the code the lowering emits does (the reference it is
/// checked against).
float decodeFp8(const Fp8Decoding &decoding, uint8_t bits);

} // namespace mlir::tessera::cpu

#endif // TESSERA_BACKENDS_CPU_FP8DECODING_H
