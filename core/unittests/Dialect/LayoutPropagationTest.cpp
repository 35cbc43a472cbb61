//===- LayoutPropagationTest.cpp - Rules for moving ops between layouts ---===//
#include "tessera/Dialect/TesseraGPU/IR/LayoutPropagation.h"
#include "tessera/InitAll.h"
#include "tessera/Layout/LayoutConversions.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::tessera;
using namespace mlir::tessera::gpu;

namespace {
class LayoutPropagationTest : public ::testing::Test {
protected:
  LayoutPropagationTest() {
    DialectRegistry registry;
    registerAllDialects(registry);
    ctx.appendDialectRegistry(registry);
    ctx.loadAllAvailableDialects();
  }

  BlockedAttr blocked(ArrayRef<unsigned> spt, ArrayRef<unsigned> tpw,
                      ArrayRef<unsigned> wpc, ArrayRef<unsigned> order) {
    return BlockedAttr::get(&ctx, spt, tpw, wpc, order, {});
  }

  /// A `linear` layout written for one shape: a 16x16 tile whose registers
  /// walk dim1 first, as matrix units lay out their results.
  LinearAttr unitLayout() {
    LinearLayout layout({{"register", {{0, 1}, {8, 0}}},
                         {"lane", {{0, 2}, {0, 4}, {0, 8}, {1, 0}, {2, 0}}},
                         {"warp", {{4, 0}}},
                         {"block", {}}},
                        {{"dim0", 16}, {"dim1", 16}});
    return LinearAttr::get(&ctx, layout);
  }

  bool same(Attribute a, Attribute b, ArrayRef<int64_t> shape) {
    return isSameLayout(a, b, shape);
  }

  /// The first op of kind OpTy in `ir` (attribute aliases, then functions,
  /// which go in a module with 2 warps of 32 threads).
  template <typename OpTy> OpTy parseOp(StringRef ir) {
    auto [aliases, funcs] = ir.split("func.func");
    std::string text = aliases.str() +
                       "module attributes {tessera_gpu.num_warps = 2 : i32, "
                       "tessera_gpu.threads_per_warp = 32 : i32} {\nfunc.func" +
                       funcs.str() + "\n}";
    module = parseSourceString<ModuleOp>(text, &ctx);
    EXPECT_TRUE(module);
    OpTy found;
    module->walk([&](OpTy op) {
      if (!found)
        found = op;
    });
    return found;
  }

  MLIRContext ctx;
  OwningOpRef<ModuleOp> module;
  LaunchShape launch{/*numWarps=*/2, /*threadsPerWarp=*/32, /*numCTAs=*/1};
};
} // namespace

TEST_F(LayoutPropagationTest, ReductionsSliceTheirOperandsLayout) {
  BlockedAttr b = blocked({1, 4}, {4, 8}, {2, 1}, {1, 0});
  Attribute slice = getSliceEncoding(b, {16, 32}, 1, launch);
  ASSERT_TRUE(isa<SliceAttr>(slice));
  EXPECT_EQ(cast<SliceAttr>(slice).getParent(), b);
  // A slice of a layout written for one shape cannot name it as its parent;
  // it becomes the sliced LinearLayout itself.
  LinearAttr unit = unitLayout();
  Attribute sliced = getSliceEncoding(unit, {16, 16}, 1, launch);
  EXPECT_FALSE(isa<SliceAttr>(sliced));
  EXPECT_TRUE(same(sliced,
                   LinearAttr::get(&ctx, sliceToLinearLayout(
                                             unit.toLinearLayout({16, 16}), 1)),
                   {16}));
}

TEST_F(LayoutPropagationTest, ExpandDimsUndoesASlice) {
  BlockedAttr b = blocked({1, 4}, {4, 8}, {2, 1}, {1, 0});
  Attribute slice = SliceAttr::get(&ctx, 1, b);
  EXPECT_EQ(inferExpandDimsResultEncoding(slice, {16}, 1, launch), b);
  EXPECT_EQ(inferExpandDimsOperandEncoding(b, {16, 1}, 1, launch), slice);
  // A 1-D blocked layout gets a blocked layout with a dimension of size 1.
  BlockedAttr flat = blocked({4}, {32}, {2}, {0});
  Attribute row = inferExpandDimsResultEncoding(flat, {256}, 0, launch);
  EXPECT_EQ(row, blocked({1, 4}, {1, 32}, {1, 2}, {1, 0}));
  EXPECT_TRUE(same(inferExpandDimsOperandEncoding(row, {1, 256}, 0, launch),
                   flat, {256}));
}

TEST_F(LayoutPropagationTest, BroadcastKeepsShapeIndependentLayouts) {
  BlockedAttr b = blocked({1, 4}, {4, 8}, {2, 1}, {1, 0});
  EXPECT_EQ(*inferBroadcastResultEncoding(b), b);
  EXPECT_EQ(inferBroadcastOperandEncoding(b, {16, 32}, {16, 1}, launch), b);
  // From a result in a layout written for its shape, the operand collapses
  // the broadcast dimension: each thread keeps the rows it needs.
  LinearAttr unit = unitLayout();
  EXPECT_TRUE(failed(inferBroadcastResultEncoding(unit)));
  Attribute col =
      inferBroadcastOperandEncoding(unit, {16, 16}, {16, 1}, launch);
  LinearLayout colLayout =
      cast<DistributedLayoutAttr>(col).toLinearLayout({16, 1});
  LinearLayout unitLayout16 = unit.toLinearLayout({16, 16});
  for (StringRef dim : {"lane", "warp"})
    for (unsigned i = 0; i < colLayout.getBases(dim).size(); ++i)
      EXPECT_EQ(colLayout.getBasis(dim, i, "dim0"),
                unitLayout16.getBasis(dim, i, "dim0"));
  // The register walking dim1 is gone; the one walking dim0 stays.
  EXPECT_EQ(colLayout.getInDimSize("register"), 2);
}

TEST_F(LayoutPropagationTest, TransposeKeepsBlockedLayoutsReadable) {
  BlockedAttr b = blocked({1, 4}, {8, 4}, {2, 1}, {1, 0});
  Attribute t = inferTransEncoding(b, {16, 32}, {1, 0}, launch);
  EXPECT_EQ(t, blocked({4, 1}, {4, 8}, {1, 2}, {0, 1}));
  EXPECT_TRUE(
      same(inferTransEncoding(t, {32, 16}, {1, 0}, launch), b, {16, 32}));
}

TEST_F(LayoutPropagationTest, ReshapeKeepsEveryRegister) {
  BlockedAttr rows = blocked({1, 4}, {1, 32}, {2, 1}, {1, 0});
  Attribute flat = inferReshapeEncoding(rows, {2, 128}, {256}, launch);
  EXPECT_TRUE(same(flat, blocked({4}, {32}, {2}, {0}), {256}));
  EXPECT_TRUE(same(inferReshapeEncoding(flat, {256}, {2, 128}, launch), rows,
                   {2, 128}));
}

TEST_F(LayoutPropagationTest, JoinAndSplitMoveThePairRegister) {
  BlockedAttr b = blocked({1, 1}, {4, 8}, {2, 1}, {1, 0});
  Attribute joined = inferJoinResultEncoding(b, {8, 8}, launch);
  FailureOr<Attribute> split =
      inferSplitResultEncoding(joined, {8, 8, 2}, launch);
  ASSERT_TRUE(succeeded(split));
  EXPECT_TRUE(same(*split, b, {8, 8}));
  EXPECT_TRUE(
      same(inferSplitOperandEncoding(b, {8, 8}, launch), joined, {8, 8, 2}));
  // Pairs spread over two lanes cannot be split without moving data.
  BlockedAttr spread = blocked({1, 1, 1}, {4, 4, 2}, {2, 1, 1}, {2, 1, 0});
  EXPECT_TRUE(failed(inferSplitResultEncoding(spread, {8, 8, 2}, launch)));
  EXPECT_TRUE(failed(inferJoinOperandEncoding(spread, {8, 8, 2}, launch)));
}

TEST_F(LayoutPropagationTest, CatStacksOperandsInRegisters) {
  BlockedAttr b = blocked({1, 4}, {4, 8}, {2, 1}, {1, 0});
  Attribute stacked = inferCatResultEncoding(b, {8, 32}, launch);
  FailureOr<Attribute> operand =
      inferCatOperandEncoding(stacked, {16, 32}, launch);
  ASSERT_TRUE(succeeded(operand));
  EXPECT_TRUE(same(*operand, b, {8, 32}));
  // Where the tile covers all 16 rows, the halves are spread over warps,
  // not registers.
  EXPECT_TRUE(failed(inferCatOperandEncoding(
      blocked({1, 4}, {8, 4}, {2, 1}, {1, 0}), {16, 32}, launch)));
}

TEST_F(LayoutPropagationTest, PreferredEncodingsNameKnownLayouts) {
  BlockedAttr store = blocked({4}, {32}, {2}, {0});
  LinearLayout layout = store.toLinearLayout({256});
  EXPECT_EQ(getPreferredEncoding(&ctx, layout, {256}, launch),
            Attribute(LinearAttr::get(&ctx, layout)));
  EXPECT_EQ(getPreferredEncoding(&ctx, layout, {256},
                                 LayoutHints(launch, {unitLayout(), store})),
            store);
  // The default layout of the launch is always recognized.
  BlockedAttr byDefault = getDefaultBlockedEncoding(&ctx, {256}, 2, 32, 1);
  EXPECT_EQ(getPreferredEncoding(&ctx, byDefault.toLinearLayout({256}), {256},
                                 launch),
            byDefault);
}

TEST_F(LayoutPropagationTest, OpsHaveRoles) {
  auto add = parseOp<arith::AddFOp>(R"(
    #b = #tessera_gpu.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]>
    func.func @f(%x: tensor<64xf32, #b>, %p: tensor<64x!tessera.ptr<f32>, #b>) {
      %r = tessera.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32, #b>
      %y = arith.addf %x, %x : tensor<64xf32, #b>
      tessera.store %p, %y : tensor<64x!tessera.ptr<f32>, #b>
      return
    })");
  EXPECT_EQ(getLayoutRole(add), LayoutRole::Propagatable);
  Operation *range = add->getPrevNode();
  EXPECT_EQ(getLayoutRole(range), LayoutRole::Free);
  EXPECT_EQ(getLayoutRole(add->getNextNode()), LayoutRole::Fixed);

  BlockedAttr other = blocked({2}, {32}, {2}, {0});
  FailureOr<OpLayouts> layouts = inferLayoutsFromOperand(add, 1, other, launch);
  ASSERT_TRUE(succeeded(layouts));
  EXPECT_EQ(layouts->operands[0], other);
  EXPECT_EQ(layouts->results[0], other);
  EXPECT_TRUE(hasConsistentLayouts(add, launch));
}

TEST_F(LayoutPropagationTest, ReduceInfersBothWays) {
  auto reduce = parseOp<ReduceOp>(R"(
    #b = #tessera_gpu.blocked<sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [2, 1], order = [1, 0]>
    #s = #tessera_gpu.slice<dim = 1, parent = #b>
    func.func @f(%x: tensor<8x8xf32, #b>) -> tensor<8xf32, #s> {
      %r = tessera.reduce(%x) {axis = 1 : i32} : (tensor<8x8xf32, #b>) -> tensor<8xf32, #s> {
      ^bb0(%a: f32, %c: f32):
        %m = arith.maxnumf %a, %c : f32
        tessera.reduce.return %m : f32
      }
      return %r : tensor<8xf32, #s>
    })");
  EXPECT_TRUE(hasConsistentLayouts(reduce, launch));
  BlockedAttr other = blocked({1, 2}, {8, 4}, {1, 2}, {1, 0});
  FailureOr<OpLayouts> forward =
      inferLayoutsFromOperand(reduce, 0, other, launch);
  ASSERT_TRUE(succeeded(forward));
  EXPECT_EQ(forward->results[0], SliceAttr::get(&ctx, 1, other));
  FailureOr<OpLayouts> backward =
      inferLayoutsFromResult(reduce, 0, forward->results[0], launch);
  ASSERT_TRUE(succeeded(backward));
  EXPECT_EQ(backward->operands[0], other);
  // A result layout that is no slice along the axis says nothing about the
  // operand.
  EXPECT_TRUE(failed(
      inferLayoutsFromResult(reduce, 0, blocked({1}, {32}, {2}, {0}), launch)));
}

TEST_F(LayoutPropagationTest, LoopVariablesAreTied) {
  auto loop = parseOp<scf::ForOp>(R"(
    #b = #tessera_gpu.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]>
    func.func @f(%x: tensor<64xf32, #b>, %n: index) -> tensor<64xf32, #b> {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%a = %x, %k = %c0) -> (tensor<64xf32, #b>, index) {
        scf.yield %a, %k : tensor<64xf32, #b>, index
      }
      return %r#0 : tensor<64xf32, #b>
    })");
  SmallVector<TiedLayoutGroup> groups = getTiedLayoutGroups(loop);
  // The index is not a tensor: one group only.
  ASSERT_EQ(groups.size(), 1u);
  EXPECT_EQ(groups[0].values.size(), 2u);
  EXPECT_EQ(groups[0].values[1], loop.getResult(0));
  ASSERT_EQ(groups[0].operands.size(), 2u);
  EXPECT_EQ(groups[0].operands[0]->get(), loop.getInitArgs()[0]);
}
