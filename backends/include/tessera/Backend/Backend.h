//===- Backend.h - The interface every target plugin implements -*- C++ -*-===//
//
// A plugin is a shared library whose C entry point (see
// plugins/include/tessera/Plugin/PluginABI.h) creates one Backend. The
// Backend describes its targets as data (TargetDescription), adds its stages
// to the compilation pipeline (at least one named "lower-to-llvm", after
// which the module is in MLIR's LLVM dialect), turns that module into LLVM
// IR, assembly and a loadable binary, and owns the driver that runs it.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_BACKEND_BACKEND_H
#define TESSERA_BACKEND_BACKEND_H

#include "tessera/Backend/CompiledKernel.h"
#include "tessera/Backend/Driver.h"
#include "tessera/Pipeline/Pipeline.h"
#include "tessera/Support/StageTimes.h"
#include "tessera/Target/TargetDescription.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <string>
#include <vector>

namespace llvm {
class LLVMContext;
class Module;
} // namespace llvm

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace mlir::tessera {

/// The stage after which the module is in MLIR's LLVM dialect; every
/// backend's pipeline has one. `--emit tessera-gpu` stops before it.
inline constexpr llvm::StringLiteral kLowerToLLVMStage = "lower-to-llvm";

/// What a compilation is asked for, beyond the kernel and its
/// specialization.
struct CompileOptions {
  /// Architecture; empty means the device's, or the backend's default.
  std::string arch;
  int numWarps = 4;
  int numStages = 3;
  int numCTAs = 1;
  /// Register limit per thread; 0 means the target's.
  int maxNumRegs = 0;
  /// Let the code generator fuse multiplies and adds.
  bool enableFPFusion = true;
  /// Keep source line information in the binary.
  bool lineInfo = true;
  /// Backend-specific options, by name.
  llvm::StringMap<std::string> extra;
  /// Where the emitter's steps (LLVM optimization and code generation, the
  /// assembler or linker) add their wall time; null when nobody asks. Not
  /// an option of the code: left out of str().
  StageTimes *times = nullptr;

  /// A stable text of every option, for cache keys.
  std::string str() const;
};

/// The fewest registers a thread may be limited to (`maxnreg`): NVIDIA's
/// ABI minimum, below which ptxas raises the limit by itself; no target
/// compiles a thread into fewer.
inline constexpr int kMinRegistersPerThread = 16;

class Backend;

/// Checks `options` against what `target` can launch, as `backend` lays the
/// program out (its pipeline options): num_warps a power of 2 whose threads
/// fit in a program, num_stages not negative, num_ctas within the
/// cluster size, maxnreg 0 (the target's) or a register count the target
/// has. The error names the option, the value and the limit.
llvm::Error checkCompileOptions(const Backend &backend,
                                const TargetDescription &target,
                                const CompileOptions &options);

/// A target plugin.
class Backend {
public:
  virtual ~Backend();

  /// The name users select it by (`--backend NAME`).
  virtual llvm::StringRef getName() const = 0;

  /// One line for `tessera plugins`.
  virtual llvm::StringRef getDescription() const = 0;

  /// The modules it adds under `triton.language.extra` (Triton's
  /// per-backend math libraries, `triton.language.extra.NAME.libdevice`),
  /// which programs import or test for; none by default.
  virtual std::vector<std::string> getLanguageModules() const { return {}; }

  /// Architectures it compiles for; the first is the default when no
  /// device says otherwise.
  virtual std::vector<std::string> getArchitectures() const = 0;

  /// The target description for `arch` (empty: the first device's, else
  /// the default). Fails for an architecture it does not know.
  virtual llvm::Expected<TargetDescription> describe(llvm::StringRef arch) = 0;

  /// Registers the dialects its stages create.
  virtual void registerDialects(DialectRegistry &registry) const {}

  /// The pipeline options its stages expect for `target` and `options`
  /// (threads per warp, vector width, ...).
  virtual PipelineOptions
  getPipelineOptions(const TargetDescription &target,
                     const CompileOptions &options) const;

  /// Adds its stages to `pipeline` (the core pipeline on entry), at
  /// anchors; one must be named "lower-to-llvm".
  virtual llvm::Error buildPipeline(Pipeline &pipeline,
                                    const TargetDescription &target,
                                    const CompileOptions &options) = 0;

  /// Translates the module its pipeline produced into LLVM IR for its
  /// target (triple, data layout, math libraries linked).
  virtual llvm::Expected<std::unique_ptr<llvm::Module>>
  translateToLLVMIR(ModuleOp module, llvm::LLVMContext &context,
                    const TargetDescription &target,
                    const CompileOptions &options) = 0;

  /// The target's assembly for `module` (text).
  virtual llvm::Expected<std::string>
  emitAssembly(llvm::Module &module, const TargetDescription &target,
               const CompileOptions &options) = 0;

  /// Completes `kernel` with the loadable binary of the kernel it names in
  /// `module`. The host built `kernel` from the lowered module's records
  /// (KernelRecord.h: buildCompiledKernel): backend, architecture, the
  /// symbol, parameters, launch shape, shared memory and the stages'
  /// metadata are filled. The emitter sets `format` and `binary`, adds what
  /// its toolchain reports (registers, spills, metadata) and corrects the
  /// launch shape where its target runs kernels differently (the CPU runs
  /// one thread per program).
  virtual llvm::Error emitBinary(llvm::Module &module, CompiledKernel &kernel,
                                 const TargetDescription &target,
                                 const CompileOptions &options) = 0;

  /// The driver that runs what it compiled.
  virtual Driver &getDriver() = 0;
};

} // namespace mlir::tessera

#endif // TESSERA_BACKEND_BACKEND_H
