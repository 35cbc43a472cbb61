//===- Plugin.cpp - The AMDGPU backend plugin's entry point ---------------===//
//
// The plugin as data: its identity and the functions of each step, defined
// in the files that own them (Target.cpp, Pipeline.cpp, Emitter.cpp,
// HipDriver.cpp). The descriptor is constant data, so loading the plugin
// runs none of its code.
//
//===----------------------------------------------------------------------===//
#include "Emitter.h"
#include "HipDriver.h"
#include "Pipeline.h"
#include "Target.h"

#include "tessera/Backend/PluginSupport.h"
#include "tessera/Plugin/PluginABI.h"

#include "llvm/Config/llvm-config.h"

using namespace mlir::tessera;
using namespace mlir::tessera::amdgpu;

namespace {
constexpr llvm::StringLiteral kLanguageModules[] = {"hip"};

constexpr DeviceTarget kTarget = {
    .name = kBackendName,
    .description = "AMD CDNA GPUs (gfx90a, gfx942, gfx950): LLVM AMDGPU -> "
                   "code object -> HSACO (linked by tessera-amdgpu-link)",
    .languageModules = kLanguageModules,
    .getArchitectures = amdgpu::getArchitectures,
    .describeArch = describeTarget,
    .describeDevice = describeDevice,
    .registerDialects = registerAMDGPUDialects,
    .buildPipeline = addStages,
    .translateToLLVMIR = translateToAMDGPUIR,
    .emitAssembly =
        [](llvm::Module &module, const TargetDescription &target,
           const CompileOptions &options) {
          return amdgpu::emitAssembly(module, target.arch, options);
        },
    .emitBinary = amdgpu::emitBinary,
    .createDriver = []() -> std::unique_ptr<Driver> {
      return createHipDriver();
    },
};

const TesseraPluginDescriptor kDescriptor = {
    TESSERA_PLUGIN_API_VERSION,
    kBackendName,
    TESSERA_PLUGIN_VERSION,
    LLVM_VERSION_MAJOR,
    "AMD CDNA GPUs: LLVM AMDGPU -> HSACO",
    &createDeviceBackend<kTarget>,
    &destroyBackendInstance,
};

} // namespace

TESSERA_DEFINE_PLUGIN(kDescriptor)
