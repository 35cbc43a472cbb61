//===- NoDeviceDriver.cpp - A driver for a backend without devices --------===//
#include "tessera/Backend/NoDeviceDriver.h"

#include "llvm/Support/FormatVariadic.h"

using namespace mlir::tessera;

llvm::Error NoDeviceDriver::noDevice(unsigned device,
                                     const llvm::Twine &step) const {
  return llvm::createStringError(
      llvm::inconvertibleErrorCode(),
      llvm::formatv("{0} device {1}: cannot {2}: {3}", backend, device,
                    step.str(), reason));
}

llvm::Error NoDeviceDriver::noModule(const llvm::Twine &step) const {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 llvm::formatv("{0} backend: cannot {1}: {2}",
                                               backend, step.str(), reason));
}

llvm::Expected<DeviceProperties>
NoDeviceDriver::getDeviceProperties(unsigned device) {
  return noDevice(device, "query its properties");
}

llvm::Expected<uint64_t> NoDeviceDriver::allocate(unsigned device,
                                                  size_t bytes) {
  return noDevice(device, "allocate " + llvm::Twine(bytes) + " bytes");
}

llvm::Error NoDeviceDriver::deallocate(unsigned device, uint64_t address) {
  return noDevice(device, "free memory");
}

llvm::Error NoDeviceDriver::copyToDevice(unsigned device, uint64_t dst,
                                         const void *src, size_t bytes) {
  return noDevice(device, "copy " + llvm::Twine(bytes) + " bytes to it");
}

llvm::Error NoDeviceDriver::copyToHost(unsigned device, void *dst, uint64_t src,
                                       size_t bytes) {
  return noDevice(device, "copy " + llvm::Twine(bytes) + " bytes from it");
}

llvm::Error NoDeviceDriver::fill(unsigned device, uint64_t dst, uint8_t byte,
                                 size_t bytes) {
  return noDevice(device, "fill " + llvm::Twine(bytes) + " bytes");
}

llvm::Expected<ModuleHandle>
NoDeviceDriver::loadModule(unsigned device, const CompiledKernel &kernel) {
  return noDevice(device, "load kernel '" + kernel.name + "'");
}

llvm::Error NoDeviceDriver::unloadModule(ModuleHandle module) {
  return noModule("unload a module");
}

llvm::Error NoDeviceDriver::launch(ModuleHandle module,
                                   const LaunchConfig &config,
                                   llvm::ArrayRef<void *> args) {
  return noModule("launch a kernel");
}

llvm::Error NoDeviceDriver::synchronize(unsigned device) {
  return noDevice(device, "synchronize");
}
