//===- ReportTest.cpp - The table, the JSON and the JUnit report ----------===//
#include "tessera/Conformance/Report.h"

#include "gtest/gtest.h"

#include <limits>

using namespace mlir::tessera::conformance;

namespace {
RunReport makeReport() {
  RunReport report;
  report.backend = "cpu";
  report.arch = "x86-64";
  report.device = "host";
  report.driver = "LLVM ORC JIT 22.1.8";
  report.pluginVersion = "0.1.0";
  report.target = "backend=cpu arch=x86-64";
  report.seed = 1234;
  report.configMode = "subset";
  report.seconds = 2.5;
  CaseReport pass{"01_vector_add/add_kernel/n=1",
                  "01_vector_add",
                  "add_kernel",
                  "n=1",
                  Status::Pass,
                  {{"out", 0, 1e-7}},
                  "",
                  "",
                  0.25};
  CaseReport fail{"02_fused_softmax/softmax_kernel/1x1",
                  "02_fused_softmax",
                  "softmax_kernel",
                  "1x1",
                  Status::Fail,
                  {{"y", std::numeric_limits<double>::infinity(), 1e-6}},
                  "",
                  "",
                  0.5};
  CaseReport error{"03_matmul/matmul_kernel/fp16",
                   "03_matmul",
                   "matmul_kernel",
                   "fp16",
                   Status::Fail,
                   {},
                   "03_matmul.py:70:5: error: no dot\n  acc = tl.dot(a, b)",
                   "",
                   0.1};
  CaseReport unsupported{
      "09/k/fp8", "09",         "k", "fp8", Status::NotSupported,
      {},         "no fp8e4nv", "",  0};
  CaseReport xfail{
      "05/k/a",          "05",    "k", "a", Status::ExpectedFailure,
      {{"dx", 1, 1e-5}}, "known", "",  0};
  CaseReport xpass{"05/k/b",          "05",    "k", "b", Status::UnexpectedPass,
                   {{"dx", 0, 1e-5}}, "known", "",  0};
  report.cases = {pass, fail, error, unsupported, xfail, xpass};
  return report;
}

TEST(ReportTest, Summary) {
  RunSummary s = makeReport().getSummary();
  EXPECT_EQ(s.total(), 6u);
  EXPECT_EQ(s.pass, 1u);
  EXPECT_EQ(s.fail, 2u);
  EXPECT_EQ(s.notSupported, 1u);
  EXPECT_EQ(s.expectedFailure, 1u);
  EXPECT_EQ(s.unexpectedPass, 1u);
  EXPECT_FALSE(s.succeeded());
  RunSummary ok;
  ok.pass = 3;
  ok.notSupported = 1;
  ok.expectedFailure = 2;
  EXPECT_TRUE(ok.succeeded());
}

TEST(ReportTest, JSON) {
  llvm::json::Value value = makeReport().toJSON();
  std::string text = llvm::formatv("{0}", value).str();
  // Round trip through the parser: the report is valid JSON even with an
  // infinite error.
  llvm::Expected<llvm::json::Value> parsed = llvm::json::parse(text);
  ASSERT_TRUE(static_cast<bool>(parsed)) << llvm::toString(parsed.takeError());
  const llvm::json::Object *root = parsed->getAsObject();
  ASSERT_NE(root, nullptr);
  EXPECT_EQ(root->getString("backend"), "cpu");
  EXPECT_EQ(root->getInteger("seed"), 1234);
  EXPECT_EQ(root->getBoolean("succeeded"), false);
  EXPECT_EQ(root->getObject("summary")->getInteger("fail"), 2);
  EXPECT_EQ(root->getObject("summary")->getInteger("unexpected-pass"), 1);
  const llvm::json::Array *cases = root->getArray("cases");
  ASSERT_NE(cases, nullptr);
  ASSERT_EQ(cases->size(), 6u);
  const llvm::json::Object *second = (*cases)[1].getAsObject();
  EXPECT_EQ(second->getString("status"), "fail");
  EXPECT_EQ(second->getString("id"), "02_fused_softmax/softmax_kernel/1x1");
  const llvm::json::Object *check =
      (*second->getArray("checks"))[0].getAsObject();
  EXPECT_EQ(check->getString("value"), "inf");
  EXPECT_EQ(check->getNumber("tolerance"), 1e-6);
  EXPECT_EQ(check->getBoolean("holds"), false);
  EXPECT_EQ((*cases)[3].getAsObject()->getString("status"), "not-supported");
  EXPECT_EQ((*cases)[3].getAsObject()->getString("message"), "no fp8e4nv");
}

TEST(ReportTest, Table) {
  std::string text;
  llvm::raw_string_ostream os(text);
  makeReport().print(os);
  EXPECT_NE(text.find("01_vector_add/add_kernel"), std::string::npos);
  EXPECT_NE(text.find("inf / 1.0e-06"), std::string::npos) << text;
  EXPECT_NE(text.find("fail: 03_matmul/matmul_kernel/fp16\n"
                      "  03_matmul.py:70:5: error: no dot\n"
                      "    acc = tl.dot(a, b)\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("6 cases: 1 passed, 2 failed, 1 not supported, 1 "
                      "expected failures, 1 unexpected passes"),
            std::string::npos)
      << text;
}

TEST(ReportTest, JSONHasTheRunsFacts) {
  llvm::json::Value value = makeReport().toJSON();
  const llvm::json::Object *root = value.getAsObject();
  EXPECT_EQ(root->getString("driver"), "LLVM ORC JIT 22.1.8");
  EXPECT_EQ(root->getString("plugin-version"), "0.1.0");
  EXPECT_EQ(root->getString("target"), "backend=cpu arch=x86-64");
}

TEST(ReportTest, JUnit) {
  RunReport report = makeReport();
  report.cases[1].message = "y: \"1 < 2\" & 'x' \x01";
  std::string text;
  llvm::raw_string_ostream os(text);
  report.printJUnit(os);
  // Two failures (fail and the error), the xpass is a failure too; the
  // unsupported and expected-failure cases are skipped.
  EXPECT_NE(text.find("<testsuites name=\"tessera conformance\" tests=\"6\" "
                      "failures=\"3\" errors=\"0\" skipped=\"2\" "
                      "time=\"2.500\">"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("<property name=\"driver\" value=\"LLVM ORC JIT "
                      "22.1.8\"/>"),
            std::string::npos);
  EXPECT_NE(text.find("<property name=\"plugin-version\" value=\"0.1.0\"/>"),
            std::string::npos);
  EXPECT_NE(text.find("<testcase classname=\"01_vector_add.add_kernel\" "
                      "name=\"n=1\" time=\"0.250\"/>"),
            std::string::npos)
      << text;
  // Markup and control characters of a message are escaped.
  EXPECT_NE(text.find("<failure type=\"fail\" message=\"y: &quot;1 &lt; "
                      "2&quot; &amp; &apos;x&apos; ?\">y = inf (tolerance "
                      "1.0e-06) over\n</failure>"),
            std::string::npos)
      << text;
  // A line break in an attribute is a character reference (a parser
  // would turn a literal one into a space).
  EXPECT_NE(text.find("message=\"03_matmul.py:70:5: error: no dot&#10;  acc = "
                      "tl.dot(a, b)\"></failure>"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("<skipped message=\"not-supported: no fp8e4nv\"/>"),
            std::string::npos);
  EXPECT_NE(text.find("<skipped message=\"expected-failure: known\"/>"),
            std::string::npos);
  EXPECT_NE(text.find("<failure type=\"unexpected-pass\" message=\"known\">"),
            std::string::npos);
  EXPECT_EQ(text.substr(text.size() - 29), "  </testsuite>\n</testsuites>\n");
}

TEST(ReportTest, FormatValue) {
  EXPECT_EQ(formatValue(3), "3");
  EXPECT_EQ(formatValue(3.14e-8), "3.1e-08");
  EXPECT_EQ(formatValue(std::numeric_limits<double>::infinity()), "inf");
  EXPECT_EQ(formatValue(std::numeric_limits<double>::quiet_NaN()), "nan");
}
} // namespace
