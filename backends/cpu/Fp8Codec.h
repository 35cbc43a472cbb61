//===- Fp8Codec.h - fp8 conversions by integer arithmetic -------*- C++ -*-===//
//
// Converting between fp8 and f32 needs neither a table nor a call per
// element: every step below is an integer or exact f32 operation that LLVM
// vectorizes, and none produces an f32 subnormal, so a host running with
// denormals flushed converts alike.
//
// Decoding: the seven magnitude bits, shifted into f32's exponent and
// mantissa fields and rebiased, are the value of every normal encoding; a
// subnormal one is its magnitude as an integer times the format's smallest
// subnormal; the sign bit moves to bit 31. A format's infinities and NaNs
// are the few encodings this gets wrong, selected separately.
//
// Encoding an f32: above the format's smallest normal, f32's exponent and
// mantissa fields are rounded to the format's mantissa width as one integer
// (a carry out of the mantissa steps the exponent, as it should) and
// rebiased; below it, the magnitude scaled to units of the smallest
// subnormal is rounded to an integer. Zeros, overflow, infinities and NaNs
// take the encodings the runtime's exact converter gives them (the
// reference, `convertToFp8`), selected separately.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_BACKENDS_CPU_FP8CODEC_H
#define TESSERA_BACKENDS_CPU_FP8CODEC_H

#include "Runtime.h"

#include "llvm/ADT/APFloat.h"

#include <array>
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

/// An encoding for a value's sign: [0] for positive, [1] for negative.
using SignedEncoding = std::array<uint8_t, 2>;

/// How f32 values round to one fp8 format, in one rounding mode.
struct Fp8Encoding {
  unsigned mantissaBits = 0;
  bool towardZero = false;
  /// f32's bits of the format's smallest normal value: magnitudes below
  /// round as subnormals.
  uint32_t minNormalBits = 0;
  /// Subtracted from f32's exponent and mantissa fields rounded to
  /// `mantissaBits`: the difference of the biases, in the format's exponent
  /// field.
  uint32_t rebias = 0;
  /// 2^(bias - 1 + mantissaBits): a subnormal magnitude in units of the
  /// smallest subnormal.
  float subnormalScale = 0;
  /// The largest finite magnitude's encoding: above it, a value overflowed.
  uint32_t maxFinite = 0;
  /// What zero, overflow, infinity and NaN encode to.
  SignedEncoding zero, overflow, infinity, nan;
};

/// The encoding of f32 values to the fp8 `format` (whose semantics are
/// `semantics`) rounding to nearest even or towards zero, with its special
/// encodings taken from the runtime's converter; nullopt where the
/// decoding scheme does not apply.
std::optional<Fp8Encoding> getFp8Encoding(const llvm::fltSemantics &semantics,
                                          Fp8Format format, bool towardZero);

/// Encodes `x` as the code the lowering emits does.
uint8_t encodeFp8(const Fp8Encoding &encoding, float x);

} // namespace mlir::tessera::cpu

#endif // TESSERA_BACKENDS_CPU_FP8CODEC_H
