//===- Plugin.cpp - The null plugin's identity and entry point ------------===//
//
// The plugin as data: its identity and the function of each step, defined
// in the file that owns it (NullBackend.h lists them). The descriptor and
// the DeviceTarget are constant data and the backend is created only when
// the host asks, so loading the plugin runs none of its code: no static
// constructors, nothing the host cannot refuse.
//
//===----------------------------------------------------------------------===//
#include "NullBackend.h"

#include "tessera/Backend/PluginSupport.h"
#include "tessera/Plugin/PluginABI.h"

#include "llvm/Config/llvm-config.h"

using namespace mlir::tessera;

namespace {
// TODO(newtarget): what your plugin compiles for, one line.
constexpr char kDescription[] =
    "compiles kernels to LLVM IR for a generic GPU and runs nothing; the "
    "template for new GPU backends";

// TODO(newtarget): your math module under triton.language.extra, if
// kernels import one (nvptx: "cuda", amdgpu: "hip").
constexpr llvm::ArrayRef<llvm::StringLiteral> kLanguageModules = {};

constexpr DeviceTarget kTarget = {
    .name = null::kBackendName,
    .description = kDescription,
    .languageModules = kLanguageModules,
    .getArchitectures = null::getArchitectures,
    .describeArch = null::describeArch,
    .describeDevice = null::describeDevice,
    .registerDialects = null::registerDialects,
    .buildPipeline = null::buildPipeline,
    .translateToLLVMIR = null::translateToLLVMIR,
    .emitAssembly = null::emitAssembly,
    .emitBinary = null::emitBinary,
    .createDriver = null::createDriver,
};

constexpr TesseraPluginDescriptor kDescriptor = {
    /*apiVersion=*/TESSERA_PLUGIN_API_VERSION,
    /*name=*/null::kBackendName,
    /*version=*/TESSERA_PLUGIN_VERSION,
    /*llvmMajor=*/LLVM_VERSION_MAJOR,
    /*description=*/kDescription,
    // A backend whose initialization can fail has its own createBackend:
    // it returns null and sets *error to a malloc'd message. Devices that
    // are absent are not such a failure but a driver status.
    /*createBackend=*/createDeviceBackend<kTarget>,
    /*destroyBackend=*/destroyBackendInstance,
};
} // namespace

TESSERA_DEFINE_PLUGIN(kDescriptor)
