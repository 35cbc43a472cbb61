//===- NoDeviceTest.cpp - The CUDA driver without a usable device ---------===//
//
// A driver pointed at a library that does not exist behaves as on a machine
// without the NVIDIA driver, on any host; the default driver is checked the
// same way when this host has no device.
//
//===----------------------------------------------------------------------===//
#include "CudaDriver.h"

#include "gmock/gmock.h"

using namespace mlir::tessera;
using namespace mlir::tessera::nvptx;
using ::testing::HasSubstr;

namespace {

std::string errorOf(llvm::Error err) {
  EXPECT_TRUE(static_cast<bool>(err)) << "expected an error";
  return llvm::toString(std::move(err));
}

template <typename T> std::string errorOf(llvm::Expected<T> value) {
  EXPECT_FALSE(static_cast<bool>(value)) << "expected an error";
  return value ? "" : llvm::toString(value.takeError());
}

/// Every call fails with an error naming the device, and nothing crashes.
void expectEveryCallFails(CudaDriver &driver) {
  EXPECT_EQ(driver.getDeviceCount(), 0u);
  std::string reason = driver.getUnavailableReason();
  EXPECT_FALSE(reason.empty());
  EXPECT_THAT(errorOf(driver.getDeviceProperties(0)),
              HasSubstr("nvptx device 0: cannot query properties: no CUDA "
                        "device: " +
                        reason));
  EXPECT_THAT(errorOf(driver.allocate(1, 64)),
              HasSubstr("nvptx device 1: cannot cuMemAlloc of 64 bytes"));
  EXPECT_THAT(errorOf(driver.deallocate(0, 0x1000)),
              HasSubstr("nvptx device 0"));
  char host[8] = {};
  EXPECT_THAT(errorOf(driver.copyToDevice(0, 0x1000, host, 8)),
              HasSubstr("cuMemcpyHtoD"));
  EXPECT_THAT(errorOf(driver.copyToHost(0, host, 0x1000, 8)),
              HasSubstr("cuMemcpyDtoH"));
  EXPECT_THAT(errorOf(driver.fill(0, 0x1000, 0, 8)), HasSubstr("cuMemsetD8"));
  CompiledKernel kernel;
  kernel.backend = "nvptx";
  kernel.name = "k";
  kernel.format = "ptx";
  EXPECT_THAT(errorOf(driver.loadModule(0, kernel)),
              HasSubstr("cannot load kernel 'k'"));
  EXPECT_THAT(errorOf(driver.unloadModule(0x1234)),
              HasSubstr("0x1234 is not a module this driver loaded"));
  EXPECT_THAT(errorOf(driver.launch(0x1234, LaunchConfig(), {})),
              HasSubstr("cannot launch a kernel"));
  EXPECT_THAT(errorOf(driver.getKernelResources(0x1234)),
              HasSubstr("not a module"));
  EXPECT_THAT(errorOf(driver.synchronize(0)),
              HasSubstr("nvptx device 0: cannot synchronize"));
  bool ran = false;
  EXPECT_THAT(errorOf(driver.timeMilliseconds(0,
                                              [&] {
                                                ran = true;
                                                return llvm::Error::success();
                                              })),
              HasSubstr("cannot time work"));
  EXPECT_FALSE(ran);
  // Asking again gives the same answer (the library is tried once).
  EXPECT_EQ(driver.getDeviceCount(), 0u);
  EXPECT_EQ(driver.getUnavailableReason(), reason);
}

TEST(CudaDriverWithoutLibrary, ReportsNoDeviceAndWhy) {
  CudaDriver driver("libtessera-no-such-cuda.so.1");
  EXPECT_EQ(driver.getDriverVersion(), 0);
  EXPECT_THAT(driver.getUnavailableReason(),
              HasSubstr("cannot load libtessera-no-such-cuda.so.1"));
  EXPECT_THAT(driver.getUnavailableReason(),
              HasSubstr("the NVIDIA driver is not installed"));
  expectEveryCallFails(driver);
}

TEST(CudaDriverWithoutLibrary, ALibraryWithoutTheEntryPoints) {
  // libc is loadable but is not the CUDA driver.
  CudaDriver driver("libc.so.6");
  EXPECT_THAT(driver.getUnavailableReason(),
              HasSubstr("libc.so.6 lacks cuGetErrorName, cuGetErrorString, "
                        "cuInit"));
  expectEveryCallFails(driver);
}

TEST(CudaDriverOnThisHost, NeverAborts) {
  CudaDriver driver;
  unsigned count = driver.getDeviceCount();
  if (count > 0) {
    EXPECT_TRUE(driver.getUnavailableReason().empty());
    EXPECT_GE(driver.getDriverVersion(), 12000);
    EXPECT_THAT(
        errorOf(driver.getDeviceProperties(count)),
        HasSubstr("no such device (" + std::to_string(count) + " present)"));
    return;
  }
  // No GPU: no library, a cuInit failure or no device; all say so.
  EXPECT_THAT(driver.getUnavailableReason(),
              ::testing::AnyOf(HasSubstr("libcuda.so.1"), HasSubstr("cuInit"),
                               HasSubstr("no CUDA device")));
  expectEveryCallFails(driver);
}

} // namespace
