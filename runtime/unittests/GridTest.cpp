//===- GridTest.cpp - Fixed grids and grids of META -----------------------===//
#include "tessera/Runtime/Grid.h"

#include "TestSupport.h"
#include "gtest/gtest.h"

using namespace mlir::tessera::runtime;

namespace {
/// Built whole: GCC 12 misreads string assignments into vector elements.
KernelParamInfo makeParam(std::string name, bool isConstexpr = false) {
  KernelParamInfo param;
  param.name = std::move(name);
  param.isConstexpr = isConstexpr;
  return param;
}
} // namespace

TEST(GridTest, FixedAndComputed) {
  std::vector<KernelParamInfo> params = {makeParam("n"),
                                         makeParam("BLOCK", true)};
  std::vector<KernelArg> values = {KernelArg::integer(1000),
                                   KernelArg::integer(128)};
  LaunchMeta meta(params, values, 8, 3, 1);

  auto fixed = Grid(7, 2).resolve(meta);
  ASSERT_EXPECTED(fixed);
  EXPECT_EQ(*fixed, (std::array<uint32_t, 3>{7, 2, 1}));

  Grid computed([](const LaunchMeta &m) -> GridDims {
    return {static_cast<uint64_t>(cdiv(m["n"], m["BLOCK"])), 1,
            static_cast<uint64_t>(m["num_warps"])};
  });
  auto dims = computed.resolve(meta);
  ASSERT_EXPECTED(dims);
  EXPECT_EQ(*dims, (std::array<uint32_t, 3>{8, 1, 8}));
}

TEST(GridTest, Errors) {
  std::vector<KernelParamInfo> params = {makeParam("x")};
  std::vector<KernelArg> values = {KernelArg::pointer(16, "fp32")};
  LaunchMeta meta(params, values, 4, 3, 1);
  auto why = [&](Grid grid) {
    auto r = grid.resolve(meta);
    return r ? std::string("ok") : llvm::toString(r.takeError());
  };
  EXPECT_EQ(why(Grid([](const LaunchMeta &m) -> GridDims {
              return {static_cast<uint64_t>(m["BLOCK"]), 1, 1};
            })),
            "the grid asked for 'BLOCK', which is not a parameter of the "
            "kernel");
  EXPECT_EQ(why(Grid([](const LaunchMeta &m) -> GridDims {
              return {static_cast<uint64_t>(m["x"]), 1, 1};
            })),
            "the grid asked for 'x' as an integer, but it is a pointer to "
            "fp32");
  EXPECT_EQ(why(Grid(uint64_t(1) << 31)),
            "grid dimension 0 is 2147483648, more than 2^31 - 1 programs");
}
