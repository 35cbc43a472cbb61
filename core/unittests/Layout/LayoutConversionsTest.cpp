//===- LayoutConversionsTest.cpp - Named layouts as LinearLayouts ---------===//

#include "tessera/Layout/LayoutConversions.h"

#include "LayoutTestUtils.h"

#include "gtest/gtest.h"

#include <set>
#include <vector>

using namespace mlir::tessera;
using llvm::ArrayRef;
using llvm::SmallVector;

namespace {

using Bases = SmallVector<LinearLayout::Basis>;

/// A distributed layout over dim0..dimN-1 from explicit bases.
LinearLayout distributed(Bases reg, Bases lane, Bases warp, Bases block,
                         ArrayRef<int32_t> shape) {
  SmallVector<std::string, 4> names;
  SmallVector<LinearLayout::NamedInt, 4> outs;
  for (unsigned d = 0; d < shape.size(); ++d)
    names.push_back(getTensorDimName(d));
  for (unsigned d = 0; d < shape.size(); ++d)
    outs.emplace_back(names[d], shape[d]);
  return LinearLayout({{"register", std::move(reg)},
                       {"lane", std::move(lane)},
                       {"warp", std::move(warp)},
                       {"block", std::move(block)}},
                      outs, /*requireSurjective=*/false);
}

/// Splits \p index into per-dimension coordinates of extents \p extents,
/// dimension order[0] fastest.
std::vector<int64_t> split(int64_t index, ArrayRef<int64_t> extents,
                           ArrayRef<unsigned> order) {
  std::vector<int64_t> coords(extents.size());
  for (unsigned d : order) {
    coords[d] = index % extents[d];
    index /= extents[d];
  }
  return coords;
}

/// The element held by (reg, lane, warp, block) in a blocked layout whose
/// tile fits the tensor (no broadcast), computed from the usual description:
/// the cluster splits the tensor into chunks; within a chunk a thread holds
/// sizePerThread contiguous elements per tile, and the tile repeats.
std::vector<int64_t> blockedReference(ArrayRef<int64_t> shape,
                                      const BlockedLayoutParams &p, int64_t reg,
                                      int64_t lane, int64_t warp,
                                      int64_t block) {
  size_t rank = shape.size();
  std::vector<int64_t> spt(p.sizePerThread.begin(), p.sizePerThread.end());
  std::vector<int64_t> tpw(p.threadsPerWarp.begin(), p.threadsPerWarp.end());
  std::vector<int64_t> wpc(p.warpsPerCTA.begin(), p.warpsPerCTA.end());
  std::vector<int64_t> cpc(rank, 1);
  if (!p.ctasPerCGA.empty())
    cpc.assign(p.ctasPerCGA.begin(), p.ctasPerCGA.end());
  std::vector<int64_t> chunk(rank), tile(rank), reps(rank);
  int64_t regsPerTile = 1;
  for (size_t d = 0; d < rank; ++d) {
    chunk[d] = shape[d] / cpc[d];
    tile[d] = spt[d] * tpw[d] * wpc[d];
    reps[d] = chunk[d] / tile[d];
    regsPerTile *= spt[d];
  }
  std::vector<int64_t> inTile = split(reg % regsPerTile, spt, p.order);
  std::vector<int64_t> rep = split(reg / regsPerTile, reps, p.order);
  std::vector<int64_t> l = split(lane, tpw, p.order);
  std::vector<int64_t> w = split(warp, wpc, p.order);
  std::vector<int64_t> b = split(block, cpc, p.order);
  std::vector<int64_t> coords(rank);
  for (size_t d = 0; d < rank; ++d)
    coords[d] = b[d] * chunk[d] + rep[d] * tile[d] + w[d] * spt[d] * tpw[d] +
                l[d] * spt[d] + inTile[d];
  return coords;
}

/// Checks a blocked layout against blockedReference at every hardware index.
void expectMatchesReference(ArrayRef<int64_t> shape,
                            const BlockedLayoutParams &p) {
  LinearLayout ll = blockedToLinearLayout(shape, p);
  EXPECT_TRUE(ll.isInvertible()) << ll.toString();
  for (int32_t block = 0; block < ll.getInDimSize("block"); ++block)
    for (int32_t warp = 0; warp < ll.getInDimSize("warp"); ++warp)
      for (int32_t lane = 0; lane < ll.getInDimSize("lane"); ++lane)
        for (int32_t reg = 0; reg < ll.getInDimSize("register"); ++reg) {
          Coords got = ll.apply({{"register", reg},
                                 {"lane", lane},
                                 {"warp", warp},
                                 {"block", block}});
          std::vector<int64_t> want =
              blockedReference(shape, p, reg, lane, warp, block);
          for (size_t d = 0; d < shape.size(); ++d)
            ASSERT_EQ(got[d].second, want[d])
                << "reg " << reg << " lane " << lane << " warp " << warp
                << " block " << block << " in " << ll.toString();
        }
}

BlockedLayoutParams blocked(SmallVector<unsigned, 4> spt,
                            SmallVector<unsigned, 4> tpw,
                            SmallVector<unsigned, 4> wpc,
                            SmallVector<unsigned, 4> order,
                            SmallVector<unsigned, 4> cpc = {}) {
  return BlockedLayoutParams{spt, tpw, wpc, order, cpc};
}

TEST(LayoutConversionsTest, BlockedRepeatsRegisters) {
  // The tile is 8x32: dim0 needs one more register bit.
  LinearLayout ll =
      blockedToLinearLayout({16, 32}, {1, 4}, {4, 8}, {2, 1}, {1, 0});
  EXPECT_EQ(ll, distributed({{0, 1}, {0, 2}, {8, 0}},
                            {{0, 4}, {0, 8}, {0, 16}, {1, 0}, {2, 0}}, {{4, 0}},
                            {}, {16, 32}));
  EXPECT_EQ(ll.getNumConsecutiveInOut(), 4);
  EXPECT_TRUE(ll.isInvertible());
}

TEST(LayoutConversionsTest, BlockedBroadcastsWhenSmaller) {
  // 4x16 with an 8x32 tile: lane bit 2 and the warp hold copies.
  LinearLayout ll =
      blockedToLinearLayout({4, 16}, {1, 4}, {4, 8}, {2, 1}, {1, 0});
  EXPECT_EQ(ll, distributed({{0, 1}, {0, 2}},
                            {{0, 4}, {0, 8}, {0, 0}, {1, 0}, {2, 0}}, {{0, 0}},
                            {}, {4, 16}));
  EXPECT_TRUE(ll.isSurjective());
  EXPECT_EQ(
      ll.getFreeVariableMasks(),
      (Coords{{"register", 0}, {"lane", 0b100}, {"warp", 1}, {"block", 0}}));
}

TEST(LayoutConversionsTest, BlockedSmallerThanSizePerThread) {
  // Registers beyond the tensor are dropped, not duplicated.
  LinearLayout ll = blockedToLinearLayout({2}, {4}, {32}, {4}, {0});
  EXPECT_EQ(ll,
            distributed({{1}}, {{0}, {0}, {0}, {0}, {0}}, {{0}, {0}}, {}, {2}));
}

TEST(LayoutConversionsTest, Blocked1DRepetition) {
  LinearLayout ll = blockedToLinearLayout({1024}, {4}, {32}, {4}, {0});
  EXPECT_EQ(ll, distributed({{1}, {2}, {512}}, {{4}, {8}, {16}, {32}, {64}},
                            {{128}, {256}}, {}, {1024}));
}

TEST(LayoutConversionsTest, BlockedColumnMajor) {
  LinearLayout ll =
      blockedToLinearLayout({8, 8}, {2, 1}, {4, 8}, {1, 1}, {0, 1});
  EXPECT_EQ(ll, distributed({{1, 0}}, {{2, 0}, {4, 0}, {0, 1}, {0, 2}, {0, 4}},
                            {}, {}, {8, 8}));
  // dim0 is not the minor dimension of the row-major flattening.
  EXPECT_EQ(ll.getNumConsecutiveInOut(), 1);
}

TEST(LayoutConversionsTest, BlockedClusters) {
  // Each of the 2 CTAs along dim0 owns 8 contiguous rows.
  EXPECT_EQ(
      blockedToLinearLayout({16, 32}, {1, 4}, {4, 8}, {2, 1}, {1, 0}, {2, 1}),
      distributed({{0, 1}, {0, 2}}, {{0, 4}, {0, 8}, {0, 16}, {1, 0}, {2, 0}},
                  {{4, 0}}, {{8, 0}}, {16, 32}));
  // The chunk (16 rows) repeats the 8-row tile before the block bit.
  EXPECT_EQ(
      blockedToLinearLayout({32, 32}, {1, 4}, {4, 8}, {2, 1}, {1, 0}, {2, 1}),
      distributed({{0, 1}, {0, 2}, {8, 0}},
                  {{0, 4}, {0, 8}, {0, 16}, {1, 0}, {2, 0}}, {{4, 0}},
                  {{16, 0}}, {32, 32}));
  // A single row: every thread and CTA along dim0 holds copies.
  EXPECT_EQ(
      blockedToLinearLayout({1, 32}, {1, 4}, {4, 8}, {2, 1}, {1, 0}, {2, 1}),
      distributed({{0, 1}, {0, 2}}, {{0, 4}, {0, 8}, {0, 16}, {0, 0}, {0, 0}},
                  {{0, 0}}, {{0, 0}}, {1, 32}));
}

TEST(LayoutConversionsTest, BlockedMatchesReference) {
  expectMatchesReference({16, 32}, blocked({1, 4}, {4, 8}, {2, 1}, {1, 0}));
  expectMatchesReference({64, 64}, blocked({2, 2}, {8, 4}, {2, 2}, {1, 0}));
  expectMatchesReference({64, 16}, blocked({4, 1}, {8, 4}, {1, 4}, {0, 1}));
  expectMatchesReference({4096}, blocked({8}, {32}, {8}, {0}));
  expectMatchesReference({4, 8, 16},
                         blocked({1, 2, 2}, {2, 2, 8}, {2, 1, 1}, {2, 0, 1}));
  expectMatchesReference({64, 64},
                         blocked({1, 4}, {4, 8}, {2, 1}, {1, 0}, {2, 2}));
  expectMatchesReference({32, 64},
                         blocked({2, 1}, {8, 4}, {1, 2}, {0, 1}, {2, 1}));
}

TEST(LayoutConversionsTest, VerifyBlockedParams) {
  auto message = [](llvm::Error err) {
    return err ? llvm::toString(std::move(err)) : std::string();
  };
  EXPECT_EQ(message(verifyBlockedLayoutParams(
                {16, 16}, blocked({1, 4}, {4, 8}, {2, 1}, {1, 0}))),
            "");
  EXPECT_NE(message(verifyBlockedLayoutParams(
                        {16, 16}, blocked({1, 3}, {4, 8}, {2, 1}, {1, 0})))
                .find("sizePerThread"),
            std::string::npos);
  EXPECT_NE(message(verifyBlockedLayoutParams(
                        {16, 16}, blocked({1, 4}, {4, 8}, {2, 1}, {1, 1})))
                .find("permutation"),
            std::string::npos);
  EXPECT_NE(message(verifyBlockedLayoutParams(
                        {16, 12}, blocked({1, 4}, {4, 8}, {2, 1}, {1, 0})))
                .find("shape"),
            std::string::npos);
  EXPECT_NE(message(verifyBlockedLayoutParams(
                        {16, 16}, blocked({1, 4}, {4, 8}, {2}, {1, 0})))
                .find("warpsPerCTA"),
            std::string::npos);
}

TEST(LayoutConversionsTest, Slice) {
  LinearLayout parent =
      blockedToLinearLayout({16, 32}, {1, 4}, {4, 8}, {2, 1}, {1, 0});
  // Removing dim0: the repeated register (8, 0) collapses and is dropped;
  // lanes and warps along dim0 become broadcast.
  EXPECT_EQ(
      sliceToLinearLayout(parent, 0),
      distributed({{1}, {2}}, {{4}, {8}, {16}, {0}, {0}}, {{0}}, {}, {32}));
  // Removing dim1: only the repeat register is left.
  EXPECT_EQ(sliceToLinearLayout(parent, 1),
            distributed({{8}}, {{0}, {0}, {0}, {1}, {2}}, {{4}}, {}, {16}));

  // Rank 3: the remaining dimensions are renumbered.
  LinearLayout parent3 = blockedToLinearLayout({2, 4, 8}, {1, 1, 2}, {1, 4, 4},
                                               {2, 1, 1}, {2, 1, 0});
  LinearLayout slice3 = sliceToLinearLayout(parent3, 1);
  EXPECT_EQ(slice3, distributed({{0, 1}}, {{0, 2}, {0, 4}, {0, 0}, {0, 0}},
                                {{1, 0}}, {}, {2, 8}));
}

/// The offset of element (row, col) in the swizzled layout, straight from
/// the definition (groups of vec columns XORed by the row's phase).
int64_t swizzledOffset(int64_t row, int64_t col, int64_t numCols, int64_t vec,
                       int64_t perPhase, int64_t maxPhase) {
  vec = std::min(vec, numCols);
  int64_t phase = (row / perPhase) % maxPhase;
  int64_t group = ((col / vec) ^ phase) % (numCols / vec);
  return row * numCols + group * vec + col % vec;
}

struct SwizzleCase {
  SmallVector<int64_t, 4> shape;
  unsigned vec, perPhase, maxPhase;
  SmallVector<unsigned, 4> order;
};

TEST(LayoutConversionsTest, SwizzledMatchesEnumeration) {
  std::vector<SwizzleCase> cases = {
      {{64, 64}, 8, 1, 8, {1, 0}}, // 128-byte swizzle of fp16
      {{32, 32}, 4, 2, 4, {1, 0}}, {{16, 64}, 8, 2, 4, {1, 0}},
      {{8, 16}, 8, 1, 8, {1, 0}},  // the phase wraps: only 2 groups per row
      {{64, 16}, 4, 1, 4, {0, 1}}, // dim0 is contiguous
      {{16, 32}, 1, 1, 1, {1, 0}}, // no swizzle
      {{8, 4}, 8, 1, 8, {1, 0}},   // vec wider than a row
  };
  for (const SwizzleCase &c : cases) {
    LinearLayout ll = swizzledSharedToLinearLayout(c.shape, c.vec, c.perPhase,
                                                   c.maxPhase, c.order);
    ASSERT_TRUE(ll.isInvertible()) << ll.toString();
    unsigned colDim = c.order[0], rowDim = c.order[1];
    int64_t numRows = c.shape[rowDim], numCols = c.shape[colDim];
    std::set<int64_t> offsets;
    for (int64_t row = 0; row < numRows; ++row)
      for (int64_t col = 0; col < numCols; ++col) {
        int64_t offset =
            swizzledOffset(row, col, numCols, c.vec, c.perPhase, c.maxPhase);
        offsets.insert(offset);
        Coords got = ll.apply({{"offset", int32_t(offset)}, {"block", 0}});
        ASSERT_EQ(got[rowDim].second, row)
            << "offset " << offset << " in " << ll.toString();
        ASSERT_EQ(got[colDim].second, col)
            << "offset " << offset << " in " << ll.toString();
      }
    EXPECT_EQ(int64_t(offsets.size()), numRows * numCols);
  }
}

// A 16 x 128 tile of 2-byte elements in blocks of 64 columns (128-byte
// rows): element (r, c) lives at (c / 64) * 16 * 64 + r * 64 + the swizzled
// column within the block.
TEST(LayoutConversionsTest, SwizzledBlocksOfColumns) {
  LinearLayout ll =
      swizzledSharedToLinearLayout({16, 128}, 8, 1, 8, {1, 0}, {}, 64);
  for (int32_t offset = 0; offset < 16 * 128; ++offset) {
    auto out = ll.apply({{"offset", offset}, {"block", 0}});
    int32_t block = offset / (16 * 64), inBlock = offset % (16 * 64);
    int32_t row = inBlock / 64, col = inBlock % 64;
    int32_t group = (col / 8) ^ (row % 8);
    EXPECT_EQ(out[0].second, row) << offset;
    EXPECT_EQ(out[1].second, block * 64 + group * 8 + col % 8) << offset;
  }
  // Without blocks the rows stay whole.
  EXPECT_EQ(swizzledSharedToLinearLayout({16, 128}, 8, 1, 8, {1, 0}, {}, 0),
            swizzledSharedToLinearLayout({16, 128}, 8, 1, 8, {1, 0}));
  EXPECT_EQ(swizzledSharedToLinearLayout({16, 64}, 8, 1, 8, {1, 0}, {}, 64),
            swizzledSharedToLinearLayout({16, 64}, 8, 1, 8, {1, 0}));
}

TEST(LayoutConversionsTest, Swizzled128ByteBases) {
  LinearLayout ll = swizzledSharedToLinearLayout({64, 64}, 8, 1, 8, {1, 0});
  EXPECT_EQ(ll, LinearLayout({{"offset",
                               {{0, 1},
                                {0, 2},
                                {0, 4},
                                {0, 8},
                                {0, 16},
                                {0, 32},
                                {1, 8},
                                {2, 16},
                                {4, 32},
                                {8, 0},
                                {16, 0},
                                {32, 0}}},
                              {"block", {}}},
                             {{"dim0", 64}, {"dim1", 64}}));
}

TEST(LayoutConversionsTest, SwizzledBatchAndClusters) {
  // Rank 3: dim0 is a batch dimension above the swizzled 8x16 tiles.
  LinearLayout batched =
      swizzledSharedToLinearLayout({2, 8, 16}, 4, 2, 4, {2, 1, 0});
  EXPECT_EQ(batched, LinearLayout({{"offset",
                                    {{0, 0, 1},
                                     {0, 0, 2},
                                     {0, 0, 4},
                                     {0, 0, 8},
                                     {0, 1, 0},
                                     {0, 2, 4},
                                     {0, 4, 8},
                                     {1, 0, 0}}},
                                   {"block", {}}},
                                  {{"dim0", 2}, {"dim1", 8}, {"dim2", 16}}));
  // Two CTAs along dim0 each hold 32 swizzled rows.
  LinearLayout split =
      swizzledSharedToLinearLayout({64, 64}, 8, 1, 8, {1, 0}, {2, 1});
  EXPECT_EQ(split.getInDimSize("offset"), 32 * 64);
  // Compared as vectors: clang finds ArrayRef == SmallVector ambiguous.
  EXPECT_EQ(SmallVector<LinearLayout::Basis>(split.getBases("block")),
            (SmallVector<LinearLayout::Basis>{{32, 0}}));
  EXPECT_EQ(split.getBasis("offset", 6), ArrayRef<int32_t>({1, 8}));
}

TEST(LayoutConversionsTest, IdentityStandardND) {
  EXPECT_EQ(
      identityStandardND("register", {4, 8}, {1, 0}),
      LinearLayout({{"register", {{0, 1}, {0, 2}, {0, 4}, {1, 0}, {2, 0}}}},
                   {{"dim0", 4}, {"dim1", 8}}));
  EXPECT_EQ(
      identityStandardND("register", {4, 8}, {0, 1}),
      LinearLayout({{"register", {{1, 0}, {2, 0}, {0, 1}, {0, 2}, {0, 4}}}},
                   {{"dim0", 4}, {"dim1", 8}}));
}

/// For every thread (lane, warp), the set of elements it holds.
std::set<std::vector<int32_t>> elementsOf(const LinearLayout &ll, int32_t lane,
                                          int32_t warp) {
  std::set<std::vector<int32_t>> result;
  for (int32_t reg = 0; reg < ll.getInDimSize("register"); ++reg) {
    Coords c = ll.apply(
        {{"register", reg}, {"lane", lane}, {"warp", warp}, {"block", 0}});
    std::vector<int32_t> coords;
    for (const auto &[name, value] : c)
      coords.push_back(value);
    result.insert(coords);
  }
  return result;
}

TEST(LayoutConversionsTest, FmaDotOperands) {
  // Result C[16, 16]; A[16, 8], B[8, 16].
  BlockedLayoutParams parent = blocked({2, 2}, {4, 8}, {2, 1}, {1, 0});
  LinearLayout a = dotOperandOfBlockedToLinearLayout({16, 8}, parent, 0);
  EXPECT_EQ(a, distributed({{0, 1}, {0, 2}, {0, 4}, {1, 0}},
                           {{0, 0}, {0, 0}, {0, 0}, {2, 0}, {4, 0}}, {{8, 0}},
                           {}, {16, 8}));
  LinearLayout b = dotOperandOfBlockedToLinearLayout({8, 16}, parent, 1);
  EXPECT_EQ(b, distributed({{0, 1}, {1, 0}, {2, 0}, {4, 0}},
                           {{0, 2}, {0, 4}, {0, 8}, {0, 0}, {0, 0}}, {{0, 0}},
                           {}, {8, 16}));

  // Every thread holds exactly the A rows and B columns of the C elements it
  // computes, over the whole K.
  LinearLayout c = blockedToLinearLayout({16, 16}, parent);
  for (int32_t warp = 0; warp < 2; ++warp)
    for (int32_t lane = 0; lane < 32; ++lane) {
      std::set<std::vector<int32_t>> wantA, wantB;
      for (const std::vector<int32_t> &mn : elementsOf(c, lane, warp))
        for (int32_t k = 0; k < 8; ++k) {
          wantA.insert({mn[0], k});
          wantB.insert({k, mn[1]});
        }
      EXPECT_EQ(elementsOf(a, lane, warp), wantA);
      EXPECT_EQ(elementsOf(b, lane, warp), wantB);
    }
}

TEST(LayoutConversionsTest, FmaDotOperandBatched) {
  // Batched [2, M, N] result; A is [2, 16, 4].
  BlockedLayoutParams parent =
      blocked({1, 2, 2}, {1, 4, 8}, {2, 1, 1}, {2, 1, 0});
  LinearLayout a = dotOperandOfBlockedToLinearLayout({2, 16, 4}, parent, 0);
  EXPECT_EQ(a,
            distributed({{0, 0, 1}, {0, 0, 2}, {0, 1, 0}, {0, 8, 0}},
                        {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}, {0, 2, 0}, {0, 4, 0}},
                        {{1, 0, 0}}, {}, {2, 16, 4}));
}

TEST(LayoutConversionsTest, BlockedToSharedConversion) {
  LinearLayout regs =
      blockedToLinearLayout({16, 32}, {1, 4}, {4, 8}, {2, 1}, {1, 0});
  LinearLayout shared = swizzledSharedToLinearLayout({16, 32}, 4, 1, 8, {1, 0});
  LinearLayout toShared = regs.invertAndCompose(shared);
  // Each thread stores 4 contiguous elements: one 4-wide vector store.
  EXPECT_EQ(toShared.getNumConsecutiveInOut(), 4);
  for (int32_t warp = 0; warp < 2; ++warp)
    for (int32_t lane = 0; lane < 32; ++lane)
      for (int32_t reg = 0; reg < 8; ++reg) {
        Coords where = toShared.apply(
            {{"register", reg}, {"lane", lane}, {"warp", warp}, {"block", 0}});
        Coords stored = shared.apply(
            {{"offset", where[0].second}, {"block", where[1].second}});
        EXPECT_EQ(stored, regs.apply({{"register", reg},
                                      {"lane", lane},
                                      {"warp", warp},
                                      {"block", 0}}));
      }
  // Converting a layout to itself moves nothing across threads.
  LinearLayout self = regs.invertAndCompose(regs);
  EXPECT_TRUE(self.isTrivialOver({"register", "lane", "warp", "block"}));
  // Swapping the two lowest registers is a register permutation only.
  LinearLayout swapped = distributed({{0, 2}, {0, 1}, {8, 0}},
                                     {{0, 4}, {0, 8}, {0, 16}, {1, 0}, {2, 0}},
                                     {{4, 0}}, {}, {16, 32});
  LinearLayout cvt = regs.invertAndCompose(swapped);
  EXPECT_TRUE(cvt.isTrivialOver({"lane", "warp", "block"}));
  EXPECT_FALSE(cvt.isTrivialOver({"register"}));
}

TEST(LayoutConversionsTest, WarpGridBasesListMWarpsThenNWarps) {
  // 4 x 2 warps of 16 x 8 tiles: two M bases, then one N base.
  EXPECT_EQ(getWarpGridBases(4, 2, 16, 8), (Bases{{16, 0}, {32, 0}, {0, 8}}));
  // An operand the N warps share: their bases are zero.
  EXPECT_EQ(getWarpGridBases(2, 2, 16, 0), (Bases{{16, 0}, {0, 0}}));
  EXPECT_TRUE(getWarpGridBases(1, 1, 16, 8).empty());
}

} // namespace
