//===- ReportCompareTest.cpp - Two conformance runs compared --------------===//
#include "tessera/Conformance/ReportCompare.h"

#include "gtest/gtest.h"

using namespace mlir::tessera::conformance;
namespace json = llvm::json;

namespace {
json::Value makeCase(llvm::StringRef id, llvm::StringRef status, double seconds,
                     std::initializer_list<json::Value> checks = {}) {
  return json::Object{{"id", id},
                      {"status", status},
                      {"seconds", seconds},
                      {"checks", json::Array(checks)}};
}

json::Value check(llvm::StringRef name, json::Value value, double tolerance) {
  return json::Object{
      {"name", name}, {"value", std::move(value)}, {"tolerance", tolerance}};
}

json::Value makeReport(std::initializer_list<json::Value> cases) {
  return json::Object{{"backend", "nvptx"}, {"cases", json::Array(cases)}};
}

std::vector<CaseChange> compare(const json::Value &a, const json::Value &b,
                                CompareOptions options = {}) {
  llvm::Expected<std::vector<CaseChange>> changes =
      compareReports(a, b, options);
  EXPECT_TRUE(static_cast<bool>(changes))
      << llvm::toString(changes.takeError());
  return changes ? *changes : std::vector<CaseChange>();
}
} // namespace

TEST(ReportCompareTest, SameRunsHaveNoChanges) {
  json::Value a = makeReport(
      {makeCase("a", "pass", 1.0, {check("out", 1e-7, 1e-5)}),
       makeCase("b", "not-supported", 0), makeCase("c", "fail", 2.0)});
  EXPECT_TRUE(compare(a, a).empty());
}

TEST(ReportCompareTest, StatusChanges) {
  json::Value a = makeReport(
      {makeCase("p2f", "pass", 1), makeCase("f2p", "fail", 1),
       makeCase("p2u", "compiled", 1), makeCase("x2p", "expected-failure", 1),
       makeCase("gone", "pass", 1)});
  json::Value b = makeReport(
      {makeCase("p2f", "fail", 1), makeCase("f2p", "pass", 1),
       makeCase("p2u", "not-supported", 1),
       makeCase("x2p", "unexpected-pass", 1), makeCase("new", "fail", 1)});
  std::vector<CaseChange> changes = compare(a, b);
  ASSERT_EQ(changes.size(), 6u);
  EXPECT_EQ(changes[0].id, "p2f");
  EXPECT_EQ(changes[0].kind, CaseChange::Kind::Status);
  EXPECT_EQ(changes[0].before, "pass");
  EXPECT_EQ(changes[0].after, "fail");
  EXPECT_TRUE(changes[0].regression);
  EXPECT_FALSE(changes[1].regression); // fail -> pass
  EXPECT_TRUE(changes[2].regression);  // compiled -> not supported
  EXPECT_FALSE(changes[3].regression); // the case runs right now
  EXPECT_EQ(changes[4].kind, CaseChange::Kind::Added);
  EXPECT_TRUE(changes[4].regression); // a new case that fails
  EXPECT_EQ(changes[5].kind, CaseChange::Kind::Removed);
  EXPECT_EQ(changes[5].id, "gone");
  EXPECT_TRUE(changes[5].regression);
}

TEST(ReportCompareTest, ErrorsMoveAgainstTheirTolerance) {
  json::Value a =
      makeReport({makeCase("small", "pass", 1, {check("out", 1e-6, 1e-5)}),
                  makeCase("large", "pass", 1, {check("out", 1e-6, 1e-5)}),
                  makeCase("better", "pass", 1, {check("out", 9e-6, 1e-5)}),
                  makeCase("nan", "pass", 1, {check("out", 0.0, 1e-5)}),
                  makeCase("inf", "fail", 1, {check("out", "inf", 1e-5)})});
  json::Value b =
      makeReport({makeCase("small", "pass", 1, {check("out", 3e-6, 1e-5)}),
                  makeCase("large", "pass", 1, {check("out", 8e-6, 1e-5)}),
                  makeCase("better", "pass", 1, {check("out", 1e-6, 1e-5)}),
                  makeCase("nan", "fail", 1, {check("out", "nan", 1e-5)}),
                  makeCase("inf", "fail", 1, {check("out", "inf", 1e-5)})});
  std::vector<CaseChange> changes = compare(a, b);
  ASSERT_EQ(changes.size(), 4u);
  EXPECT_EQ(changes[0].id, "large");
  EXPECT_EQ(changes[0].kind, CaseChange::Kind::Error);
  EXPECT_EQ(changes[0].check, "out");
  EXPECT_EQ(changes[0].before, "10%");
  EXPECT_EQ(changes[0].after, "80%");
  EXPECT_TRUE(changes[0].regression);
  EXPECT_EQ(changes[1].id, "better");
  EXPECT_FALSE(changes[1].regression);
  EXPECT_EQ(changes[2].id, "nan");
  EXPECT_EQ(changes[2].kind, CaseChange::Kind::Status);
  EXPECT_EQ(changes[3].id, "nan");
  EXPECT_EQ(changes[3].kind, CaseChange::Kind::Error);
  EXPECT_TRUE(changes[3].regression);

  // A tighter tolerance lists the small move too.
  CompareOptions tight;
  tight.errorTolerance = 0.1;
  EXPECT_EQ(compare(a, b, tight).size(), 5u);
}

TEST(ReportCompareTest, TimesOnlyWhenAsked) {
  json::Value a =
      makeReport({makeCase("slow", "pass", 1.0), makeCase("fast", "pass", 1.0),
                  makeCase("same", "pass", 1.0)});
  json::Value b =
      makeReport({makeCase("slow", "pass", 2.0), makeCase("fast", "pass", 0.4),
                  makeCase("same", "pass", 1.1)});
  EXPECT_TRUE(compare(a, b).empty());
  CompareOptions options;
  options.timeTolerance = 0.5;
  std::vector<CaseChange> changes = compare(a, b, options);
  ASSERT_EQ(changes.size(), 2u);
  EXPECT_EQ(changes[0].id, "slow");
  EXPECT_EQ(changes[0].kind, CaseChange::Kind::Time);
  EXPECT_EQ(changes[0].before, "1.000s");
  EXPECT_EQ(changes[0].after, "2.000s");
  EXPECT_TRUE(changes[0].regression);
  EXPECT_EQ(changes[1].id, "fast");
  EXPECT_FALSE(changes[1].regression);
}

TEST(ReportCompareTest, MalformedReportsAreErrors) {
  json::Value good = makeReport({makeCase("a", "pass", 1)});
  auto errorOf = [&](const json::Value &bad) {
    llvm::Expected<std::vector<CaseChange>> changes =
        compareReports(good, bad, {});
    return changes ? std::string("success")
                   : llvm::toString(changes.takeError());
  };
  EXPECT_EQ(errorOf(json::Object{{"cases", 3}}),
            "not a conformance report: the second report has no \"cases\" "
            "array");
  EXPECT_EQ(errorOf(makeReport({json::Object{{"id", "a"}}})),
            "not a conformance report: a case of the second report has no id "
            "or status");
  EXPECT_EQ(
      errorOf(makeReport({makeCase("a", "pass", 1), makeCase("a", "fail", 1)})),
      "not a conformance report: the second report lists case 'a' "
      "twice");
}
