//===- Runtime.h - A session over one backend and device --------*- C++ -*-===//
//
// A Runtime is what a program holds to run Triton kernels: the chosen
// backend (by name or `auto`), its device, the on-disk kernel cache, the
// autotuning records, and the kernels of the files it loaded. Every setting
// comes from RuntimeOptions, else from the environment (Environment.h),
// else from a default.
//
//   auto rt = Runtime::open({});            // TESSERA_BACKEND or auto
//   TunedKernel &add = *rt->getKernel("01_vector_add.py", "add_kernel");
//   Buffer x = *rt->allocate(n * 4, "fp32"), ...;
//   add.launch(Grid([&](const LaunchMeta &m) -> GridDims {
//                return {uint64_t(cdiv(n, m["BLOCK_SIZE"])), 1, 1};
//              }),
//              {x, y, out, n}, {{"BLOCK_SIZE", 1024}});
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_RUNTIME_RUNTIME_H
#define TESSERA_RUNTIME_RUNTIME_H

#include "tessera/Runtime/BackendSelection.h"
#include "tessera/Runtime/Benchmark.h"
#include "tessera/Runtime/Compiler.h"
#include "tessera/Runtime/Device.h"
#include "tessera/Runtime/DiskCache.h"
#include "tessera/Runtime/KernelSource.h"
#include "tessera/Runtime/TuningStore.h"

#include "llvm/ADT/StringMap.h"

#include <map>
#include <memory>
#include <mutex>
#include <optional>

namespace mlir::tessera::runtime {

class JitKernel;
class TunedKernel;

/// How to open a session; unset fields come from the environment.
struct RuntimeOptions {
  /// A backend name or "auto" (TESSERA_BACKEND, default auto).
  std::string backend;
  /// Plugin files or directories searched first (`--plugin`).
  std::vector<std::string> pluginPaths;
  /// Directories kernel files' imports are searched in first
  /// (`--module-path`); TESSERA_MODULE_PATH and PYTHONPATH follow.
  std::vector<std::string> modulePaths;
  /// The device index (TESSERA_DEVICE, default 0).
  std::optional<unsigned> device;
  /// The architecture to compile for (TESSERA_ARCH, default the device's).
  std::string arch;
  /// The cache directory (TESSERA_CACHE_DIR, default ~/.cache/tessera).
  std::optional<std::string> cacheDirectory;
  /// Neither read nor write the caches on disk (TESSERA_DISABLE_CACHE).
  std::optional<bool> disableCache;
  /// IR dumps (TESSERA_DUMP_IR_AFTER, TESSERA_DUMP_DIR).
  std::optional<DumpOptions> dump;
  /// Open a backend without devices too (`tessera compile`).
  bool allowNoDevice = false;
  /// Compile only: open no device, even where the backend has one, so that
  /// nothing is allocated or launched; requireDevice() fails and kernels
  /// compile through JitKernel::compile(). A backend without devices then
  /// needs `arch` (a description of a device that is not there is a guess).
  bool compileOnly = false;
  /// How autotuning times each config.
  BenchOptions tuning;
};

/// `options` with every unset field taken from the environment.
RuntimeOptions resolveRuntimeOptions(RuntimeOptions options);

/// The dump options TESSERA_DUMP_IR_AFTER and TESSERA_DUMP_DIR ask for.
DumpOptions getEnvironmentDumpOptions();

class Runtime {
public:
  /// Discovers the plugins (RuntimeOptions::pluginPaths,
  /// TESSERA_PLUGIN_PATH, the install and build trees), chooses the
  /// backend and opens its device.
  static llvm::Expected<std::unique_ptr<Runtime>> open(RuntimeOptions options);

  /// A session over a backend already created (embedders, tests).
  static llvm::Expected<std::unique_ptr<Runtime>>
  create(SelectedBackend backend, RuntimeOptions options);

  ~Runtime();

  Backend &getBackend() const { return *backend.backend; }
  const PluginIdentity &getPluginIdentity() const { return backend.identity; }
  const RuntimeOptions &getOptions() const { return options; }

  /// The device; null in compile-only sessions and in sessions opened with
  /// allowNoDevice on a backend without one.
  Device *getDevice() const { return device.get(); }
  /// The device, or an error saying why there is none.
  llvm::Expected<Device &> requireDevice();
  /// True for a session opened with RuntimeOptions::compileOnly.
  bool isCompileOnly() const { return options.compileOnly; }

  KernelCompiler &getCompiler() { return *compiler; }
  /// The caches on disk, or null when disabled.
  DiskCache *getCache() const { return cache.get(); }
  TuningStore *getTuningStore() const { return tuningStore.get(); }

  /// Device memory.
  llvm::Expected<Buffer> allocate(size_t bytes,
                                  llvm::StringRef elementType = "");

  /// The kernel file `path`, loaded once per session.
  llvm::Expected<std::shared_ptr<KernelSource>> getSource(llvm::StringRef path);

  /// The @triton.jit function `name` of the file `path` with its
  /// @triton.autotune and @triton.heuristics, ready to launch; the same
  /// object for the same file and name.
  llvm::Expected<TunedKernel &> getKernel(llvm::StringRef path,
                                          llvm::StringRef name);
  /// The plain jit function under getKernel()'s decorators.
  llvm::Expected<JitKernel &> getJitKernel(llvm::StringRef path,
                                           llvm::StringRef name);

  /// Keeps the plugin registry (or anything else) alive with the session.
  void keepAlive(std::shared_ptr<void> object) {
    keptAlive.push_back(std::move(object));
  }

private:
  Runtime() = default;

  /// Destroyed last: what the members below may still need.
  std::vector<std::shared_ptr<void>> keptAlive;
  RuntimeOptions options;
  SelectedBackend backend;
  std::unique_ptr<Device> device;
  std::unique_ptr<DiskCache> cache;
  std::unique_ptr<TuningStore> tuningStore;
  std::unique_ptr<KernelCompiler> compiler;
  std::mutex mutex;
  llvm::StringMap<std::shared_ptr<KernelSource>> sources;
  std::map<std::pair<std::string, std::string>, std::unique_ptr<TunedKernel>>
      kernels;
};

} // namespace mlir::tessera::runtime

#endif // TESSERA_RUNTIME_RUNTIME_H
