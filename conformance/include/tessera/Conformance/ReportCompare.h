//===- ReportCompare.h - Two conformance runs compared ----------*- C++ -*-===//
//
// `tessera conformance --compare BEFORE.json AFTER.json`: the regression
// check between two runs of the suite (another driver, plugin version or
// device). A case is listed when its status changed, when the worst of its
// checks moved by more than a share of its tolerance, when its time moved
// by more than a share of itself (only when asked: times include compiling
// and depend on the cache), or when it is in one report only. A change for
// the worse (a status that ran less or failed, an error closer to or over
// its tolerance, a slower case, a case gone) is a regression.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_CONFORMANCE_REPORTCOMPARE_H
#define TESSERA_CONFORMANCE_REPORTCOMPARE_H

#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>
#include <vector>

namespace mlir::tessera::conformance {

/// How far a case may move before it is listed.
struct CompareOptions {
  /// A check is listed when value/tolerance moved by more than this.
  double errorTolerance = 0.25;
  /// A case is listed when its time moved by more than this share of the
  /// earlier time (0.5: 50% slower or faster); not compared when unset.
  std::optional<double> timeTolerance;
};

/// One listed difference.
struct CaseChange {
  enum class Kind { Status, Error, Time, Added, Removed };
  Kind kind;
  std::string id;
  /// What it was and is ("pass" -> "fail", "0.12" -> "0.9", ...).
  std::string before, after;
  /// The check that moved, for Kind::Error.
  std::string check;
  bool regression = false;
};

/// The differences between two reports (the JSON `tessera conformance`
/// writes), in the order of `after`'s cases, then the removed ones. An
/// error names what is malformed.
llvm::Expected<std::vector<CaseChange>>
compareReports(const llvm::json::Value &before, const llvm::json::Value &after,
               const CompareOptions &options);

/// Reads a report written by `tessera conformance --json`.
llvm::Expected<llvm::json::Value> readReportFile(llvm::StringRef path);

/// Compares the report files and prints each run's facts, the changes and
/// a summary to `os`; the exit code: 0 without regressions, 1 with, 2 when
/// a file cannot be read.
int printComparison(llvm::StringRef beforePath, llvm::StringRef afterPath,
                    const CompareOptions &options, llvm::raw_ostream &os,
                    llvm::raw_ostream &errs);

} // namespace mlir::tessera::conformance

#endif // TESSERA_CONFORMANCE_REPORTCOMPARE_H
