//===- Emitter.cpp - The example backend's output -------------------------===//
//
// translateToLLVMIR turns the stubs into LLVM IR, where each kernel's IR
// text survives as a function attribute; emitBinary puts it into the
// CompiledKernel the host built (parameters, launch shape: see
// tessera/Backend/KernelRecord.h) as its binary, format "mlir". A backend
// that generates code sets its triple and data layout, runs LLVM's code
// generator and adds the registers and metadata its assembler reports here.
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

llvm::Error ExampleBackend::emitBinary(llvm::Module &module,
                                       tessera::CompiledKernel &kernel,
                                       const tessera::TargetDescription &target,
                                       const tessera::CompileOptions &options) {
  llvm::Expected<llvm::StringRef> ir =
      getKernelText(module, kernel.name, kIRAttr);
  if (!ir)
    return ir.takeError();
  kernel.format = "mlir";
  kernel.binary = ir->str();
  return llvm::Error::success();
}
