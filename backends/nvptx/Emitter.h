//===- Emitter.h - LLVM-dialect modules to NVVM IR and PTX ------*- C++ -*-===//
//
// The first half of the NVPTX emitter: an MLIR module in the LLVM dialect
// (with NVVM dialect ops) becomes LLVM IR for `nvptx64-nvidia-cuda`, with
// libdevice linked when the module calls it, optimized at O3 for the
// architecture; then PTX text from LLVM's NVPTX code generator. The second
// half, PTX to a loadable binary, is PtxAssembler.h.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_BACKENDS_NVPTX_EMITTER_H
#define TESSERA_BACKENDS_NVPTX_EMITTER_H

#include "Target.h"

#include "tessera/Backend/Backend.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <string>

namespace llvm {
class LLVMContext;
class Module;
class TargetMachine;
} // namespace llvm

namespace mlir::tessera::nvptx {

/// The PTX ISA feature (`+ptx86`) a compilation uses: `extra["ptx-features"]`
/// of `options`, else of `target` when given, else kPtxFeatures.
std::string getPtxFeatures(const CompileOptions &options,
                           const TargetDescription *target = nullptr);

/// LLVM's NVPTX target machine for `arch` with the PTX feature `features`,
/// at O3. Fusing multiplies and adds follows `options.enableFPFusion`.
llvm::Expected<std::unique_ptr<llvm::TargetMachine>>
createTargetMachine(const Arch &arch, llvm::StringRef features,
                    const CompileOptions &options);

/// Translates `module` (LLVM dialect, NVVM ops allowed) into LLVM IR for
/// `target.arch`: NVPTX triple and data layout, libdevice linked (only the
/// functions used, internalized) when the module declares `__nv_*`
/// functions, `nvvm-reflect-ftz` = 0, then the O3 pipeline of the NVPTX
/// target machine. Translation diagnostics go to the MLIR context's
/// handler; the error says which step failed.
llvm::Expected<std::unique_ptr<llvm::Module>>
translateToNVVMIR(ModuleOp module, llvm::LLVMContext &context,
                  const TargetDescription &target,
                  const CompileOptions &options);

/// The PTX of `module` for `arch` ("sm_90a"). The module is not changed.
/// `options.maxNumRegs` is not written into the PTX: the assembler applies
/// it (PtxAssembler.h).
llvm::Expected<std::string> emitPTX(llvm::Module &module, llvm::StringRef arch,
                                    const CompileOptions &options);

/// Completes `kernel` with the cubin of `module` (the PTX assembled by
/// nvJitLink or ptxas, or the PTX itself for the driver's JIT: see
/// PtxAssembler.h) and the registers and spills the assembler reports.
llvm::Error emitBinary(llvm::Module &module, CompiledKernel &kernel,
                       const TargetDescription &target,
                       const CompileOptions &options);

} // namespace mlir::tessera::nvptx

#endif // TESSERA_BACKENDS_NVPTX_EMITTER_H
