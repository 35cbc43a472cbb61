//===- Conformance.h - Entry points of the conformance runner ---*- C++ -*-===//
//
// The contract between the `tessera` command line (runtime/tools/tessera)
// and the conformance library, the CMake target `TesseraConformance` built
// from conformance/:
//
// - `tessera conformance ARGS...` calls runConformance() and
//   `tessera bench ARGS...` calls runBenchmarks(), each with argv[0] set to
//   "tessera conformance" or "tessera bench" and argv[1..argc) holding the
//   user's arguments unchanged. The function parses them itself (its own
//   flags and `--help`) and returns the process's exit code.
// - Exit codes: 0 when every selected case passed (with --compile-only:
//   compiled), was not supported or failed as expected (or the benchmarks
//   ran), 1 when a case failed or missed its expectation, 2 for a usage or
//   setup error (unknown flag, no such backend or device, unreadable
//   expectation file).
// - The runner selects its backend, device and caches like every other
//   subcommand: RuntimeOptions and Runtime::open() from
//   tessera/Runtime/Runtime.h, with the shared flags `--backend`,
//   `--plugin`, `--device`, `--arch`, `--cache-dir`, `--no-cache` and the
//   environment variables behind them (TESSERA_BACKEND, ...).
// - Reports go to standard output, diagnostics to standard error, logs
//   through mlir::tessera::getLogger().
//
// The CLI links TesseraConformance whenever the target exists in the build
// and defines TESSERA_HAVE_CONFORMANCE; without it, both subcommands say
// that the runner is not part of this build and exit with 2.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_CONFORMANCE_CONFORMANCE_H
#define TESSERA_CONFORMANCE_CONFORMANCE_H

namespace mlir::tessera::conformance {

/// `tessera conformance`: runs the conformance kernels against their host
/// references and reports per case. Returns the exit code (see above).
int runConformance(int argc, char **argv);

/// `tessera bench`: times the benchmark workloads (do_bench-style medians)
/// and reports them. Returns the exit code (see above).
int runBenchmarks(int argc, char **argv);

} // namespace mlir::tessera::conformance

#endif // TESSERA_CONFORMANCE_CONFORMANCE_H
