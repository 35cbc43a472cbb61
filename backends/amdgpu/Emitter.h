//===- Emitter.h - LLVM-dialect modules to HSA code objects -----*- C++ -*-===//
//
// An MLIR module in the LLVM dialect (with ROCDL ops) becomes LLVM IR for
// `amdgcn-amd-amdhsa` with AMD's device libraries (ocml, ockl) linked when
// it calls them, optimized at O3 for the architecture; then an ELF
// relocatable object from LLVM's AMDGPU code generator, linked by lld (in a
// process of its own) into the shared object (HSACO) the HIP runtime loads.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_BACKENDS_AMDGPU_EMITTER_H
#define TESSERA_BACKENDS_AMDGPU_EMITTER_H

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
} // namespace llvm

namespace mlir::tessera::amdgpu {

/// Where AMD's device library bitcode (ocml.bc, ockl.bc) is:
/// TESSERA_ROCM_DEVICE_LIBS when set, else Debian's rocm-device-libs
/// folder, else ROCm's. An error names the places tried.
llvm::Expected<std::string> findDeviceLibraries();

/// Translates `module` (LLVM dialect, ROCDL ops allowed) into LLVM IR for
/// `target.arch`: AMDGPU triple and data layout, code object version 5,
/// ocml/ockl linked (only the functions used, internalized) with the
/// device libraries' control constants defined for the architecture, then
/// the O3 pipeline of the AMDGPU target machine. A math function the
/// device libraries lack is an error naming it.
llvm::Expected<std::unique_ptr<llvm::Module>>
translateToAMDGPUIR(ModuleOp module, llvm::LLVMContext &context,
                    const TargetDescription &target,
                    const CompileOptions &options);

/// The AMDGPU assembly of `module` for `arch`. The module is not changed.
llvm::Expected<std::string> emitAssembly(llvm::Module &module,
                                         llvm::StringRef arch,
                                         const CompileOptions &options);

/// The HSA code object of `module` for `arch`: an ELF object from the code
/// generator, linked by lld into a shared object.
llvm::Expected<std::string> emitHsaco(llvm::Module &module,
                                      llvm::StringRef arch,
                                      const CompileOptions &options);

/// Completes `kernel` with the HSA code object of `module` (emitHsaco) and
/// the registers, spills and LDS its metadata lists.
llvm::Error emitBinary(llvm::Module &module, CompiledKernel &kernel,
                       const TargetDescription &target,
                       const CompileOptions &options);

/// The program that links code objects (lld's ELF driver), installed beside
/// the plugin, and the environment variable that names another.
inline constexpr char kCodeObjectLinker[] = "tessera-amdgpu-link";
inline constexpr char kCodeObjectLinkerEnvVar[] = "TESSERA_AMDGPU_LINKER";

/// The path of the code object linker: $TESSERA_AMDGPU_LINKER, else
/// tessera-amdgpu-link beside the plugin; an error saying where it looked.
llvm::Expected<std::string> findCodeObjectLinker();

/// Links the relocatable AMDGPU ELF `object` into a code object with lld,
/// in the link server (LinkServer.h: lld resets its process's llvm::cl
/// options and keeps global state), so the host's options stay as parsed.
llvm::Expected<std::string> linkHsaco(llvm::StringRef object);

} // namespace mlir::tessera::amdgpu

#endif // TESSERA_BACKENDS_AMDGPU_EMITTER_H
