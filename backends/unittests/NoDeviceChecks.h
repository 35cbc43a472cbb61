//===- NoDeviceChecks.h - A driver without devices, checked ---*- C++ -*-===//
//
// What every plugin's driver over a vendor library must do on a machine
// without the library or without a device: report zero devices and why,
// and fail every call with an error naming the backend, the device and
// the vendor call, never crash. Shared by the GPU plugins' unit tests.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_BACKENDS_UNITTESTS_NODEVICECHECKS_H
#define TESSERA_BACKENDS_UNITTESTS_NODEVICECHECKS_H

#include "tessera/Backend/Driver.h"

#include "gmock/gmock.h"

#include <string>

namespace mlir::tessera::testing {

/// The error `err` holds (a test failure when it holds none).
inline std::string errorOf(llvm::Error err) {
  EXPECT_TRUE(static_cast<bool>(err)) << "expected an error";
  return llvm::toString(std::move(err));
}

template <typename T> std::string errorOf(llvm::Expected<T> value) {
  EXPECT_FALSE(static_cast<bool>(value)) << "expected an error";
  return value ? "" : llvm::toString(value.takeError());
}

/// How a driver words its failures: the backend's name, what it says of
/// no devices ("no CUDA device"), its vendor calls for each step.
struct NoDeviceWording {
  std::string backend;
  std::string noDevices;
  std::string allocate, deallocate, copyToDevice, copyToHost, fill;
};

/// Checks that every call of `driver`, which has no device, fails as
/// `wording` says; `kernel` is one it would load on a device.
inline void expectEveryCallFails(Driver &driver, const NoDeviceWording &wording,
                                 const CompiledKernel &kernel) {
  using ::testing::HasSubstr;
  EXPECT_EQ(driver.getDeviceCount(), 0u);
  std::string reason = driver.getUnavailableReason();
  EXPECT_FALSE(reason.empty());
  std::string device0 = wording.backend + " device 0: cannot ";
  EXPECT_THAT(errorOf(driver.getDeviceProperties(0)),
              HasSubstr(device0 + "query properties: " + wording.noDevices +
                        ": " + reason));
  EXPECT_THAT(errorOf(driver.allocate(1, 64)),
              HasSubstr(wording.backend + " device 1: cannot " +
                        wording.allocate + " of 64 bytes"));
  EXPECT_THAT(errorOf(driver.deallocate(0, 0x1000)),
              HasSubstr(device0 + wording.deallocate));
  char host[8] = {};
  EXPECT_THAT(errorOf(driver.copyToDevice(0, 0x1000, host, 8)),
              HasSubstr(wording.copyToDevice));
  EXPECT_THAT(errorOf(driver.copyToHost(0, host, 0x1000, 8)),
              HasSubstr(wording.copyToHost));
  EXPECT_THAT(errorOf(driver.fill(0, 0x1000, 0, 8)), HasSubstr(wording.fill));
  EXPECT_THAT(errorOf(driver.loadModule(0, kernel)),
              HasSubstr(device0 + "load kernel '" + kernel.name + "'"));
  EXPECT_THAT(errorOf(driver.unloadModule(0x1234)),
              HasSubstr("0x1234 is not a module this driver loaded"));
  EXPECT_THAT(errorOf(driver.launch(0x1234, LaunchConfig(), {})),
              HasSubstr("cannot launch a kernel"));
  EXPECT_THAT(errorOf(driver.synchronize(0)),
              HasSubstr(device0 + "synchronize"));
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

} // namespace mlir::tessera::testing

#endif // TESSERA_BACKENDS_UNITTESTS_NODEVICECHECKS_H
