//===- ScalarTypesTest.cpp - Triton's scalar types, one table -------------===//
#include "tessera/Dialect/Tessera/IR/ScalarTypes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/MLIRContext.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::tessera;

namespace {

TEST(ScalarTypes, ThreeSpellingsOfEachType) {
  const ScalarTypeInfo *u8 = lookupScalarType("u8");
  ASSERT_TRUE(u8);
  EXPECT_EQ(u8->cls, ScalarClass::UnsignedInt);
  EXPECT_EQ(u8->dtypeName, "uint8");
  EXPECT_EQ(u8->languageName, "uint8");
  const ScalarTypeInfo *e4 = lookupLanguageType("float8e4nv");
  ASSERT_TRUE(e4);
  EXPECT_EQ(e4->name, "fp8e4nv");
  EXPECT_EQ(e4->dtypeName, "fp8e4nv");
  EXPECT_EQ(e4->mantissaBits, 3u);
  EXPECT_EQ(lookupScalarType("f32"), lookupScalarType("fp32"));
  EXPECT_EQ(getScalarTypeBytes("i1"), 1u);
  EXPECT_EQ(getScalarTypeBytes("bf16"), 2u);
  EXPECT_FALSE(getScalarTypeBytes("fp128").has_value());
  EXPECT_EQ(lookupLanguageType("fp16"), nullptr);
}

TEST(ScalarTypes, EveryTypeRoundTripsThroughMLIR) {
  MLIRContext ctx;
  for (const ScalarTypeInfo &info : getScalarTypes()) {
    Type type = getScalarMLIRType(&ctx, info);
    const ScalarTypeInfo *back = lookupScalarType(type);
    ASSERT_TRUE(back) << info.name.str();
    // Integers are signless in MLIR: they come back signed.
    if (info.cls == ScalarClass::UnsignedInt)
      EXPECT_EQ(back->bits, info.bits);
    else if (info.name == "u1")
      EXPECT_EQ(back->name, "i1");
    else
      EXPECT_EQ(back, &info) << info.name.str();
  }
  Builder b(&ctx);
  EXPECT_EQ(
      lookupScalarType(IntegerType::get(&ctx, 16, IntegerType::Unsigned))->name,
      "u16");
  EXPECT_EQ(lookupScalarType(b.getIndexType()), nullptr);
  EXPECT_EQ(lookupScalarType(b.getF80Type()), nullptr);
  EXPECT_EQ(lookupScalarType(b.getIntegerType(128)), nullptr);
}

} // namespace
