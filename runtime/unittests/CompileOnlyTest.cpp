//===- CompileOnlyTest.cpp - Sessions that compile and run nothing --------===//
//
// A compile-only session opens the backend but no device; kernels compile
// for the session's architecture through JitKernel::compile(), and the
// fake driver sees no load, launch or allocation.
//
//===----------------------------------------------------------------------===//
#include "FakeBackend.h"
#include "TestSupport.h"

#include "tessera/Runtime/AtomicFile.h"
#include "tessera/Runtime/JitKernel.h"
#include "tessera/Runtime/Runtime.h"
#include "tessera/Runtime/TunedKernel.h"

#include <thread>

using namespace mlir::tessera;
using namespace mlir::tessera::runtime;
using namespace mlir::tessera::runtime::testing;

namespace {
constexpr const char *kKernels = R"(import triton
import triton.language as tl


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    offsets = tl.program_id(axis=0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(out_ptr + offsets, x + y, mask=mask)


@triton.autotune(
    configs=[
        triton.Config({'BLOCK': 64}, num_warps=2),
        triton.Config({'BLOCK': 128}, num_warps=8, num_stages=2),
    ],
    key=['n'],
)
@triton.jit
def tuned_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    tl.store(out_ptr + offsets, tl.load(x_ptr + offsets, mask=mask), mask=mask)
)";

/// A compile-only session over a fake backend with `devices` devices.
struct CompileOnlySession {
  ScratchDirectory dir;
  std::shared_ptr<FakeBackend> backend = std::make_shared<FakeBackend>();
  std::unique_ptr<Runtime> rt;
  std::string path;

  llvm::Error open(unsigned devices, std::string arch) {
    backend->driver.deviceCount = devices;
    backend->driver.unavailableReason = "no fake device";
    RuntimeOptions options;
    options.compileOnly = true;
    options.arch = std::move(arch);
    options.cacheDirectory = dir.path() + "/cache";
    options.disableCache = true;
    options.dump = DumpOptions();
    llvm::Expected<std::unique_ptr<Runtime>> created = Runtime::create(
        {backend, {"fake", "1.0", "a backend the tests control"}}, options);
    if (!created)
      return created.takeError();
    rt = std::move(*created);
    path = dir.path() + "/kernels.py";
    return writeFileAtomically(path, kKernels);
  }

  /// add_kernel of a session opened without devices for fake-arch.
  llvm::Expected<JitKernel &> openAddKernel() {
    if (llvm::Error err = open(/*devices=*/0, "fake-arch"))
      return std::move(err);
    return rt->getJitKernel(path, "add_kernel");
  }

  /// Nothing reached the device.
  void expectDeviceUntouched() const {
    const FakeDriver &driver = backend->driver;
    EXPECT_TRUE(driver.loaded.empty());
    EXPECT_TRUE(driver.launches.empty());
    EXPECT_EQ(driver.liveBytes, 0u);
    EXPECT_EQ(driver.fillCount, 0u);
  }
};

/// A pointer no memory is behind, 256-byte aligned like an allocation.
KernelArg placeholder(uint64_t index, llvm::StringRef type) {
  return KernelArg::pointer((uint64_t(1) << 40) + index * 4096, type, 4096);
}
/// add_kernel's arguments: three placeholder fp32 arrays and n = 1000.
std::vector<KernelArg> addKernelArgs() {
  return {placeholder(0, "fp32"), placeholder(1, "fp32"),
          placeholder(2, "fp32"), 1000};
}
} // namespace

TEST(CompileOnlyTest, ABackendWithoutDevicesNeedsAnArchitecture) {
  CompileOnlySession s;
  std::string message = errorOf(s.open(/*devices=*/0, ""));
  EXPECT_NE(message.find("backend 'fake' has no device (no fake device): "
                         "compiling without one needs an architecture "
                         "(--arch or TESSERA_ARCH; it knows: fake-arch)"),
            std::string::npos)
      << message;
}

TEST(CompileOnlyTest, NoDeviceIsOpenedEvenWhereThereIsOne) {
  CompileOnlySession s;
  ASSERT_NO_ERROR(s.open(/*devices=*/1, ""));
  EXPECT_TRUE(s.rt->isCompileOnly());
  EXPECT_EQ(s.rt->getDevice(), nullptr);
  std::string message = errorOf(s.rt->requireDevice().takeError());
  EXPECT_NE(message.find("compiles only and uses no device"), std::string::npos)
      << message;
  llvm::Expected<Buffer> buffer = s.rt->allocate(64, "fp32");
  message = errorOf(buffer.takeError());
  EXPECT_NE(message.find("uses no device"), std::string::npos) << message;
  s.expectDeviceUntouched();
}

TEST(CompileOnlyTest, CompilesTheLaunchSpecialization) {
  CompileOnlySession s;
  llvm::Expected<JitKernel &> kernel = s.openAddKernel();
  ASSERT_EXPECTED(kernel);
  std::vector<KernelArg> args = addKernelArgs();
  LaunchOptions eight;
  eight.numWarps = 8;
  llvm::Expected<const KernelVariant *> compiled =
      kernel->compile(args, {{"BLOCK_SIZE", 128}}, eight);
  ASSERT_EXPECTED(compiled);
  const KernelVariant &result = **compiled;
  EXPECT_EQ(result.signature, "*fp32:16,*fp32:16,*fp32:16,i32,128");
  EXPECT_EQ(result.options.arch, "fake-arch");
  EXPECT_EQ(result.options.numWarps, 8);
  EXPECT_EQ(result.kernel.binary, "fake binary");
  EXPECT_EQ(result.kernel.params.size(), 4u);
  EXPECT_FALSE(result.fromDiskCache);
  EXPECT_GE(result.seconds, 0.0);

  // The same specialization again (999 specializes as 1000 does): the
  // same object, no second compilation.
  args[3] = 999;
  llvm::Expected<const KernelVariant *> again =
      kernel->compile(args, {{"BLOCK_SIZE", 128}}, eight);
  ASSERT_EXPECTED(again);
  EXPECT_EQ(*again, *compiled);
  EXPECT_EQ(s.backend->binaries, 1u);

  // Launching needs the device the session does not use.
  std::string message =
      errorOf(kernel->launch(8, args, {{"BLOCK_SIZE", 128}}, eight));
  EXPECT_NE(message.find("uses no device"), std::string::npos) << message;
  s.expectDeviceUntouched();
}

TEST(CompileOnlyTest, ValuesAreCheckedAsALaunchWould) {
  CompileOnlySession s;
  ASSERT_NO_ERROR(s.open(/*devices=*/0, "fake-arch"));
  JitKernel &kernel = *s.rt->getJitKernel(s.path, "add_kernel");
  std::string message =
      errorOf(kernel
                  .compile({placeholder(0, "fp32"), placeholder(1, "fp32")},
                           {{"BLOCK_SIZE", 128}})
                  .takeError());
  EXPECT_NE(message.find("missing arguments 'out_ptr', 'n_elements'"),
            std::string::npos)
      << message;
}

TEST(CompileOnlyTest, AutotunedKernelsCompileTheConfigNamed) {
  CompileOnlySession s;
  ASSERT_NO_ERROR(s.open(/*devices=*/0, "fake-arch"));
  TunedKernel &kernel = *s.rt->getKernel(s.path, "tuned_kernel");
  ASSERT_TRUE(kernel.isAutotuned());
  std::vector<KernelArg> args = {placeholder(0, "fp16"), placeholder(1, "fp16"),
                                 4096};
  std::string message = errorOf(kernel.compile(args).takeError());
  EXPECT_NE(message.find("is autotuned over 2 configs"), std::string::npos)
      << message;

  llvm::Expected<const KernelVariant *> second =
      kernel.compile(args, {}, {}, 1u);
  ASSERT_EXPECTED(second);
  EXPECT_EQ((*second)->signature, "*fp16:16,*fp16:16,i32:16,128");
  EXPECT_EQ((*second)->options.numWarps, 8);
  EXPECT_EQ((*second)->options.numStages, 2);

  message = errorOf(kernel.compile(args, {}, {}, 2u).takeError());
  EXPECT_NE(message.find("has no autotune config 2 (it has 2)"),
            std::string::npos)
      << message;
  TunedKernel &plain = *s.rt->getKernel(s.path, "add_kernel");
  message = errorOf(plain.compile(args, {}, {}, 0u).takeError());
  EXPECT_NE(message.find("is not autotuned"), std::string::npos) << message;
  s.expectDeviceUntouched();
}

TEST(CompileOnlyTest, EveryConfigCompilesInOneBatchInConfigOrder) {
  CompileOnlySession s;
  ASSERT_NO_ERROR(s.open(/*devices=*/0, "fake-arch"));
  TunedKernel &kernel = *s.rt->getKernel(s.path, "tuned_kernel");
  std::vector<KernelArg> args = {placeholder(0, "fp16"), placeholder(1, "fp16"),
                                 4096};
  std::vector<llvm::Expected<const KernelVariant *>> all =
      kernel.compileEveryConfig(args);
  ASSERT_EQ(all.size(), 2u);
  ASSERT_EXPECTED(all[0]);
  ASSERT_EXPECTED(all[1]);
  EXPECT_EQ((*all[0])->signature, "*fp16:16,*fp16:16,i32:16,64");
  EXPECT_EQ((*all[0])->options.numWarps, 2);
  EXPECT_EQ((*all[1])->signature, "*fp16:16,*fp16:16,i32:16,128");
  EXPECT_EQ((*all[1])->options.numWarps, 8);
  EXPECT_EQ(s.backend->binaries, 2u);
  // Each compilation timed its steps.
  EXPECT_GT((*all[1])->times.lookup("frontend"), 0.0);
  EXPECT_GE((*all[1])->times.lookup("binary"), 0.0);
  EXPECT_FALSE((*all[1])->times.empty());

  // The table holds them: compile() of one config finds it, and a second
  // batch compiles nothing.
  llvm::Expected<const KernelVariant *> second =
      kernel.compile(args, {}, {}, 1u);
  ASSERT_EXPECTED(second);
  EXPECT_EQ(*second, *all[1]);
  std::vector<llvm::Expected<const KernelVariant *>> again =
      kernel.compileEveryConfig(args);
  ASSERT_EXPECTED(again[0]);
  EXPECT_EQ(*again[0], *all[0]);
  llvm::consumeError(again[1].takeError());
  EXPECT_EQ(s.backend->binaries, 2u);

  // A kernel that is not autotuned compiles its one launch.
  TunedKernel &plain = *s.rt->getKernel(s.path, "add_kernel");
  std::vector<llvm::Expected<const KernelVariant *>> one =
      plain.compileEveryConfig({placeholder(0, "fp32"), placeholder(1, "fp32"),
                                placeholder(2, "fp32"), 1000},
                               {{"BLOCK_SIZE", 256}});
  ASSERT_EQ(one.size(), 1u);
  ASSERT_EXPECTED(one[0]);
  EXPECT_EQ((*one[0])->signature, "*fp32:16,*fp32:16,*fp32:16,i32,256");
  s.expectDeviceUntouched();
}

TEST(CompileOnlyTest, CompileAllKeepsOrderSharesDuplicatesAndReportsEach) {
  CompileOnlySession s;
  ASSERT_NO_ERROR(s.open(/*devices=*/0, "fake-arch"));
  JitKernel &kernel = *s.rt->getJitKernel(s.path, "add_kernel");
  auto launch = [&](int64_t block, std::vector<KernelArg> values) {
    JitKernel::Launch l;
    if (llvm::Error err =
            kernel.bind(values, {{"BLOCK_SIZE", KernelArg(block)}}, l.bound))
      ADD_FAILURE() << llvm::toString(std::move(err));
    return l;
  };
  std::vector<KernelArg> full = {placeholder(0, "fp32"), placeholder(1, "fp32"),
                                 placeholder(2, "fp32"), 1000};
  std::vector<JitKernel::Launch> launches = {
      launch(64, full),
      launch(128, full),
      launch(64, full), // the first one's specialization again
      launch(64, {placeholder(0, "fp32"), placeholder(1, "fp32")}),
  };
  std::vector<llvm::Expected<const KernelVariant *>> results =
      kernel.compileAll(launches);
  ASSERT_EQ(results.size(), 4u);
  ASSERT_EXPECTED(results[0]);
  ASSERT_EXPECTED(results[1]);
  ASSERT_EXPECTED(results[2]);
  EXPECT_EQ((*results[0])->signature, "*fp32:16,*fp32:16,*fp32:16,i32,64");
  EXPECT_EQ((*results[1])->signature, "*fp32:16,*fp32:16,*fp32:16,i32,128");
  EXPECT_EQ(*results[2], *results[0]);
  std::string message = errorOf(results[3].takeError());
  EXPECT_NE(message.find("missing arguments 'out_ptr', 'n_elements'"),
            std::string::npos)
      << message;
  EXPECT_EQ(s.backend->binaries, 2u);
  EXPECT_EQ(kernel.getStatistics().loads, 2u);
}

TEST(CompileOnlyTest, SpecializationsOfOneKernelCompileAtOnce) {
  // Two threads, two specializations of one kernel: both are in the
  // backend at the same time (each binary waits for the other), where one
  // compilation at a time per kernel would have kept them apart.
  CompileOnlySession s;
  ASSERT_NO_ERROR(s.open(/*devices=*/0, "fake-arch"));
  s.backend->rendezvous = 2;
  llvm::Expected<JitKernel &> kernel = s.rt->getJitKernel(s.path, "add_kernel");
  ASSERT_EXPECTED(kernel);
  std::vector<KernelArg> args = addKernelArgs();
  const KernelVariant *compiled[2] = {nullptr, nullptr};
  std::string errors[2];
  std::vector<std::thread> threads;
  for (int i = 0; i < 2; ++i)
    threads.emplace_back([&, i] {
      llvm::Expected<const KernelVariant *> variant =
          kernel->compile(args, {{"BLOCK_SIZE", 64 << i}}, LaunchOptions());
      if (variant)
        compiled[i] = *variant;
      else
        errors[i] = llvm::toString(variant.takeError());
    });
  for (std::thread &t : threads)
    t.join();
  EXPECT_EQ(errors[0] + errors[1], "");
  ASSERT_NE(compiled[0], nullptr);
  ASSERT_NE(compiled[1], nullptr);
  EXPECT_EQ(compiled[0]->signature, "*fp32:16,*fp32:16,*fp32:16,i32,64");
  EXPECT_EQ(compiled[1]->signature, "*fp32:16,*fp32:16,*fp32:16,i32,128");
  EXPECT_EQ(s.backend->mostAtOnce.load(), 2u);
  EXPECT_EQ(s.backend->binaries.load(), 2u);
}

TEST(CompileOnlyTest, ThreadsMissingOnOneKeyCompileItOnce) {
  // Eight threads launch the same specialization at once: one compiles it,
  // the others wait for it and get the same entry.
  CompileOnlySession s;
  llvm::Expected<JitKernel &> kernel = s.openAddKernel();
  ASSERT_EXPECTED(kernel);
  std::vector<KernelArg> args = addKernelArgs();
  constexpr int kThreads = 8;
  std::vector<const KernelVariant *> compiled(kThreads, nullptr);
  std::vector<std::thread> threads;
  for (int i = 0; i < kThreads; ++i)
    threads.emplace_back([&, i] {
      llvm::Expected<const KernelVariant *> variant =
          kernel->compile(args, {{"BLOCK_SIZE", 128}}, LaunchOptions());
      if (variant)
        compiled[i] = *variant;
      else
        llvm::consumeError(variant.takeError());
    });
  for (std::thread &t : threads)
    t.join();
  ASSERT_NE(compiled[0], nullptr);
  for (const KernelVariant *variant : compiled)
    EXPECT_EQ(variant, compiled[0]);
  EXPECT_EQ(s.backend->binaries.load(), 1u);
}
