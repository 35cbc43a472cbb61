//===- Hooks.h - The AMDGPU target's lowering hooks -------------*- C++ -*-===//
#ifndef TESSERA_BACKENDS_AMDGPU_HOOKS_H
#define TESSERA_BACKENDS_AMDGPU_HOOKS_H

#include "Target.h"

#include "tessera/Conversion/LoweringHooks.h"

#include <memory>

namespace mlir::tessera::amdgpu {

/// The hooks the core's shared lowering calls for CDNA GPUs: ROCDL indices,
/// workgroup barriers with LDS fences, DPP / ds_swizzle / ds_bpermute
/// exchanges and reductions, MFMA dots, ocml math, HIP's printf and assert.
std::shared_ptr<LoweringHooks> createLoweringHooks(const Arch &arch);

} // namespace mlir::tessera::amdgpu

#endif // TESSERA_BACKENDS_AMDGPU_HOOKS_H
