//===- Emitter.cpp - LLVM-dialect modules to HSA code objects -------------===//
//
// The device libraries are linked lazily and only-needed, like libdevice
// for NVPTX. They read their configuration from `__oclc_*` constants that
// clang normally links from one small bitcode file each; Tessera defines
// them itself (no denormal flushing, IEEE sqrt, finite math off, wave64,
// the ISA version of the architecture, code object version 5), so a
// Debian rocm-device-libs older than the architecture still works.
//
//===----------------------------------------------------------------------===//
#include "Emitter.h"
#include "CodeObject.h"
#include "LinkServer.h"

#include "tessera/Backend/LLVMSupport.h"
#include "tessera/Support/Logging.h"

#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/ROCDL/ROCDLToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/Transforms/Utils/Cloning.h"

#include <chrono>
#include <cstdlib>
#include <dlfcn.h>

using namespace mlir;
using namespace mlir::tessera;
using namespace mlir::tessera::amdgpu;

namespace {

llvm::Error fail(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "amdgpu: " + message);
}

/// Registers the AMDGPU target with LLVM once per process. The assembly
/// parser too: the device libraries hold inline assembly, which emitting an
/// object assembles (without a parser LLVM aborts the process).
void initializeAMDGPU() {
  static std::once_flag once;
  std::call_once(once, [] {
    LLVMInitializeAMDGPUTargetInfo();
    LLVMInitializeAMDGPUTarget();
    LLVMInitializeAMDGPUTargetMC();
    LLVMInitializeAMDGPUAsmPrinter();
    LLVMInitializeAMDGPUAsmParser();
  });
}

llvm::Expected<std::unique_ptr<llvm::TargetMachine>>
createTargetMachine(const Arch &arch, const CompileOptions &options) {
  initializeAMDGPU();
  llvm::Triple triple(kTriple);
  std::string error;
  const llvm::Target *target =
      llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return fail("LLVM has no AMDGPU target: " + error);
  llvm::TargetOptions targetOptions;
  targetOptions.AllowFPOpFusion = options.enableFPFusion
                                      ? llvm::FPOpFusion::Fast
                                      : llvm::FPOpFusion::Strict;
  std::unique_ptr<llvm::TargetMachine> machine(target->createTargetMachine(
      triple, arch.name, "", targetOptions, llvm::Reloc::PIC_, std::nullopt,
      llvm::CodeGenOptLevel::Aggressive));
  if (!machine)
    return fail("cannot create an AMDGPU target machine for " + arch.name);
  return machine;
}

/// True when `module` declares functions of the device libraries.
bool needsDeviceLibraries(const llvm::Module &module) {
  for (const llvm::Function &fn : module)
    if (fn.isDeclaration() && (fn.getName().starts_with("__ocml_") ||
                               fn.getName().starts_with("__ockl_")))
      return true;
  return false;
}

/// Defines the device libraries' configuration constants `module` refers
/// to, for `arch`.
void defineControlConstants(llvm::Module &module, const Arch &arch) {
  const std::pair<const char *, uint64_t> values[] = {
      {"__oclc_finite_only_opt", 0},
      {"__oclc_unsafe_math_opt", 0},
      {"__oclc_daz_opt", 0},
      {"__oclc_correctly_rounded_sqrt32", 1},
      {"__oclc_wavefrontsize64", 1},
      {"__oclc_ISA_version", arch.isaVersion},
      {"__oclc_ABI_version", kCodeObjectVersion},
  };
  for (auto [name, value] : values) {
    llvm::GlobalVariable *global = module.getGlobalVariable(name);
    if (!global || !global->isDeclaration())
      continue;
    auto *type = llvm::dyn_cast<llvm::IntegerType>(global->getValueType());
    if (!type)
      continue;
    global->setInitializer(llvm::ConstantInt::get(type, value));
    global->setConstant(true);
    global->setLinkage(llvm::GlobalValue::PrivateLinkage);
  }
}

/// Links ocml and ockl into `module` and checks nothing is left undefined.
llvm::Error linkDeviceLibraries(llvm::Module &module, const Arch &arch) {
  llvm::Expected<std::string> folder = findDeviceLibraries();
  if (!folder)
    return fail("the module calls the device libraries (" +
                llvm::toString(folder.takeError()) + ")");
  for (const char *library : {"ocml.bc", "ockl.bc"}) {
    llvm::SmallString<256> path(*folder);
    llvm::sys::path::append(path, library);
    if (llvm::Error err = linkBitcodeLibrary(module, path, library))
      return fail(llvm::toString(std::move(err)));
  }
  defineControlConstants(module, arch);
  return llvm::Error::success();
}

/// A function the module calls but nothing defines would be an unresolved
/// symbol of the code object, which the HIP runtime refuses to load.
llvm::Error checkDefined(const llvm::Module &module) {
  for (const llvm::Function &fn : module)
    if (fn.isDeclaration() && !fn.isIntrinsic() && !fn.use_empty())
      return fail("'" + fn.getName() +
                  "' is called but neither the kernel nor AMD's device "
                  "libraries (ocml, ockl) define it");
  return llvm::Error::success();
}

double millisecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(
             std::chrono::steady_clock::now() - start)
      .count();
}

/// Machine code of `module` for `arch` as `type` (assembly or an object).
llvm::Expected<std::string> generate(llvm::Module &module, llvm::StringRef name,
                                     const CompileOptions &options,
                                     llvm::CodeGenFileType type) {
  llvm::Expected<Arch> arch = parseArch(name);
  if (!arch)
    return arch.takeError();
  llvm::Expected<std::unique_ptr<llvm::TargetMachine>> machine =
      createTargetMachine(*arch, options);
  if (!machine)
    return machine.takeError();
  // Code generation rewrites the IR it runs on; the caller's module stays.
  std::unique_ptr<llvm::Module> clone = llvm::CloneModule(module);
  clone->setTargetTriple((*machine)->getTargetTriple());
  clone->setDataLayout((*machine)->createDataLayout());
  llvm::SmallString<0> out;
  llvm::raw_svector_ostream stream(out);
  llvm::legacy::PassManager pm;
  if ((*machine)->addPassesToEmitFile(pm, stream, nullptr, type))
    return fail("the AMDGPU target machine cannot emit this file type");
  DiagnosticCapture capture(clone->getContext(), "amdgpu");
  StageTimer codegenTimer(options.times, "codegen");
  pm.run(*clone);
  codegenTimer.stop();
  if (!capture.messages.empty())
    return fail("code generation for " + arch->name +
                " failed: " + capture.messages);
  return std::string(out.str());
}

} // namespace

llvm::Expected<std::string> amdgpu::findDeviceLibraries() {
  std::vector<std::string> candidates;
  if (std::optional<std::string> env =
          llvm::sys::Process::GetEnv("TESSERA_ROCM_DEVICE_LIBS"))
    candidates.push_back(*env);
  candidates.push_back("/usr/lib/x86_64-linux-gnu/amdgcn/bitcode");
  candidates.push_back("/opt/rocm/amdgcn/bitcode");
  for (const std::string &folder : candidates) {
    llvm::SmallString<256> path(folder);
    llvm::sys::path::append(path, "ocml.bc");
    if (llvm::sys::fs::exists(path))
      return folder;
  }
  std::string tried;
  for (const std::string &folder : candidates)
    tried += (tried.empty() ? "" : ", ") + folder;
  return llvm::createStringError(
      "no ocml.bc in " + tried +
      " (install Debian's rocm-device-libs or set TESSERA_ROCM_DEVICE_LIBS)");
}

llvm::Expected<std::unique_ptr<llvm::Module>>
amdgpu::translateToAMDGPUIR(ModuleOp module, llvm::LLVMContext &context,
                            const TargetDescription &target,
                            const CompileOptions &options) {
  auto start = std::chrono::steady_clock::now();
  llvm::Expected<Arch> arch = parseArch(target.arch);
  if (!arch)
    return arch.takeError();
  llvm::Expected<std::unique_ptr<llvm::TargetMachine>> machine =
      createTargetMachine(*arch, options);
  if (!machine)
    return machine.takeError();

  StageTimer translateTimer(options.times, "translate");
  MLIRContext &mlirContext = *module->getContext();
  registerBuiltinDialectTranslation(mlirContext);
  registerLLVMDialectTranslation(mlirContext);
  registerROCDLDialectTranslation(mlirContext);
  std::unique_ptr<llvm::Module> llvmModule =
      mlir::translateModuleToLLVMIR(module, context, "tessera");
  if (!llvmModule)
    return fail("translation to LLVM IR failed (see the diagnostics)");
  llvmModule->setTargetTriple((*machine)->getTargetTriple());
  llvmModule->setDataLayout((*machine)->createDataLayout());
  llvmModule->addModuleFlag(llvm::Module::Error, "amdhsa_code_object_version",
                            kCodeObjectVersion);
  translateTimer.stop();

  bool linked = needsDeviceLibraries(*llvmModule);
  if (linked) {
    StageTimer linkTimer(options.times, "link-device-libraries");
    if (llvm::Error err = linkDeviceLibraries(*llvmModule, *arch))
      return std::move(err);
  }
  {
    StageTimer optimizeTimer(options.times, "optimize");
    DiagnosticCapture capture(context, "amdgpu");
    optimizeModule(*llvmModule, **machine);
    if (!capture.messages.empty())
      return fail("optimizing the LLVM IR for " + arch->name +
                  " failed: " + capture.messages);
  }
  if (llvm::Error err = checkDefined(*llvmModule))
    return std::move(err);
  std::string problems;
  llvm::raw_string_ostream os(problems);
  if (llvm::verifyModule(*llvmModule, &os))
    return fail("the optimized LLVM IR is invalid: " + problems);
  getLogger().debug("amdgpu: LLVM IR for {}{} optimized in {:.1f} ms",
                    arch->name, linked ? " with ocml/ockl" : "",
                    millisecondsSince(start));
  return llvmModule;
}

llvm::Expected<std::string>
amdgpu::emitAssembly(llvm::Module &module, llvm::StringRef arch,
                     const CompileOptions &options) {
  return generate(module, arch, options, llvm::CodeGenFileType::AssemblyFile);
}

llvm::Expected<std::string> amdgpu::emitHsaco(llvm::Module &module,
                                              llvm::StringRef arch,
                                              const CompileOptions &options) {
  auto start = std::chrono::steady_clock::now();
  llvm::Expected<std::string> object =
      generate(module, arch, options, llvm::CodeGenFileType::ObjectFile);
  if (!object)
    return object.takeError();
  StageTimer linkTimer(options.times, "lld", /*external=*/true);
  llvm::Expected<std::string> hsaco = linkHsaco(*object);
  linkTimer.stop();
  if (hsaco)
    getLogger().debug("amdgpu: {} bytes of HSACO for {} in {:.1f} ms",
                      hsaco->size(), arch.str(), millisecondsSince(start));
  return hsaco;
}

llvm::Expected<std::string> amdgpu::findCodeObjectLinker() {
  if (const char *path = std::getenv(kCodeObjectLinkerEnvVar)) {
    if (llvm::sys::fs::can_execute(path))
      return std::string(path);
    return fail(llvm::Twine("the code object linker '") + path + "' (" +
                kCodeObjectLinkerEnvVar + ") is not an executable file");
  }
  // Beside the object this code is in: the plugin, in a build or an
  // install.
  Dl_info info;
  if (dladdr(reinterpret_cast<void *>(&amdgpu::findCodeObjectLinker), &info) &&
      info.dli_fname) {
    llvm::SmallString<256> path(llvm::sys::path::parent_path(info.dli_fname));
    llvm::sys::path::append(path, kCodeObjectLinker);
    if (llvm::sys::fs::can_execute(path))
      return std::string(path);
    return fail("cannot find the code object linker '" + path +
                "' beside the plugin (set " + kCodeObjectLinkerEnvVar +
                " to its path)");
  }
  return fail(llvm::Twine("cannot find the code object linker (set ") +
              kCodeObjectLinkerEnvVar + " to its path)");
}

llvm::Expected<std::string> amdgpu::linkHsaco(llvm::StringRef object) {
  llvm::Expected<std::string> linker = findCodeObjectLinker();
  if (!linker)
    return linker.takeError();
  llvm::SmallString<128> input, output;
  int fd = -1;
  if (std::error_code ec =
          llvm::sys::fs::createTemporaryFile("tessera-amdgpu", "o", fd, input))
    return fail("cannot create a temporary object file: " + ec.message());
  llvm::FileRemover removeInput(input);
  {
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    os << object;
    if (os.has_error())
      return fail("cannot write '" + input + "': " + os.error().message());
  }
  if (std::error_code ec =
          llvm::sys::fs::createTemporaryFile("tessera-amdgpu", "hsaco", output))
    return fail("cannot create a temporary code object file: " + ec.message());
  llvm::FileRemover removeOutput(output);
  // In a process of its own: see LinkServer.h.
  llvm::Expected<LinkResult> linked =
      runLinkServer(*linker, {"-shared", "--no-undefined", input.str().str(),
                              "-o", output.str().str()});
  if (!linked)
    return linked.takeError();
  if (linked->exitCode != 0)
    return fail("lld could not link the code object: " +
                (llvm::StringRef(linked->messages).trim().empty()
                     ? "exit code " + std::to_string(linked->exitCode)
                     : llvm::StringRef(linked->messages).trim().str()));
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> hsaco =
      llvm::MemoryBuffer::getFile(output);
  if (!hsaco)
    return fail("cannot read the linked code object '" + output +
                "': " + hsaco.getError().message());
  return (*hsaco)->getBuffer().str();
}

llvm::Error amdgpu::emitBinary(llvm::Module &module, CompiledKernel &kernel,
                               const TargetDescription &target,
                               const CompileOptions &options) {
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
