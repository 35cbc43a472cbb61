//===- PromotionTest.cpp - Tests of Triton's type promotion rules ---------===//
#include "tessera/Frontend/Codegen/Promotion.h"

#include "gtest/gtest.h"

using namespace tessera::frontend;

namespace {
TType t(ScalarKind k) { return TType::scalar(k); }
/// The promoted type of tensors (or Python scalars) of types a and b.
std::string promote(ScalarKind a, ScalarKind b, bool aScalar = false,
                    bool bScalar = false, bool divOrMod = false) {
  Promotion p = computeType(t(a), aScalar, t(b), bScalar, divOrMod);
  return p.ok() ? p.type.str() : "error: " + p.error;
}
using K = ScalarKind;
} // namespace

TEST(PromotionTest, Integers) {
  EXPECT_EQ(promote(K::Int32, K::UInt32), "uint32");
  EXPECT_EQ(promote(K::Int32, K::Int64), "int64");
  EXPECT_EQ(promote(K::UInt32, K::Int64), "int64");
  EXPECT_EQ(promote(K::Int8, K::Int32), "int32");
  EXPECT_EQ(promote(K::UInt8, K::Int8), "uint8");
  EXPECT_EQ(promote(K::Int1, K::Int8), "int8");
  EXPECT_EQ(promoteIntegers(t(K::UInt64), t(K::Int64)).str(), "uint64");
  EXPECT_EQ(promoteIntegers(t(K::Int16), t(K::UInt8)).str(), "int16");
}

TEST(PromotionTest, Floats) {
  EXPECT_EQ(promote(K::FP16, K::FP32), "fp32");
  EXPECT_EQ(promote(K::FP64, K::FP16), "fp64");
  EXPECT_EQ(promote(K::FP16, K::FP16), "fp16");
  // fp16 wins over bf16 (Triton checks fp16 first).
  EXPECT_EQ(promote(K::BF16, K::FP16), "fp16");
  EXPECT_EQ(promote(K::BF16, K::BF16), "bf16");
  EXPECT_EQ(promote(K::BF16, K::Int32), "fp32");
  EXPECT_EQ(promote(K::FP16, K::Int32), "fp16");
  EXPECT_EQ(promote(K::FP8E4NV, K::FP8E5), "fp16");
  EXPECT_EQ(promote(K::FP8E4NV, K::FP8E4NV), "fp8e4nv");
  EXPECT_EQ(promote(K::FP8E4NV, K::FP16), "fp16");
}

TEST(PromotionTest, DivisionAndModulo) {
  EXPECT_EQ(promote(K::FP16, K::FP16, false, false, true), "fp32");
  EXPECT_EQ(promote(K::BF16, K::BF16, false, false, true), "fp32");
  EXPECT_EQ(promote(K::Int32, K::Int32, false, false, true), "int32");
  EXPECT_NE(promote(K::Int32, K::UInt32, false, false, true).find("error"),
            std::string::npos);
  // fp16 / python float: the scalar does not take part, but `/` upcasts.
  EXPECT_EQ(promote(K::FP16, K::FP32, false, true, true), "fp32");
}

TEST(PromotionTest, PythonScalarsDoNotPromoteTensors) {
  // fp16 + 2.0 stays fp16; int8 + 1 stays int8; int + 1.5 is fp32.
  EXPECT_EQ(promote(K::FP16, K::FP32, false, true), "fp16");
  EXPECT_EQ(promote(K::Int8, K::Int32, false, true), "int8");
  EXPECT_EQ(promote(K::Int32, K::FP32, false, true), "fp32");
  EXPECT_EQ(promote(K::Int8, K::Int1, false, true), "int8");
  // Two scalars promote normally.
  EXPECT_EQ(promote(K::Int32, K::FP32, true, true), "fp32");
}

TEST(PromotionTest, PythonScalarTypes) {
  EXPECT_EQ(pythonScalarType(HostValue::boolean(true)).str(), "int1");
  EXPECT_EQ(pythonScalarType(HostValue::integer(5)).str(), "int32");
  EXPECT_EQ(pythonScalarType(HostValue::integer(-(int64_t(1) << 31))).str(),
            "int32");
  EXPECT_EQ(pythonScalarType(HostValue::integer(int64_t(1) << 31)).str(),
            "uint32");
  EXPECT_EQ(pythonScalarType(HostValue::integer(int64_t(1) << 32)).str(),
            "int64");
  EXPECT_EQ(pythonScalarType(HostValue::integer(-(int64_t(1) << 40))).str(),
            "int64");
  EXPECT_EQ(pythonScalarType(HostValue::floating(1.5)).str(), "fp32");
  EXPECT_EQ(pythonScalarType(HostValue::floating(0.0)).str(), "fp32");
  EXPECT_EQ(pythonScalarType(HostValue::floating(1e-300)).str(), "fp64");
  EXPECT_EQ(pythonScalarType(HostValue::floating(1e300)).str(), "fp64");
}

TEST(PromotionTest, Ranges) {
  EXPECT_TRUE(fitsIn(127, t(K::Int8)));
  EXPECT_FALSE(fitsIn(128, t(K::Int8)));
  EXPECT_FALSE(fitsIn(-1, t(K::UInt32)));
  EXPECT_TRUE(fitsIn(4294967295LL, t(K::UInt32)));
  EXPECT_FALSE(fitsIn(4294967296LL, t(K::UInt32)));
  EXPECT_TRUE(fitsIn(1, t(K::Int1)));
  EXPECT_FALSE(fitsIn(2, t(K::Int1)));
}
