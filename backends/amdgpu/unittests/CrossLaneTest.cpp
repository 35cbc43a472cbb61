//===- CrossLaneTest.cpp - DPP and ds_swizzle encodings -------------------===//
//
// The control words against the values the GCN/CDNA ISA guides give:
// DPP_QUAD_PERM takes four 2-bit lane selectors, DPP_ROW_MIRROR is 0x140,
// DPP_ROW_HALF_MIRROR 0x141; ds_swizzle's bitmask mode takes and_mask in
// bits 0-4, or_mask in 5-9 and xor_mask in 10-14 (bit 15 clear).
//
//===----------------------------------------------------------------------===//
#include "CrossLane.h"

#include "gtest/gtest.h"

using namespace mlir::tessera::amdgpu;

namespace {

/// The lane `control` (a quad_perm) makes lane `lane` of a quad read.
unsigned quadSource(unsigned control, unsigned lane) {
  return (control >> (2 * lane)) & 3;
}

TEST(CrossLane, QuadPermutationsSelectTheXorPartner) {
  for (unsigned mask = 1; mask < 4; ++mask) {
    unsigned control = dpp::quadPerm(0 ^ mask, 1 ^ mask, 2 ^ mask, 3 ^ mask);
    for (unsigned lane = 0; lane < 4; ++lane)
      EXPECT_EQ(quadSource(control, lane), lane ^ mask) << "mask " << mask;
  }
  EXPECT_EQ(dpp::quadPerm(1, 0, 3, 2), 0xb1u);
  EXPECT_EQ(dpp::quadPerm(2, 3, 0, 1), 0x4eu);
  EXPECT_EQ(dpp::quadPerm(0, 1, 2, 3), 0xe4u); // the identity
}

TEST(CrossLane, MirrorControls) {
  EXPECT_EQ(dpp::kRowMirror, 0x140u);
  EXPECT_EQ(dpp::kRowHalfMirror, 0x141u);
}

TEST(CrossLane, SwizzleBitmaskMode) {
  for (unsigned mask : {1u, 4u, 8u, 16u, 31u}) {
    unsigned offset = dsSwizzleXorOffset(mask);
    EXPECT_EQ(offset & 0x1f, 0x1fu);        // and_mask keeps all 5 bits
    EXPECT_EQ((offset >> 5) & 0x1f, 0u);    // or_mask
    EXPECT_EQ((offset >> 10) & 0x1f, mask); // xor_mask
    EXPECT_EQ(offset & 0x8000, 0u);         // bitmask mode
  }
  EXPECT_EQ(dsSwizzleXorOffset(16), 0x401fu);
}

} // namespace
