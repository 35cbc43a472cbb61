//===- PluginRegistry.cpp - The backends plugins provide ------------------===//
#include "tessera/Plugin/PluginRegistry.h"
#include "PluginLoader.h"

#include "tessera/Backend/Backend.h"
#include "tessera/Support/Logging.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Path.h"

#include <cstdlib>

using namespace mlir::tessera;

struct PluginRegistry::Impl {
  std::vector<PluginSearchEntry> searchPath;
  bool loaded = false;
  std::vector<detail::LoadedPlugin> plugins;
  std::vector<PluginInfo> infos;
  std::vector<PluginLoadFailure> failures;
  /// Plugins whose createBackend failure is already recorded, so that
  /// retrying does not repeat the line.
  llvm::StringSet<> createFailuresRecorded;

  void ensureLoaded() {
    if (!loaded)
      load();
  }
  void load();
  /// Logs `failure` as a warning and keeps it.
  void record(PluginLoadFailure failure);
  detail::LoadedPlugin *find(llvm::StringRef name);
  llvm::Error createFailed(const detail::LoadedPlugin &plugin,
                           const llvm::Twine &reason);
  std::string explainMissing(llvm::StringRef name) const;
};

/// Found where Tessera installs its own plugins, rather than on a path
/// the user gave.
static bool isBuiltIn(PluginOrigin origin) {
  return origin == PluginOrigin::ProgramPrefix ||
         origin == PluginOrigin::LibraryPrefix;
}

void PluginRegistry::Impl::record(PluginLoadFailure failure) {
  getLogger().warn("{}", failure.message);
  failures.push_back(std::move(failure));
}

detail::LoadedPlugin *PluginRegistry::Impl::find(llvm::StringRef name) {
  for (detail::LoadedPlugin &plugin : plugins)
    if (plugin.info.name == name)
      return &plugin;
  return nullptr;
}

void PluginRegistry::Impl::load() {
  loaded = true;
  std::vector<PluginLoadFailure> searchFailures;
  std::vector<PluginCandidate> candidates =
      findPluginFiles(searchPath, searchFailures);
  for (PluginLoadFailure &failure : searchFailures)
    record(std::move(failure));

  for (const PluginCandidate &candidate : candidates) {
    llvm::Expected<detail::LoadedPlugin> plugin = detail::loadPlugin(candidate);
    if (!plugin) {
      record({candidate.path,
              candidate.path + ": " + llvm::toString(plugin.takeError())});
      continue;
    }
    // Discovery order is precedence order: the first of a name wins. When
    // a plugin from the user's path takes the name of one installed with
    // Tessera, the warning says so in those words: a stale or foreign copy
    // on the path must not replace the built-in backend unnoticed.
    if (const detail::LoadedPlugin *first = find(plugin->info.name)) {
      if (isBuiltIn(candidate.origin) && !isBuiltIn(first->info.origin))
        record({candidate.path,
                candidate.path + ": the built-in plugin '" + plugin->info.name +
                    "' is replaced by " + first->info.path + " (" +
                    stringifyPluginOrigin(first->info.origin).str() + ")"});
      else
        record({candidate.path,
                candidate.path + ": a plugin named '" + plugin->info.name +
                    "' was already loaded from " + first->info.path +
                    "; this one is ignored"});
      continue;
    }
    getLogger().debug("loaded plugin '{}' {} from {} ({})", plugin->info.name,
                      plugin->info.version, plugin->info.path,
                      stringifyPluginOrigin(plugin->info.origin).str());
    infos.push_back(plugin->info);
    plugins.push_back(std::move(*plugin));
  }
}

llvm::Error
PluginRegistry::Impl::createFailed(const detail::LoadedPlugin &plugin,
                                   const llvm::Twine &reason) {
  std::string line = plugin.info.path + ": " + reason.str();
  if (createFailuresRecorded.insert(plugin.info.name).second)
    record({plugin.info.path, line});
  return llvm::createStringError(llvm::inconvertibleErrorCode(), line);
}

std::string PluginRegistry::Impl::explainMissing(llvm::StringRef name) const {
  std::string fileName = ("tessera-plugin-" + name + ".so").str();
  for (const PluginLoadFailure &failure : failures)
    if (llvm::sys::path::filename(failure.path) == fileName)
      return "no plugin named '" + name.str() + "' (" + failure.message + ")";
  if (infos.empty()) {
    std::vector<std::string> searched;
    for (const PluginSearchEntry &entry : searchPath)
      searched.push_back(entry.path);
    return "no plugin named '" + name.str() + "': no plugins were found in " +
           (searched.empty() ? std::string("an empty search path")
                             : llvm::join(searched, ", "));
  }
  std::vector<std::string> names;
  for (const PluginInfo &info : infos)
    names.push_back(info.name);
  return "no plugin named '" + name.str() +
         "'; plugins are: " + llvm::join(names, ", ");
}

PluginRegistry::PluginRegistry(PluginSearchOptions options)
    : impl(std::make_unique<Impl>()) {
  impl->searchPath = getPluginSearchPath(options);
}

PluginRegistry::~PluginRegistry() = default;

const std::vector<PluginSearchEntry> &PluginRegistry::getSearchPath() const {
  return impl->searchPath;
}

llvm::ArrayRef<PluginInfo> PluginRegistry::enumerate() {
  impl->ensureLoaded();
  return impl->infos;
}

const PluginInfo *PluginRegistry::lookup(llvm::StringRef name) {
  impl->ensureLoaded();
  detail::LoadedPlugin *plugin = impl->find(name);
  return plugin ? &plugin->info : nullptr;
}

llvm::ArrayRef<PluginLoadFailure> PluginRegistry::getLoadFailures() {
  impl->ensureLoaded();
  return impl->failures;
}

llvm::Expected<std::shared_ptr<Backend>>
PluginRegistry::create(llvm::StringRef name) {
  impl->ensureLoaded();
  detail::LoadedPlugin *plugin = impl->find(name);
  if (!plugin)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   impl->explainMissing(name));

  char *message = nullptr;
  void *raw = nullptr;
  try {
    raw = plugin->descriptor->createBackend(&message);
  } catch (...) {
    return impl->createFailed(*plugin, "createBackend threw an exception");
  }
  std::string reason = message ? message : "no reason given";
  std::free(message);
  if (!raw)
    return impl->createFailed(*plugin, "cannot create the backend: " + reason);

  // The deleter holds the library, so the plugin's code stays mapped for
  // as long as the backend lives, and destroys through the plugin, which
  // allocated it.
  std::shared_ptr<Backend> backend(
      static_cast<Backend *>(raw),
      [library = plugin->library, destroy = plugin->descriptor->destroyBackend](
          Backend *b) { destroy(b); });
  if (backend->getName() != plugin->info.name)
    return impl->createFailed(
        *plugin, "created a backend named '" + backend->getName() +
                     "', but its descriptor says '" + plugin->info.name + "'");
  return backend;
}
