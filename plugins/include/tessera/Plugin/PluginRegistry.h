//===- PluginRegistry.h - The backends plugins provide ----------*- C++ -*-===//
//
// The registry discovers plugin files (PluginSearch.h), loads each one and
// reads its descriptor, and creates backends by name. Enumerating is cheap:
// it never calls createBackend and never touches a device. A file that
// cannot be used (not loadable, no entry point, a newer API, another LLVM,
// a name already taken, a backend that fails to initialize) costs one line
// naming it, logged as a warning and kept in getLoadFailures(); the other
// plugins keep working.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_PLUGIN_PLUGINREGISTRY_H
#define TESSERA_PLUGIN_PLUGINREGISTRY_H

#include "tessera/Plugin/PluginSearch.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <string>
#include <vector>

namespace mlir::tessera {

class Backend;

/// The oldest plugin API version this host still loads. Version 2 added a
/// virtual function to Backend (getLanguageModules), so a version 1 plugin's
/// backend would lack it; version 3 added a field to CompileOptions (times),
/// which a version 2 plugin would read at the wrong offsets; version 4 added
/// one to DeviceProperties (driverVersion), which a version 3 plugin would
/// return in a smaller object; version 5 changed emitBinary to complete the
/// CompiledKernel the host built from the lowered module.
inline constexpr unsigned kOldestSupportedPluginAPIVersion = 5;

/// A plugin whose descriptor was read and accepted.
struct PluginInfo {
  std::string name;
  std::string version;
  std::string description;
  /// The file it was loaded from, as discovered.
  std::string path;
  PluginOrigin origin;
  unsigned apiVersion = 0;
  unsigned llvmMajor = 0;
};

/// The plugins of one search path. Not thread-safe.
class PluginRegistry {
public:
  explicit PluginRegistry(PluginSearchOptions options = {});
  ~PluginRegistry();
  PluginRegistry(const PluginRegistry &) = delete;
  PluginRegistry &operator=(const PluginRegistry &) = delete;

  /// The files and directories searched, in precedence order.
  const std::vector<PluginSearchEntry> &getSearchPath() const;

  /// The accepted plugins in precedence order. The first call discovers
  /// and loads them; later calls return the same list.
  llvm::ArrayRef<PluginInfo> enumerate();

  /// The accepted plugin named `name`, or null.
  const PluginInfo *lookup(llvm::StringRef name);

  /// Creates the backend of the plugin named `name`. The backend keeps its
  /// plugin loaded while it lives, even past the registry; whatever it
  /// built (pipelines, passes) must not outlive it. Fails with one line
  /// naming the file when createBackend fails (also recorded as a load
  /// failure), or naming the plugins there are when none has this name.
  llvm::Expected<std::shared_ptr<Backend>> create(llvm::StringRef name);

  /// One line per file that could not be used, in discovery order,
  /// including backends that failed to initialize in create().
  llvm::ArrayRef<PluginLoadFailure> getLoadFailures();

private:
  struct Impl;
  std::unique_ptr<Impl> impl;
};

} // namespace mlir::tessera

#endif // TESSERA_PLUGIN_PLUGINREGISTRY_H
