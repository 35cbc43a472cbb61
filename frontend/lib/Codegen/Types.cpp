//===- Types.cpp - Triton-language types of device values -----------------===//
#include "tessera/Frontend/Codegen/Types.h"

#include "tessera/Dialect/Tessera/IR/Dialect.h"
#include "tessera/Dialect/Tessera/IR/ScalarTypes.h"

#include "llvm/ADT/StringSwitch.h"

#include <array>

using namespace tessera::frontend;

namespace {
/// Triton's spellings of a scalar kind (the core's table, which every layer
/// reads), and `void`.
struct ScalarInfo {
  llvm::StringRef name;    // Triton's dtype.name
  llvm::StringRef codegen; // the attribute of triton.language
  llvm::StringRef mangled; // short spelling for symbol names (signature's)
  unsigned bits;
  unsigned mantissa;
};
} // namespace

static ScalarInfo info(ScalarKind k) {
  // The core's row of each kind but Void, in the enum's order, found once:
  // the frontend asks for widths and names on every value it types.
  static const auto kRows = [] {
    static constexpr llvm::StringLiteral kSignatureNames[] = {
        "i1",    "i8",       "i16",  "i32",     "i64",     "u8",
        "u16",   "u32",      "u64",  "fp8e4nv", "fp8e4b8", "fp8e4b15",
        "fp8e5", "fp8e5b16", "fp16", "bf16",    "fp32",    "fp64"};
    static_assert(std::size(kSignatureNames) ==
                  static_cast<size_t>(ScalarKind::Void));
    std::array<const mlir::tessera::ScalarTypeInfo *,
               std::size(kSignatureNames)>
        rows;
    for (size_t i = 0; i < rows.size(); ++i)
      rows[i] = mlir::tessera::lookupScalarType(kSignatureNames[i]);
    return rows;
  }();
  if (k == ScalarKind::Void)
    return {"void", "void", "V", 0, 0};
  const mlir::tessera::ScalarTypeInfo *type = kRows[static_cast<unsigned>(k)];
  return {type->dtypeName, type->languageName, type->name, type->bits,
          type->mantissaBits};
}

llvm::StringRef tessera::frontend::getScalarName(ScalarKind kind) {
  return info(kind).name;
}

ScalarKind tessera::frontend::getIntKind(unsigned bits, bool isSigned) {
  switch (bits) {
  case 1:
    return ScalarKind::Int1;
  case 8:
    return isSigned ? ScalarKind::Int8 : ScalarKind::UInt8;
  case 16:
    return isSigned ? ScalarKind::Int16 : ScalarKind::UInt16;
  case 32:
    return isSigned ? ScalarKind::Int32 : ScalarKind::UInt32;
  default:
    return isSigned ? ScalarKind::Int64 : ScalarKind::UInt64;
  }
}

TType TType::scalar(ScalarKind k) {
  TType t;
  t.kind = Kind::Scalar;
  t.scalarKind = k;
  return t;
}

TType TType::pointer(const TType &pointee, int addressSpace, bool isConst) {
  TType t;
  t.kind = Kind::Pointer;
  t.addressSpace = addressSpace;
  t.isConst = isConst;
  t.inner = std::make_shared<const TType>(pointee);
  return t;
}

TType TType::block(const TType &element, llvm::ArrayRef<int64_t> shape) {
  TType t;
  t.kind = Kind::Block;
  t.shape.assign(shape.begin(), shape.end());
  t.inner = std::make_shared<const TType>(element.getElement());
  return t;
}

TType TType::tensorDesc(const TType &blockType) {
  TType t;
  t.kind = Kind::TensorDesc;
  t.inner = std::make_shared<const TType>(blockType);
  return t;
}

std::optional<ScalarKind> TType::parseScalarName(llvm::StringRef name) {
  using K = ScalarKind;
  return llvm::StringSwitch<std::optional<K>>(name)
      .Cases({"i1", "int1", "u1", "bool"}, K::Int1)
      .Cases({"i8", "int8"}, K::Int8)
      .Cases({"i16", "int16"}, K::Int16)
      .Cases({"i32", "int32"}, K::Int32)
      .Cases({"i64", "int64"}, K::Int64)
      .Cases({"u8", "uint8"}, K::UInt8)
      .Cases({"u16", "uint16"}, K::UInt16)
      .Cases({"u32", "uint32"}, K::UInt32)
      .Cases({"u64", "uint64"}, K::UInt64)
      .Cases({"fp8e4nv", "float8e4nv", "float8_e4m3fn"}, K::FP8E4NV)
      .Cases({"fp8e4b8", "float8e4b8", "float8_e4m3fnuz"}, K::FP8E4B8)
      .Cases({"fp8e4b15", "float8e4b15"}, K::FP8E4B15)
      .Cases({"fp8e5", "float8e5", "float8_e5m2"}, K::FP8E5)
      .Cases({"fp8e5b16", "float8e5b16", "float8_e5m2fnuz"}, K::FP8E5B16)
      .Cases({"fp16", "float16", "half"}, K::FP16)
      .Cases({"bf16", "bfloat16"}, K::BF16)
      .Cases({"fp32", "float32", "float"}, K::FP32)
      .Cases({"fp64", "float64", "double"}, K::FP64)
      .Case("void", K::Void)
      .Default(std::nullopt);
}

std::optional<TType> TType::fromQualifiedName(llvm::StringRef name) {
  // Every module that re-exports the dtypes.
  for (llvm::StringRef prefix : {"triton.language.core.", "triton.language."}) {
    if (!name.consume_front(prefix))
      continue;
    // Only the names triton.language binds (float8e4nv, not fp8e4nv).
    static const char *const names[] = {
        "int1",       "int8",        "int16",    "int32",       "int64",
        "uint8",      "uint16",      "uint32",   "uint64",      "float8e4nv",
        "float8e4b8", "float8e4b15", "float8e5", "float8e5b16", "float16",
        "bfloat16",   "float32",     "float64",  "void"};
    for (const char *n : names)
      if (name == n)
        return TType::scalar(*parseScalarName(n));
    if (name == "pi32_t")
      return TType::pointer(TType::scalar(ScalarKind::Int32));
    return std::nullopt;
  }
  return std::nullopt;
}

int64_t TType::getNumElements() const {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

TType TType::withElement(const TType &element) const {
  if (isBlock())
    return block(element, shape);
  return element;
}

bool TType::isInt() const {
  const TType &e = getElement();
  return e.isScalarType() && e.scalarKind <= ScalarKind::UInt64;
}

bool TType::isSignedInt() const {
  const TType &e = getElement();
  return e.isScalarType() && e.scalarKind >= ScalarKind::Int8 &&
         e.scalarKind <= ScalarKind::Int64;
}

bool TType::isUnsignedInt() const {
  const TType &e = getElement();
  return e.isScalarType() && (e.scalarKind == ScalarKind::Int1 ||
                              (e.scalarKind >= ScalarKind::UInt8 &&
                               e.scalarKind <= ScalarKind::UInt64));
}

bool TType::isBool() const { return is(ScalarKind::Int1); }

bool TType::isFloating() const {
  const TType &e = getElement();
  return e.isScalarType() && e.scalarKind >= ScalarKind::FP8E4NV &&
         e.scalarKind <= ScalarKind::FP64;
}

bool TType::isStandardFloating() const {
  const TType &e = getElement();
  return e.isScalarType() && e.scalarKind >= ScalarKind::FP16 &&
         e.scalarKind <= ScalarKind::FP64;
}

bool TType::isFP8() const {
  const TType &e = getElement();
  return e.isScalarType() && e.scalarKind >= ScalarKind::FP8E4NV &&
         e.scalarKind <= ScalarKind::FP8E5B16;
}

unsigned TType::getPrimitiveBitwidth() const {
  const TType &e = getElement();
  if (e.isPointer())
    return 64;
  return info(e.scalarKind).bits;
}

unsigned TType::getFPMantissaWidth() const {
  return info(getElement().scalarKind).mantissa;
}

TypeKindOrder TType::getKindOrder() const {
  if (isBool())
    return TypeKindOrder::Boolean;
  if (isInt())
    return TypeKindOrder::Integral;
  return TypeKindOrder::Floating;
}

std::string TType::str() const {
  switch (kind) {
  case Kind::Scalar:
    return info(scalarKind).name.str();
  case Kind::Pointer:
    return (isConst ? "const_pointer<" : "pointer<") + inner->str() + ">";
  case Kind::Block: {
    std::string s = "<[";
    for (size_t i = 0; i < shape.size(); ++i)
      s += (i ? ", " : "") + std::to_string(shape[i]);
    return s + "], " + inner->str() + ">";
  }
  case Kind::TensorDesc: {
    std::string s = "tensor_descriptor<" + inner->getElement().str() + "[";
    for (size_t i = 0; i < inner->shape.size(); ++i)
      s += (i ? ", " : "") + std::to_string(inner->shape[i]);
    return s + "]>";
  }
  }
  return "?";
}

std::string TType::repr() const {
  if (isScalarType())
    return ("triton.language." + info(scalarKind).codegen).str();
  return str();
}

std::string TType::mangle() const {
  switch (kind) {
  case Kind::Scalar:
    return info(scalarKind).mangled.str();
  case Kind::Pointer: {
    // A helper specialized for a const pointer refuses stores the same
    // helper accepts for a plain one: they are different specializations.
    std::string s = isConst ? "Pk" : "P";
    s += inner->mangle();
    return s;
  }
  case Kind::Block: {
    std::string s = inner->mangle();
    s += "S";
    for (size_t i = 0; i < shape.size(); ++i) {
      if (i)
        s += "_";
      s += std::to_string(shape[i]);
    }
    s += "S";
    return s;
  }
  case Kind::TensorDesc:
    return "TD" + inner->mangle();
  }
  return "?";
}

mlir::Type TType::toMLIR(mlir::MLIRContext *ctx) const {
  using namespace mlir;
  switch (kind) {
  case Kind::Scalar:
    switch (scalarKind) {
    case ScalarKind::Int1:
      return IntegerType::get(ctx, 1);
    case ScalarKind::Int8:
    case ScalarKind::UInt8:
      return IntegerType::get(ctx, 8);
    case ScalarKind::Int16:
    case ScalarKind::UInt16:
      return IntegerType::get(ctx, 16);
    case ScalarKind::Int32:
    case ScalarKind::UInt32:
      return IntegerType::get(ctx, 32);
    case ScalarKind::Int64:
    case ScalarKind::UInt64:
      return IntegerType::get(ctx, 64);
    case ScalarKind::FP8E4NV:
      return Float8E4M3FNType::get(ctx);
    case ScalarKind::FP8E4B8:
      return Float8E4M3FNUZType::get(ctx);
    case ScalarKind::FP8E4B15:
      return Float8E4M3B11FNUZType::get(ctx);
    case ScalarKind::FP8E5:
      return Float8E5M2Type::get(ctx);
    case ScalarKind::FP8E5B16:
      return Float8E5M2FNUZType::get(ctx);
    case ScalarKind::FP16:
      return Float16Type::get(ctx);
    case ScalarKind::BF16:
      return BFloat16Type::get(ctx);
    case ScalarKind::FP32:
      return Float32Type::get(ctx);
    case ScalarKind::FP64:
      return Float64Type::get(ctx);
    case ScalarKind::Void:
      return NoneType::get(ctx);
    }
    break;
  case Kind::Pointer:
    return ::mlir::tessera::PointerType::get(inner->toMLIR(ctx), addressSpace);
  case Kind::Block:
    return RankedTensorType::get(shape, inner->toMLIR(ctx));
  case Kind::TensorDesc:
    return ::mlir::tessera::TensorDescType::get(
        ctx, cast<RankedTensorType>(inner->toMLIR(ctx)));
  }
  return {};
}

bool TType::operator==(const TType &other) const {
  if (kind != other.kind)
    return false;
  switch (kind) {
  case Kind::Scalar:
    return scalarKind == other.scalarKind;
  case Kind::Pointer:
    return addressSpace == other.addressSpace && isConst == other.isConst &&
           *inner == *other.inner;
  case Kind::Block:
    return shape == other.shape && *inner == *other.inner;
  case Kind::TensorDesc:
    return *inner == *other.inner;
  }
  return false;
}
