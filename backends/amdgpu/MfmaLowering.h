//===- MfmaLowering.h - Dots on MFMA ----------------------------*- C++ -*-===//
#ifndef TESSERA_BACKENDS_AMDGPU_MFMALOWERING_H
#define TESSERA_BACKENDS_AMDGPU_MFMALOWERING_H

#include "Target.h"

#include "tessera/Conversion/LoweringHooks.h"

namespace mlir::tessera::amdgpu {

/// Lowers a dot that accelerate-dot gave MFMA layouts to one
/// `llvm.amdgcn.mfma.*` per block of each wavefront and K step. Declines
/// (failure without a diagnostic) dots that carry no MFMA instruction or
/// whose layouts are not the instruction's; the core then uses
/// multiply-adds.
FailureOr<SmallVector<Value>> lowerMfmaDot(OpBuilder &b, Location loc,
                                           const DotOperands &operands,
                                           const Arch &arch);

} // namespace mlir::tessera::amdgpu

#endif // TESSERA_BACKENDS_AMDGPU_MFMALOWERING_H
