//===- Target.cpp - What the null backend's target can do -----------------===//
#include "NullBackend.h"

using namespace mlir::tessera;

// TODO(newtarget): your architectures, the default first.
std::vector<std::string> null::getArchitectures() { return {kGenericArch}; }

llvm::Expected<TargetDescription> null::describeArch(llvm::StringRef arch) {
  if (arch != kGenericArch)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "the null backend has no architecture '" +
                                       arch + "'; it has: " + kGenericArch);
  // The defaults describe a plain GPU-shaped target (32-thread warps, no
  // matrix instructions, no asynchronous copies), so the core's stages do
  // the same work here as for real hardware.
  // TODO(newtarget): what your hardware has (warp size, shared memory,
  // matrix instructions, dtypes, ...: TargetDescription.h).
  TargetDescription target;
  target.backend = kBackendName;
  target.arch = kGenericArch;
  return target;
}

llvm::Expected<TargetDescription>
null::describeDevice(const DeviceProperties &props) {
  // No device ever reaches here: the driver has none.
  // TODO(newtarget): the architecture's description refined from what the
  // device reports (shared memory, registers, processors, clocks; see
  // nvptx::describeDevice).
  return describeArch(props.arch);
}
