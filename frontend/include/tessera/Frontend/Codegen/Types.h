//===- Types.h - Triton-language types of device values ---------*- C++ -*-===//
//
// The frontend's view of a device value's type, as Triton's `tl.dtype`,
// `tl.pointer_type`, `tl.block_type` and tensor-descriptor types define it.
// MLIR integers are signless, so the signedness of `uint32` vs `int32` lives
// here and nowhere else: every operation picks its signed or unsigned MLIR
// form from a TType.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_FRONTEND_CODEGEN_TYPES_H
#define TESSERA_FRONTEND_CODEGEN_TYPES_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mlir {
class MLIRContext;
class Type;
} // namespace mlir

namespace tessera::frontend {

/// Triton's scalar dtypes. `int1` counts as unsigned, as in Triton.
enum class ScalarKind : uint8_t {
  Int1,
  Int8,
  Int16,
  Int32,
  Int64,
  UInt8,
  UInt16,
  UInt32,
  UInt64,
  FP8E4NV,  // f8E4M3FN
  FP8E4B8,  // f8E4M3FNUZ
  FP8E4B15, // f8E4M3B11FNUZ
  FP8E5,    // f8E5M2
  FP8E5B16, // f8E5M2FNUZ
  FP16,
  BF16,
  FP32,
  FP64,
  Void
};

/// Triton's kind ordering used by scalar promotion: bool < int < float.
enum class TypeKindOrder : uint8_t { Boolean = 0, Integral = 1, Floating = 2 };

/// A Triton-language type: a scalar dtype, a pointer (to a scalar, or to a
/// block for block pointers), a block (tensor) of scalars or pointers, or a
/// tensor descriptor. Cheap to copy.
class TType {
public:
  enum class Kind : uint8_t { Scalar, Pointer, Block, TensorDesc };

  TType() = default;
  static TType scalar(ScalarKind kind);
  /// A pointer; a const one (a `tl.const` parameter, `*k` in a signature)
  /// cannot be stored or atomically updated through.
  static TType pointer(const TType &pointee, int addressSpace = 1,
                       bool isConst = false);
  /// A block of `element` (a scalar or pointer type) with `shape`.
  static TType block(const TType &element, llvm::ArrayRef<int64_t> shape);
  /// A tensor descriptor whose loads return `blockType`.
  static TType tensorDesc(const TType &blockType);

  /// Parses Triton's dtype names: "fp32", "float32", "i32", "int32", "u8",
  /// "uint8", "bf16", "bfloat16", "fp8e4nv", "float8e4nv", "float8_e4m3fn",
  /// "i1", "int1", ... nullopt when unknown.
  static std::optional<ScalarKind> parseScalarName(llvm::StringRef name);
  /// The dtype a `triton.language.X` qualified name denotes, if any.
  static std::optional<TType> fromQualifiedName(llvm::StringRef name);

  Kind getKind() const { return kind; }
  bool isScalarType() const { return kind == Kind::Scalar; }
  bool isPointer() const { return kind == Kind::Pointer; }
  bool isBlock() const { return kind == Kind::Block; }
  bool isTensorDesc() const { return kind == Kind::TensorDesc; }
  /// A pointer to a block (`tl.make_block_ptr`).
  bool isBlockPointer() const { return isPointer() && inner->isBlock(); }

  /// Triton's `.scalar`: the element type of a block, else the type itself.
  const TType &getElement() const { return isBlock() ? *inner : *this; }
  /// The pointee of a pointer, the block of a descriptor.
  const TType &getPointee() const { return *inner; }
  const TType &getDescBlock() const { return *inner; }
  int getAddressSpace() const { return addressSpace; }
  /// A const pointer (Triton's `const_pointer<...>`).
  bool isConstPointer() const { return isPointer() && isConst; }
  /// The shape of a block (empty for anything else).
  llvm::ArrayRef<int64_t> getShape() const { return shape; }
  int64_t getNumElements() const;
  /// `element` with this type's shape (a block if this is one).
  TType withElement(const TType &element) const;

  /// The scalar kind of a scalar type or of the elements of a block.
  ScalarKind getScalarKind() const { return getElement().scalarKind; }
  bool isVoid() const {
    return kind == Kind::Scalar && scalarKind == ScalarKind::Void;
  }
  /// Predicates on the scalar (element) type, as Triton's dtype.is_*().
  bool isInt() const;
  bool isSignedInt() const;
  bool isUnsignedInt() const;
  bool isBool() const;
  bool isFloating() const;
  bool isStandardFloating() const;
  bool isFP8() const;
  bool isPtrElement() const { return getElement().isPointer(); }
  bool is(ScalarKind k) const {
    return getElement().isScalarType() && getElement().scalarKind == k;
  }
  /// Bits of the scalar (64 for pointers).
  unsigned getPrimitiveBitwidth() const;
  unsigned getFPMantissaWidth() const;
  TypeKindOrder getKindOrder() const;

  /// Triton's str(): "fp32", "pointer<fp16>", "const_pointer<fp16>",
  /// "<[16, 32], fp32>",
  /// "tensor_descriptor<fp16[64, 64]>".
  std::string str() const;
  /// Triton's repr of a dtype: "triton.language.float32".
  std::string repr() const;
  /// A compact, identifier-safe spelling used in mangled function names.
  std::string mangle() const;
  /// The MLIR type that carries a value of this type.
  mlir::Type toMLIR(mlir::MLIRContext *ctx) const;

  bool operator==(const TType &other) const;
  bool operator!=(const TType &other) const { return !(*this == other); }

private:
  Kind kind = Kind::Scalar;
  ScalarKind scalarKind = ScalarKind::Void;
  int addressSpace = 1;
  bool isConst = false;
  std::vector<int64_t> shape;
  std::shared_ptr<const TType> inner;
};

/// The name of a scalar kind ("fp32", "int32", ...).
llvm::StringRef getScalarName(ScalarKind kind);
/// Integer dtype of `bits` bits (1, 8, 16, 32, 64) and signedness.
ScalarKind getIntKind(unsigned bits, bool isSigned);

} // namespace tessera::frontend

#endif // TESSERA_FRONTEND_CODEGEN_TYPES_H
