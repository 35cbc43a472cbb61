//===- Driver.cpp - The null backend's devices: none ----------------------===//
#include "NullBackend.h"

#include "llvm/Support/FormatVariadic.h"

using namespace mlir::tessera;

namespace {
constexpr char kNoDevices[] = "the null backend has no devices";

/// The error of `step` on `device`, naming both as the Driver contract asks.
llvm::Error noDevice(unsigned device, const llvm::Twine &step) {
  return llvm::createStringError(
      llvm::inconvertibleErrorCode(),
      llvm::formatv("null device {0}: cannot {1}: {2}", device, step.str(),
                    kNoDevices));
}

/// The error of `step` on a module, which no device could have loaded.
llvm::Error noModule(const llvm::Twine &step) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "null backend: cannot " + step + ": " +
                                     kNoDevices);
}
} // namespace

Driver &NullBackend::getDriver() { return driver; }

unsigned NullDriver::getDeviceCount() { return 0; }

std::string NullDriver::getUnavailableReason() { return kNoDevices; }

llvm::Expected<DeviceProperties>
NullDriver::getDeviceProperties(unsigned device) {
  return noDevice(device, "query its properties");
}

llvm::Expected<uint64_t> NullDriver::allocate(unsigned device, size_t bytes) {
  return noDevice(device, "allocate " + llvm::Twine(bytes) + " bytes");
}

llvm::Error NullDriver::deallocate(unsigned device, uint64_t address) {
  return noDevice(device, "free memory");
}

llvm::Error NullDriver::copyToDevice(unsigned device, uint64_t dst,
                                     const void *src, size_t bytes) {
  return noDevice(device, "copy " + llvm::Twine(bytes) + " bytes to it");
}

llvm::Error NullDriver::copyToHost(unsigned device, void *dst, uint64_t src,
                                   size_t bytes) {
  return noDevice(device, "copy " + llvm::Twine(bytes) + " bytes from it");
}

llvm::Error NullDriver::fill(unsigned device, uint64_t dst, uint8_t byte,
                             size_t bytes) {
  return noDevice(device, "fill " + llvm::Twine(bytes) + " bytes");
}

llvm::Expected<ModuleHandle>
NullDriver::loadModule(unsigned device, const CompiledKernel &kernel) {
  return noDevice(device, "load kernel '" + kernel.name + "'");
}

llvm::Error NullDriver::unloadModule(ModuleHandle module) {
  return noModule("unload a module");
}

llvm::Error NullDriver::launch(ModuleHandle module, const LaunchConfig &config,
                               llvm::ArrayRef<void *> args) {
  return noModule("launch a kernel");
}

llvm::Error NullDriver::synchronize(unsigned device) {
  return noDevice(device, "synchronize");
}
