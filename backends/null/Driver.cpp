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

using namespace mlir::tessera;

Driver &NullBackend::getDriver() { return driver; }
