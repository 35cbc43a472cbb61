//===- Report.h - The results of a conformance run --------------*- C++ -*-===//
//
// A run's report is printed as a table (kernel, case, status, worst error
// against its tolerance, time) followed by the details of every case that
// did not pass, and written as JSON for CI and for comparing devices (and
// runs: ReportCompare.h), and as JUnit XML for CI systems. A compile-only
// run adds the kernels its cases compiled, with their resource usage.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_CONFORMANCE_REPORT_H
#define TESSERA_CONFORMANCE_REPORT_H

#include "tessera/Conformance/CompileRecord.h"
#include "tessera/Conformance/Status.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace mlir::tessera::conformance {

/// One case of a run.
struct CaseReport {
  /// "01_vector_add/add_kernel/n=1000": file stem, kernel, case.
  std::string id;
  std::string file, kernel, name;
  Status status = Status::Pass;
  std::vector<Check> checks;
  /// The error (fail), the missing capability (not-supported) or the
  /// expectation's reason (expected-failure, unexpected-pass).
  std::string message;
  /// What the case noted on the way (configs used or chosen).
  std::string notes;
  /// Wall time of the case (compiling included), in seconds.
  double seconds = 0;
  /// The kernels it compiled, in a compile-only run.
  std::vector<CompileRecord> kernels;
};

/// Counts per status.
struct RunSummary {
  unsigned pass = 0, fail = 0, notSupported = 0, expectedFailure = 0,
           unexpectedPass = 0, compiled = 0;

  unsigned total() const {
    return pass + compiled + fail + notSupported + expectedFailure +
           unexpectedPass;
  }
  /// True when nothing failed (the exit code is 0).
  bool succeeded() const { return fail == 0 && unexpectedPass == 0; }
};

struct RunReport {
  std::string backend;
  std::string arch;
  std::string device;
  /// The device's driver, empty when unknown; the plugin's version; the
  /// target description the kernels were compiled for
  /// (TargetDescription::str()).
  std::string driver;
  std::string pluginVersion;
  std::string target;
  uint64_t seed = 0;
  /// How autotuned kernels were run ("tune", "subset", "all").
  std::string configMode;
  /// The expectation file in force ("" when none).
  std::string expectationFile;
  /// Kernels were compiled instead of run (`--compile-only`).
  bool compileOnly = false;
  std::vector<CaseReport> cases;
  double seconds = 0;

  RunSummary getSummary() const;

  /// The table, the details of cases that did not pass, and a summary line;
  /// in a compile-only run also the table of the kernels compiled.
  void print(llvm::raw_ostream &os) const;
  /// The table of the distinct kernels the cases compiled, one line each.
  void printCompiledKernels(llvm::raw_ostream &os) const;

  llvm::json::Value toJSON() const;
  /// The run as JUnit XML (one testsuite, a testcase per case; failures and
  /// unexpected passes are failures, the others skipped with the reason),
  /// for CI systems; the run's facts are the suite's properties.
  void printJUnit(llvm::raw_ostream &os) const;
};

/// `value` for messages and tables: "3.1e-08", "inf", "nan", integers as
/// integers.
std::string formatValue(double value);

/// A JSON number, or the strings "inf", "-inf", "nan" (JSON has no
/// non-finite numbers).
llvm::json::Value toJSONNumber(double value);

/// Writes what `write` prints to `path` ("-" for standard output); an error
/// names the file.
llvm::Error
writeReportFile(llvm::StringRef path,
                llvm::function_ref<void(llvm::raw_ostream &)> write);

/// Writes `value` pretty-printed to `path` ("-" for standard output).
llvm::Error writeJSONFile(const llvm::json::Value &value, llvm::StringRef path);

} // namespace mlir::tessera::conformance

#endif // TESSERA_CONFORMANCE_REPORT_H
