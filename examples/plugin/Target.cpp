//===- Target.cpp - What the example target can do ------------------------===//
//
// The description steers the vendor-free stages: the warp size and vector
// width shape the layouts, shared memory bounds pipelining; no matrix
// instructions means dots become FMAs, no dtypes listed means all. A real
// backend reads the device's properties here when a device is present.
//
//===----------------------------------------------------------------------===//
#include "ExampleBackend.h"

using namespace example;

std::vector<std::string> ExampleBackend::getArchitectures() const {
  return {kArch};
}

llvm::Expected<mlir::tessera::TargetDescription>
ExampleBackend::describe(llvm::StringRef arch) {
  if (!arch.empty() && arch != kArch)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "the example backend has no architecture '" +
                                       arch + "'; it has: " + kArch);
  mlir::tessera::TargetDescription target;
  target.backend = TESSERA_PLUGIN_NAME;
  target.arch = kArch;
  target.warpSize = 32;
  target.maxThreadsPerBlock = 1024;
  target.sharedMemoryPerBlock = 64 * 1024;
  target.maxSharedMemoryPerBlock = 64 * 1024;
  target.maxVectorBits = 128;
  return target;
}
