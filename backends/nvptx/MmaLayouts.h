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

#include "tessera/Layout/LayoutConversions.h"
#include "tessera/Layout/LinearLayout.h"
#include "tessera/Transforms/AccelerateDot.h"

#include <optional>

namespace mlir::tessera::nvptx {

/// The dot being lowered when accelerate-dot gave it an instruction whose
/// name starts with `prefix` ("mma.sync", "wgmma"), else null.
DotOp matchMatrixDot(Operation *op, llvm::StringRef prefix);

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

/// Warpgroups (four consecutive warps) of a CTA along M and N for a wgmma
/// dot; each warpgroup computes an (M / m) x (N / n) part with m64nNk16
/// instructions, N / n at most 256.
struct WarpgroupGrid {
  unsigned m = 1, n = 1;
};

/// How `numWarps` / 4 warpgroups tile an M x N result: along M while each
/// keeps 64 rows at least, then along N; nullopt when they cannot.
std::optional<WarpgroupGrid> chooseWgmmaGroups(int64_t m, int64_t n,
                                               unsigned numWarps);

/// The accumulator layout of a wgmma dot: warp w of a warpgroup owns rows
/// 16 (w % 4) .. +15 of each 64-row instruction, lane l rows l/4 and
/// l/4 + 8 and columns 2(l%4), 2(l%4) + 1 of every 8 columns.
LinearLayout wgmmaAccumulatorLayout(int64_t m, int64_t n, WarpgroupGrid groups);

/// The layout of A (M x K, 16-bit) when wgmma reads it from registers: the
/// mma.sync A fragment of each warp's 16 rows, K steps of 16 in registers.
LinearLayout wgmmaOperandALayout(int64_t m, int64_t k, WarpgroupGrid groups);

/// A layout for B (K x N), which wgmma reads from shared memory only: rows
/// spread over the threads, eight consecutive columns per thread. It is the
/// layout the operand is written to shared memory from when no pipelining
/// put it there.
LinearLayout wgmmaOperandBLayout(int64_t k, int64_t n, unsigned numWarps);

/// The nvptx plugin's MatrixLayoutProvider: wgmma layouts for 16-bit
/// operands with fp32 accumulators on sm_90a (other wgmma types are
/// declined, so mma.sync takes them), mma.sync layouts otherwise.
class MmaLayoutProvider : public MatrixLayoutProvider {
public:
  llvm::Expected<MatrixLayouts>
  getLayouts(const MatrixInstruction &instr,
             const DotShape &shape) const override;
};

} // namespace mlir::tessera::nvptx

#endif // TESSERA_BACKENDS_NVPTX_MMALAYOUTS_H
