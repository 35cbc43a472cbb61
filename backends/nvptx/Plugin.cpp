//===- Plugin.cpp - The NVPTX backend plugin's entry point ----------------===//
//
// The plugin as data: its identity and the functions of each step, defined
// in the files that own them (Target.cpp, Pipeline.cpp, Emitter.cpp,
// CudaDriver.cpp). The descriptor is constant data, so loading the plugin
// runs none of its code.
//
//===----------------------------------------------------------------------===//
#include "CudaDriver.h"
#include "Emitter.h"
#include "Pipeline.h"
#include "Target.h"

#include "tessera/Backend/PluginSupport.h"
#include "tessera/Plugin/PluginABI.h"

#include "llvm/Config/llvm-config.h"

using namespace mlir::tessera;
using namespace mlir::tessera::nvptx;

namespace {
constexpr llvm::StringLiteral kLanguageModules[] = {"cuda"};

constexpr DeviceTarget kTarget = {
    .name = kBackendName,
    .description = "NVIDIA GPUs (sm_80 to sm_90a): LLVM NVPTX -> PTX -> cubin "
                   "(nvJitLink, ptxas or the driver's JIT)",
    .languageModules = kLanguageModules,
    .getArchitectures = nvptx::getArchitectures,
    .describeArch = describeTarget,
    .describeDevice = describeDevice,
    .registerDialects = registerNVPTXDialects,
    .buildPipeline = addStages,
    .translateToLLVMIR = translateToNVVMIR,
    .emitAssembly =
        [](llvm::Module &module, const TargetDescription &target,
           const CompileOptions &options) {
          return emitPTX(module, target.arch, options);
        },
    .emitBinary = nvptx::emitBinary,
    .createDriver = []() -> std::unique_ptr<Driver> {
      return createCudaDriver();
    },
};

const TesseraPluginDescriptor kDescriptor = {
    TESSERA_PLUGIN_API_VERSION,
    kBackendName,
    TESSERA_PLUGIN_VERSION,
    LLVM_VERSION_MAJOR,
    "NVIDIA GPUs: LLVM NVPTX -> PTX -> cubin",
    &createDeviceBackend<kTarget>,
    &destroyBackendInstance,
};

} // namespace

TESSERA_DEFINE_PLUGIN(kDescriptor)
