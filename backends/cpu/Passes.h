//===- Passes.h - Passes and stages of the CPU backend ----------*- C++ -*-===//
#ifndef TESSERA_BACKENDS_CPU_PASSES_H
#define TESSERA_BACKENDS_CPU_PASSES_H

#include "tessera/Pipeline/Pipeline.h"

#include "mlir/Pass/Pass.h"
#include "llvm/Support/Error.h"

#include <memory>

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace mlir::tessera::cpu {

/// tessera / tessera_gpu on tensors -> linalg, tensor, scf and LLVM memory
/// operations on i64 addresses; kernels take the grid as trailing arguments
/// and get an entry wrapper (`<kernel>_cpu_entry`) with the launch ABI.
std::unique_ptr<Pass> createToStructuredPass();

/// Loops that advance a block of pointers by the same offset every
/// iteration carry the summed offset (an i64) instead of the block, which
/// is rebuilt where used (CarryPointerOffsets.cpp); runs on tessera IR.
std::unique_ptr<Pass> createCarryPointerOffsetsPass();

/// Folds linalg.fill operands of elementwise generics into scalars and
/// fuses each elementwise generic into its only elementwise user, so that a
/// chain of N block ops is one loop rather than N loops and N buffers
/// (whose bufferization and scheduling took time quadratic in N).
std::unique_ptr<Pass> createFuseElementwisePass();

/// Fuses consecutive loops over a block's elements where legal (same
/// bounds; buffers shared at the induction variable only; no global write
/// before a global access), forwards stored elements to later loads and
/// removes buffers nothing reads (FuseLoops.cpp).
std::unique_ptr<Pass> createFuseLoopsPass();

/// Rewrites dots on buffers (the generic `tessera.dot` lowers to) into
/// register-blocked SIMD micro-kernels for vector registers of `vectorBits`
/// of which there are `registers`, and with `amxBf16` those whose operands
/// bf16 holds exactly into AMX tile operations (VectorizeDots.cpp); the
/// parameterless form takes them from the pass options (tessera-cpu-opt).
std::unique_ptr<Pass> createVectorizeDotsPass(unsigned vectorBits,
                                              unsigned registers, bool amxBf16);
std::unique_ptr<Pass> createVectorizeDotsPass();

/// Lowers fp8 arithmetic and conversions and math functions without LLVM
/// support to f32 arithmetic and runtime or libm calls.
std::unique_ptr<Pass> createLegalizeFloatsPass();

/// Everything left (arith, math, cf, func, memref, index, ub) -> the LLVM
/// dialect; kernels become internal and always inlined into their entry.
std::unique_ptr<Pass> createCpuConvertToLLVMPass();

/// Adds the CPU stages to `pipeline` (the core pipeline on entry):
/// cpu-to-structured, cpu-bufferize, cpu-to-loops and lower-to-llvm.
llvm::Error addCpuStages(Pipeline &pipeline);

/// The CPU stages on their own (for tessera-cpu-opt and tests).
Pipeline buildCpuStages();

/// Registers the dialects and interfaces the CPU stages create.
void registerCpuDialects(DialectRegistry &registry);

/// Registers the CPU passes and the `tessera-cpu` pipeline (core stages
/// then CPU stages, with start/stop/dump options) with MLIR's registry.
void registerCpuPasses();

} // namespace mlir::tessera::cpu

#endif // TESSERA_BACKENDS_CPU_PASSES_H
