//===- NoDeviceTest.cpp - The HIP driver without a usable device ----------===//
//
// A driver pointed at a library that does not exist behaves as on a machine
// without ROCm, on any host; the default driver is checked the same way
// when this host has no AMD GPU.
//
//===----------------------------------------------------------------------===//
#include "HipDriver.h"
#include "NoDeviceChecks.h"

#include "gmock/gmock.h"

using namespace mlir::tessera;
using namespace mlir::tessera::amdgpu;
using ::testing::HasSubstr;

namespace {

using mlir::tessera::testing::errorOf;

/// Every call fails with an error naming the device and the HIP call,
/// nothing crashes (NoDeviceChecks.h); the kernel resources too.
void expectEveryCallFails(HipDriver &driver) {
  CompiledKernel kernel;
  kernel.backend = "amdgpu";
  kernel.arch = "gfx942";
  kernel.name = "k";
  kernel.format = "hsaco";
  kernel.threadsPerWarp = 64;
  mlir::tessera::testing::expectEveryCallFails(
      driver,
      {"amdgpu", "no AMD GPU", "hipMalloc", "hipFree of 0x1000",
       "hipMemcpyHtoD", "hipMemcpyDtoH", "hipMemsetD8"},
      kernel);
  EXPECT_THAT(errorOf(driver.getKernelResources(0x1234)),
              HasSubstr("not a module"));
}

TEST(HipDriverWithoutLibrary, ReportsNoDeviceAndWhy) {
  auto driver = createHipDriver("libtessera-no-such-hip.so");
  EXPECT_EQ(driver->getDriverVersion(), 0);
  EXPECT_THAT(driver->getUnavailableReason(),
              HasSubstr("cannot load libtessera-no-such-hip.so"));
  EXPECT_THAT(driver->getUnavailableReason(),
              HasSubstr("the ROCm HIP runtime is not installed"));
  expectEveryCallFails(*driver);
}

TEST(HipDriverWithoutLibrary, ALibraryWithoutTheEntryPoints) {
  // libc is loadable but is not the HIP runtime.
  auto driver = createHipDriver("libc.so.6");
  EXPECT_THAT(driver->getUnavailableReason(),
              HasSubstr("libc.so.6 lacks hipGetErrorName, hipGetErrorString, "
                        "hipInit"));
  EXPECT_THAT(driver->getUnavailableReason(),
              HasSubstr("hipGetDevicePropertiesR0600"));
  expectEveryCallFails(*driver);
}

TEST(HipDriverWithoutLibrary, RefusesOtherFormatsBeforeTheDevice) {
  auto driver = createHipDriver("libtessera-no-such-hip.so");
  CompiledKernel kernel;
  kernel.backend = "nvptx";
  kernel.name = "k";
  kernel.format = "cubin";
  EXPECT_THAT(errorOf(driver->loadModule(0, kernel)),
              HasSubstr("amdgpu device 0: cannot load kernel 'k': its format "
                        "is 'cubin' (backend 'nvptx'), not 'hsaco'"));
}

TEST(HipDriverArch, DropsTheTargetFeatures) {
  EXPECT_EQ(archFromGcnArchName("gfx942:sramecc+:xnack-"), "gfx942");
  EXPECT_EQ(archFromGcnArchName("gfx90a:sramecc+:xnack-"), "gfx90a");
  EXPECT_EQ(archFromGcnArchName("gfx950"), "gfx950");
  EXPECT_EQ(archFromGcnArchName(""), "");
}

TEST(HipDriverOnThisHost, NeverAborts) {
  auto driver = createHipDriver();
  unsigned count = driver->getDeviceCount();
  if (count > 0) {
    EXPECT_TRUE(driver->getUnavailableReason().empty());
    EXPECT_GT(driver->getDriverVersion(), 0);
    llvm::Expected<DeviceProperties> props = driver->getDeviceProperties(0);
    ASSERT_TRUE(static_cast<bool>(props)) << llvm::toString(props.takeError());
    EXPECT_THAT(props->arch, ::testing::StartsWith("gfx"));
    EXPECT_THAT(props->warpSize, ::testing::AnyOf(32u, 64u));
    EXPECT_THAT(
        errorOf(driver->getDeviceProperties(count)),
        HasSubstr("no such device (" + std::to_string(count) + " present)"));
    return;
  }
  // No GPU: no library, a hipInit failure or no device; all say so.
  EXPECT_THAT(driver->getUnavailableReason(),
              ::testing::AnyOf(HasSubstr("libamdhip64.so"),
                               HasSubstr("hipInit"), HasSubstr("no AMD GPU")));
  expectEveryCallFails(*driver);
}

} // namespace
