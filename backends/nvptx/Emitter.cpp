//===- Emitter.cpp - LLVM-dialect modules to optimized NVVM IR and PTX ----===//
//
// libdevice is linked lazily and only-needed: a kernel that calls no `__nv_*`
// function never reads the 470 KB bitcode file, and one that does keeps only
// the functions it reaches, internalized so that O3 inlines and drops them.
// NVVMReflect (run by the NVPTX pass-builder callbacks) folds libdevice's
// `__CUDA_ARCH` and `__CUDA_FTZ` queries; `__CUDA_PREC_SQRT` it does not
// know and would fold to 0 (`sqrt.approx`), so it is folded here first.
//
//===----------------------------------------------------------------------===//
#include "Emitter.h"
#include "PtxAssembler.h"
#include "StrengthReductionGate.h"
#include "Toolkit.h"

#include "tessera/Backend/LLVMSupport.h"
#include "tessera/Support/Logging.h"

#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/Transforms/Utils/Cloning.h"

#include <chrono>
#include <mutex>

using namespace mlir;
using namespace mlir::tessera;
using namespace mlir::tessera::nvptx;

namespace {

llvm::Error fail(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "nvptx: " + message);
}

/// Registers the NVPTX target with LLVM once per process; only the pieces
/// PTX emission needs, not every target libLLVM.so was built with.
void initializeNVPTX() {
  static std::once_flag once;
  std::call_once(once, [] {
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetMC();
    LLVMInitializeNVPTXAsmPrinter();
  });
}

/// True when `module` calls into libdevice.
bool needsLibdevice(const llvm::Module &module) {
  for (const llvm::Function &fn : module)
    if (fn.isDeclaration() && fn.getName().starts_with("__nv_"))
      return true;
  return false;
}

/// Replaces libdevice's `__nvvm_reflect("__CUDA_PREC_SQRT")` by 1, the
/// IEEE-rounded `sqrt.rn` that nvcc uses by default; NVVMReflect would
/// answer 0 and give `__nv_sqrtf` the approximate `sqrt.approx`.
void foldPreciseSqrtReflect(llvm::Module &module) {
  llvm::Function *reflect = module.getFunction("__nvvm_reflect");
  if (!reflect)
    return;
  llvm::SmallVector<llvm::CallInst *> folded;
  for (llvm::User *user : reflect->users()) {
    auto *call = llvm::dyn_cast<llvm::CallInst>(user);
    if (!call || call->getCalledFunction() != reflect || call->arg_size() != 1)
      continue;
    auto *global = llvm::dyn_cast<llvm::GlobalVariable>(
        call->getArgOperand(0)->stripPointerCasts());
    if (!global || !global->hasInitializer())
      continue;
    auto *text =
        llvm::dyn_cast<llvm::ConstantDataSequential>(global->getInitializer());
    if (text && text->isCString() && text->getAsCString() == "__CUDA_PREC_SQRT")
      folded.push_back(call);
  }
  for (llvm::CallInst *call : folded) {
    call->replaceAllUsesWith(llvm::ConstantInt::get(call->getType(), 1));
    call->eraseFromParent();
  }
}

/// Links the libdevice functions `module` uses into it, internalized.
llvm::Error linkLibdevice(llvm::Module &module) {
  llvm::Expected<std::string> path = findLibdevice();
  if (!path)
    return fail("the module calls libdevice (" +
                llvm::toString(path.takeError()) + ")");
  if (llvm::Error err = linkBitcodeLibrary(module, *path, "libdevice"))
    return fail(llvm::toString(std::move(err)));
  // A name libdevice lacks would surface as an internal error of the PTX
  // linker; say which function it is here.
  for (const llvm::Function &fn : module)
    if (fn.isDeclaration() && fn.getName().starts_with("__nv_") &&
        !fn.use_empty())
      return fail("libdevice (" + *path + ") has no function '" +
                  fn.getName().str() + "'");
  foldPreciseSqrtReflect(module);
  return llvm::Error::success();
}

double millisecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(
             std::chrono::steady_clock::now() - start)
      .count();
}

} // namespace

std::string nvptx::getPtxFeatures(const CompileOptions &options,
                                  const TargetDescription *target) {
  if (auto it = options.extra.find("ptx-features"); it != options.extra.end())
    return it->second;
  if (target)
    if (auto it = target->extra.find("ptx-features"); it != target->extra.end())
      return it->second;
  return kPtxFeatures;
}

llvm::Expected<std::unique_ptr<llvm::TargetMachine>>
nvptx::createTargetMachine(const Arch &arch, llvm::StringRef features,
                           const CompileOptions &options) {
  initializeNVPTX();
  llvm::Triple triple(kTriple);
  std::string error;
  const llvm::Target *target =
      llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return fail("LLVM has no NVPTX target: " + error);
  llvm::TargetOptions targetOptions;
  // Strict, not Standard: NVPTX then prints `mul.rn`/`add.rn`, which ptxas
  // does not contract either; otherwise the assembler would fuse anyway.
  targetOptions.AllowFPOpFusion = options.enableFPFusion
                                      ? llvm::FPOpFusion::Fast
                                      : llvm::FPOpFusion::Strict;
  std::unique_ptr<llvm::TargetMachine> machine(target->createTargetMachine(
      triple, arch.str(), features, targetOptions, llvm::Reloc::PIC_,
      std::nullopt, llvm::CodeGenOptLevel::Aggressive));
  if (!machine)
    return fail("cannot create an NVPTX target machine for " + arch.str() +
                " with features '" + features + "'");
  return machine;
}

/// LLVM's NVPTX code generator emits every atomicrmw and cmpxchg as a
/// relaxed `atom`, whatever its ordering, so a program publishing a value and
/// then a flag with acq_rel atomics (Triton's default) could see them in the
/// other order on another SM. The ordering is made explicit with fences, which
/// it does lower (`fence.acq_rel.<scope>`): a release fence before, an acquire
/// fence after, at the atomic's scope, around an atomic made monotonic: the
/// fence-based form of release and acquire in both LLVM's and PTX's memory
/// models.
static void fenceOrderedAtomics(llvm::Module &module) {
  using llvm::AtomicOrdering;
  auto strengthOf = [](AtomicOrdering o, bool acquireSide) {
    bool seq = o == AtomicOrdering::SequentiallyConsistent;
    bool acqRel = o == AtomicOrdering::AcquireRelease;
    bool side = acquireSide ? o == AtomicOrdering::Acquire
                            : o == AtomicOrdering::Release;
    if (seq)
      return AtomicOrdering::SequentiallyConsistent;
    if (acqRel || side)
      return acquireSide ? AtomicOrdering::Acquire : AtomicOrdering::Release;
    return AtomicOrdering::NotAtomic;
  };
  for (llvm::Function &function : module)
    for (llvm::BasicBlock &block : function)
      for (llvm::Instruction &inst : llvm::make_early_inc_range(block)) {
        AtomicOrdering ordering;
        llvm::SyncScope::ID scope;
        if (auto *rmw = llvm::dyn_cast<llvm::AtomicRMWInst>(&inst)) {
          ordering = rmw->getOrdering();
          scope = rmw->getSyncScopeID();
        } else if (auto *cas = llvm::dyn_cast<llvm::AtomicCmpXchgInst>(&inst)) {
          ordering = cas->getSuccessOrdering();
          scope = cas->getSyncScopeID();
        } else {
          continue;
        }
        AtomicOrdering before = strengthOf(ordering, false);
        AtomicOrdering after = strengthOf(ordering, true);
        if (before == AtomicOrdering::NotAtomic &&
            after == AtomicOrdering::NotAtomic)
          continue;
        if (before != AtomicOrdering::NotAtomic)
          new llvm::FenceInst(module.getContext(), before, scope,
                              inst.getIterator());
        if (after != AtomicOrdering::NotAtomic)
          new llvm::FenceInst(module.getContext(), after, scope,
                              std::next(inst.getIterator()));
        if (auto *rmw = llvm::dyn_cast<llvm::AtomicRMWInst>(&inst)) {
          rmw->setOrdering(AtomicOrdering::Monotonic);
        } else {
          auto *cas = llvm::cast<llvm::AtomicCmpXchgInst>(&inst);
          cas->setSuccessOrdering(AtomicOrdering::Monotonic);
          cas->setFailureOrdering(AtomicOrdering::Monotonic);
        }
      }
}

llvm::Expected<std::unique_ptr<llvm::Module>>
nvptx::translateToNVVMIR(ModuleOp module, llvm::LLVMContext &context,
                         const TargetDescription &target,
                         const CompileOptions &options) {
  auto start = std::chrono::steady_clock::now();
  llvm::Expected<Arch> arch = parseArch(target.arch);
  if (!arch)
    return arch.takeError();
  llvm::Expected<std::unique_ptr<llvm::TargetMachine>> machine =
      createTargetMachine(*arch, getPtxFeatures(options, &target), options);
  if (!machine)
    return machine.takeError();

  StageTimer translateTimer(options.times, "translate");
  MLIRContext &mlirContext = *module->getContext();
  registerBuiltinDialectTranslation(mlirContext);
  registerLLVMDialectTranslation(mlirContext);
  registerNVVMDialectTranslation(mlirContext);
  std::unique_ptr<llvm::Module> llvmModule =
      mlir::translateModuleToLLVMIR(module, context, "tessera");
  if (!llvmModule)
    return fail("translation to LLVM IR failed (see the diagnostics; NVVM "
                "ops without an intrinsic need convert-nvvm-to-llvm first)");
  llvmModule->setTargetTriple((*machine)->getTargetTriple());
  llvmModule->setDataLayout((*machine)->createDataLayout());
  fenceOrderedAtomics(*llvmModule);
  translateTimer.stop();

  bool linkedLibdevice = needsLibdevice(*llvmModule);
  if (linkedLibdevice) {
    StageTimer linkTimer(options.times, "link-libdevice");
    if (llvm::Error err = linkLibdevice(*llvmModule))
      return std::move(err);
  }
  // libdevice asks NVVMReflect whether to flush denormals; we do not,
  // matching the IEEE behaviour of our own arithmetic.
  if (!llvmModule->getModuleFlag("nvvm-reflect-ftz"))
    llvmModule->addModuleFlag(llvm::Module::Override, "nvvm-reflect-ftz",
                              uint32_t{0});

  {
    StageTimer optimizeTimer(options.times, "optimize");
    DiagnosticCapture capture(context, "nvptx");
    optimizeModule(*llvmModule, **machine);
    if (!capture.messages.empty())
      return fail("optimizing the LLVM IR for " + arch->str() +
                  " failed: " + capture.messages);
  }
  std::string problems;
  llvm::raw_string_ostream os(problems);
  if (llvm::verifyModule(*llvmModule, &os))
    return fail("the optimized LLVM IR is invalid: " + problems);
  getLogger().debug("nvptx: LLVM IR for {}{} optimized in {:.1f} ms",
                    arch->str(), linkedLibdevice ? " with libdevice" : "",
                    millisecondsSince(start));
  return llvmModule;
}

llvm::Expected<std::string> nvptx::emitPTX(llvm::Module &module,
                                           llvm::StringRef archName,
                                           const CompileOptions &options) {
  auto start = std::chrono::steady_clock::now();
  llvm::Expected<Arch> arch = parseArch(archName);
  if (!arch)
    return arch.takeError();
  llvm::Expected<std::unique_ptr<llvm::TargetMachine>> machine =
      createTargetMachine(*arch, getPtxFeatures(options), options);
  if (!machine)
    return machine.takeError();
  // Code generation rewrites the IR it runs on (globals move to the global
  // address space, reflect calls fold); the caller's module stays as it was.
  std::unique_ptr<llvm::Module> clone = llvm::CloneModule(module);
  clone->setTargetTriple((*machine)->getTargetTriple());
  clone->setDataLayout((*machine)->createDataLayout());
  llvm::SmallString<0> ptx;
  llvm::raw_svector_ostream stream(ptx);
  llvm::legacy::PassManager pm;
  if ((*machine)->addPassesToEmitFile(pm, stream, nullptr,
                                      llvm::CodeGenFileType::AssemblyFile))
    return fail("the NVPTX target machine cannot emit PTX");
  DiagnosticCapture capture(clone->getContext(), "nvptx");
  StageTimer codegenTimer(options.times, "codegen");
  StrengthReductionGate gate(*clone);
  for (const auto &skipped : gate.getSkipped())
    getLogger().debug("nvptx: straight-line strength reduction skipped on {}",
                      skipped.getKey().str());
  llvm::LLVMContext &context = clone->getContext();
  llvm::OptPassGate &previousGate = context.getOptPassGate();
  context.setOptPassGate(gate);
  pm.run(*clone);
  context.setOptPassGate(previousGate);
  codegenTimer.stop();
  if (!capture.messages.empty())
    return fail("PTX emission for " + arch->str() +
                " failed: " + capture.messages);
  getLogger().debug("nvptx: {} bytes of PTX for {} in {:.1f} ms", ptx.size(),
                    arch->str(), millisecondsSince(start));
  return std::string(ptx.str());
}

llvm::Error nvptx::emitBinary(llvm::Module &module, CompiledKernel &kernel,
                              const TargetDescription &target,
                              const CompileOptions &options) {
  llvm::Expected<std::string> ptx = emitPTX(module, target.arch, options);
  if (!ptx)
    return ptx.takeError();
  StageTimer assembler(options.times, "ptx-assembler", /*external=*/true);
  return assemblePTX(*ptx, kernel.name, target.arch, options, kernel);
}
