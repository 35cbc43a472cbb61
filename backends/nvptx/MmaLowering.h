//===- MmaLowering.h - Dots on mma.sync ---------------------------*- C++
//-*-===//
#ifndef TESSERA_BACKENDS_NVPTX_MMALOWERING_H
#define TESSERA_BACKENDS_NVPTX_MMALOWERING_H

#include "Target.h"

#include "tessera/Conversion/LoweringHooks.h"

namespace mlir::tessera::nvptx {

/// Lowers a dot that accelerate-dot gave mma.sync layouts to one
/// `mma.sync.aligned` per 16 x 8 x K tile of each warp. Declines (failure
/// without a diagnostic) dots that carry no mma.sync instruction or whose
/// layouts are not the instruction's.
FailureOr<SmallVector<Value>> lowerMmaDot(OpBuilder &b, Location loc,
                                          const DotOperands &operands,
                                          const Arch &arch);

/// Reads a tile of 16-bit elements from shared memory into a layout whose
/// register pairs form 8 x 8 matrices spread over the lanes as `ldmatrix`
/// spreads them (lane l holding row l / 4, columns 2 (l % 4) and one more;
/// or, transposed, those columns and rows): the mma.sync operand layouts.
/// One `ldmatrix.sync.aligned.m8n8.x4` (`.trans`) loads four such matrices.
/// Declines other layouts and element types.
FailureOr<SmallVector<Value>> loadMatrixTile(OpBuilder &b, Location loc,
                                             const SharedTile &tile);

} // namespace mlir::tessera::nvptx

#endif // TESSERA_BACKENDS_NVPTX_MMALOWERING_H
