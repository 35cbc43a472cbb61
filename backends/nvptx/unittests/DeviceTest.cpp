//===- DeviceTest.cpp - The CUDA driver on a real device ------------------===//
//
// Runs only where a CUDA device is present (each test skips otherwise). Most
// kernels are hand-written PTX, JIT-compiled by the driver; the emitter's
// are LLVM-dialect modules compiled through each PTX route. The last test
// faults on purpose and leaves the device's context unusable, so it must
// stay last.
//
//===----------------------------------------------------------------------===//
#include "CudaDriver.h"
#include "PtxAssembler.h"
#include "Target.h"
#include "TestKernels.h"
#include "Toolkit.h"

#include "gmock/gmock.h"

#include <cmath>
#include <numeric>

using namespace mlir::tessera;
using namespace mlir::tessera::nvptx;
using namespace mlir::tessera::nvptx::testing;
using ::testing::HasSubstr;

namespace {

/// out[i] = i for i < n, with i the global thread index.
constexpr char kIotaPtx[] = R"(
.version 7.0
.target sm_80
.address_size 64

.visible .entry tessera_iota(.param .u64 out, .param .u32 n)
{
  .reg .pred %p;
  .reg .b32 %r<5>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  ld.param.u32 %r1, [n];
  mov.u32 %r2, %ctaid.x;
  mov.u32 %r3, %ntid.x;
  mov.u32 %r4, %tid.x;
  mad.lo.s32 %r2, %r2, %r3, %r4;
  setp.ge.u32 %p, %r2, %r1;
  @%p bra DONE;
  cvta.to.global.u64 %rd1, %rd1;
  mul.wide.u32 %rd2, %r2, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r2;
DONE:
  ret;
}
)";

/// Stores to the address it is given: an unmapped one faults.
constexpr char kStorePtx[] = R"(
.version 7.0
.target sm_80
.address_size 64

.visible .entry tessera_store(.param .u64 where)
{
  .reg .b32 %r;
  .reg .b64 %rd;
  ld.param.u64 %rd, [where];
  mov.u32 %r, 42;
  st.global.u32 [%rd], %r;
  ret;
}
)";

CompiledKernel ptxKernel(const char *name, const char *ptx) {
  CompiledKernel kernel;
  kernel.backend = "nvptx";
  kernel.arch = "sm_80";
  kernel.name = name;
  kernel.format = "ptx";
  kernel.binary = ptx;
  return kernel;
}

class CudaDevice : public ::testing::Test {
protected:
  static CudaDriver &driver() {
    static CudaDriver *instance = createCudaDriver().release();
    return *instance;
  }

  void SetUp() override {
    if (driver().getDeviceCount() == 0)
      GTEST_SKIP() << "no CUDA device: " << driver().getUnavailableReason();
  }
};

TEST_F(CudaDevice, PropertiesAreSane) {
  ASSERT_VALUE(props, driver().getDeviceProperties(0));
  std::printf(
      "device 0: %s, %s, %u SMs, %llu B opt-in smem, %u regs, "
      "%u kHz, %u kHz memory, %u-bit bus, %llu B, driver %d\n",
      props->name.c_str(), props->arch.c_str(), props->multiprocessorCount,
      static_cast<unsigned long long>(props->maxSharedMem), props->maxNumRegs,
      props->smClockRate, props->memClockRate, props->memBusWidth,
      static_cast<unsigned long long>(props->totalMemory),
      driver().getDriverVersion());
  EXPECT_FALSE(props->name.empty());
  EXPECT_EQ(props->warpSize, 32u);
  EXPECT_GT(props->multiprocessorCount, 0u);
  EXPECT_GE(props->maxSharedMem, 48u * 1024);
  EXPECT_EQ(props->maxNumRegs, 65536u);
  EXPECT_GT(props->smClockRate, 0u);
  EXPECT_GT(props->memBusWidth, 0u);
  EXPECT_GT(props->totalMemory, 1ull << 30);
  if (llvm::StringRef(props->name).contains("H100")) {
    EXPECT_EQ(props->arch, "sm_90a");
    EXPECT_EQ(props->multiprocessorCount, 132u);
    EXPECT_EQ(props->maxSharedMem, 232448u);
  }
  ASSERT_VALUE(target, describeDevice(*props));
  EXPECT_EQ(target->multiprocessorCount, props->multiprocessorCount);
  EXPECT_EQ(target->maxSharedMemoryPerBlock, props->maxSharedMem);
}

TEST_F(CudaDevice, MemoryRoundTrip) {
  constexpr size_t kBytes = 1 << 20;
  ASSERT_VALUE(address, driver().allocate(0, kBytes));
  std::vector<uint8_t> in(kBytes), out(kBytes, 0);
  for (size_t i = 0; i < kBytes; ++i)
    in[i] = static_cast<uint8_t>(i * 7 + 3);
  ASSERT_NO_ERROR(driver().copyToDevice(0, *address, in.data(), kBytes));
  ASSERT_NO_ERROR(driver().copyToHost(0, out.data(), *address, kBytes));
  EXPECT_EQ(in, out);
  ASSERT_NO_ERROR(driver().fill(0, *address + 100, 0xab, 1000));
  ASSERT_NO_ERROR(driver().copyToHost(0, out.data(), *address, kBytes));
  for (size_t i = 0; i < kBytes; ++i)
    ASSERT_EQ(out[i], i >= 100 && i < 1100 ? 0xab : in[i]) << i;
  ASSERT_NO_ERROR(driver().deallocate(0, *address));
  ASSERT_VALUE(empty, driver().allocate(0, 0));
  ASSERT_NO_ERROR(driver().deallocate(0, *empty));
}

TEST_F(CudaDevice, JitsLaunchesAndReadsRegisters) {
  constexpr uint32_t kN = 1000;
  ASSERT_VALUE(module,
               driver().loadModule(0, ptxKernel("tessera_iota", kIotaPtx)));
  ASSERT_VALUE(res, driver().getKernelResources(*module));
  std::printf("tessera_iota: %d registers, %d bytes local, %d bytes static "
              "smem, binary %d\nJIT info log: %s\n",
              res->registers, res->spillBytes, res->staticSharedBytes,
              res->binaryVersion, res->jitInfoLog.c_str());
  EXPECT_GT(res->registers, 0);
  EXPECT_LE(res->registers, 255);
  EXPECT_EQ(res->spillBytes, 0);
  EXPECT_EQ(res->maxThreadsPerBlock, 1024);

  ASSERT_VALUE(out, driver().allocate(0, 1024 * sizeof(int32_t)));
  ASSERT_NO_ERROR(driver().fill(0, *out, 0xff, 1024 * sizeof(int32_t)));
  uint64_t outArg = *out;
  uint32_t nArg = kN;
  std::vector<void *> args = {&outArg, &nArg};
  LaunchConfig config;
  config.grid = {8, 1, 1}; // 8 blocks of 4 warps: 1024 threads.
  config.numWarps = 4;
  // Above 48 KiB: the driver must opt the function in first.
  config.sharedMemoryBytes = 100 * 1024;
  ASSERT_VALUE(ms, driver().timeMilliseconds(0, [&] {
    return driver().launch(*module, config, args);
  }));
  EXPECT_GE(*ms, 0.0);
  ASSERT_NO_ERROR(driver().synchronize(0));
  std::vector<int32_t> host(1024);
  ASSERT_NO_ERROR(
      driver().copyToHost(0, host.data(), *out, host.size() * sizeof(int32_t)));
  for (uint32_t i = 0; i < 1024; ++i)
    ASSERT_EQ(host[i], i < kN ? static_cast<int32_t>(i) : -1) << i;

  config.numWarps = 33;
  EXPECT_THAT(llvm::toString(driver().launch(*module, config, args)),
              HasSubstr("33 warps"));
  ASSERT_NO_ERROR(driver().deallocate(0, *out));
  ASSERT_NO_ERROR(driver().unloadModule(*module));
  EXPECT_FALSE(static_cast<bool>(driver().getKernelResources(*module)));
  llvm::consumeError(driver().getKernelResources(*module).takeError());
}

TEST_F(CudaDevice, LoadErrorsCarryTheJitLog) {
  llvm::Expected<ModuleHandle> bad =
      driver().loadModule(0, ptxKernel("k", ".version 7.0\n.target sm_80\n"
                                            ".address_size 64\nnot ptx;\n"));
  ASSERT_FALSE(static_cast<bool>(bad));
  std::string message = llvm::toString(bad.takeError());
  std::printf("%s\n", message.c_str());
  EXPECT_THAT(message, HasSubstr("cuModuleLoadDataEx of kernel 'k' on device "
                                 "0: CUDA_ERROR_INVALID_PTX"));
  EXPECT_THAT(message, HasSubstr("JIT error log"));

  llvm::Expected<ModuleHandle> missing =
      driver().loadModule(0, ptxKernel("no_such_kernel", kIotaPtx));
  ASSERT_FALSE(static_cast<bool>(missing));
  EXPECT_THAT(llvm::toString(missing.takeError()),
              HasSubstr("cuModuleGetFunction of kernel 'no_such_kernel' on "
                        "device 0: CUDA_ERROR_NOT_FOUND"));

  CompiledKernel foreign = ptxKernel("k", "");
  foreign.format = "elf-object";
  llvm::Expected<ModuleHandle> wrong = driver().loadModule(0, foreign);
  ASSERT_FALSE(static_cast<bool>(wrong));
  EXPECT_THAT(llvm::toString(wrong.takeError()),
              HasSubstr("its format is 'elf-object'"));
}

/// Compiles `source` for the device through `route` (extra options in
/// `options`); false when the route's assembler is not installed.
bool compileForDevice(llvm::StringRef source, llvm::StringRef name,
                      llvm::StringRef arch, llvm::StringRef route,
                      CompileOptions options, CompiledKernel &kernel) {
  options.extra[kAssemblerOption] = route.str();
  llvm::Expected<std::string> ptx = compileToPTX(source, arch, options);
  if (!ptx) {
    ADD_FAILURE() << llvm::toString(ptx.takeError());
    return false;
  }
  kernel.backend = "nvptx";
  kernel.arch = arch.str();
  kernel.name = name.str();
  if (llvm::Error err = assemblePTX(*ptx, name, arch, options, kernel)) {
    std::string message = llvm::toString(std::move(err));
    if (message.find("not found") == std::string::npos)
      ADD_FAILURE() << message;
    else
      std::printf("%s: skipped, %s\n", route.str().c_str(), message.c_str());
    return false;
  }
  return true;
}

TEST_F(CudaDevice, EmittedVectorAddRunsThroughEveryRoute) {
  ASSERT_VALUE(props, driver().getDeviceProperties(0));
  constexpr uint32_t kN = 1000;
  std::vector<float> a(kN), b(kN);
  for (uint32_t i = 0; i < kN; ++i) {
    a[i] = 0.5f * i;
    b[i] = 1000.0f - i;
  }
  size_t bytes = kN * sizeof(float);
  ASSERT_VALUE(da, driver().allocate(0, bytes));
  ASSERT_VALUE(db, driver().allocate(0, bytes));
  ASSERT_VALUE(dc, driver().allocate(0, bytes));
  ASSERT_NO_ERROR(driver().copyToDevice(0, *da, a.data(), bytes));
  ASSERT_NO_ERROR(driver().copyToDevice(0, *db, b.data(), bytes));
  for (llvm::StringRef route : {"nvjitlink", "ptxas", "driver"}) {
    CompileOptions options;
    // The driver's JIT gets the limit through the kernel's metadata.
    if (route == "driver")
      options.maxNumRegs = 32;
    CompiledKernel kernel;
    if (!compileForDevice(kVectorAdd, "add", props->arch, route, options,
                          kernel))
      continue;
    ASSERT_VALUE(module, driver().loadModule(0, kernel));
    ASSERT_VALUE(res, driver().getKernelResources(*module));
    std::printf("add through %s: %s, %d registers (assembler said %d)\n",
                route.str().c_str(), kernel.format.c_str(), res->registers,
                kernel.registers);
    if (kernel.registers >= 0) {
      EXPECT_EQ(res->registers, kernel.registers) << route.str();
    }
    EXPECT_LE(res->registers, route == "driver" ? 32 : 255);
    ASSERT_NO_ERROR(driver().fill(0, *dc, 0xff, bytes));
    uint64_t aArg = *da, bArg = *db, cArg = *dc;
    uint32_t nArg = kN;
    std::vector<void *> args = {&aArg, &bArg, &cArg, &nArg};
    LaunchConfig config;
    config.grid = {8, 1, 1};
    config.numWarps = 4;
    ASSERT_NO_ERROR(driver().launch(*module, config, args));
    ASSERT_NO_ERROR(driver().synchronize(0));
    std::vector<float> c(kN);
    ASSERT_NO_ERROR(driver().copyToHost(0, c.data(), *dc, bytes));
    for (uint32_t i = 0; i < kN; ++i)
      ASSERT_EQ(c[i], a[i] + b[i]) << route.str() << " at " << i;
    ASSERT_NO_ERROR(driver().unloadModule(*module));
  }
  for (uint64_t p : {*da, *db, *dc})
    ASSERT_NO_ERROR(driver().deallocate(0, p));
}

TEST_F(CudaDevice, EmittedLibdeviceKernelsAreAccurate) {
  if (llvm::Expected<std::string> libdevice = findLibdevice(); !libdevice)
    GTEST_SKIP() << llvm::toString(libdevice.takeError());
  ASSERT_VALUE(props, driver().getDeviceProperties(0));
  constexpr uint32_t kN = 128;
  std::vector<float> x(kN);
  for (uint32_t i = 0; i < kN; ++i)
    x[i] = 0.37f * i - 20.0f + (i % 7) * 1e-3f;
  size_t bytes = kN * sizeof(float);
  ASSERT_VALUE(dx, driver().allocate(0, bytes));
  ASSERT_VALUE(dy, driver().allocate(0, bytes));
  ASSERT_NO_ERROR(driver().copyToDevice(0, *dx, x.data(), bytes));
  struct Case {
    const char *source, *name;
  };
  for (Case c : {Case{kExp, "exp_kernel"}, Case{kSqrt, "sqrt_kernel"}}) {
    CompiledKernel kernel;
    if (!compileForDevice(c.source, c.name, props->arch, "auto",
                          CompileOptions(), kernel))
      continue;
    ASSERT_VALUE(module, driver().loadModule(0, kernel));
    uint64_t xArg = *dx, yArg = *dy;
    std::vector<void *> args = {&xArg, &yArg};
    LaunchConfig config;
    config.numWarps = kN / 32;
    ASSERT_NO_ERROR(driver().launch(*module, config, args));
    ASSERT_NO_ERROR(driver().synchronize(0));
    std::vector<float> y(kN);
    ASSERT_NO_ERROR(driver().copyToHost(0, y.data(), *dy, bytes));
    for (uint32_t i = 0; i < kN; ++i) {
      if (c.source == kSqrt) {
        // Correctly rounded, as the host's; NaN below zero.
        if (x[i] < 0)
          EXPECT_TRUE(std::isnan(y[i])) << i;
        else
          EXPECT_EQ(y[i], std::sqrt(x[i])) << "sqrt(" << x[i] << ")";
      } else {
        double want = std::exp(static_cast<double>(x[i]));
        EXPECT_NEAR(y[i], want, 4e-7 * want) << "exp(" << x[i] << ")";
      }
    }
    ASSERT_NO_ERROR(driver().unloadModule(*module));
  }
  ASSERT_NO_ERROR(driver().deallocate(0, *dx));
  ASSERT_NO_ERROR(driver().deallocate(0, *dy));
}

// Last: the fault leaves the primary context unusable for the process.
TEST_F(CudaDevice, ZZFaultIsReportedBySynchronize) {
  ASSERT_VALUE(module,
               driver().loadModule(0, ptxKernel("tessera_store", kStorePtx)));
  uint64_t where = 0x10; // Never mapped.
  std::vector<void *> args = {&where};
  LaunchConfig config;
  config.numWarps = 1;
  ASSERT_NO_ERROR(driver().launch(*module, config, args));
  llvm::Error err = driver().synchronize(0);
  ASSERT_TRUE(static_cast<bool>(err));
  std::string message = llvm::toString(std::move(err));
  std::printf("%s\n", message.c_str());
  EXPECT_THAT(message, HasSubstr("cuStreamSynchronize on device 0: "
                                 "CUDA_ERROR_ILLEGAL_ADDRESS"));
  EXPECT_THAT(message, HasSubstr("context is now unusable"));
}

} // namespace
