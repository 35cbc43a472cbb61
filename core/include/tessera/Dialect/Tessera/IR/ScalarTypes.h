//===- ScalarTypes.h - Triton's scalar types, one table ---------*- C++ -*-===//
//
// Triton spells each scalar type three ways: in signatures (`i32`, `u8`,
// `fp16`, `fp8e4nv`), as a dtype's name (`int32`, `uint8`, `fp16`,
// `fp8e4nv`; also the names of TargetDescription's dtypes and matrix
// instruction types) and as the `triton.language` attribute bound to it
// (`int32`, `uint8`, `float16`, `float8e4nv`). This is the one table of
// them, with what each holds and its MLIR type, which the frontend, the
// plugins' signature spelling, dot selection and the runtime's launches
// all read.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_DIALECT_TESSERA_IR_SCALARTYPES_H
#define TESSERA_DIALECT_TESSERA_IR_SCALARTYPES_H

#include "mlir/IR/Types.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>

namespace mlir::tessera {

/// What a value of a scalar type holds.
enum class ScalarClass : uint8_t { Bool, SignedInt, UnsignedInt, Float };

/// One scalar type.
struct ScalarTypeInfo {
  /// The signature spelling ("i32", "u8", "fp16", "fp8e4nv").
  llvm::StringLiteral name;
  ScalarClass cls;
  /// Bits of the value (1 for i1); bytes in memory are bits rounded up.
  unsigned bits;
  /// The `triton.language` attribute bound to it ("int32", "float16").
  llvm::StringLiteral languageName;
  /// The dtype's name ("int32", "uint8", "fp16", "fp8e4nv").
  llvm::StringLiteral dtypeName;
  /// Explicit mantissa bits of a float; 0 for integers.
  unsigned mantissaBits;
};

/// Every scalar type, integers first.
llvm::ArrayRef<ScalarTypeInfo> getScalarTypes();

/// The scalar type whose signature spelling is `name` ("fp32", "i64"; also
/// the older "f32", "f16", "f64"), or null.
const ScalarTypeInfo *lookupScalarType(llvm::StringRef name);

/// The scalar type whose `triton.language` name is `languageName`
/// ("float16", "int32"), or null.
const ScalarTypeInfo *lookupLanguageType(llvm::StringRef languageName);

/// Bytes one element of signature type `name` occupies in memory, or
/// nullopt when the name is unknown.
std::optional<unsigned> getScalarTypeBytes(llvm::StringRef name);

/// The scalar type of MLIR type `type`: integers by width and signedness
/// (signless reads as signed, i1 as Bool), floats by format; null for any
/// other type.
const ScalarTypeInfo *lookupScalarType(Type type);

/// The MLIR type of `info` (integers signless).
Type getScalarMLIRType(MLIRContext *context, const ScalarTypeInfo &info);

} // namespace mlir::tessera

#endif // TESSERA_DIALECT_TESSERA_IR_SCALARTYPES_H
