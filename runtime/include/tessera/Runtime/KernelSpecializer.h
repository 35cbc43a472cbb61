//===- KernelSpecializer.h - Specialization from launch arguments -*- C++
//-*-===//
//
// A launch compiles (or finds) the kernel specialized for its arguments, as
// Triton does: pointers are marked divisible by 16 when their address is,
// integers equal to 1 become the constant 1 and other integers are marked
// divisible by 16 when they are; an integer is i32 when it fits, else i64;
// floats are fp32, bools i1; host-built tensor descriptors are
// `tensordesc<dtype[block]>`; None, strings and dtypes are constants; and
// constexpr parameters are baked in. The result is written in Triton's
// ahead-of-time signature syntax (`*fp32:16,*fp32:16,i32,1024`), which is
// at once what the frontend compiles and the in-memory dispatch key.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_RUNTIME_KERNELSPECIALIZER_H
#define TESSERA_RUNTIME_KERNELSPECIALIZER_H

#include "tessera/Runtime/KernelArg.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>

namespace mlir::tessera::runtime {

/// What the runtime knows of one parameter of a @triton.jit function.
struct KernelParamInfo {
  std::string name;
  /// Annotated tl.constexpr: baked into the code, never passed.
  bool isConstexpr = false;
  /// Listed in do_not_specialize: neither `:16` nor `== 1`.
  bool doNotSpecialize = false;
  /// Listed in do_not_specialize_on_alignment: no `:16`.
  bool doNotSpecializeOnAlignment = false;
  /// The default value of the def, when it has one the host could evaluate.
  std::optional<KernelArg> defaultValue;
};

/// The specialization of one launch.
struct ArgumentSpecialization {
  /// The ahead-of-time signature, one entry per parameter.
  std::string signature;
  /// Indices of the parameters passed to the compiled kernel, in order; a
  /// tensor descriptor's index repeats once per value it is passed as
  /// (KernelArg::getNumLaunchValues()), so that there is one entry per
  /// compiled kernel parameter.
  llvm::SmallVector<unsigned, 16> runtimeParams;
};

/// Appends to `signature` the entry of `arg` bound to `param` (no comma).
/// Returns whether the value is passed at launch; fails naming the
/// parameter when the value cannot be passed (a pointer without element
/// type, a pointer for a constexpr).
llvm::Expected<bool> appendSignatureEntry(const KernelParamInfo &param,
                                          const KernelArg &arg,
                                          std::string &signature);

/// The specialization of `args`, one per parameter of `params`.
llvm::Expected<ArgumentSpecialization>
specializeArguments(llvm::ArrayRef<KernelParamInfo> params,
                    llvm::ArrayRef<KernelArg> args);

} // namespace mlir::tessera::runtime

#endif // TESSERA_RUNTIME_KERNELSPECIALIZER_H
