//===- JitKernel.h - A @triton.jit function ready to launch -----*- C++ -*-===//
//
// A JitKernel is Triton's JITFunction: one @triton.jit function of a kernel
// source, launched as `kernel[grid](*args, **kwargs)`. A launch binds its
// values to the parameters (positional, by name, then the defaults),
// specializes on them (KernelSpecializer.h) and looks the result up in the
// kernel's dispatch table: a repeated launch with arguments of the same
// specialization does no frontend or compiler work and costs microseconds.
// A miss compiles (or reads the on-disk cache) and loads the module once.
//
// The same table serves compile-only sessions: compile() makes an entry
// without loading it, and a later launch loads that entry instead of
// compiling again.
//
// Autotuning and heuristics are not here: TunedKernel.h wraps a JitKernel
// for kernel files decorated with @triton.autotune / @triton.heuristics,
// and the Python package wraps it with Python's own (as Triton wraps its
// JITFunction in an Autotuner and a Heuristics object).
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_RUNTIME_JITKERNEL_H
#define TESSERA_RUNTIME_JITKERNEL_H

#include "tessera/Backend/Backend.h"
#include "tessera/Runtime/ArgPacking.h"
#include "tessera/Runtime/Compiler.h"
#include "tessera/Runtime/Grid.h"
#include "tessera/Runtime/KernelSource.h"
#include "tessera/Runtime/KernelSpecializer.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>

namespace mlir::tessera::runtime {

class Runtime;

/// Launch options that override the config's and Triton's defaults
/// (num_warps=4, num_stages=3, num_ctas=1), and where the launch goes.
struct LaunchOptions {
  std::optional<int> numWarps;
  std::optional<int> numStages;
  std::optional<int> numCTAs;
  /// maxnreg; 0 leaves it to the target.
  std::optional<int> maxNumRegs;
  /// The driver's stream to launch on (a `CUstream` on nvptx, such as
  /// PyTorch's current stream); 0 is the driver's own. Not part of the
  /// specialization.
  uint64_t stream = 0;
};

/// The values of one launch bound to the kernel's parameters, in parameter
/// order.
struct BoundArgs {
  llvm::SmallVector<KernelArg, 16> values;
  /// Whether the launch set parameter i; those it did not take their
  /// default value (JitKernel::complete).
  llvm::SmallVector<bool, 16> given;
};

/// One specialization in a kernel's dispatch table: compiled to its
/// binary, and loaded on the device once a launch needs it.
struct KernelVariant {
  /// The binary and its resource usage. The bytes are dropped once the
  /// driver loaded them (getBinarySize() keeps their size).
  CompiledKernel kernel;
  /// The ahead-of-time signature it was compiled for.
  std::string signature;
  CompileOptions options;
  /// The on-disk cache key (CompileResult::cacheKey).
  std::string cacheKey;
  /// Whether the binary came from the on-disk cache.
  bool fromDiskCache = false;
  /// Wall time of the compilation (or of the cache lookup), in seconds.
  double seconds = 0;
  /// The wall time of each step of the compilation (CompileResult::times).
  StageTimes times;
  /// Bytes of the loadable binary.
  uint64_t binarySize = 0;
  /// How a launch passes the arguments (values are checked with it).
  ArgPacker packer;
  /// The parameters passed at launch, as indices into the bound values.
  llvm::SmallVector<unsigned, 16> runtimeParams;
  /// The driver's module, valid once isLoaded().
  ModuleHandle module = 0;

  bool isLoaded() const { return loaded.load(std::memory_order_acquire); }

private:
  friend class JitKernel;
  std::atomic<bool> loaded{false};
};

class JitKernel {
public:
  /// The jit function `name` of `source`, launched through `runtime`.
  static llvm::Expected<std::unique_ptr<JitKernel>>
  create(Runtime &runtime, std::shared_ptr<KernelSource> source,
         llvm::StringRef name);
  ~JitKernel();

  llvm::StringRef getName() const { return name; }
  llvm::ArrayRef<KernelParamInfo> getParams() const { return params; }
  /// The index of parameter `name`, if the kernel has one.
  std::optional<unsigned> findParam(llvm::StringRef name) const;
  KernelSource &getSource() const { return *source; }
  const std::shared_ptr<KernelSource> &getSharedSource() const {
    return source;
  }
  Runtime &getRuntime() const { return runtime; }

  /// Binds positional `args` and named `kwargs` to the parameters. Fails
  /// on too many values, an unknown name or a parameter given twice.
  llvm::Error bind(llvm::ArrayRef<KernelArg> args,
                   llvm::ArrayRef<NamedKernelArg> kwargs,
                   BoundArgs &bound) const;
  /// Gives every parameter the launch left unset its default value; fails
  /// naming those without one.
  llvm::Error complete(BoundArgs &bound) const;

  /// Launches over `grid` with positional `args` and named `kwargs`.
  llvm::Error launch(const Grid &grid, llvm::ArrayRef<KernelArg> args,
                     llvm::ArrayRef<NamedKernelArg> kwargs = {},
                     const LaunchOptions &options = {});
  /// Launches with values already bound (unset ones take their defaults).
  llvm::Error launch(const Grid &grid, const BoundArgs &bound,
                     const LaunchOptions &options = {});

  /// Compiles and loads what launch() would run, without running it
  /// (Triton's warmup).
  llvm::Expected<const KernelVariant *>
  prepare(llvm::ArrayRef<KernelArg> args,
          llvm::ArrayRef<NamedKernelArg> kwargs = {},
          const LaunchOptions &options = {});
  llvm::Expected<const KernelVariant *> prepare(const BoundArgs &bound,
                                                const LaunchOptions &options);

  /// Compiles what launch() would run for these values to the loadable
  /// binary, without a device: nothing is loaded or run, and pointers are
  /// only specialized on, never read. The values are checked as a launch
  /// would check them. Each specialization compiles once per kernel; a
  /// later call, or a launch, finds the same entry.
  llvm::Expected<const KernelVariant *>
  compile(llvm::ArrayRef<KernelArg> args,
          llvm::ArrayRef<NamedKernelArg> kwargs = {},
          const LaunchOptions &options = {});
  llvm::Expected<const KernelVariant *> compile(const BoundArgs &bound,
                                                const LaunchOptions &options);

  /// One launch of compileAll().
  struct Launch {
    BoundArgs bound;
    LaunchOptions options;
  };
  /// compile() for each of `launches`, several at once: their frontend
  /// parts run one after another on this thread, their pipelines and
  /// emitters on up to getCompileThreadCount() threads. Specializations in
  /// the table already, or given twice, compile once. The results are in
  /// the order of `launches`, and the table is as if compile() had been
  /// called on each in turn.
  std::vector<llvm::Expected<const KernelVariant *>>
  compileAll(llvm::ArrayRef<Launch> launches);

  /// Runs a loaded variant over `grid` with complete `bound` values.
  llvm::Error run(const KernelVariant &variant, const BoundArgs &bound,
                  const Grid &grid, const LaunchOptions &options = {});

  /// The architecture this kernel compiles for: the session's --arch,
  /// else its device's, else empty (the backend's default).
  std::string getTargetArch() const;

  /// Counters, for tests and reports.
  struct Statistics {
    uint64_t launches = 0;
    /// Launches that found their kernel in the dispatch table, loaded.
    uint64_t dispatchHits = 0;
    /// Specializations compiled or read from the disk cache.
    uint64_t loads = 0;
    uint64_t diskCacheHits = 0;
  };
  Statistics getStatistics() const;

private:
  JitKernel(Runtime &runtime, std::shared_ptr<KernelSource> source,
            std::string name)
      : runtime(runtime), source(std::move(source)), name(std::move(name)) {}
  llvm::Error initialize();

  /// The launch shape of `options` over Triton's defaults.
  struct Shape {
    int numWarps = 4, numStages = 3, numCTAs = 1, maxNumRegs = 0;
  };
  static Shape getShape(const LaunchOptions &options);
  /// The key of a specialization in the dispatch table.
  static std::string getTableKey(const ArgumentSpecialization &spec,
                                 const Shape &shape);
  /// The entry of the table for `values` (complete), compiled on a miss;
  /// loaded too when `load`. Safe to call from several threads.
  llvm::Expected<KernelVariant *> getOrCompile(llvm::ArrayRef<KernelArg> values,
                                               const Shape &shape, bool load);
  /// The compilation of a specialization for `arch`.
  CompileRequest makeCompileRequest(const ArgumentSpecialization &spec,
                                    const Shape &shape,
                                    llvm::StringRef arch) const;
  /// The table entry of what `compiled` produced for `spec`.
  llvm::Expected<std::unique_ptr<KernelVariant>>
  makeVariant(const ArgumentSpecialization &spec, CompileResult compiled,
              double seconds);
  /// Checks complete `values` as a launch would (each fits its parameter).
  llvm::Error checkValues(const KernelVariant &variant,
                          llvm::ArrayRef<KernelArg> values) const;
  /// Checks what a backend compiled against the specialization and returns
  /// the packer of its arguments.
  llvm::Expected<ArgPacker>
  createPacker(const CompiledKernel &kernel,
               const ArgumentSpecialization &spec) const;
  /// The table's entry for `key`, waiting while another thread compiles
  /// it; null when there is none, and then the key is the caller's to
  /// compile (no other thread compiles it until `release`).
  KernelVariant *findOrClaim(llvm::StringRef key);
  /// Ends the caller's claim on `key`, entering `variant` unless it is null
  /// (the compilation failed); returns the table's entry.
  KernelVariant *release(llvm::StringRef key,
                         std::unique_ptr<KernelVariant> variant);
  /// Loads `variant` on the device (under loadMutex).
  llvm::Error load(KernelVariant &variant);
  llvm::Expected<const KernelVariant *> dispatch(const Grid *grid,
                                                 const BoundArgs &bound,
                                                 const LaunchOptions &options);

  Runtime &runtime;
  std::shared_ptr<KernelSource> source;
  std::string name;
  std::vector<KernelParamInfo> params;

  mutable std::mutex tableMutex;
  llvm::StringMap<std::unique_ptr<KernelVariant>> table;
  /// Keys some thread is compiling (under tableMutex): different keys of
  /// one kernel compile at once; a second thread missing on a key in here
  /// waits on `compiledOne` and then finds it (or, if it failed, compiles
  /// it itself and gets the error).
  llvm::StringSet<> compiling;
  std::condition_variable compiledOne;
  /// One device load at a time per kernel.
  std::mutex loadMutex;

  std::atomic<uint64_t> launches{0}, dispatchHits{0}, loads{0},
      diskCacheHits{0};
};

} // namespace mlir::tessera::runtime

#endif // TESSERA_RUNTIME_JITKERNEL_H
