//===- Plugin.cpp - The NVPTX backend plugin's entry point ----------------===//
#include "CudaDriver.h"
#include "Emitter.h"
#include "MathLibrary.h"
#include "Pipeline.h"
#include "PtxAssembler.h"
#include "Target.h"
#include "TensorMaps.h"

#include "tessera/Backend/Backend.h"
#include "tessera/Backend/PluginSupport.h"
#include "tessera/Conversion/TesseraGPUToLLVM.h"
#include "tessera/Plugin/PluginABI.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/Module.h"

#include <cstdlib>
#include <cstring>

using namespace mlir;
using namespace mlir::tessera;
using namespace mlir::tessera::nvptx;

namespace {

class NVPTXBackend : public Backend {
public:
  llvm::StringRef getName() const override { return kBackendName; }

  llvm::StringRef getDescription() const override {
    return "NVIDIA GPUs (sm_80 to sm_90a): LLVM NVPTX -> PTX -> cubin "
           "(nvJitLink, ptxas or the driver's JIT)";
  }
  std::vector<std::string> getLanguageModules() const override {
    return {"cuda"};
  }

  std::vector<std::string> getArchitectures() const override {
    return nvptx::getArchitectures();
  }

  llvm::Expected<TargetDescription> describe(llvm::StringRef arch) override {
    return describeArchOrDevice(driver, arch, getArchitectures().front(),
                                describeTarget, describeDevice);
  }

  void registerDialects(DialectRegistry &registry) const override {
    registerNVPTXDialects(registry);
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
    return translateToNVVMIR(module, context, target, options);
  }

  llvm::Expected<std::string>
  emitAssembly(llvm::Module &module, const TargetDescription &target,
               const CompileOptions &options) override {
    return emitPTX(module, target.arch, options);
  }

  llvm::Error emitBinary(llvm::Module &module, CompiledKernel &kernel,
                         const TargetDescription &target,
                         const CompileOptions &options) override {
    llvm::Expected<std::string> ptx = emitPTX(module, target.arch, options);
    if (!ptx)
      return ptx.takeError();
    StageTimer assembler(options.times, "ptx-assembler", /*external=*/true);
    return assemblePTX(*ptx, kernel.name, target.arch, options, kernel);
  }

  Driver &getDriver() override { return driver; }

private:
  CudaDriver driver;
};

const TesseraPluginDescriptor kDescriptor = {
    TESSERA_PLUGIN_API_VERSION,
    "nvptx",
    TESSERA_PLUGIN_VERSION,
    LLVM_VERSION_MAJOR,
    "NVIDIA GPUs: LLVM NVPTX -> PTX -> cubin",
    &createBackendInstance<NVPTXBackend>,
    &destroyBackendInstance,
};

} // namespace

TESSERA_DEFINE_PLUGIN(kDescriptor)
