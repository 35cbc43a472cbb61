//===- Pipeline.h - The AMDGPU backend's stages -----------------*- C++ -*-===//
#ifndef TESSERA_BACKENDS_AMDGPU_PIPELINE_H
#define TESSERA_BACKENDS_AMDGPU_PIPELINE_H

#include "Target.h"

#include "tessera/Backend/Backend.h"
#include "tessera/Pipeline/Pipeline.h"

#include "mlir/IR/DialectRegistry.h"
#include "llvm/Support/Error.h"

namespace mlir::tessera::amdgpu {

/// Adds the backend's stages (ending in "lower-to-llvm") to `pipeline`:
/// instructions chosen by `target.arch`, limits (matrix instructions, shared
/// memory) read from `target`, the description the host passes (a present
/// device's refined one).
llvm::Error addStages(Pipeline &pipeline, const TargetDescription &target,
                      const CompileOptions &options);

/// Registers the dialects the stages create.
void registerAMDGPUDialects(DialectRegistry &registry);

} // namespace mlir::tessera::amdgpu

#endif // TESSERA_BACKENDS_AMDGPU_PIPELINE_H
