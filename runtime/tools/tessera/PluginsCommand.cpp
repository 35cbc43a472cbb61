//===- PluginsCommand.cpp - tessera plugins -------------------------------===//
//
// Lists every plugin the host accepted, in precedence order: name, version,
// file and where it was found; its description; its devices with their
// properties (or why it has none); and the target description of its
// default architecture. Then one line per file that failed to load. Never
// creates more than each plugin's backend; exits 0 even when some plugin
// failed (the listing is the point), 1 only on bad usage.
//
//===----------------------------------------------------------------------===//
#include "Commands.h"

#include "tessera/Backend/Backend.h"
#include "tessera/Runtime/Device.h"
#include "tessera/Runtime/PluginBackends.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir::tessera;
using namespace mlir::tessera::runtime;
using namespace mlir::tessera::tool;
namespace cl = llvm::cl;

static void printDevices(llvm::raw_ostream &os,
                         const std::shared_ptr<Backend> &backend) {
  Driver &driver = backend->getDriver();
  unsigned count = driver.getDeviceCount();
  if (count == 0) {
    std::string why = driver.getUnavailableReason();
    os << "    devices: none (" << (why.empty() ? "no reason given" : why)
       << ")\n";
    return;
  }
  os << "    devices: " << count << "\n";
  for (unsigned i = 0; i < count; ++i) {
    llvm::Expected<std::unique_ptr<Device>> device = Device::open(backend, i);
    if (!device) {
      os << "      " << i << ": " << llvm::toString(device.takeError()) << "\n";
      continue;
    }
    os << "      " << i << ": " << (*device)->describe() << "\n        ";
    bool first = true;
    for (const auto &[name, value] : (*device)->getPropertyList()) {
      os << (first ? "" : " ") << name << "=" << value;
      first = false;
    }
    os << "\n";
  }
}

int mlir::tessera::tool::runPluginsCommand(int argc, char **argv) {
  static cl::OptionCategory category("tessera plugins options");
  static SessionFlags flags(category);
  parseSubcommand(argc, argv, category,
                  "Lists the backend plugins, their devices and targets\n");
  // The environment fills what the flags leave unset (TESSERA_ARCH, ...).
  llvm::Expected<RuntimeOptions> flagOptions = flags.getRuntimeOptions();
  if (!flagOptions) {
    printError(flagOptions.takeError());
    return 1;
  }
  RuntimeOptions options = resolveRuntimeOptions(std::move(*flagOptions));

  PluginBackendProvider provider(options.pluginPaths);
  PluginRegistry &registry = provider.getRegistry();
  llvm::raw_ostream &os = llvm::outs();
  llvm::ArrayRef<PluginInfo> plugins = registry.enumerate();
  os << "plugins:" << (plugins.empty() ? " none" : "") << "\n";
  for (const PluginInfo &info : plugins) {
    os << "  " << info.name << " " << info.version << "  " << info.path << " ("
       << stringifyPluginOrigin(info.origin) << ")\n"
       << "    " << info.description << "\n";
    llvm::Expected<std::shared_ptr<Backend>> backend =
        registry.create(info.name);
    if (!backend) {
      // The message names the file and says what failed.
      os << "    error: " << llvm::toString(backend.takeError()) << "\n";
      continue;
    }
    printDevices(os, *backend);
    std::vector<std::string> archs = (*backend)->getArchitectures();
    os << "    architectures: "
       << (archs.empty() ? std::string("none") : llvm::join(archs, ", "))
       << "\n";
    llvm::Expected<TargetDescription> target =
        (*backend)->describe(options.arch);
    if (target)
      os << "    target " << target->arch << ": " << target->str() << "\n";
    else
      os << "    target: " << llvm::toString(target.takeError()) << "\n";
  }
  // Last: creating the backends above may have added failures.
  llvm::ArrayRef<PluginLoadFailure> failures = registry.getLoadFailures();
  os << "load failures:" << (failures.empty() ? " none" : "") << "\n";
  for (const PluginLoadFailure &failure : failures)
    os << "  " << failure.message << "\n";
  return 0;
}
