//===- ScalarTypes.cpp - Triton's scalar type names -----------------------===//
#include "tessera/Runtime/ScalarTypes.h"

using namespace mlir::tessera::runtime;

namespace {
constexpr ScalarTypeInfo kTypes[] = {
    {"i1", ScalarClass::Bool, 1, "int1"},
    {"i8", ScalarClass::SignedInt, 8, "int8"},
    {"i16", ScalarClass::SignedInt, 16, "int16"},
    {"i32", ScalarClass::SignedInt, 32, "int32"},
    {"i64", ScalarClass::SignedInt, 64, "int64"},
    {"u1", ScalarClass::Bool, 1, "uint1"},
    {"u8", ScalarClass::UnsignedInt, 8, "uint8"},
    {"u16", ScalarClass::UnsignedInt, 16, "uint16"},
    {"u32", ScalarClass::UnsignedInt, 32, "uint32"},
    {"u64", ScalarClass::UnsignedInt, 64, "uint64"},
    {"fp8e4nv", ScalarClass::Float, 8, "float8e4nv"},
    {"fp8e5", ScalarClass::Float, 8, "float8e5"},
    {"fp8e4b8", ScalarClass::Float, 8, "float8e4b8"},
    {"fp8e5b16", ScalarClass::Float, 8, "float8e5b16"},
    {"fp8e4b15", ScalarClass::Float, 8, "float8e4b15"},
    {"fp16", ScalarClass::Float, 16, "float16"},
    {"bf16", ScalarClass::Float, 16, "bfloat16"},
    {"fp32", ScalarClass::Float, 32, "float32"},
    {"fp64", ScalarClass::Float, 64, "float64"},
};
} // namespace

const ScalarTypeInfo *
mlir::tessera::runtime::lookupScalarType(llvm::StringRef name) {
  for (const ScalarTypeInfo &info : kTypes)
    if (info.name == name)
      return &info;
  // Triton's older spellings of the same types.
  if (name == "f32")
    return lookupScalarType("fp32");
  if (name == "f16")
    return lookupScalarType("fp16");
  if (name == "f64")
    return lookupScalarType("fp64");
  return nullptr;
}

const ScalarTypeInfo *
mlir::tessera::runtime::lookupLanguageType(llvm::StringRef languageName) {
  for (const ScalarTypeInfo &info : kTypes)
    if (info.languageName == languageName)
      return &info;
  return nullptr;
}

std::optional<unsigned>
mlir::tessera::runtime::getScalarTypeBytes(llvm::StringRef name) {
  const ScalarTypeInfo *info = lookupScalarType(name);
  if (!info)
    return std::nullopt;
  return (info->bits + 7) / 8;
}
