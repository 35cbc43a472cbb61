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

/// Devices, memory, modules and launches through the HIP runtime (module
/// API). Every call selects its device on the calling thread first, since
/// HIP's current device is per thread. Everything goes on each device's
/// null stream, so copies, fills and launches stay ordered. Thread-safe.
class HipDriver final : public Driver {
public:
  /// Loads `library` when first needed; when empty, the first of
  /// libamdhip64.so.7, libamdhip64.so.6, libamdhip64.so and
  /// /opt/rocm/lib/libamdhip64.so that loads.
  explicit HipDriver(std::string library = {});
  ~HipDriver() override;

  unsigned getDeviceCount() override;
  std::string getUnavailableReason() override;
  /// Properties through hipDeviceGetAttribute; `arch` is the device's
  /// gcnArchName without its features, e.g. "gfx942".
  llvm::Expected<DeviceProperties>
  getDeviceProperties(unsigned device) override;
  llvm::Expected<uint64_t> allocate(unsigned device, size_t bytes) override;
  llvm::Error deallocate(unsigned device, uint64_t address) override;
  llvm::Error copyToDevice(unsigned device, uint64_t dst, const void *src,
                           size_t bytes) override;
  llvm::Error copyToHost(unsigned device, void *dst, uint64_t src,
                         size_t bytes) override;
  llvm::Error fill(unsigned device, uint64_t dst, uint8_t byte,
                   size_t bytes) override;

  /// Loads a kernel whose `format` is "hsaco" (an AMDGPU code object).
  llvm::Expected<ModuleHandle>
  loadModule(unsigned device, const CompiledKernel &kernel) override;
  llvm::Error unloadModule(ModuleHandle module) override;
  /// Launches numWarps * threadsPerWarp threads per workgroup; the
  /// wavefront size must be the one the kernel was compiled for.
  llvm::Error launch(ModuleHandle module, const LaunchConfig &config,
                     llvm::ArrayRef<void *> args) override;
  llvm::Error synchronize(unsigned device) override;
  /// Device time between HIP events recorded around `work` on the null
  /// stream.
  llvm::Expected<double>
  timeMilliseconds(unsigned device,
                   const std::function<llvm::Error()> &work) override;

  /// Registers, private memory and LDS of a loaded kernel.
  llvm::Expected<KernelResources> getKernelResources(ModuleHandle module);

  /// The runtime's version (hipDriverGetVersion); 0 without a runtime.
  int getDriverVersion();

  struct Impl;

private:
  std::unique_ptr<Impl> impl;
};

} // namespace mlir::tessera::amdgpu

#endif // TESSERA_BACKENDS_AMDGPU_HIPDRIVER_H
