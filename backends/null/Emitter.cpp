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
NullBackend::translateToLLVMIR(ModuleOp module, llvm::LLVMContext &context,
                               const TargetDescription &target,
                               const CompileOptions &options) {
  // The caller's context may not have been built from registerDialects().
  DialectRegistry registry;
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  module.getContext()->appendDialectRegistry(registry);
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(module, context, "tessera-null");
  if (!llvmModule)
    return emitterError("cannot translate the module to LLVM IR (see the "
                        "diagnostics above); did the '" +
                        kLowerToLLVMStage + "' stage run?");
  return llvmModule;
}

llvm::Expected<std::string>
NullBackend::emitAssembly(llvm::Module &module, const TargetDescription &target,
                          const CompileOptions &options) {
  return printModule(module);
}

llvm::Expected<CompiledKernel>
NullBackend::emitBinary(llvm::Module &module, llvm::StringRef kernelName,
                        const TargetDescription &target,
                        const CompileOptions &options) {
  llvm::Function *function = module.getFunction(kernelName);
  if (!function || function->isDeclaration())
    return emitterError("no kernel named '" + kernelName + "' in the module");

  CompiledKernel kernel;
  kernel.backend = kNullBackendName;
  kernel.arch = target.arch;
  kernel.name = kernelName.str();
  kernel.format = "none";
  kernel.binary = printModule(module);
  llvm::SmallVector<llvm::StringRef> types;
  function->getFnAttribute(kNullSignatureAttr)
      .getValueAsString()
      .split(types, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  if (types.size() != function->arg_size())
    return emitterError("kernel '" + kernelName + "' has " +
                        llvm::Twine(function->arg_size()) +
                        " parameters but its signature attribute lists " +
                        llvm::Twine(types.size()));
  for (auto [index, type] : llvm::enumerate(types))
    kernel.params.push_back({("arg" + llvm::Twine(index)).str(), type.str()});
  kernel.numWarps = options.numWarps;
  kernel.threadsPerWarp = target.warpSize;
  kernel.numCTAs = options.numCTAs;
  kernel.numStages = options.numStages;
  return kernel;
}
