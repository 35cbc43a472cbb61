//===- SessionFlags.cpp - Flags and help shared by the subcommands --------===//
#include "Commands.h"

#include "tessera/Runtime/Environment.h"
#include "tessera/Support/Logging.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir::tessera;
using namespace mlir::tessera::runtime;
using namespace mlir::tessera::tool;
namespace cl = llvm::cl;

SessionFlags::SessionFlags(cl::OptionCategory &category)
    : backend("backend",
              cl::desc("Backend plugin, or 'auto' [TESSERA_BACKEND]"),
              cl::value_desc("name"), cl::cat(category)),
      plugins("plugin",
              cl::desc("A plugin file or directory to search first "
                       "(repeatable) [TESSERA_PLUGIN_PATH]"),
              cl::value_desc("path"), cl::cat(category)),
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

llvm::Expected<RuntimeOptions> SessionFlags::getRuntimeOptions() const {
  if (logLevel.getNumOccurrences()) {
    std::optional<spdlog::level::level_enum> level =
        parseLogLevel(logLevel.getValue());
    if (!level)
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "--log-level: unknown level '" +
                                         logLevel.getValue() + "'; expected " +
                                         std::string(kLogLevelNames));
    getLogger().set_level(*level);
  }
  if (device < -1)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "--device must be a device index (0 or "
                                   "more), got " +
                                       std::to_string(device.getValue()));
  RuntimeOptions options;
  options.backend = backend;
  options.pluginPaths.assign(plugins.begin(), plugins.end());
  if (device >= 0)
    options.device = static_cast<unsigned>(device.getValue());
  options.arch = arch;
  if (cacheDir.getNumOccurrences())
    options.cacheDirectory = cacheDir.getValue();
  if (noCache)
    options.disableCache = true;
  return options;
}

std::string mlir::tessera::tool::getEnvironmentHelp() {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "Environment (a flag given wins over its variable):\n";
  for (const EnvironmentSetting &s : getEnvironmentSettings())
    os << "  " << llvm::left_justify(s.variable, 22) << " "
       << llvm::left_justify(s.flag, 16) << " " << s.description << "\n";
  return text;
}

void mlir::tessera::tool::parseSubcommand(int argc, char **argv,
                                          cl::OptionCategory &category,
                                          llvm::StringRef overview) {
  // extrahelp keeps a reference to its text.
  static const std::string text = getEnvironmentHelp();
  static cl::extrahelp environment(text);
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(argc, argv, overview);
}

void mlir::tessera::tool::printError(llvm::Error err) {
  std::string text = llvm::toString(std::move(err));
  while (!text.empty() && text.back() == '\n')
    text.pop_back();
  llvm::StringRef firstLine = llvm::StringRef(text).split('\n').first;
  // A diagnostic without a file already says "error: " (one about a flag's
  // value); the program's name goes before it, not a second "error:".
  if (firstLine.contains(": error: "))
    llvm::errs() << text << "\n";
  else if (firstLine.starts_with("error: "))
    llvm::errs() << "tessera: " << text << "\n";
  else
    llvm::errs() << "tessera: error: " << text << "\n";
}
