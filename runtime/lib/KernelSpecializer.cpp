//===- KernelSpecializer.cpp - Specialization from launch arguments -------===//
#include "tessera/Runtime/KernelSpecializer.h"

#include "tessera/Runtime/ScalarTypes.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

#include <limits>

using namespace mlir::tessera::runtime;

static llvm::Error paramError(const KernelParamInfo &param,
                              const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "argument '" + param.name + "': " + message);
}

/// Triton's checks of a TensorDescriptor (tools/tensor_descriptor.py): what
/// the kernel and a tensor map rely on.
static llvm::Error checkDescriptor(const KernelParamInfo &param,
                                   const TensorDescriptorArg &desc) {
  size_t rank = desc.shape.size();
  if (rank == 0 || rank > 5)
    return paramError(param, "a tensor descriptor has rank 1 to 5, this one " +
                                 llvm::Twine(rank));
  if (desc.strides.size() != rank || desc.blockShape.size() != rank)
    return paramError(param, "the descriptor's shape, strides and block "
                             "shape must have the same rank");
  const ScalarTypeInfo *info = lookupScalarType(desc.elementType);
  if (!info)
    return paramError(param, "unknown descriptor element type '" +
                                 desc.elementType + "'");
  int64_t elementBytes = std::max<int64_t>(1, info->bits / 8);
  if (desc.base % 16 != 0)
    return paramError(param, "the descriptor's base must be 16-byte aligned");
  for (size_t d = 0; d < rank; ++d) {
    if (desc.shape[d] <= 0)
      return paramError(param, "the descriptor's shape must be positive");
    if (desc.shape[d] > std::numeric_limits<int32_t>::max())
      return paramError(param, "the descriptor's shape must fit in 32 bits");
    int64_t block = desc.blockShape[d];
    if (block <= 0 || !llvm::isPowerOf2_64(uint64_t(block)))
      return paramError(param, "the descriptor's block shape must be powers "
                               "of 2, got " +
                                   llvm::Twine(block));
    if (d + 1 < rank && (desc.strides[d] * elementBytes) % 16 != 0)
      return paramError(param, "the descriptor's strides must be 16-byte "
                               "aligned (all but the last)");
  }
  if (desc.strides.back() != 1)
    return paramError(param, "the descriptor's last dimension must be "
                             "contiguous (stride 1), got stride " +
                                 llvm::Twine(desc.strides.back()));
  if (desc.nanPadding && info->cls != ScalarClass::Float)
    return paramError(param, "NaN padding needs a floating-point element "
                             "type, got " +
                                 desc.elementType);
  return llvm::Error::success();
}

/// Whether `arg` is a compile-time constant: no address, no descriptor,
/// in a tuple neither.
static bool isConstant(const KernelArg &arg) {
  if (arg.isPointer() || arg.isTensorDesc())
    return false;
  return llvm::all_of(arg.getElements(), isConstant);
}

llvm::Expected<bool>
mlir::tessera::runtime::appendSignatureEntry(const KernelParamInfo &param,
                                             const KernelArg &arg,
                                             std::string &signature) {
  if (param.isConstexpr) {
    if (!isConstant(arg))
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
  case KernelArg::Kind::Tuple:
    // Triton passes a tuple to a plain parameter as a tuple of run-time
    // values; Tessera's kernels take tuples as constants only.
    return paramError(param, "a tuple can only be passed to a tl.constexpr "
                             "parameter, got " +
                                 arg.describe());
  case KernelArg::Kind::TensorDesc: {
    const TensorDescriptorArg &desc = arg.getTensorDesc();
    if (llvm::Error err = checkDescriptor(param, desc))
      return std::move(err);
    signature += "tensordesc<" + desc.elementType + "[";
    for (size_t d = 0; d < desc.blockShape.size(); ++d)
      signature += (d ? ", " : "") + std::to_string(desc.blockShape[d]);
    signature += desc.nanPadding ? "],nan>" : "]>";
    return true;
  }
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
    // A descriptor is passed as several values, each taking its index.
    if (*passed)
      result.runtimeParams.append(args[i].getNumLaunchValues(), i);
  }
  return result;
}
