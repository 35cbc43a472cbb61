//===- Environment.h - The environment variables of the runtime -*- C++ -*-===//
//
// Every setting of the runtime can come from the environment; the `tessera`
// command line mirrors each variable with a flag, and a flag given wins over
// its variable. The names live here so that the library, the CLI and its
// help text agree.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_RUNTIME_ENVIRONMENT_H
#define TESSERA_RUNTIME_ENVIRONMENT_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace mlir::tessera::runtime {

/// The backend to use: a plugin name or `auto` (`--backend`).
inline constexpr llvm::StringLiteral kBackendEnvVar = "TESSERA_BACKEND";
/// The device index of the chosen backend (`--device`).
inline constexpr llvm::StringLiteral kDeviceEnvVar = "TESSERA_DEVICE";
/// The architecture to compile for (`--arch`).
inline constexpr llvm::StringLiteral kArchEnvVar = "TESSERA_ARCH";
/// The kernel cache directory (`--cache-dir`).
inline constexpr llvm::StringLiteral kCacheDirEnvVar = "TESSERA_CACHE_DIR";
/// Set to 1 to neither read nor write the on-disk cache (`--no-cache`).
inline constexpr llvm::StringLiteral kDisableCacheEnvVar =
    "TESSERA_DISABLE_CACHE";
/// Stages after which to dump the IR, comma-separated, or `all`
/// (`--dump-ir-after`).
inline constexpr llvm::StringLiteral kDumpIRAfterEnvVar =
    "TESSERA_DUMP_IR_AFTER";
/// Where dumps go, one file per stage; standard error when unset
/// (`--dump-dir`).
inline constexpr llvm::StringLiteral kDumpDirEnvVar = "TESSERA_DUMP_DIR";
/// Set to 1 to print the wall time of each compilation step
/// (`tessera compile --time-stages`).
inline constexpr llvm::StringLiteral kTimeStagesEnvVar = "TESSERA_TIME_STAGES";
/// How many compilations of one kernel's autotune configs (or one case's
/// launches) run at once; default: the machine's hardware threads.
inline constexpr llvm::StringLiteral kCompileThreadsEnvVar =
    "TESSERA_COMPILE_THREADS";
/// The logger's level (`--log-level`); read by the core's logger.
inline constexpr llvm::StringLiteral kLogLevelEnvVar = "TESSERA_LOG_LEVEL";
/// Plugin files and directories, colon-separated (`--plugin`); read by the
/// plugin host.
inline constexpr llvm::StringLiteral kPluginPathEnvVar = "TESSERA_PLUGIN_PATH";
/// Directories kernel files' imports are searched in, colon-separated,
/// after the kernel file's package root and directory and before
/// PYTHONPATH (`--module-path`).
inline constexpr llvm::StringLiteral kModulePathEnvVar = "TESSERA_MODULE_PATH";

/// One variable, its flag and what it means, for help texts.
struct EnvironmentSetting {
  llvm::StringLiteral variable;
  llvm::StringLiteral flag;
  llvm::StringLiteral description;
};

/// Every setting above, in the order help texts list them.
llvm::ArrayRef<EnvironmentSetting> getEnvironmentSettings();

/// The value of `name`, or nullopt when it is unset or empty.
std::optional<std::string> getEnvironmentValue(llvm::StringRef name);

/// True when `name` is set to 1, true, yes or on (any case).
bool isEnvironmentFlagSet(llvm::StringRef name);

/// How many compilations may run at once: TESSERA_COMPILE_THREADS when it
/// is a positive number, else the machine's hardware threads (at least 1);
/// at most a CompileThreadLimit of the calling thread.
unsigned getCompileThreadCount();

/// Caps getCompileThreadCount() on the thread that made it, for its life:
/// for a caller that already runs compilations on several threads (the
/// conformance runner compiling ahead), so that the batches each thread
/// starts do not multiply the threads (and memory) in use. Limits nest.
class CompileThreadLimit {
public:
  /// `limit` is at least 1.
  explicit CompileThreadLimit(unsigned limit);
  ~CompileThreadLimit();
  CompileThreadLimit(const CompileThreadLimit &) = delete;
  CompileThreadLimit &operator=(const CompileThreadLimit &) = delete;

private:
  unsigned previous;
};

} // namespace mlir::tessera::runtime

#endif // TESSERA_RUNTIME_ENVIRONMENT_H
