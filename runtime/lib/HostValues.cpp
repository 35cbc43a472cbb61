//===- HostValues.cpp - Launch values as kernel-file values ---------------===//
#include "tessera/Runtime/HostValues.h"

#include "tessera/Runtime/ScalarTypes.h"

using namespace mlir::tessera::runtime;
using ::tessera::frontend::HostValue;

HostValue mlir::tessera::runtime::toHostValue(const KernelArg &arg) {
  switch (arg.getKind()) {
  case KernelArg::Kind::None:
    return HostValue::none();
  case KernelArg::Kind::Bool:
    return HostValue::boolean(arg.getBool());
  case KernelArg::Kind::Int:
    return HostValue::integer(arg.getInt());
  case KernelArg::Kind::UInt:
    // Host values are 64-bit signed integers: one this large stays opaque
    // rather than wrapping to a negative number.
    return HostValue::symbol("tessera.uint64[" + arg.repr() + "]");
  case KernelArg::Kind::Float:
    return HostValue::floating(arg.getFloat());
  case KernelArg::Kind::String:
    return HostValue::string(arg.getText().str());
  case KernelArg::Kind::DType: {
    const ScalarTypeInfo *info = lookupScalarType(arg.getText());
    return HostValue::symbol(
        "triton.language." +
        (info ? info->languageName.str() : arg.getText().str()));
  }
  case KernelArg::Kind::Pointer:
    return HostValue::symbol("tessera.pointer[" + arg.getText().str() + "]");
  case KernelArg::Kind::TensorDesc:
    // Opaque to host code (heuristics see that it is one, not its fields).
    return HostValue::symbol("tessera.tensor_descriptor[" +
                             arg.getText().str() + "]");
  case KernelArg::Kind::Tuple: {
    HostValue::Elements elements;
    for (const KernelArg &e : arg.getElements())
      elements.push_back(toHostValue(e));
    return HostValue::tuple(std::move(elements));
  }
  }
  return HostValue::none();
}

llvm::Expected<KernelArg>
mlir::tessera::runtime::fromHostValue(const HostValue &value,
                                      llvm::StringRef what) {
  switch (value.getKind()) {
  case HostValue::Kind::None:
    return KernelArg::none();
  case HostValue::Kind::Bool:
    return KernelArg::boolean(value.getBool());
  case HostValue::Kind::Int:
    return KernelArg::integer(value.getInt());
  case HostValue::Kind::Float:
    return KernelArg::floating(value.getFloat());
  case HostValue::Kind::String:
    return KernelArg::string(value.getString());
  case HostValue::Kind::Tuple: {
    std::vector<KernelArg> elements;
    for (const HostValue &e : value.getElements()) {
      llvm::Expected<KernelArg> arg = fromHostValue(e, what);
      if (!arg)
        return arg.takeError();
      elements.push_back(std::move(*arg));
    }
    return KernelArg::tuple(std::move(elements));
  }
  case HostValue::Kind::Symbol: {
    llvm::StringRef name = value.getString();
    if (name.consume_front("triton.language."))
      if (const ScalarTypeInfo *info = lookupLanguageType(name))
        return KernelArg::dtype(info->name);
    break;
  }
  default:
    break;
  }
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 what + " is " + value.repr() + " (a " +
                                     value.getTypeName() +
                                     "), which a kernel cannot take");
}
