//===- Emitter.cpp - The null backend's LLVM IR, assembly and binary ------===//
//
// The LLVM IR comes from MLIR's translation of the LLVM dialect. A real
// backend sets its triple and data layout, links its math library and runs
// LLVM's code generator here; the null backend has no machine code, so its
// "assembly" is the LLVM IR text and its binary, of format "none", carries
// that same text.
//
//===----------------------------------------------------------------------===//
#include "NullBackend.h"

#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::tessera;

namespace {
llvm::Error emitterError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "null backend: " + message);
}

std::string printModule(llvm::Module &module) {
  std::string text;
  llvm::raw_string_ostream os(text);
  module.print(os, /*AAW=*/nullptr);
  return text;
}
} // namespace

llvm::Expected<std::unique_ptr<llvm::Module>>
null::translateToLLVMIR(ModuleOp module, llvm::LLVMContext &context,
                        const TargetDescription &target,
                        const CompileOptions &options) {
  // The caller's context may not have been built from registerDialects().
  DialectRegistry registry;
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  module.getContext()->appendDialectRegistry(registry);
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(module, context, "tessera-null");
  // TODO(newtarget): set your triple and data layout, link your math
  // library's bitcode for the functions resolve-math named, run LLVM's
  // optimizer (see backends/nvptx/Emitter.cpp).
  if (!llvmModule)
    return emitterError("cannot translate the module to LLVM IR (see the "
                        "diagnostics above); did the '" +
                        kLowerToLLVMStage + "' stage run?");
  return llvmModule;
}

llvm::Expected<std::string> null::emitAssembly(llvm::Module &module,
                                               const TargetDescription &target,
                                               const CompileOptions &options) {
  // TODO(newtarget): your assembly, from LLVM's code generator for your
  // triple (a TargetMachine and addPassesToEmitFile).
  return printModule(module);
}

llvm::Error null::emitBinary(llvm::Module &module, CompiledKernel &kernel,
                             const TargetDescription &target,
                             const CompileOptions &options) {
  llvm::Function *function = module.getFunction(kernel.name);
  if (!function || function->isDeclaration())
    return emitterError("no kernel named '" + kernel.name + "' in the module");
  // TODO(newtarget): what your driver loads (an object from your assembler
  // or linker) and its format; registers and spills as your toolchain
  // reports them. The host filled the rest (KernelRecord.h).
  kernel.format = "none";
  kernel.binary = printModule(module);
  return llvm::Error::success();
}
