//===- TestSupport.h - Helpers of the plugin host's tests -------*- C++ -*-===//
#ifndef TESSERA_PLUGIN_UNITTESTS_TESTSUPPORT_H
#define TESSERA_PLUGIN_UNITTESTS_TESTSUPPORT_H

#include "tessera/Plugin/PluginSearch.h"

#include <cstdlib>
#include <optional>
#include <string>

namespace mlir::tessera::test {

/// The fixture plugin `tessera-plugin-fixture-<name>.so`.
inline std::string fixture(const std::string &name) {
  return std::string(TESSERA_TEST_FIXTURE_DIR) + "/tessera-plugin-fixture-" +
         name + ".so";
}

/// Searches `paths` only: no environment, no default directories, so that
/// what a test sees does not depend on the machine.
inline PluginSearchOptions only(std::vector<std::string> paths) {
  PluginSearchOptions options;
  options.paths = std::move(paths);
  options.useEnvironment = false;
  options.useDefaultDirectories = false;
  return options;
}

/// Sets TESSERA_PLUGIN_PATH (or unsets it, given nullopt) for one scope.
class ScopedPluginPath {
public:
  explicit ScopedPluginPath(std::optional<std::string> value) {
    if (const char *old = std::getenv(kPluginPathEnvVar.data()))
      saved = old;
    set(value);
  }
  ~ScopedPluginPath() { set(saved); }

private:
  static void set(const std::optional<std::string> &value) {
    if (value)
      ::setenv(kPluginPathEnvVar.data(), value->c_str(), /*overwrite=*/1);
    else
      ::unsetenv(kPluginPathEnvVar.data());
  }
  std::optional<std::string> saved;
};

} // namespace mlir::tessera::test

#endif // TESSERA_PLUGIN_UNITTESTS_TESTSUPPORT_H
