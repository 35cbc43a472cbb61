//===- Benchmark.h - Timing kernels like Triton's do_bench ------*- C++ -*-===//
//
// benchmark() times a piece of work on a device the way Triton's do_bench
// does: one run to start, a few runs to estimate its duration (cache flush
// included), then warm-up runs and timed runs sized by time budgets. Before
// each timed run a buffer larger than the last-level cache is overwritten,
// so that every run starts with a cold cache, and each run is timed by the
// driver (Driver::timeMilliseconds: device events where the driver has
// them).
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_RUNTIME_BENCHMARK_H
#define TESSERA_RUNTIME_BENCHMARK_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <functional>
#include <vector>

namespace mlir::tessera {
class Driver;
} // namespace mlir::tessera

namespace mlir::tessera::runtime {

/// Summary statistics of a set of timings, in milliseconds.
struct BenchStats {
  unsigned runs = 0;
  double median = 0, mean = 0, min = 0, max = 0, stddev = 0;
  /// The quantiles asked for, in the order asked.
  std::vector<double> quantiles;
  /// Every timing, in run order.
  std::vector<double> samples;
};

/// Statistics of `samples` (not empty). Quantiles interpolate linearly
/// between order statistics, as numpy's and torch's default does; the
/// median is the 0.5 quantile; stddev is the population deviation.
BenchStats computeBenchStats(llvm::ArrayRef<double> samples,
                             llvm::ArrayRef<double> quantiles = {});

/// How to time.
struct BenchOptions {
  /// Time budget of the warm-up runs and of the timed runs, in ms.
  double warmupMs = 25;
  double repMs = 100;
  /// Bounds on the number of timed runs, whatever the budget says.
  unsigned minRuns = 1;
  unsigned maxRuns = 100000;
  /// Overwrite a buffer of `flushBytes` before each timed run (and each
  /// estimation run); 0 disables the flush.
  uint64_t flushBytes = kDefaultFlushBytes;
  /// Runs before each timed run, outside the timing (resetting outputs...).
  std::function<llvm::Error()> setup;
  /// Quantiles to report (each in [0, 1]).
  std::vector<double> quantiles = {0.2, 0.8};

  /// Larger than the last-level cache of any device we run on (Triton
  /// flushes 256 MB too).
  static constexpr uint64_t kDefaultFlushBytes = 256ull << 20;
};

/// Times `work` (which launches) on `device` of `driver`.
llvm::Expected<BenchStats> benchmark(Driver &driver, unsigned device,
                                     const std::function<llvm::Error()> &work,
                                     const BenchOptions &options = {});

} // namespace mlir::tessera::runtime

#endif // TESSERA_RUNTIME_BENCHMARK_H
