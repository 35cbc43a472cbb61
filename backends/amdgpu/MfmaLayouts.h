//===- MfmaLayouts.h - The layouts of MFMA as LinearLayouts -----*- C++ -*-===//
//
// The register layouts of CDNA's matrix fused multiply-add instructions
// (v_mfma_*_32x32xK and v_mfma_*_16x16xK, one block per wavefront) written
// as LinearLayouts over a whole dot: warps (wavefronts) tiled over M and N,
// the rest of the tensor in further registers. The accelerate-dot stage
// asks for them through MfmaLayoutProvider; MfmaLowering.cpp reads the
// operand and accumulator registers back from the same layouts.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_BACKENDS_AMDGPU_MFMALAYOUTS_H
#define TESSERA_BACKENDS_AMDGPU_MFMALAYOUTS_H

#include "tessera/Layout/LinearLayout.h"
#include "tessera/Transforms/AccelerateDot.h"

namespace mlir::tessera::amdgpu {

/// Wavefronts of a workgroup along M and N.
struct WaveGrid {
  unsigned m = 1, n = 1;
};

/// How `numWarps` wavefronts tile an M x N result with `size` x `size`
/// blocks: doubling, each time, the side with more blocks per wavefront
/// left; wavefronts beyond the blocks hold copies.
WaveGrid chooseMfmaWaves(int64_t m, int64_t n, unsigned size,
                         unsigned numWarps);

/// Consecutive K elements each lane holds of an operand of a `size` x
/// `size` x `k` instruction (k * size / 64: the 64 lanes split K into
/// 64 / size groups).
unsigned getMfmaKWidth(unsigned size, unsigned k);

/// The accumulator (and result) layout of an M x N dot on `size` x `size`
/// blocks (32 or 16). Lane l holds column l % size; for 32: register i of a
/// block holds row 8 (i / 4) + 4 (l / 32) + i % 4 (16 registers); for 16:
/// row 4 (l / 16) + i (4 registers).
LinearLayout mfmaAccumulatorLayout(int64_t m, int64_t n, unsigned size,
                                   WaveGrid waves);

/// The layout of operand `opIdx` (0: A, M x K; 1: B, K x N) of a `size` x
/// `size` x `k` instruction: lane l holds row (A) or column (B) l % size and
/// the `kWidth` consecutive K elements from kWidth (l / size).
LinearLayout mfmaOperandLayout(unsigned opIdx, int64_t rows, int64_t cols,
                               unsigned size, unsigned k, WaveGrid waves);

/// The amdgpu plugin's MatrixLayoutProvider: MFMA layouts for the 32x32 and
/// 16x16 instructions of the target's table.
class MfmaLayoutProvider : public MatrixLayoutProvider {
public:
  llvm::Expected<MatrixLayouts>
  getLayouts(const MatrixInstruction &instr,
             const DotShape &shape) const override;
};

} // namespace mlir::tessera::amdgpu

#endif // TESSERA_BACKENDS_AMDGPU_MFMALAYOUTS_H
