//===- NoDeviceTest.cpp - The HIP driver without a usable device ----------===//
//
// A driver pointed at a library that does not exist behaves as on a machine
// without ROCm, on any host; the default driver is checked the same way
// when this host has no AMD GPU.
//
//===----------------------------------------------------------------------===//
#include "HipDriver.h"

#include "gmock/gmock.h"

using namespace mlir::tessera;
using namespace mlir::tessera::amdgpu;
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
void expectEveryCallFails(HipDriver &driver) {
  EXPECT_EQ(driver.getDeviceCount(), 0u);
  std::string reason = driver.getUnavailableReason();
  EXPECT_FALSE(reason.empty());
  EXPECT_THAT(errorOf(driver.getDeviceProperties(0)),
              HasSubstr("amdgpu device 0: cannot query properties: no AMD "
                        "GPU: " +
                        reason));
  EXPECT_THAT(errorOf(driver.allocate(1, 64)),
              HasSubstr("amdgpu device 1: cannot hipMalloc of 64 bytes"));
  EXPECT_THAT(errorOf(driver.deallocate(0, 0x1000)),
              HasSubstr("amdgpu device 0: cannot hipFree of 0x1000"));
  char host[8] = {};
  EXPECT_THAT(errorOf(driver.copyToDevice(0, 0x1000, host, 8)),
              HasSubstr("hipMemcpyHtoD"));
  EXPECT_THAT(errorOf(driver.copyToHost(0, host, 0x1000, 8)),
              HasSubstr("hipMemcpyDtoH"));
  EXPECT_THAT(errorOf(driver.fill(0, 0x1000, 0, 8)), HasSubstr("hipMemsetD8"));
  CompiledKernel kernel;
  kernel.backend = "amdgpu";
  kernel.arch = "gfx942";
  kernel.name = "k";
  kernel.format = "hsaco";
  kernel.threadsPerWarp = 64;
  EXPECT_THAT(errorOf(driver.loadModule(0, kernel)),
              HasSubstr("amdgpu device 0: cannot load kernel 'k'"));
  EXPECT_THAT(errorOf(driver.unloadModule(0x1234)),
              HasSubstr("0x1234 is not a module this driver loaded"));
  EXPECT_THAT(errorOf(driver.launch(0x1234, LaunchConfig(), {})),
              HasSubstr("cannot launch a kernel"));
  EXPECT_THAT(errorOf(driver.getKernelResources(0x1234)),
              HasSubstr("not a module"));
  EXPECT_THAT(errorOf(driver.synchronize(0)),
              HasSubstr("amdgpu device 0: cannot synchronize"));
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

TEST(HipDriverWithoutLibrary, ReportsNoDeviceAndWhy) {
  HipDriver driver("libtessera-no-such-hip.so");
  EXPECT_EQ(driver.getDriverVersion(), 0);
  EXPECT_THAT(driver.getUnavailableReason(),
              HasSubstr("cannot load libtessera-no-such-hip.so"));
  EXPECT_THAT(driver.getUnavailableReason(),
              HasSubstr("the ROCm HIP runtime is not installed"));
  expectEveryCallFails(driver);
}

TEST(HipDriverWithoutLibrary, ALibraryWithoutTheEntryPoints) {
  // libc is loadable but is not the HIP runtime.
  HipDriver driver("libc.so.6");
  EXPECT_THAT(driver.getUnavailableReason(),
              HasSubstr("libc.so.6 lacks hipGetErrorName, hipGetErrorString, "
                        "hipInit"));
  EXPECT_THAT(driver.getUnavailableReason(),
              HasSubstr("hipGetDevicePropertiesR0600"));
  expectEveryCallFails(driver);
}

TEST(HipDriverWithoutLibrary, RefusesOtherFormatsBeforeTheDevice) {
  HipDriver driver("libtessera-no-such-hip.so");
  CompiledKernel kernel;
  kernel.backend = "nvptx";
  kernel.name = "k";
  kernel.format = "cubin";
  EXPECT_THAT(errorOf(driver.loadModule(0, kernel)),
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
  HipDriver driver;
  unsigned count = driver.getDeviceCount();
  if (count > 0) {
    EXPECT_TRUE(driver.getUnavailableReason().empty());
    EXPECT_GT(driver.getDriverVersion(), 0);
    llvm::Expected<DeviceProperties> props = driver.getDeviceProperties(0);
    ASSERT_TRUE(static_cast<bool>(props)) << llvm::toString(props.takeError());
    EXPECT_THAT(props->arch, ::testing::StartsWith("gfx"));
    EXPECT_THAT(props->warpSize, ::testing::AnyOf(32u, 64u));
    EXPECT_THAT(
        errorOf(driver.getDeviceProperties(count)),
        HasSubstr("no such device (" + std::to_string(count) + " present)"));
    return;
  }
  // No GPU: no library, a hipInit failure or no device; all say so.
  EXPECT_THAT(driver.getUnavailableReason(),
              ::testing::AnyOf(HasSubstr("libamdhip64.so"),
                               HasSubstr("hipInit"), HasSubstr("no AMD GPU")));
  expectEveryCallFails(driver);
}

} // namespace
