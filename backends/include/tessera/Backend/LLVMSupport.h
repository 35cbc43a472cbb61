//===- LLVMSupport.h - LLVM IR steps every GPU emitter takes ----*- C++ -*-===//
//
// What the GPU plugins' emitters share once a kernel is LLVM IR: catching
// LLVM's diagnostics (whose default handler exits the process), linking a
// vendor's bitcode math library lazily and only where used, and the O3
// pipeline of a target machine.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_BACKEND_LLVMSUPPORT_H
#define TESSERA_BACKEND_LLVMSUPPORT_H

#include "llvm/ADT/StringRef.h"
#include "llvm/IR/DiagnosticHandler.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <string>

namespace llvm {
class LLVMContext;
class Module;
class TargetMachine;
} // namespace llvm

namespace mlir::tessera {

/// Collects the errors an LLVMContext reports while it is installed; the
/// previous handler comes back on destruction. Warnings go to the debug
/// log under `logPrefix`; remarks and notes are dropped.
class DiagnosticCapture {
public:
  DiagnosticCapture(llvm::LLVMContext &context, llvm::StringRef logPrefix);
  ~DiagnosticCapture();

  /// The errors seen so far, "; "-separated.
  std::string messages;

private:
  llvm::LLVMContext &context;
  std::unique_ptr<llvm::DiagnosticHandler> previous;
};

/// Links into `module` the functions it uses from the bitcode file `path`,
/// read lazily, with the module's triple and data layout, and internalizes
/// them so that optimization inlines and drops them. `what` names the
/// library in errors ("libdevice").
llvm::Error linkBitcodeLibrary(llvm::Module &module, llvm::StringRef path,
                               llvm::StringRef what);

/// Runs globaldce (what a library brought and nothing reaches) and the O3
/// pipeline of `machine` over `module`.
void optimizeModule(llvm::Module &module, llvm::TargetMachine &machine);

} // namespace mlir::tessera

#endif // TESSERA_BACKEND_LLVMSUPPORT_H
