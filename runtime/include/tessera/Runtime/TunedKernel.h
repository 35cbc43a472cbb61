//===- TunedKernel.h - @triton.autotune and @triton.heuristics --*- C++ -*-===//
//
// A TunedKernel is what a kernel file's decorators make of a @triton.jit
// function: Triton's Autotuner and Heuristics objects around its
// JITFunction. A launch binds its values, chooses the autotune config for
// the values of the `key` arguments and the element types of the pointers
// (timing every config that survives `prune_configs_by` once per key, with
// `reset_to_zero` buffers zeroed and `restore_value` buffers restored
// around each trial), sets the config's constexprs and the heuristics'
// values, and launches the plain JitKernel it wraps, whose dispatch table
// holds every variant the trials compiled.
//
// getUntuned() is Triton's `kernel.fn`: the same jit function with its
// heuristics and without the autotuner, launched with explicit constexprs
// (the conformance runner's `--configs subset`). A kernel without
// decorators forwards every call to its JitKernel.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_RUNTIME_TUNEDKERNEL_H
#define TESSERA_RUNTIME_TUNEDKERNEL_H

#include "tessera/Runtime/Autotuner.h"
#include "tessera/Runtime/JitKernel.h"

#include "tessera/Frontend/Decorators.h"

namespace mlir::tessera::runtime {

class TunedKernel {
public:
  /// Wraps `kernel` with the @triton.heuristics and @triton.autotune
  /// decorators its source gives it. Fails naming the file when they cannot
  /// be read or name parameters the kernel does not have.
  static llvm::Expected<std::unique_ptr<TunedKernel>>
  create(std::shared_ptr<JitKernel> kernel);
  ~TunedKernel();

  llvm::StringRef getName() const { return jit->getName(); }
  llvm::ArrayRef<KernelParamInfo> getParams() const { return jit->getParams(); }
  /// The plain jit function under the decorators.
  JitKernel &getJitKernel() const { return *jit; }
  bool isAutotuned() const { return autotuner != nullptr; }
  bool hasHeuristics() const { return heuristics.has_value(); }
  /// The autotune configs, in order (empty when not autotuned).
  llvm::ArrayRef<TuneCandidate> getConfigs() const;

  /// Triton's `kernel.fn`: the heuristics without the autotuner; this
  /// kernel itself when it is not autotuned.
  TunedKernel &getUntuned();

  /// Launches over `grid` with positional `args` and named `kwargs`.
  llvm::Error launch(const Grid &grid, llvm::ArrayRef<KernelArg> args,
                     llvm::ArrayRef<NamedKernelArg> kwargs = {},
                     const LaunchOptions &options = {});

  /// Compiles and loads what launch() would run, without running it
  /// (Triton's warmup); autotuned kernels tune for these arguments, which
  /// needs a grid: a key not tuned yet fails.
  llvm::Expected<const KernelVariant *>
  prepare(llvm::ArrayRef<KernelArg> args,
          llvm::ArrayRef<NamedKernelArg> kwargs = {},
          const LaunchOptions &options = {});

  /// JitKernel::compile() of what a launch would run. An autotuned kernel
  /// compiles its config `configIndex` (choosing one needs timing on a
  /// device); other kernels take none.
  llvm::Expected<const KernelVariant *>
  compile(llvm::ArrayRef<KernelArg> args,
          llvm::ArrayRef<NamedKernelArg> kwargs = {},
          const LaunchOptions &options = {},
          std::optional<unsigned> configIndex = std::nullopt);
  /// compile() of every autotune config (of the one launch, for a kernel
  /// that is not autotuned), several at once (JitKernel::compileAll), in
  /// the order of the configs.
  std::vector<llvm::Expected<const KernelVariant *>>
  compileEveryConfig(llvm::ArrayRef<KernelArg> args,
                     llvm::ArrayRef<NamedKernelArg> kwargs = {},
                     const LaunchOptions &options = {});

  /// The config chosen for the key of these arguments (remembered in this
  /// process or on disk); an error when the key was never tuned; nullopt
  /// for a kernel without @triton.autotune.
  llvm::Expected<std::optional<TuneCandidate>>
  getTunedConfig(llvm::ArrayRef<KernelArg> args,
                 llvm::ArrayRef<NamedKernelArg> kwargs = {});

  /// The scope under which `kernel`'s tuning results are remembered: the
  /// session's backend and device, the kernel's name, file and source hash.
  static TuningScope getTuningScope(const JitKernel &kernel);

  /// The JitKernel's counters and the keys tuned by timing configs.
  struct Statistics : JitKernel::Statistics {
    uint64_t tunings = 0;
    /// Configs those tunings timed on the device, and those they did not
    /// because an earlier config of the same tuning compiled to the same
    /// launch (same binary and launch shape: a num_stages the loops could
    /// not use, say), whose time they took.
    uint64_t configsTimed = 0;
    uint64_t configsSameAsEarlier = 0;
  };
  Statistics getStatistics() const;

private:
  /// The launch compile() compiles for config `configIndex`.
  llvm::Expected<JitKernel::Launch>
  makeCompileLaunch(llvm::ArrayRef<KernelArg> args,
                    llvm::ArrayRef<NamedKernelArg> kwargs,
                    const LaunchOptions &options,
                    std::optional<unsigned> configIndex);

  explicit TunedKernel(std::shared_ptr<JitKernel> jit) : jit(std::move(jit)) {}
  llvm::Error initialize();

  /// Sets the config's constexprs and the heuristics' values in `bound`,
  /// and the config's launch shape in `options` where the launch left it.
  llvm::Error applyConfig(BoundArgs &bound, const TuneCandidate *config,
                          LaunchOptions &options);
  llvm::Expected<std::string> getTuningKey(const BoundArgs &bound) const;
  /// The config for `key`, timed over `grid` when nothing remembers one.
  llvm::Expected<unsigned> selectConfig(const BoundArgs &bound,
                                        const std::string &key,
                                        const Grid *grid,
                                        const LaunchOptions &options);
  std::vector<unsigned> pruneConfigs(const BoundArgs &bound);
  /// The bound values and options a launch runs with; `grid` is null
  /// where none is launched (a key not tuned yet then fails).
  llvm::Error prepareBinding(const Grid *grid, llvm::ArrayRef<KernelArg> args,
                             llvm::ArrayRef<NamedKernelArg> kwargs,
                             BoundArgs &bound, LaunchOptions &options);

  std::shared_ptr<JitKernel> jit;
  std::optional<::tessera::frontend::HeuristicsSpec> heuristics;
  std::optional<::tessera::frontend::AutotuneSpec> autotune;
  std::unique_ptr<Autotuner> autotuner;
  /// Parameter indices of the autotune key, reset_to_zero and
  /// restore_value.
  std::vector<unsigned> keyParams, resetParams, restoreParams;
  std::unique_ptr<TunedKernel> untuned;
  std::mutex tuneMutex;
  bool warnedPrune = false;
  std::atomic<uint64_t> tunings{0};
  std::atomic<uint64_t> configsTimed{0};
  std::atomic<uint64_t> configsSameAsEarlier{0};
};

} // namespace mlir::tessera::runtime

#endif // TESSERA_RUNTIME_TUNEDKERNEL_H
