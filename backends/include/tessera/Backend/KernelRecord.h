//===- KernelRecord.h - Launch facts from stages to host --------*- C++ -*-===//
//
// What a launch needs to know of a compiled kernel (its parameters in
// Triton's signature spelling, the shared memory its lowering planned, the
// facts a plugin's stages found) is known in the pipeline and gone by the
// time LLVM IR exists. Stages record it as attributes of the lowered
// kernel; after the pipeline the host reads them into the CompiledKernel
// skeleton (buildCompiledKernel) that the plugin's emitter completes with
// its binary. One mechanism for every plugin: none carries these facts
// through LLVM metadata or passthrough attributes of its own.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_BACKEND_KERNELRECORD_H
#define TESSERA_BACKEND_KERNELRECORD_H

#include "tessera/Backend/Backend.h"
#include "tessera/Conversion/TesseraGPUToLLVM.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Pass/Pass.h"

#include <memory>

namespace mlir::tessera {

/// Function attributes the record-signature pass leaves on each kernel: its
/// launch parameters' signature type names ("*fp32", "i32") and names.
inline constexpr llvm::StringLiteral kSignatureTypesAttrName =
    "tessera.signature_types";
inline constexpr llvm::StringLiteral kSignatureNamesAttrName =
    "tessera.signature_names";

/// Dictionary attribute of a kernel whose entries (a string, or an array of
/// strings joined by newlines) become CompiledKernel::metadata: facts a
/// plugin's stages found that its driver reads at launch (nvptx's tensor-map
/// recipes, for one).
inline constexpr llvm::StringLiteral kKernelMetadataAttrName =
    "tessera.kernel_metadata";

/// String attribute of a function a plugin made to launch kernel `<value>`
/// (an entry wrapper with the launch's calling convention): the compiled
/// kernel is that function, and it carries the kernel's signature record.
inline constexpr llvm::StringLiteral kEntryOfAttrName = "tessera.entry_of";

/// Adds `value` (a string, or an array of strings) under `key` to `kernel`'s
/// kKernelMetadataAttrName dictionary, replacing an entry of that key.
void setKernelMetadata(Operation *kernel, llvm::StringRef key, Attribute value);

/// The pass every plugin runs first in its "lower-to-llvm" stage, over a
/// `tessera` / `tessera_gpu` module: it records each kernel's parameters as
/// kSignatureTypesAttrName and kSignatureNamesAttrName, which the lowering
/// keeps on the lowered function; hidden parameters (tensor maps, those
/// marked kHiddenArgAttrName) are left out. A parameter a launch cannot pass is
/// an error naming it and `target` ("an NVIDIA GPU").
std::unique_ptr<Pass> createRecordSignaturePass(llvm::StringRef target);

/// What the record-signature pass does to one kernel, for a plugin whose
/// own pass prepares kernels (and must see the record first).
LogicalResult recordKernelSignature(FunctionOpInterface kernel,
                                    llvm::StringRef target);

/// Argument attribute naming a kernel parameter (the Python name); the
/// record uses `argN` where it is absent.
inline constexpr llvm::StringLiteral kArgNameAttrName = "tessera.name";

/// Unit argument attribute of a parameter a plugin added that its driver
/// passes itself (scratch memory, say): the record leaves it out, as it
/// does tensor maps.
inline constexpr llvm::StringLiteral kHiddenArgAttrName = "tessera.hidden";

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

/// The passes of a GPU plugin's "lower-to-llvm" stage: the signature record
/// (naming `launchTarget`, "an NVIDIA GPU", in errors), the elements-per-
/// thread check, the core's shared lowering with `hooks` (shared memory in
/// `sharedAddressSpace`, accesses as wide as `options` allows), and the
/// check of the planned shared memory against `target`'s limit. A plugin
/// adds its own passes after them.
void addGPULowerToLLVMPasses(OpPassManager &pm, llvm::StringRef launchTarget,
                             std::shared_ptr<LoweringHooks> hooks,
                             const PipelineOptions &options,
                             const TargetDescription &target,
                             unsigned sharedAddressSpace = 3);

/// The CompiledKernel of kernel `kernelName` as far as the lowered `module`
/// (after the pipeline) tells: backend, architecture, the symbol to launch
/// (the kernel, or its kEntryOfAttrName wrapper), parameters, the launch
/// shape of `options` with `target`'s warp size, the planned shared memory
/// (kSharedMemoryAttrName), and metadata (`kernel`: the kernel's name, then
/// the kKernelMetadataAttrName entries). The emitter adds format, binary and
/// what its assembler reports. Fails, naming the kernel, when no function
/// of the module carries its signature record.
llvm::Expected<CompiledKernel>
buildCompiledKernel(ModuleOp module, llvm::StringRef kernelName,
                    const TargetDescription &target,
                    const CompileOptions &options);

} // namespace mlir::tessera

#endif // TESSERA_BACKEND_KERNELRECORD_H
