//===- SessionFlags.cpp - How users choose a session's settings -----------===//
#include "tessera/Runtime/SessionFlags.h"

#include "tessera/Support/Logging.h"

using namespace mlir::tessera;
using namespace mlir::tessera::runtime;
namespace cl = llvm::cl;

llvm::Error mlir::tessera::runtime::setLogLevel(llvm::StringRef level) {
  // spdlog reads an unknown name as "off", which would hide every error.
  std::optional<spdlog::level::level_enum> value =
      parseLogLevel(level.trim().lower());
  if (!value)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "unknown log level '" + level +
                                       "'; expected " +
                                       std::string(kLogLevelNames));
  getLogger().set_level(*value);
  return llvm::Error::success();
}

llvm::Expected<RuntimeOptions> SessionSettings::getRuntimeOptions() const {
  if (!logLevel.empty())
    if (llvm::Error err = setLogLevel(logLevel))
      return std::move(err);
  RuntimeOptions options;
  options.backend = backend;
  options.pluginPaths = pluginPaths;
  options.modulePaths = modulePaths;
  options.device = device;
  options.arch = arch;
  options.cacheDirectory = cacheDirectory;
  options.disableCache = disableCache;
  return options;
}

SessionFlags::SessionFlags(cl::OptionCategory &category)
    : backend("backend",
              cl::desc("Backend plugin, or 'auto' [TESSERA_BACKEND]"),
              cl::value_desc("name"), cl::cat(category)),
      plugins("plugin",
              cl::desc("A plugin file or directory to search first "
                       "(repeatable) [TESSERA_PLUGIN_PATH]"),
              cl::value_desc("path"), cl::cat(category)),
      modulePaths("module-path",
                  cl::desc("A directory kernel files' imports are searched "
                           "in (repeatable) [TESSERA_MODULE_PATH]"),
                  cl::value_desc("dir"), cl::cat(category)),
      device("device", cl::desc("Device index [TESSERA_DEVICE]"),
             cl::value_desc("n"), cl::init(-1), cl::cat(category)),
      arch("arch", cl::desc("Architecture to compile for [TESSERA_ARCH]"),
           cl::value_desc("arch"), cl::cat(category)),
      cacheDir("cache-dir",
               cl::desc("Kernel cache directory [TESSERA_CACHE_DIR]"),
               cl::value_desc("dir"), cl::cat(category)),
      noCache("no-cache",
              cl::desc("Neither read nor write the kernel cache "
                       "[TESSERA_DISABLE_CACHE=1]"),
              cl::cat(category)),
      logLevel("log-level",
               cl::desc("trace, debug, info, warn, error or off "
                        "[TESSERA_LOG_LEVEL]"),
               cl::value_desc("level"), cl::cat(category)) {}

SessionSettings SessionFlags::getSettings() const {
  SessionSettings settings;
  settings.backend = backend;
  settings.pluginPaths.assign(plugins.begin(), plugins.end());
  settings.modulePaths.assign(modulePaths.begin(), modulePaths.end());
  if (device >= 0)
    settings.device = static_cast<unsigned>(device.getValue());
  settings.arch = arch;
  if (cacheDir.getNumOccurrences())
    settings.cacheDirectory = cacheDir.getValue();
  if (noCache)
    settings.disableCache = true;
  if (logLevel.getNumOccurrences())
    settings.logLevel = logLevel;
  return settings;
}

llvm::Expected<RuntimeOptions> SessionFlags::getRuntimeOptions() const {
  if (device < -1)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "--device must be a device index (0 or "
                                   "more), got " +
                                       std::to_string(device.getValue()));
  if (logLevel.getNumOccurrences())
    if (llvm::Error err = setLogLevel(logLevel))
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "--log-level: " +
                                         llvm::toString(std::move(err)));
  return getSettings().getRuntimeOptions();
}
