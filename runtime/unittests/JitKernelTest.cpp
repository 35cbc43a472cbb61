//===- JitKernelTest.cpp - Launch, dispatch, disk cache and autotuning ----===//
//
// Real kernel files go through the real frontend and core pipeline; the
// fake backend records their parameters, and its driver records launches
// and reports the timings the tests choose.
//
//===----------------------------------------------------------------------===//
#include "FakeBackend.h"
#include "TestSupport.h"

#include "tessera/Runtime/AtomicFile.h"
#include "tessera/Runtime/JitKernel.h"
#include "tessera/Runtime/Runtime.h"
#include "tessera/Runtime/TunedKernel.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <chrono>
#include <cstring>

using namespace mlir::tessera;
using namespace mlir::tessera::runtime;
using namespace mlir::tessera::runtime::testing;

namespace {
constexpr const char *kAddKernel = R"(import triton
import triton.language as tl


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(out_ptr + offsets, x + y, mask=mask)
)";

constexpr const char *kCopyKernel = R"(import triton
import triton.language as tl


@triton.jit
def copy_kernel(x_ptr, out_ptr, stride, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.load(x_ptr + offs * stride))
)";

constexpr const char *kTunedKernel = R"(import triton
import triton.language as tl


@triton.autotune(
    configs=[
        triton.Config({'BLOCK': 64}, num_warps=2),
        triton.Config({'BLOCK': 128}, num_warps=4),
        triton.Config({'BLOCK': 256}, num_warps=8),
    ],
    key=['n'],
    reset_to_zero=['out_ptr'],
    restore_value=['acc_ptr'],
)
@triton.heuristics({'EVEN': lambda args: args['n'] % args['BLOCK'] == 0})
@triton.jit
def tuned_kernel(x_ptr, out_ptr, acc_ptr, n, BLOCK: tl.constexpr,
                 EVEN: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    if EVEN:
        tl.store(out_ptr + offsets, tl.load(x_ptr + offsets))
    else:
        mask = offsets < n
        tl.store(out_ptr + offsets, tl.load(x_ptr + offsets, mask=mask),
                 mask=mask)
    tl.atomic_add(acc_ptr, 1)
)";

/// A session over a fresh fake backend, with its own cache directory.
struct Session {
  ScratchDirectory dir;
  std::shared_ptr<FakeBackend> backend = std::make_shared<FakeBackend>();
  std::unique_ptr<Runtime> rt;

  explicit Session(std::string cacheDir = "") {
    open(cacheDir.empty() ? dir.path() + "/cache" : cacheDir);
  }
  void open(const std::string &cacheDir) {
    RuntimeOptions options;
    options.cacheDirectory = cacheDir;
    options.disableCache = false;
    options.dump = DumpOptions();
    options.tuning.flushBytes = 1024;
    options.tuning.warmupMs = 1;
    options.tuning.repMs = 5;
    llvm::Expected<std::unique_ptr<Runtime>> created = Runtime::create(
        {backend, {"fake", "1.0", "a backend the tests control"}}, options);
    if (!created)
      ADD_FAILURE() << llvm::toString(created.takeError());
    else
      rt = std::move(*created);
  }
  Buffer alloc(size_t bytes, llvm::StringRef type) {
    return llvm::cantFail(rt->allocate(bytes, type));
  }
  std::string write(llvm::StringRef name, llvm::StringRef text) {
    std::string path = dir.path() + "/" + name.str();
    llvm::cantFail(writeFileAtomically(path, text));
    return path;
  }
};

Grid blocksOf(int64_t n, llvm::StringRef block) {
  std::string name = block.str();
  return Grid([n, name](const LaunchMeta &meta) -> GridDims {
    return {static_cast<uint64_t>(cdiv(n, meta[name])), 1, 1};
  });
}
} // namespace

TEST(JitKernelTest, LaunchPacksArgumentsAndReusesTheKernel) {
  Session s;
  std::string path = s.write("add.py", kAddKernel);
  llvm::Expected<JitKernel &> kernel = s.rt->getJitKernel(path, "add_kernel");
  ASSERT_EXPECTED(kernel);
  EXPECT_EQ(kernel->getParams().size(), 5u);
  EXPECT_TRUE(kernel->getParams()[4].isConstexpr);

  Buffer x = s.alloc(4000, "fp32"), y = s.alloc(4000, "fp32"),
         out = s.alloc(4000, "fp32");
  ASSERT_NO_ERROR(kernel->launch(blocksOf(1000, "BLOCK_SIZE"),
                                 {x, y, out, 1000}, {{"BLOCK_SIZE", 128}}));
  FakeDriver &driver = s.backend->driver;
  ASSERT_EQ(driver.launches.size(), 1u);
  const FakeLaunch &launch = driver.launches[0];
  EXPECT_EQ(launch.config.grid, (std::array<uint32_t, 3>{8, 1, 1}));
  EXPECT_EQ(launch.config.numWarps, 4u);
  ASSERT_EQ(launch.args.size(), 4u);
  EXPECT_EQ(launch.args[0], x.getAddress());
  EXPECT_EQ(launch.args[1], y.getAddress());
  EXPECT_EQ(launch.args[2], out.getAddress());
  EXPECT_EQ(static_cast<int32_t>(launch.args[3]), 1000);
  EXPECT_EQ(driver.loaded.back().params[0].type, "*fp32");

  // Same specialization: no compilation, no load.
  ASSERT_NO_ERROR(kernel->launch(blocksOf(1000, "BLOCK_SIZE"), {x, y, out, 999},
                                 {{"BLOCK_SIZE", 128}}));
  JitKernel::Statistics stats = kernel->getStatistics();
  EXPECT_EQ(stats.launches, 2u);
  EXPECT_EQ(stats.loads, 1u);
  EXPECT_EQ(stats.dispatchHits, 1u);
  EXPECT_EQ(s.backend->binaries, 1u);

  // n = 1024 is divisible by 16: another kernel.
  ASSERT_NO_ERROR(kernel->launch(7, {x, y, out, 1024}, {{"BLOCK_SIZE", 128}}));
  EXPECT_EQ(kernel->getStatistics().loads, 2u);
  EXPECT_EQ(driver.launches[2].config.grid, (std::array<uint32_t, 3>{7, 1, 1}));

  // A launch option is part of the dispatch key.
  LaunchOptions eight;
  eight.numWarps = 8;
  ASSERT_NO_ERROR(
      kernel->launch(1, {x, y, out, 999}, {{"BLOCK_SIZE", 128}}, eight));
  EXPECT_EQ(kernel->getStatistics().loads, 3u);
  EXPECT_EQ(driver.launches.back().config.numWarps, 8u);

  // A zero-sized grid launches nothing.
  size_t before = driver.launches.size();
  ASSERT_NO_ERROR(kernel->launch(blocksOf(0, "BLOCK_SIZE"), {x, y, out, 999},
                                 {{"BLOCK_SIZE", 128}}));
  EXPECT_EQ(driver.launches.size(), before);
}

TEST(JitKernelTest, IntegersEqualToOneAreConstants) {
  Session s;
  std::string path = s.write("copy.py", kCopyKernel);
  JitKernel &kernel = *s.rt->getJitKernel(path, "copy_kernel");
  Buffer x = s.alloc(1024, "fp32"), out = s.alloc(1024, "fp32");
  ASSERT_NO_ERROR(kernel.launch(1, {x, out, 1}, {{"BLOCK", 64}}));
  ASSERT_NO_ERROR(kernel.launch(1, {x, out, 2}, {{"BLOCK", 64}}));
  FakeDriver &driver = s.backend->driver;
  ASSERT_EQ(driver.launches.size(), 2u);
  // stride == 1 is compiled in: two arguments; stride == 2 is passed.
  EXPECT_EQ(driver.launches[0].args.size(), 2u);
  EXPECT_EQ(driver.launches[1].args.size(), 3u);
  EXPECT_EQ(static_cast<int32_t>(driver.launches[1].args[2]), 2);
  EXPECT_EQ(kernel.getStatistics().loads, 2u);
  llvm::Expected<const KernelVariant *> loaded =
      kernel.prepare({x, out, 1}, {{"BLOCK", 64}});
  ASSERT_EXPECTED(loaded);
  EXPECT_EQ((*loaded)->signature, "*fp32:16,*fp32:16,i32:1,64");
}

TEST(JitKernelTest, RepeatedLaunchesTakeMicroseconds) {
  Session s;
  std::string path = s.write("add.py", kAddKernel);
  JitKernel &kernel = *s.rt->getJitKernel(path, "add_kernel");
  Buffer x = s.alloc(4096, "fp32"), y = s.alloc(4096, "fp32"),
         out = s.alloc(4096, "fp32");
  Grid grid = blocksOf(1024, "BLOCK_SIZE");
  std::vector<KernelArg> args = {x, y, out, 1024};
  std::vector<NamedKernelArg> kwargs = {{"BLOCK_SIZE", 256}};
  ASSERT_NO_ERROR(kernel.launch(grid, args, kwargs));
  s.backend->driver.launches.reserve(20000);
  constexpr int kLaunches = 10000;
  auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < kLaunches; ++i)
    ASSERT_NO_ERROR(kernel.launch(grid, args, kwargs));
  double us = std::chrono::duration<double, std::micro>(
                  std::chrono::steady_clock::now() - start)
                  .count() /
              kLaunches;
  std::printf("[          ] %.2f us per launch (fake driver)\n", us);
  EXPECT_EQ(kernel.getStatistics().loads, 1u);
  // Generous: the machine running the tests is shared.
  EXPECT_LT(us, 200.0);
}

TEST(JitKernelTest, DiskCacheServesANewSession) {
  ScratchDirectory cache;
  std::string path;
  {
    Session s(cache.path());
    path = s.write("add.py", kAddKernel);
    JitKernel &kernel = *s.rt->getJitKernel(path, "add_kernel");
    Buffer x = s.alloc(64, "fp32");
    ASSERT_NO_ERROR(kernel.launch(1, {x, x, x, 16}, {{"BLOCK_SIZE", 16}}));
    EXPECT_EQ(kernel.getStatistics().diskCacheHits, 0u);
    EXPECT_EQ(s.backend->binaries, 1u);
    // Keep the file for the next session.
    llvm::cantFail(writeFileAtomically(cache.path() + "/add.py", kAddKernel));
  }
  Session s(cache.path());
  JitKernel &kernel =
      *s.rt->getJitKernel(cache.path() + "/add.py", "add_kernel");
  Buffer x = s.alloc(64, "fp32");
  ASSERT_NO_ERROR(kernel.launch(1, {x, x, x, 16}, {{"BLOCK_SIZE", 16}}));
  EXPECT_EQ(kernel.getStatistics().diskCacheHits, 1u);
  EXPECT_EQ(s.backend->binaries, 0u);
  ASSERT_EQ(s.backend->driver.launches.size(), 1u);
  EXPECT_EQ(s.backend->driver.launches[0].args.size(), 4u);
}

TEST(JitKernelTest, ClearErrors) {
  Session s;
  std::string path = s.write("add.py", kAddKernel);
  JitKernel &kernel = *s.rt->getJitKernel(path, "add_kernel");
  Buffer x = s.alloc(64, "fp32");
  EXPECT_EQ(errorOf(kernel.launch(1, {x, x, x, 16})),
            "kernel 'add_kernel' is missing argument 'BLOCK_SIZE'");
  EXPECT_EQ(errorOf(kernel.launch(1, {x, x, x, 16}, {{"BLOCK", 16}})),
            "kernel 'add_kernel' has no parameter named 'BLOCK'");
  EXPECT_EQ(errorOf(kernel.launch(1, {x, x, x, 16, 16}, {{"BLOCK_SIZE", 16}})),
            "kernel 'add_kernel' got two values for 'BLOCK_SIZE'");
  EXPECT_EQ(errorOf(kernel.launch(1, {x, x, x, 16, 16, 1})),
            "kernel 'add_kernel' takes 5 arguments, 6 were given");
  EXPECT_EQ(errorOf(kernel.launch(1, {x, KernelArg::pointer(0x40, ""), x, 16},
                                  {{"BLOCK_SIZE", 16}})),
            "argument 'y_ptr': the pointer has no element type; allocate "
            "the buffer with one or pass KernelArg::pointer(address, type)");
  // A float where the kernel loads through a pointer fails in the
  // frontend, at the kernel's line and column.
  std::string error =
      errorOf(kernel.launch(1, {2.5, x, x, 16}, {{"BLOCK_SIZE", 16}}));
  EXPECT_NE(error.find(path + ":10:"), std::string::npos) << error;
  EXPECT_NE(error.find("error:"), std::string::npos) << error;
  // A failed compilation does not fail the next one.
  ASSERT_NO_ERROR(kernel.launch(1, {x, x, x, 16}, {{"BLOCK_SIZE", 16}}));
  EXPECT_EQ(errorOf(s.rt->getJitKernel(path, "sub_kernel")),
            path + ": no @triton.jit function named 'sub_kernel'; it has: "
                   "add_kernel");
}

TEST(JitKernelTest, AutotunesOncePerKeyAndRemembersAcrossSessions) {
  ScratchDirectory cache;
  std::string path = cache.path() + "/tuned.py";
  llvm::cantFail(writeFileAtomically(path, kTunedKernel));
  auto run = [&](Session &s, int64_t n, int32_t &acc, std::vector<char> &out) {
    TunedKernel &kernel = *s.rt->getKernel(path, "tuned_kernel");
    FakeDriver &driver = s.backend->driver;
    // 4 warps are fastest.
    driver.timing = [](const CompiledKernel &k) {
      return k.numWarps == 4 ? 1.0 : 2.0;
    };
    Buffer x = s.alloc(4096, "fp32");
    Buffer o = s.alloc(out.size(), "fp32");
    Buffer a = s.alloc(4, "i32");
    llvm::cantFail(o.copyFromHost(out.data(), out.size()));
    llvm::cantFail(a.copyFromHost(&acc, 4));
    // The kernel's side effects: bump the accumulator, scribble the output.
    driver.onLaunch = [&](const FakeLaunch &launch) {
      int32_t *accumulator = reinterpret_cast<int32_t *>(launch.args[2]);
      ++*accumulator;
      std::memset(reinterpret_cast<void *>(launch.args[1]), 0x7f, out.size());
    };
    llvm::Error err = kernel.launch(blocksOf(n, "BLOCK"), {x, o, a, n});
    driver.onLaunch = nullptr;
    llvm::cantFail(o.copyToHost(out.data(), out.size()));
    llvm::cantFail(a.copyToHost(&acc, 4));
    return err;
  };

  {
    Session s(cache.path());
    int32_t acc = 10;
    std::vector<char> out(1024, 1);
    ASSERT_NO_ERROR(run(s, 1000, acc, out));
    TunedKernel &kernel = *s.rt->getKernel(path, "tuned_kernel");
    EXPECT_EQ(kernel.getStatistics().tunings, 1u);
    // Every config was compiled for the trials; the final launch used the
    // fastest one (4 warps, BLOCK 128 -> 8 programs).
    EXPECT_EQ(kernel.getStatistics().loads, 3u);
    const FakeLaunch &last = s.backend->driver.launches.back();
    EXPECT_EQ(last.config.numWarps, 4u);
    EXPECT_EQ(last.config.grid[0], 8u);
    // restore_value: the trials' increments were undone; only the real
    // launch counts.
    EXPECT_EQ(acc, 11);
    // The heuristic saw BLOCK from the config: 1000 % 128 != 0.
    llvm::Expected<const KernelVariant *> loaded = kernel.prepare(
        {KernelArg::pointer(64, "fp32"), KernelArg::pointer(64, "fp32"),
         KernelArg::pointer(64, "i32"), 1000});
    ASSERT_EXPECTED(loaded);
    EXPECT_NE((*loaded)->signature.find(",128,False"), std::string::npos)
        << (*loaded)->signature;

    // The same key again: no tuning.
    ASSERT_NO_ERROR(run(s, 1000, acc, out));
    EXPECT_EQ(kernel.getStatistics().tunings, 1u);
    // Another key tunes again.
    ASSERT_NO_ERROR(run(s, 2048, acc, out));
    EXPECT_EQ(kernel.getStatistics().tunings, 2u);
  }

  // A new session finds both keys on disk.
  Session s(cache.path());
  int32_t acc = 0;
  std::vector<char> out(1024, 1);
  ASSERT_NO_ERROR(run(s, 1000, acc, out));
  ASSERT_NO_ERROR(run(s, 2048, acc, out));
  TunedKernel &kernel = *s.rt->getKernel(path, "tuned_kernel");
  EXPECT_EQ(kernel.getStatistics().tunings, 0u);
  EXPECT_EQ(s.backend->driver.launches.size(), 2u);
  EXPECT_EQ(s.backend->driver.launches.back().config.numWarps, 4u);
  EXPECT_EQ(acc, 2);
  llvm::Expected<std::optional<TuneCandidate>> config = kernel.getTunedConfig(
      {KernelArg::pointer(64, "fp32"), KernelArg::pointer(64, "fp32"),
       KernelArg::pointer(64, "i32"), 1000});
  ASSERT_EXPECTED(config);
  ASSERT_TRUE(config->has_value());
  EXPECT_EQ((*config)->str(), "BLOCK=128, num_warps=4, num_stages=3, "
                              "num_ctas=1");
}

TEST(JitKernelTest, ResetToZeroZeroesBeforeTheRealLaunch) {
  Session s;
  std::string path = s.write("tuned.py", kTunedKernel);
  TunedKernel &kernel = *s.rt->getKernel(path, "tuned_kernel");
  FakeDriver &driver = s.backend->driver;
  Buffer x = s.alloc(1024, "fp32");
  Buffer o = s.alloc(1024, "fp32");
  Buffer a = s.alloc(4, "i32");
  ASSERT_NO_ERROR(o.fill(0xff));
  // What the output holds when each launch starts.
  std::vector<uint8_t> seen;
  driver.onLaunch = [&](const FakeLaunch &launch) {
    seen.push_back(*reinterpret_cast<uint8_t *>(launch.args[1]));
    std::memset(reinterpret_cast<void *>(launch.args[1]), 0x7f, 1024);
  };
  ASSERT_NO_ERROR(kernel.launch(blocksOf(256, "BLOCK"), {x, o, a, 256}));
  ASSERT_GT(seen.size(), 3u);
  // The very first trial launch of each config may see what the previous
  // run left only if no reset ran; with reset_to_zero, timed runs and the
  // final launch start from zeros.
  EXPECT_EQ(seen.back(), 0);
  // A pointer without a size cannot be reset.
  Session t;
  std::string path2 = t.write("tuned.py", kTunedKernel);
  TunedKernel &k2 = *t.rt->getKernel(path2, "tuned_kernel");
  Buffer x2 = t.alloc(1024, "fp32");
  Buffer a2 = t.alloc(4, "i32");
  EXPECT_EQ(errorOf(k2.launch(
                1, {x2, KernelArg::pointer(x2.getAddress(), "fp32"), a2, 256})),
            "kernel 'tuned_kernel': cannot reset 'out_ptr': pass it as a "
            "Buffer so that its size is known");
}

namespace {
constexpr const char *kPrunedKernel = R"(import triton
import triton.language as tl


def prune(configs, named_args, **kwargs):
    return [c for c in configs if c.kwargs['BLOCK'] <= named_args['n']]


def model(n, BLOCK, num_warps, **kwargs):
    return -BLOCK


def broken(configs, named_args, **kwargs):
    return torch.cuda.device_count()


@triton.autotune(
    configs=[triton.Config({'BLOCK': b}, num_warps=w)
             for b, w in [(32, 1), (64, 2), (128, 4), (256, 8)]],
    key=['n'],
    prune_configs_by={'early_config_prune': PRUNE, 'perf_model': model,
                      'top_k': 2},
)
@triton.jit
def pk(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, tl.load(x_ptr + offs, mask=offs < n), mask=offs < n)
)";
} // namespace

TEST(JitKernelTest, PruneConfigsBy) {
  for (bool works : {true, false}) {
    Session s;
    std::string text = kPrunedKernel;
    text.replace(text.find("PRUNE"), 5, works ? "prune" : "broken");
    std::string path = s.write("pruned.py", text);
    TunedKernel &kernel = *s.rt->getKernel(path, "pk");
    // 32 would be fastest, then 64, then 128, then 256.
    s.backend->driver.timing = [](const CompiledKernel &k) {
      return static_cast<double>(k.numWarps);
    };
    Buffer x = s.alloc(1024, "fp32");
    ASSERT_NO_ERROR(kernel.launch(blocksOf(200, "BLOCK"), {x, 200}));
    llvm::Expected<std::optional<TuneCandidate>> config =
        kernel.getTunedConfig({x, 200});
    ASSERT_EXPECTED(config);
    if (works) {
      // early_config_prune keeps BLOCK <= 200 (32, 64, 128), the model's
      // top 2 are 128 and 64, and 64 is the faster of those.
      EXPECT_EQ((*config)->str(),
                "BLOCK=64, num_warps=2, num_stages=3, num_ctas=1");
      EXPECT_EQ(kernel.getStatistics().loads, 2u);
    } else {
      // Pruning that cannot be evaluated times every config.
      EXPECT_EQ((*config)->str(),
                "BLOCK=32, num_warps=1, num_stages=3, num_ctas=1");
      EXPECT_EQ(kernel.getStatistics().loads, 4u);
    }
  }
}
