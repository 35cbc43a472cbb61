//===- BenchmarkTest.cpp - do_bench statistics and run counts -------------===//
#include "FakeBackend.h"

#include "tessera/Runtime/Benchmark.h"

#include "TestSupport.h"
#include "gtest/gtest.h"

using namespace mlir::tessera;
using namespace mlir::tessera::runtime;
using namespace mlir::tessera::runtime::testing;

TEST(BenchmarkTest, Statistics) {
  BenchStats s = computeBenchStats({4, 1, 3, 2, 5}, {0.0, 0.25, 0.9, 1.0});
  EXPECT_EQ(s.runs, 5u);
  EXPECT_DOUBLE_EQ(s.median, 3);
  EXPECT_DOUBLE_EQ(s.mean, 3);
  EXPECT_DOUBLE_EQ(s.min, 1);
  EXPECT_DOUBLE_EQ(s.max, 5);
  EXPECT_DOUBLE_EQ(s.stddev, std::sqrt(2.0));
  ASSERT_EQ(s.quantiles.size(), 4u);
  EXPECT_DOUBLE_EQ(s.quantiles[0], 1);
  EXPECT_DOUBLE_EQ(s.quantiles[1], 2);
  EXPECT_DOUBLE_EQ(s.quantiles[2], 4.6); // linear between 4 and 5
  EXPECT_DOUBLE_EQ(s.quantiles[3], 5);
  // Run order is kept.
  EXPECT_EQ(s.samples, (std::vector<double>{4, 1, 3, 2, 5}));

  BenchStats even = computeBenchStats({1, 2, 3, 10});
  EXPECT_DOUBLE_EQ(even.median, 2.5);
  BenchStats one = computeBenchStats({7});
  EXPECT_DOUBLE_EQ(one.median, 7);
  EXPECT_DOUBLE_EQ(one.stddev, 0);
}

namespace {
/// A loaded fake kernel whose every launch takes `ms`.
struct TimedKernel {
  FakeDriver driver;
  ModuleHandle module = 0;
  explicit TimedKernel(double ms) {
    driver.timing = [ms](const CompiledKernel &) { return ms; };
    module = *driver.loadModule(0, CompiledKernel());
  }
  llvm::Error launch() { return driver.launch(module, LaunchConfig(), {}); }
};
} // namespace

TEST(BenchmarkTest, RunCountsFollowTheBudgets) {
  TimedKernel k(2.0);
  BenchOptions options;
  options.warmupMs = 10;
  options.repMs = 40;
  options.flushBytes = 4096;
  unsigned setups = 0;
  options.setup = [&]() -> llvm::Error {
    ++setups;
    return llvm::Error::success();
  };
  auto stats = benchmark(
      k.driver, 0, [&] { return k.launch(); }, options);
  ASSERT_EXPECTED(stats);
  // 40 ms of 2 ms runs.
  EXPECT_EQ(stats->runs, 20u);
  EXPECT_DOUBLE_EQ(stats->median, 2.0);
  EXPECT_EQ(stats->quantiles.size(), 2u);
  // 1 first run + 5 estimate runs + 5 warm-up runs (10 ms) + 20 timed.
  EXPECT_EQ(k.driver.launches.size(), 31u);
  // The flush and the setup run before the first run, each estimate and
  // each timed run, never during warm-up.
  EXPECT_EQ(setups, 26u);
  EXPECT_EQ(k.driver.fillCount, 26u);
  // The flush buffer is freed.
  EXPECT_EQ(k.driver.liveBytes, 0u);
}

TEST(BenchmarkTest, SlowFlushesBuyFewerRuns) {
  // As in Triton, the estimate includes the flush: a 1 ms kernel behind a
  // 9 ms flush gets 100 ms / 10 ms = 10 timed runs, not 100, and its
  // timings do not include the flush.
  TimedKernel k(1.0);
  k.driver.fillMs = 9.0;
  BenchOptions options;
  options.warmupMs = 20;
  options.repMs = 100;
  options.flushBytes = 4096;
  auto stats = benchmark(
      k.driver, 0, [&] { return k.launch(); }, options);
  ASSERT_EXPECTED(stats);
  EXPECT_EQ(stats->runs, 10u);
  EXPECT_DOUBLE_EQ(stats->median, 1.0);
  // 1 first + 5 estimate + 2 warm-up + 10 timed launches.
  EXPECT_EQ(k.driver.launches.size(), 18u);
}

TEST(BenchmarkTest, InstantKernelsAreBounded) {
  TimedKernel k(0.0);
  BenchOptions options;
  options.flushBytes = 0;
  options.maxRuns = 50;
  auto stats = benchmark(
      k.driver, 0, [&] { return k.launch(); }, options);
  ASSERT_EXPECTED(stats);
  EXPECT_EQ(stats->runs, 50u);
  EXPECT_EQ(k.driver.fillCount, 0u);
}

TEST(BenchmarkTest, ErrorsPropagate) {
  TimedKernel k(1.0);
  BenchOptions options;
  options.flushBytes = 0;
  unsigned calls = 0;
  auto stats = benchmark(
      k.driver, 0,
      [&]() -> llvm::Error {
        if (++calls == 3)
          return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                         "launch failed");
        return k.launch();
      },
      options);
  EXPECT_EQ(errorOf(std::move(stats)), "launch failed");
}
