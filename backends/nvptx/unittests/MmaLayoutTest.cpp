//===- MmaLayoutTest.cpp - mma.sync layouts against the PTX fragment tables
//===//
#include "MmaLayouts.h"

#include "gtest/gtest.h"

using namespace mlir::tessera;
using namespace mlir::tessera::nvptx;

namespace {

std::pair<int32_t, int32_t> at(const LinearLayout &layout, int32_t reg,
                               int32_t lane, int32_t warp = 0) {
  auto out = layout.apply({{kRegisterDim, reg},
                           {kLaneDim, lane},
                           {kWarpDim, warp},
                           {kBlockDim, 0}});
  return {out[0].second, out[1].second};
}

// Element e of fragment register r of lane l, from the PTX ISA's tables for
// mma.m16n8k16 with .f16/.bf16 operands (g = l / 4, t = l % 4).
TEST(MmaLayout, Fp16FragmentsOfOneWarp) {
  WarpGrid one;
  LinearLayout a = mmaOperandLayout(0, 16, 16, one, 16);
  LinearLayout b = mmaOperandLayout(1, 16, 8, one, 16);
  LinearLayout c = mmaAccumulatorLayout(16, 8, one);
  ASSERT_EQ(a.getInDimSize(kRegisterDim), 8);
  ASSERT_EQ(b.getInDimSize(kRegisterDim), 4);
  ASSERT_EQ(c.getInDimSize(kRegisterDim), 4);
  for (int32_t lane = 0; lane < 32; ++lane) {
    int32_t g = lane / 4, t = lane % 4;
    for (int32_t i = 0; i < 8; ++i) {
      // a_i: row g for a0,a1,a4,a5, g + 8 for the others; column
      // 2t + (i & 1), plus 8 for a4..a7.
      int32_t row = (i < 2 || (i >= 4 && i < 6)) ? g : g + 8;
      int32_t col = 2 * t + (i & 1) + (i >= 4 ? 8 : 0);
      EXPECT_EQ(at(a, i, lane), std::make_pair(row, col))
          << "a" << i << " lane " << lane;
    }
    for (int32_t i = 0; i < 4; ++i)
      EXPECT_EQ(at(b, i, lane),
                std::make_pair(2 * t + (i & 1) + (i >= 2 ? 8 : 0), g))
          << "b" << i << " lane " << lane;
    for (int32_t i = 0; i < 4; ++i)
      EXPECT_EQ(at(c, i, lane),
                std::make_pair(i < 2 ? g : g + 8, 2 * t + (i & 1)))
          << "c" << i << " lane " << lane;
  }
}

// m16n8k32 with 8-bit operands: four elements per register.
TEST(MmaLayout, Int8FragmentsOfOneWarp) {
  WarpGrid one;
  LinearLayout a = mmaOperandLayout(0, 16, 32, one, 8);
  LinearLayout b = mmaOperandLayout(1, 32, 8, one, 8);
  for (int32_t lane = 0; lane < 32; ++lane) {
    int32_t g = lane / 4, t = lane % 4;
    for (int32_t i = 0; i < 16; ++i) {
      int32_t row = (i < 4 || (i >= 8 && i < 12)) ? g : g + 8;
      int32_t col = 4 * t + (i & 3) + (i >= 8 ? 16 : 0);
      EXPECT_EQ(at(a, i, lane), std::make_pair(row, col))
          << "a" << i << " lane " << lane;
    }
    for (int32_t i = 0; i < 8; ++i)
      EXPECT_EQ(at(b, i, lane),
                std::make_pair(4 * t + (i & 3) + (i >= 4 ? 16 : 0), g))
          << "b" << i << " lane " << lane;
  }
}

// m16n8k8 with .tf32 operands: one element per register.
TEST(MmaLayout, Tf32FragmentsOfOneWarp) {
  WarpGrid one;
  LinearLayout a = mmaOperandLayout(0, 16, 8, one, 32);
  LinearLayout b = mmaOperandLayout(1, 8, 8, one, 32);
  for (int32_t lane = 0; lane < 32; ++lane) {
    int32_t g = lane / 4, t = lane % 4;
    for (int32_t i = 0; i < 4; ++i)
      EXPECT_EQ(at(a, i, lane),
                std::make_pair(g + ((i & 1) ? 8 : 0), t + (i >= 2 ? 4 : 0)))
          << "a" << i << " lane " << lane;
    for (int32_t i = 0; i < 2; ++i)
      EXPECT_EQ(at(b, i, lane), std::make_pair(t + (i ? 4 : 0), g))
          << "b" << i << " lane " << lane;
  }
}

// Warps tile the result; operands are shared by the warps of a row (A) or
// column (B) of the grid, and the rest of the tensor repeats in registers.
TEST(MmaLayout, WarpsAndRepeats) {
  WarpGrid grid = chooseMmaWarps(64, 64, 4);
  EXPECT_EQ(grid.m, 2u);
  EXPECT_EQ(grid.n, 2u);
  LinearLayout c = mmaAccumulatorLayout(64, 64, grid);
  LinearLayout a = mmaOperandLayout(0, 64, 32, grid, 16);
  EXPECT_TRUE(
      c.isInvertible()); // every element exactly once // every element once
  EXPECT_EQ(c.getInDimSize(kRegisterDim), 64 * 64 / 128);
  // Warp 1 owns rows 16..31, warp 2 columns 8..15.
  EXPECT_EQ(at(c, 0, 0, 1), std::make_pair(16, 0));
  EXPECT_EQ(at(c, 0, 0, 2), std::make_pair(0, 8));
  // Warps 0 and 2 (same rows) hold the same A elements.
  for (int32_t reg = 0; reg < a.getInDimSize(kRegisterDim); ++reg)
    EXPECT_EQ(at(a, reg, 5, 0), at(a, reg, 5, 2));
  // More warps than tiles: the extra ones hold copies.
  WarpGrid many = chooseMmaWarps(16, 8, 4);
  LinearLayout small = mmaAccumulatorLayout(16, 8, many);
  EXPECT_EQ(at(small, 3, 7, 0), at(small, 3, 7, 3));
}

TEST(MmaLayout, ProviderTilesOrDeclines) {
  MmaLayoutProvider provider;
  MatrixInstruction mma;
  mma.name = "mma.sync.m16n8k16";
  mma.m = 16;
  mma.n = 8;
  mma.k = 16;
  mma.aType = mma.bType = "fp16";
  mma.accType = "fp32";
  DotShape shape;
  shape.m = 128;
  shape.n = 64;
  shape.k = 32;
  auto layouts = provider.getLayouts(mma, shape);
  ASSERT_TRUE(bool(layouts)) << llvm::toString(layouts.takeError());
  EXPECT_EQ(layouts->acc.getOutDimSize("dim0"), 128);
  EXPECT_EQ(layouts->a.getOutDimSize("dim1"), 32);
  shape.k = 8;
  auto tooShort = provider.getLayouts(mma, shape);
  ASSERT_FALSE(bool(tooShort));
  EXPECT_EQ(llvm::toString(tooShort.takeError()),
            "a 128x64x8 dot is not tiled by 16x8x16");
  MatrixInstruction wgmma = mma;
  wgmma.name = "wgmma.m64nNk16";
  wgmma.m = 64;
  shape.k = 32;
  auto layoutsWg = provider.getLayouts(wgmma, shape);
  ASSERT_TRUE(bool(layoutsWg)) << llvm::toString(layoutsWg.takeError());
  EXPECT_EQ(layoutsWg->acc, wgmmaAccumulatorLayout(128, 64, {1, 1}));
  // fp8 takes wgmma k32, from a K of 32 up.
  MatrixInstruction wgmma8 = wgmma;
  wgmma8.name = "wgmma.m64nNk32";
  wgmma8.k = 32;
  wgmma8.aType = wgmma8.bType = "fp8e4nv";
  auto layoutsFp8 = provider.getLayouts(wgmma8, shape);
  ASSERT_TRUE(bool(layoutsFp8)) << llvm::toString(layoutsFp8.takeError());
  EXPECT_EQ(layoutsFp8->acc, wgmmaAccumulatorLayout(128, 64, {1, 1}));
  shape.k = 16;
  auto shortFp8 = provider.getLayouts(wgmma8, shape);
  ASSERT_FALSE(bool(shortFp8));
  EXPECT_EQ(llvm::toString(shortFp8.takeError()),
            "a 128x64x16 dot is not tiled by m64nNk32 with N >= 16");
  shape.k = 32;
  // Types the lowering does not emit wgmma for go to mma.sync.
  wgmma8.aType = wgmma8.bType = "int8";
  wgmma8.accType = "int32";
  auto declined = provider.getLayouts(wgmma8, shape);
  ASSERT_FALSE(bool(declined));
  EXPECT_EQ(llvm::toString(declined.takeError()),
            "the nvptx lowering emits wgmma.m64nNk32 for 16-bit and fp8 "
            "operands with fp32 accumulators only");
  // Two warps are not a warpgroup.
  wgmma.aType = wgmma.bType = "fp16";
  shape.numWarps = 2;
  auto tooFew = provider.getLayouts(wgmma, shape);
  ASSERT_FALSE(bool(tooFew));
  llvm::consumeError(tooFew.takeError());
}

// The wgmma m64nNk16 D fragment from the PTX ISA: thread t of warp w of the
// warpgroup holds d[i] at row 16 w + t / 4 + 8 ((i >> 1) & 1) and column
// 8 (i >> 2) + 2 (t % 4) + (i & 1).
TEST(WgmmaLayout, AccumulatorFragmentOfOneWarpgroup) {
  LinearLayout acc = wgmmaAccumulatorLayout(64, 64, {1, 1});
  ASSERT_EQ(acc.getInDimSize(kRegisterDim), 32);
  for (int32_t warp = 0; warp < 4; ++warp)
    for (int32_t lane = 0; lane < 32; ++lane)
      for (int32_t i = 0; i < 32; ++i) {
        int32_t row = 16 * warp + lane / 4 + 8 * ((i >> 1) & 1);
        int32_t col = 8 * (i >> 2) + 2 * (lane % 4) + (i & 1);
        EXPECT_EQ(at(acc, i, lane, warp), std::make_pair(row, col))
            << "d" << i << " lane " << lane << " warp " << warp;
      }
}

// Two warpgroups over a 128 x 256 result: the second takes rows 64..127;
// over a 64 x 256 one they split N instead.
TEST(WgmmaLayout, WarpgroupsTileMThenN) {
  std::optional<WarpgroupGrid> tall = chooseWgmmaGroups(128, 256, 8);
  ASSERT_TRUE(tall.has_value());
  EXPECT_EQ(tall->m, 2u);
  EXPECT_EQ(tall->n, 1u);
  LinearLayout acc = wgmmaAccumulatorLayout(128, 256, *tall);
  EXPECT_EQ(acc.getInDimSize(kRegisterDim), 128);
  EXPECT_EQ(at(acc, 0, 0, 4), std::make_pair(64, 0));
  std::optional<WarpgroupGrid> wide = chooseWgmmaGroups(64, 256, 8);
  ASSERT_TRUE(wide.has_value());
  EXPECT_EQ(wide->m, 1u);
  EXPECT_EQ(wide->n, 2u);
  EXPECT_EQ(at(wgmmaAccumulatorLayout(64, 256, *wide), 0, 0, 4),
            std::make_pair(0, 128));
  // More than 256 columns per warpgroup, or fewer than 64 rows, do not fit.
  EXPECT_FALSE(chooseWgmmaGroups(64, 512, 4).has_value());
  EXPECT_FALSE(chooseWgmmaGroups(32, 64, 4).has_value());
  EXPECT_FALSE(chooseWgmmaGroups(128, 64, 6).has_value());
}

// A from registers: the mma.sync m16n8k16 A fragment of each warp's 16
// rows (a0..a7 as in Fp16FragmentsOfOneWarp), K steps of 16 in registers.
TEST(WgmmaLayout, RegisterAFollowsTheMmaFragment) {
  LinearLayout a = wgmmaOperandALayout(64, 32, {1, 1});
  ASSERT_EQ(a.getInDimSize(kRegisterDim), 16);
  for (int32_t warp = 0; warp < 4; ++warp)
    for (int32_t lane = 0; lane < 32; ++lane)
      for (int32_t reg = 0; reg < 16; ++reg) {
        int32_t i = reg % 8, step = reg / 8;
        int32_t g = lane / 4, t = lane % 4;
        int32_t row = 16 * warp + ((i < 2 || (i >= 4 && i < 6)) ? g : g + 8);
        int32_t col = 16 * step + 2 * t + (i & 1) + (i >= 4 ? 8 : 0);
        EXPECT_EQ(at(a, reg, lane, warp), std::make_pair(row, col))
            << "reg " << reg << " lane " << lane << " warp " << warp;
      }
}

} // namespace
