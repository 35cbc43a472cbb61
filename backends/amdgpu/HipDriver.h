//===- HipDriver.h - AMD GPUs through the HIP runtime -----------*- C++ -*-===//
//
// The Driver of the AMDGPU backend. libamdhip64 is loaded with dlopen on
// first use, never linked, so the library loads on machines without ROCm
// and reports "no device" with the reason instead.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_BACKENDS_AMDGPU_HIPDRIVER_H
#define TESSERA_BACKENDS_AMDGPU_HIPDRIVER_H

#include "tessera/Backend/Driver.h"

#include "llvm/ADT/StringRef.h"

#include <memory>
#include <string>

namespace mlir::tessera::amdgpu {

/// What the HIP runtime says about a loaded kernel; -1 where it did not
/// answer (hipFuncGetAttribute is not supported by every runtime).
struct KernelResources {
  /// Vector registers per thread (hipFuncGetAttribute NUM_REGS).
  int registers = -1;
  /// Private (scratch) memory per thread in bytes, where spills go
  /// (LOCAL_SIZE_BYTES).
  int spillBytes = -1;
  /// Static LDS per workgroup in bytes (SHARED_SIZE_BYTES).
  int staticSharedBytes = -1;
  /// Most threads per workgroup a launch may use (MAX_THREADS_PER_BLOCK).
  int maxThreadsPerBlock = -1;
};

/// The architecture in a HIP gcnArchName: "gfx942" of
/// "gfx942:sramecc+:xnack-" (the target features are dropped).
std::string archFromGcnArchName(llvm::StringRef gcnArchName);

/// Devices, memory, modules and launches through the HIP runtime's module
/// API (the Driver contract), and what only HIP answers. Every call selects
/// its device on the calling thread first, since HIP's current device is per
/// thread. Everything goes on each device's null stream, so copies, fills
/// and launches stay ordered. loadModule takes "hsaco" (an AMDGPU code
/// object); a launch's wavefront size must be the one the kernel was
/// compiled for. Properties come from hipDeviceGetAttribute; `arch` is the
/// device's gcnArchName without its features, e.g. "gfx942". Thread-safe.
class HipDriver : public Driver {
public:
  /// Registers, private memory and LDS of a loaded kernel.
  virtual llvm::Expected<KernelResources>
  getKernelResources(ModuleHandle module) = 0;

  /// The runtime's version (hipDriverGetVersion); 0 without a runtime.
  virtual int getDriverVersion() = 0;
};

/// A HipDriver that loads `library` when first needed; when empty, the
/// first of libamdhip64.so.7, libamdhip64.so.6, libamdhip64.so and
/// /opt/rocm/lib/libamdhip64.so that loads.
std::unique_ptr<HipDriver> createHipDriver(std::string library = {});

} // namespace mlir::tessera::amdgpu

#endif // TESSERA_BACKENDS_AMDGPU_HIPDRIVER_H
