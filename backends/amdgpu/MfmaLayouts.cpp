//===- MfmaLayouts.cpp - The layouts of MFMA as LinearLayouts -------------===//
//
// From the CDNA3 ISA guide's matrix layouts (section "Dependent arithmetic
// and matrix layouts"): a wavefront's 64 lanes cover the block's columns
// (B, accumulator) or rows (A) with their low bits, and the K groups (A, B)
// or the row groups (accumulator) with the rest. As LinearLayouts the bits
// of the K run a lane holds (kWidth elements packed in its VGPRs) and the
// accumulator's row bits within a group of 4 are register bases.
//
//===----------------------------------------------------------------------===//
#include "MfmaLayouts.h"

#include "tessera/Layout/LayoutConversions.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tessera;
using namespace mlir::tessera::amdgpu;

namespace {

using Basis = LinearLayout::Basis;

llvm::Error decline(const llvm::Twine &why) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), why);
}

} // namespace

WaveGrid amdgpu::chooseMfmaWaves(int64_t m, int64_t n, unsigned size,
                                 unsigned numWarps) {
  WaveGrid grid;
  while (grid.m * grid.n < numWarps) {
    int64_t blocksM = m / (size * grid.m), blocksN = n / (size * grid.n);
    if (blocksM >= blocksN && blocksM > 1)
      grid.m *= 2;
    else if (blocksN > 1)
      grid.n *= 2;
    else
      grid.m *= 2;
  }
  return grid;
}

unsigned amdgpu::getMfmaKWidth(unsigned size, unsigned k) {
  return k * size / 64;
}

LinearLayout amdgpu::mfmaAccumulatorLayout(int64_t m, int64_t n, unsigned size,
                                           WaveGrid waves) {
  int32_t s = int32_t(size);
  SmallVector<Basis> regs = {{1, 0}, {2, 0}};
  SmallVector<Basis> lanes;
  for (int32_t col = 1; col < s; col *= 2)
    lanes.push_back({0, col});
  if (size == 32) {
    regs.append({{8, 0}, {16, 0}});
    lanes.push_back({4, 0});
  } else {
    lanes.append({{4, 0}, {8, 0}});
  }
  return tileMatrixLayout(regs, lanes, getWarpGridBases(waves.m, waves.n, s, s),
                          {m, n}, {1, 0});
}

LinearLayout amdgpu::mfmaOperandLayout(unsigned opIdx, int64_t rows,
                                       int64_t cols, unsigned size, unsigned k,
                                       WaveGrid waves) {
  int32_t s = int32_t(size);
  int32_t kWidth = int32_t(getMfmaKWidth(size, k));
  // Built as A (M x K); B's bases are the same with the coordinates swapped.
  SmallVector<Basis> regs, lanes;
  for (int32_t i = 1; i < kWidth; i *= 2)
    regs.push_back({0, i});
  for (int32_t row = 1; row < s; row *= 2)
    lanes.push_back({row, 0});
  for (int32_t group = kWidth; group < int32_t(k); group *= 2)
    lanes.push_back({0, group});
  SmallVector<Basis> waveBasesA = getWarpGridBases(waves.m, waves.n, s, 0);
  if (opIdx == 0)
    return tileMatrixLayout(regs, lanes, waveBasesA, {rows, cols}, {1, 0});
  auto swap = [](SmallVector<Basis> bases) {
    for (Basis &basis : bases)
      std::swap(basis[0], basis[1]);
    return bases;
  };
  return tileMatrixLayout(swap(regs), swap(lanes),
                          getWarpGridBases(waves.m, waves.n, 0, s),
                          {rows, cols}, {0, 1});
}

llvm::Expected<MatrixLayouts>
MfmaLayoutProvider::getLayouts(const MatrixInstruction &instr,
                               const DotShape &shape) const {
  if (!llvm::StringRef(instr.name).starts_with("mfma."))
    return decline("the amdgpu lowering does not emit " + instr.name);
  if (instr.m != instr.n || (instr.m != 32 && instr.m != 16) ||
      getMfmaKWidth(instr.m, instr.k) == 0)
    return decline(llvm::formatv("no MFMA layout for {0}x{1}x{2} blocks",
                                 instr.m, instr.n, instr.k));
  if (shape.threadsPerWarp != 64)
    return decline("MFMA needs 64-lane wavefronts");
  if (shape.m < instr.m || shape.n < instr.n || shape.k < instr.k ||
      shape.k % instr.k != 0 || !llvm::isPowerOf2_64(shape.m) ||
      !llvm::isPowerOf2_64(shape.n) || !llvm::isPowerOf2_64(shape.k))
    return decline(
        llvm::formatv("a {0}x{1}x{2} dot is not tiled by {3}x{4}x{5}", shape.m,
                      shape.n, shape.k, instr.m, instr.n, instr.k));
  WaveGrid waves = chooseMfmaWaves(shape.m, shape.n, instr.m, shape.numWarps);
  MatrixLayouts layouts;
  layouts.acc = mfmaAccumulatorLayout(shape.m, shape.n, instr.m, waves);
  layouts.a = mfmaOperandLayout(0, shape.m, shape.k, instr.m, instr.k, waves);
  layouts.b = mfmaOperandLayout(1, shape.k, shape.n, instr.m, instr.k, waves);
  return layouts;
}
