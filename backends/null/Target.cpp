//===- Target.cpp - What the null backend's target can do -----------------===//
#include "NullBackend.h"

using namespace mlir::tessera;

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
  // the same work here as for real hardware. A real backend states what
  // its hardware has: matrix instructions, shared memory, dtypes, ...
  TargetDescription target;
  target.backend = kNullBackendName;
  target.arch = kNullGenericArch;
  return target;
}
