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

/// Devices, memory, modules and launches through the CUDA driver API (the
/// Driver contract), and what only CUDA answers. One primary context and one
/// stream per device; launches go on that stream, which is ordered with the
/// (legacy default stream) copies and fills. loadModule takes "cubin" or
/// "ptx" (the driver JIT compiles PTX; its error log is part of the error).
/// Thread-safe.
class CudaDriver : public Driver {
public:
  /// Registers, spills and shared memory of a loaded kernel.
  virtual llvm::Expected<KernelResources>
  getKernelResources(ModuleHandle module) = 0;

  /// The driver's CUDA version (e.g. 13000); 0 without a driver.
  virtual int getDriverVersion() = 0;
};

/// A CudaDriver that loads `library` (libcuda.so.1 unless a test names
/// another) when first needed.
std::unique_ptr<CudaDriver>
createCudaDriver(std::string library = kCudaLibrary);

} // namespace mlir::tessera::nvptx

#endif // TESSERA_BACKENDS_NVPTX_CUDADRIVER_H
