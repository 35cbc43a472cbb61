//===- Runtime.cpp - Helpers compiled CPU kernels call --------------------===//
#include "Runtime.h"

#include "mlir/IR/BuiltinTypes.h"

#include <bit>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstring>

using namespace mlir;
using namespace mlir::tessera;
using namespace mlir::tessera::cpu;

Fp8Format cpu::getFp8Format(Type type) {
  if (isa<Float8E4M3FNType>(type))
    return Fp8Format::E4M3FN;
  if (isa<Float8E5M2Type>(type))
    return Fp8Format::E5M2;
  if (isa<Float8E4M3FNUZType>(type))
    return Fp8Format::E4M3FNUZ;
  if (isa<Float8E5M2FNUZType>(type))
    return Fp8Format::E5M2FNUZ;
  if (isa<Float8E4M3B11FNUZType>(type))
    return Fp8Format::E4M3B11FNUZ;
  return Fp8Format::None;
}

//===----------------------------------------------------------------------===//
// Small float formats
//===----------------------------------------------------------------------===//

namespace {
/// How a binary float format of at most 16 bits encodes its values.
struct SmallFloat {
  int expBits, manBits, bias;
  /// IEEE: all-ones exponent holds infinities and NaNs.
  bool ieee;
  /// FN (finite): only all-ones exponent and mantissa is NaN.
  /// FNUZ: no negative zero; NaN is the sign bit alone.
  bool unsignedZero;

  int totalBits() const { return 1 + expBits + manBits; }
  uint32_t signBit() const { return 1u << (expBits + manBits); }
  uint32_t nanBits(bool negative) const {
    if (unsignedZero)
      return signBit();
    uint32_t expMask = ((1u << expBits) - 1) << manBits;
    uint32_t nan = ieee ? expMask | (1u << (manBits - 1))
                        : expMask | ((1u << manBits) - 1);
    return nan | (negative ? signBit() : 0);
  }
  /// The largest finite value.
  double maxFinite() const {
    int maxExp = (1 << expBits) - 1 - bias;
    double mantissa;
    if (ieee) {
      maxExp -= 1;
      mantissa = 2.0 - std::ldexp(1.0, -manBits);
    } else if (unsignedZero) {
      mantissa = 2.0 - std::ldexp(1.0, -manBits);
    } else {
      // All-ones is NaN: the largest mantissa is one below.
      mantissa = 2.0 - std::ldexp(2.0, -manBits);
    }
    return std::ldexp(mantissa, maxExp);
  }
};

constexpr SmallFloat kHalf{5, 10, 15, true, false};
constexpr SmallFloat kBFloat{8, 7, 127, true, false};

SmallFloat getFormat(Fp8Format format) {
  switch (format) {
  case Fp8Format::E5M2:
    return {5, 2, 15, true, false};
  case Fp8Format::E4M3FNUZ:
    return {4, 3, 8, false, true};
  case Fp8Format::E5M2FNUZ:
    return {5, 2, 16, false, true};
  case Fp8Format::E4M3B11FNUZ:
    return {4, 3, 11, false, true};
  case Fp8Format::E4M3FN:
  case Fp8Format::None:
    break;
  }
  return {4, 3, 7, false, false};
}

/// Rounds `x` to `f` as APFloat's conversion does: to nearest even or
/// towards zero; overflow gives infinity (IEEE formats) or NaN, except that
/// rounding towards zero saturates finite values.
uint32_t encode(double x, const SmallFloat &f, bool towardZero) {
  bool negative = std::signbit(x);
  uint32_t sign = negative ? f.signBit() : 0;
  // Formats without a negative zero round -0 (and what underflows to it)
  // to +0.
  uint32_t zero = f.unsignedZero ? 0 : sign;
  uint32_t expMask = ((1u << f.expBits) - 1) << f.manBits;
  if (std::isnan(x))
    return f.nanBits(negative);
  double a = std::fabs(x);
  if (std::isinf(a))
    return f.ieee ? (negative ? f.signBit() : 0) | expMask
                  : f.nanBits(negative);
  if (a == 0)
    return zero;
  int minExp = 1 - f.bias;
  int e;
  std::frexp(a, &e);
  e -= 1; // a = 1.m * 2^e
  int quantumExp = std::max(e, minExp) - f.manBits;
  double scaled = std::ldexp(a, -quantumExp);
  double units = towardZero ? std::trunc(scaled) : std::nearbyint(scaled);
  double r = std::ldexp(units, quantumExp);
  double maxFinite = f.maxFinite();
  if (r > maxFinite) {
    if (towardZero)
      r = maxFinite;
    else
      return f.ieee ? sign | expMask
                    : (f.unsignedZero ? f.signBit() : f.nanBits(negative));
  }
  if (r == 0)
    return zero;
  int re;
  std::frexp(r, &re);
  re -= 1;
  if (re < minExp) {
    uint32_t mantissa =
        static_cast<uint32_t>(std::ldexp(r, f.manBits - minExp));
    return sign | mantissa;
  }
  uint32_t mantissa = static_cast<uint32_t>(std::ldexp(r, f.manBits - re) -
                                            std::ldexp(1.0, f.manBits));
  return sign | (static_cast<uint32_t>(re + f.bias) << f.manBits) | mantissa;
}

double decode(uint32_t bits, const SmallFloat &f) {
  uint32_t signBit = f.signBit();
  uint32_t expField = (bits >> f.manBits) & ((1u << f.expBits) - 1);
  uint32_t mantissa = bits & ((1u << f.manBits) - 1);
  bool negative = bits & signBit;
  if (f.unsignedZero && bits == signBit)
    return NAN;
  uint32_t maxField = (1u << f.expBits) - 1;
  if (f.ieee && expField == maxField)
    return mantissa ? NAN : (negative ? -INFINITY : INFINITY);
  if (!f.ieee && !f.unsignedZero && expField == maxField &&
      mantissa == (1u << f.manBits) - 1)
    return NAN;
  double value;
  if (expField == 0)
    value = std::ldexp(static_cast<double>(mantissa), 1 - f.bias - f.manBits);
  else
    value =
        std::ldexp(1.0 + std::ldexp(static_cast<double>(mantissa), -f.manBits),
                   static_cast<int>(expField) - f.bias);
  return negative ? -value : value;
}
} // namespace

uint8_t cpu::convertToFp8(double x, Fp8Format format, bool towardZero) {
  return static_cast<uint8_t>(encode(x, getFormat(format), towardZero));
}

float cpu::convertFromFp8(uint8_t bits, Fp8Format format) {
  return static_cast<float>(decode(bits, getFormat(format)));
}

uint16_t cpu::convertToHalf(double x) {
  return static_cast<uint16_t>(encode(x, kHalf, false));
}

uint16_t cpu::convertToBFloat(double x) {
  return static_cast<uint16_t>(encode(x, kBFloat, false));
}

float cpu::convertFromHalf(uint16_t bits) {
  return static_cast<float>(decode(bits, kHalf));
}

//===----------------------------------------------------------------------===//
// Entry points called by kernels
//===----------------------------------------------------------------------===//

InstanceContext *&cpu::currentInstance() {
  thread_local InstanceContext *instance = nullptr;
  return instance;
}

namespace {
/// Serializes printed lines of concurrent instances.
std::mutex &printMutex() {
  static std::mutex mutex;
  return mutex;
}

std::string formatPid() {
  InstanceContext *instance = currentInstance();
  int32_t x = instance ? instance->pid[0] : 0;
  int32_t y = instance ? instance->pid[1] : 0;
  int32_t z = instance ? instance->pid[2] : 0;
  char buffer[64];
  std::snprintf(buffer, sizeof(buffer), "pid (%d, %d, %d)", x, y, z);
  return buffer;
}

std::string formatIndex(int32_t rank, int64_t i0, int64_t i1, int64_t i2,
                        int64_t i3) {
  if (rank <= 0)
    return "";
  int64_t index[4] = {i0, i1, i2, i3};
  std::string text = " idx (";
  for (int32_t d = 0; d < rank && d < 4; ++d) {
    if (d)
      text += ", ";
    text += std::to_string(index[d]);
  }
  return text + ")";
}

// The ABI of the libcalls LLVM emits for half and bfloat conversions passes
// those types in the low 16 bits of an SSE register, as a float would be;
// the helpers below take and return floats carrying the bits there.
float bitsAsFloat(uint16_t bits) {
  return std::bit_cast<float>(static_cast<uint32_t>(bits));
}
uint16_t floatAsBits(float value) {
  return static_cast<uint16_t>(std::bit_cast<uint32_t>(value) & 0xffff);
}

extern "C" {

uint8_t tesseraCpuToFp8(double x, int32_t format, int32_t towardZero) {
  return convertToFp8(x, static_cast<Fp8Format>(format), towardZero != 0);
}

void tesseraCpuPrint(const char *prefix, int32_t operand, int32_t numOperands,
                     int32_t rank, int64_t i0, int64_t i1, int64_t i2,
                     int64_t i3, int32_t kind, int32_t bits, int64_t intValue,
                     double floatValue, int32_t hex) {
  std::string line = formatPid() + formatIndex(rank, i0, i1, i2, i3) + " " +
                     (prefix ? prefix : "");
  char buffer[64];
  auto kindEnum = static_cast<PrintKind>(kind);
  if (hex) {
    uint64_t raw =
        kindEnum == PrintKind::Float
            ? (bits == 64
                   ? std::bit_cast<uint64_t>(floatValue)
                   : std::bit_cast<uint32_t>(static_cast<float>(floatValue)))
            : static_cast<uint64_t>(intValue);
    if (bits < 64 && kindEnum != PrintKind::Float)
      raw &= (uint64_t(1) << bits) - 1;
    std::snprintf(buffer, sizeof(buffer), "0x%" PRIx64, raw);
  } else if (kindEnum == PrintKind::Float) {
    std::snprintf(buffer, sizeof(buffer), "%.9g", floatValue);
  } else if (kindEnum == PrintKind::Unsigned) {
    uint64_t raw = static_cast<uint64_t>(intValue);
    if (bits < 64)
      raw &= (uint64_t(1) << bits) - 1;
    std::snprintf(buffer, sizeof(buffer), "%" PRIu64, raw);
  } else {
    std::snprintf(buffer, sizeof(buffer), "%" PRId64, intValue);
  }
  line += buffer;
  if (numOperands > 1)
    line += " (operand " + std::to_string(operand) + ")";
  line += "\n";
  std::lock_guard<std::mutex> lock(printMutex());
  std::fwrite(line.data(), 1, line.size(), stdout);
}

void tesseraCpuPrintLine(const char *prefix) {
  std::string line = formatPid() + " " + (prefix ? prefix : "") + "\n";
  std::lock_guard<std::mutex> lock(printMutex());
  std::fwrite(line.data(), 1, line.size(), stdout);
}

[[noreturn]] void tesseraCpuAssertFail(const char *message, const char *file,
                                       int32_t line, const char *function,
                                       int32_t rank, int64_t i0, int64_t i1,
                                       int64_t i2, int64_t i3) {
  InstanceContext *instance = currentInstance();
  {
    std::string text = std::string(file ? file : "<unknown>") + ":" +
                       std::to_string(line) + ": " +
                       (function ? function : "<unknown>") + ": " +
                       formatPid() + formatIndex(rank, i0, i1, i2, i3) +
                       ": Assertion `" + (message ? message : "") + "` failed.";
    if (instance && instance->launch) {
      std::lock_guard<std::mutex> lock(instance->launch->mutex);
      if (!instance->launch->failed.load()) {
        instance->launch->error = std::move(text);
        instance->launch->failed.store(true);
      }
    } else {
      std::fprintf(stderr, "%s\n", text.c_str());
    }
  }
  if (instance && instance->exit)
    std::longjmp(*instance->exit, 1);
  std::abort();
}

float tesseraTruncSFHF2(float x) { return bitsAsFloat(convertToHalf(x)); }
float tesseraTruncDFHF2(double x) { return bitsAsFloat(convertToHalf(x)); }
float tesseraExtendHFSF2(float h) { return convertFromHalf(floatAsBits(h)); }
float tesseraTruncSFBF2(float x) {
  // Round to nearest even on the bit pattern; NaNs stay quiet NaNs.
  uint32_t u = std::bit_cast<uint32_t>(x);
  if (std::isnan(x))
    return bitsAsFloat(static_cast<uint16_t>((u >> 16) | 0x40));
  u += 0x7fff + ((u >> 16) & 1);
  return bitsAsFloat(static_cast<uint16_t>(u >> 16));
}
float tesseraTruncDFBF2(double x) { return bitsAsFloat(convertToBFloat(x)); }

} // extern "C"
} // namespace

std::vector<std::pair<llvm::StringRef, void *>> cpu::getRuntimeSymbols() {
  return {
      {kToFp8Symbol, reinterpret_cast<void *>(&tesseraCpuToFp8)},
      {kPrintSymbol, reinterpret_cast<void *>(&tesseraCpuPrint)},
      {kPrintLineSymbol, reinterpret_cast<void *>(&tesseraCpuPrintLine)},
      {kAssertFailSymbol, reinterpret_cast<void *>(&tesseraCpuAssertFail)},
      // Compiler-runtime conversions LLVM calls where the host lacks
      // instructions; ours, so that no compiler runtime must be present.
      {"__truncsfhf2", reinterpret_cast<void *>(&tesseraTruncSFHF2)},
      {"__truncdfhf2", reinterpret_cast<void *>(&tesseraTruncDFHF2)},
      {"__extendhfsf2", reinterpret_cast<void *>(&tesseraExtendHFSF2)},
      {"__gnu_h2f_ieee", reinterpret_cast<void *>(&tesseraExtendHFSF2)},
      {"__gnu_f2h_ieee", reinterpret_cast<void *>(&tesseraTruncSFHF2)},
      {"__truncsfbf2", reinterpret_cast<void *>(&tesseraTruncSFBF2)},
      {"__truncdfbf2", reinterpret_cast<void *>(&tesseraTruncDFBF2)},
  };
}
