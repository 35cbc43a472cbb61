//===- DriverTest.cpp - The CPU driver's device, memory and modules -------===//
#include "CpuBackend.h"
#include "CpuTestUtils.h"
#include "Kernels.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/SourceMgr.h"

#include "gmock/gmock.h"

#include <chrono>
#include <functional>
#include <pthread.h>
#include <thread>

using namespace mlir::tessera;
using namespace mlir::tessera::cpu::test;
using ::testing::HasSubstr;

namespace {

/// The CompiledKernel of `entry`, the LLVM IR of a module defining
/// `k_cpu_entry`, as the emitter makes it (a test failure when it fails).
CompiledKernel emitEntry(llvm::StringRef entry) {
  CompiledKernel kernel;
  llvm::LLVMContext context;
  llvm::SMDiagnostic diagnostic;
  std::unique_ptr<llvm::Module> module =
      llvm::parseAssemblyString(entry, diagnostic, context);
  EXPECT_TRUE(module) << diagnostic.getMessage().str();
  llvm::Expected<TargetDescription> target = getBackend().describe("");
  EXPECT_TRUE(static_cast<bool>(target));
  if (!module || !target) {
    llvm::consumeError(target.takeError());
    return kernel;
  }
  kernel.backend = "cpu";
  kernel.name = "k_cpu_entry";
  llvm::Error emitted =
      getBackend().emitBinary(*module, kernel, *target, CompileOptions());
  EXPECT_FALSE(static_cast<bool>(emitted))
      << llvm::toString(std::move(emitted));
  return kernel;
}

TEST(CpuDriver, OneHostDevice) {
  Driver &driver = getBackend().getDriver();
  EXPECT_EQ(driver.getDeviceCount(), 1u);
  llvm::Expected<DeviceProperties> props = driver.getDeviceProperties(0);
  ASSERT_TRUE(static_cast<bool>(props)) << llvm::toString(props.takeError());
  EXPECT_EQ(props->warpSize, 1u);
  EXPECT_GE(props->multiprocessorCount, 1u);
  EXPECT_GT(props->totalMemory, 0u);
  EXPECT_THAT(props->name, HasSubstr("CPU"));
  llvm::Expected<TargetDescription> target = getBackend().describe(props->arch);
  ASSERT_TRUE(static_cast<bool>(target)) << llvm::toString(target.takeError());
  EXPECT_EQ(target->warpSize, 1u);
  EXPECT_EQ(target->maxThreadsPerBlock, 1u);
  EXPECT_TRUE(target->matrixInstructions.empty());
}

TEST(CpuDriver, ErrorsNameTheDeviceAndStep) {
  Driver &driver = getBackend().getDriver();
  llvm::Expected<DeviceProperties> props = driver.getDeviceProperties(1);
  ASSERT_FALSE(static_cast<bool>(props));
  EXPECT_THAT(llvm::toString(props.takeError()),
              HasSubstr("cpu device 1: get device properties: no such device"));
  llvm::Error err = driver.deallocate(0, 0x1234);
  ASSERT_TRUE(static_cast<bool>(err));
  EXPECT_THAT(
      llvm::toString(std::move(err)),
      HasSubstr("cpu device 0: deallocate: 0x1234 is not an allocation"));
  CompiledKernel foreign;
  foreign.backend = "null";
  foreign.format = "none";
  llvm::Expected<ModuleHandle> module = driver.loadModule(0, foreign);
  ASSERT_FALSE(static_cast<bool>(module));
  EXPECT_THAT(llvm::toString(module.takeError()),
              HasSubstr("not for 'cpu' as 'elf-object'"));
}

TEST(CpuDriver, MemoryRoundTrip) {
  Driver &driver = getBackend().getDriver();
  llvm::Expected<uint64_t> address = driver.allocate(0, 100);
  ASSERT_TRUE(static_cast<bool>(address));
  EXPECT_EQ(*address % 128, 0u);
  ASSERT_NO_LLVM_ERROR(driver.fill(0, *address, 0xab, 100));
  std::vector<uint8_t> host(100);
  ASSERT_NO_LLVM_ERROR(driver.copyToHost(0, host.data(), *address, 100));
  EXPECT_EQ(host, std::vector<uint8_t>(100, 0xab));
  ASSERT_NO_LLVM_ERROR(driver.deallocate(0, *address));
}

TEST(CpuDriver, LaunchChecksArguments) {
  llvm::Expected<CompiledKernel> kernel =
      compileKernel(kVectorAdd, "add_kernel");
  ASSERT_TRUE(static_cast<bool>(kernel)) << llvm::toString(kernel.takeError());
  EXPECT_EQ(kernel->format, "elf-object");
  ASSERT_EQ(kernel->params.size(), 4u);
  EXPECT_EQ(kernel->params[0].type, "*fp32");
  EXPECT_EQ(kernel->params[3].type, "i32");
  // A kernel survives serialization (the on-disk cache).
  llvm::Expected<CompiledKernel> copy =
      CompiledKernel::deserialize(kernel->serialize());
  ASSERT_TRUE(static_cast<bool>(copy)) << llvm::toString(copy.takeError());
  LoadedKernel loaded(*copy);
  int32_t n = 0;
  llvm::Error err = loaded.run({1, 1, 1}, {&n});
  ASSERT_TRUE(static_cast<bool>(err));
  EXPECT_THAT(llvm::toString(std::move(err)),
              HasSubstr("expected 4 arguments, got 1"));
  // An empty grid runs nothing.
  ASSERT_NO_LLVM_ERROR(loaded.run({0, 1, 1}, {&n, &n, &n, &n}));
}

TEST(CpuDriver, UnsupportedOpsFailToCompileWithTheirLocation) {
  const char *ir = R"mlir(
func.func @asm_kernel(%p: !tessera.ptr<i32>) attributes {tessera.kernel} {
  %r = tessera.make_range {start = 0 : i32, end = 4 : i32} : tensor<4xi32>
  %a = tessera.inline_asm_elementwise %r {asm_string = "mov $0, $1;", constraints = "=r,r", pure = true, packed_element = 1 : i32} : (tensor<4xi32>) -> tensor<4xi32>
  %s = tessera.splat %p : tensor<4x!tessera.ptr<i32>>
  %q = tessera.addptr %s, %r : tensor<4x!tessera.ptr<i32>>, tensor<4xi32>
  tessera.store %q, %a : tensor<4x!tessera.ptr<i32>>
  return
}
)mlir";
  llvm::Expected<CompiledKernel> kernel = compileKernel(ir, "asm_kernel");
  ASSERT_FALSE(static_cast<bool>(kernel));
  EXPECT_THAT(llvm::toString(kernel.takeError()),
              HasSubstr("4:8: error: tessera.inline_asm_elementwise is not "
                        "supported on the CPU backend"));
}

TEST(CpuDriver, LinkErrorsNameTheMissingSymbol) {
  // An object calling a function nothing defines: loading it fails with the
  // symbol's name rather than crashing at the launch.
  CompiledKernel kernel = emitEntry(R"ll(
declare void @tessera_no_such_function()
define void @k_cpu_entry(ptr %args, i32 %x, i32 %y, i32 %z, i32 %nx, i32 %ny, i32 %nz, ptr %ctx) {
  call void @tessera_no_such_function()
  ret void
}
)ll");
  llvm::Expected<ModuleHandle> loaded =
      getBackend().getDriver().loadModule(0, kernel);
  ASSERT_FALSE(static_cast<bool>(loaded));
  EXPECT_THAT(llvm::toString(loaded.takeError()),
              HasSubstr("tessera_no_such_function"));
}

TEST(CpuDriver, VectorMathCallsNeedTheLibrary) {
  // A kernel whose loop vectorized exp names glibc's vector math library
  // and loads where it is; a kernel naming a library this backend does not
  // use fails to load, saying which.
  CompiledKernel kernel = emitEntry(R"ll(
declare <4 x float> @_ZGVbN4v_expf(<4 x float>)
define void @k_cpu_entry(ptr %args, i32 %x, i32 %y, i32 %z, i32 %nx, i32 %ny, i32 %nz, ptr %ctx) {
  %v = load <4 x float>, ptr %ctx
  %e = call <4 x float> @_ZGVbN4v_expf(<4 x float> %v)
  store <4 x float> %e, ptr %ctx
  ret void
}
)ll");
  EXPECT_EQ(kernel.metadata["vector-math"], "libmvec.so.1");
  llvm::Expected<ModuleHandle> loaded =
      getBackend().getDriver().loadModule(0, kernel);
  ASSERT_TRUE(static_cast<bool>(loaded)) << llvm::toString(loaded.takeError());
  EXPECT_FALSE(
      static_cast<bool>(getBackend().getDriver().unloadModule(*loaded)));

  kernel.metadata["vector-math"] = "libtessera-no-such-vector-math.so";
  llvm::Expected<ModuleHandle> foreign =
      getBackend().getDriver().loadModule(0, kernel);
  ASSERT_FALSE(static_cast<bool>(foreign));
  EXPECT_THAT(llvm::toString(foreign.takeError()),
              HasSubstr("calls the vector math library "
                        "'libtessera-no-such-vector-math.so'"));
}

} // namespace

TEST(CpuDriver, LaunchThreadsPollFor50MsUnlessTold) {
  RestoreEnvOnExit env("TESSERA_CPU_SPIN_US");
  unsetenv("TESSERA_CPU_SPIN_US");
  EXPECT_EQ(cpu::getLaunchSpinTime().count(), 50000);
  setenv("TESSERA_CPU_SPIN_US", "0", 1);
  EXPECT_EQ(cpu::getLaunchSpinTime().count(), 0);
  setenv("TESSERA_CPU_SPIN_US", "1200", 1);
  EXPECT_EQ(cpu::getLaunchSpinTime().count(), 1200);
  // Not a number, negative, or over a minute: the default, with a warning.
  for (const char *bad : {"fast", "-5", "12us", "60000001"}) {
    setenv("TESSERA_CPU_SPIN_US", bad, 1);
    EXPECT_EQ(cpu::getLaunchSpinTime().count(), 50000) << bad;
  }
}

TEST(CpuDriver, LaunchesAfterIdleTimeRunEveryInstance) {
  // Workers that stopped polling (after 1 ms) sleep and the next launch
  // wakes them; launches right after one another find them polling; a
  // pool with more threads than cores has sleepers only past the cores.
  RestoreEnvOnExit env("TESSERA_CPU_SPIN_US");
  llvm::Expected<CompiledKernel> kernel =
      compileKernel(kVectorAdd, "add_kernel");
  ASSERT_TRUE(static_cast<bool>(kernel)) << llvm::toString(kernel.takeError());
  LoadedKernel loaded(*kernel);
  const int n = 4096;
  for (unsigned threads : {0u, 8u}) {
    setLaunchThreads(threads);
    for (const char *spin : {"1000", "0", "50000"}) {
      setenv("TESSERA_CPU_SPIN_US", spin, 1);
      for (int round = 0; round < 3; ++round) {
        if (round == 1)
          std::this_thread::sleep_for(std::chrono::milliseconds(5));
        std::vector<float> x(n, 1.0f + round), y(n, 2.0f), out(n, -1.0f);
        DeviceBuffer dx(x), dy(y), dout(out);
        int32_t count = n;
        llvm::Error err =
            loaded.run({n / 64, 1, 1},
                       {&dx.address(), &dy.address(), &dout.address(), &count});
        ASSERT_FALSE(err) << llvm::toString(std::move(err));
        std::vector<float> result = dout.read<float>();
        for (int i = 0; i < n; ++i)
          ASSERT_EQ(result[i], 3.0f + round)
              << "threads " << threads << ", spin " << spin << ", at " << i;
      }
    }
  }
  setLaunchThreads(0);
}

namespace {

/// The lowest and highest address of the calling thread's stack.
std::pair<uintptr_t, uintptr_t> getOwnStack() {
  pthread_attr_t attr;
  void *base = nullptr;
  size_t size = 0;
  EXPECT_EQ(pthread_getattr_np(pthread_self(), &attr), 0);
  EXPECT_EQ(pthread_attr_getstack(&attr, &base, &size), 0);
  pthread_attr_destroy(&attr);
  auto low = reinterpret_cast<uintptr_t>(base);
  return {low, low + size};
}

/// Runs `body` on a new thread with `stackBytes` of stack, and joins it.
void runOnThreadWithStack(size_t stackBytes, std::function<void()> body) {
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  ASSERT_EQ(pthread_attr_setstacksize(&attr, stackBytes), 0);
  pthread_t thread;
  auto start = [](void *arg) -> void * {
    (*static_cast<std::function<void()> *>(arg))();
    return nullptr;
  };
  ASSERT_EQ(pthread_create(&thread, &attr, start, &body), 0);
  pthread_attr_destroy(&attr);
  pthread_join(thread, nullptr);
}

} // namespace

TEST(CpuDriver, StackBoundOfStaticFramesOnly) {
  // A buffer allocated outside the entry block but in no loop is allocated
  // once per call: it moves to the entry, the frame is static and its size
  // is in the kernel's metadata.
  CompiledKernel once = emitEntry(R"ll(
define void @k_cpu_entry(ptr %args, i32 %x, i32 %y, i32 %z, i32 %nx, i32 %ny, i32 %nz, ptr %ctx) {
entry:
  %first = icmp eq i32 %x, 0
  br i1 %first, label %then, label %done
then:
  %buf = alloca [65536 x i8], align 64
  store volatile i8 1, ptr %buf
  br label %done
done:
  ret void
}
)ll");
  auto bytes = once.metadata.find(cpu::kStackBytesMetadata.str());
  ASSERT_NE(bytes, once.metadata.end());
  EXPECT_GE(std::stoull(bytes->second), 65536u);
  EXPECT_LT(std::stoull(bytes->second), 65536u + 4096u);

  // One in a loop is a new buffer each iteration: the frame's size varies
  // and no bound is given.
  CompiledKernel looped = emitEntry(R"ll(
define void @k_cpu_entry(ptr %args, i32 %x, i32 %y, i32 %z, i32 %nx, i32 %ny, i32 %nz, ptr %ctx) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %next, %loop ]
  %buf = alloca [64 x i8], align 16
  store volatile i8 1, ptr %buf
  %next = add i32 %i, 1
  %more = icmp slt i32 %next, %x
  br i1 %more, label %loop, label %done
done:
  ret void
}
)ll");
  EXPECT_EQ(looped.metadata.count(cpu::kStackBytesMetadata.str()), 0u);
}

TEST(CpuDriver, InstancesStayOffACallersStackTooSmallForThem) {
  // Each instance writes where its 4 MB buffer is. Launched from a thread
  // with 512 KB of stack, none may be on that thread; from one with 64 MB,
  // the caller may run some itself; every instance runs once either way.
  CompiledKernel kernel = emitEntry(R"ll(
define void @k_cpu_entry(ptr %args, i32 %x, i32 %y, i32 %z, i32 %nx, i32 %ny, i32 %nz, ptr %ctx) {
  %buf = alloca [4194304 x i8], align 64
  %slot = load ptr, ptr %args
  %out = load ptr, ptr %slot
  %at = getelementptr i64, ptr %out, i32 %x
  %where = ptrtoint ptr %buf to i64
  store i64 %where, ptr %at
  ret void
}
)ll");
  ASSERT_TRUE(kernel.metadata.count(cpu::kStackBytesMetadata.str()));
  kernel.params = {KernelParam{"out", "*i64"}};
  LoadedKernel loaded(kernel);
  const uint32_t n = 64;
  for (size_t stack : {size_t(512) << 10, size_t(64) << 20}) {
    runOnThreadWithStack(stack, [&] {
      auto [low, high] = getOwnStack();
      DeviceBuffer out(std::vector<uint64_t>(n, 0));
      llvm::Error err = loaded.run({n, 1, 1}, {&out.address()});
      ASSERT_FALSE(err) << llvm::toString(std::move(err));
      for (uint64_t where : out.read<uint64_t>()) {
        ASSERT_NE(where, 0u);
        if (stack < (4u << 20))
          EXPECT_FALSE(where + (4u << 20) > low && where < high)
              << "an instance ran on the launching thread's stack";
      }
    });
  }
}
