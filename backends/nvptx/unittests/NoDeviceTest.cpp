//===- NoDeviceTest.cpp - The CUDA driver without a usable device ---------===//
//
// A driver pointed at a library that does not exist behaves as on a machine
// without the NVIDIA driver, on any host; the default driver is checked the
// same way when this host has no device.
//
//===----------------------------------------------------------------------===//
#include "CudaDriver.h"
#include "NoDeviceChecks.h"

#include "gmock/gmock.h"

using namespace mlir::tessera;
using namespace mlir::tessera::nvptx;
using ::testing::HasSubstr;

namespace {

using mlir::tessera::testing::errorOf;

/// Every call fails with an error naming the device and the CUDA call,
/// nothing crashes (NoDeviceChecks.h); the kernel resources too.
void expectEveryCallFails(CudaDriver &driver) {
  CompiledKernel kernel;
  kernel.backend = "nvptx";
  kernel.name = "k";
  kernel.format = "ptx";
  mlir::tessera::testing::expectEveryCallFails(
      driver,
      {"nvptx", "no CUDA device", "cuMemAlloc", "cuMemFree of 0x1000",
       "cuMemcpyHtoD", "cuMemcpyDtoH", "cuMemsetD8"},
      kernel);
  EXPECT_THAT(errorOf(driver.getKernelResources(0x1234)),
              HasSubstr("not a module"));
}

TEST(CudaDriverWithoutLibrary, ReportsNoDeviceAndWhy) {
  auto driver = createCudaDriver("libtessera-no-such-cuda.so.1");
  EXPECT_EQ(driver->getDriverVersion(), 0);
  EXPECT_THAT(driver->getUnavailableReason(),
              HasSubstr("cannot load libtessera-no-such-cuda.so.1"));
  EXPECT_THAT(driver->getUnavailableReason(),
              HasSubstr("the NVIDIA driver is not installed"));
  expectEveryCallFails(*driver);
}

TEST(CudaDriverWithoutLibrary, ALibraryWithoutTheEntryPoints) {
  // libc is loadable but is not the CUDA driver.
  auto driver = createCudaDriver("libc.so.6");
  EXPECT_THAT(driver->getUnavailableReason(),
              HasSubstr("libc.so.6 lacks cuGetErrorName, cuGetErrorString, "
                        "cuInit"));
  expectEveryCallFails(*driver);
}

TEST(CudaDriverOnThisHost, NeverAborts) {
  auto driver = createCudaDriver();
  unsigned count = driver->getDeviceCount();
  if (count > 0) {
    EXPECT_TRUE(driver->getUnavailableReason().empty());
    EXPECT_GE(driver->getDriverVersion(), 12000);
    EXPECT_THAT(
        errorOf(driver->getDeviceProperties(count)),
        HasSubstr("no such device (" + std::to_string(count) + " present)"));
    return;
  }
  // No GPU: no library, a cuInit failure or no device; all say so.
  EXPECT_THAT(driver->getUnavailableReason(),
              ::testing::AnyOf(HasSubstr("libcuda.so.1"), HasSubstr("cuInit"),
                               HasSubstr("no CUDA device")));
  expectEveryCallFails(*driver);
}

} // namespace
