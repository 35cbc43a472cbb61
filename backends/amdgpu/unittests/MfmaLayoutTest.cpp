//===- MfmaLayoutTest.cpp - MFMA layouts, lane by lane --------------------===//
//
// The references are the register tables of AMD's CDNA3 ISA guide (matrix
// layouts of v_mfma_f32_32x32x8_f16 and v_mfma_f32_16x16x16_f16, the same
// on CDNA2), written as the guide states them: for each element of A, B
// and D, the lane and the element within the lane's VGPRs that hold it.
//
//===----------------------------------------------------------------------===//
#include "MfmaLayouts.h"

#include "gmock/gmock.h"

#include <set>

using namespace mlir::tessera;
using namespace mlir::tessera::amdgpu;

namespace {

struct Slot {
  int32_t lane, element;
  bool operator==(const Slot &) const = default;
};

std::pair<int32_t, int32_t> coordinates(const LinearLayout &layout, int32_t reg,
                                        int32_t lane, int32_t warp = 0) {
  auto out = layout.apply({{kRegisterDim, reg},
                           {kLaneDim, lane},
                           {kWarpDim, warp},
                           {kBlockDim, 0}});
  return {out[0].second, out[1].second};
}

/// For every lane and register of `layout` (one wavefront), the reference
/// slot of the element it holds must be that lane and register.
void expectTable(const LinearLayout &layout,
                 const std::function<Slot(int32_t, int32_t)> &reference,
                 int32_t registers, const char *what) {
  ASSERT_EQ(layout.getInDimSize(kRegisterDim), registers) << what;
  ASSERT_EQ(layout.getInDimSize(kLaneDim), 64) << what;
  for (int32_t lane = 0; lane < 64; ++lane)
    for (int32_t reg = 0; reg < registers; ++reg) {
      auto [row, col] = coordinates(layout, reg, lane);
      Slot expected = reference(row, col);
      EXPECT_EQ(expected.lane, lane)
          << what << " element (" << row << ", " << col << ")";
      EXPECT_EQ(expected.element, reg)
          << what << " element (" << row << ", " << col << ")";
    }
}

TEST(MfmaLayout, Block32x32x8MatchesTheIsaTables) {
  WaveGrid one;
  // A (32 x 8): lane i + 32 (k / 4), element k % 4.
  expectTable(
      mfmaOperandLayout(0, 32, 8, 32, 8, one),
      [](int32_t i, int32_t k) {
        return Slot{i + 32 * (k / 4), k % 4};
      },
      4, "A");
  // B (8 x 32): lane j + 32 (k / 4), element k % 4.
  expectTable(
      mfmaOperandLayout(1, 8, 32, 32, 8, one),
      [](int32_t k, int32_t j) {
        return Slot{j + 32 * (k / 4), k % 4};
      },
      4, "B");
  // D (32 x 32): lane j + 32 ((i / 4) % 2), element i % 4 + 4 (i / 8).
  expectTable(
      mfmaAccumulatorLayout(32, 32, 32, one),
      [](int32_t i, int32_t j) {
        return Slot{j + 32 * ((i / 4) % 2), i % 4 + 4 * (i / 8)};
      },
      16, "D");
}

TEST(MfmaLayout, Block16x16x16MatchesTheIsaTables) {
  WaveGrid one;
  // A (16 x 16): lane i + 16 (k / 4), element k % 4.
  expectTable(
      mfmaOperandLayout(0, 16, 16, 16, 16, one),
      [](int32_t i, int32_t k) {
        return Slot{i + 16 * (k / 4), k % 4};
      },
      4, "A");
  expectTable(
      mfmaOperandLayout(1, 16, 16, 16, 16, one),
      [](int32_t k, int32_t j) {
        return Slot{j + 16 * (k / 4), k % 4};
      },
      4, "B");
  // D (16 x 16): lane j + 16 (i / 4), element i % 4.
  expectTable(
      mfmaAccumulatorLayout(16, 16, 16, one),
      [](int32_t i, int32_t j) {
        return Slot{j + 16 * (i / 4), i % 4};
      },
      4, "D");
}

TEST(MfmaLayout, EightBitOperandsHoldEightConsecutiveK) {
  // v_mfma_i32_32x32x16_i8 (CDNA3): lane i + 32 (k / 8), byte k % 8.
  expectTable(
      mfmaOperandLayout(0, 32, 16, 32, 16, WaveGrid()),
      [](int32_t i, int32_t k) {
        return Slot{i + 32 * (k / 8), k % 8};
      },
      8, "A");
  // v_mfma_f32_32x32x2f32: one K per lane, lane i + 32 k.
  expectTable(
      mfmaOperandLayout(0, 32, 2, 32, 2, WaveGrid()),
      [](int32_t i, int32_t k) {
        return Slot{i + 32 * k, 0};
      },
      1, "A");
  EXPECT_EQ(getMfmaKWidth(32, 8), 4u);
  EXPECT_EQ(getMfmaKWidth(16, 32), 8u);
  EXPECT_EQ(getMfmaKWidth(16, 4), 1u);
}

TEST(MfmaLayout, WavesTileTheResultAndShareOperands) {
  // 4 wavefronts over a 128 x 128 result of 32 x 32 blocks: 2 x 2.
  WaveGrid waves = chooseMfmaWaves(128, 128, 32, 4);
  EXPECT_EQ(waves.m, 2u);
  EXPECT_EQ(waves.n, 2u);
  LinearLayout acc = mfmaAccumulatorLayout(128, 128, 32, waves);
  // Every element exactly once.
  std::set<std::pair<int32_t, int32_t>> seen;
  int32_t regs = acc.getInDimSize(kRegisterDim);
  EXPECT_EQ(regs, 128 * 128 / 256);
  for (int32_t w = 0; w < 4; ++w)
    for (int32_t lane = 0; lane < 64; ++lane)
      for (int32_t reg = 0; reg < regs; ++reg)
        EXPECT_TRUE(seen.insert(coordinates(acc, reg, lane, w)).second);
  EXPECT_EQ(seen.size(), 128u * 128u);
  // Wavefront 1 is the second along M, wavefront 2 the second along N.
  EXPECT_EQ(coordinates(acc, 0, 0, 1), std::make_pair(32, 0));
  EXPECT_EQ(coordinates(acc, 0, 0, 2), std::make_pair(0, 32));
  // A is shared by the wavefronts along N, B by those along M.
  LinearLayout a = mfmaOperandLayout(0, 128, 32, 32, 8, waves);
  LinearLayout b = mfmaOperandLayout(1, 32, 128, 32, 8, waves);
  EXPECT_EQ(coordinates(a, 3, 5, 2), coordinates(a, 3, 5, 0));
  EXPECT_EQ(coordinates(b, 3, 5, 1), coordinates(b, 3, 5, 0));
  EXPECT_NE(coordinates(a, 3, 5, 1), coordinates(a, 3, 5, 0));
}

TEST(MfmaLayout, ProviderDeclinesWhatTheBlocksDoNotTile) {
  MatrixInstruction mi;
  mi.name = "mfma.f32.32x32x8f16";
  mi.m = mi.n = 32;
  mi.k = 8;
  mi.aType = mi.bType = "fp16";
  mi.accType = "fp32";
  MfmaLayoutProvider provider;
  DotShape shape{64, 64, 32, 4, 64};
  llvm::Expected<MatrixLayouts> fits = provider.getLayouts(mi, shape);
  ASSERT_TRUE(static_cast<bool>(fits)) << llvm::toString(fits.takeError());
  EXPECT_EQ(fits->acc,
            mfmaAccumulatorLayout(64, 64, 32, chooseMfmaWaves(64, 64, 32, 4)));
  for (DotShape bad : {DotShape{16, 64, 32, 4, 64}, DotShape{64, 64, 4, 4, 64},
                       DotShape{64, 64, 32, 4, 32}}) {
    llvm::Expected<MatrixLayouts> refused = provider.getLayouts(mi, bad);
    ASSERT_FALSE(static_cast<bool>(refused));
    llvm::consumeError(refused.takeError());
  }
}

} // namespace
