//===- LLVMSupport.cpp - LLVM IR steps every GPU emitter takes ------------===//
#include "tessera/Backend/LLVMSupport.h"

#include "tessera/Support/Logging.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IRReader/IRReader.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Transforms/IPO/GlobalDCE.h"
#include "llvm/Transforms/IPO/Internalize.h"

using namespace mlir::tessera;

namespace {

struct CaptureHandler : llvm::DiagnosticHandler {
  CaptureHandler(std::string &messages, std::string prefix)
      : messages(messages), prefix(std::move(prefix)) {}

  bool handleDiagnostics(const llvm::DiagnosticInfo &info) override {
    // Remarks (instruction counts, ...) are for -Rpass users, not us.
    if (info.getSeverity() == llvm::DS_Remark ||
        info.getSeverity() == llvm::DS_Note)
      return true;
    std::string text;
    llvm::raw_string_ostream os(text);
    llvm::DiagnosticPrinterRawOStream printer(os);
    info.print(printer);
    if (info.getSeverity() != llvm::DS_Error) {
      getLogger().debug("{}: LLVM: {}", prefix, text);
      return true;
    }
    messages += (messages.empty() ? "" : "; ") + text;
    return true;
  }

  std::string &messages;
  std::string prefix;
};

} // namespace

DiagnosticCapture::DiagnosticCapture(llvm::LLVMContext &context,
                                     llvm::StringRef logPrefix)
    : context(context), previous(context.getDiagnosticHandler()) {
  context.setDiagnosticHandler(
      std::make_unique<CaptureHandler>(messages, logPrefix.str()));
}

DiagnosticCapture::~DiagnosticCapture() {
  context.setDiagnosticHandler(std::move(previous));
}

llvm::Error mlir::tessera::linkBitcodeLibrary(llvm::Module &module,
                                              llvm::StringRef path,
                                              llvm::StringRef what) {
  llvm::SMDiagnostic diag;
  // Lazy: only the bodies the linker pulls in are read and upgraded.
  std::unique_ptr<llvm::Module> library =
      llvm::getLazyIRFileModule(path, diag, module.getContext());
  if (!library)
    return llvm::createStringError("cannot read " + what + " '" + path +
                                   "': " + diag.getMessage());
  // Libraries carry their own (older or generic) triple and layout; ours
  // avoid the linker's mismatch warnings and are what the code is for.
  library->setTargetTriple(module.getTargetTriple());
  library->setDataLayout(module.getDataLayout());
  DiagnosticCapture capture(module.getContext(), what);
  bool failed = llvm::Linker::linkModules(
      module, std::move(library), llvm::Linker::Flags::LinkOnlyNeeded,
      [](llvm::Module &linked, const llvm::StringSet<> &imported) {
        llvm::internalizeModule(linked, [&](const llvm::GlobalValue &gv) {
          return !gv.hasName() || !imported.contains(gv.getName());
        });
      });
  if (failed)
    return llvm::createStringError(
        "cannot link " + what + " '" + path + "': " +
        (capture.messages.empty() ? "unknown linker error" : capture.messages));
  return llvm::Error::success();
}

void mlir::tessera::optimizeModule(llvm::Module &module,
                                   llvm::TargetMachine &machine) {
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  // Constructing the PassBuilder with the target machine calls its
  // registerPassBuilderCallbacks (the target's own passes); calling it
  // again would register them twice.
  llvm::PassBuilder pb(&machine);
  pb.registerModuleAnalyses(mam);
  pb.registerCGSCCAnalyses(cgam);
  pb.registerFunctionAnalyses(fam);
  pb.registerLoopAnalyses(lam);
  pb.crossRegisterProxies(lam, fam, cgam, mam);
  llvm::ModulePassManager mpm;
  mpm.addPass(llvm::GlobalDCEPass());
  mpm.addPass(pb.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O3));
  mpm.run(module, mam);
}
