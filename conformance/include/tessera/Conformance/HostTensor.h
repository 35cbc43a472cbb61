//===- HostTensor.h - Host arrays in a kernel's element types ---*- C++ -*-===//
//
// Inputs are generated, and outputs read back, on the host in the element
// type the kernel sees (fp16, fp8 e4m3, ...). A HostTensor keeps the bytes
// exactly as the device has them and converts single elements to and from
// double, so that references are computed from the same rounded values the
// kernel read.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_CONFORMANCE_HOSTTENSOR_H
#define TESSERA_CONFORMANCE_HOSTTENSOR_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace mlir::tessera::conformance {

/// Element types the conformance kernels use.
enum class DType : uint8_t {
  I8,
  I32,
  I64,
  F16,
  BF16,
  F32,
  F64,
  F8E4M3,
  F8E5M2
};

/// Triton's signature name of `type` ("fp16", "fp8e4nv", "i32", ...).
llvm::StringRef getDTypeName(DType type);
/// The type named `name` (Triton's signature names), or nullopt.
std::optional<DType> parseDType(llvm::StringRef name);
/// Bytes of one element.
unsigned getDTypeBytes(DType type);
bool isFloatDType(DType type);

/// `value` rounded to `type` as a store would round it: round to nearest
/// even, overflow to infinity (fp16, bf16, fp8 e5m2) or NaN (fp8 e4m3,
/// which has no infinity); integers truncate toward zero and wrap.
double roundToDType(double value, DType type);

/// The bit pattern of `value` stored as `type` (rounded first), in the low
/// bits of the result.
uint64_t encodeElement(double value, DType type);
/// The value of the bit pattern `bits` of `type`.
double decodeElement(uint64_t bits, DType type);

/// A dense row-major array of one element type, as raw bytes.
class HostTensor {
public:
  HostTensor() = default;
  HostTensor(DType type, std::vector<int64_t> shape);

  DType getDType() const { return type; }
  llvm::ArrayRef<int64_t> getShape() const { return shape; }
  /// Number of elements.
  int64_t size() const { return numElements; }
  size_t getSizeBytes() const { return bytes.size(); }
  uint8_t *data() { return bytes.data(); }
  const uint8_t *data() const { return bytes.data(); }

  /// Element `index` (flat) as a double.
  double get(int64_t index) const;
  /// Stores `value` at `index`, rounded to the element type.
  void set(int64_t index, double value);
  /// Integer access without going through double (int64 addresses).
  int64_t getInt(int64_t index) const;
  void setInt(int64_t index, int64_t value);
  /// The raw bits of element `index`.
  uint64_t getBits(int64_t index) const;

  /// Every element as a double, in order.
  std::vector<double> toDoubles() const;

  /// Sets every byte to `byte` (0xFF reads as NaN in every float type).
  void fillBytes(uint8_t byte);

private:
  DType type = DType::F32;
  std::vector<int64_t> shape;
  int64_t numElements = 0;
  std::vector<uint8_t> bytes;
};

} // namespace mlir::tessera::conformance

#endif // TESSERA_CONFORMANCE_HOSTTENSOR_H
