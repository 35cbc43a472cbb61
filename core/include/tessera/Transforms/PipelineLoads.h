//===- PipelineLoads.h - Software pipelining of a loop's loads -*- C++ -*-===//
//
// Loads inside a loop whose values feed a dot are started `stages - 1`
// iterations ahead as asynchronous copies into a ring of shared-memory
// buffers; each iteration waits for its own tile, reads it in the dot's
// operand layout, computes, and starts the copy for a later iteration. The pass
// is vendor-free: the copies lower through the target's async-copy hooks
// (synchronously where it has none). Blocks a loop copies through tensor maps
// (async_tensor_load, wait_barrier) get rings of buffers and barriers the
// same way, waited for by the parity of the barriers' phases.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_TRANSFORMS_PIPELINELOADS_H
#define TESSERA_TRANSFORMS_PIPELINELOADS_H

#include "tessera/Dialect/TesseraGPU/IR/SharedMemoryPlan.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Pass/Pass.h"
#include "llvm/ADT/STLFunctionalExtras.h"

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

/// The discardable unit attribute of an scf.for whose iterations may
/// overlap (from `tl.range(..., flatten=True)`): the pass may start the
/// copies of its next iteration's inner loop while this one's ends.
constexpr llvm::StringLiteral kFlattenAttrName = "tessera.flatten";

/// The discardable attribute (i32 n >= 1) the pass sets on a loop whose
/// dots may run n iterations behind: each thread's dots of iteration i + n
/// must have waited for those of iteration i, and a slot those read is
/// written again only after a block synchronization that follows (at the
/// top of iteration i + n + 1 for the rings of copies the threads issue,
/// which hold n slots more than the copies need; after the dots of
/// iteration i + n for rings of tensor-map copies, n - 1 more).
constexpr llvm::StringLiteral kDotsInFlightAttrName =
    "tessera_gpu.dots_in_flight";

/// True when `dot`, in the body of `loop`, carries an accumulator from one
/// iteration to the next and nothing else reads it there: its C is a
/// carried value only it uses, and its result is only yielded, in C's
/// place. Such a dot may still run while the next iteration starts.
bool isLoopAccumulatorDot(Operation *dot, scf::ForOp loop);

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
  /// Hook: true for a layout conversion of the module (as it is before and
  /// while rings are sized) that the target's later stages drop, e.g. one
  /// into a dot operand the matrix unit reads in place from the buffer it
  /// was just loaded from: its scratch space is not counted against
  /// `sharedMemoryBytes`. Unset: every conversion takes its whole tile.
  std::function<bool(Operation *op)> laterDroppedConversion;
  /// Iterations a target's dots may go on running after their own (an
  /// asynchronous matrix unit; 0: dots finish in their iteration). A loop
  /// with an accumulator dot (isLoopAccumulatorDot) gets that many more
  /// slots in its rings, fewer stages where they would not fit otherwise
  /// (two at least; else no extra slots), and kDotsInFlightAttrName.
  int dotsInFlight = 0;
  /// The fewest bytes one thread's access of a pipelined load may move: a
  /// load whose accesses are narrower (elements not known to be aligned, so
  /// copied one by one) stays where it is. Its copies could not be
  /// asynchronous on a target whose smallest asynchronous copy is this
  /// wide, so a ring would only repeat every element copy stages - 1 more
  /// times in the code (Triton's pipeliner leaves such loads alone too). 0:
  /// every width is pipelined.
  unsigned minCopyBytes = 0;
};

/// Shared memory `root` holds as the lowering will plan it
/// (SharedMemoryPlan.h): its buffers but the `replaced` ones, `planned`
/// ones besides, and the scratch space, where a layout conversion takes at
/// least its whole tile (a bound that holds whatever layouts later stages
/// give it) unless `laterDropped` says later stages drop it.
uint64_t estimateSharedMemoryBytes(
    Operation *root, ArrayRef<gpu::PlannedBuffer> planned = {},
    ArrayRef<Operation *> replaced = {},
    llvm::function_ref<bool(Operation *)> laterDropped = {});

/// The pipeline-loads pass over laid-out (tessera_gpu) IR.
std::unique_ptr<Pass> createPipelineLoadsPass(PipelineLoadsOptions options);

/// Registers `tessera-pipeline-loads` (options `num-stages`,
/// `shared-memory`, `dots-in-flight` and `reserved-shared-memory`: a
/// constant in place of the `laterSharedMemoryBytes` hook) with
/// tessera-opt.
void registerPipelineLoadsPass();

} // namespace mlir::tessera

#endif // TESSERA_TRANSFORMS_PIPELINELOADS_H
