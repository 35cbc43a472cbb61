//===- ScalarTypes.h - Triton's scalar type names ---------------*- C++ -*-===//
//
// Kernel parameters and buffer elements are typed with Triton's signature
// names: i1 i8 i16 i32 i64, u8 u16 u32 u64, fp8e4nv fp8e5 fp8e4b8 fp8e5b16
// fp8e4b15, fp16 bf16 fp32 fp64. A pointer parameter is `*` and its pointee.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_RUNTIME_SCALARTYPES_H
#define TESSERA_RUNTIME_SCALARTYPES_H

#include "llvm/ADT/StringRef.h"

#include <optional>

namespace mlir::tessera::runtime {

/// What a kernel parameter of a scalar type holds.
enum class ScalarClass : uint8_t { Bool, SignedInt, UnsignedInt, Float };

/// A scalar type by Triton's name.
struct ScalarTypeInfo {
  llvm::StringLiteral name;
  ScalarClass cls;
  /// Bits of the value (1 for i1); bytes in memory are bits rounded up.
  unsigned bits;
  /// The name of the `triton.language` dtype object ("float16").
  llvm::StringLiteral languageName;
};

/// The scalar type `name` ("fp32", "i64", ...), or null.
const ScalarTypeInfo *lookupScalarType(llvm::StringRef name);

/// The scalar type whose `triton.language` name is `name` ("float16",
/// "int32"), or null.
const ScalarTypeInfo *lookupLanguageType(llvm::StringRef languageName);

/// Bytes one element of `name` occupies in memory, or nullopt when the name
/// is unknown.
std::optional<unsigned> getScalarTypeBytes(llvm::StringRef name);

} // namespace mlir::tessera::runtime

#endif // TESSERA_RUNTIME_SCALARTYPES_H
