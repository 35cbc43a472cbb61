//===- PluginLoader.h - Loading one plugin file with Boost.DLL --*- C++ -*-===//
#ifndef TESSERA_PLUGIN_LIB_PLUGINLOADER_H
#define TESSERA_PLUGIN_LIB_PLUGINLOADER_H

#include "tessera/Plugin/PluginABI.h"
#include "tessera/Plugin/PluginRegistry.h"

#include <boost/dll/shared_library.hpp>

#include <memory>

namespace mlir::tessera::detail {

/// A plugin file loaded and its descriptor accepted. An accepted library
/// stays loaded until the process exits (MLIR's and LLVM's process-wide
/// registries may point into it); a refused one is unloaded.
struct LoadedPlugin {
  std::shared_ptr<boost::dll::shared_library> library;
  const TesseraPluginDescriptor *descriptor = nullptr;
  PluginInfo info;
};

/// Loads `candidate` and checks its descriptor without calling into the
/// backend; an accepted plugin is never unloaded. The error says why the
/// file is refused, without naming it.
llvm::Expected<LoadedPlugin> loadPlugin(const PluginCandidate &candidate);

} // namespace mlir::tessera::detail

#endif // TESSERA_PLUGIN_LIB_PLUGINLOADER_H
