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

} // namespace mlir::tessera::nvptx

#endif // TESSERA_BACKENDS_NVPTX_MMALOWERING_H
