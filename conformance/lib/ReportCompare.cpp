//===- ReportCompare.cpp - Two conformance runs compared ------------------===//
#include "tessera/Conformance/ReportCompare.h"

#include "tessera/Conformance/Report.h"
#include "tessera/Conformance/Status.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cmath>

using namespace mlir::tessera::conformance;
namespace json = llvm::json;

namespace {

llvm::Error malformed(const llvm::Twine &what) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "not a conformance report: " + what);
}

/// A number the report wrote (JSON numbers, or "inf", "-inf", "nan").
double readNumber(const json::Value *value) {
  if (!value)
    return NAN;
  if (std::optional<double> number = value->getAsNumber())
    return *number;
  if (std::optional<llvm::StringRef> text = value->getAsString()) {
    if (*text == "inf")
      return INFINITY;
    if (*text == "-inf")
      return -INFINITY;
  }
  return NAN;
}

/// What a case did, as far as the comparison needs.
struct CaseFacts {
  std::string status;
  double seconds = 0;
  /// Per check: value / tolerance (the value itself for a tolerance of 0).
  llvm::StringMap<double> ratios;
};

/// How much of the suite's work a status shows done right: a lower rank is
/// better, and a change to a higher one is a regression.
int rank(llvm::StringRef status) {
  std::optional<Status> parsed = parseStatus(status);
  if (!parsed)
    return 3;
  switch (*parsed) {
  case Status::Pass:
  case Status::Compiled:
  case Status::UnexpectedPass: // it ran right; the expectation is stale
    return 0;
  case Status::ExpectedFailure:
  case Status::NotSupported:
    return 1;
  case Status::Fail:
    return 2;
  }
  return 3;
}

/// The cases of a report by id, in order.
llvm::Error readCases(const json::Value &report, llvm::StringRef which,
                      std::vector<std::string> &order,
                      llvm::StringMap<CaseFacts> &cases) {
  const json::Object *root = report.getAsObject();
  const json::Array *array = root ? root->getArray("cases") : nullptr;
  if (!array)
    return malformed(which + " has no \"cases\" array");
  for (const json::Value &value : *array) {
    const json::Object *object = value.getAsObject();
    std::optional<llvm::StringRef> id =
        object ? object->getString("id") : std::nullopt;
    std::optional<llvm::StringRef> status =
        object ? object->getString("status") : std::nullopt;
    if (!id || !status)
      return malformed("a case of " + which + " has no id or status");
    CaseFacts facts;
    facts.status = status->str();
    facts.seconds = readNumber(object->get("seconds"));
    if (const json::Array *checks = object->getArray("checks"))
      for (const json::Value &check : *checks) {
        const json::Object *c = check.getAsObject();
        std::optional<llvm::StringRef> name =
            c ? c->getString("name") : std::nullopt;
        if (!name)
          continue;
        double value = readNumber(c->get("value"));
        double tolerance = readNumber(c->get("tolerance"));
        facts.ratios[*name] = tolerance > 0 && std::isfinite(tolerance)
                                  ? value / tolerance
                                  : value;
      }
    if (!cases.try_emplace(*id, std::move(facts)).second)
      return malformed(which + " lists case '" + *id + "' twice");
    order.push_back(id->str());
  }
  return llvm::Error::success();
}

/// A check's value as a share of its tolerance: "35%", or "inf", "nan".
std::string formatRatio(double ratio) {
  if (!std::isfinite(ratio))
    return formatValue(ratio);
  return llvm::formatv("{0:f0}%", ratio * 100).str();
}

} // namespace

llvm::Expected<std::vector<CaseChange>>
mlir::tessera::conformance::compareReports(const json::Value &before,
                                           const json::Value &after,
                                           const CompareOptions &options) {
  std::vector<std::string> beforeOrder, afterOrder;
  llvm::StringMap<CaseFacts> beforeCases, afterCases;
  if (llvm::Error err =
          readCases(before, "the first report", beforeOrder, beforeCases))
    return std::move(err);
  if (llvm::Error err =
          readCases(after, "the second report", afterOrder, afterCases))
    return std::move(err);

  std::vector<CaseChange> changes;
  for (const std::string &id : afterOrder) {
    const CaseFacts &now = afterCases.find(id)->second;
    auto found = beforeCases.find(id);
    if (found == beforeCases.end()) {
      changes.push_back({CaseChange::Kind::Added, id, "", now.status, "",
                         /*regression=*/rank(now.status) > 0});
      continue;
    }
    const CaseFacts &was = found->second;
    if (was.status != now.status)
      changes.push_back({CaseChange::Kind::Status, id, was.status, now.status,
                         "", rank(now.status) > rank(was.status)});
    // Errors are compared only where both runs checked results.
    for (const auto &entry : now.ratios) {
      auto old = was.ratios.find(entry.getKey());
      if (old == was.ratios.end())
        continue;
      double a = old->second, b = entry.getValue();
      bool moved =
          std::isnan(a) != std::isnan(b) ||
          (!std::isnan(a) && std::fabs(b - a) > options.errorTolerance);
      if (std::isinf(a) && std::isinf(b) && a == b)
        moved = false;
      if (moved)
        changes.push_back({CaseChange::Kind::Error, id, formatRatio(a),
                           formatRatio(b), entry.getKey().str(),
                           std::isnan(b) || b > a});
    }
    if (options.timeTolerance && was.seconds > 0 && now.seconds >= 0 &&
        std::fabs(now.seconds - was.seconds) >
            *options.timeTolerance * was.seconds)
      changes.push_back({CaseChange::Kind::Time, id,
                         llvm::formatv("{0:f3}s", was.seconds).str(),
                         llvm::formatv("{0:f3}s", now.seconds).str(), "",
                         now.seconds > was.seconds});
  }
  for (const std::string &id : beforeOrder)
    if (!afterCases.count(id))
      changes.push_back({CaseChange::Kind::Removed, id,
                         beforeCases.find(id)->second.status, "", "",
                         /*regression=*/true});
  return changes;
}

llvm::Expected<json::Value>
mlir::tessera::conformance::readReportFile(llvm::StringRef path) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!buffer)
    return llvm::createStringError(buffer.getError(),
                                   "cannot read '" + path +
                                       "': " + buffer.getError().message());
  llvm::Expected<json::Value> value = json::parse((*buffer)->getBuffer());
  if (!value)
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "'" + path + "' is not JSON: " + llvm::toString(value.takeError()));
  return value;
}

int mlir::tessera::conformance::printComparison(llvm::StringRef beforePath,
                                                llvm::StringRef afterPath,
                                                const CompareOptions &options,
                                                llvm::raw_ostream &os,
                                                llvm::raw_ostream &errs) {
  llvm::Expected<json::Value> before = readReportFile(beforePath);
  llvm::Expected<json::Value> after = readReportFile(afterPath);
  llvm::Expected<std::vector<CaseChange>> changes =
      before && after
          ? compareReports(*before, *after, options)
          : llvm::Expected<std::vector<CaseChange>>(
                llvm::joinErrors(before.takeError(), after.takeError()));
  if (!changes) {
    errs << "error: " << llvm::toString(changes.takeError()) << "\n";
    return 2;
  }

  // The runs' facts, so that a difference can be put down to its cause.
  for (auto [label, path, report] : {std::tuple("before", beforePath, &*before),
                                     std::tuple("after", afterPath, &*after)}) {
    const json::Object *root = report->getAsObject();
    auto field = [&](llvm::StringRef key) -> std::string {
      std::optional<llvm::StringRef> value = root->getString(key);
      return value && !value->empty() ? value->str() : "-";
    };
    os << llvm::formatv("{0,-6}  {1}: backend {2} {3}, arch {4}, device {5}, "
                        "driver {6}\n",
                        label, path, field("backend"), field("plugin-version"),
                        field("arch"), field("device"), field("driver"));
  }
  os << "\n";

  unsigned counts[5] = {}, regressions = 0;
  for (const CaseChange &change : *changes) {
    ++counts[static_cast<int>(change.kind)];
    regressions += change.regression;
    std::string what;
    switch (change.kind) {
    case CaseChange::Kind::Status:
      what = "status " + change.before + " -> " + change.after;
      break;
    case CaseChange::Kind::Error:
      what = change.check + " (of its tolerance) " + change.before + " -> " +
             change.after;
      break;
    case CaseChange::Kind::Time:
      what = "time " + change.before + " -> " + change.after;
      break;
    case CaseChange::Kind::Added:
      what = "only in the second report (" + change.after + ")";
      break;
    case CaseChange::Kind::Removed:
      what = "only in the first report (" + change.before + ")";
      break;
    }
    os << (change.regression ? "WORSE  " : "       ") << change.id << ": "
       << what << "\n";
  }
  if (!changes->empty())
    os << "\n";
  os << llvm::formatv(
      "{0} changes: {1} status, {2} error, {3} time, {4} added, {5} removed; "
      "{6} regressions\n",
      changes->size(), counts[0], counts[1], counts[2], counts[3], counts[4],
      regressions);
  return regressions ? 1 : 0;
}
