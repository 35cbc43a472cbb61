//===- Driver.cpp - The null backend's devices: none ----------------------===//
//
// The null backend runs nothing, so its driver is the SDK's NoDeviceDriver:
// zero devices, and every call fails saying why. A backend with hardware
// implements tessera/Backend/Driver.h here over its vendor's driver API
// (see backends/nvptx/CudaDriver.cpp and backends/amdgpu/HipDriver.cpp):
// devices and their properties, memory, modules, launches, synchronization.
//
//===----------------------------------------------------------------------===//
#include "NullBackend.h"

using namespace mlir::tessera;

Driver &NullBackend::getDriver() { return driver; }
