//===- Value.h - What device-code expressions evaluate to -------*- C++ -*-===//
//
// Lowering a jit function evaluates every expression to a Value, which is
// one of:
//  - a constexpr: a compile-time HostValue (None, bool, int, float, str, a
//    module or builtin known by its qualified name, a jit function, ...);
//  - a type: a dtype such as tl.float16 or tl.pointer_type(tl.int8) (Triton
//    treats dtypes as constexprs too);
//  - a tensor: an MLIR value with its TType (scalar or block);
//  - a tuple of Values (Triton's tl.tuple; lists in device code are tuples);
//  - a tensor descriptor: its MLIR value plus its shape and strides;
//  - a bound method: `x.to`, `desc.load`, waiting for its call.
//
// Values are immutable and cheap to copy.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_FRONTEND_CODEGEN_VALUE_H
#define TESSERA_FRONTEND_CODEGEN_VALUE_H

#include "tessera/Frontend/Codegen/Types.h"
#include "tessera/Frontend/HostValue.h"

#include "mlir/IR/Value.h"
#include "llvm/ADT/SmallVector.h"

namespace tessera::frontend {

class Value {
public:
  enum class Kind : uint8_t {
    Constexpr,
    Type,
    Tensor,
    Tuple,
    Descriptor,
    Method
  };

  Value() = default;
  static Value constant(HostValue v);
  static Value none() { return constant(HostValue::none()); }
  static Value type(TType t);
  static Value tensor(mlir::Value handle, TType type);
  static Value tuple(std::vector<Value> elts);
  /// A descriptor value: `handle` of type `descType`, with its global shape
  /// (i32 scalars) and strides (i64 scalars).
  static Value descriptor(mlir::Value handle, TType descType,
                          std::vector<Value> shape, std::vector<Value> strides);
  /// `self.name`, to be called.
  static Value method(Value self, std::string name);
  /// Converts a host value: dtype symbols become types, lists and tuples
  /// become tuples, everything else stays a constexpr.
  static Value fromHost(const HostValue &v);

  Kind getKind() const { return kind; }
  bool isConstexpr() const { return kind == Kind::Constexpr; }
  bool isType() const { return kind == Kind::Type; }
  bool isTensor() const { return kind == Kind::Tensor; }
  bool isTuple() const { return kind == Kind::Tuple; }
  bool isDescriptor() const { return kind == Kind::Descriptor; }
  bool isMethod() const { return kind == Kind::Method; }
  bool isNone() const { return isConstexpr() && host.isNone(); }
  /// Triton's _is_constexpr: constexprs, dtypes and jit functions; these
  /// specialize a callee instead of being passed at run time.
  bool isConstexprLike() const { return isConstexpr() || isType(); }
  /// A constexpr int, bool or float (a Python number).
  bool isNumber() const { return isConstexpr() && host.isNumber(); }
  /// A tensor or descriptor, or a tuple containing one: something that lives
  /// in IR (Triton's base_value minus constexprs).
  bool isIRValue() const;
  /// A tensor of a block type.
  bool isBlock() const { return isTensor() && ty.isBlock(); }

  const HostValue &getHost() const { return host; }
  /// The type of a tensor or descriptor, or the dtype a Type value names.
  const TType &getType() const { return ty; }
  mlir::Value getHandle() const { return handle; }
  llvm::ArrayRef<Value> getElements() const { return *elts; }
  /// For a method: the object it is bound to.
  const Value &getSelf() const { return (*elts)[0]; }
  llvm::StringRef getMethodName() const { return name; }
  /// For a descriptor: its shape and strides.
  const Value &getDescShape() const { return (*elts)[0]; }
  const Value &getDescStrides() const { return (*elts)[1]; }

  /// The host value of a constexpr or type (a dtype becomes its qualified
  /// name), or of a tuple of those; nullopt otherwise.
  std::optional<HostValue> toHost() const;

  /// Appends the MLIR values this value is made of (tensors, descriptors and
  /// their shapes, tuple elements in order; constexprs contribute none).
  void flatten(llvm::SmallVectorImpl<mlir::Value> &out) const;
  /// The same structure with handles taken, in order, from `handles`
  /// starting at `cursor` (which advances).
  Value unflatten(llvm::ArrayRef<mlir::Value> handles, size_t &cursor) const;
  /// The MLIR types flatten() would produce.
  void flattenTypes(mlir::MLIRContext *ctx,
                    llvm::SmallVectorImpl<mlir::Type> &out) const;

  /// Triton's type equality of two values: same kind and type; constexprs
  /// compare by value.
  bool sameType(const Value &other) const;
  /// How the value's type reads in diagnostics ("fp32", "<[16], fp32>",
  /// "constexpr[16]", "tuple(...)").
  std::string typeStr() const;
  /// How a constexpr reads in mangled names and specialization keys.
  std::string reprConstexpr() const;

private:
  Kind kind = Kind::Constexpr;
  HostValue host;
  TType ty;
  mlir::Value handle;
  std::shared_ptr<const std::vector<Value>> elts;
  std::string name;
};

} // namespace tessera::frontend

#endif // TESSERA_FRONTEND_CODEGEN_VALUE_H
