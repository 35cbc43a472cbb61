//===- PluginLoader.cpp - Loading one plugin file with Boost.DLL ----------===//
#include "PluginLoader.h"
#include "PluginFile.h"

#include "llvm/ADT/Twine.h"

#include <dlfcn.h>

#include <mutex>
#include <vector>

using namespace mlir::tessera;
using namespace mlir::tessera::detail;

namespace {
llvm::Error refuse(const llvm::Twine &reason) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), reason);
}

/// Why dlopen refused `path`. Boost.DLL reduces it to an error code, but
/// the dynamic loader's own message (a missing dependency, a bad ELF
/// header) is still pending in dlerror(); it names the file itself, which
/// the caller already does.
std::string loaderReason(const std::string &path,
                         const boost::dll::fs::error_code &ec) {
  const char *message = dlerror();
  if (!message)
    return ec.message();
  llvm::StringRef reason(message);
  reason.consume_front(path + ": ");
  return reason.str();
}

/// Keeps `library` loaded until the process exits. An accepted plugin has
/// run code against MLIR and LLVM, whose process-wide registries (types and
/// passes identified by name, command-line options, dialect extensions) may
/// keep pointers into its code and data after every session that used it
/// has ended; unloading it would leave them dangling. LLVM's own plugins
/// (sys::DynamicLibrary::getPermanentLibrary) stay loaded for this reason.
void pin(std::shared_ptr<boost::dll::shared_library> library) {
  static std::mutex mutex;
  // Never destroyed: unloading at exit has the same hazard.
  static auto *pinned =
      new std::vector<std::shared_ptr<boost::dll::shared_library>>();
  std::lock_guard<std::mutex> lock(mutex);
  pinned->push_back(std::move(library));
}
} // namespace

llvm::Expected<LoadedPlugin>
detail::loadPlugin(const PluginCandidate &candidate) {
  // Refused before dlopen: a file cut short would kill the process there.
  if (llvm::Error err = checkPluginFile(candidate.path))
    return std::move(err);
  LoadedPlugin plugin;
  plugin.library = std::make_shared<boost::dll::shared_library>();
  boost::dll::fs::error_code ec;
  // Bind every symbol now so that a plugin built against something this
  // process lacks is refused here instead of crashing at its first call;
  // keep its symbols local so that plugins never resolve into each other.
  plugin.library->load(
      candidate.path,
      boost::dll::load_mode::rtld_now | boost::dll::load_mode::rtld_local, ec);
  if (ec)
    return refuse("cannot load it: " + loaderReason(candidate.path, ec));
  if (!plugin.library->has(TESSERA_PLUGIN_ENTRY_SYMBOL))
    return refuse("not a Tessera plugin: it does not export '" +
                  llvm::Twine(TESSERA_PLUGIN_ENTRY_SYMBOL) + "'");

  auto &entry = plugin.library->get<const TesseraPluginDescriptor *()>(
      TESSERA_PLUGIN_ENTRY_SYMBOL);
  const TesseraPluginDescriptor *d = nullptr;
  try {
    d = entry();
  } catch (...) {
    return refuse("'" + llvm::Twine(TESSERA_PLUGIN_ENTRY_SYMBOL) +
                  "' threw an exception");
  }
  if (!d)
    return refuse("'" + llvm::Twine(TESSERA_PLUGIN_ENTRY_SYMBOL) +
                  "' returned no descriptor");
  if (llvm::Error err = checkDescriptor(*d))
    return std::move(err);

  pin(plugin.library);
  plugin.descriptor = d;
  plugin.info.name = d->name;
  plugin.info.version = d->version ? d->version : "";
  plugin.info.description = d->description ? d->description : "";
  plugin.info.path = candidate.path;
  plugin.info.origin = candidate.origin;
  plugin.info.apiVersion = d->apiVersion;
  plugin.info.llvmMajor = d->llvmMajor;
  return plugin;
}
