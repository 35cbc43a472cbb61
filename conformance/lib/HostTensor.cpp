//===- HostTensor.cpp - Host arrays in a kernel's element types -----------===//
#include "tessera/Conformance/HostTensor.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/ErrorHandling.h"

#include <cassert>
#include <cmath>
#include <cstring>
#include <limits>

using namespace mlir::tessera::conformance;

namespace {
/// A binary floating-point format narrower than double.
struct FloatFormat {
  unsigned mantissaBits;
  unsigned exponentBits;
  int bias;
  /// Largest finite value.
  double maxFinite;
  /// False for fp8 e4m3 ("fn": finite and NaN only).
  bool hasInfinity;
  /// The canonical quiet NaN.
  uint64_t nanBits;

  int minNormalExponent() const { return 1 - bias; }
  uint64_t signBit() const {
    return uint64_t(1) << (mantissaBits + exponentBits);
  }
};

constexpr FloatFormat kF16{10, 5, 15, 65504.0, true, 0x7E00};
constexpr FloatFormat kBF16{7, 8, 127, 3.3895313892515355e38, true, 0x7FC0};
constexpr FloatFormat kF8E4M3{3, 4, 7, 448.0, false, 0x7F};
constexpr FloatFormat kF8E5M2{2, 5, 15, 57344.0, true, 0x7E};

const FloatFormat *getFormat(DType type) {
  switch (type) {
  case DType::F16:
    return &kF16;
  case DType::BF16:
    return &kBF16;
  case DType::F8E4M3:
    return &kF8E4M3;
  case DType::F8E5M2:
    return &kF8E5M2;
  default:
    return nullptr;
  }
}

/// Round to nearest even in `format`, with gradual underflow.
double roundToFormat(double value, const FloatFormat &format) {
  if (std::isnan(value))
    return value;
  if (std::isinf(value))
    return format.hasInfinity ? value
                              : std::numeric_limits<double>::quiet_NaN();
  if (value == 0)
    return value;
  int exponent;
  std::frexp(std::fabs(value), &exponent);
  // frexp gives |value| = m * 2^exponent with m in [0.5, 1).
  int unbiased = std::max(exponent - 1, format.minNormalExponent());
  double quantum =
      std::ldexp(1.0, unbiased - static_cast<int>(format.mantissaBits));
  // Both the division and the product are exact (powers of two); nearbyint
  // rounds half to even in the default rounding mode.
  double rounded = std::nearbyint(value / quantum) * quantum;
  if (std::fabs(rounded) > format.maxFinite)
    return format.hasInfinity
               ? std::copysign(std::numeric_limits<double>::infinity(), value)
               : std::numeric_limits<double>::quiet_NaN();
  return rounded;
}

uint64_t encodeFormat(double value, const FloatFormat &format) {
  double rounded = roundToFormat(value, format);
  if (std::isnan(rounded))
    return format.nanBits;
  uint64_t sign = std::signbit(rounded) ? format.signBit() : 0;
  double magnitude = std::fabs(rounded);
  uint64_t exponentMask = (uint64_t(1) << format.exponentBits) - 1;
  if (std::isinf(magnitude))
    return sign | (exponentMask << format.mantissaBits);
  if (magnitude == 0)
    return sign;
  int exponent;
  std::frexp(magnitude, &exponent);
  int unbiased = exponent - 1;
  if (unbiased < format.minNormalExponent()) {
    double mantissa =
        std::ldexp(magnitude, static_cast<int>(format.mantissaBits) -
                                  format.minNormalExponent());
    return sign | static_cast<uint64_t>(mantissa);
  }
  double fraction = std::ldexp(magnitude, -unbiased) - 1.0;
  uint64_t mantissa = static_cast<uint64_t>(
      std::ldexp(fraction, static_cast<int>(format.mantissaBits)));
  uint64_t biased = static_cast<uint64_t>(unbiased + format.bias);
  return sign | (biased << format.mantissaBits) | mantissa;
}

double decodeFormat(uint64_t bits, const FloatFormat &format) {
  uint64_t mantissaMask = (uint64_t(1) << format.mantissaBits) - 1;
  uint64_t exponentMask = (uint64_t(1) << format.exponentBits) - 1;
  uint64_t mantissa = bits & mantissaMask;
  uint64_t biased = (bits >> format.mantissaBits) & exponentMask;
  double sign = (bits & format.signBit()) ? -1.0 : 1.0;
  if (biased == exponentMask) {
    if (format.hasInfinity)
      return mantissa ? std::numeric_limits<double>::quiet_NaN()
                      : sign * std::numeric_limits<double>::infinity();
    // e4m3fn: only S.1111.111 is NaN; the rest of the top binade is finite.
    if (mantissa == mantissaMask)
      return std::numeric_limits<double>::quiet_NaN();
  }
  if (biased == 0)
    return sign * std::ldexp(static_cast<double>(mantissa),
                             format.minNormalExponent() -
                                 static_cast<int>(format.mantissaBits));
  double fraction = 1.0 + std::ldexp(static_cast<double>(mantissa),
                                     -static_cast<int>(format.mantissaBits));
  return sign * std::ldexp(fraction, static_cast<int>(biased) - format.bias);
}

int64_t toInteger(double value) {
  if (!std::isfinite(value))
    return 0;
  double truncated = std::trunc(value);
  if (truncated >= 9.2233720368547758e18 || truncated < -9.2233720368547758e18)
    return 0;
  return static_cast<int64_t>(truncated);
}
} // namespace

llvm::StringRef mlir::tessera::conformance::getDTypeName(DType type) {
  switch (type) {
  case DType::I8:
    return "i8";
  case DType::I32:
    return "i32";
  case DType::I64:
    return "i64";
  case DType::F16:
    return "fp16";
  case DType::BF16:
    return "bf16";
  case DType::F32:
    return "fp32";
  case DType::F64:
    return "fp64";
  case DType::F8E4M3:
    return "fp8e4nv";
  case DType::F8E5M2:
    return "fp8e5";
  }
  llvm_unreachable("unknown dtype");
}

std::optional<DType>
mlir::tessera::conformance::parseDType(llvm::StringRef name) {
  return llvm::StringSwitch<std::optional<DType>>(name)
      .Case("i8", DType::I8)
      .Case("i32", DType::I32)
      .Case("i64", DType::I64)
      .Case("fp16", DType::F16)
      .Case("bf16", DType::BF16)
      .Case("fp32", DType::F32)
      .Case("fp64", DType::F64)
      .Case("fp8e4nv", DType::F8E4M3)
      .Case("fp8e5", DType::F8E5M2)
      .Default(std::nullopt);
}

unsigned mlir::tessera::conformance::getDTypeBytes(DType type) {
  switch (type) {
  case DType::I8:
  case DType::F8E4M3:
  case DType::F8E5M2:
    return 1;
  case DType::F16:
  case DType::BF16:
    return 2;
  case DType::I32:
  case DType::F32:
    return 4;
  case DType::I64:
  case DType::F64:
    return 8;
  }
  llvm_unreachable("unknown dtype");
}

bool mlir::tessera::conformance::isFloatDType(DType type) {
  return type != DType::I8 && type != DType::I32 && type != DType::I64;
}

double mlir::tessera::conformance::roundToDType(double value, DType type) {
  if (const FloatFormat *format = getFormat(type))
    return roundToFormat(value, *format);
  switch (type) {
  case DType::F32:
    return static_cast<double>(static_cast<float>(value));
  case DType::F64:
    return value;
  case DType::I8:
    return static_cast<double>(static_cast<int8_t>(toInteger(value)));
  case DType::I32:
    return static_cast<double>(static_cast<int32_t>(toInteger(value)));
  case DType::I64:
    return static_cast<double>(toInteger(value));
  default:
    llvm_unreachable("handled above");
  }
}

uint64_t mlir::tessera::conformance::encodeElement(double value, DType type) {
  if (const FloatFormat *format = getFormat(type))
    return encodeFormat(value, *format);
  switch (type) {
  case DType::F32: {
    float f = static_cast<float>(value);
    uint32_t bits;
    std::memcpy(&bits, &f, sizeof(bits));
    return bits;
  }
  case DType::F64: {
    uint64_t bits;
    std::memcpy(&bits, &value, sizeof(bits));
    return bits;
  }
  case DType::I8:
    return static_cast<uint8_t>(toInteger(value));
  case DType::I32:
    return static_cast<uint32_t>(toInteger(value));
  case DType::I64:
    return static_cast<uint64_t>(toInteger(value));
  default:
    llvm_unreachable("handled above");
  }
}

double mlir::tessera::conformance::decodeElement(uint64_t bits, DType type) {
  if (const FloatFormat *format = getFormat(type))
    return decodeFormat(bits, *format);
  switch (type) {
  case DType::F32: {
    uint32_t narrow = static_cast<uint32_t>(bits);
    float f;
    std::memcpy(&f, &narrow, sizeof(f));
    return f;
  }
  case DType::F64: {
    double d;
    std::memcpy(&d, &bits, sizeof(d));
    return d;
  }
  case DType::I8:
    return static_cast<int8_t>(bits);
  case DType::I32:
    return static_cast<int32_t>(bits);
  case DType::I64:
    return static_cast<double>(static_cast<int64_t>(bits));
  default:
    llvm_unreachable("handled above");
  }
}

HostTensor::HostTensor(DType type, std::vector<int64_t> shape)
    : type(type), shape(std::move(shape)) {
  numElements = 1;
  for (int64_t extent : this->shape) {
    assert(extent >= 0 && "negative extent");
    numElements *= extent;
  }
  bytes.assign(static_cast<size_t>(numElements) * getDTypeBytes(type), 0);
}

uint64_t HostTensor::getBits(int64_t index) const {
  assert(index >= 0 && index < numElements && "index out of range");
  unsigned width = getDTypeBytes(type);
  uint64_t bits = 0;
  // Little-endian hosts only (x86-64, AArch64): the low bytes come first.
  std::memcpy(&bits, bytes.data() + index * width, width);
  return bits;
}

double HostTensor::get(int64_t index) const {
  return decodeElement(getBits(index), type);
}

void HostTensor::set(int64_t index, double value) {
  assert(index >= 0 && index < numElements && "index out of range");
  uint64_t bits = encodeElement(value, type);
  unsigned width = getDTypeBytes(type);
  std::memcpy(bytes.data() + index * width, &bits, width);
}

int64_t HostTensor::getInt(int64_t index) const {
  uint64_t bits = getBits(index);
  switch (type) {
  case DType::I8:
    return static_cast<int8_t>(bits);
  case DType::I32:
    return static_cast<int32_t>(bits);
  case DType::I64:
    return static_cast<int64_t>(bits);
  default:
    return toInteger(get(index));
  }
}

void HostTensor::setInt(int64_t index, int64_t value) {
  if (isFloatDType(type)) {
    set(index, static_cast<double>(value));
    return;
  }
  assert(index >= 0 && index < numElements && "index out of range");
  uint64_t bits = static_cast<uint64_t>(value);
  unsigned width = getDTypeBytes(type);
  std::memcpy(bytes.data() + index * width, &bits, width);
}

std::vector<double> HostTensor::toDoubles() const {
  std::vector<double> values(static_cast<size_t>(numElements));
  for (int64_t i = 0; i < numElements; ++i)
    values[i] = get(i);
  return values;
}

void HostTensor::fillBytes(uint8_t byte) {
  std::fill(bytes.begin(), bytes.end(), byte);
}
