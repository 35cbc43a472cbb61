//===- Target.cpp - What the null backend's target can do -----------------===//
#include "NullBackend.h"

using namespace mlir::tessera;

// TODO(newtarget): your architectures, the default first.
std::vector<std::string> NullBackend::getArchitectures() const {
  return {kNullGenericArch};
}

llvm::Expected<TargetDescription> NullBackend::describe(llvm::StringRef arch) {
  // No device ever says otherwise, so the default is the only one.
  if (!arch.empty() && arch != kNullGenericArch)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "the null backend has no architecture '" +
                                       arch + "'; it has: " + kNullGenericArch);
  // The defaults describe a plain GPU-shaped target (32-thread warps, no
  // matrix instructions, no asynchronous copies), so the core's stages do
  // the same work here as for real hardware.
  // TODO(newtarget): what your hardware has (warp size, shared memory,
  // matrix instructions, dtypes, ...: TargetDescription.h), and refined
  // from a present device's properties (see nvptx::refineForDevice).
  TargetDescription target;
  target.backend = kNullBackendName;
  target.arch = kNullGenericArch;
  return target;
}
