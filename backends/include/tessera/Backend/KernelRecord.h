//===- KernelRecord.h - A GPU kernel's launch facts through LLVM -*- C++
//-*-===//
//
// A GPU plugin lowers a kernel to the LLVM dialect, translates it to LLVM
// IR and only then emits the binary; by then the parameter types Triton's
// signature spells are gone. The record-signature pass writes them on the
// kernel before the lowering, and recordKernels() carries them (with the
// planned shared memory and any plugin-specific text) through LLVM named
// metadata to the emitter, which builds the CompiledKernel from them.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_BACKEND_KERNELRECORD_H
#define TESSERA_BACKEND_KERNELRECORD_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace llvm {
class Module;
} // namespace llvm

namespace mlir::tessera {

/// Function attributes the record-signature pass leaves on each kernel: its
/// launch parameters' signature type names ("*fp32", "i32") and names.
inline constexpr llvm::StringLiteral kSignatureTypesAttrName =
    "tessera.signature_types";
inline constexpr llvm::StringLiteral kSignatureNamesAttrName =
    "tessera.signature_names";

/// The pass over a `tessera` / `tessera_gpu` module (before the lowering to
/// LLVM) that records each kernel's parameters; hidden parameters (tensor
/// maps) are left out. A parameter a launch cannot pass is an error naming
/// it and `target` ("an NVIDIA GPU").
std::unique_ptr<Pass> createRecordSignaturePass(llvm::StringRef target);

/// The pass over a lowered module (LLVM dialect) that refuses a kernel whose
/// planned shared memory exceeds `limit` bytes, what one block of `arch` may
/// have: a compile error at the kernel's definition naming both figures,
/// which autotuning skips like any config that does not compile, rather
/// than a launch failure.
std::unique_ptr<Pass> createCheckSharedMemoryPass(uint64_t limit,
                                                  llvm::StringRef arch);

/// The most elements of one tensor a thread may hold: eight times what the
/// largest tensor of a tutorial kernel puts in a thread (layer norm's
/// block, 128), and what Triton's own tests ask of one warp (a 32x32x32
/// block). The lowering gives every element its own value in the thread,
/// and LLVM's optimizer takes time quadratic in the straight-line code
/// that makes (nvptx, a 16-op chain over 4 warps, this machine: 1024 per
/// thread 6.3 s, 2048 33 s; a legal 2^20-element block minutes).
inline constexpr unsigned kMaxElementsPerThread = 1024;

/// How many times kMaxElementsPerThread the operands of a multiply-add dot
/// may hold: Triton's FMA layout repeats a thread's rows along K, so a
/// 64x64 fp32 operand over 4 warps is 2048 and real kernels' 128x64 ones
/// 8192. Measured on nvptx here: 64x64x64 1.3 s, 128x64x64 4.6 s,
/// 128x128x64 13 s (1.5 GB); 128x128x128 (16384) stays refused.
inline constexpr unsigned kDotOperandAllowance = 8;

/// The pass over a laid-out module (tessera_gpu, before the lowering to
/// LLVM) that refuses a tensor putting more than `limit` elements in one
/// thread: a compile error at the op that makes it, naming both figures,
/// which autotuning skips like any config that does not compile, instead
/// of a compilation that runs for minutes.
std::unique_ptr<Pass> createCheckElementsPerThreadPass(unsigned limit);

/// What the emitter needs to know of one kernel.
struct KernelRecord {
  std::string name;
  std::vector<std::string> types, names;
  uint64_t sharedMemory = 0;
  /// The plugin's own text (lines of the string array attribute named at
  /// recording).
  std::string extra;
};

/// Records every kernel of `module` (LLVM dialect, after the lowering) in
/// `llvmModule`'s named metadata: its signature, the module's planned
/// shared memory and, when `extraAttrName` is given, the lines of that
/// string array attribute of the kernel.
void recordKernels(ModuleOp module, llvm::Module &llvmModule,
                   llvm::StringRef extraAttrName = "");

/// The record of kernel `name` in `llvmModule`, if recordKernels() wrote one.
std::optional<KernelRecord> findKernelRecord(const llvm::Module &llvmModule,
                                             llvm::StringRef name);

} // namespace mlir::tessera

#endif // TESSERA_BACKEND_KERNELRECORD_H
