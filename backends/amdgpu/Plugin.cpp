//===- Plugin.cpp - The AMDGPU backend plugin's entry point ---------------===//
#include "CodeObject.h"
#include "Emitter.h"
#include "HipDriver.h"
#include "MathLibrary.h"
#include "Pipeline.h"
#include "Target.h"

#include "tessera/Backend/Backend.h"
#include "tessera/Backend/PluginSupport.h"
#include "tessera/Plugin/PluginABI.h"

#include "llvm/Config/llvm-config.h"
#include "llvm/IR/Module.h"

using namespace mlir;
using namespace mlir::tessera;
using namespace mlir::tessera::amdgpu;

namespace {

class AMDGPUBackend : public Backend {
public:
  llvm::StringRef getName() const override { return kBackendName; }

  llvm::StringRef getDescription() const override {
    return "AMD CDNA GPUs (gfx90a, gfx942, gfx950): LLVM AMDGPU -> code "
           "object -> HSACO (lld, in process)";
  }
  std::vector<std::string> getLanguageModules() const override {
    return {"hip"};
  }

  std::vector<std::string> getArchitectures() const override {
    return amdgpu::getArchitectures();
  }

  llvm::Expected<TargetDescription> describe(llvm::StringRef arch) override {
    return describeArchOrDevice(driver, arch, getArchitectures().front(),
                                describeTarget, describeDevice);
  }

  void registerDialects(DialectRegistry &registry) const override {
    registerAMDGPUDialects(registry);
  }

  llvm::Error buildPipeline(Pipeline &pipeline, const TargetDescription &target,
                            const CompileOptions &) override {
    llvm::Expected<Arch> arch = parseArch(target.arch);
    if (!arch)
      return arch.takeError();
    return addStages(pipeline, *arch, target);
  }

  llvm::Expected<std::unique_ptr<llvm::Module>>
  translateToLLVMIR(ModuleOp module, llvm::LLVMContext &context,
                    const TargetDescription &target,
                    const CompileOptions &options) override {
    return translateToAMDGPUIR(module, context, target, options);
  }

  llvm::Expected<std::string>
  emitAssembly(llvm::Module &module, const TargetDescription &target,
               const CompileOptions &options) override {
    return amdgpu::emitAssembly(module, target.arch, options);
  }

  llvm::Error emitBinary(llvm::Module &module, CompiledKernel &kernel,
                         const TargetDescription &target,
                         const CompileOptions &options) override {
    llvm::Expected<std::string> hsaco = emitHsaco(module, target.arch, options);
    if (!hsaco)
      return hsaco.takeError();
    llvm::Expected<CodeObjectResources> resources =
        readKernelResources(*hsaco, kernel.name);
    if (!resources)
      return resources.takeError();
    kernel.format = "hsaco";
    kernel.binary = std::move(*hsaco);
    // On CDNA the code object's VGPR count is the unified register file's
    // (architectural VGPRs, aligned, plus the AGPRs it also lists).
    kernel.registers = int(resources->vgprs);
    kernel.spillBytes = int(resources->scratchBytes);
    kernel.metadata["vgprs"] = std::to_string(resources->vgprs);
    kernel.metadata["agprs"] = std::to_string(resources->agprs);
    kernel.metadata["sgprs"] = std::to_string(resources->sgprs);
    kernel.metadata["vgpr-spills"] = std::to_string(resources->vgprSpills);
    kernel.metadata["sgpr-spills"] = std::to_string(resources->sgprSpills);
    kernel.metadata["scratch-bytes"] = std::to_string(resources->scratchBytes);
    kernel.metadata["static-lds-bytes"] = std::to_string(resources->ldsBytes);
    return llvm::Error::success();
  }

  Driver &getDriver() override { return driver; }

private:
  HipDriver driver;
};

const TesseraPluginDescriptor kDescriptor = {
    TESSERA_PLUGIN_API_VERSION,
    "amdgpu",
    TESSERA_PLUGIN_VERSION,
    LLVM_VERSION_MAJOR,
    "AMD CDNA GPUs: LLVM AMDGPU -> HSACO",
    &createBackendInstance<AMDGPUBackend>,
    &destroyBackendInstance,
};

} // namespace

TESSERA_DEFINE_PLUGIN(kDescriptor)
