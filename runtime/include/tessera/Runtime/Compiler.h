//===- Compiler.h - From a kernel file to a loadable binary -----*- C++ -*-===//
//
// The compile driver of the runtime and the CLI: one kernel of a kernel
// file, specialized by an ahead-of-time signature (and named constexprs or
// an autotune config), goes through the frontend, the core pipeline plus
// the backend's stages, LLVM IR, and the backend's emitter. It can stop at
// any stage to print it (`--emit`), dump the IR after named stages, and
// keeps binaries in the on-disk cache under the key of CacheKey.h.
//
// A compilation runs in three stages, each a method of KernelCompiler over
// a CompileJob: specialize() binds the signature and resolves the target,
// options and pipeline; lower() runs the frontend to the `tessera` dialect
// and computes the cache key, which hashes that module (so every file and
// global the kernel's closure reads is in it, wherever it came from);
// run() reads the cache or runs the pipeline to the stage asked for.
// compile() is the three in a row.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_RUNTIME_COMPILER_H
#define TESSERA_RUNTIME_COMPILER_H

#include "tessera/Backend/Backend.h"
#include "tessera/Runtime/CacheKey.h"
#include "tessera/Runtime/DiskCache.h"
#include "tessera/Runtime/KernelSource.h"

#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace mlir::tessera::runtime {

/// Where a compilation stops, and what it produces.
enum class EmitStage {
  /// The frontend's `tessera` dialect module.
  Tessera,
  /// The `tessera_gpu` module just before the backend's "lower-to-llvm".
  TesseraGPU,
  /// LLVM IR for the target.
  LLVMIR,
  /// The target's assembly.
  Assembly,
  /// The CompiledKernel (and the cache entry).
  Binary,
};

/// The stage named `name` (tessera, tessera-gpu, llvm, asm, bin).
std::optional<EmitStage> parseEmitStage(llvm::StringRef name);
llvm::StringRef stringifyEmitStage(EmitStage stage);

/// One compilation.
struct CompileRequest {
  /// The @triton.jit function to compile.
  std::string kernel;
  /// Triton's ahead-of-time signature (`*fp32:16,i32,1024`).
  std::string signature;
  /// The signature gives every parameter, constexprs included (what the
  /// runtime computed from a launch): neither heuristics nor autotune
  /// configs are consulted again.
  bool completeSignature = false;
  /// Constexprs by name, `NAME=VALUE` with VALUE a Python literal.
  std::vector<std::string> constexprs;
  /// Take the constexprs, num_warps, num_stages and num_ctas of this
  /// @triton.autotune config.
  std::optional<unsigned> autotuneConfig;
  /// Architecture, launch shape and code generation options.
  CompileOptions options;
  /// Launch shape given explicitly: wins over the autotune config, which
  /// wins over `options`.
  std::optional<int> numWarps, numStages, numCTAs;
  /// Compile device asserts (Triton's debug).
  bool debug = false;
};

/// What a compilation produced.
struct CompileResult {
  /// The stage's text (all stages but Binary).
  std::string text;
  /// The binary (Binary).
  std::optional<CompiledKernel> kernel;
  /// The frontend's specialization key.
  std::string specialization;
  /// The cache key (Binary).
  std::string cacheKey;
  /// SHA-256 (hex) of the frontend's `tessera` module printed without
  /// debug locations: the part of the cache key that covers everything the
  /// kernel's closure read.
  std::string moduleHash;
  /// True when the binary came from the on-disk cache.
  bool cacheHit = false;
  /// The options the kernel was compiled with (arch resolved, autotune
  /// config applied).
  CompileOptions options;
  /// The remarks and warnings the compilation emitted (why a dot stays on
  /// multiply-adds...), with the kernel file's line and caret; empty when
  /// none. A binary keeps them in its metadata ("remarks"), so a cache hit
  /// gives them too.
  std::string remarks;
  /// The wall time of each step: specialize, frontend, every pipeline
  /// stage, llvm-ir, assembly or binary (with the plugin's parts), the
  /// cache.
  StageTimes times;
};

class KernelCompiler;

/// One compilation between its stages. It holds the kernel source's lock
/// (a SourceScope) from specialize() to the end of lower(), and its own MLIR
/// context: jobs of one source run their pipelines and emitters on several
/// threads at once, while their frontend parts take turns. A thread must
/// not specialize a second job of a source while its first is not lowered.
class CompileJob {
public:
  ~CompileJob();
  CompileJob(const CompileJob &) = delete;
  CompileJob &operator=(const CompileJob &) = delete;

  /// What is known so far: the specialization and options after
  /// specialize(), the cache key and module hash after lower().
  const CompileResult &getResult() const;
  /// True once lower() produced the `tessera` module.
  bool isLowered() const;

private:
  friend class KernelCompiler;
  struct Impl;
  explicit CompileJob(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl;
};

class KernelCompiler {
public:
  /// Compiles with `backend`; `cache` may be null (no on-disk cache).
  KernelCompiler(std::shared_ptr<Backend> backend, PluginIdentity plugin,
                 DiskCache *cache);

  Backend &getBackend() const { return *backend; }
  const PluginIdentity &getPluginIdentity() const { return plugin; }
  DiskCache *getCache() const { return cache; }

  /// Dump the IR after these stages (a dump bypasses the cache lookup, so
  /// that it always happens).
  void setDumpOptions(DumpOptions options) { dump = std::move(options); }
  const DumpOptions &getDumpOptions() const { return dump; }

  /// Compiles `request` for `source` up to `stage`: specialize(), lower()
  /// and run(). Kernel errors come back as the frontend prints them
  /// (file:line:col, source line, caret).
  llvm::Expected<CompileResult> compile(KernelSource &source,
                                        const CompileRequest &request,
                                        EmitStage stage = EmitStage::Binary);

  /// Stage 1: the frontend's specialization of `request` (signature,
  /// constexprs, autotune config, heuristics), the options with the
  /// architecture resolved, the target description and the pipeline.
  llvm::Expected<std::unique_ptr<CompileJob>>
  specialize(KernelSource &source, const CompileRequest &request);

  /// Stage 2: lowers the kernel to the `tessera` dialect and computes the
  /// cache key (CompileResult::cacheKey, ::moduleHash).
  llvm::Error lower(CompileJob &job);

  /// Stage 3: the binary from the on-disk cache, or the pipeline, LLVM IR
  /// and the emitter up to `stage`. Runs lower() first when it has not run.
  /// A job runs once.
  llvm::Expected<CompileResult> run(CompileJob &job, EmitStage stage);

  /// The stage names of the full pipeline for `options` (for help texts
  /// and `--dump-ir-after` validation).
  llvm::Expected<std::vector<std::string>>
  getStageNames(const CompileOptions &options);

private:
  std::shared_ptr<Backend> backend;
  PluginIdentity plugin;
  /// hashPluginFile() of the plugin, computed at the first binary compile.
  std::once_flag pluginBinaryOnce;
  std::string pluginBinary;
  DiskCache *cache;
  DumpOptions dump;
};

} // namespace mlir::tessera::runtime

#endif // TESSERA_RUNTIME_COMPILER_H
