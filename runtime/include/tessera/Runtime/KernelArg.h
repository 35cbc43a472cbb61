//===- KernelArg.h - A value passed to a kernel at launch -------*- C++ -*-===//
//
// What a launch passes for each kernel parameter, as Triton's launcher sees
// Python values: a pointer (a buffer or a device address with its element
// type), an integer (Python's, so also one in [2^63, 2^64), which Triton
// passes as u64), a float, a bool, None, and for tl.constexpr
// parameters also strings and dtypes. The runtime specializes on these
// values (KernelSpecializer.h) and packs them for the driver
// (ArgPacking.h).
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_RUNTIME_KERNELARG_H
#define TESSERA_RUNTIME_KERNELARG_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>
#include <utility>

namespace mlir::tessera::runtime {

class Buffer;

class KernelArg {
public:
  /// `UInt` holds the integers in [2^63, 2^64), which no int64_t can: every
  /// smaller integer is an `Int`.
  enum class Kind : uint8_t {
    None,
    Bool,
    Int,
    UInt,
    Float,
    Pointer,
    String,
    DType
  };

  /// None.
  KernelArg() = default;
  static KernelArg none() { return KernelArg(); }
  static KernelArg boolean(bool value);
  static KernelArg integer(int64_t value);
  /// An integer of up to 64 unsigned bits: an `Int` up to INT64_MAX, above
  /// it a `UInt` (Triton's `u64` parameters).
  static KernelArg unsignedInteger(uint64_t value);
  static KernelArg floating(double value);
  /// A device address whose elements have Triton type `elementType`
  /// ("fp32"); `sizeBytes` (0: unknown) lets autotuning save or zero it.
  static KernelArg pointer(uint64_t address, llvm::StringRef elementType,
                           uint64_t sizeBytes = 0);
  /// The address of `buffer` plus `offsetBytes`, typed by its element type
  /// (or `elementType` when given).
  static KernelArg buffer(const Buffer &buffer, uint64_t offsetBytes = 0,
                          llvm::StringRef elementType = "");
  /// A string constexpr (`ACTIVATION="leaky_relu"`).
  static KernelArg string(llvm::StringRef value);
  /// A dtype constexpr, by Triton type name ("fp16" for tl.float16).
  static KernelArg dtype(llvm::StringRef typeName);

  /// Implicit conversions so that argument lists read naturally.
  KernelArg(const Buffer &b) : KernelArg(buffer(b)) {}
  KernelArg(int value) : KernelArg(integer(value)) {}
  KernelArg(unsigned value) : KernelArg(integer(value)) {}
  KernelArg(int64_t value) : KernelArg(integer(value)) {}
  KernelArg(uint64_t value) : KernelArg(unsignedInteger(value)) {}
  KernelArg(double value) : KernelArg(floating(value)) {}
  KernelArg(bool value) : KernelArg(boolean(value)) {}
  /// A string constexpr; without this a literal would convert to bool.
  KernelArg(const char *value) : KernelArg(string(value)) {}

  Kind getKind() const { return kind; }
  bool isNone() const { return kind == Kind::None; }
  bool isBool() const { return kind == Kind::Bool; }
  bool isInt() const { return kind == Kind::Int; }
  bool isUInt() const { return kind == Kind::UInt; }
  bool isFloat() const { return kind == Kind::Float; }
  bool isPointer() const { return kind == Kind::Pointer; }
  bool isString() const { return kind == Kind::String; }
  bool isDType() const { return kind == Kind::DType; }

  bool getBool() const { return intValue != 0; }
  /// An int, or a bool as 0/1.
  int64_t getInt() const { return intValue; }
  /// The value of a `UInt`.
  uint64_t getUInt() const { return static_cast<uint64_t>(intValue); }
  double getFloat() const { return floatValue; }
  uint64_t getAddress() const { return static_cast<uint64_t>(intValue); }
  /// The element type of a pointer, the text of a string, the type name of
  /// a dtype.
  llvm::StringRef getText() const { return text; }
  uint64_t getSizeBytes() const { return sizeBytes; }

  /// Python's repr of the value (`True`, `3`, `0.5`, `'relu'`,
  /// `triton.language.float16`), as a constexpr reads in a signature;
  /// pointers print as `<pointer *fp32 0x...>`.
  std::string repr() const;

  /// "a float (2.5)", "a pointer to fp32", for error messages.
  std::string describe() const;

  /// Equality of kind and value (pointers by address and type).
  bool operator==(const KernelArg &other) const;

private:
  Kind kind = Kind::None;
  int64_t intValue = 0;
  double floatValue = 0;
  uint64_t sizeBytes = 0;
  std::string text;
};

/// An argument given by parameter name.
using NamedKernelArg = std::pair<std::string, KernelArg>;

} // namespace mlir::tessera::runtime

#endif // TESSERA_RUNTIME_KERNELARG_H
