//===- MmaLayouts.h - The layouts of mma.sync as LinearLayouts --*- C++ -*-===//
//
// The register fragments of PTX's warp-level `mma.sync.aligned.m16n8kK`
// (A row-major, B column-major), written as LinearLayouts over a whole dot:
// one instruction tile per warp, warps tiled over M and N, and the rest of
// the tensor in further registers. The accelerate-dot stage asks for them
// through MmaLayoutProvider; the dot lowering reads the fragments back from
// the same layouts.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_BACKENDS_NVPTX_MMALAYOUTS_H
#define TESSERA_BACKENDS_NVPTX_MMALAYOUTS_H

#include "tessera/Layout/LinearLayout.h"
#include "tessera/Transforms/AccelerateDot.h"

namespace mlir::tessera::nvptx {

/// Warps of a CTA along M and N.
struct WarpGrid {
  unsigned m = 1, n = 1;
};

/// How `numWarps` warps tile an M x N result with 16 x 8 instruction tiles:
/// doubling, each time, the side with more tiles per warp left.
WarpGrid chooseMmaWarps(int64_t m, int64_t n, unsigned numWarps);

/// The accumulator (and result) layout of an M x N dot: each warp owns
/// 16 x 8 tiles, lane l holding rows l/4 and l/4 + 8 and columns 2(l%4) and
/// 2(l%4) + 1 of each.
LinearLayout mmaAccumulatorLayout(int64_t m, int64_t n, WarpGrid warps);

/// The layout of operand `opIdx` (0: A, M x K; 1: B, K x N) of elements of
/// `elementBits` bits (32: tf32, 16, 8): each 32-bit fragment register packs
/// 32 / elementBits consecutive K elements.
LinearLayout mmaOperandLayout(unsigned opIdx, int64_t rows, int64_t cols,
                              WarpGrid warps, unsigned elementBits);

/// Operand element width of an instruction type name ("fp16" -> 16); 0 when
/// mma.sync takes no such operand.
unsigned getMmaOperandBits(llvm::StringRef dtype);

/// The nvptx plugin's MatrixLayoutProvider: mma.sync layouts; declines
/// wgmma, which the lowering does not emit yet.
class MmaLayoutProvider : public MatrixLayoutProvider {
public:
  llvm::Expected<MatrixLayouts>
  getLayouts(const MatrixInstruction &instr,
             const DotShape &shape) const override;
};

} // namespace mlir::tessera::nvptx

#endif // TESSERA_BACKENDS_NVPTX_MMALAYOUTS_H
