//===- ScalarTypes.cpp - Triton's scalar types, one table -----------------===//
#include "tessera/Dialect/Tessera/IR/ScalarTypes.h"

#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;
using namespace mlir::tessera;

namespace {
using C = ScalarClass;
constexpr ScalarTypeInfo kTypes[] = {
    {"i1", C::Bool, 1, "int1", "int1", 0},
    {"i8", C::SignedInt, 8, "int8", "int8", 0},
    {"i16", C::SignedInt, 16, "int16", "int16", 0},
    {"i32", C::SignedInt, 32, "int32", "int32", 0},
    {"i64", C::SignedInt, 64, "int64", "int64", 0},
    {"u1", C::Bool, 1, "uint1", "uint1", 0},
    {"u8", C::UnsignedInt, 8, "uint8", "uint8", 0},
    {"u16", C::UnsignedInt, 16, "uint16", "uint16", 0},
    {"u32", C::UnsignedInt, 32, "uint32", "uint32", 0},
    {"u64", C::UnsignedInt, 64, "uint64", "uint64", 0},
    {"fp8e4nv", C::Float, 8, "float8e4nv", "fp8e4nv", 3},
    {"fp8e5", C::Float, 8, "float8e5", "fp8e5", 2},
    {"fp8e4b8", C::Float, 8, "float8e4b8", "fp8e4b8", 3},
    {"fp8e5b16", C::Float, 8, "float8e5b16", "fp8e5b16", 2},
    {"fp8e4b15", C::Float, 8, "float8e4b15", "fp8e4b15", 3},
    {"fp16", C::Float, 16, "float16", "fp16", 10},
    {"bf16", C::Float, 16, "bfloat16", "bf16", 7},
    {"fp32", C::Float, 32, "float32", "fp32", 23},
    {"fp64", C::Float, 64, "float64", "fp64", 52},
};
} // namespace

llvm::ArrayRef<ScalarTypeInfo> mlir::tessera::getScalarTypes() {
  return kTypes;
}

const ScalarTypeInfo *mlir::tessera::lookupScalarType(llvm::StringRef name) {
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
mlir::tessera::lookupLanguageType(llvm::StringRef languageName) {
  for (const ScalarTypeInfo &info : kTypes)
    if (info.languageName == languageName)
      return &info;
  return nullptr;
}

std::optional<unsigned>
mlir::tessera::getScalarTypeBytes(llvm::StringRef name) {
  const ScalarTypeInfo *info = lookupScalarType(name);
  if (!info)
    return std::nullopt;
  return (info->bits + 7) / 8;
}

const ScalarTypeInfo *mlir::tessera::lookupScalarType(Type type) {
  if (auto integer = dyn_cast<IntegerType>(type)) {
    unsigned width = integer.getWidth();
    if (width == 1)
      return lookupScalarType(integer.isUnsigned() ? "u1" : "i1");
    std::string name =
        (integer.isUnsigned() ? "u" : "i") + std::to_string(width);
    return lookupScalarType(name);
  }
  for (const ScalarTypeInfo &info : kTypes)
    if (info.cls == ScalarClass::Float &&
        getScalarMLIRType(type.getContext(), info) == type)
      return &info;
  return nullptr;
}

Type mlir::tessera::getScalarMLIRType(MLIRContext *context,
                                      const ScalarTypeInfo &info) {
  if (info.cls != ScalarClass::Float)
    return IntegerType::get(context, info.bits);
  llvm::StringRef name = info.name;
  if (name == "fp8e4nv")
    return Float8E4M3FNType::get(context);
  if (name == "fp8e5")
    return Float8E5M2Type::get(context);
  if (name == "fp8e4b8")
    return Float8E4M3FNUZType::get(context);
  if (name == "fp8e5b16")
    return Float8E5M2FNUZType::get(context);
  if (name == "fp8e4b15")
    return Float8E4M3B11FNUZType::get(context);
  if (name == "fp16")
    return Float16Type::get(context);
  if (name == "bf16")
    return BFloat16Type::get(context);
  if (name == "fp32")
    return Float32Type::get(context);
  return Float64Type::get(context);
}
