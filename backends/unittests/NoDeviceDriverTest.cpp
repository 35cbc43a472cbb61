//===- NoDeviceDriverTest.cpp - The driver of backends without devices ----===//
#include "tessera/Backend/NoDeviceDriver.h"

#include "gtest/gtest.h"

using namespace mlir::tessera;

namespace {
std::string errorOf(llvm::Error error) {
  return error ? llvm::toString(std::move(error)) : "success";
}
template <typename T> std::string errorOf(llvm::Expected<T> value) {
  return value ? "success" : llvm::toString(value.takeError());
}
} // namespace

TEST(NoDeviceDriverTest, ReportsNoDevicesAndWhy) {
  NoDeviceDriver driver("vendorx", "the vendorx runtime is not installed");
  EXPECT_EQ(driver.getDeviceCount(), 0u);
  EXPECT_EQ(driver.getUnavailableReason(),
            "the vendorx runtime is not installed");
}

TEST(NoDeviceDriverTest, EveryCallFailsNamingBackendDeviceAndStep) {
  NoDeviceDriver driver("vendorx", "no hardware");
  char byte = 0;
  EXPECT_EQ(errorOf(driver.getDeviceProperties(2)),
            "vendorx device 2: cannot query its properties: no hardware");
  EXPECT_EQ(errorOf(driver.allocate(0, 64)),
            "vendorx device 0: cannot allocate 64 bytes: no hardware");
  EXPECT_EQ(errorOf(driver.deallocate(1, 0x1000)),
            "vendorx device 1: cannot free memory: no hardware");
  EXPECT_EQ(errorOf(driver.copyToDevice(0, 0x1000, &byte, 1)),
            "vendorx device 0: cannot copy 1 bytes to it: no hardware");
  EXPECT_EQ(errorOf(driver.copyToHost(0, &byte, 0x1000, 1)),
            "vendorx device 0: cannot copy 1 bytes from it: no hardware");
  EXPECT_EQ(errorOf(driver.fill(0, 0x1000, 0, 8)),
            "vendorx device 0: cannot fill 8 bytes: no hardware");
  CompiledKernel kernel;
  kernel.name = "add_kernel";
  EXPECT_EQ(errorOf(driver.loadModule(0, kernel)),
            "vendorx device 0: cannot load kernel 'add_kernel': no hardware");
  EXPECT_EQ(errorOf(driver.unloadModule(ModuleHandle())),
            "vendorx backend: cannot unload a module: no hardware");
  EXPECT_EQ(errorOf(driver.launch(ModuleHandle(), LaunchConfig(), {})),
            "vendorx backend: cannot launch a kernel: no hardware");
  EXPECT_EQ(errorOf(driver.synchronize(3)),
            "vendorx device 3: cannot synchronize: no hardware");
}
