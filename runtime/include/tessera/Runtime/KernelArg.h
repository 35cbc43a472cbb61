//===- KernelArg.h - A value passed to a kernel at launch -------*- C++ -*-===//
//
// What a launch passes for each kernel parameter, as Triton's launcher sees
// Python values: a pointer (a buffer or a device address with its element
// type), an integer (Python's, so also one in [2^63, 2^64), which Triton
// passes as u64), a float, a bool, None, a host-built tensor descriptor
// (triton.tools.tensor_descriptor.TensorDescriptor), and for tl.constexpr
// parameters also strings, dtypes and tuples of those constants. The runtime specializes on these
// values (KernelSpecializer.h) and packs them for the driver
// (ArgPacking.h).
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_RUNTIME_KERNELARG_H
#define TESSERA_RUNTIME_KERNELARG_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace mlir::tessera::runtime {

class Buffer;

/// A tensor descriptor built on the host, as Triton's
/// `TensorDescriptor(base, shape, strides, block_shape, padding)`: the
/// global tensor (base address, element type, shape and strides in
/// elements) and the block each load or store moves.
struct TensorDescriptorArg {
  uint64_t base = 0;
  /// The element type's Triton name ("fp16").
  std::string elementType;
  std::vector<int64_t> shape;
  std::vector<int64_t> strides;
  std::vector<int64_t> blockShape;
  /// Out-of-bounds elements read NaN instead of zero (floats only).
  bool nanPadding = false;

  bool operator==(const TensorDescriptorArg &other) const = default;
};

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
    DType,
    TensorDesc,
    Tuple
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
  /// A host-built tensor descriptor. It specializes as Triton's
  /// `tensordesc<fp16[64, 64]>` (`tensordesc<fp32[64, 64],nan>` with NaN
  /// padding) and is passed as 1 + 2 * rank values: the base pointer, the
  /// shape (i32) and the strides (i64); the launch checks Triton's rules
  /// (16-byte aligned base and strides, a contiguous last dimension).
  static KernelArg tensorDescriptor(TensorDescriptorArg descriptor);
  /// A tuple of constants for a tl.constexpr parameter (`out_shape=(8, 8)`);
  /// its elements are constants too (no pointers or descriptors).
  static KernelArg tuple(std::vector<KernelArg> elements);

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
  bool isTensorDesc() const { return kind == Kind::TensorDesc; }
  bool isTuple() const { return kind == Kind::Tuple; }

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
  /// The descriptor of a TensorDesc argument.
  const TensorDescriptorArg &getTensorDesc() const { return descriptor; }
  /// The elements of a Tuple.
  llvm::ArrayRef<KernelArg> getElements() const { return elements; }

  /// How many values the kernel receives for this argument: 1 + 2 * rank
  /// for a descriptor, else 1.
  unsigned getNumLaunchValues() const;
  /// Launch value `i` of a descriptor (the base as a typed pointer, then
  /// the shape, then the strides, as integers); the argument itself for
  /// other kinds.
  KernelArg getLaunchValue(unsigned i) const;

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
  TensorDescriptorArg descriptor;
  std::vector<KernelArg> elements;
};

/// An argument given by parameter name.
using NamedKernelArg = std::pair<std::string, KernelArg>;

} // namespace mlir::tessera::runtime

#endif // TESSERA_RUNTIME_KERNELARG_H
