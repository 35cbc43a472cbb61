//===- LinearLayoutTest.cpp - Construction, queries, shape operations -----===//

#include "LayoutTestUtils.h"

#include "gtest/gtest.h"

using namespace mlir::tessera;
using llvm::StringRef;

namespace {

/// 4 registers and 8 lanes over a 4x4 tensor; lane bit 2 is broadcast.
LinearLayout makeExample() {
  return LinearLayout(
      {{"register", {{0, 1}, {0, 2}}}, {"lane", {{1, 0}, {2, 0}, {0, 0}}}},
      {{"dim0", 4}, {"dim1", 4}});
}

TEST(LinearLayoutTest, Queries) {
  LinearLayout ll = makeExample();
  EXPECT_EQ(ll.getInDimNames(),
            (llvm::SmallVector<StringRef, 4>{"register", "lane"}));
  EXPECT_EQ(ll.getOutDimNames(),
            (llvm::SmallVector<StringRef, 4>{"dim0", "dim1"}));
  EXPECT_EQ(ll.getNumInDims(), 2u);
  EXPECT_EQ(ll.getNumOutDims(), 2u);
  EXPECT_TRUE(ll.hasInDim("lane"));
  EXPECT_FALSE(ll.hasInDim("warp"));
  EXPECT_TRUE(ll.hasOutDim("dim1"));
  EXPECT_FALSE(ll.hasOutDim("register"));
  EXPECT_EQ(ll.getInDimSize("register"), 4);
  EXPECT_EQ(ll.getInDimSize("lane"), 8);
  EXPECT_EQ(ll.getInDimSizeLog2("lane"), 3u);
  EXPECT_EQ(ll.getOutDimSize("dim1"), 4);
  EXPECT_EQ(ll.getOutDimSizeLog2("dim1"), 2u);
  EXPECT_EQ(ll.getTotalInDimSize(), 32);
  EXPECT_EQ(ll.getTotalInDimSizeLog2(), 5u);
  EXPECT_EQ(ll.getTotalOutDimSize(), 16);
  EXPECT_EQ(ll.getTotalOutDimSizeLog2(), 4u);
  EXPECT_EQ(ll.getBasis("lane", 1), llvm::ArrayRef<int32_t>({2, 0}));
  EXPECT_EQ(ll.getBasis("register", 1, "dim1"), 2);
  EXPECT_EQ(ll.getBases("lane").size(), 3u);
  EXPECT_EQ(ll.getBases().size(), 2u);
  EXPECT_TRUE(ll.isSurjective());
  EXPECT_FALSE(ll.isInjective());
  EXPECT_FALSE(ll.isInvertible());
  EXPECT_EQ(ll.getInDims()[1], LinearLayout::NamedInt("lane", 8));
  EXPECT_EQ(ll.getOutDims()[0], LinearLayout::NamedInt("dim0", 4));
}

TEST(LinearLayoutTest, ToString) {
  EXPECT_EQ(makeExample().toString(),
            "{register = [[0, 1], [0, 2]], lane = [[1, 0], [2, 0], [0, 0]]} -> "
            "{dim0 = 4, dim1 = 4}");
  EXPECT_EQ(LinearLayout::empty().toString(), "{} -> {}");
  EXPECT_EQ(LinearLayout::zeros1D(1, "warp", "dim0").toString(),
            "{warp = []} -> {dim0 = 1}");
}

TEST(LinearLayoutTest, CreateReportsErrors) {
  auto errorOf = [](LinearLayout::BasesT bases,
                    llvm::ArrayRef<LinearLayout::NamedInt> outs,
                    bool requireSurjective = true) -> std::string {
    llvm::Expected<LinearLayout> ll =
        LinearLayout::create(std::move(bases), outs, requireSurjective);
    if (ll)
      return "";
    return llvm::toString(ll.takeError());
  };
  EXPECT_NE(errorOf({{"register", {{1}}}}, {{"dim0", 2}, {"dim1", 2}})
                .find("has 1 coordinates, expected one per output dimension"),
            std::string::npos);
  EXPECT_NE(errorOf({{"register", {{4}}}}, {{"dim0", 4}})
                .find("has coordinate 4 along output dimension 'dim0'"),
            std::string::npos);
  EXPECT_NE(errorOf({{"register", {{1}}}}, {{"dim0", 3}}).find("power of two"),
            std::string::npos);
  EXPECT_NE(errorOf({{"register", {{1}}}, {"register", {}}}, {{"dim0", 2}})
                .find("duplicate input dimension 'register'"),
            std::string::npos);
  EXPECT_NE(errorOf({{"register", {{1, 0}}}}, {{"dim0", 2}, {"dim0", 1}})
                .find("duplicate output dimension 'dim0'"),
            std::string::npos);
  EXPECT_NE(
      errorOf({{"register", {{1}}}}, {{"dim0", 4}}).find("not surjective"),
      std::string::npos);
  // The same layout is fine when surjectivity is not required.
  EXPECT_EQ(errorOf({{"register", {{1}}}}, {{"dim0", 4}},
                    /*requireSurjective=*/false),
            "");
  LinearLayout partial({{"register", {{1}}}}, {{"dim0", 4}},
                       /*requireSurjective=*/false);
  EXPECT_FALSE(partial.isSurjective());
  EXPECT_TRUE(partial.isInjective());
}

TEST(LinearLayoutDeathTest, ConstructorAbortsOnMisuse) {
  EXPECT_DEATH(LinearLayout({{"register", {{1}}}}, {{"dim0", 4}}),
               "not surjective");
  EXPECT_DEATH((void)makeExample().getInDimSize("warp"),
               "no input dimension 'warp'");
}

TEST(LinearLayoutTest, InferredOutSizes) {
  LinearLayout ll = LinearLayout::withInferredOutSizes(
      {{"register", {{0, 1}, {0, 2}}}, {"lane", {{1, 0}, {4, 0}}}},
      {"dim0", "dim1"}, /*requireSurjective=*/false);
  EXPECT_EQ(ll.getOutDimSize("dim0"), 8);
  EXPECT_EQ(ll.getOutDimSize("dim1"), 4);
  EXPECT_FALSE(ll.isSurjective());
}

TEST(LinearLayoutTest, Simple1D) {
  EXPECT_EQ(LinearLayout::identity1D(8, "register", "dim0"),
            LinearLayout({{"register", {{1}, {2}, {4}}}}, {{"dim0", 8}}));
  LinearLayout strided = LinearLayout::strided1D(4, 2, "lane", "dim0");
  EXPECT_EQ(strided, LinearLayout({{"lane", {{2}, {4}}}}, {{"dim0", 8}},
                                  /*requireSurjective=*/false));
  EXPECT_FALSE(strided.isSurjective());
  EXPECT_TRUE(strided.isInjective());
  LinearLayout zeros = LinearLayout::zeros1D(4, "warp", "dim0", 2);
  EXPECT_EQ(zeros, LinearLayout({{"warp", {{0}, {0}}}}, {{"dim0", 2}},
                                /*requireSurjective=*/false));
  EXPECT_EQ(zeros.getFreeVariableMasks(), (Coords{{"warp", 3}}));
  LinearLayout empty = LinearLayout::empty();
  EXPECT_EQ(empty.getNumInDims(), 0u);
  EXPECT_EQ(empty.getTotalInDimSize(), 1);
  EXPECT_EQ(empty.applyFlat(0), 0);
  EXPECT_TRUE(empty.isInvertible());
}

TEST(LinearLayoutTest, Apply) {
  LinearLayout ll = makeExample();
  // register 3 -> (0,1)^(0,2); lane 5 = bits 0 and 2 -> (1,0)^(0,0).
  EXPECT_EQ(ll.apply({{"register", 3}, {"lane", 5}}),
            (Coords{{"dim0", 1}, {"dim1", 3}}));
  EXPECT_EQ(ll.apply({{"lane", 5}, {"register", 3}}),
            (Coords{{"dim0", 1}, {"dim1", 3}}));
  EXPECT_EQ(ll.apply({{"register", 0}, {"lane", 6}}),
            (Coords{{"dim0", 2}, {"dim1", 0}}));
  // Flat input 3 + 5 * 4 = 23; flat output row-major 1 * 4 + 3 = 7.
  EXPECT_EQ(ll.applyFlat(23), 7);
  // applyFlat agrees with apply everywhere.
  for (int32_t lane = 0; lane < 8; ++lane)
    for (int32_t reg = 0; reg < 4; ++reg) {
      Coords out = ll.apply({{"register", reg}, {"lane", lane}});
      EXPECT_EQ(ll.applyFlat(reg + 4 * lane),
                out[0].second * 4 + out[1].second);
    }
}

TEST(LinearLayoutTest, Equality) {
  EXPECT_EQ(makeExample(), makeExample());
  EXPECT_NE(makeExample(), makeExample().transposeIns({"lane", "register"}));
  EXPECT_NE(LinearLayout::identity1D(4, "register", "dim0"),
            LinearLayout::identity1D(4, "register", "dim1"));
}

TEST(LinearLayoutTest, Transpose) {
  LinearLayout ll = makeExample();
  LinearLayout outsT = ll.transposeOuts({"dim1", "dim0"});
  EXPECT_EQ(outsT, LinearLayout({{"register", {{1, 0}, {2, 0}}},
                                 {"lane", {{0, 1}, {0, 2}, {0, 0}}}},
                                {{"dim1", 4}, {"dim0", 4}}));
  // The same element, flattened with dim0 now the minor dimension.
  EXPECT_EQ(outsT.applyFlat(23), 3 * 4 + 1);
  LinearLayout insT = ll.transposeIns({"lane", "register"});
  EXPECT_EQ(insT.getInDimNames(),
            (llvm::SmallVector<StringRef, 4>{"lane", "register"}));
  // lane 5 is now the low bits, register 3 the high ones.
  EXPECT_EQ(insT.applyFlat(5 + 3 * 8), 7);
  EXPECT_EQ(insT.transposeIns({"register", "lane"}), ll);
}

TEST(LinearLayoutTest, ReshapeAndFlattenIns) {
  LinearLayout ll = LinearLayout::identity1D(4, "register", "dim0") *
                    LinearLayout::identity1D(8, "lane", "dim0");
  EXPECT_EQ(ll.reshapeIns({{"register", 8}, {"lane", 4}}),
            LinearLayout({{"register", {{1}, {2}, {4}}}, {"lane", {{8}, {16}}}},
                         {{"dim0", 32}}));
  EXPECT_EQ(
      ll.flattenIns(),
      LinearLayout({{"register", {{1}, {2}, {4}, {8}, {16}}}}, {{"dim0", 32}}));
  EXPECT_EQ(ll.reshapeIns({{"a", 2}, {"b", 1}, {"c", 16}}).getInDimNames(),
            (llvm::SmallVector<StringRef, 4>{"a", "b", "c"}));
}

TEST(LinearLayoutTest, ReshapeAndFlattenOuts) {
  // Row-major: flat 1 and 2 are the columns, 4 and 8 the rows.
  LinearLayout ll = LinearLayout::identity1D(16, "offset", "dim0")
                        .reshapeOuts({{"dim0", 4}, {"dim1", 4}});
  EXPECT_EQ(ll, LinearLayout({{"offset", {{0, 1}, {0, 2}, {1, 0}, {2, 0}}}},
                             {{"dim0", 4}, {"dim1", 4}}));
  EXPECT_EQ(ll.flattenOuts(), LinearLayout::identity1D(16, "offset", "dim0"));
  EXPECT_EQ(makeExample().reshapeOuts({{"x", 16}}),
            LinearLayout({{"register", {{1}, {2}}}, {"lane", {{4}, {8}, {0}}}},
                         {{"x", 16}}));
  EXPECT_EQ(makeExample().reshapeOuts({{"x", 2}, {"y", 8}}),
            LinearLayout({{"register", {{0, 1}, {0, 2}}},
                          {"lane", {{0, 4}, {1, 0}, {0, 0}}}},
                         {{"x", 2}, {"y", 8}}));
}

TEST(LinearLayoutTest, Sublayout) {
  LinearLayout ll = makeExample();
  EXPECT_EQ(ll.sublayout({"lane"}, {"dim0"}),
            LinearLayout({{"lane", {{1}, {2}, {0}}}}, {{"dim0", 4}}));
  // Names are kept in the layout's order, not the argument's.
  EXPECT_EQ(ll.sublayout({"lane", "register"}, {"dim1", "dim0"}), ll);
  EXPECT_TRUE(ll.sublayoutIsZero({"register"}, {"dim0"}));
  EXPECT_FALSE(ll.sublayoutIsZero({"lane"}, {"dim0"}));
  EXPECT_TRUE(ll.sublayoutIsZero({"lane"}, {"dim1"}));
  EXPECT_TRUE(ll.sublayoutIsZero({"warp"}, {"dim0", "dim1"}));
}

TEST(LinearLayoutTest, Resize) {
  LinearLayout ll = makeExample();
  EXPECT_EQ(ll.resizeInDim("lane", 2),
            LinearLayout({{"register", {{0, 1}, {0, 2}}}, {"lane", {{1, 0}}}},
                         {{"dim0", 4}, {"dim1", 4}},
                         /*requireSurjective=*/false));
  // Compared as vectors: clang finds ArrayRef == SmallVector ambiguous.
  EXPECT_EQ(llvm::SmallVector<LinearLayout::Basis>(
                ll.resizeInDim("register", 8).getBases("register")),
            (llvm::SmallVector<LinearLayout::Basis>{{0, 1}, {0, 2}, {0, 0}}));
  EXPECT_EQ(ll.resizeOutDim("dim0", 2),
            LinearLayout({{"register", {{0, 1}, {0, 2}}},
                          {"lane", {{1, 0}, {0, 0}, {0, 0}}}},
                         {{"dim0", 2}, {"dim1", 4}}));
  LinearLayout grown = ll.resizeOutDim("dim1", 8);
  EXPECT_EQ(grown.getOutDimSize("dim1"), 8);
  EXPECT_EQ(grown.getBases(), ll.getBases());
  EXPECT_FALSE(grown.isSurjective());
}

TEST(LinearLayoutTest, Rename) {
  LinearLayout ll =
      makeExample().renameInDim("lane", "thread").renameOutDim("dim1", "col");
  EXPECT_EQ(ll.getInDimNames(),
            (llvm::SmallVector<StringRef, 4>{"register", "thread"}));
  EXPECT_EQ(ll.getOutDimNames(),
            (llvm::SmallVector<StringRef, 4>{"dim0", "col"}));
  EXPECT_EQ(ll.getBasis("thread", 1, "dim0"), 2);
}

TEST(LinearLayoutTest, Concat) {
  EXPECT_EQ(
      LinearLayout::identity1D(4, "register", "dim0")
          .concatIns(LinearLayout::zeros1D(2, "lane", "dim0", 4)),
      LinearLayout({{"register", {{1}, {2}}}, {"lane", {{0}}}}, {{"dim0", 4}}));
  EXPECT_EQ(LinearLayout::identity1D(4, "register", "dim0")
                .concatOuts(LinearLayout::identity1D(4, "register", "dim1")),
            LinearLayout({{"register", {{1, 1}, {2, 2}}}},
                         {{"dim0", 4}, {"dim1", 4}},
                         /*requireSurjective=*/false));
  // Output dimensions are matched by name.
  LinearLayout a({{"register", {{0, 1}}}}, {{"x", 2}, {"y", 2}},
                 /*requireSurjective=*/false);
  LinearLayout b({{"lane", {{1, 0}}}}, {{"y", 2}, {"x", 2}},
                 /*requireSurjective=*/false);
  EXPECT_EQ(a.concatIns(b),
            LinearLayout({{"register", {{0, 1}}}, {"lane", {{0, 1}}}},
                         {{"x", 2}, {"y", 2}},
                         /*requireSurjective=*/false));
}

TEST(LinearLayoutTest, RemoveZeroBases) {
  EXPECT_EQ(
      makeExample().removeZeroBasesAlongDim("lane"),
      LinearLayout({{"register", {{0, 1}, {0, 2}}}, {"lane", {{1, 0}, {2, 0}}}},
                   {{"dim0", 4}, {"dim1", 4}}));
  // Nothing to drop.
  EXPECT_EQ(makeExample().removeZeroBasesAlongDim("register"), makeExample());
}

TEST(LinearLayoutTest, IsTrivialOver) {
  // A layout conversion map that only permutes registers.
  LinearLayout permute({{"register", {{2, 0}, {1, 0}}}, {"lane", {{0, 1}}}},
                       {{"register", 4}, {"lane", 2}});
  EXPECT_TRUE(permute.isTrivialOver({"lane"}));
  EXPECT_FALSE(permute.isTrivialOver({"register"}));
  EXPECT_FALSE(permute.isTrivialOver({"register", "lane"}));
  // Dimensions absent on both sides count as size 1.
  EXPECT_TRUE(permute.isTrivialOver({"lane", "warp"}));
  // A lane bit that also moves registers is not trivial over lanes.
  LinearLayout laneMovesRegs(
      {{"register", {{1, 0}, {2, 0}}}, {"lane", {{1, 1}}}},
      {{"register", 4}, {"lane", 2}});
  EXPECT_FALSE(laneMovesRegs.isTrivialOver({"lane"}));
  EXPECT_TRUE(laneMovesRegs.isTrivialOver({}));
  // A register bit that moves data across lanes is not either.
  LinearLayout regMovesLanes(
      {{"register", {{1, 0}, {2, 1}}}, {"lane", {{0, 1}}}},
      {{"register", 4}, {"lane", 2}});
  EXPECT_FALSE(regMovesLanes.isTrivialOver({"lane"}));
  // Sizes must match.
  LinearLayout bigger({{"lane", {{1}}}}, {{"lane", 4}},
                      /*requireSurjective=*/false);
  EXPECT_FALSE(bigger.isTrivialOver({"lane"}));
}

} // namespace
