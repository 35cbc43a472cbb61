//===- Environment.cpp - The environment variables of the runtime ---------===//
#include "tessera/Runtime/Environment.h"

#include "llvm/ADT/StringExtras.h"

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
