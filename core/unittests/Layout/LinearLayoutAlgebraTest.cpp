//===- LinearLayoutAlgebraTest.cpp - Products, compositions, inverses -----===//

#include "LayoutTestUtils.h"

#include "gtest/gtest.h"

using namespace mlir::tessera;

namespace {

/// Checks that outer(c(x)) == inner(x) for every input x of \p inner, where
/// c = inner.invertAndCompose(outer); outputs are compared by name.
void expectInvertAndComposeHolds(const LinearLayout &inner,
                                 const LinearLayout &outer,
                                 const LinearLayout &c) {
  ASSERT_EQ(c.getInDimNames(), inner.getInDimNames());
  for (int64_t x = 0; x < inner.getTotalInDimSize(); ++x) {
    // Unflatten x over inner's (= c's) input dimensions.
    llvm::SmallVector<LinearLayout::NamedInt, 4> ins;
    int64_t rest = x;
    for (auto [name, size] : inner.getInDims()) {
      ins.emplace_back(name, int32_t(rest % size));
      rest /= size;
    }
    Coords mid = c.apply(ins);
    llvm::SmallVector<LinearLayout::NamedInt, 4> midIns;
    for (const auto &[name, value] : mid)
      midIns.emplace_back(name, value);
    Coords got = outer.apply(midIns);
    for (const auto &[name, value] : inner.apply(ins)) {
      auto it =
          llvm::find_if(got, [&](const auto &p) { return p.first == name; });
      int32_t gotValue = it == got.end() ? 0 : it->second;
      EXPECT_EQ(gotValue, value) << "input " << x << " output " << name;
    }
  }
}

TEST(LinearLayoutAlgebraTest, Product) {
  LinearLayout regs = LinearLayout::identity1D(4, "register", "dim1");
  LinearLayout lanes = LinearLayout::identity1D(8, "lane", "dim1");
  LinearLayout rows = LinearLayout::identity1D(2, "register", "dim0");
  // Lanes go above registers along dim1; the new dim0 register bit goes above
  // the existing register bits.
  EXPECT_EQ(regs * lanes * rows,
            LinearLayout({{"register", {{1, 0}, {2, 0}, {0, 1}}},
                          {"lane", {{4, 0}, {8, 0}, {16, 0}}}},
                         {{"dim1", 32}, {"dim0", 2}}));
  EXPECT_EQ(LinearLayout::empty() * regs, regs);
  EXPECT_EQ(regs * LinearLayout::empty(), regs);
  // A broadcast factor keeps its zero bases; sizes multiply.
  EXPECT_EQ(LinearLayout::zeros1D(2, "register", "dim0") *
                LinearLayout::identity1D(2, "register", "dim0"),
            LinearLayout({{"register", {{0}, {1}}}}, {{"dim0", 2}}));
  EXPECT_EQ(LinearLayout::identity1D(2, "register", "dim0") *
                LinearLayout::zeros1D(2, "register", "dim0", 2),
            LinearLayout({{"register", {{1}, {0}}}}, {{"dim0", 4}},
                         /*requireSurjective=*/false));
  // Non-trivial bases are scaled as a whole.
  LinearLayout swizzle({{"offset", {{0, 1}, {1, 1}}}},
                       {{"dim0", 2}, {"dim1", 2}});
  EXPECT_EQ(swizzle * swizzle,
            LinearLayout({{"offset", {{0, 1}, {1, 1}, {0, 2}, {2, 2}}}},
                         {{"dim0", 4}, {"dim1", 4}}));
  LinearLayout acc = regs;
  acc *= lanes;
  EXPECT_EQ(acc, regs * lanes);
}

TEST(LinearLayoutAlgebraTest, Compose) {
  LinearLayout inner({{"register", {{1}, {3}}}}, {{"dim0", 4}});
  LinearLayout outer({{"dim0", {{0, 1}, {1, 1}}}}, {{"a", 2}, {"b", 2}});
  // register 1 -> dim0 1 -> (0,1); register 2 -> dim0 3 -> (0,1)^(1,1).
  LinearLayout composed = inner.compose(outer);
  EXPECT_EQ(composed, LinearLayout({{"register", {{0, 1}, {1, 0}}}},
                                   {{"a", 2}, {"b", 2}}));
  for (int32_t r = 0; r < 4; ++r) {
    Coords mid = inner.apply({{"register", r}});
    EXPECT_EQ(composed.apply({{"register", r}}),
              outer.apply({{"dim0", mid[0].second}}));
  }
  // outer's input may be larger than inner's output, and the dimensions are
  // matched by name.
  LinearLayout transpose({{"x", {{1, 0}}}, {"y", {{0, 1}, {0, 2}}}},
                         {{"u", 2}, {"v", 8}}, /*requireSurjective=*/false);
  LinearLayout grid({{"register", {{0, 1}, {1, 0}}}}, {{"y", 2}, {"x", 2}});
  EXPECT_EQ(grid.compose(transpose),
            LinearLayout({{"register", {{1, 0}, {0, 1}}}}, {{"u", 2}, {"v", 8}},
                         /*requireSurjective=*/false));
}

TEST(LinearLayoutAlgebraTest, Invert) {
  // offset -> (dim0, dim1); flat bases 1, 6, 4 are independent.
  LinearLayout ll({{"offset", {{0, 1}, {1, 2}, {1, 0}}}},
                  {{"dim0", 2}, {"dim1", 4}});
  ASSERT_TRUE(ll.isInvertible());
  LinearLayout inv = ll.invert();
  // (1,0) = basis 2; (0,1) = basis 0; (0,2) = basis 1 ^ basis 2.
  EXPECT_EQ(inv, LinearLayout({{"dim0", {{4}}}, {"dim1", {{1}, {6}}}},
                              {{"offset", 8}}));
  EXPECT_EQ(inv.compose(ll),
            LinearLayout({{"dim0", {{1, 0}}}, {"dim1", {{0, 1}, {0, 2}}}},
                         {{"dim0", 2}, {"dim1", 4}}));
  EXPECT_EQ(ll.compose(inv), LinearLayout::identity1D(8, "offset", "offset"));

  LinearLayout broadcast({{"lane", {{1}, {0}}}}, {{"dim0", 2}});
  llvm::Expected<LinearLayout> bad = broadcast.tryInvert();
  ASSERT_FALSE(bad);
  EXPECT_NE(llvm::toString(bad.takeError()).find("not invertible"),
            std::string::npos);
}

TEST(LinearLayoutAlgebraTest, InvertAndComposeInjectiveOuter) {
  // 4 registers and 8 lanes over a 4x8 tensor, each thread 4 contiguous.
  LinearLayout regs(
      {{"register", {{0, 1}, {0, 2}}}, {"lane", {{0, 4}, {1, 0}, {2, 0}}}},
      {{"dim0", 4}, {"dim1", 8}});
  // Row-major shared memory.
  LinearLayout plain({{"offset", {{0, 1}, {0, 2}, {0, 4}, {1, 0}, {2, 0}}}},
                     {{"dim0", 4}, {"dim1", 8}});
  LinearLayout toPlain = regs.invertAndCompose(plain);
  EXPECT_EQ(toPlain,
            LinearLayout({{"register", {{1}, {2}}}, {"lane", {{4}, {8}, {16}}}},
                         {{"offset", 32}}));
  EXPECT_EQ(toPlain.getNumConsecutiveInOut(), 4);
  expectInvertAndComposeHolds(regs, plain, toPlain);

  // Swizzled: row bits also flip column bits.
  LinearLayout swizzled({{"offset", {{0, 1}, {0, 2}, {0, 4}, {1, 2}, {2, 4}}}},
                        {{"dim0", 4}, {"dim1", 8}});
  LinearLayout toSwizzled = regs.invertAndCompose(swizzled);
  // (1,0) = (1,2) ^ (0,2): offsets 8 | 2; (2,0) = (2,4) ^ (0,4): 16 | 4.
  EXPECT_EQ(toSwizzled, LinearLayout({{"register", {{1}, {2}}},
                                      {"lane", {{4}, {10}, {20}}}},
                                     {{"offset", 32}}));
  expectInvertAndComposeHolds(regs, swizzled, toSwizzled);

  // Output dimensions are matched by name, whatever their order.
  LinearLayout plainT = plain.transposeOuts({"dim1", "dim0"});
  EXPECT_EQ(regs.invertAndCompose(plainT), toPlain);
}

TEST(LinearLayoutAlgebraTest, InvertAndComposeNonInjectiveOuter) {
  LinearLayout offsets = LinearLayout::identity1D(16, "offset", "dim0");
  // Register bit 1 is broadcast in outer: it is free and must come out zero.
  LinearLayout zeroBasis({{"register", {{1}, {0}, {2}}}, {"lane", {{4}, {8}}}},
                         {{"dim0", 16}});
  LinearLayout c = offsets.invertAndCompose(zeroBasis);
  EXPECT_EQ(c, LinearLayout({{"offset", {{1, 0}, {4, 0}, {0, 1}, {0, 2}}}},
                            {{"register", 8}, {"lane", 4}},
                            /*requireSurjective=*/false));
  expectInvertAndComposeHolds(offsets, zeroBasis, c);

  // Lane bit 0 duplicates register bit 0: the later (lane) bit is free.
  LinearLayout duplicate({{"register", {{1}, {2}}}, {"lane", {{1}, {4}, {8}}}},
                         {{"dim0", 16}});
  LinearLayout d = offsets.invertAndCompose(duplicate);
  EXPECT_EQ(d, LinearLayout({{"offset", {{1, 0}, {2, 0}, {0, 2}, {0, 4}}}},
                            {{"register", 4}, {"lane", 8}},
                            /*requireSurjective=*/false));
  expectInvertAndComposeHolds(offsets, duplicate, d);
}

TEST(LinearLayoutAlgebraTest, InvertAndComposeBroadcastInput) {
  // Lane bit 0 of the source is broadcast: it maps to offset 0.
  LinearLayout src({{"register", {{1}}}, {"lane", {{0}, {2}}}}, {{"dim0", 4}});
  LinearLayout dst = LinearLayout::identity1D(8, "offset", "dim0");
  LinearLayout c = src.invertAndCompose(dst);
  EXPECT_EQ(c, LinearLayout({{"register", {{1}}}, {"lane", {{0}, {2}}}},
                            {{"offset", 8}}, /*requireSurjective=*/false));
  expectInvertAndComposeHolds(src, dst, c);
}

TEST(LinearLayoutAlgebraTest, InvertAndComposeFailures) {
  LinearLayout regs = LinearLayout::identity1D(4, "register", "dim0");
  // outer reaches only the even elements.
  LinearLayout even = LinearLayout::strided1D(2, 2, "offset", "dim0");
  llvm::Expected<LinearLayout> c = regs.tryInvertAndCompose(even);
  ASSERT_FALSE(c);
  EXPECT_NE(llvm::toString(c.takeError()).find("not in the image"),
            std::string::npos);
  // outer is too small along dim0.
  llvm::Expected<LinearLayout> small =
      regs.tryInvertAndCompose(LinearLayout::identity1D(2, "offset", "dim0"));
  ASSERT_FALSE(small);
  llvm::consumeError(small.takeError());
  // outer lacks an output dimension.
  llvm::Expected<LinearLayout> missing =
      regs.tryInvertAndCompose(LinearLayout::identity1D(4, "offset", "dim1"));
  ASSERT_FALSE(missing);
  EXPECT_NE(llvm::toString(missing.takeError()).find("output dimension 'dim0'"),
            std::string::npos);
  EXPECT_DEATH((void)regs.invertAndCompose(even), "not in the image");
}

TEST(LinearLayoutAlgebraTest, Pseudoinvert) {
  LinearLayout ll({{"register", {{1}, {0}, {2}}}}, {{"dim0", 4}});
  LinearLayout right = ll.pseudoinvert();
  EXPECT_EQ(right, LinearLayout({{"dim0", {{1}, {4}}}}, {{"register", 8}},
                                /*requireSurjective=*/false));
  EXPECT_EQ(right.compose(ll), LinearLayout::identity1D(4, "dim0", "dim0"));
  llvm::Expected<LinearLayout> notSurjective =
      LinearLayout::strided1D(2, 2, "register", "dim0").tryPseudoinvert();
  ASSERT_FALSE(notSurjective);
  llvm::consumeError(notSurjective.takeError());
}

TEST(LinearLayoutAlgebraTest, FreeVariableMasks) {
  LinearLayout ll({{"register", {{0, 1}, {0, 0}, {0, 2}, {0, 1}}},
                   {"lane", {{1, 0}, {0, 3}, {2, 0}}},
                   {"warp", {{0, 0}, {3, 0}}}},
                  {{"dim0", 4}, {"dim1", 4}});
  // register: bit 1 is zero, bit 3 repeats bit 0; lane: bit 1 is
  // register bits 0 ^ 2; warp: bit 0 is zero, bit 1 is lane bits 0 ^ 2.
  EXPECT_EQ(ll.getFreeVariableMasks(),
            (Coords{{"register", 0b1010}, {"lane", 0b010}, {"warp", 0b11}}));
  EXPECT_EQ(
      LinearLayout::identity1D(8, "register", "dim0").getFreeVariableMasks(),
      (Coords{{"register", 0}}));
  // The order of input dimensions decides which duplicate is free.
  EXPECT_EQ(
      ll.transposeIns({"warp", "lane", "register"}).getFreeVariableMasks(),
      (Coords{{"warp", 0b01}, {"lane", 0b100}, {"register", 0b1110}}));
}

TEST(LinearLayoutAlgebraTest, NumConsecutiveInOut) {
  // Row-major: (1, 0) is flat offset 4, right after (0, 3).
  EXPECT_EQ(LinearLayout({{"register", {{0, 1}, {0, 2}, {1, 0}}}},
                         {{"dim0", 2}, {"dim1", 4}})
                .getNumConsecutiveInOut(),
            8);
  EXPECT_EQ(LinearLayout({{"register", {{0, 1}, {0, 2}}}, {"lane", {{1, 0}}}},
                         {{"dim0", 2}, {"dim1", 4}})
                .getNumConsecutiveInOut(),
            4);
  // Row-major: a 2x2 tile walked row by row is 4 consecutive elements.
  EXPECT_EQ(
      LinearLayout({{"register", {{0, 1}, {1, 0}}}}, {{"dim0", 2}, {"dim1", 2}})
          .getNumConsecutiveInOut(),
      4);
  // Registers walking dim0 (not the minor dimension) are not contiguous.
  EXPECT_EQ(LinearLayout({{"register", {{1, 0}, {2, 0}}}, {"lane", {{0, 1}}}},
                         {{"dim0", 4}, {"dim1", 2}})
                .getNumConsecutiveInOut(),
            1);
  // A broadcast register ends the run until it is removed.
  LinearLayout withCopy(
      {{"register", {{0, 1}, {0, 0}, {0, 2}}}, {"lane", {{1, 0}}}},
      {{"dim0", 2}, {"dim1", 4}});
  EXPECT_EQ(withCopy.getNumConsecutiveInOut(), 2);
  EXPECT_EQ(
      withCopy.removeZeroBasesAlongDim("register").getNumConsecutiveInOut(), 4);
  EXPECT_EQ(LinearLayout::empty().getNumConsecutiveInOut(), 1);
}

TEST(LinearLayoutAlgebraTest, DivideLeft) {
  LinearLayout a = LinearLayout::identity1D(4, "register", "dim1") *
                   LinearLayout::identity1D(8, "lane", "dim1") *
                   LinearLayout::identity1D(2, "register", "dim0");
  LinearLayout vec = LinearLayout::identity1D(4, "register", "dim1");
  std::optional<LinearLayout> q = a.divideLeft(vec);
  ASSERT_TRUE(q);
  EXPECT_EQ(*q, LinearLayout({{"register", {{0, 1}}},
                              {"lane", {{1, 0}, {2, 0}, {4, 0}}}},
                             {{"dim1", 8}, {"dim0", 2}}));
  EXPECT_EQ(vec * *q, a);
  // The third register bit walks dim0, not dim1.
  EXPECT_FALSE(a.divideLeft(LinearLayout::identity1D(8, "register", "dim1")));
  // The lowest lane bit is element 4, not 1.
  EXPECT_FALSE(a.divideLeft(LinearLayout::identity1D(2, "lane", "dim1")));
  // A lane bit that also flips the lowest element bit is not above the
  // divisor.
  LinearLayout mixed({{"register", {{1}, {2}}}, {"lane", {{3}}}},
                     {{"dim1", 4}});
  EXPECT_FALSE(
      mixed.divideLeft(LinearLayout::identity1D(2, "register", "dim1")));
  // Interleaved bits are still a product: registers 1 and 2 swap places.
  LinearLayout interleaved({{"register", {{1}, {4}, {2}}}}, {{"dim1", 8}});
  EXPECT_EQ(
      interleaved.divideLeft(LinearLayout::identity1D(2, "register", "dim1")),
      LinearLayout({{"register", {{2}, {1}}}}, {{"dim1", 4}}));
  EXPECT_EQ(a.divideLeft(LinearLayout::empty()), a);
}

TEST(LinearLayoutAlgebraTest, DivideRight) {
  LinearLayout a = LinearLayout::identity1D(4, "register", "dim1") *
                   LinearLayout::identity1D(8, "lane", "dim1") *
                   LinearLayout::identity1D(2, "register", "dim0");
  LinearLayout row = LinearLayout::identity1D(2, "register", "dim0");
  std::optional<LinearLayout> q = a.divideRight(row);
  ASSERT_TRUE(q);
  EXPECT_EQ(*q, LinearLayout({{"register", {{1, 0}, {2, 0}}},
                              {"lane", {{4, 0}, {8, 0}, {16, 0}}}},
                             {{"dim1", 32}, {"dim0", 1}}));
  EXPECT_EQ(*q * row, a);
  LinearLayout lanes = LinearLayout::identity1D(8, "lane", "dim1");
  std::optional<LinearLayout> q2 = a.divideRight(lanes);
  ASSERT_TRUE(q2);
  EXPECT_EQ(*q2,
            LinearLayout({{"register", {{1, 0}, {2, 0}, {0, 1}}}, {"lane", {}}},
                         {{"dim1", 4}, {"dim0", 2}}));
  EXPECT_EQ(*q2 * lanes, a);
  EXPECT_FALSE(a.divideRight(LinearLayout::identity1D(2, "register", "dim1")));
}

} // namespace
