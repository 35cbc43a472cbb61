//===- PluginBackends.cpp - Backends from discovered plugins --------------===//
#include "tessera/Runtime/PluginBackends.h"

#include "tessera/Backend/Backend.h"
#include "tessera/Runtime/Runtime.h"

using namespace mlir::tessera;
using namespace mlir::tessera::runtime;

PluginBackendProvider::PluginBackendProvider(
    std::vector<std::string> pluginPaths) {
  PluginSearchOptions options;
  options.paths = std::move(pluginPaths);
  registry = std::make_shared<PluginRegistry>(std::move(options));
}

std::vector<PluginIdentity> PluginBackendProvider::listBackends() {
  std::vector<PluginIdentity> ids;
  for (const PluginInfo &info : registry->enumerate())
    ids.push_back({info.name, info.version, info.description, info.path});
  return ids;
}

llvm::Expected<std::shared_ptr<Backend>>
PluginBackendProvider::createBackend(llvm::StringRef name) {
  return registry->create(name);
}

llvm::Expected<std::unique_ptr<Runtime>> Runtime::open(RuntimeOptions options) {
  auto provider = std::make_shared<PluginBackendProvider>(options.pluginPaths);
  llvm::Expected<SelectedBackend> selected =
      selectBackend(*provider, resolveBackendRequest(options.backend));
  if (!selected)
    return selected.takeError();
  llvm::Expected<std::unique_ptr<Runtime>> rt =
      create(std::move(*selected), std::move(options));
  if (!rt)
    return rt.takeError();
  (*rt)->keepAlive(provider);
  return rt;
}
