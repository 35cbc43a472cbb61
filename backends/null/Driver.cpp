//===- Driver.cpp - The null backend's devices: none ----------------------===//
//
// The null backend runs nothing, so its driver is the SDK's NoDeviceDriver:
// zero devices, and every call fails saying why.
// TODO(newtarget): implement tessera/Backend/Driver.h over your driver API
// (see backends/nvptx/CudaDriver.cpp and backends/amdgpu/HipDriver.cpp):
// devices and their properties, memory, modules, launches (the
// CompiledKernel's params and launch shape), synchronization. Load the
// vendor's library at run time, so the plugin loads where it is absent.
//
//===----------------------------------------------------------------------===//
#include "NullBackend.h"

#include "tessera/Backend/NoDeviceDriver.h"

using namespace mlir::tessera;

std::unique_ptr<Driver> null::createDriver() {
  return std::make_unique<NoDeviceDriver>(kBackendName,
                                          "the null backend has no devices");
}
