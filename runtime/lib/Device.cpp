//===- Device.cpp - One device of a backend -------------------------------===//
#include "tessera/Runtime/Device.h"

#include "llvm/Support/FormatVariadic.h"

using namespace mlir::tessera;
using namespace mlir::tessera::runtime;

llvm::Expected<std::unique_ptr<Device>>
Device::open(std::shared_ptr<Backend> backend, unsigned index) {
  Driver &driver = backend->getDriver();
  unsigned count = driver.getDeviceCount();
  if (index >= count) {
    std::string why = driver.getUnavailableReason();
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        llvm::formatv("backend '{0}' has no device {1} ({2})",
                      backend->getName(), index,
                      count == 0 ? (why.empty() ? "it has no devices" : why)
                                 : llvm::formatv("it has {0}", count).str())
            .str());
  }
  llvm::Expected<DeviceProperties> props = driver.getDeviceProperties(index);
  if (!props)
    return props.takeError();
  return std::unique_ptr<Device>(
      new Device(std::move(backend), index, std::move(*props)));
}

std::vector<std::pair<std::string, int64_t>> Device::getPropertyList() const {
  const DeviceProperties &p = properties;
  return {
      {"multiprocessor_count", p.multiprocessorCount},
      {"max_shared_mem", static_cast<int64_t>(p.maxSharedMem)},
      {"max_num_regs", p.maxNumRegs},
      {"warpSize", p.warpSize},
      {"sm_clock_rate", p.smClockRate},
      {"mem_clock_rate", p.memClockRate},
      {"mem_bus_width", p.memBusWidth},
      {"total_memory", static_cast<int64_t>(p.totalMemory)},
  };
}

std::optional<int64_t> Device::getProperty(llvm::StringRef tritonName) const {
  for (const auto &[name, value] : getPropertyList())
    if (name == tritonName)
      return value;
  return std::nullopt;
}

std::string Device::describe() const {
  return properties.name + " (" + properties.arch + ")";
}

llvm::Expected<Buffer> Device::allocate(size_t bytes,
                                        llvm::StringRef elementType) {
  return Buffer::allocate(getDriver(), index, bytes, elementType);
}

llvm::Error Device::synchronize() { return getDriver().synchronize(index); }
