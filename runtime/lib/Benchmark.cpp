//===- Benchmark.cpp - Timing kernels like Triton's do_bench --------------===//
#include "tessera/Runtime/Benchmark.h"

#include "tessera/Backend/Driver.h"
#include "tessera/Runtime/Buffer.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <numeric>

using namespace mlir::tessera;
using namespace mlir::tessera::runtime;

static double quantileOfSorted(llvm::ArrayRef<double> sorted, double q) {
  q = std::clamp(q, 0.0, 1.0);
  double pos = q * (sorted.size() - 1);
  size_t lo = static_cast<size_t>(std::floor(pos));
  size_t hi = std::min(lo + 1, sorted.size() - 1);
  double frac = pos - lo;
  return sorted[lo] + (sorted[hi] - sorted[lo]) * frac;
}

BenchStats
mlir::tessera::runtime::computeBenchStats(llvm::ArrayRef<double> samples,
                                          llvm::ArrayRef<double> quantiles) {
  assert(!samples.empty() && "statistics of no samples");
  BenchStats stats;
  stats.samples.assign(samples.begin(), samples.end());
  stats.runs = samples.size();
  std::vector<double> sorted(samples.begin(), samples.end());
  std::sort(sorted.begin(), sorted.end());
  stats.min = sorted.front();
  stats.max = sorted.back();
  stats.median = quantileOfSorted(sorted, 0.5);
  stats.mean = std::accumulate(sorted.begin(), sorted.end(), 0.0) /
               static_cast<double>(sorted.size());
  double var = 0;
  for (double s : sorted)
    var += (s - stats.mean) * (s - stats.mean);
  stats.stddev = std::sqrt(var / static_cast<double>(sorted.size()));
  for (double q : quantiles)
    stats.quantiles.push_back(quantileOfSorted(sorted, q));
  return stats;
}

llvm::Expected<BenchStats>
mlir::tessera::runtime::benchmark(Driver &driver, unsigned device,
                                  const std::function<llvm::Error()> &work,
                                  const BenchOptions &options) {
  Buffer flush;
  if (options.flushBytes) {
    llvm::Expected<Buffer> buffer =
        Buffer::allocate(driver, device, options.flushBytes);
    if (!buffer)
      return buffer.takeError();
    flush = std::move(*buffer);
  }
  auto prepare = [&]() -> llvm::Error {
    if (options.setup)
      if (llvm::Error err = options.setup())
        return err;
    if (flush)
      return flush.fill(0);
    return llvm::Error::success();
  };

  // The first run may compile, load or allocate; it is not counted.
  if (llvm::Error err = prepare())
    return std::move(err);
  if (llvm::Error err = work())
    return std::move(err);
  if (llvm::Error err = driver.synchronize(device))
    return std::move(err);

  // Estimate one run from five, to size the budgets in runs. As in
  // Triton, the estimate includes the flush before each run: on a device
  // where the flush is slow (host memory) the budgets then buy fewer runs
  // instead of a much longer benchmark.
  constexpr unsigned kEstimateRuns = 5;
  double estimate = 0;
  for (unsigned i = 0; i < kEstimateRuns; ++i) {
    llvm::Expected<double> prepareMs = driver.timeMilliseconds(device, prepare);
    if (!prepareMs)
      return prepareMs.takeError();
    llvm::Expected<double> ms = driver.timeMilliseconds(device, work);
    if (!ms)
      return ms.takeError();
    estimate += *prepareMs + *ms;
  }
  // A run too short for the timer must not make the counts infinite.
  estimate = std::max(estimate / kEstimateRuns, 1e-6);

  auto runsFor = [&](double budgetMs) {
    double n = std::floor(budgetMs / estimate);
    return static_cast<unsigned>(
        std::clamp(n, 1.0, static_cast<double>(std::max(options.maxRuns, 1u))));
  };
  unsigned warmupRuns = runsFor(options.warmupMs);
  unsigned timedRuns =
      std::max(runsFor(options.repMs), std::max(options.minRuns, 1u));
  timedRuns = std::min(timedRuns, std::max(options.maxRuns, 1u));

  for (unsigned i = 0; i < warmupRuns; ++i)
    if (llvm::Error err = work())
      return std::move(err);
  std::vector<double> samples;
  samples.reserve(timedRuns);
  for (unsigned i = 0; i < timedRuns; ++i) {
    if (llvm::Error err = prepare())
      return std::move(err);
    llvm::Expected<double> ms = driver.timeMilliseconds(device, work);
    if (!ms)
      return ms.takeError();
    samples.push_back(*ms);
  }
  return computeBenchStats(samples, options.quantiles);
}
