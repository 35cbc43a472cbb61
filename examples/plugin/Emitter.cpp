//===- Emitter.cpp - The example backend's output -------------------------===//
//
// translateToLLVMIR turns the stubs into LLVM IR, where each kernel's
// attributes survive as function attributes; emitBinary reads them back
// into the CompiledKernel: its IR text is the binary (format "mlir") and
// its signature the parameter list. A backend that generates code sets its
// triple and data layout, runs LLVM's code generator and fills the
// registers, shared memory and metadata here.
//
//===----------------------------------------------------------------------===//
#include "ExampleBackend.h"

#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"

#include "llvm/IR/Module.h"

using namespace mlir;
using namespace example;

namespace {
llvm::Error fail(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "example backend: " + message);
}

/// The kernel `name`'s attribute `attr`, or an error naming what is
/// missing (a module the export stage did not produce).
llvm::Expected<llvm::StringRef> getKernelText(llvm::Module &module,
                                              llvm::StringRef name,
                                              llvm::StringRef attr) {
  llvm::Function *function = module.getFunction(name);
  if (!function)
    return fail("no kernel named '" + name + "' in the module");
  if (!function->hasFnAttribute(attr))
    return fail("kernel '" + name + "' has no '" + attr +
                "' attribute; did the '" + tessera::kLowerToLLVMStage +
                "' stage run?");
  return function->getFnAttribute(attr).getValueAsString();
}
} // namespace

llvm::Expected<std::unique_ptr<llvm::Module>>
ExampleBackend::translateToLLVMIR(ModuleOp module, llvm::LLVMContext &context,
                                  const tessera::TargetDescription &target,
                                  const tessera::CompileOptions &options) {
  // The caller's context may not have been built from registerDialects().
  DialectRegistry registry;
  registerDialects(registry);
  module.getContext()->appendDialectRegistry(registry);
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(module, context, "tessera-example");
  if (!llvmModule)
    return fail("cannot translate the module to LLVM IR (see the "
                "diagnostics above)");
  return llvmModule;
}

llvm::Expected<std::string>
ExampleBackend::emitAssembly(llvm::Module &module,
                             const tessera::TargetDescription &target,
                             const tessera::CompileOptions &options) {
  // This target's "assembly" is the exported IR of every kernel.
  std::string text;
  for (llvm::Function &function : module)
    if (function.hasFnAttribute(kIRAttr))
      text += function.getFnAttribute(kIRAttr).getValueAsString().str() + "\n";
  return text;
}

llvm::Expected<tessera::CompiledKernel>
ExampleBackend::emitBinary(llvm::Module &module, llvm::StringRef kernelName,
                           const tessera::TargetDescription &target,
                           const tessera::CompileOptions &options) {
  llvm::Expected<llvm::StringRef> ir =
      getKernelText(module, kernelName, kIRAttr);
  if (!ir)
    return ir.takeError();
  llvm::Expected<llvm::StringRef> signature =
      getKernelText(module, kernelName, kSignatureAttr);
  if (!signature)
    return signature.takeError();

  tessera::CompiledKernel kernel;
  kernel.backend = TESSERA_PLUGIN_NAME;
  kernel.arch = target.arch;
  kernel.name = kernelName.str();
  kernel.format = "mlir";
  kernel.binary = ir->str();
  llvm::SmallVector<llvm::StringRef> types;
  signature->split(types, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (auto [index, type] : llvm::enumerate(types))
    kernel.params.push_back({("arg" + llvm::Twine(index)).str(), type.str()});
  kernel.numWarps = options.numWarps;
  kernel.threadsPerWarp = target.warpSize;
  kernel.numCTAs = options.numCTAs;
  kernel.numStages = options.numStages;
  return kernel;
}
