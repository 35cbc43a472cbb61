//===- Emitter.cpp - LLVM IR, assembly and objects for the host -----------===//
//
// The LLVM-dialect module becomes LLVM IR with the host's triple and data
// layout, optimized at O3 by the new pass manager for the target CPU (its
// features on every function, so that the vectorizers see the host's vector
// width). Assembly and objects come from the same target machine; the
// object is an ELF relocatable file the driver links with ORC; the kernel
// it holds is the entry wrapper the host's CompiledKernel names.
//
//===----------------------------------------------------------------------===//
#include "CpuBackend.h"
#include "Lowering.h"
#include "VectorMath.h"

#include "tessera/Support/Logging.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/SystemLibraries.h"
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

/// The number of kernel entry wrappers of the LLVM-dialect module.
unsigned countKernelEntries(ModuleOp module) {
  return llvm::count_if(
      module.getOps<LLVM::LLVMFuncOp>(),
      [](LLVM::LLVMFuncOp func) { return func->hasAttr(kEntryOfAttrName); });
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
  // Static frames, and their sizes for launches that run instances on the
  // caller's stack.
  hoistStaticAllocas(*clone);
  machine.Options.EmitStackSizeSection = true;
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
  unsigned kernels = countKernelEntries(module);
  if (kernels == 0)
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
    // Vectors of the target's full width (the dot micro-kernels') stay in
    // whole registers: x86 splits 512-bit vectors in two where the CPU
    // prefers 256-bit ones unless the function asks for them.
    fn.addFnAttr("min-legal-vector-width",
                 std::to_string(target.maxVectorBits));
  }
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
  // Math calls in loops vectorize into the vector math library's variants
  // where the host has it (VectorMath.h); registered before the default
  // analyses, which then keep it.
  llvm::TargetLibraryInfoImpl libraryInfo(tm.getTargetTriple());
  if (loadVectorMathLibrary())
    libraryInfo.addVectorizableFunctionsFromVecLib(llvm::VectorLibrary::LIBMVEC,
                                                   tm.getTargetTriple());
  fam.registerPass([&] { return llvm::TargetLibraryAnalysis(libraryInfo); });
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
      "cpu: LLVM IR for {} kernel(s) optimized for {} in {:.1f} ms", kernels,
      cpuName,
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

llvm::Error cpu::emitBinary(llvm::Module &module, CompiledKernel &kernel,
                            const TargetDescription &target,
                            const CompileOptions &options) {
  llvm::Function *entry = module.getFunction(kernel.name);
  if (!entry || entry->isDeclaration())
    return llvm::createStringError("cpu: no kernel entry '" + kernel.name +
                                   "' in the module");
  llvm::Expected<std::unique_ptr<llvm::TargetMachine>> machine =
      createTargetMachine(target.arch);
  if (!machine)
    return machine.takeError();
  llvm::Expected<std::string> object = codegen(
      module, **machine, llvm::CodeGenFileType::ObjectFile, options.times);
  if (!object)
    return object.takeError();
  if (std::optional<uint64_t> stack = getStackBound(*object))
    kernel.metadata[kStackBytesMetadata.str()] = std::to_string(*stack);
  kernel.format = "elf-object";
  kernel.binary = std::move(*object);
  // One thread per program instance, whatever the kernel asked for.
  kernel.numWarps = 1;
  kernel.threadsPerWarp = 1;
  kernel.numCTAs = 1;
  kernel.sharedMemoryBytes = 0;
  kernel.metadata["requested_num_warps"] = std::to_string(options.numWarps);
  kernel.metadata["triple"] = module.getTargetTriple().str();
  kernel.metadata["cpu"] = (*machine)->getTargetCPU().str();
  // The loader must make the vector math library's variants resolvable.
  if (llvm::any_of(module.functions(), [](const llvm::Function &fn) {
        return fn.isDeclaration() && fn.getName().starts_with("_ZGV");
      }))
    kernel.metadata[kVectorMathMetadata.str()] = kVectorMathLibrary.str();
  return llvm::Error::success();
}
