//===- MmaLayouts.cpp - The layouts of mma.sync as LinearLayouts ----------===//
//
// The fragments follow the PTX ISA's tables for m16n8k8 (tf32), m16n8k16
// (16-bit) and m16n8k32 (8-bit): with g = lane / 4 and t = lane % 4, and v
// elements per 32-bit register (v = 32 / element bits),
//  - A (16 x 8v): register j of a lane holds row g + 8 (j & 1) and the v
//    elements from K = v t + 4v (j >> 1);
//  - B (8v x 8): register j holds column g and the v elements from
//    K = v t + 4v j;
//  - the accumulator (16 x 8): element j holds row g + 8 (j >> 1) and
//    column 2t + (j & 1).
// As LinearLayouts the bits of v and of the register index are register
// bases, t's two bits and g's three are lane bases.
//
//===----------------------------------------------------------------------===//
#include "MmaLayouts.h"

#include "tessera/Layout/LayoutConversions.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tessera;
using namespace mlir::tessera::nvptx;

namespace {

using Basis = LinearLayout::Basis;

llvm::Error decline(const llvm::Twine &why) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), why);
}

} // namespace

DotOp nvptx::matchMatrixDot(Operation *op, llvm::StringRef prefix) {
  auto dot = dyn_cast_or_null<DotOp>(op);
  if (!dot)
    return nullptr;
  auto name = dot->getAttrOfType<StringAttr>(kMatrixInstructionAttrName);
  return name && name.getValue().starts_with(prefix) ? dot : nullptr;
}

WarpGrid nvptx::chooseMmaWarps(int64_t m, int64_t n, unsigned numWarps) {
  WarpGrid grid;
  while (grid.m * grid.n < numWarps) {
    int64_t tilesM = m / (16 * grid.m), tilesN = n / (8 * grid.n);
    if (tilesM >= tilesN && tilesM > 1)
      grid.m *= 2;
    else if (tilesN > 1)
      grid.n *= 2;
    else
      grid.m *= 2; // More warps than tiles: the extra ones hold copies.
  }
  return grid;
}

LinearLayout nvptx::mmaAccumulatorLayout(int64_t m, int64_t n, WarpGrid warps) {
  return tileMatrixLayout(
      {{0, 1}, {8, 0}}, {{0, 2}, {0, 4}, {1, 0}, {2, 0}, {4, 0}},
      getWarpGridBases(warps.m, warps.n, 16, 8), {m, n}, {1, 0});
}

LinearLayout nvptx::mmaOperandLayout(unsigned opIdx, int64_t rows, int64_t cols,
                                     WarpGrid warps, unsigned elementBits) {
  int32_t v = 32 / elementBits;
  SmallVector<Basis> regs, lanes;
  if (opIdx == 0) {
    for (int32_t i = 1; i < v; i *= 2)
      regs.push_back({0, i});
    regs.push_back({8, 0});
    regs.push_back({0, 4 * v});
    lanes = {{0, v}, {0, 2 * v}, {1, 0}, {2, 0}, {4, 0}};
    return tileMatrixLayout(regs, lanes,
                            getWarpGridBases(warps.m, warps.n, 16, 0),
                            {rows, cols}, {1, 0});
  }
  for (int32_t i = 1; i < v; i *= 2)
    regs.push_back({i, 0});
  regs.push_back({4 * v, 0});
  lanes = {{v, 0}, {2 * v, 0}, {0, 1}, {0, 2}, {0, 4}};
  return tileMatrixLayout(regs, lanes, getWarpGridBases(warps.m, warps.n, 0, 8),
                          {rows, cols}, {0, 1});
}

unsigned nvptx::getMmaOperandBits(llvm::StringRef dtype) {
  if (dtype == "tf32")
    return 32;
  if (dtype == "fp16" || dtype == "bf16")
    return 16;
  if (dtype == "int8" || dtype == "fp8e4nv" || dtype == "fp8e5")
    return 8;
  return 0;
}

std::optional<WarpgroupGrid> nvptx::chooseWgmmaGroups(int64_t m, int64_t n,
                                                      unsigned numWarps) {
  if (numWarps % 4 != 0 || m < 64 || n < 8)
    return std::nullopt;
  WarpgroupGrid grid;
  while (grid.m * grid.n < numWarps / 4) {
    if (m / (64 * grid.m) > 1)
      grid.m *= 2;
    else if (n / (8 * grid.n) > 1)
      grid.n *= 2;
    else
      return std::nullopt;
  }
  if (n / grid.n > 256)
    return std::nullopt;
  return grid;
}

/// Warp bases of a wgmma layout: the four warps of a warpgroup along M by
/// 16 rows, then the warpgroups along M by 64 rows and along N by their
/// part of N (`nStride`, 0 where they share the operand).
static SmallVector<Basis> warpgroupBases(WarpgroupGrid groups,
                                         int32_t nStride) {
  SmallVector<Basis> bases = {{16, 0}, {32, 0}};
  for (unsigned i = 0; (1u << i) < groups.m; ++i)
    bases.push_back({64 << i, 0});
  for (unsigned i = 0; (1u << i) < groups.n; ++i)
    bases.push_back({0, nStride << i});
  return bases;
}

LinearLayout nvptx::wgmmaAccumulatorLayout(int64_t m, int64_t n,
                                           WarpgroupGrid groups) {
  int32_t part = int32_t(n / groups.n);
  SmallVector<Basis> regs = {{0, 1}, {8, 0}};
  for (int32_t col = 8; col < part; col *= 2)
    regs.push_back({0, col});
  return tileMatrixLayout(regs, {{0, 2}, {0, 4}, {1, 0}, {2, 0}, {4, 0}},
                          warpgroupBases(groups, part), {m, n}, {0, 1});
}

LinearLayout nvptx::wgmmaOperandALayout(int64_t m, int64_t k,
                                        WarpgroupGrid groups) {
  return tileMatrixLayout({{0, 1}, {8, 0}, {0, 8}},
                          {{0, 2}, {0, 4}, {1, 0}, {2, 0}, {4, 0}},
                          warpgroupBases(groups, 0), {m, k}, {1, 0});
}

LinearLayout nvptx::wgmmaOperandBLayout(int64_t k, int64_t n,
                                        unsigned numWarps) {
  SmallVector<Basis> warps;
  for (unsigned i = 0; (1u << i) < numWarps; ++i)
    warps.push_back({4 << i, 0});
  return tileMatrixLayout({{0, 1}, {0, 2}, {0, 4}},
                          {{0, 8}, {0, 16}, {0, 32}, {1, 0}, {2, 0}}, warps,
                          {k, n}, {0, 1});
}

/// wgmma layouts for a dot of `shape`, or why not.
static llvm::Expected<MatrixLayouts>
getWgmmaLayouts(const MatrixInstruction &instr, const DotShape &shape) {
  unsigned bits = getMmaOperandBits(instr.aType);
  bool fp8 = instr.aType == "fp8e4nv" || instr.aType == "fp8e5";
  if ((bits != 16 && !fp8) || instr.accType != "fp32")
    return decline("the nvptx lowering emits " + instr.name +
                   " for 16-bit and fp8 operands with fp32 accumulators only");
  if (shape.threadsPerWarp != 32)
    return decline("wgmma needs 32 threads per warp");
  if (!llvm::isPowerOf2_64(shape.m) || !llvm::isPowerOf2_64(shape.n) ||
      !llvm::isPowerOf2_64(shape.k) || shape.k < instr.k || shape.n < 16)
    return decline(llvm::formatv("a {0}x{1}x{2} dot is not tiled by m64nNk{3} "
                                 "with N >= 16",
                                 shape.m, shape.n, shape.k, instr.k));
  std::optional<WarpgroupGrid> groups =
      chooseWgmmaGroups(shape.m, shape.n, shape.numWarps);
  if (!groups)
    return decline(llvm::formatv("{0} warps do not tile a {1}x{2} result with "
                                 "warpgroups of 64 x (at most 256) elements",
                                 shape.numWarps, shape.m, shape.n));
  MatrixLayouts layouts;
  layouts.acc = wgmmaAccumulatorLayout(shape.m, shape.n, *groups);
  layouts.a = wgmmaOperandALayout(shape.m, shape.k, *groups);
  layouts.b = wgmmaOperandBLayout(shape.k, shape.n, shape.numWarps);
  return layouts;
}

llvm::Expected<MatrixLayouts>
MmaLayoutProvider::getLayouts(const MatrixInstruction &instr,
                              const DotShape &shape) const {
  if (llvm::StringRef(instr.name).starts_with("wgmma"))
    return getWgmmaLayouts(instr, shape);
  if (!llvm::StringRef(instr.name).starts_with("mma.sync"))
    return decline("the nvptx lowering does not emit " + instr.name);
  unsigned bits = getMmaOperandBits(instr.aType);
  if (bits == 0 || instr.m != 16 || instr.n != 8 || instr.k != 256 / bits)
    return decline("no mma.sync fragment layout for " + instr.aType);
  if (shape.threadsPerWarp != 32)
    return decline("mma.sync needs 32 threads per warp");
  if (shape.m < instr.m || shape.n < instr.n || shape.k < instr.k ||
      shape.k % instr.k != 0 || !llvm::isPowerOf2_64(shape.m) ||
      !llvm::isPowerOf2_64(shape.n) || !llvm::isPowerOf2_64(shape.k))
    return decline(
        llvm::formatv("a {0}x{1}x{2} dot is not tiled by {3}x{4}x{5}", shape.m,
                      shape.n, shape.k, instr.m, instr.n, instr.k));
  WarpGrid warps = chooseMmaWarps(shape.m, shape.n, shape.numWarps);
  MatrixLayouts layouts;
  layouts.acc = mmaAccumulatorLayout(shape.m, shape.n, warps);
  layouts.a = mmaOperandLayout(0, shape.m, shape.k, warps, bits);
  layouts.b = mmaOperandLayout(1, shape.k, shape.n, warps, bits);
  return layouts;
}
