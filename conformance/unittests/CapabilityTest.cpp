//===- CapabilityTest.cpp - Statuses from capabilities and outcomes -------===//
#include "tessera/Conformance/Requirements.h"
#include "tessera/Conformance/Status.h"

#include "gtest/gtest.h"

#include <cmath>
#include <limits>

using namespace mlir::tessera;
using namespace mlir::tessera::conformance;

namespace {
TargetDescription makeTarget() {
  TargetDescription target;
  target.backend = "test";
  target.arch = "t1";
  target.dtypes = {"i8", "i32", "i64", "fp16", "fp32"};
  return target;
}

TEST(CapabilityTest, MissingDtypeIsNotSupported) {
  Requirements fp8;
  fp8.addDType("fp8e4nv").addDType("fp16").addDType("fp16");
  EXPECT_EQ(fp8.dtypes.size(), 2u);
  std::optional<std::string> reason = getUnsupportedReason(fp8, makeTarget());
  ASSERT_TRUE(reason.has_value());
  EXPECT_EQ(*reason, "target test:t1: no fp8e4nv in the target's dtypes");

  Requirements fp16;
  fp16.addDType("fp16");
  EXPECT_FALSE(getUnsupportedReason(fp16, makeTarget()));
}

TEST(CapabilityTest, EmptyDtypeListMeansEverything) {
  TargetDescription target = makeTarget();
  target.dtypes.clear();
  Requirements fp8;
  fp8.addDType("fp8e4nv");
  EXPECT_FALSE(getUnsupportedReason(fp8, target));
}

TEST(CapabilityTest, FeaturesWithoutFallback) {
  Requirements r;
  r.tensorMemoryCopy = true;
  r.addDType("bf16");
  TargetDescription target = makeTarget();
  std::optional<std::string> reason = getUnsupportedReason(r, target);
  ASSERT_TRUE(reason.has_value());
  EXPECT_NE(reason->find("no bf16"), std::string::npos) << *reason;
  EXPECT_NE(reason->find("needs tensor-memory copies"), std::string::npos);
  target.tensorMemoryCopy = true;
  target.dtypes.push_back("bf16");
  EXPECT_FALSE(getUnsupportedReason(r, target));
}

TEST(StatusTest, DerivedFromChecksErrorsAndExpectations) {
  CaseOutcome good;
  good.checks = {{"out", 1e-8, 1e-7}};
  CaseOutcome bad;
  bad.checks = {{"out", 1e-8, 1e-7}, {"mask mismatches", 3, 0}};
  CaseOutcome nan;
  nan.checks = {{"out", std::numeric_limits<double>::quiet_NaN(), 1e-7}};
  CaseOutcome crashed;
  crashed.error = "compile error";
  CaseOutcome unsupported;
  unsupported.unsupportedReason = "no fp8e4nv";
  std::optional<std::string> none, xfail = std::string("known");

  EXPECT_EQ(deriveStatus(good, none), Status::Pass);
  EXPECT_EQ(deriveStatus(bad, none), Status::Fail);
  EXPECT_EQ(deriveStatus(nan, none), Status::Fail);
  EXPECT_EQ(deriveStatus(crashed, none), Status::Fail);
  EXPECT_EQ(deriveStatus(unsupported, none), Status::NotSupported);
  EXPECT_EQ(deriveStatus(bad, xfail), Status::ExpectedFailure);
  EXPECT_EQ(deriveStatus(crashed, xfail), Status::ExpectedFailure);
  EXPECT_EQ(deriveStatus(good, xfail), Status::UnexpectedPass);
  EXPECT_EQ(deriveStatus(unsupported, xfail), Status::NotSupported);

  EXPECT_TRUE(isFailingStatus(Status::Fail));
  EXPECT_TRUE(isFailingStatus(Status::UnexpectedPass));
  EXPECT_FALSE(isFailingStatus(Status::ExpectedFailure));
  EXPECT_FALSE(isFailingStatus(Status::NotSupported));
  for (Status s : {Status::Pass, Status::Fail, Status::NotSupported,
                   Status::ExpectedFailure, Status::UnexpectedPass})
    EXPECT_EQ(parseStatus(stringifyStatus(s)), s);
}

TEST(StatusTest, WorstCheck) {
  std::vector<Check> checks = {
      {"a", 1e-8, 1e-7}, {"b", 5e-4, 1e-3}, {"c", 0, 0}};
  EXPECT_EQ(getWorstCheck(checks)->name, "b");
  checks.push_back({"d", 1, 0});
  EXPECT_EQ(getWorstCheck(checks)->name, "d");
  EXPECT_EQ(getWorstCheck({}), nullptr);
}
} // namespace
