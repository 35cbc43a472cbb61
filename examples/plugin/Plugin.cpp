//===- Plugin.cpp - The example plugin's descriptor and entry point -------===//
//
// What the host reads before it runs any of the plugin's code: the ABI
// version, the name (TESSERA_PLUGIN_NAME, from tessera_add_plugin), the
// plugin's version and the LLVM it was built with. The backend is created
// only when the host asks.
//
//===----------------------------------------------------------------------===//
#include "ExampleBackend.h"

#include "tessera/Plugin/PluginABI.h"

#include "llvm/Config/llvm-config.h"

using namespace example;

namespace {
constexpr char kDescription[] =
    "example built out of the tree: exports each kernel as tessera_gpu MLIR";

void *createBackend(char **error) {
  return static_cast<mlir::tessera::Backend *>(new ExampleBackend());
}

void destroyBackend(void *backend) {
  delete static_cast<mlir::tessera::Backend *>(backend);
}

constexpr TesseraPluginDescriptor kDescriptor = {
    /*apiVersion=*/TESSERA_PLUGIN_API_VERSION,
    /*name=*/TESSERA_PLUGIN_NAME,
    /*version=*/TESSERA_PLUGIN_VERSION,
    /*llvmMajor=*/LLVM_VERSION_MAJOR,
    /*description=*/kDescription,
    /*createBackend=*/createBackend,
    /*destroyBackend=*/destroyBackend,
};
} // namespace

TESSERA_DEFINE_PLUGIN(kDescriptor)

llvm::StringRef ExampleBackend::getName() const { return TESSERA_PLUGIN_NAME; }

llvm::StringRef ExampleBackend::getDescription() const { return kDescription; }
