//===- CudaDriver.h - NVIDIA GPUs through the CUDA driver -------*- C++ -*-===//
//
// The Driver of the NVPTX backend. libcuda.so.1 is loaded with dlopen on
// first use, never linked, so the library loads on machines without the
// NVIDIA driver and reports "no device" with the reason instead.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_BACKENDS_NVPTX_CUDADRIVER_H
#define TESSERA_BACKENDS_NVPTX_CUDADRIVER_H

#include "tessera/Backend/Driver.h"

#include <memory>
#include <string>

namespace mlir::tessera::nvptx {

/// The default library the driver loads.
inline constexpr char kCudaLibrary[] = "libcuda.so.1";

/// What the CUDA driver says about a loaded kernel.
struct KernelResources {
  /// Registers per thread (cuFuncGetAttribute NUM_REGS).
  int registers = 0;
  /// Local memory per thread in bytes, where spills go (LOCAL_SIZE_BYTES).
  int spillBytes = 0;
  /// Static shared memory per block in bytes (SHARED_SIZE_BYTES).
  int staticSharedBytes = 0;
  /// Most threads per block a launch may use (MAX_THREADS_PER_BLOCK).
  int maxThreadsPerBlock = 0;
  /// Architecture of the loaded binary, e.g. 90 (BINARY_VERSION).
  int binaryVersion = 0;
  /// The JIT's info log when the module was PTX, empty otherwise.
  std::string jitInfoLog;
};

/// Devices, memory, modules and launches through the CUDA driver API. One
/// primary context and one stream per device; launches go on that stream,
/// which is ordered with the (legacy default stream) copies and fills.
/// Thread-safe.
class CudaDriver final : public Driver {
public:
  /// Loads `library` (libcuda.so.1 unless a test names another) when first
  /// needed.
  explicit CudaDriver(std::string library = kCudaLibrary);
  ~CudaDriver() override;

  unsigned getDeviceCount() override;
  std::string getUnavailableReason() override;
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

  /// Loads a kernel whose `format` is "cubin" or "ptx" (the driver JIT
  /// compiles PTX; its error log is part of the error).
  llvm::Expected<ModuleHandle>
  loadModule(unsigned device, const CompiledKernel &kernel) override;
  llvm::Error unloadModule(ModuleHandle module) override;
  llvm::Error launch(ModuleHandle module, const LaunchConfig &config,
                     llvm::ArrayRef<void *> args) override;
  llvm::Error synchronize(unsigned device) override;
  /// Device time between CUDA events recorded around `work` on the
  /// device's stream.
  llvm::Expected<double>
  timeMilliseconds(unsigned device,
                   const std::function<llvm::Error()> &work) override;

  /// Registers, spills and shared memory of a loaded kernel.
  llvm::Expected<KernelResources> getKernelResources(ModuleHandle module);

  /// The driver's CUDA version (e.g. 13000); 0 without a driver.
  int getDriverVersion();

  struct Impl;

private:
  std::unique_ptr<Impl> impl;
};

} // namespace mlir::tessera::nvptx

#endif // TESSERA_BACKENDS_NVPTX_CUDADRIVER_H
