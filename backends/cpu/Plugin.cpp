//===- Plugin.cpp - The CPU backend plugin's entry point ------------------===//
#include "CpuBackend.h"
#include "Passes.h"

#include "tessera/Plugin/PluginABI.h"

#include "llvm/Config/llvm-config.h"
#include "llvm/IR/Module.h"

#include <cstdlib>
#include <cstring>

using namespace mlir;
using namespace mlir::tessera;
using namespace mlir::tessera::cpu;

namespace {

class CpuBackend : public Backend {
public:
  llvm::StringRef getName() const override { return kBackendName; }

  llvm::StringRef getDescription() const override {
    return "host CPU: LLVM ORC JIT, one thread per program instance";
  }

  std::vector<std::string> getArchitectures() const override {
    return cpu::getArchitectures();
  }

  llvm::Expected<TargetDescription> describe(llvm::StringRef arch) override {
    return describeTarget(arch);
  }

  void registerDialects(DialectRegistry &registry) const override {
    registerCpuDialects(registry);
  }

  PipelineOptions
  getPipelineOptions(const TargetDescription &target,
                     const CompileOptions &options) const override {
    PipelineOptions result = Backend::getPipelineOptions(target, options);
    // A program instance is one thread, whatever the kernel's num_warps.
    result.numWarps = 1;
    result.threadsPerWarp = 1;
    result.numCTAs = 1;
    if (auto amx = target.extra.find(kAmxBf16Option); amx != target.extra.end())
      result.extra[kAmxBf16Option] = amx->second;
    return result;
  }

  llvm::Error buildPipeline(Pipeline &pipeline, const TargetDescription &,
                            const CompileOptions &) override {
    return addCpuStages(pipeline);
  }

  llvm::Expected<std::unique_ptr<llvm::Module>>
  translateToLLVMIR(ModuleOp module, llvm::LLVMContext &context,
                    const TargetDescription &target,
                    const CompileOptions &options) override {
    return cpu::translateToLLVMIR(module, context, target, options);
  }

  llvm::Expected<std::string>
  emitAssembly(llvm::Module &module, const TargetDescription &target,
               const CompileOptions &options) override {
    return cpu::emitAssembly(module, target, options);
  }

  llvm::Error emitBinary(llvm::Module &module, CompiledKernel &kernel,
                         const TargetDescription &target,
                         const CompileOptions &options) override {
    return cpu::emitBinary(module, kernel, target, options);
  }

  Driver &getDriver() override {
    if (!driver)
      driver = createDriver();
    return *driver;
  }

private:
  std::unique_ptr<Driver> driver;
};

void *createBackend(char **error) {
  if (llvm::Error err = initializeNativeTarget()) {
    std::string message = llvm::toString(std::move(err));
    *error = static_cast<char *>(std::malloc(message.size() + 1));
    if (*error)
      std::memcpy(*error, message.c_str(), message.size() + 1);
    return nullptr;
  }
  return static_cast<Backend *>(new CpuBackend());
}

void destroyBackend(void *backend) { delete static_cast<Backend *>(backend); }

const TesseraPluginDescriptor kDescriptor = {
    TESSERA_PLUGIN_API_VERSION,
    "cpu",
    TESSERA_PLUGIN_VERSION,
    LLVM_VERSION_MAJOR,
    "host CPU: LLVM ORC JIT, one thread per program instance",
    &createBackend,
    &destroyBackend,
};

} // namespace

TESSERA_DEFINE_PLUGIN(kDescriptor)
