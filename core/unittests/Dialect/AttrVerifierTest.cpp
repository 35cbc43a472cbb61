//===- AttrVerifierTest.cpp - Layout checks reachable only from C++ -------===//
//
// Some layout attributes cannot be written with empty parameter lists in
// textual IR, so their verifiers are exercised through the C++ builders.
//
//===----------------------------------------------------------------------===//
#include "tessera/Dialect/TesseraGPU/IR/Dialect.h"
#include "tessera/Dialect/TesseraGPU/IR/LayoutUtils.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::tessera;
using namespace mlir::tessera::gpu;

namespace {
class AttrVerifierTest : public ::testing::Test {
protected:
  AttrVerifierTest() { ctx.loadDialect<TesseraGPUDialect>(); }

  /// Runs `build` and returns the first error it reported.
  template <typename Fn> std::string firstError(Fn &&build) {
    std::string message;
    ScopedDiagnosticHandler handler(&ctx, [&](Diagnostic &diag) {
      if (message.empty())
        message = diag.str();
      return success();
    });
    build();
    return message;
  }

  MLIRContext ctx;
};
} // namespace

TEST_F(AttrVerifierTest, BlockedNeedsADimension) {
  auto loc = UnknownLoc::get(&ctx);
  std::string err = firstError([&] {
    EXPECT_FALSE(BlockedAttr::getChecked([&] { return emitError(loc); }, &ctx,
                                         {}, {}, {}, {}, {}));
  });
  EXPECT_EQ(err, "blocked layout needs at least one dimension");
}

TEST_F(AttrVerifierTest, SharedNeedsADimension) {
  auto loc = UnknownLoc::get(&ctx);
  std::string err = firstError([&] {
    EXPECT_FALSE(SwizzledSharedAttr::getChecked([&] { return emitError(loc); },
                                                &ctx, 1, 1, 1, {}, {}, 0));
  });
  EXPECT_EQ(err, "shared layout needs at least one dimension");
}

TEST_F(AttrVerifierTest, LinearBasesHaveOneCoordinatePerDimension) {
  auto loc = UnknownLoc::get(&ctx);
  std::string err = firstError([&] {
    EXPECT_FALSE(LinearAttr::getChecked([&] { return emitError(loc); }, &ctx, 2,
                                        ArrayRef<int32_t>{0, 1, 1}, {}, {},
                                        {}));
  });
  EXPECT_EQ(err, "register bases must have 2 coordinates each");
  err = firstError([&] {
    EXPECT_FALSE(SharedLinearAttr::getChecked(
        [&] { return emitError(loc); }, &ctx, 2, ArrayRef<int32_t>{1}, {}));
  });
  EXPECT_EQ(err, "offset bases must have 2 coordinates each");
}

TEST_F(AttrVerifierTest, LinearAttrRoundTripsALinearLayout) {
  // A 2x8 tile: 2 registers along dim1, 4 lanes along dim1, 2 along dim0.
  LinearLayout layout({{"register", {{0, 1}}},
                       {"lane", {{0, 2}, {0, 4}, {1, 0}}},
                       {"warp", {}},
                       {"block", {}}},
                      {{"dim0", 2}, {"dim1", 8}});
  LinearAttr attr = LinearAttr::get(&ctx, layout);
  EXPECT_EQ(attr.getTensorRank(), 2u);
  EXPECT_EQ(attr.toLinearLayout({2, 8}), layout);
  auto lanes = attr.getBases("lane");
  ASSERT_EQ(lanes.size(), 3u);
  EXPECT_EQ(lanes[2], (SmallVector<int32_t>{1, 0}));
}

TEST_F(AttrVerifierTest, DefaultBlockedCoversSmallAndLargeTensors) {
  // 1024 elements over 4 warps of 32: 8 registers per thread.
  BlockedAttr big = getDefaultBlockedEncoding(&ctx, {1024}, 4, 32, 1);
  EXPECT_EQ(big.getThreadsPerWarp()[0], 32u);
  EXPECT_EQ(big.getWarpsPerCTA()[0], 4u);
  auto type = RankedTensorType::get({1024}, Float32Type::get(&ctx), big);
  EXPECT_EQ(getTotalElemsPerThread(type), 8);
  // 16x8 over 4 warps: lanes fill the 8 columns, then rows.
  BlockedAttr tile = getDefaultBlockedEncoding(&ctx, {16, 8}, 4, 32, 1);
  EXPECT_EQ(ArrayRef<unsigned>(tile.getThreadsPerWarp()),
            ArrayRef<unsigned>({4, 8}));
  EXPECT_EQ(ArrayRef<unsigned>(tile.getWarpsPerCTA()),
            ArrayRef<unsigned>({4, 1}));
  EXPECT_EQ(ArrayRef<unsigned>(tile.getOrder()), ArrayRef<unsigned>({1, 0}));
}
