//===- TensorMapsTest.cpp - Tensor-map recipes as the launch reads them ---===//
#include "TensorMaps.h"

#include "gtest/gtest.h"

using namespace mlir::tessera::nvptx;

namespace {

TEST(TensorMapRecipe, RoundTripsThroughItsText) {
  TensorMapRecipe recipe;
  recipe.dataType = 9;
  recipe.elementBytes = 2;
  recipe.base = "p0 p6 2 * +";
  recipe.dims = {"p3 p4 *", "128"};
  recipe.strides = {"128", "1"};
  recipe.box = {64, 64};
  recipe.swizzle = 3;
  recipe.nanFill = true;
  std::string text = recipe.str();
  EXPECT_EQ(text, "type=9|bytes=2|swizzle=3|fill=nan|base=p0 p6 2 * +|"
                  "dim=p3 p4 *|dim=128|stride=128|stride=1|box=64|box=64");
  llvm::Expected<TensorMapRecipe> parsed = TensorMapRecipe::parse(text);
  ASSERT_TRUE(bool(parsed)) << llvm::toString(parsed.takeError());
  EXPECT_EQ(parsed->dataType, 9u);
  EXPECT_EQ(parsed->elementBytes, 2u);
  EXPECT_EQ(parsed->base, recipe.base);
  EXPECT_EQ(parsed->dims, recipe.dims);
  EXPECT_EQ(parsed->strides, recipe.strides);
  EXPECT_EQ(parsed->box, recipe.box);
  EXPECT_EQ(parsed->swizzle, 3u);
  EXPECT_TRUE(parsed->nanFill);
  EXPECT_EQ(parsed->str(), text);
}

TEST(TensorMapRecipe, RefusesMalformedText) {
  auto error = [](const char *text) {
    llvm::Expected<TensorMapRecipe> r = TensorMapRecipe::parse(text);
    EXPECT_FALSE(bool(r)) << text;
    return r ? std::string() : llvm::toString(r.takeError());
  };
  // A box dimension TMA cannot take, an unknown swizzle, an unknown field.
  EXPECT_NE(error("type=1|bytes=2|swizzle=3|fill=zero|base=p0|dim=p1|"
                  "stride=1|box=512")
                .find("bad field 'box=512'"),
            std::string::npos);
  EXPECT_NE(error("type=1|bytes=2|swizzle=4|fill=zero|base=p0|dim=p1|"
                  "stride=1|box=8")
                .find("bad field 'swizzle=4'"),
            std::string::npos);
  EXPECT_NE(error("type=1|bytes=2|colour=red").find("bad field"),
            std::string::npos);
  // Dims, strides and boxes must agree in number.
  EXPECT_NE(error("type=1|bytes=2|swizzle=0|fill=zero|base=p0|dim=p1|dim=p2|"
                  "stride=1|box=8|box=8")
                .find("as many strides"),
            std::string::npos);
  EXPECT_NE(error("type=1|bytes=2|dim=p1|stride=1|box=8").find("needs a base"),
            std::string::npos);
}

} // namespace
