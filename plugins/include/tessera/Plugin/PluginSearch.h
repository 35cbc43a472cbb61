//===- PluginSearch.h - Where the host looks for plugins --------*- C++ -*-===//
//
// Plugins are files named `tessera-plugin-<name>.so`. The host looks, in
// this order of precedence, at paths the user named (`--plugin PATH`), at
// TESSERA_PLUGIN_PATH, and at `<prefix>/lib/tessera/plugins` where
// `<prefix>` is found twice: from the running program (`<prefix>/bin/...`)
// and from libTesseraPlugins.so (`<prefix>/lib/...`). An install and a
// build tree share that layout, so both find their own plugins.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_PLUGIN_PLUGINSEARCH_H
#define TESSERA_PLUGIN_PLUGINSEARCH_H

#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace mlir::tessera {

/// The environment variable listing plugin files and directories,
/// colon-separated.
inline constexpr llvm::StringLiteral kPluginPathEnvVar = "TESSERA_PLUGIN_PATH";

/// Where a plugin file was found; earlier origins take precedence when two
/// plugins have one name.
enum class PluginOrigin {
  /// Named by the user (`--plugin PATH`).
  Explicit,
  /// Listed in TESSERA_PLUGIN_PATH.
  Environment,
  /// `<bindir>/../lib/tessera/plugins` of the running program: the install
  /// prefix, or the build tree for a tool run from `build/bin`.
  ProgramPrefix,
  /// `<libdir>/tessera/plugins` of libTesseraPlugins.so: the same layout,
  /// found when the program lives elsewhere (a test binary, an embedder).
  LibraryPrefix,
};

/// A short name of `origin` for listings ("explicit", "TESSERA_PLUGIN_PATH",
/// "program prefix", "library prefix").
llvm::StringRef stringifyPluginOrigin(PluginOrigin origin);

/// What discovery searches.
struct PluginSearchOptions {
  /// Plugin files or directories the user named, searched first.
  std::vector<std::string> paths;
  /// Also search the files and directories in TESSERA_PLUGIN_PATH.
  bool useEnvironment = true;
  /// Also search the default directories of the program and library.
  bool useDefaultDirectories = true;
};

/// One file or directory of the search path.
struct PluginSearchEntry {
  std::string path;
  PluginOrigin origin;
  /// The user named it, so its absence is reported; default directories
  /// that do not exist are skipped quietly.
  bool required = true;
};

/// A plugin file discovery found.
struct PluginCandidate {
  std::string path;
  PluginOrigin origin;
};

/// A file that could not be used, and why, in one line.
struct PluginLoadFailure {
  /// The file (or search path entry) at fault.
  std::string path;
  /// "<path>: <reason>", the line logged and listed by `tessera plugins`.
  std::string message;
};

/// True for a file name of the form `tessera-plugin-<name>.so`.
bool isPluginFileName(llvm::StringRef fileName);

/// The files and directories `options` searches, in precedence order.
std::vector<PluginSearchEntry>
getPluginSearchPath(const PluginSearchOptions &options);

/// The plugin files of `searchPath` in precedence order: a file entry is
/// taken as is, a directory contributes its `tessera-plugin-*.so` entries
/// in name order (whatever they are: the loader refuses those that are not
/// shared libraries, with a line saying why), a file reached twice counts
/// once. A required entry that does
/// not exist or cannot be read adds a line to `failures`.
std::vector<PluginCandidate>
findPluginFiles(const std::vector<PluginSearchEntry> &searchPath,
                std::vector<PluginLoadFailure> &failures);

} // namespace mlir::tessera

#endif // TESSERA_PLUGIN_PLUGINSEARCH_H
