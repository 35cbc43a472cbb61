//===- PluginABI.h - The one C entry point of a Tessera plugin --*- C++ -*-===//
//
// A plugin exports one C function, `tesseraPluginEntry`, returning a
// versioned descriptor. The host checks the API version and the LLVM major
// version before it touches anything else, then creates the backend through
// the descriptor. Registration never relies on static constructors.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_PLUGIN_PLUGINABI_H
#define TESSERA_PLUGIN_PLUGINABI_H

#include <cstdint>

/// The version of this ABI. A host loads plugins built for its own version
/// or an older one it still supports, and refuses newer ones.
#define TESSERA_PLUGIN_API_VERSION 5u

/// The symbol every plugin exports.
#define TESSERA_PLUGIN_ENTRY_SYMBOL "tesseraPluginEntry"

extern "C" {

/// What a plugin tells the host about itself.
struct TesseraPluginDescriptor {
  /// TESSERA_PLUGIN_API_VERSION the plugin was built against.
  uint32_t apiVersion;
  /// The backend's name ("cpu", ...), unique among loaded plugins.
  const char *name;
  /// The plugin's own version string.
  const char *version;
  /// LLVM_VERSION_MAJOR the plugin was built against; it must equal the
  /// host's, as both share one libLLVM.
  uint32_t llvmMajor;
  /// One line describing the plugin.
  const char *description;
  /// Creates the backend: a `mlir::tessera::Backend *` converted to
  /// `void *` (so the host converts it back to exactly that type), whose
  /// getName() is `name`. On failure returns null and sets `*error` to a
  /// message allocated with malloc, which the host frees. A missing device
  /// is not a failure: the backend's driver reports it.
  void *(*createBackend)(char **error);
  /// Destroys what createBackend returned.
  void (*destroyBackend)(void *backend);
};

/// The type of the entry point.
typedef const TesseraPluginDescriptor *(*TesseraPluginEntryFn)(void);

} // extern "C"

/// Defines the entry point of a plugin: `TESSERA_DEFINE_PLUGIN(descriptor)`
/// where `descriptor` is a `static const TesseraPluginDescriptor`.
#define TESSERA_DEFINE_PLUGIN(descriptor)                                      \
  extern "C" __attribute__((visibility("default"))) const                      \
      TesseraPluginDescriptor *tesseraPluginEntry(void) {                      \
    return &(descriptor);                                                      \
  }

#endif // TESSERA_PLUGIN_PLUGINABI_H
