//===- RandomTest.cpp - Seeded input generation
//----------------------------===//
#include "tessera/Conformance/Random.h"

#include "gtest/gtest.h"

#include <cmath>

using namespace mlir::tessera::conformance;

namespace {
TEST(RandomTest, SameSeedSameStream) {
  Rng a(42), b(42), c(43);
  bool differs = false;
  for (int i = 0; i < 100; ++i) {
    uint64_t x = a.next();
    EXPECT_EQ(x, b.next());
    differs |= x != c.next();
  }
  EXPECT_TRUE(differs);
}

TEST(RandomTest, CaseSeedsDependOnSeedAndId) {
  EXPECT_EQ(deriveSeed(1, "01/a/n=1"), deriveSeed(1, "01/a/n=1"));
  EXPECT_NE(deriveSeed(1, "01/a/n=1"), deriveSeed(2, "01/a/n=1"));
  EXPECT_NE(deriveSeed(1, "01/a/n=1"), deriveSeed(1, "01/a/n=2"));
}

TEST(RandomTest, Distributions) {
  Rng rng(7);
  double sum = 0, sumSquares = 0;
  const int n = 200000;
  for (int i = 0; i < n; ++i) {
    double u = rng.uniform();
    ASSERT_GE(u, 0.0);
    ASSERT_LT(u, 1.0);
    double z = rng.normal();
    ASSERT_TRUE(std::isfinite(z));
    sum += z;
    sumSquares += z * z;
  }
  EXPECT_NEAR(sum / n, 0.0, 0.02);
  EXPECT_NEAR(sumSquares / n, 1.0, 0.02);
}

TEST(RandomTest, FilledValuesAreRoundedToTheType) {
  Rng rng(1);
  HostTensor t(DType::F16, {1000});
  fillNormal(t, rng, 4.0, 0.5);
  for (int64_t i = 0; i < t.size(); ++i)
    EXPECT_EQ(t.get(i), roundToDType(t.get(i), DType::F16));
  HostTensor u(DType::F32, {1000});
  fillUniform(u, rng, -1, 1);
  for (double v : u.toDoubles()) {
    EXPECT_GE(v, -1.0);
    EXPECT_LE(v, 1.0);
  }
}
} // namespace
