//===- PluginBackends.h - Backends from discovered plugins ------*- C++ -*-===//
//
// The BackendProvider of real sessions: the plugin host's registry
// (discovery over `--plugin` paths, TESSERA_PLUGIN_PATH and the install
// and build trees next to the program and the libraries).
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_RUNTIME_PLUGINBACKENDS_H
#define TESSERA_RUNTIME_PLUGINBACKENDS_H

#include "tessera/Plugin/PluginRegistry.h"
#include "tessera/Runtime/BackendSelection.h"

#include <memory>

namespace mlir::tessera::runtime {

/// Backends of the plugins a PluginRegistry discovers.
class PluginBackendProvider : public BackendProvider {
public:
  /// Searches `pluginPaths` first, then TESSERA_PLUGIN_PATH and the
  /// default directories.
  explicit PluginBackendProvider(std::vector<std::string> pluginPaths = {});

  std::vector<PluginIdentity> listBackends() override;
  llvm::Expected<std::shared_ptr<Backend>>
  createBackend(llvm::StringRef name) override;

  /// The registry, for listings of plugins and load failures.
  PluginRegistry &getRegistry() { return *registry; }
  std::shared_ptr<PluginRegistry> getSharedRegistry() { return registry; }

private:
  std::shared_ptr<PluginRegistry> registry;
};

} // namespace mlir::tessera::runtime

#endif // TESSERA_RUNTIME_PLUGINBACKENDS_H
