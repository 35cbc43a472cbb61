//===- Pipeline.h - The NVPTX backend's stages ------------------*- C++ -*-===//
#ifndef TESSERA_BACKENDS_NVPTX_PIPELINE_H
#define TESSERA_BACKENDS_NVPTX_PIPELINE_H

#include "Target.h"

#include "tessera/Backend/Backend.h"
#include "tessera/Pipeline/Pipeline.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Pass/Pass.h"
#include "llvm/Support/Error.h"

namespace mlir::tessera::nvptx {

/// The stage that puts wgmma's B operands in shared buffers (sm_90a).
inline constexpr llvm::StringLiteral kPrepareWgmmaStage = "prepare-wgmma";

/// Adds the backend's stages (ending in "lower-to-llvm") to `pipeline`:
/// instructions chosen by `target.arch`, limits (matrix instructions, shared
/// memory) read from `target`, the description the host passes (a present
/// device's refined one).
llvm::Error addStages(Pipeline &pipeline, const TargetDescription &target,
                      const CompileOptions &options);

/// Moves each ldmatrix (and the pure operations around it) down to its
/// first use, never past a memory write or synchronization
/// (SinkMatrixLoads.cpp).
std::unique_ptr<Pass> createSinkMatrixLoadsPass();

/// Registers the dialects the stages create.
void registerNVPTXDialects(DialectRegistry &registry);

} // namespace mlir::tessera::nvptx

#endif // TESSERA_BACKENDS_NVPTX_PIPELINE_H
