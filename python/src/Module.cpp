//===- Module.cpp - The tessera._C extension module -----------------------===//
//
// The module's entry point: the version, the error type, what
// `tessera plugins` lists, and the classes of Session.cpp, Kernel.cpp and
// Tuning.cpp.
//
//===----------------------------------------------------------------------===//
#include "Binding.h"

#include "tessera/Backend/Backend.h"
#include "tessera/Plugin/PluginRegistry.h"
#include "tessera/Runtime/Device.h"
#include "tessera/Runtime/PluginBackends.h"
#include "tessera/Support/Version.h"

#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

using namespace tessera::python;
using namespace mlir::tessera;

std::string tessera::python::takeMessage(llvm::Error err) {
  std::string text = llvm::toString(std::move(err));
  while (!text.empty() && text.back() == '\n')
    text.pop_back();
  return text;
}

void tessera::python::check(llvm::Error err) {
  if (err)
    throw TesseraError(takeMessage(std::move(err)));
}

/// What `tessera plugins` prints, as data: one dict per accepted plugin,
/// then one per file that failed to load (with only `path` and `error`).
static nb::list listPlugins(const std::vector<std::string> &paths) {
  rt::PluginBackendProvider provider(paths);
  PluginRegistry &registry = provider.getRegistry();
  nb::list result;
  for (const PluginInfo &info : registry.enumerate()) {
    nb::dict plugin;
    plugin["name"] = info.name;
    plugin["version"] = info.version;
    plugin["description"] = info.description;
    plugin["path"] = info.path;
    plugin["origin"] = stringifyPluginOrigin(info.origin).str();
    plugin["api_version"] = info.apiVersion;
    llvm::Expected<std::shared_ptr<Backend>> backend =
        registry.create(info.name);
    if (!backend) {
      plugin["error"] = takeMessage(backend.takeError());
      result.append(plugin);
      continue;
    }
    Driver &driver = (*backend)->getDriver();
    unsigned count = driver.getDeviceCount();
    nb::list devices;
    for (unsigned i = 0; i < count; ++i) {
      nb::dict entry;
      entry["index"] = i;
      llvm::Expected<std::unique_ptr<rt::Device>> device =
          rt::Device::open(*backend, i);
      if (!device) {
        entry["error"] = takeMessage(device.takeError());
      } else {
        entry["name"] = (*device)->getProperties().name;
        entry["arch"] = (*device)->getProperties().arch;
        for (const auto &[name, value] : (*device)->getPropertyList())
          entry[name.c_str()] = value;
      }
      devices.append(entry);
    }
    plugin["devices"] = devices;
    plugin["unavailable_reason"] =
        count ? std::string() : driver.getUnavailableReason();
    plugin["architectures"] = (*backend)->getArchitectures();
    llvm::Expected<TargetDescription> target = (*backend)->describe("");
    if (target) {
      plugin["target_arch"] = target->arch;
      plugin["target"] = target->str();
    } else {
      plugin["target_error"] = takeMessage(target.takeError());
    }
    result.append(plugin);
  }
  for (const PluginLoadFailure &failure : registry.getLoadFailures()) {
    nb::dict entry;
    entry["path"] = failure.path;
    entry["error"] = failure.message;
    result.append(entry);
  }
  return result;
}

NB_MODULE(_C, m) {
  m.doc() = "The binding of Tessera's C++ runtime (see _C.pyi).";
  m.attr("__version__") = getTesseraVersion().str();
  m.attr("triton_version") = "3.6.0";
  nb::exception<TesseraError>(m, "TesseraError", PyExc_RuntimeError);

  m.def("plugins", &listPlugins,
        nb::arg("plugin_paths") = std::vector<std::string>(),
        "What `tessera plugins` lists: each plugin's name, version, path, "
        "architectures, devices (or why it has none) and target; then the "
        "files that failed to load.");

  bindSession(m);
  bindKernel(m);
  bindTuning(m);
}
