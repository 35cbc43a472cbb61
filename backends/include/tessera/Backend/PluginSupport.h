//===- PluginSupport.h - What every plugin's entry point shares -*- C++ -*-===//
//
// The pieces of a plugin's Plugin.cpp that do not depend on its target:
// the create and destroy functions its TesseraPluginDescriptor points to,
// and the choice of target description a plugin with devices makes.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_BACKEND_PLUGINSUPPORT_H
#define TESSERA_BACKEND_PLUGINSUPPORT_H

#include "tessera/Backend/Backend.h"

#include "llvm/ADT/STLFunctionalExtras.h"

namespace mlir::tessera {

/// The descriptor's createBackend for a backend whose construction cannot
/// fail (it does no work: devices are opened on first use, and their
/// absence is a driver status, not a failure).
template <typename BackendT> void *createBackendInstance(char ** /*error*/) {
  return static_cast<Backend *>(new BackendT());
}

/// The descriptor's destroyBackend.
void destroyBackendInstance(void *backend);

/// What describe(`arch`) gives for a target with devices: `arch`'s
/// description when one is named, else the first device's
/// (`describeDevice`, refined from its properties), else the description
/// of `defaultArch`.
llvm::Expected<TargetDescription> describeArchOrDevice(
    Driver &driver, llvm::StringRef arch, llvm::StringRef defaultArch,
    llvm::function_ref<llvm::Expected<TargetDescription>(llvm::StringRef)>
        describeArch,
    llvm::function_ref<
        llvm::Expected<TargetDescription>(const DeviceProperties &)>
        describeDevice);

} // namespace mlir::tessera

#endif // TESSERA_BACKEND_PLUGINSUPPORT_H
