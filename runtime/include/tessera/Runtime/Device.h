//===- Device.h - One device of a backend -----------------------*- C++ -*-===//
//
// A Device pairs a backend with one of its driver's devices and caches the
// device's properties. Properties are also available under the names
// Triton's driver utilities use (`multiprocessor_count`, `max_shared_mem`,
// `max_num_regs`, `warpSize`, `sm_clock_rate`, `mem_clock_rate`,
// `mem_bus_width`), which is what kernel files and heuristics ask for.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_RUNTIME_DEVICE_H
#define TESSERA_RUNTIME_DEVICE_H

#include "tessera/Backend/Backend.h"
#include "tessera/Runtime/Buffer.h"

#include <memory>
#include <optional>
#include <utility>
#include <vector>

namespace mlir::tessera::runtime {

class Device {
public:
  /// Opens device `index` of `backend`'s driver; fails when there is no
  /// such device, saying why the driver has none.
  static llvm::Expected<std::unique_ptr<Device>>
  open(std::shared_ptr<Backend> backend, unsigned index);

  Backend &getBackend() const { return *backend; }
  Driver &getDriver() const { return backend->getDriver(); }
  unsigned getIndex() const { return index; }
  const DeviceProperties &getProperties() const { return properties; }

  /// The property under its Triton name, or nullopt for an unknown name.
  std::optional<int64_t> getProperty(llvm::StringRef tritonName) const;

  /// Every property as (Triton name, value), in a stable order, for
  /// listings and dictionaries handed to kernel-file code.
  std::vector<std::pair<std::string, int64_t>> getPropertyList() const;

  /// "NAME (ARCH)", for messages and tuning records.
  std::string describe() const;

  /// Allocates `bytes` of this device's memory.
  llvm::Expected<Buffer> allocate(size_t bytes,
                                  llvm::StringRef elementType = "");

  /// Waits for everything launched on the device.
  llvm::Error synchronize();

private:
  Device(std::shared_ptr<Backend> backend, unsigned index,
         DeviceProperties properties)
      : backend(std::move(backend)), index(index),
        properties(std::move(properties)) {}

  std::shared_ptr<Backend> backend;
  unsigned index;
  DeviceProperties properties;
};

} // namespace mlir::tessera::runtime

#endif // TESSERA_RUNTIME_DEVICE_H
