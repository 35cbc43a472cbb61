//===- CpuEndToEndTest.cpp - Real kernels on the cpu plugin ---------------===//
//
// The whole path with a real plugin: discovery, the frontend, the core and
// cpu pipelines, the disk cache, loading, packing, launching, and the
// benchmark helper. Skipped where the build has no cpu plugin.
//
//===----------------------------------------------------------------------===//
#include "CpuRuntime.h"
#include "FakeBackend.h"
#include "TestSupport.h"

#include "tessera/Runtime/AtomicFile.h"
#include "tessera/Runtime/JitKernel.h"
#include "tessera/Runtime/Runtime.h"
#include "tessera/Runtime/TunedKernel.h"

#include "llvm/Support/FileSystem.h"

#include <cmath>
#include <numeric>

using namespace mlir::tessera;
using namespace mlir::tessera::runtime;
using namespace mlir::tessera::runtime::testing;

namespace {
std::string kernelFile(llvm::StringRef name) {
  return std::string(TESSERA_SOURCE_DIR) + "/conformance/kernels/" + name.str();
}

/// Launches `kernel` (parameters x, out, n and a constexpr BLOCK, one
/// program per BLOCK elements) on x = 0, 1, ..., n - 1 and out = 0, and
/// returns out.
std::vector<float> launchOverRange(Runtime &rt, TunedKernel &kernel,
                                   int64_t n) {
  std::vector<float> x(n);
  std::iota(x.begin(), x.end(), 0.0f);
  Buffer bx = llvm::cantFail(rt.allocate(n * 4, "fp32"));
  Buffer bo = llvm::cantFail(rt.allocate(n * 4, "fp32"));
  EXPECT_EQ(errorOf(bx.copyFromHost(x.data(), n * 4)), "success");
  EXPECT_EQ(errorOf(bo.fill(0)), "success");
  Grid grid([n](const LaunchMeta &meta) -> GridDims {
    return {static_cast<uint64_t>(cdiv(n, meta["BLOCK"])), 1, 1};
  });
  EXPECT_EQ(errorOf(kernel.launch(grid, {bx, bo, n})), "success");
  EXPECT_EQ(errorOf(rt.getDevice()->synchronize()), "success");
  std::vector<float> out(n);
  EXPECT_EQ(errorOf(bo.copyToHost(out.data(), n * 4)), "success");
  return out;
}

} // namespace

TEST(CpuEndToEndTest, VectorAdd) {
  ScratchDirectory cache;
  std::unique_ptr<Runtime> rt = openCPU(cache.path());
  if (!rt)
    GTEST_SKIP() << "no cpu plugin in this build";
  llvm::Expected<JitKernel &> kernel =
      rt->getJitKernel(kernelFile("01_vector_add.py"), "add_kernel");
  ASSERT_EXPECTED(kernel);

  for (int64_t n : {1, 1000, 4097}) {
    std::vector<float> x(n), y(n), out(n, std::nanf(""));
    for (int64_t i = 0; i < n; ++i) {
      x[i] = 0.5f * i;
      y[i] = 1.0f - i;
    }
    size_t bytes = n * sizeof(float);
    Buffer bx = llvm::cantFail(rt->allocate(bytes, "fp32"));
    Buffer by = llvm::cantFail(rt->allocate(bytes, "fp32"));
    Buffer bo = llvm::cantFail(rt->allocate(bytes, "fp32"));
    ASSERT_NO_ERROR(bx.copyFromHost(x.data(), bytes));
    ASSERT_NO_ERROR(by.copyFromHost(y.data(), bytes));
    ASSERT_NO_ERROR(bo.copyFromHost(out.data(), bytes));
    Grid grid([n](const LaunchMeta &meta) -> GridDims {
      return {static_cast<uint64_t>(cdiv(n, meta["BLOCK_SIZE"])), 1, 1};
    });
    ASSERT_NO_ERROR(
        kernel->launch(grid, {bx, by, bo, n}, {{"BLOCK_SIZE", 256}}));
    ASSERT_NO_ERROR(rt->getDevice()->synchronize());
    ASSERT_NO_ERROR(bo.copyToHost(out.data(), bytes));
    for (int64_t i = 0; i < n; ++i)
      ASSERT_EQ(out[i], x[i] + y[i]) << "n=" << n << " i=" << i;
  }

  // The benchmark helper times real launches.
  Buffer b = llvm::cantFail(rt->allocate(4096 * 4, "fp32"));
  BenchOptions options;
  options.warmupMs = 1;
  options.repMs = 5;
  options.flushBytes = 1 << 20;
  llvm::Expected<BenchStats> stats = benchmark(
      rt->getDevice()->getDriver(), rt->getDevice()->getIndex(),
      [&] {
        return kernel->launch(16, {b, b, b, 4096}, {{"BLOCK_SIZE", 256}});
      },
      options);
  ASSERT_EXPECTED(stats);
  EXPECT_GT(stats->runs, 0u);
  EXPECT_GT(stats->median, 0.0);
  EXPECT_LE(stats->min, stats->median);
  EXPECT_LE(stats->median, stats->max);
}

TEST(CpuEndToEndTest, SoftmaxFromTheDiskCache) {
  ScratchDirectory cache;
  const int64_t rows = 7, cols = 33;
  std::vector<float> in(rows * cols);
  for (size_t i = 0; i < in.size(); ++i)
    in[i] = std::sin(0.37 * i);
  for (int session = 0; session < 2; ++session) {
    std::unique_ptr<Runtime> rt = openCPU(cache.path());
    if (!rt)
      GTEST_SKIP() << "no cpu plugin in this build";
    JitKernel &kernel =
        *rt->getJitKernel(kernelFile("02_fused_softmax.py"), "softmax_kernel");
    size_t bytes = in.size() * sizeof(float);
    Buffer bi = llvm::cantFail(rt->allocate(bytes, "fp32"));
    Buffer bo = llvm::cantFail(rt->allocate(bytes, "fp32"));
    ASSERT_NO_ERROR(bi.copyFromHost(in.data(), bytes));
    ASSERT_NO_ERROR(bo.fill(0xff));
    ASSERT_NO_ERROR(kernel.launch(3, {bo, bi, cols, cols, rows, cols},
                                  {{"BLOCK_SIZE", 64}, {"num_stages", 2}}));
    ASSERT_NO_ERROR(rt->getDevice()->synchronize());
    std::vector<float> out(in.size());
    ASSERT_NO_ERROR(bo.copyToHost(out.data(), bytes));
    for (int64_t r = 0; r < rows; ++r) {
      double max = -INFINITY, sum = 0;
      for (int64_t c = 0; c < cols; ++c)
        max = std::max<double>(max, in[r * cols + c]);
      for (int64_t c = 0; c < cols; ++c)
        sum += std::exp(in[r * cols + c] - max);
      for (int64_t c = 0; c < cols; ++c)
        ASSERT_NEAR(out[r * cols + c], std::exp(in[r * cols + c] - max) / sum,
                    1e-6);
    }
    // The second session reads the binary from the disk cache.
    EXPECT_EQ(kernel.getStatistics().diskCacheHits, session == 0 ? 0u : 1u);
  }
}

TEST(CpuEndToEndTest, AutotunedKernelRunsTheChosenConfig) {
  ScratchDirectory cache;
  std::unique_ptr<Runtime> rt = openCPU(cache.path());
  if (!rt)
    GTEST_SKIP() << "no cpu plugin in this build";
  std::string path = cache.path() + "/tuned_add.py";
  ASSERT_NO_ERROR(writeFileAtomically(path, R"(import triton
import triton.language as tl


@triton.autotune(configs=[triton.Config({'BLOCK': 64}, num_warps=1),
                          triton.Config({'BLOCK': 512}, num_warps=2)],
                 key=['n'], reset_to_zero=['out_ptr'])
@triton.jit
def add(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.atomic_add(out_ptr + offs, x, mask=mask)
)"));
  TunedKernel &kernel = *rt->getKernel(path, "add");
  const int64_t n = 3000;
  // The trial runs accumulated into `out`; reset_to_zero cleared it
  // before the real launch, which added x exactly once.
  std::vector<float> out = launchOverRange(*rt, kernel, n);
  ASSERT_EQ(out.size(), size_t(n));
  for (int64_t i = 0; i < n; ++i)
    ASSERT_EQ(out[i], float(i)) << i;
  EXPECT_EQ(kernel.getStatistics().tunings, 1u);
  EXPECT_EQ(kernel.getStatistics().loads, 2u);
  // The choice is on disk for the next process.
  std::error_code ec;
  unsigned records = 0;
  for (llvm::sys::fs::recursive_directory_iterator
           it(cache.path() + "/autotune", ec),
       end;
       it != end && !ec; it.increment(ec))
    records += llvm::StringRef(it->path()).ends_with(".json");
  EXPECT_EQ(records, 1u);
}

TEST(CpuEndToEndTest, ConfigsCompilingToOneLaunchAreTimedOnce) {
  // The cpu backend has no loads to pipeline: configs differing only in
  // num_stages compile to one binary, launched alike. The tuning times the
  // first and gives the second its time (the first wins the tie); another
  // block size is a launch of its own.
  ScratchDirectory cache;
  std::unique_ptr<Runtime> rt = openCPU(cache.path());
  if (!rt)
    GTEST_SKIP() << "no cpu plugin in this build";
  std::string path = cache.path() + "/tuned_scale.py";
  ASSERT_NO_ERROR(writeFileAtomically(path, R"(import triton
import triton.language as tl


@triton.autotune(configs=[triton.Config({'BLOCK': 64}, num_stages=2),
                          triton.Config({'BLOCK': 64}, num_stages=3),
                          triton.Config({'BLOCK': 256}, num_stages=2)],
                 key=['n'])
@triton.jit
def scale(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) * 2, mask=mask)
)"));
  TunedKernel &kernel = *rt->getKernel(path, "scale");
  const int64_t n = 3000;
  std::vector<float> out = launchOverRange(*rt, kernel, n);
  ASSERT_EQ(out.size(), size_t(n));
  for (int64_t i = 0; i < n; ++i)
    ASSERT_EQ(out[i], 2.0f * i) << i;
  TunedKernel::Statistics stats = kernel.getStatistics();
  EXPECT_EQ(stats.tunings, 1u);
  EXPECT_EQ(stats.configsTimed, 2u);
  EXPECT_EQ(stats.configsSameAsEarlier, 1u);
  // The second config never runs alone: whichever block size won, the
  // num_stages=3 twin did not.
  Buffer b = llvm::cantFail(rt->allocate(n * 4, "fp32"));
  llvm::Expected<std::optional<TuneCandidate>> chosen =
      kernel.getTunedConfig({b, b, n});
  ASSERT_NO_ERROR(chosen.takeError());
  ASSERT_TRUE(chosen->has_value());
  EXPECT_FALSE((*chosen)->numStages == 3);
}

TEST(CpuEndToEndTest, ConcurrentCompilesMatchOneAtATime) {
  // Four specializations compiled as one batch on four threads, then one by
  // one in a session of its own (cold caches both): the same bytes.
  auto compileAll = [](const std::string &cache,
                       const char *threads) -> std::vector<std::string> {
    ScopedEnv env("TESSERA_COMPILE_THREADS", threads);
    std::unique_ptr<Runtime> rt = openCPU(cache);
    if (!rt)
      return {};
    JitKernel &kernel =
        *rt->getJitKernel(kernelFile("01_vector_add.py"), "add_kernel");
    Buffer b = llvm::cantFail(rt->allocate(4096 * 4, "fp32"));
    std::vector<JitKernel::Launch> launches;
    for (int block : {64, 128, 256, 1024}) {
      JitKernel::Launch l;
      llvm::cantFail(
          kernel.bind({b, b, b, 4096}, {{"BLOCK_SIZE", block}}, l.bound));
      launches.push_back(std::move(l));
    }
    std::vector<std::string> binaries;
    for (llvm::Expected<const KernelVariant *> &result :
         kernel.compileAll(launches)) {
      if (!result) {
        ADD_FAILURE() << llvm::toString(result.takeError());
        return {};
      }
      binaries.push_back((*result)->kernel.binary);
    }
    return binaries;
  };
  ScratchDirectory first, second;
  std::vector<std::string> concurrent = compileAll(first.path(), "4");
  std::vector<std::string> serial = compileAll(second.path(), "1");
  if (concurrent.empty() && serial.empty())
    GTEST_SKIP() << "no cpu plugin in this build";
  ASSERT_EQ(concurrent.size(), 4u);
  ASSERT_EQ(serial.size(), 4u);
  for (unsigned i = 0; i < 4; ++i) {
    EXPECT_FALSE(concurrent[i].empty());
    EXPECT_EQ(concurrent[i], serial[i]) << "specialization " << i;
  }
  EXPECT_NE(concurrent[0], concurrent[3]);
}
