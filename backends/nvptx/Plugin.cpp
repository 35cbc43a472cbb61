//===- Plugin.cpp - The NVPTX backend plugin's entry point ----------------===//
#include "CudaDriver.h"
#include "Emitter.h"
#include "MathLibrary.h"
#include "Pipeline.h"
#include "PtxAssembler.h"
#include "Target.h"
#include "TensorMaps.h"

#include "tessera/Backend/Backend.h"
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

/// Named metadata carrying, per kernel, what the launch needs and the LLVM
/// IR no longer says: {name, param types, param names, shared bytes}.
constexpr char kKernelsMetadata[] = "tessera.nvptx.kernels";

struct KernelInfo {
  std::string name;
  std::vector<std::string> types, names;
  uint64_t sharedMemory = 0;
  /// Tensor-map recipes, one per line (TensorMaps.h).
  std::string tensorMaps;
};

llvm::MDString *mdString(llvm::LLVMContext &ctx, llvm::StringRef s) {
  return llvm::MDString::get(ctx, s);
}

/// Records the kernels of `module` (LLVM dialect) into `llvmModule`.
void recordKernels(ModuleOp module, llvm::Module &llvmModule) {
  uint64_t shared = 0;
  if (auto attr = module->getAttrOfType<IntegerAttr>(kSharedMemoryAttrName))
    shared = attr.getInt();
  llvm::LLVMContext &ctx = llvmModule.getContext();
  llvm::NamedMDNode *md = llvmModule.getOrInsertNamedMetadata(kKernelsMetadata);
  module.walk([&](LLVM::LLVMFuncOp func) {
    auto types = func->getAttrOfType<ArrayAttr>(kParamTypesAttrName);
    auto names = func->getAttrOfType<ArrayAttr>(kParamNamesAttrName);
    if (!types || !names)
      return;
    auto join = [](ArrayAttr array) {
      SmallVector<StringRef> parts;
      for (Attribute a : array)
        parts.push_back(cast<StringAttr>(a).getValue());
      return llvm::join(parts, ",");
    };
    SmallVector<StringRef> recipes;
    if (auto maps = func->getAttrOfType<ArrayAttr>(kTensorMapsAttrName))
      for (Attribute a : maps)
        recipes.push_back(cast<StringAttr>(a).getValue());
    md->addOperand(llvm::MDNode::get(
        ctx, {mdString(ctx, func.getName()), mdString(ctx, join(types)),
              mdString(ctx, join(names)), mdString(ctx, std::to_string(shared)),
              mdString(ctx, llvm::join(recipes, "\n"))}));
  });
}

std::optional<KernelInfo> findKernel(llvm::Module &module,
                                     llvm::StringRef name) {
  llvm::NamedMDNode *md = module.getNamedMetadata(kKernelsMetadata);
  if (!md)
    return std::nullopt;
  for (llvm::MDNode *node : md->operands()) {
    auto field = [&](unsigned i) {
      return cast<llvm::MDString>(node->getOperand(i))->getString();
    };
    if (field(0) != name)
      continue;
    KernelInfo info;
    info.name = field(0).str();
    auto split = [](llvm::StringRef s) {
      std::vector<std::string> out;
      SmallVector<StringRef> parts;
      if (!s.empty())
        s.split(parts, ',');
      for (StringRef p : parts)
        out.push_back(p.str());
      return out;
    };
    info.types = split(field(1));
    info.names = split(field(2));
    field(3).getAsInteger(10, info.sharedMemory);
    if (node->getNumOperands() > 4)
      info.tensorMaps = field(4).str();
    return info;
  }
  return std::nullopt;
}

class NVPTXBackend : public Backend {
public:
  llvm::StringRef getName() const override { return kBackendName; }

  llvm::StringRef getDescription() const override {
    return "NVIDIA GPUs (sm_80 to sm_90a): LLVM NVPTX -> PTX -> cubin "
           "(nvJitLink, ptxas or the driver's JIT)";
  }

  std::vector<std::string> getArchitectures() const override {
    return nvptx::getArchitectures();
  }

  llvm::Expected<TargetDescription> describe(llvm::StringRef arch) override {
    if (!arch.empty())
      return describeTarget(arch);
    if (driver.getDeviceCount() > 0) {
      llvm::Expected<DeviceProperties> props = driver.getDeviceProperties(0);
      if (!props)
        return props.takeError();
      return describeDevice(*props);
    }
    return describeTarget(getArchitectures().front());
  }

  void registerDialects(DialectRegistry &registry) const override {
    registerNVPTXDialects(registry);
  }

  llvm::Error buildPipeline(Pipeline &pipeline, const TargetDescription &target,
                            const CompileOptions &) override {
    llvm::Expected<Arch> arch = parseArch(target.arch);
    if (!arch)
      return arch.takeError();
    return addStages(pipeline, *arch);
  }

  llvm::Expected<std::unique_ptr<llvm::Module>>
  translateToLLVMIR(ModuleOp module, llvm::LLVMContext &context,
                    const TargetDescription &target,
                    const CompileOptions &options) override {
    if (failed(resolveMathSymbols(module)))
      return llvm::createStringError(
          "nvptx: a math function has no libdevice counterpart");
    llvm::Expected<std::unique_ptr<llvm::Module>> llvmModule =
        translateToNVVMIR(module, context, target, options);
    if (!llvmModule)
      return llvmModule.takeError();
    recordKernels(module, **llvmModule);
    return llvmModule;
  }

  llvm::Expected<std::string>
  emitAssembly(llvm::Module &module, const TargetDescription &target,
               const CompileOptions &options) override {
    return emitPTX(module, target.arch, options);
  }

  llvm::Expected<CompiledKernel>
  emitBinary(llvm::Module &module, llvm::StringRef kernelName,
             const TargetDescription &target,
             const CompileOptions &options) override {
    std::optional<KernelInfo> info = findKernel(module, kernelName);
    if (!info)
      return llvm::createStringError("nvptx: no kernel '" + kernelName +
                                     "' in the module");
    llvm::Expected<std::string> ptx = emitPTX(module, target.arch, options);
    if (!ptx)
      return ptx.takeError();
    CompiledKernel kernel;
    kernel.backend = kBackendName;
    kernel.arch = target.arch;
    kernel.name = info->name;
    for (auto [i, type] : llvm::enumerate(info->types))
      kernel.params.push_back(
          {i < info->names.size() ? info->names[i] : "arg" + std::to_string(i),
           type});
    kernel.numWarps = options.numWarps;
    kernel.threadsPerWarp = target.warpSize;
    kernel.numCTAs = options.numCTAs;
    kernel.numStages = options.numStages;
    kernel.sharedMemoryBytes = info->sharedMemory;
    if (llvm::Error err =
            assemblePTX(*ptx, info->name, target.arch, options, kernel))
      return std::move(err);
    kernel.metadata["kernel"] = info->name;
    if (!info->tensorMaps.empty())
      kernel.metadata[kTensorMapsMetadata.str()] = info->tensorMaps;
    return kernel;
  }

  Driver &getDriver() override { return driver; }

private:
  CudaDriver driver;
};

void *createBackend(char **) {
  return static_cast<Backend *>(new NVPTXBackend());
}

void destroyBackend(void *backend) { delete static_cast<Backend *>(backend); }

const TesseraPluginDescriptor kDescriptor = {
    TESSERA_PLUGIN_API_VERSION,
    "nvptx",
    TESSERA_PLUGIN_VERSION,
    LLVM_VERSION_MAJOR,
    "NVIDIA GPUs: LLVM NVPTX -> PTX -> cubin",
    &createBackend,
    &destroyBackend,
};

} // namespace

TESSERA_DEFINE_PLUGIN(kDescriptor)
