//===- Environment.cpp - The environment variables of the runtime ---------===//
#include "tessera/Runtime/Environment.h"

#include "tessera/Support/Logging.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Threading.h"

#include <algorithm>

#include <cstdlib>

using namespace mlir::tessera::runtime;

llvm::ArrayRef<EnvironmentSetting>
mlir::tessera::runtime::getEnvironmentSettings() {
  static const EnvironmentSetting settings[] = {
      {kBackendEnvVar, "--backend",
       "backend plugin to use, or 'auto' (a GPU plugin with a device, else "
       "cpu)"},
      {kDeviceEnvVar, "--device", "device index of that backend (default 0)"},
      {kArchEnvVar, "--arch",
       "architecture to compile for (default: the device's, else the "
       "backend's first)"},
      {kPluginPathEnvVar, "--plugin",
       "extra plugin files or directories (colon-separated)"},
      {kModulePathEnvVar, "--module-path",
       "directories imports of kernel files are searched in "
       "(colon-separated; then PYTHONPATH)"},
      {kCacheDirEnvVar, "--cache-dir",
       "kernel cache directory (default ~/.cache/tessera)"},
      {kDisableCacheEnvVar, "--no-cache",
       "1: neither read nor write the kernel cache"},
      {kDumpIRAfterEnvVar, "--dump-ir-after",
       "dump the IR after these stages (comma-separated) or 'all'"},
      {kDumpDirEnvVar, "--dump-dir",
       "directory for IR dumps, one file per stage (default: standard "
       "error)"},
      {kTimeStagesEnvVar, "--time-stages",
       "1: print the wall time of each compilation step"},
      {kCompileThreadsEnvVar, "",
       "compilations of autotune configs run at once (default: hardware "
       "threads)"},
      {kLogLevelEnvVar, "--log-level",
       "trace, debug, info, warn (default), error or off"},
  };
  return settings;
}

std::optional<std::string>
mlir::tessera::runtime::getEnvironmentValue(llvm::StringRef name) {
  const char *value = std::getenv(name.str().c_str());
  if (!value || !*value)
    return std::nullopt;
  return std::string(value);
}

bool mlir::tessera::runtime::isEnvironmentFlagSet(llvm::StringRef name) {
  std::optional<std::string> value = getEnvironmentValue(name);
  if (!value)
    return false;
  std::string lower = llvm::StringRef(*value).trim().lower();
  return lower == "1" || lower == "true" || lower == "yes" || lower == "on";
}

namespace {
/// This thread's CompileThreadLimit; 0: none.
thread_local unsigned compileThreadLimit = 0;

unsigned getConfiguredCompileThreadCount() {
  if (std::optional<std::string> value =
          getEnvironmentValue(kCompileThreadsEnvVar)) {
    unsigned count = 0;
    if (!llvm::StringRef(*value).trim().getAsInteger(10, count) && count > 0)
      return count;
    mlir::tessera::getLogger().warn(
        "{}='{}' is not a positive number; using the hardware "
        "threads",
        kCompileThreadsEnvVar.str(), *value);
  }
  return std::max(1u, llvm::hardware_concurrency().compute_thread_count());
}
} // namespace

unsigned mlir::tessera::runtime::getCompileThreadCount() {
  unsigned count = getConfiguredCompileThreadCount();
  return compileThreadLimit ? std::min(count, compileThreadLimit) : count;
}

CompileThreadLimit::CompileThreadLimit(unsigned limit)
    : previous(compileThreadLimit) {
  limit = std::max(1u, limit);
  compileThreadLimit = previous ? std::min(previous, limit) : limit;
}

CompileThreadLimit::~CompileThreadLimit() { compileThreadLimit = previous; }
