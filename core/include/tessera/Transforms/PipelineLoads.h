//===- PipelineLoads.h - Software pipelining of a loop's loads -*- C++ -*-===//
//
// Loads inside a loop whose values feed a dot are started `stages - 1`
// iterations ahead as asynchronous copies into a ring of shared-memory
// buffers; each iteration waits for its own tile, reads it in the dot's
// operand layout, computes, and starts the copy for a later iteration. The pass
// is vendor-free: the copies lower through the target's async-copy hooks
// (synchronously where it has none). Blocks a loop copies through tensor maps
// (async_tensor_load, wait_barrier) get rings of buffers and barriers the
// same way, their arrival tokens carried by the loop.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_TRANSFORMS_PIPELINELOADS_H
#define TESSERA_TRANSFORMS_PIPELINELOADS_H

#include "mlir/Pass/Pass.h"

#include <cstdint>
#include <functional>
#include <memory>

namespace mlir::tessera {

/// The name of the pipeline stage that runs the pass; targets with
/// asynchronous copies add it after the core's cleanup.
constexpr llvm::StringLiteral kPipelineLoadsStage = "pipeline-loads";

/// The discardable attribute of an scf.for giving its own stage count (from
/// `tl.range(..., num_stages=N)`); it overrides the kernel's.
constexpr llvm::StringLiteral kNumStagesAttrName = "tessera.num_stages";

/// What the pass is parameterized by.
struct PipelineLoadsOptions {
  /// Stages of loops without their own count (the kernel's num_stages); a
  /// loop of fewer than two stages is left alone.
  int numStages = 3;
  /// Shared memory a block may use, in bytes; deeper rings that would not
  /// fit (with the buffers already there and the largest layout conversion)
  /// get fewer stages. 0: no limit.
  uint64_t sharedMemoryBytes = 0;
  /// Hook: bytes of shared memory the target's later stages will add to the
  /// module as it is now (operands a matrix unit must read from buffers of
  /// their own, say), counted against `sharedMemoryBytes` before any ring
  /// is sized. Called once per run of the pass, before the first loop is
  /// pipelined. Unset: nothing is added.
  std::function<uint64_t(Operation *module)> laterSharedMemoryBytes;
};

/// Shared memory `root` holds: its buffers (aligned as the lowering places
/// them) and the largest layout conversion (a bound on the scratch the
/// lowering adds).
uint64_t estimateSharedMemoryBytes(Operation *root);

/// The pipeline-loads pass over laid-out (tessera_gpu) IR.
std::unique_ptr<Pass> createPipelineLoadsPass(PipelineLoadsOptions options);

/// Registers `tessera-pipeline-loads` (options `num-stages`,
/// `shared-memory`, and `reserved-shared-memory`: a constant in place of the
/// `laterSharedMemoryBytes` hook) with tessera-opt.
void registerPipelineLoadsPass();

} // namespace mlir::tessera

#endif // TESSERA_TRANSFORMS_PIPELINELOADS_H
