//===- Value.cpp - What device-code expressions evaluate to ---------------===//
#include "tessera/Frontend/Codegen/Value.h"

#include "tessera/Frontend/PyFormat.h"

#include "mlir/IR/BuiltinTypes.h"

using namespace tessera::frontend;

Value Value::constant(HostValue v) {
  Value r;
  r.kind = Kind::Constexpr;
  r.host = std::move(v);
  return r;
}

Value Value::type(TType t) {
  Value r;
  r.kind = Kind::Type;
  r.ty = std::move(t);
  return r;
}

Value Value::tensor(mlir::Value handle, TType type) {
  Value r;
  r.kind = Kind::Tensor;
  r.handle = handle;
  r.ty = std::move(type);
  return r;
}

Value Value::tuple(std::vector<Value> elts) {
  Value r;
  r.kind = Kind::Tuple;
  r.elts = std::make_shared<const std::vector<Value>>(std::move(elts));
  return r;
}

Value Value::descriptor(mlir::Value handle, TType descType,
                        std::vector<Value> shape, std::vector<Value> strides) {
  Value r;
  r.kind = Kind::Descriptor;
  r.handle = handle;
  r.ty = std::move(descType);
  r.elts = std::make_shared<const std::vector<Value>>(
      std::vector<Value>{tuple(std::move(shape)), tuple(std::move(strides))});
  return r;
}

Value Value::method(Value self, std::string name) {
  Value r;
  r.kind = Kind::Method;
  r.elts = std::make_shared<const std::vector<Value>>(
      std::vector<Value>{std::move(self)});
  r.name = std::move(name);
  return r;
}

Value Value::fromHost(const HostValue &v) {
  if (v.isSymbol())
    if (std::optional<TType> t = TType::fromQualifiedName(v.getString()))
      return type(*t);
  if (v.isSequence()) {
    std::vector<Value> elts;
    for (const HostValue &e : v.getElements())
      elts.push_back(fromHost(e));
    return tuple(std::move(elts));
  }
  return constant(v);
}

bool Value::isIRValue() const {
  switch (kind) {
  case Kind::Tensor:
  case Kind::Descriptor:
    return true;
  case Kind::Tuple:
    return llvm::any_of(*elts, [](const Value &v) { return v.isIRValue(); });
  default:
    return false;
  }
}

std::optional<HostValue> Value::toHost() const {
  switch (kind) {
  case Kind::Constexpr:
    return host;
  case Kind::Type:
    if (ty.isScalarType())
      return HostValue::symbol(ty.repr());
    return std::nullopt;
  case Kind::Tuple: {
    std::vector<HostValue> out;
    for (const Value &e : *elts) {
      std::optional<HostValue> h = e.toHost();
      if (!h)
        return std::nullopt;
      out.push_back(*h);
    }
    return HostValue::tuple(std::move(out));
  }
  default:
    return std::nullopt;
  }
}

void Value::flatten(llvm::SmallVectorImpl<mlir::Value> &out) const {
  switch (kind) {
  case Kind::Tensor:
    out.push_back(handle);
    return;
  case Kind::Descriptor:
    out.push_back(handle);
    (*elts)[0].flatten(out);
    (*elts)[1].flatten(out);
    return;
  case Kind::Tuple:
    for (const Value &e : *elts)
      e.flatten(out);
    return;
  default:
    return;
  }
}

Value Value::unflatten(llvm::ArrayRef<mlir::Value> handles,
                       size_t &cursor) const {
  switch (kind) {
  case Kind::Tensor:
    return tensor(handles[cursor++], ty);
  case Kind::Descriptor: {
    mlir::Value h = handles[cursor++];
    Value shape = (*elts)[0].unflatten(handles, cursor);
    Value strides = (*elts)[1].unflatten(handles, cursor);
    return descriptor(h, ty, shape.getElements().vec(),
                      strides.getElements().vec());
  }
  case Kind::Tuple: {
    std::vector<Value> out;
    for (const Value &e : *elts)
      out.push_back(e.unflatten(handles, cursor));
    return tuple(std::move(out));
  }
  default:
    return *this;
  }
}

void Value::flattenTypes(mlir::MLIRContext *ctx,
                         llvm::SmallVectorImpl<mlir::Type> &out) const {
  switch (kind) {
  case Kind::Tensor:
    out.push_back(ty.toMLIR(ctx));
    return;
  case Kind::Descriptor:
    out.push_back(ty.toMLIR(ctx));
    (*elts)[0].flattenTypes(ctx, out);
    (*elts)[1].flattenTypes(ctx, out);
    return;
  case Kind::Tuple:
    for (const Value &e : *elts)
      e.flattenTypes(ctx, out);
    return;
  default:
    return;
  }
}

bool Value::sameType(const Value &other) const {
  if (kind != other.kind)
    return false;
  switch (kind) {
  case Kind::Constexpr:
    return host.getKind() == other.host.getKind() && host.equals(other.host);
  case Kind::Type:
  case Kind::Tensor:
    return ty == other.ty;
  case Kind::Descriptor:
    return ty == other.ty && (*elts)[0].sameType((*other.elts)[0]) &&
           (*elts)[1].sameType((*other.elts)[1]);
  case Kind::Tuple:
    if (elts->size() != other.elts->size())
      return false;
    for (size_t i = 0; i < elts->size(); ++i)
      if (!(*elts)[i].sameType((*other.elts)[i]))
        return false;
    return true;
  case Kind::Method:
    return false;
  }
  return false;
}

std::string Value::typeStr() const {
  switch (kind) {
  case Kind::Constexpr:
    return "constexpr[" + host.repr() + "]";
  case Kind::Type:
    return "dtype " + ty.str();
  case Kind::Tensor:
  case Kind::Descriptor:
    return ty.str();
  case Kind::Tuple: {
    std::string s = "tuple(";
    for (size_t i = 0; i < elts->size(); ++i)
      s += (i ? ", " : "") + (*elts)[i].typeStr();
    return s + ")";
  }
  case Kind::Method:
    return "method '" + name + "'";
  }
  return "?";
}

std::string Value::reprConstexpr() const {
  switch (kind) {
  case Kind::Constexpr:
    if (host.isFunction())
      return host.getFunction().name;
    return host.repr();
  case Kind::Type:
    return ty.repr();
  case Kind::Tuple: {
    std::string s = "(";
    for (size_t i = 0; i < elts->size(); ++i)
      s += (i ? ", " : "") + (*elts)[i].reprConstexpr();
    return s + (elts->size() == 1 ? ",)" : ")");
  }
  default:
    return typeStr();
  }
}
