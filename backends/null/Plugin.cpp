//===- Plugin.cpp - The null plugin's identity and entry point ------------===//
//
// The descriptor is constant data and the backend is created only when the
// host asks, so loading the plugin runs none of its code: no static
// constructors, nothing the host cannot refuse.
//
//===----------------------------------------------------------------------===//
#include "NullBackend.h"

#include "tessera/Plugin/PluginABI.h"

#include "llvm/Config/llvm-config.h"

using namespace mlir::tessera;

namespace {
// TODO(newtarget): what your plugin compiles for, one line.
constexpr char kDescription[] =
    "compiles kernels to LLVM IR for a generic GPU and runs nothing; the "
    "template for new GPU backends";

void *createBackend(char **error) {
  // Nothing here can fail. A backend whose initialization can fail returns
  // null and sets *error to a malloc'd message; devices that are absent are
  // not such a failure but a driver status.
  return static_cast<Backend *>(new NullBackend());
}

void destroyBackend(void *backend) { delete static_cast<Backend *>(backend); }

constexpr TesseraPluginDescriptor kDescriptor = {
    /*apiVersion=*/TESSERA_PLUGIN_API_VERSION,
    /*name=*/kNullBackendName,
    /*version=*/TESSERA_PLUGIN_VERSION,
    /*llvmMajor=*/LLVM_VERSION_MAJOR,
    /*description=*/kDescription,
    /*createBackend=*/createBackend,
    /*destroyBackend=*/destroyBackend,
};
} // namespace

TESSERA_DEFINE_PLUGIN(kDescriptor)

llvm::StringRef NullBackend::getName() const { return kNullBackendName; }

llvm::StringRef NullBackend::getDescription() const { return kDescription; }
