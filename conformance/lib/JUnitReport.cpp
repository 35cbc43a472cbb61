//===- JUnitReport.cpp - A conformance run as JUnit XML -------------------===//
//
// The dialect CI systems read (Jenkins, GitLab, GitHub's test reporters):
// <testsuites><testsuite> with the run's facts as <properties>, one
// <testcase> per case, classname FILE.KERNEL and name CASE. A failing case
// (fail, unexpected pass) has a <failure>; one that did not run or was
// expected to fail (not supported, expected failure) is <skipped> with the
// reason; passed and compiled cases are plain.
//
//===----------------------------------------------------------------------===//
#include "tessera/Conformance/Report.h"

#include "llvm/Support/FormatVariadic.h"

using namespace mlir::tessera::conformance;

namespace {

/// `text` escaped for an XML element, or an attribute where line breaks
/// are character references (a parser turns a literal one into a space).
/// Characters XML 1.0 cannot hold (control characters other than tab and
/// line breaks) become '?': a compiler message may contain anything.
std::string escape(llvm::StringRef text, bool attribute = true) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
    case '&':
      out += "&amp;";
      break;
    case '<':
      out += "&lt;";
      break;
    case '>':
      out += "&gt;";
      break;
    case '"':
      out += "&quot;";
      break;
    case '\'':
      out += "&apos;";
      break;
    case '\n':
      out += attribute ? "&#10;" : "\n";
      break;
    default:
      if (static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\r')
        out += '?';
      else
        out += c;
    }
  }
  return out;
}

/// The checks of a case, one per line: "max_abs_err = 3e-07 (tolerance
/// 1e-05) over".
std::string describeChecks(const CaseReport &c) {
  std::string text;
  for (const Check &check : c.checks)
    text +=
        llvm::formatv("{0} = {1} (tolerance {2}){3}\n", check.name,
                      formatValue(check.value), formatValue(check.tolerance),
                      check.holds() ? "" : " over")
            .str();
  return text;
}

} // namespace

void RunReport::printJUnit(llvm::raw_ostream &os) const {
  RunSummary s = getSummary();
  unsigned failures = s.fail + s.unexpectedPass;
  unsigned skipped = s.notSupported + s.expectedFailure;
  std::string suite = "tessera-conformance." + backend;
  os << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  os << llvm::formatv("<testsuites name=\"tessera conformance\" tests=\"{0}\" "
                      "failures=\"{1}\" errors=\"0\" skipped=\"{2}\" "
                      "time=\"{3:f3}\">\n",
                      s.total(), failures, skipped, seconds);
  os << llvm::formatv(
      "  <testsuite name=\"{0}\" tests=\"{1}\" failures=\"{2}\" "
      "errors=\"0\" skipped=\"{3}\" time=\"{4:f3}\">\n",
      escape(suite), s.total(), failures, skipped, seconds);
  os << "    <properties>\n";
  auto property = [&](llvm::StringRef name, llvm::StringRef value) {
    os << "      <property name=\"" << name << "\" value=\"" << escape(value)
       << "\"/>\n";
  };
  property("backend", backend);
  property("plugin-version", pluginVersion);
  property("arch", arch);
  property("device", device);
  property("driver", driver);
  property("target", target);
  property("seed", std::to_string(seed));
  property("configs", configMode);
  property("expectations", expectationFile);
  property("compile-only", compileOnly ? "true" : "false");
  os << "    </properties>\n";
  for (const CaseReport &c : cases) {
    os << llvm::formatv("    <testcase classname=\"{0}.{1}\" name=\"{2}\" "
                        "time=\"{3:f3}\"",
                        escape(c.file), escape(c.kernel), escape(c.name),
                        c.seconds);
    std::string status = stringifyStatus(c.status).str();
    switch (c.status) {
    case Status::Pass:
    case Status::Compiled:
      os << "/>\n";
      continue;
    case Status::Fail:
    case Status::UnexpectedPass:
      os << ">\n      <failure type=\"" << status << "\" message=\""
         << escape(c.message.empty() ? status : c.message) << "\">"
         << escape(describeChecks(c), /*attribute=*/false) << "</failure>\n";
      break;
    case Status::NotSupported:
    case Status::ExpectedFailure:
      os << ">\n      <skipped message=\""
         << escape(status + (c.message.empty() ? "" : ": " + c.message))
         << "\"/>\n";
      break;
    }
    if (!c.notes.empty())
      os << "      <system-out>" << escape(c.notes, /*attribute=*/false)
         << "</system-out>\n";
    os << "    </testcase>\n";
  }
  os << "  </testsuite>\n</testsuites>\n";
}
