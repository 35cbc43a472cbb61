//===- PluginSupport.cpp - The Backend of a DeviceTarget ------------------===//
#include "tessera/Backend/PluginSupport.h"

#include "llvm/IR/Module.h"

using namespace mlir;
using namespace mlir::tessera;

DeviceBackend::DeviceBackend(const DeviceTarget &target)
    : target(target), driver(target.createDriver()) {}

DeviceBackend::~DeviceBackend() = default;

llvm::StringRef DeviceBackend::getName() const { return target.name; }

llvm::StringRef DeviceBackend::getDescription() const {
  return target.description;
}

std::vector<std::string> DeviceBackend::getLanguageModules() const {
  return {target.languageModules.begin(), target.languageModules.end()};
}

std::vector<std::string> DeviceBackend::getArchitectures() const {
  return target.getArchitectures();
}

llvm::Expected<TargetDescription>
DeviceBackend::describe(llvm::StringRef arch) {
  if (!arch.empty())
    return target.describeArch(arch);
  if (driver->getDeviceCount() == 0)
    return target.describeArch(target.getArchitectures().front());
  llvm::Expected<DeviceProperties> props = driver->getDeviceProperties(0);
  if (!props)
    return props.takeError();
  return target.describeDevice(*props);
}

void DeviceBackend::registerDialects(DialectRegistry &registry) const {
  target.registerDialects(registry);
}

llvm::Error DeviceBackend::buildPipeline(Pipeline &pipeline,
                                         const TargetDescription &description,
                                         const CompileOptions &options) {
  return target.buildPipeline(pipeline, description, options);
}

llvm::Expected<std::unique_ptr<llvm::Module>>
DeviceBackend::translateToLLVMIR(ModuleOp module, llvm::LLVMContext &context,
                                 const TargetDescription &description,
                                 const CompileOptions &options) {
  return target.translateToLLVMIR(module, context, description, options);
}

llvm::Expected<std::string>
DeviceBackend::emitAssembly(llvm::Module &module,
                            const TargetDescription &description,
                            const CompileOptions &options) {
  return target.emitAssembly(module, description, options);
}

llvm::Error DeviceBackend::emitBinary(llvm::Module &module,
                                      CompiledKernel &kernel,
                                      const TargetDescription &description,
                                      const CompileOptions &options) {
  return target.emitBinary(module, kernel, description, options);
}

Driver &DeviceBackend::getDriver() { return *driver; }

void mlir::tessera::destroyBackendInstance(void *backend) {
  delete static_cast<Backend *>(backend);
}
