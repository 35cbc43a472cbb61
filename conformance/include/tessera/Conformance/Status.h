//===- Status.h - What happened to one conformance case ---------*- C++ -*-===//
//
// A case passes when it ran and every check is within its tolerance; it
// fails on a check over tolerance or on a compile or launch error; it is
// not supported when the target lacks something the case needs (derived
// from the plugin's TargetDescription). An entry in the backend's
// expectation file turns a failure into an expected failure, and a pass of
// such a case into an unexpected pass, which fails the run so that stale
// entries get removed (as lit's XPASS does).
//
// In a compile-only run a case that compiled every kernel it would launch
// is `compiled`: compiled, not executed. Nothing ran, so nothing says
// whether an expectation file's entry still holds, and such a case stays
// `compiled` rather than passing unexpectedly.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_CONFORMANCE_STATUS_H
#define TESSERA_CONFORMANCE_STATUS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <vector>

namespace mlir::tessera::conformance {

enum class Status {
  Pass,
  /// Compiled, not executed (compile-only runs).
  Compiled,
  Fail,
  NotSupported,
  ExpectedFailure,
  UnexpectedPass,
};

/// "pass", "compiled", "fail", "not-supported", "expected-failure",
/// "unexpected-pass".
llvm::StringRef stringifyStatus(Status status);
/// The status named `name`, or nullopt.
std::optional<Status> parseStatus(llvm::StringRef name);
/// True for the statuses that make the run's exit code 1.
bool isFailingStatus(Status status);

/// One measured quantity of a case and its bound: an error metric, a count
/// of mismatches, ... It holds when value <= tolerance (a NaN never holds).
struct Check {
  std::string name;
  double value = 0;
  double tolerance = 0;

  bool holds() const { return value <= tolerance; }
};

/// What running a case produced, before expectations apply.
struct CaseOutcome {
  /// Set when the target lacks what the case needs; the case did not run.
  std::optional<std::string> unsupportedReason;
  /// Set when compiling, launching or copying failed.
  std::optional<std::string> error;
  std::vector<Check> checks;
  /// Set in compile-only runs when the case compiled the kernels it would
  /// have launched: there are no results to check.
  bool compiledOnly = false;
};

/// The status of `outcome`; `expectedFailure` is the reason of the case's
/// entry in the expectation file, if it has one.
Status deriveStatus(const CaseOutcome &outcome,
                    const std::optional<std::string> &expectedFailure);

/// The check furthest over (or closest to) its tolerance, or null.
const Check *getWorstCheck(llvm::ArrayRef<Check> checks);

} // namespace mlir::tessera::conformance

#endif // TESSERA_CONFORMANCE_STATUS_H
