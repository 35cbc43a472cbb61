//===- Driver.h - How a plugin runs kernels ---------------------*- C++ -*-===//
#ifndef TESSERA_BACKEND_DRIVER_H
#define TESSERA_BACKEND_DRIVER_H

#include "tessera/Backend/CompiledKernel.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <array>
#include <cstdint>
#include <functional>
#include <string>

namespace mlir::tessera {

/// A device's properties, under the names Triton's driver utilities use
/// (`multiprocessor_count`, `max_shared_mem`, `max_num_regs`, `warpSize`,
/// `sm_clock_rate`, `mem_clock_rate`, `mem_bus_width`).
struct DeviceProperties {
  std::string name;
  /// The architecture to compile for on this device.
  std::string arch;
  unsigned multiprocessorCount = 0;
  uint64_t maxSharedMem = 0;
  unsigned maxNumRegs = 0;
  unsigned warpSize = 32;
  /// Clocks in kHz, bus width in bits; 0 when unknown.
  unsigned smClockRate = 0;
  unsigned memClockRate = 0;
  unsigned memBusWidth = 0;
  uint64_t totalMemory = 0;
  /// The driver or runtime the device runs under ("CUDA driver 13.0"),
  /// for reports; empty when unknown.
  std::string driverVersion;
};

/// A module a driver loaded; its meaning belongs to the driver.
using ModuleHandle = uintptr_t;

/// The shape of one launch.
struct LaunchConfig {
  std::array<uint32_t, 3> grid = {1, 1, 1};
  unsigned numWarps = 4;
  unsigned threadsPerWarp = 32;
  unsigned numCTAs = 1;
  uint64_t sharedMemoryBytes = 0;
  /// The stream to launch on, in the driver's own terms (a `CUstream` for
  /// CUDA, such as PyTorch's current stream, so that the launch is ordered
  /// with its work without a synchronization); 0 is the driver's own
  /// stream. Drivers without streams ignore it. (Appended last: a plugin
  /// built before it reads the fields above unchanged.)
  uint64_t stream = 0;
};

/// Devices, memory, modules and launches of one plugin. Every call fails
/// with an error naming the device and the failed step, never aborts; a
/// plugin without a usable device reports zero devices and says why.
class Driver {
public:
  virtual ~Driver();

  /// Devices present; 0 when there is none. Cheap and never fails.
  virtual unsigned getDeviceCount() = 0;

  /// Why there is no device (no library, no hardware...), empty otherwise.
  virtual std::string getUnavailableReason() { return ""; }

  virtual llvm::Expected<DeviceProperties>
  getDeviceProperties(unsigned device) = 0;

  /// Device memory, addressed as the kernels address it.
  virtual llvm::Expected<uint64_t> allocate(unsigned device, size_t bytes) = 0;
  virtual llvm::Error deallocate(unsigned device, uint64_t address) = 0;
  virtual llvm::Error copyToDevice(unsigned device, uint64_t dst,
                                   const void *src, size_t bytes) = 0;
  virtual llvm::Error copyToHost(unsigned device, void *dst, uint64_t src,
                                 size_t bytes) = 0;
  virtual llvm::Error fill(unsigned device, uint64_t dst, uint8_t byte,
                           size_t bytes) = 0;

  /// Loads a compiled kernel onto `device`.
  virtual llvm::Expected<ModuleHandle>
  loadModule(unsigned device, const CompiledKernel &kernel) = 0;
  virtual llvm::Error unloadModule(ModuleHandle module) = 0;

  /// Starts the kernel of `module` over `config.grid`. `args` holds, per
  /// kernel parameter in order, a pointer to its value (a device address
  /// for pointers). Returns when the launch is queued.
  virtual llvm::Error launch(ModuleHandle module, const LaunchConfig &config,
                             llvm::ArrayRef<void *> args) = 0;

  /// Waits until every launch on `device` finished; reports an error a
  /// kernel raised (a failed device assert, a fault).
  virtual llvm::Error synchronize(unsigned device) = 0;

  /// Milliseconds of device time `work` takes (it launches; the driver
  /// brackets it with its own timers). The default times on the host
  /// around `work` and synchronize().
  virtual llvm::Expected<double>
  timeMilliseconds(unsigned device, const std::function<llvm::Error()> &work);
};

} // namespace mlir::tessera

#endif // TESSERA_BACKEND_DRIVER_H
