//===- Bench.h - Timing the benchmark workloads -----------------*- C++ -*-===//
//
// `tessera bench` times each workload of the GUIDE's table with the
// runtime's do_bench-style helper (median of many launches, cache flushed
// before each) and reports GB/s for memory-bound kernels and TFLOP/s for
// dots. A workload may time several launches (one per config, when configs
// are run explicitly) and keeps the fastest.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_CONFORMANCE_BENCH_H
#define TESSERA_CONFORMANCE_BENCH_H

#include "tessera/Conformance/CaseContext.h"

#include "llvm/Support/JSON.h"

#include <functional>
#include <string>

namespace mlir::tessera::conformance {

/// What one workload measured.
struct BenchMeasurement {
  /// Median milliseconds of the fastest variant timed.
  double milliseconds = 0;
  /// The variant (config) that was fastest.
  std::string variant;
  /// Bytes moved or FLOPs done per launch (exactly one of them is set).
  double bytes = 0;
  double flops = 0;

  /// GB/s or TFLOP/s.
  double getRate() const;
  llvm::StringRef getUnit() const;
};

class BenchContext : public CaseContext {
public:
  BenchContext(KernelLibrary &kernels, const TargetDescription &target,
               llvm::StringRef file, uint64_t seed,
               const runtime::BenchOptions &options)
      : CaseContext(kernels, target, file, seed), options(options) {}

  /// One launch moves `bytes` bytes (memory-bound workloads).
  void setBytes(double bytes) { measurement.bytes = bytes; }
  /// One launch does `flops` floating-point operations.
  void setFlops(double flops) { measurement.flops = flops; }

  /// Times `launchOnce` (which launches through this context) and keeps the
  /// result if it is the fastest so far; `variant` names what was timed.
  void time(llvm::StringRef variant, const std::function<void()> &launchOnce);

  const BenchMeasurement &getMeasurement() const { return measurement; }
  bool hasMeasurement() const { return measured; }

private:
  runtime::BenchOptions options;
  BenchMeasurement measurement;
  bool measured = false;
};

} // namespace mlir::tessera::conformance

#endif // TESSERA_CONFORMANCE_BENCH_H
