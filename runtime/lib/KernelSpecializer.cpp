//===- KernelSpecializer.cpp - Specialization from launch arguments -------===//
#include "tessera/Runtime/KernelSpecializer.h"

#include <limits>

using namespace mlir::tessera::runtime;

static llvm::Error paramError(const KernelParamInfo &param,
                              const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "argument '" + param.name + "': " + message);
}

llvm::Expected<bool>
mlir::tessera::runtime::appendSignatureEntry(const KernelParamInfo &param,
                                             const KernelArg &arg,
                                             std::string &signature) {
  if (param.isConstexpr) {
    if (arg.isPointer())
      return paramError(param, "a tl.constexpr parameter cannot take " +
                                   arg.describe());
    signature += arg.repr();
    return false;
  }
  bool alignment = !param.doNotSpecialize && !param.doNotSpecializeOnAlignment;
  switch (arg.getKind()) {
  case KernelArg::Kind::None:
  case KernelArg::Kind::String:
  case KernelArg::Kind::DType:
    // Triton makes these constants whatever the annotation says.
    signature += arg.repr();
    return false;
  case KernelArg::Kind::Bool:
    signature += "i1";
    return true;
  case KernelArg::Kind::Float:
    signature += "fp32";
    return true;
  case KernelArg::Kind::Int: {
    int64_t value = arg.getInt();
    bool fits32 = value >= std::numeric_limits<int32_t>::min() &&
                  value <= std::numeric_limits<int32_t>::max();
    signature += fits32 ? "i32" : "i64";
    if (value == 1 && !param.doNotSpecialize) {
      signature += ":1";
      return false;
    }
    if (alignment && value % 16 == 0)
      signature += ":16";
    return true;
  }
  case KernelArg::Kind::UInt:
    // As Triton: integers in [2^63, 2^64) are u64 (never 1).
    signature += "u64";
    if (alignment && arg.getUInt() % 16 == 0)
      signature += ":16";
    return true;
  case KernelArg::Kind::Pointer:
    if (arg.getText().empty())
      return paramError(param, "the pointer has no element type; allocate "
                               "the buffer with one or pass "
                               "KernelArg::pointer(address, type)");
    signature += "*";
    signature += arg.getText();
    if (alignment && arg.getAddress() % 16 == 0)
      signature += ":16";
    return true;
  }
  return false;
}

llvm::Expected<ArgumentSpecialization>
mlir::tessera::runtime::specializeArguments(
    llvm::ArrayRef<KernelParamInfo> params, llvm::ArrayRef<KernelArg> args) {
  assert(params.size() == args.size() && "one argument per parameter");
  ArgumentSpecialization result;
  result.signature.reserve(16 * params.size());
  for (unsigned i = 0, e = params.size(); i < e; ++i) {
    if (i)
      result.signature += ',';
    llvm::Expected<bool> passed =
        appendSignatureEntry(params[i], args[i], result.signature);
    if (!passed)
      return passed.takeError();
    if (*passed)
      result.runtimeParams.push_back(i);
  }
  return result;
}
