//===- Report.cpp - The results of a conformance run ----------------------===//
#include "tessera/Conformance/Report.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>

using namespace mlir::tessera::conformance;

std::string mlir::tessera::conformance::formatValue(double value) {
  if (std::isnan(value))
    return "nan";
  if (std::isinf(value))
    return value > 0 ? "inf" : "-inf";
  if (value == std::trunc(value) && std::fabs(value) < 1e15)
    return std::to_string(static_cast<int64_t>(value));
  return llvm::formatv("{0:e1}", value).str();
}

llvm::json::Value mlir::tessera::conformance::toJSONNumber(double value) {
  if (std::isfinite(value))
    return value;
  return formatValue(value);
}

RunSummary RunReport::getSummary() const {
  RunSummary summary;
  for (const CaseReport &c : cases) {
    switch (c.status) {
    case Status::Pass:
      ++summary.pass;
      break;
    case Status::Fail:
      ++summary.fail;
      break;
    case Status::NotSupported:
      ++summary.notSupported;
      break;
    case Status::ExpectedFailure:
      ++summary.expectedFailure;
      break;
    case Status::UnexpectedPass:
      ++summary.unexpectedPass;
      break;
    }
  }
  return summary;
}

/// "3.1e-08 / 1e-07" for the worst check, "-" when there is none.
static std::string formatWorst(const CaseReport &c) {
  const Check *worst = getWorstCheck(c.checks);
  if (!worst)
    return "-";
  return formatValue(worst->value) + " / " + formatValue(worst->tolerance);
}

void RunReport::print(llvm::raw_ostream &os) const {
  size_t kernelWidth = 6, caseWidth = 4;
  for (const CaseReport &c : cases) {
    kernelWidth = std::max(kernelWidth, c.file.size() + 1 + c.kernel.size());
    caseWidth = std::max(caseWidth, c.name.size());
  }
  auto row = [&](llvm::StringRef kernel, llvm::StringRef name,
                 llvm::StringRef status, llvm::StringRef error,
                 llvm::StringRef time) {
    os << llvm::left_justify(kernel, kernelWidth) << "  "
       << llvm::left_justify(name, caseWidth) << "  "
       << llvm::left_justify(status, 16) << "  "
       << llvm::left_justify(error, 19) << "  " << llvm::right_justify(time, 8)
       << "\n";
  };
  row("kernel", "case", "status", "error / tolerance", "time");
  os << std::string(kernelWidth + caseWidth + 16 + 19 + 8 + 8, '-') << "\n";
  for (const CaseReport &c : cases)
    row(c.file + "/" + c.kernel, c.name, stringifyStatus(c.status),
        formatWorst(c), llvm::formatv("{0:f2}s", c.seconds).str());

  bool headed = false;
  for (const CaseReport &c : cases) {
    if (c.status == Status::Pass)
      continue;
    if (!headed) {
      os << "\nCases that did not pass:\n";
      headed = true;
    }
    os << "\n" << stringifyStatus(c.status) << ": " << c.id << "\n";
    for (const Check &check : c.checks)
      os << "  " << check.name << " = " << formatValue(check.value)
         << (check.holds() ? " <= " : " > ") << formatValue(check.tolerance)
         << "\n";
    for (llvm::StringRef text :
         {llvm::StringRef(c.message), llvm::StringRef(c.notes)}) {
      while (!text.empty()) {
        llvm::StringRef line;
        std::tie(line, text) = text.split('\n');
        os << "  " << line << "\n";
      }
    }
  }

  RunSummary s = getSummary();
  os << "\n"
     << s.total() << " cases: " << s.pass << " passed, " << s.fail
     << " failed, " << s.notSupported << " not supported, " << s.expectedFailure
     << " expected failures, " << s.unexpectedPass << " unexpected passes ("
     << llvm::formatv("{0:f1}", seconds) << " s, seed " << seed << ")\n";
}

llvm::json::Value RunReport::toJSON() const {
  llvm::json::Array caseArray;
  for (const CaseReport &c : cases) {
    llvm::json::Array checkArray;
    for (const Check &check : c.checks)
      checkArray.push_back(llvm::json::Object{
          {"name", check.name},
          {"value", toJSONNumber(check.value)},
          {"tolerance", toJSONNumber(check.tolerance)},
          {"holds", check.holds()},
      });
    caseArray.push_back(llvm::json::Object{
        {"id", c.id},
        {"file", c.file},
        {"kernel", c.kernel},
        {"case", c.name},
        {"status", stringifyStatus(c.status)},
        {"seconds", c.seconds},
        {"checks", std::move(checkArray)},
        {"message", c.message},
        {"notes", c.notes},
    });
  }
  RunSummary s = getSummary();
  return llvm::json::Object{
      {"tool", "tessera conformance"},
      {"backend", backend},
      {"arch", arch},
      {"device", device},
      {"seed", static_cast<int64_t>(seed)},
      {"configs", configMode},
      {"expectations", expectationFile},
      {"seconds", seconds},
      {"summary", llvm::json::Object{{"total", s.total()},
                                     {"pass", s.pass},
                                     {"fail", s.fail},
                                     {"not-supported", s.notSupported},
                                     {"expected-failure", s.expectedFailure},
                                     {"unexpected-pass", s.unexpectedPass}}},
      {"succeeded", s.succeeded()},
      {"cases", std::move(caseArray)},
  };
}

llvm::Error
mlir::tessera::conformance::writeJSONFile(const llvm::json::Value &value,
                                          llvm::StringRef path) {
  if (path == "-") {
    llvm::outs() << llvm::formatv("{0:2}", value) << "\n";
    return llvm::Error::success();
  }
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec, llvm::sys::fs::OF_Text);
  if (ec)
    return llvm::createStringError(ec, "cannot write '" + path +
                                           "': " + ec.message());
  os << llvm::formatv("{0:2}", value) << "\n";
  os.close();
  if (os.has_error())
    return llvm::createStringError(
        os.error(), "cannot write '" + path + "': " + os.error().message());
  return llvm::Error::success();
}
