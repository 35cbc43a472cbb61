//===- Status.cpp - What happened to one conformance case -----------------===//
#include "tessera/Conformance/Status.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/ErrorHandling.h"

#include <cmath>
#include <limits>

using namespace mlir::tessera::conformance;

llvm::StringRef mlir::tessera::conformance::stringifyStatus(Status status) {
  switch (status) {
  case Status::Pass:
    return "pass";
  case Status::Compiled:
    return "compiled";
  case Status::Fail:
    return "fail";
  case Status::NotSupported:
    return "not-supported";
  case Status::ExpectedFailure:
    return "expected-failure";
  case Status::UnexpectedPass:
    return "unexpected-pass";
  }
  llvm_unreachable("unknown status");
}

std::optional<Status>
mlir::tessera::conformance::parseStatus(llvm::StringRef name) {
  return llvm::StringSwitch<std::optional<Status>>(name)
      .Case("pass", Status::Pass)
      .Case("compiled", Status::Compiled)
      .Case("fail", Status::Fail)
      .Case("not-supported", Status::NotSupported)
      .Case("expected-failure", Status::ExpectedFailure)
      .Case("unexpected-pass", Status::UnexpectedPass)
      .Default(std::nullopt);
}

bool mlir::tessera::conformance::isFailingStatus(Status status) {
  return status == Status::Fail || status == Status::UnexpectedPass;
}

Status mlir::tessera::conformance::deriveStatus(
    const CaseOutcome &outcome,
    const std::optional<std::string> &expectedFailure) {
  // A case the target cannot run says so even when an entry expects it to
  // fail: not-supported comes from the target, not from the file.
  if (outcome.unsupportedReason)
    return Status::NotSupported;
  bool failed = outcome.error.has_value();
  for (const Check &check : outcome.checks)
    failed |= !check.holds();
  if (failed)
    return expectedFailure ? Status::ExpectedFailure : Status::Fail;
  // Compiling says nothing of an entry about the results.
  if (outcome.compiledOnly)
    return Status::Compiled;
  return expectedFailure ? Status::UnexpectedPass : Status::Pass;
}

const Check *
mlir::tessera::conformance::getWorstCheck(llvm::ArrayRef<Check> checks) {
  const Check *worst = nullptr;
  double worstRatio = -1;
  for (const Check &check : checks) {
    double ratio;
    if (std::isnan(check.value))
      ratio = std::numeric_limits<double>::infinity();
    else if (check.tolerance > 0)
      ratio = check.value / check.tolerance;
    else
      ratio = check.value > 0 ? std::numeric_limits<double>::infinity() : 0;
    if (ratio > worstRatio) {
      worstRatio = ratio;
      worst = &check;
    }
  }
  return worst;
}
