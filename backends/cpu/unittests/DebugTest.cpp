//===- DebugTest.cpp - Device printing and assertions on the CPU ----------===//
#include "CpuTestUtils.h"
#include "Kernels.h"

#include "gmock/gmock.h"

using namespace mlir::tessera::cpu::test;
using ::testing::HasSubstr;

namespace {

TEST(CpuDebug, FailedAssertStopsTheLaunchAndIsReported) {
  const int programs = 8, n = programs * 16;
  std::vector<int32_t> x(n), out(n, -1);
  for (int i = 0; i < n; ++i)
    x[i] = i;
  DeviceBuffer dx(x), dout(out);
  llvm::Expected<mlir::tessera::CompiledKernel> kernel =
      compileKernel(kAssert, "check_kernel");
  ASSERT_TRUE(static_cast<bool>(kernel)) << llvm::toString(kernel.takeError());
  LoadedKernel loaded(*kernel);

  // Element 50 (program 3, index 2) is the first one >= 50.
  int32_t limit = 50;
  llvm::Error err =
      loaded.run({programs, 1, 1}, {&dx.address(), &dout.address(), &limit});
  ASSERT_TRUE(static_cast<bool>(err));
  std::string message = llvm::toString(std::move(err));
  EXPECT_THAT(message, HasSubstr("kern.py:12: check_kernel:"));
  EXPECT_THAT(message, HasSubstr("Assertion `x too big` failed"));
  EXPECT_THAT(message, HasSubstr("check_kernel_cpu_entry"));
  // The failing instance stopped before its store.
  std::vector<int32_t> result = dout.read<int32_t>();
  for (int i = 48; i < 64; ++i)
    EXPECT_EQ(result[i], -1) << i;

  // The error was reported once; the device runs kernels again.
  ASSERT_NO_LLVM_ERROR(getBackend().getDriver().synchronize(0));
  limit = 1000;
  ASSERT_NO_LLVM_ERROR(
      loaded.run({programs, 1, 1}, {&dx.address(), &dout.address(), &limit}));
  EXPECT_EQ(dout.read<int32_t>(), x);
}

TEST(CpuDebug, AssertNamesTheFailingProgramAndElement) {
  setLaunchThreads(1);
  std::vector<int32_t> x(32, 0), out(32, 0);
  x[21] = 99; // program 1, element 5
  DeviceBuffer dx(x), dout(out);
  llvm::Expected<mlir::tessera::CompiledKernel> kernel =
      compileKernel(kAssert, "check_kernel");
  ASSERT_TRUE(static_cast<bool>(kernel)) << llvm::toString(kernel.takeError());
  LoadedKernel loaded(*kernel);
  int32_t limit = 10;
  llvm::Error err =
      loaded.run({2, 1, 1}, {&dx.address(), &dout.address(), &limit});
  setLaunchThreads(0);
  ASSERT_TRUE(static_cast<bool>(err));
  EXPECT_THAT(llvm::toString(std::move(err)),
              HasSubstr("pid (1, 0, 0) idx (5): Assertion"));
}

TEST(CpuDebug, PrintWritesOneLinePerElement) {
  std::vector<int32_t> x{3, -1, 42, 7};
  DeviceBuffer dx(x);
  float f = 1.5f;
  ::testing::internal::CaptureStdout();
  compileAndRun(kPrint, "print_kernel", {1, 2, 1}, {&dx.address(), &f});
  std::string output = ::testing::internal::GetCapturedStdout();
  EXPECT_THAT(output, HasSubstr("pid (0, 0, 0) idx (2)  x: 42\n"));
  EXPECT_THAT(output, HasSubstr("pid (0, 1, 0) idx (1)  x: -1\n"));
  EXPECT_THAT(output, HasSubstr("pid (0, 1, 0)  f: 1.5\n"));
  EXPECT_THAT(output, HasSubstr("pid (0, 1, 0)  h: 0x1\n"));
  EXPECT_THAT(output, HasSubstr("pid (0, 0, 0)  done\n"));
  // 2 programs x (4 + 1 + 1 + 1) lines.
  EXPECT_EQ(std::count(output.begin(), output.end(), '\n'), 14);
}

} // namespace
