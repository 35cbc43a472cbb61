//===- TesseraGPUToLLVM.h - The shared lowering to LLVM ---------*- C++ -*-===//
//
// Lowers a module of laid-out tensors (tessera ops on tensors with
// tessera_gpu encodings, after convert-to-gpu) to MLIR's LLVM dialect for a
// target whose threads run in warps: each thread holds the registers its
// LinearLayout gives it, and the few target-specific pieces come from
// LoweringHooks. GPU plugins put this pass in their "lower-to-llvm" stage.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_CONVERSION_TESSERAGPUTOLLVM_H
#define TESSERA_CONVERSION_TESSERAGPUTOLLVM_H

#include "tessera/Conversion/LoweringHooks.h"

#include "mlir/Pass/Pass.h"

#include <memory>

namespace mlir::tessera {

/// Module attribute the lowering leaves: bytes of shared memory one block
/// needs (buffers plus scratch), which the launch must provide.
inline constexpr llvm::StringLiteral kSharedMemoryAttrName =
    "tessera_gpu.shared_memory";

/// Where the plan-shared-memory pass records the plan (SharedMemoryPlan.h)
/// for the lowering: each local_alloc's byte offset, and on the module the
/// scratch space's offset and size and the end of the buffers.
inline constexpr llvm::StringLiteral kBufferOffsetAttrName =
    "tessera_gpu.offset";
inline constexpr llvm::StringLiteral kSharedPlanAttrName =
    "tessera_gpu.shared_plan";

/// Unit attribute a target's pass puts on a `local_load` whose only user,
/// a dot, will read the buffer itself (DotOperands::aShared / bShared): the
/// lowering then reads nothing and leaves the registers undefined.
inline constexpr llvm::StringLiteral kReadInPlaceAttrName =
    "tessera_gpu.read_in_place";

/// Unit argument attribute the lowering puts on each parameter of a lowered
/// kernel that was a `!tessera_gpu.tensor_map`: the hidden parameters the
/// launch builds on the host, which the target's finalizeKernel passes as
/// it needs (by value in the parameter space, for instance).
inline constexpr llvm::StringLiteral kTensorMapArgAttrName =
    "tessera_gpu.tensor_map";

/// What the shared lowering is parameterized by besides its hooks.
struct GPULoweringOptions {
  /// LLVM address space of shared memory.
  unsigned sharedAddressSpace = 3;
  /// Widest memory access of one thread, in bits.
  unsigned maxVectorBits = 128;
  /// Index bit width of the LLVM dialect (pointer-sized offsets).
  unsigned indexBitwidth = 64;
};

/// The shared lowering as a pass over a module.
/// Expects `scf` already lowered to `cf` (convert-scf-to-cf).
std::unique_ptr<Pass>
createLowerToLLVMPass(std::shared_ptr<LoweringHooks> hooks,
                      GPULoweringOptions options = {});

/// Adds the whole lowering to `pm`: scf to cf, the shared lowering, then
/// the cleanups that leave a module of the LLVM dialect (and whatever
/// dialects the hooks emit).
void buildLowerToLLVMPipeline(OpPassManager &pm,
                              std::shared_ptr<LoweringHooks> hooks,
                              GPULoweringOptions options = {});

/// The pass that plans the module's shared memory while its loops are
/// still structured (the plan then knows which buffers a loop keeps alive)
/// and records it for the lowering (kBufferOffsetAttrName,
/// kSharedPlanAttrName); buildLowerToLLVMPipeline runs it first.
std::unique_ptr<Pass> createPlanSharedMemoryPass();

/// Registers `tessera-plan-shared-memory` with tessera-opt.
void registerPlanSharedMemoryPass();

/// Bytes of shared scratch space the lowering gives `op` (a layout
/// conversion through shared memory, a reduction or scan across warps,
/// ...), 0 for an operation that needs none.
uint64_t getSharedScratchBytes(Operation *op);

/// Registers `tessera-test-lower-to-llvm`, the shared lowering with hooks
/// that spell each target operation as a call to an external function
/// (`tessera_test_<hook>`), and options that make chosen hooks decline; for
/// lit tests of the core without a target.
void registerTestLowerToLLVMPass();

} // namespace mlir::tessera

#endif // TESSERA_CONVERSION_TESSERAGPUTOLLVM_H
