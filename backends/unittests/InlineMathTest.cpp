//===- InlineMathTest.cpp - Which math functions are computed inline ------===//
#include "tessera/Backend/InlineMath.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::tessera;

namespace {
class InlineMathTest : public ::testing::Test {
protected:
  InlineMathTest() {
    context.loadDialect<arith::ArithDialect, math::MathDialect>();
  }
  MLIRContext context;
  Builder b{&context};
  Type f32 = b.getF32Type(), f64 = b.getF64Type(), i32 = b.getI32Type();
};

TEST_F(InlineMathTest, RoundToNearestArithmeticAndPredicates) {
  EXPECT_TRUE(hasInlineMath("__tessera_div_rn_fp32_fp32", {f32, f32}, f32));
  EXPECT_TRUE(hasInlineMath("div_rn", {f64, f64}, f64));
  EXPECT_TRUE(hasInlineMath("fast_dividef", {f32, f32}, f32));
  EXPECT_TRUE(hasInlineMath("__tessera_finitef_fp32", {f32}, i32));
  EXPECT_TRUE(hasInlineMath("isnan", {f64}, i32));
  // A predicate returns an integer, not the float.
  EXPECT_FALSE(hasInlineMath("isnan", {f32}, f32));
  EXPECT_TRUE(hasInlineMath("float2int_rn", {f32}, i32));
  EXPECT_TRUE(hasInlineMath("float2int_rz", {f32}, i32));
  EXPECT_FALSE(hasInlineMath("float2int_rd", {f32}, i32));
  // Plain sqrt and fma are the math library's; rsqrt is computed.
  EXPECT_FALSE(hasInlineMath("sqrt", {f32}, f32));
  EXPECT_FALSE(hasInlineMath("fma", {f32, f32, f32}, f32));
  EXPECT_TRUE(hasInlineMath("rsqrt", {f32}, f32));
  EXPECT_FALSE(hasInlineMath("div_rn", {f32}, f32)) << "wrong arity";
}

TEST_F(InlineMathTest, DirectedRoundingOnlyWhereFp64IsExactEnough) {
  for (const char *name : {"div_rz", "div_rd", "div_ru", "mul_rz", "mul_rd"})
    EXPECT_TRUE(hasInlineMath(name, {f32, f32}, f32)) << name;
  EXPECT_TRUE(hasInlineMath("sqrt_ru", {f32}, f32));
  EXPECT_TRUE(hasInlineMath("rcp_rd", {f32}, f32));
  // fp32 sums may round across an fp32 value in fp64; fp64 has no wider
  // type.
  EXPECT_FALSE(hasInlineMath("add_rz", {f32, f32}, f32));
  EXPECT_FALSE(hasInlineMath("fma_rd", {f32, f32, f32}, f32));
  EXPECT_FALSE(hasInlineMath("div_rz", {f64, f64}, f64));
}

TEST_F(InlineMathTest, PowTakesAnIntegerExponentOnly) {
  EXPECT_TRUE(hasInlineMath("__tessera_pow_fp32_i32", {f32, i32}, f32));
  EXPECT_TRUE(hasInlineMath("powi", {f64, i32}, f64));
  EXPECT_FALSE(hasInlineMath("pow", {f32, f32}, f32)) << "libm's powf";
}

TEST_F(InlineMathTest, TensorsKeepTheirShapeAndEncoding) {
  OpBuilder builder(&context);
  Location loc = builder.getUnknownLoc();
  auto module = ModuleOp::create(loc);
  builder.setInsertionPointToEnd(module.getBody());
  auto tensor = RankedTensorType::get({4}, f32);
  Value x = arith::ConstantOp::create(
      builder, loc, DenseElementsAttr::get(tensor, builder.getF32FloatAttr(2)));
  Value y = arith::ConstantOp::create(
      builder, loc, DenseElementsAttr::get(tensor, builder.getF32FloatAttr(3)));
  std::optional<Value> q = emitInlineMath(
      builder, loc, "__tessera_div_rz_fp32_fp32", {x, y}, tensor);
  ASSERT_TRUE(q.has_value());
  EXPECT_EQ(q->getType(), tensor);
  std::optional<Value> finite = emitInlineMath(builder, loc, "finitef", {x},
                                               RankedTensorType::get({4}, i32));
  ASSERT_TRUE(finite.has_value());
  EXPECT_EQ(finite->getType(), RankedTensorType::get({4}, i32));
  EXPECT_TRUE(succeeded(verify(module)));
  module->erase();
}
} // namespace
