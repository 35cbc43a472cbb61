//===- Emitter.cpp - LLVM IR, assembly and objects for the host -----------===//
//
// The LLVM-dialect module becomes LLVM IR with the host's triple and data
// layout, optimized at O3 by the new pass manager for the target CPU (its
// features on every function, so that the vectorizers see the host's vector
// width). Assembly and objects come from the same target machine; the
// object is an ELF relocatable file the driver links with ORC. The kernels
// the module holds travel in named metadata (kKernelsMetadata) from the
// translation to emitBinary.
//
//===----------------------------------------------------------------------===//
#include "CpuBackend.h"
#include "Lowering.h"

#include "tessera/Support/Logging.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Transforms/Utils/Cloning.h"

#include <chrono>

using namespace mlir;
using namespace mlir::tessera;
using namespace mlir::tessera::cpu;

namespace {

struct KernelInfo {
  std::string name, entry;
  std::vector<std::string> signature, paramNames;
};

/// The kernels of the LLVM-dialect module: its entry wrappers.
std::vector<KernelInfo> collectKernels(ModuleOp module) {
  std::vector<KernelInfo> kernels;
  for (auto func : module.getOps<LLVM::LLVMFuncOp>()) {
    auto of = func->getAttrOfType<StringAttr>(kEntryOfAttrName);
    if (!of)
      continue;
    KernelInfo info;
    info.name = of.str();
    info.entry = func.getSymName().str();
    if (auto sig = func->getAttrOfType<ArrayAttr>(kSignatureAttrName))
      for (Attribute a : sig)
        info.signature.push_back(cast<StringAttr>(a).str());
    if (auto names = func->getAttrOfType<ArrayAttr>(kParamNamesAttrName))
      for (Attribute a : names)
        info.paramNames.push_back(cast<StringAttr>(a).str());
    kernels.push_back(std::move(info));
  }
  return kernels;
}

void addKernelsMetadata(llvm::Module &module,
                        const std::vector<KernelInfo> &kernels) {
  llvm::LLVMContext &ctx = module.getContext();
  llvm::NamedMDNode *node = module.getOrInsertNamedMetadata(kKernelsMetadata);
  for (const KernelInfo &k : kernels) {
    llvm::Metadata *fields[] = {
        llvm::MDString::get(ctx, k.name), llvm::MDString::get(ctx, k.entry),
        llvm::MDString::get(ctx, llvm::join(k.signature, ",")),
        llvm::MDString::get(ctx, llvm::join(k.paramNames, ","))};
    node->addOperand(llvm::MDTuple::get(ctx, fields));
  }
}

std::optional<KernelInfo> findKernel(llvm::Module &module,
                                     llvm::StringRef name) {
  llvm::NamedMDNode *node = module.getNamedMetadata(kKernelsMetadata);
  if (!node)
    return std::nullopt;
  auto str = [](const llvm::MDOperand &op) {
    return cast<llvm::MDString>(op.get())->getString();
  };
  auto split = [](llvm::StringRef text) {
    std::vector<std::string> parts;
    if (text.empty())
      return parts;
    llvm::SmallVector<llvm::StringRef> pieces;
    text.split(pieces, ',');
    for (llvm::StringRef p : pieces)
      parts.push_back(p.str());
    return parts;
  };
  for (llvm::MDNode *kernel : node->operands()) {
    // The kernel's own name or its entry symbol.
    if (kernel->getNumOperands() != 4 || (str(kernel->getOperand(0)) != name &&
                                          str(kernel->getOperand(1)) != name))
      continue;
    KernelInfo info;
    info.name = str(kernel->getOperand(0)).str();
    info.entry = str(kernel->getOperand(1)).str();
    info.signature = split(str(kernel->getOperand(2)));
    info.paramNames = split(str(kernel->getOperand(3)));
    return info;
  }
  return std::nullopt;
}

/// Runs `module` through the target machine's code generator into a string.
llvm::Expected<std::string> codegen(llvm::Module &module,
                                    llvm::TargetMachine &machine,
                                    llvm::CodeGenFileType type,
                                    StageTimes *times) {
  StageTimer timer(times, "codegen");
  // Code generation rewrites the IR it runs on; the caller's module stays
  // as it was.
  std::unique_ptr<llvm::Module> clone = llvm::CloneModule(module);
  llvm::SmallString<0> out;
  llvm::raw_svector_ostream stream(out);
  llvm::legacy::PassManager pm;
  if (machine.addPassesToEmitFile(pm, stream, nullptr, type))
    return llvm::createStringError("cpu: the target machine cannot emit this "
                                   "file type");
  pm.run(*clone);
  return std::string(out.str());
}

/// The largest module (LLVM instructions before optimization) whose loops
/// LLVM may unroll.
constexpr unsigned kMaxInstructionsToUnroll = 4096;

} // namespace

llvm::Expected<std::unique_ptr<llvm::Module>>
cpu::translateToLLVMIR(ModuleOp module, llvm::LLVMContext &context,
                       const TargetDescription &target,
                       const CompileOptions &options) {
  auto start = std::chrono::steady_clock::now();
  std::vector<KernelInfo> kernels = collectKernels(module);
  if (kernels.empty())
    return llvm::createStringError(
        "cpu: the module has no kernel entry (was it lowered by the CPU "
        "pipeline?)");
  StageTimer translateTimer(options.times, "translate");
  registerBuiltinDialectTranslation(*module->getContext());
  registerLLVMDialectTranslation(*module->getContext());
  std::unique_ptr<llvm::Module> llvmModule =
      mlir::translateModuleToLLVMIR(module, context, "tessera");
  if (!llvmModule)
    return llvm::createStringError(
        "cpu: translation to LLVM IR failed (see the diagnostics)");

  llvm::Expected<std::unique_ptr<llvm::TargetMachine>> machine =
      createTargetMachine(target.arch);
  if (!machine)
    return machine.takeError();
  llvm::TargetMachine &tm = **machine;
  llvmModule->setTargetTriple(tm.getTargetTriple());
  llvmModule->setDataLayout(tm.createDataLayout());
  std::string cpuName = tm.getTargetCPU().str();
  std::string features = tm.getTargetFeatureString().str();
  for (llvm::Function &fn : *llvmModule) {
    if (fn.isDeclaration())
      continue;
    fn.addFnAttr("target-cpu", cpuName);
    if (!features.empty())
      fn.addFnAttr("target-features", features);
  }
  addKernelsMetadata(*llvmModule, kernels);
  translateTimer.stop();

  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PipelineTuningOptions tuning;
  tuning.LoopVectorization = true;
  tuning.SLPVectorization = true;
  // Unrolled, every loop over a block becomes straight-line code, and a
  // kernel of many block ops one huge basic block, on which InstCombine
  // and the machine scheduler take time quadratic in its size (200 stores
  // of 1024-element blocks: 6 s, against 1.6 s rolled). Past about twice
  // the size of the largest tutorial kernel (attention, ~1900
  // instructions), loops stay loops; the vectorizer still interleaves
  // them.
  unsigned size = 0;
  for (const llvm::Function &fn : *llvmModule)
    size += fn.getInstructionCount();
  tuning.LoopUnrolling = size <= kMaxInstructionsToUnroll;
  llvm::PassBuilder pb(&tm, tuning);
  pb.registerModuleAnalyses(mam);
  pb.registerCGSCCAnalyses(cgam);
  pb.registerFunctionAnalyses(fam);
  pb.registerLoopAnalyses(lam);
  pb.crossRegisterProxies(lam, fam, cgam, mam);
  llvm::ModulePassManager mpm =
      pb.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O3);
  StageTimer optimizeTimer(options.times, "optimize");
  mpm.run(*llvmModule, mam);
  optimizeTimer.stop();
  if (llvm::verifyModule(*llvmModule, &llvm::errs()))
    return llvm::createStringError("cpu: optimized LLVM IR is invalid");
  getLogger().debug(
      "cpu: LLVM IR for {} kernel(s) optimized for {} in {:.1f} ms",
      kernels.size(), cpuName,
      std::chrono::duration<double, std::milli>(
          std::chrono::steady_clock::now() - start)
          .count());
  return llvmModule;
}

llvm::Expected<std::string> cpu::emitAssembly(llvm::Module &module,
                                              const TargetDescription &target,
                                              const CompileOptions &options) {
  llvm::Expected<std::unique_ptr<llvm::TargetMachine>> machine =
      createTargetMachine(target.arch);
  if (!machine)
    return machine.takeError();
  return codegen(module, **machine, llvm::CodeGenFileType::AssemblyFile,
                 options.times);
}

llvm::Expected<CompiledKernel> cpu::emitBinary(llvm::Module &module,
                                               llvm::StringRef kernelName,
                                               const TargetDescription &target,
                                               const CompileOptions &options) {
  std::optional<KernelInfo> info = findKernel(module, kernelName);
  if (!info)
    return llvm::createStringError("cpu: no kernel '" + kernelName +
                                   "' in the module");
  llvm::Expected<std::unique_ptr<llvm::TargetMachine>> machine =
      createTargetMachine(target.arch);
  if (!machine)
    return machine.takeError();
  llvm::Expected<std::string> object = codegen(
      module, **machine, llvm::CodeGenFileType::ObjectFile, options.times);
  if (!object)
    return object.takeError();
  CompiledKernel kernel;
  kernel.backend = kBackendName.str();
  kernel.arch = target.arch;
  kernel.name = info->entry;
  kernel.format = "elf-object";
  kernel.binary = std::move(*object);
  for (auto [i, type] : llvm::enumerate(info->signature)) {
    std::string name =
        i < info->paramNames.size() && !info->paramNames[i].empty()
            ? info->paramNames[i]
            : "arg" + std::to_string(i);
    kernel.params.push_back({name, type});
  }
  // One thread per program instance, whatever the kernel asked for.
  kernel.numWarps = 1;
  kernel.threadsPerWarp = 1;
  kernel.numCTAs = 1;
  kernel.numStages = options.numStages;
  kernel.sharedMemoryBytes = 0;
  kernel.metadata["kernel"] = info->name;
  kernel.metadata["requested_num_warps"] = std::to_string(options.numWarps);
  kernel.metadata["triple"] = module.getTargetTriple().str();
  kernel.metadata["cpu"] = (*machine)->getTargetCPU().str();
  return kernel;
}
