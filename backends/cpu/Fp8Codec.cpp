//===- Fp8Codec.cpp - fp8 conversions by integer arithmetic ---------------===//
#include "Fp8Codec.h"

#include "llvm/ADT/APInt.h"
#include "llvm/ADT/bit.h"

#include <cmath>

using namespace mlir::tessera::cpu;

namespace {

/// APFloat's f32 value of encoding `bits` of `semantics` (exact: f32 holds
/// every fp8 value).
float exactValue(const llvm::fltSemantics &semantics, uint8_t bits) {
  llvm::APFloat value(semantics, llvm::APInt(8, bits));
  bool lost = false;
  value.convert(llvm::APFloat::IEEEsingle(), llvm::APFloat::rmNearestTiesToEven,
                &lost);
  return value.convertToFloat();
}

/// True when `a` and `b` are the same f32 (any NaN matches any NaN).
bool sameValue(float a, float b) {
  if (std::isnan(a) || std::isnan(b))
    return std::isnan(a) && std::isnan(b);
  return llvm::bit_cast<uint32_t>(a) == llvm::bit_cast<uint32_t>(b);
}

} // namespace

float mlir::tessera::cpu::decodeFp8(const Fp8Decoding &decoding, uint8_t bits) {
  if (decoding.negativeZeroIsNaN && bits == 0x80)
    return NAN;
  uint32_t magnitude = bits & 0x7F;
  float value;
  if (magnitude >= decoding.firstNonFinite)
    value =
        decoding.infinity && magnitude == *decoding.infinity ? INFINITY : NAN;
  else if (magnitude < (1u << decoding.mantissaBits))
    value = static_cast<float>(magnitude) * decoding.subnormalUnit;
  else
    value = llvm::bit_cast<float>((magnitude << (23 - decoding.mantissaBits)) +
                                  decoding.rebias);
  uint32_t sign = static_cast<uint32_t>(bits & 0x80) << 24;
  return llvm::bit_cast<float>(llvm::bit_cast<uint32_t>(value) | sign);
}

std::optional<Fp8Decoding>
mlir::tessera::cpu::getFp8Decoding(const llvm::fltSemantics &semantics) {
  if (llvm::APFloat::getSizeInBits(semantics) != 8)
    return std::nullopt;
  Fp8Decoding decoding;
  decoding.mantissaBits = llvm::APFloat::semanticsPrecision(semantics) - 1;
  int bias = 1 - llvm::APFloat::semanticsMinExponent(semantics);
  if (decoding.mantissaBits > 7 || bias > 127)
    return std::nullopt;
  decoding.rebias = static_cast<uint32_t>(127 - bias) << 23;
  decoding.subnormalUnit =
      std::ldexp(1.0f, 1 - bias - static_cast<int>(decoding.mantissaBits));
  decoding.negativeZeroIsNaN = std::isnan(exactValue(semantics, 0x80));
  // The non-finite magnitudes form the top of the range.
  while (decoding.firstNonFinite > 0 &&
         !std::isfinite(exactValue(semantics, decoding.firstNonFinite - 1)))
    --decoding.firstNonFinite;
  for (unsigned magnitude = decoding.firstNonFinite; magnitude < 128;
       ++magnitude)
    if (std::isinf(exactValue(semantics, magnitude)))
      decoding.infinity = magnitude;
  for (unsigned bits = 0; bits < 256; ++bits)
    if (!sameValue(decodeFp8(decoding, bits), exactValue(semantics, bits)))
      return std::nullopt;
  return decoding;
}

std::optional<Fp8Encoding>
mlir::tessera::cpu::getFp8Encoding(const llvm::fltSemantics &semantics,
                                   Fp8Format format, bool towardZero) {
  std::optional<Fp8Decoding> decoding = getFp8Decoding(semantics);
  if (!decoding)
    return std::nullopt;
  Fp8Encoding encoding;
  encoding.mantissaBits = decoding->mantissaBits;
  encoding.towardZero = towardZero;
  int bias = 127 - static_cast<int>(decoding->rebias >> 23);
  encoding.minNormalBits = llvm::bit_cast<uint32_t>(std::ldexp(1.0f, 1 - bias));
  encoding.rebias = static_cast<uint32_t>(127 - bias) << decoding->mantissaBits;
  encoding.subnormalScale =
      std::ldexp(1.0f, bias - 1 + static_cast<int>(decoding->mantissaBits));
  encoding.maxFinite = decoding->firstNonFinite - 1;
  auto both = [&](double x) {
    return SignedEncoding{convertToFp8(x, format, towardZero),
                          convertToFp8(-x, format, towardZero)};
  };
  encoding.zero = both(0.0);
  encoding.overflow = both(1e30);
  encoding.infinity = both(INFINITY);
  encoding.nan = both(NAN);
  return encoding;
}

uint8_t mlir::tessera::cpu::encodeFp8(const Fp8Encoding &encoding, float x) {
  uint32_t bits = llvm::bit_cast<uint32_t>(x);
  uint32_t magnitude = bits & 0x7FFFFFFF;
  unsigned negative = bits >> 31;
  if (magnitude > 0x7F800000)
    return encoding.nan[negative];
  if (magnitude == 0x7F800000)
    return encoding.infinity[negative];
  uint32_t code;
  if (magnitude < encoding.minNormalBits) {
    float units = llvm::bit_cast<float>(magnitude) * encoding.subnormalScale;
    code = static_cast<uint32_t>(encoding.towardZero ? std::trunc(units)
                                                     : std::nearbyint(units));
  } else {
    unsigned shift = 23 - encoding.mantissaBits;
    uint32_t rounded = encoding.towardZero
                           ? magnitude
                           : magnitude + ((1u << (shift - 1)) - 1) +
                                 ((magnitude >> shift) & 1);
    code = (rounded >> shift) - encoding.rebias;
  }
  if (code > encoding.maxFinite)
    return encoding.overflow[negative];
  if (code == 0)
    return encoding.zero[negative];
  return static_cast<uint8_t>(code | (negative << 7));
}
