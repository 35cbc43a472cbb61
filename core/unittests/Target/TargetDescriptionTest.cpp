//===- TargetDescriptionTest.cpp - Tests of the target description --------===//
#include "tessera/Target/TargetDescription.h"

#include "gtest/gtest.h"

using namespace mlir::tessera;

TEST(TargetDescription, EmptyDtypesAllowEverything) {
  TargetDescription target;
  EXPECT_TRUE(target.supportsDtype("fp8e4nv"));
  EXPECT_TRUE(target.supportsDtype("i64"));
}

TEST(TargetDescription, IntegerDtypesMatchInBothSpellings) {
  // Regression: a target listing `int32` refused kernels whose signature
  // says `i32`, so every integer case reported not-supported.
  TargetDescription target;
  target.dtypes = {"int1", "int8", "int32", "uint8", "fp16", "fp32"};
  EXPECT_TRUE(target.supportsDtype("i32"));
  EXPECT_TRUE(target.supportsDtype("int32"));
  EXPECT_TRUE(target.supportsDtype("i1"));
  EXPECT_TRUE(target.supportsDtype("u8"));
  EXPECT_TRUE(target.supportsDtype("uint8"));
  EXPECT_TRUE(target.supportsDtype("fp16"));
  EXPECT_FALSE(target.supportsDtype("i64"));
  EXPECT_FALSE(target.supportsDtype("u32"));
  EXPECT_FALSE(target.supportsDtype("bf16"));
  EXPECT_FALSE(target.supportsDtype("fp8e5"));
}
