//===- NoDeviceDriver.h - A backend without devices -------------*- C++ -*-===//
//
// A backend that only compiles (a target whose devices are elsewhere, a
// template, a plugin in bring-up before its driver exists) still returns a
// Driver. This one reports no devices and the reason, and fails every call
// with an error naming the backend, the device and the step, as the Driver
// contract asks.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_BACKEND_NODEVICEDRIVER_H
#define TESSERA_BACKEND_NODEVICEDRIVER_H

#include "tessera/Backend/Driver.h"

#include <string>

namespace mlir::tessera {

/// A Driver with zero devices; every call fails with `reason`.
class NoDeviceDriver final : public Driver {
public:
  /// `backend` names the plugin in errors ("null device 0: cannot ...");
  /// `reason` is getUnavailableReason() and ends every error.
  NoDeviceDriver(std::string backend, std::string reason)
      : backend(std::move(backend)), reason(std::move(reason)) {}

  unsigned getDeviceCount() override { return 0; }
  std::string getUnavailableReason() override { return reason; }
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
  llvm::Expected<ModuleHandle>
  loadModule(unsigned device, const CompiledKernel &kernel) override;
  llvm::Error unloadModule(ModuleHandle module) override;
  llvm::Error launch(ModuleHandle module, const LaunchConfig &config,
                     llvm::ArrayRef<void *> args) override;
  llvm::Error synchronize(unsigned device) override;

private:
  /// The error of `step` on `device`.
  llvm::Error noDevice(unsigned device, const llvm::Twine &step) const;
  /// The error of `step` on a module, which no device could have loaded.
  llvm::Error noModule(const llvm::Twine &step) const;

  std::string backend;
  std::string reason;
};

} // namespace mlir::tessera

#endif // TESSERA_BACKEND_NODEVICEDRIVER_H
