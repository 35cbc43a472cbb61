//===- LaunchExpressionTest.cpp - Host evaluation of launch expressions ---===//
#include "tessera/Backend/LaunchExpression.h"

#include "gtest/gtest.h"

#include <cstdint>
#include <vector>

using namespace mlir::tessera;

namespace {

TEST(LaunchExpression, ReadsParametersAtTheirWidth) {
  uint64_t address = 0x7f0000001000;
  int32_t negative = -3;
  uint32_t big = 0xfffffff0u;
  int64_t wide = int64_t(1) << 40;
  int16_t half = -2;
  std::vector<KernelParam> params{
      {"a", "*fp16"}, {"n", "i32"}, {"u", "u32"}, {"w", "i64"}, {"h", "i16"}};
  std::vector<void *> args{&address, &negative, &big, &wide, &half};
  auto eval = [&](const char *program) {
    llvm::Expected<int64_t> v = evaluateLaunchExpression(program, params, args);
    EXPECT_TRUE(bool(v)) << program;
    return v ? *v : int64_t(-12345);
  };
  EXPECT_EQ(eval("p0"), int64_t(address));
  EXPECT_EQ(eval("p1"), -3);
  EXPECT_EQ(eval("p2"), int64_t(0xfffffff0u));
  EXPECT_EQ(eval("p3"), wide);
  EXPECT_EQ(eval("p4"), -2);
}

TEST(LaunchExpression, EvaluatesPostfixArithmetic) {
  int32_t z = 4, h = 32, n = 4096;
  uint64_t base = 4096;
  std::vector<KernelParam> params{
      {"Q", "*fp16"}, {"Z", "i32"}, {"H", "i32"}, {"N", "i32"}};
  std::vector<void *> args{&base, &z, &h, &n};
  llvm::Expected<int64_t> rows =
      evaluateLaunchExpression("p1 p2 * p3 *", params, args);
  ASSERT_TRUE(bool(rows));
  EXPECT_EQ(*rows, 4 * 32 * 4096);
  // A pointer advanced by elements of two bytes, minus a constant.
  llvm::Expected<int64_t> address =
      evaluateLaunchExpression("p0 p3 2 * + -16 +", params, args);
  ASSERT_TRUE(bool(address));
  EXPECT_EQ(*address, 4096 + 2 * 4096 - 16);
  llvm::Expected<int64_t> difference =
      evaluateLaunchExpression("p1 p2 -", params, args);
  ASSERT_TRUE(bool(difference));
  EXPECT_EQ(*difference, -28);
}

TEST(LaunchExpression, RejectsMalformedProgramsWithTheReason) {
  float scale = 0.5f;
  int32_t n = 8;
  std::vector<KernelParam> params{{"s", "fp32"}, {"n", "i32"}};
  std::vector<void *> args{&scale, &n};
  auto error = [&](const char *program) {
    llvm::Expected<int64_t> v = evaluateLaunchExpression(program, params, args);
    EXPECT_FALSE(bool(v)) << program;
    return v ? std::string() : llvm::toString(v.takeError());
  };
  EXPECT_NE(error("p0").find("not an integer or pointer"), std::string::npos);
  EXPECT_NE(error("p7").find("no parameter 7"), std::string::npos);
  EXPECT_NE(error("p1 *").find("needs two operands"), std::string::npos);
  EXPECT_NE(error("p1 p1").find("leaves 2 values"), std::string::npos);
  EXPECT_NE(error("p1 / 2").find("unknown token '/'"), std::string::npos);
  EXPECT_NE(error("").find("leaves 0 values"), std::string::npos);
}

} // namespace
