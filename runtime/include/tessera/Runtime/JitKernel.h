//===- JitKernel.h - A @triton.jit function ready to launch -----*- C++ -*-===//
//
// A JitKernel launches one kernel of a kernel file as Triton's
// `kernel[grid](*args, **kwargs)` does. A launch binds its values to the
// parameters (positional, by name, then autotune config, heuristics and
// default values), specializes on them (KernelSpecializer.h) and looks the
// result up in an in-memory table of loaded modules: a repeated launch with
// arguments of the same specialization does no frontend or compiler work
// and costs microseconds. A miss compiles (or reads the on-disk cache) and
// loads the module once.
//
// An autotuned kernel first chooses its config by the values of its `key`
// arguments and the element types of its pointers, timing every config
// that survives `prune_configs_by` once per key, with `reset_to_zero`
// buffers zeroed and `restore_value` buffers restored around each trial.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_RUNTIME_JITKERNEL_H
#define TESSERA_RUNTIME_JITKERNEL_H

#include "tessera/Backend/Backend.h"
#include "tessera/Runtime/ArgPacking.h"
#include "tessera/Runtime/Autotuner.h"
#include "tessera/Runtime/Compiler.h"
#include "tessera/Runtime/Grid.h"
#include "tessera/Runtime/KernelSource.h"
#include "tessera/Runtime/KernelSpecializer.h"

#include "tessera/Frontend/Decorators.h"

#include "llvm/ADT/StringMap.h"

#include <atomic>
#include <memory>
#include <mutex>
#include <optional>

namespace mlir::tessera::runtime {

class Runtime;

/// Launch options that override the config's and Triton's defaults
/// (num_warps=4, num_stages=3, num_ctas=1).
struct LaunchOptions {
  std::optional<int> numWarps;
  std::optional<int> numStages;
  std::optional<int> numCTAs;
  /// maxnreg; 0 leaves it to the target.
  std::optional<int> maxNumRegs;
};

/// A compiled specialization loaded on the device.
struct LoadedKernel {
  CompiledKernel kernel;
  ModuleHandle module = 0;
  ArgPacker packer;
  /// The parameters passed at launch, as indices into the bound values.
  llvm::SmallVector<unsigned, 16> runtimeParams;
  /// The ahead-of-time signature it was compiled for.
  std::string signature;
  CompileOptions options;
  /// Whether the binary came from the on-disk cache.
  bool fromDiskCache = false;
};

/// A specialization compiled to its loadable binary and not loaded, as a
/// compile-only session produces it (JitKernel::compile).
struct CompiledSpecialization {
  /// The binary and its resource usage.
  CompiledKernel kernel;
  /// The ahead-of-time signature it was compiled for.
  std::string signature;
  CompileOptions options;
  /// Whether the binary came from the on-disk cache.
  bool fromDiskCache = false;
  /// Wall time of the compilation (or of the cache lookup), in seconds.
  double seconds = 0;
  /// How a launch would pass the arguments (values are checked with it).
  ArgPacker packer;
};

class JitKernel {
public:
  /// The kernel `name` of `source`, launched through `runtime`.
  static llvm::Expected<std::unique_ptr<JitKernel>>
  create(Runtime &runtime, std::shared_ptr<KernelSource> source,
         llvm::StringRef name);
  ~JitKernel();

  llvm::StringRef getName() const { return name; }
  llvm::ArrayRef<KernelParamInfo> getParams() const { return params; }
  bool isAutotuned() const { return autotuner != nullptr; }
  /// The autotune configs, in order (empty when not autotuned).
  llvm::ArrayRef<TuneCandidate> getConfigs() const;

  /// Launches over `grid` with positional `args` and named `kwargs`.
  llvm::Error launch(const Grid &grid, llvm::ArrayRef<KernelArg> args,
                     llvm::ArrayRef<NamedKernelArg> kwargs = {},
                     const LaunchOptions &options = {});

  /// Compiles and loads what launch() would run, without running it
  /// (Triton's warmup); autotuned kernels tune for these arguments.
  llvm::Expected<const LoadedKernel *>
  prepare(llvm::ArrayRef<KernelArg> args,
          llvm::ArrayRef<NamedKernelArg> kwargs = {},
          const LaunchOptions &options = {});

  /// Compiles what launch() would run for these values to the loadable
  /// binary, without a device: nothing is loaded or run, and pointers are
  /// only specialized on, never read. An autotuned kernel compiles its
  /// config `configIndex` (choosing one needs timing on a device); other
  /// kernels take none. Each specialization compiles once per kernel; a
  /// later call for it returns the same object.
  llvm::Expected<const CompiledSpecialization *>
  compile(llvm::ArrayRef<KernelArg> args,
          llvm::ArrayRef<NamedKernelArg> kwargs = {},
          const LaunchOptions &options = {},
          std::optional<unsigned> configIndex = std::nullopt);

  /// The config chosen for the key of these arguments, tuning if needed;
  /// nullopt for a kernel without @triton.autotune.
  llvm::Expected<std::optional<TuneCandidate>>
  getTunedConfig(llvm::ArrayRef<KernelArg> args,
                 llvm::ArrayRef<NamedKernelArg> kwargs = {});

  /// Counters, for tests and reports.
  struct Statistics {
    uint64_t launches = 0;
    /// Launches that found their kernel in the in-memory table.
    uint64_t dispatchHits = 0;
    /// Specializations compiled or read from the disk cache.
    uint64_t loads = 0;
    uint64_t diskCacheHits = 0;
    /// Keys tuned by timing configs.
    uint64_t tunings = 0;
  };
  Statistics getStatistics() const;

private:
  JitKernel(Runtime &runtime, std::shared_ptr<KernelSource> source,
            std::string name)
      : runtime(runtime), source(std::move(source)), name(std::move(name)) {}
  llvm::Error initialize();

  /// The values of one launch, bound to the parameters.
  struct Binding {
    llvm::SmallVector<KernelArg, 16> values;
    llvm::SmallVector<bool, 16> given;
    int numWarps = 4, numStages = 3, numCTAs = 1, maxNumRegs = 0;
  };
  llvm::Error bindArguments(llvm::ArrayRef<KernelArg> args,
                            llvm::ArrayRef<NamedKernelArg> kwargs,
                            Binding &binding) const;
  /// Applies a config, heuristics, defaults and launch options.
  llvm::Error completeBinding(Binding &binding, const TuneCandidate *config,
                              const LaunchOptions &options);
  llvm::Expected<std::string> getTuningKey(const Binding &binding) const;
  llvm::Expected<unsigned> selectConfig(const Binding &binding,
                                        const std::string &key,
                                        const Grid *grid,
                                        const LaunchOptions &options);
  std::vector<unsigned> pruneConfigs(const Binding &binding);
  llvm::Expected<LoadedKernel *> getOrLoad(const Binding &binding);
  /// The entry of `compiledTable` under `key`, compiled on a miss.
  llvm::Expected<const CompiledSpecialization *>
  getOrCompile(const ArgumentSpecialization &spec, const Binding &binding,
               const std::string &key);
  /// The key of a binding's specialization in `table` and
  /// `compiledTable`.
  static std::string getTableKey(const ArgumentSpecialization &spec,
                                 const Binding &binding);
  /// The compilation of a binding's specialization for `arch`.
  CompileRequest makeCompileRequest(const ArgumentSpecialization &spec,
                                    const Binding &binding,
                                    llvm::StringRef arch) const;
  /// Checks what a backend compiled against the specialization and returns
  /// the packer of its arguments.
  llvm::Expected<ArgPacker>
  createPacker(const CompiledKernel &kernel,
               const ArgumentSpecialization &spec) const;
  llvm::Error run(const LoadedKernel &kernel, const Binding &binding,
                  const Grid &grid);
  llvm::Expected<const LoadedKernel *>
  dispatch(const Grid *grid, llvm::ArrayRef<KernelArg> args,
           llvm::ArrayRef<NamedKernelArg> kwargs, const LaunchOptions &options);

  Runtime &runtime;
  std::shared_ptr<KernelSource> source;
  std::string name;
  std::vector<KernelParamInfo> params;
  std::optional<::tessera::frontend::HeuristicsSpec> heuristics;
  std::optional<::tessera::frontend::AutotuneSpec> autotune;
  std::unique_ptr<Autotuner> autotuner;
  /// Parameter indices of the autotune key, reset_to_zero and
  /// restore_value.
  std::vector<unsigned> keyParams, resetParams, restoreParams;

  mutable std::mutex tableMutex;
  llvm::StringMap<std::unique_ptr<LoadedKernel>> table;
  /// What compile() produced, by the same keys as `table`.
  llvm::StringMap<std::unique_ptr<CompiledSpecialization>> compiledTable;
  std::mutex loadMutex;
  std::mutex tuneMutex;
  bool warnedPrune = false;

  std::atomic<uint64_t> launches{0}, dispatchHits{0}, loads{0},
      diskCacheHits{0}, tunings{0};
};

} // namespace mlir::tessera::runtime

#endif // TESSERA_RUNTIME_JITKERNEL_H
