//===- Report.cpp - The results of a conformance run ----------------------===//
#include "tessera/Conformance/Report.h"

#include "llvm/ADT/STLExtras.h"
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
    case Status::Compiled:
      ++summary.compiled;
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
       << llvm::left_justify(status, 22) << "  "
       << llvm::left_justify(error, 19) << "  " << llvm::right_justify(time, 8)
       << "\n";
  };
  row("kernel", "case", "status", "error / tolerance", "time");
  os << std::string(kernelWidth + caseWidth + 22 + 19 + 8 + 8, '-') << "\n";
  for (const CaseReport &c : cases)
    row(c.file + "/" + c.kernel, c.name,
        // Said in full where nothing ran: a compiled case proves only that.
        c.status == Status::Compiled ? "compiled, not executed"
                                     : stringifyStatus(c.status),
        formatWorst(c), llvm::formatv("{0:f2}s", c.seconds).str());

  if (compileOnly)
    printCompiledKernels(os);

  bool headed = false;
  for (const CaseReport &c : cases) {
    if (c.status == Status::Pass || c.status == Status::Compiled)
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
  os << "\n" << s.total() << " cases: ";
  if (compileOnly)
    os << s.compiled << " compiled, ";
  os << s.pass << " passed, " << s.fail << " failed, " << s.notSupported
     << " not supported, " << s.expectedFailure << " expected failures, "
     << s.unexpectedPass << " unexpected passes ("
     << llvm::formatv("{0:f1}", seconds) << " s, seed " << seed << ")\n";
}

/// "-" for what the backend did not report (-1).
static std::string formatCount(int64_t value) {
  return value < 0 ? "-" : std::to_string(value);
}

void RunReport::printCompiledKernels(llvm::raw_ostream &os) const {
  // A specialization several cases compile is listed once, with the cost
  // of its first compilation.
  std::vector<std::pair<std::string, const CompileRecord *>> distinct;
  for (const CaseReport &c : cases)
    for (const CompileRecord &record : c.kernels) {
      std::string name = c.file + "/" + record.kernel;
      bool seen = llvm::any_of(distinct, [&](const auto &entry) {
        return entry.first == name && entry.second->isSameKernel(record);
      });
      if (!seen)
        distinct.emplace_back(std::move(name), &record);
    }
  os << "\n" << distinct.size() << " kernels compiled";
  if (distinct.empty()) {
    os << "\n";
    return;
  }
  os << " (registers and spills '-': not reported by the backend):\n";
  size_t nameWidth = 6, formatWidth = 6;
  for (const auto &[name, record] : distinct) {
    nameWidth = std::max(nameWidth, name.size());
    formatWidth = std::max(formatWidth, record->format.size());
  }
  auto row = [&](llvm::StringRef name, llvm::StringRef warps,
                 llvm::StringRef stages, llvm::StringRef registers,
                 llvm::StringRef spills, llvm::StringRef shared,
                 llvm::StringRef format, llvm::StringRef bytes,
                 llvm::StringRef time, llvm::StringRef origin,
                 llvm::StringRef signature) {
    os << llvm::left_justify(name, nameWidth) << "  "
       << llvm::right_justify(warps, 5) << "  "
       << llvm::right_justify(stages, 6) << "  "
       << llvm::right_justify(registers, 4) << "  "
       << llvm::right_justify(spills, 6) << "  "
       << llvm::right_justify(shared, 6) << "  "
       << llvm::left_justify(format, formatWidth) << "  "
       << llvm::right_justify(bytes, 8) << "  " << llvm::right_justify(time, 7)
       << "  " << llvm::left_justify(origin, 10) << "  " << signature << "\n";
  };
  row("kernel", "warps", "stages", "regs", "spills", "shared", "format",
      "bytes", "compile", "origin", "signature");
  for (const auto &[name, record] : distinct)
    row(name, std::to_string(record->numWarps),
        std::to_string(record->numStages), formatCount(record->registers),
        formatCount(record->spillBytes),
        std::to_string(record->sharedMemoryBytes), record->format,
        std::to_string(record->binaryBytes),
        llvm::formatv("{0:f2}s", record->seconds).str(),
        stringifyCompileOrigin(record->origin), record->signature);
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
    llvm::json::Object object{
        {"id", c.id},
        {"file", c.file},
        {"kernel", c.kernel},
        {"case", c.name},
        {"status", stringifyStatus(c.status)},
        {"seconds", c.seconds},
        {"checks", std::move(checkArray)},
        {"message", c.message},
        {"notes", c.notes},
    };
    if (compileOnly) {
      llvm::json::Array kernelArray;
      for (const CompileRecord &record : c.kernels)
        kernelArray.push_back(conformance::toJSON(record));
      object["kernels"] = std::move(kernelArray);
    }
    caseArray.push_back(std::move(object));
  }
  RunSummary s = getSummary();
  return llvm::json::Object{
      {"tool", "tessera conformance"},
      {"backend", backend},
      {"arch", arch},
      {"device", device},
      {"driver", driver},
      {"plugin-version", pluginVersion},
      {"target", target},
      {"seed", static_cast<int64_t>(seed)},
      {"configs", configMode},
      {"expectations", expectationFile},
      {"compile-only", compileOnly},
      {"seconds", seconds},
      {"summary", llvm::json::Object{{"total", s.total()},
                                     {"pass", s.pass},
                                     {"compiled", s.compiled},
                                     {"fail", s.fail},
                                     {"not-supported", s.notSupported},
                                     {"expected-failure", s.expectedFailure},
                                     {"unexpected-pass", s.unexpectedPass}}},
      {"succeeded", s.succeeded()},
      {"cases", std::move(caseArray)},
  };
}

llvm::Error mlir::tessera::conformance::writeReportFile(
    llvm::StringRef path, llvm::function_ref<void(llvm::raw_ostream &)> write) {
  if (path == "-") {
    write(llvm::outs());
    return llvm::Error::success();
  }
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec, llvm::sys::fs::OF_Text);
  if (ec)
    return llvm::createStringError(ec, "cannot write '" + path +
                                           "': " + ec.message());
  write(os);
  os.close();
  if (os.has_error())
    return llvm::createStringError(
        os.error(), "cannot write '" + path + "': " + os.error().message());
  return llvm::Error::success();
}

llvm::Error
mlir::tessera::conformance::writeJSONFile(const llvm::json::Value &value,
                                          llvm::StringRef path) {
  return writeReportFile(path, [&](llvm::raw_ostream &os) {
    os << llvm::formatv("{0:2}", value) << "\n";
  });
}
