//===- ToleranceTest.cpp - Relative norm error and tolerances -------------===//
#include "tessera/Conformance/Tolerance.h"

#include "gtest/gtest.h"

#include <cmath>
#include <limits>

using namespace mlir::tessera::conformance;

namespace {
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

TEST(ToleranceTest, RelativeNormError) {
  EXPECT_EQ(relativeNormError({1, 2, 3}, {1, 2, 3}), 0.0);
  // ||(0, 0, 4) - (0, 3, 4)|| / ||(0, 3, 4)|| = 3 / 5.
  EXPECT_DOUBLE_EQ(relativeNormError({0, 0, 4}, {0, 3, 4}), 0.6);
  EXPECT_EQ(relativeNormError({}, {}), 0.0);
}

TEST(ToleranceTest, NonFiniteOutputsAreInfinitelyWrong) {
  EXPECT_EQ(relativeNormError({1, kNaN, 3}, {1, 2, 3}), kInf);
  EXPECT_EQ(relativeNormError({kInf}, {1}), kInf);
  EXPECT_EQ(relativeNormError({-kInf}, {1}), kInf);
  // Even when the reference is not finite either.
  EXPECT_EQ(relativeNormError({kNaN}, {kNaN}), kInf);
}

TEST(ToleranceTest, ZeroReferenceUsesAbsoluteNorm) {
  EXPECT_DOUBLE_EQ(relativeNormError({3, 4}, {0, 0}), 5.0);
  EXPECT_EQ(relativeNormError({0, 0}, {0, 0}), 0.0);
}

TEST(ToleranceTest, LargeValuesDoNotOverflow) {
  // Squares of 1e200 overflow double; the norm must not.
  double err = relativeNormError({1e200, 1e200}, {1e200, 2e200});
  EXPECT_TRUE(std::isfinite(err));
  EXPECT_NEAR(err, 1 / std::sqrt(5.0), 1e-12);
}

TEST(ToleranceTest, Fp8Ulps) {
  // Spacing of e4m3 in [1, 2) is 1/8.
  EXPECT_DOUBLE_EQ(maxFp8E4M3Ulps({1.125}, {1.0}), 1.0);
  EXPECT_DOUBLE_EQ(maxFp8E4M3Ulps({1.0625}, {1.0}), 0.5);
  // In [8, 16) it is 1.
  EXPECT_DOUBLE_EQ(maxFp8E4M3Ulps({10}, {9.5}), 0.5);
  // Below 2^-6 the subnormal spacing 2^-9 applies.
  EXPECT_DOUBLE_EQ(maxFp8E4M3Ulps({0x1.0p-9}, {0}), 1.0);
  EXPECT_EQ(maxFp8E4M3Ulps({kNaN}, {1}), kInf);
}

TEST(ToleranceTest, Fp8UlpsForgiveTheAllowanceFirst) {
  // 3 subnormal ulps off, 2 of them allowed (an fp8 dot's accumulation).
  EXPECT_DOUBLE_EQ(maxFp8E4M3Ulps({0x1.8p-8}, {0}, {0x1.0p-8}), 1.0);
  // An allowance larger than the error leaves nothing.
  EXPECT_DOUBLE_EQ(maxFp8E4M3Ulps({1.125}, {1.0}, {0.5}), 0.0);
  // Per element: the worst remainder counts.
  EXPECT_DOUBLE_EQ(maxFp8E4M3Ulps({1.5, 10}, {1.0, 9.5}, {0.25, 0}), 2.0);
  // The allowance scales with sum |a b|: a 2^-12 share of a 4096-term sum
  // of unit products is one fp8 ulp at 8.
  EXPECT_DOUBLE_EQ(kFp8AccumulationError * 4096, 1.0);
  EXPECT_EQ(maxFp8E4M3Ulps({kNaN}, {1}, {1e9}), kInf);
}

TEST(ToleranceTest, TolerancesFollowTheReadme) {
  EXPECT_EQ(getTolerance(DType::F32, Accuracy::Elementwise), 1e-7);
  EXPECT_EQ(getTolerance(DType::F32, Accuracy::Transcendental), 1e-6);
  EXPECT_EQ(getTolerance(DType::F32, Accuracy::Reduction), 1e-5);
  EXPECT_EQ(getTolerance(DType::F16, Accuracy::Reduction), 1e-3);
  EXPECT_EQ(getTolerance(DType::F16, Accuracy::Dot), 2e-3);
  EXPECT_EQ(getTolerance(DType::F16, Accuracy::Backward), 2e-3);
  EXPECT_EQ(getTolerance(DType::F16, Accuracy::AttentionBackward), 1e-2);
  EXPECT_EQ(getTolerance(DType::F8E4M3, Accuracy::Dot), 4e-2);
}
} // namespace
