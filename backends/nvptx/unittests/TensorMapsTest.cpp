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

TEST(TensorMapRecipe, KeepsWhereTheKernelMakesIt) {
  // The location comes last and may hold the separators.
  llvm::Expected<TensorMapRecipe> parsed = TensorMapRecipe::parse(
      "type=1|bytes=2|swizzle=3|fill=zero|base=p0|dim=p1|dim=p2|stride=p2|"
      "stride=1|box=64|box=64|at=/k|a=b.py:12:5");
  ASSERT_TRUE(bool(parsed)) << llvm::toString(parsed.takeError());
  EXPECT_EQ(parsed->where, "/k|a=b.py:12:5");
  EXPECT_EQ(parsed->box, (std::vector<unsigned>{64, 64}));
  EXPECT_EQ(TensorMapRecipe::parse(parsed->str())->where, parsed->where);
}

/// A 2-D fp16 recipe over parameters (base, rows, cols, row stride).
TensorMapRecipe fp16Recipe() {
  TensorMapRecipe recipe;
  recipe.dataType = 1;
  recipe.elementBytes = 2;
  recipe.base = "p0";
  recipe.dims = {"p1", "p2"};
  recipe.strides = {"p3", "1"};
  recipe.box = {128, 64};
  recipe.where = "kernel.py:7:11";
  return recipe;
}

TEST(TensorMapValues, InnermostFirstInBytes) {
  std::vector<mlir::tessera::KernelParam> params = {
      {"a", "*fp16"}, {"m", "i32"}, {"k", "i32"}, {"ld", "i32"}};
  uint64_t base = 0x10000;
  int32_t m = 50, k = 72, ld = 72;
  std::vector<void *> args = {&base, &m, &k, &ld};
  llvm::Expected<TensorMapValues> v =
      evaluateTensorMap(fp16Recipe(), params, args);
  ASSERT_TRUE(bool(v)) << llvm::toString(v.takeError());
  EXPECT_EQ(v->rank, 2u);
  EXPECT_EQ(v->base, base);
  EXPECT_EQ(v->dims[0], 72u);
  EXPECT_EQ(v->dims[1], 50u);
  EXPECT_EQ(v->strides[0], 144u);
  EXPECT_EQ(v->box[0], 64u);
  EXPECT_EQ(v->box[1], 128u);
}

TEST(TensorMapValues, TheDescriptorContractIsCheckedAtLaunch) {
  std::vector<mlir::tessera::KernelParam> params = {
      {"a", "*fp16"}, {"m", "i32"}, {"k", "i32"}, {"ld", "i32"}};
  uint64_t base = 0x10000;
  int32_t m = 50, k = 71, ld = 71;
  std::vector<void *> args = {&base, &m, &k, &ld};
  auto error = [&]() {
    llvm::Expected<TensorMapValues> v =
        evaluateTensorMap(fp16Recipe(), params, args);
    return v ? std::string() : llvm::toString(v.takeError());
  };
  // 142-byte rows.
  std::string why = error();
  EXPECT_NE(why.find("kernel.py:7:11: "), std::string::npos) << why;
  EXPECT_NE(why.find("row strides of 142 bytes"), std::string::npos) << why;
  // An aligned stride with a base 8 bytes off.
  ld = 80;
  base = 0x10008;
  EXPECT_NE(error().find("0x10008"), std::string::npos) << error();
  base = 0x10000;
  EXPECT_EQ(error(), "");
  m = 0;
  EXPECT_NE(error().find("size 0"), std::string::npos) << error();
}

} // namespace
