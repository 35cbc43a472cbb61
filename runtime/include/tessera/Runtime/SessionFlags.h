//===- SessionFlags.h - How users choose a session's settings ---*- C++ -*-===//
//
// Every front door of the runtime takes the same session settings: the
// `tessera` subcommands and the conformance runner as flags (`--backend`,
// `--plugin`, `--module-path`, `--device`, `--arch`, `--cache-dir`,
// `--no-cache`, `--log-level`), the Python package as arguments of
// `tessera._C.Session`. SessionSettings holds them, whatever they came from;
// SessionFlags registers them as command-line options. A setting left unset
// falls back to its environment variable (Environment.h) in
// resolveRuntimeOptions(), so a flag given wins over its variable everywhere
// alike.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_RUNTIME_SESSIONFLAGS_H
#define TESSERA_RUNTIME_SESSIONFLAGS_H

#include "tessera/Runtime/Runtime.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>
#include <vector>

namespace mlir::tessera::runtime {

/// The session settings a user gave; empty or unset ones are left to the
/// environment.
struct SessionSettings {
  /// A backend name or "auto" (TESSERA_BACKEND).
  std::string backend;
  /// Plugin files or directories searched first (TESSERA_PLUGIN_PATH).
  std::vector<std::string> pluginPaths;
  /// Directories kernel files' imports are searched in first
  /// (TESSERA_MODULE_PATH and PYTHONPATH follow).
  std::vector<std::string> modulePaths;
  /// The device index (TESSERA_DEVICE).
  std::optional<unsigned> device;
  /// The architecture to compile for (TESSERA_ARCH).
  std::string arch;
  /// The cache directory (TESSERA_CACHE_DIR).
  std::optional<std::string> cacheDirectory;
  /// Neither read nor write the caches on disk (TESSERA_DISABLE_CACHE).
  std::optional<bool> disableCache;
  /// The logger's level (TESSERA_LOG_LEVEL).
  std::string logLevel;

  /// The RuntimeOptions these settings ask for, after applying the log
  /// level; fails on a log level that is not one of the known names.
  llvm::Expected<RuntimeOptions> getRuntimeOptions() const;
};

/// Sets the level of Tessera's logger: trace, debug, info, warn, error,
/// critical or off; an error naming the known levels otherwise.
llvm::Error setLogLevel(llvm::StringRef level);

/// The session settings as command-line options of `category`, each
/// mirroring its environment variable in its help text. Construct once per
/// process (LLVM's option registry is process-wide), before parsing.
class SessionFlags {
public:
  explicit SessionFlags(llvm::cl::OptionCategory &category);

  /// What the command line said.
  SessionSettings getSettings() const;
  /// getSettings().getRuntimeOptions().
  llvm::Expected<RuntimeOptions> getRuntimeOptions() const;

  llvm::cl::opt<std::string> backend;
  llvm::cl::list<std::string> plugins;
  llvm::cl::list<std::string> modulePaths;
  llvm::cl::opt<int> device;
  llvm::cl::opt<std::string> arch;
  llvm::cl::opt<std::string> cacheDir;
  llvm::cl::opt<bool> noCache;
  llvm::cl::opt<std::string> logLevel;
};

} // namespace mlir::tessera::runtime

#endif // TESSERA_RUNTIME_SESSIONFLAGS_H
