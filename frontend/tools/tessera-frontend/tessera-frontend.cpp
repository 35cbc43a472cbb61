//===- tessera-frontend.cpp - Lower a Triton kernel to the tessera dialect ===//
//
// tessera-frontend FILE --kernel NAME --signature SIG
//                  [--constexpr NAME=VALUE ...] [--autotune-config N|all]
//                  [--debug] [--print-key] [--mlir-print-debuginfo]
//                  [--module-path DIR ...]
//
// Prints the verified `tessera` module of one kernel specialization. With
// `--autotune-config all` every config of the kernel's @triton.autotune is
// lowered and the modules are printed separated by `// -----` lines (the
// split marker of tessera-opt --split-input-file). Diagnostics go to
// stderr; the exit code is 1 on any error.
//
//===----------------------------------------------------------------------===//
#include "tessera/Frontend/Compile.h"
#include "tessera/Frontend/Language.h"
#include "tessera/Frontend/ModuleSet.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OperationSupport.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace tessera::frontend;
namespace cl = llvm::cl;

static cl::opt<std::string> inputFile(cl::Positional, cl::desc("<kernel.py>"),
                                      cl::Required);
static cl::opt<std::string> kernelName("kernel",
                                       cl::desc("The kernel to lower"),
                                       cl::value_desc("name"), cl::Required);
static cl::opt<std::string>
    signature("signature",
              cl::desc("Ahead-of-time signature, one entry per parameter: "
                       "'*fp32:16,i32,1024'"),
              cl::value_desc("sig"), cl::init(""));
static cl::list<std::string>
    constexprs("constexpr", cl::desc("A constexpr parameter's value"),
               cl::value_desc("NAME=VALUE"));
static cl::opt<std::string>
    autotuneConfig("autotune-config",
                   cl::desc("Take the meta-parameters of autotune config N "
                            "(or of every config: 'all')"),
                   cl::value_desc("N|all"), cl::init(""));
static cl::opt<bool> debug("debug",
                           cl::desc("Compile device asserts (Triton's debug)"));
static cl::opt<bool> printKey("print-key",
                              cl::desc("Print each specialization's cache key "
                                       "as a comment before its module"));
static cl::opt<bool> printDebugInfo("mlir-print-debuginfo",
                                    cl::desc("Print source locations"));
static cl::list<std::string>
    modulePaths("module-path",
                cl::desc("A directory imports are searched in, after the "
                         "kernel file's package root and directory"),
                cl::value_desc("dir"));
static cl::list<std::string> targetModules(
    "target-module",
    cl::desc("A target's module under triton.language.extra (its own "
             "libdevice), as the runtime adds for each target it opens"),
    cl::value_desc("name"));

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::ParseCommandLineOptions(
      argc, argv, "Tessera frontend: Triton kernel to tessera IR\n");
  for (const std::string &name : targetModules)
    addTargetLanguageModule(name);
  llvm::SourceMgr sm;
  auto file = llvm::MemoryBuffer::getFileOrSTDIN(inputFile);
  if (std::error_code ec = file.getError()) {
    llvm::errs() << inputFile << ": error: cannot open file: " << ec.message()
                 << "\n";
    return 1;
  }
  unsigned id = sm.AddNewSourceBuffer(std::move(*file), llvm::SMLoc());
  DiagnosticEngine diags(sm);
  KernelFileInfo info = describeKernelFile(inputFile, modulePaths);
  ModuleSet modules(sm, info.searchPath);
  KernelModule *module = &modules.addModule(id, diags, "__main__",
                                            info.package, {info.moduleName});
  if (diags.hadError())
    return 1;

  std::vector<std::optional<unsigned>> configs;
  if (autotuneConfig.empty()) {
    configs.push_back(std::nullopt);
  } else if (autotuneConfig == "all") {
    llvm::FailureOr<unsigned> n =
        countAutotuneConfigs(*module, kernelName, diags);
    if (failed(n))
      return 1;
    if (*n == 0) {
      llvm::errs() << inputFile << ": error: kernel '" << kernelName
                   << "' has no autotune configs\n";
      return 1;
    }
    for (unsigned i = 0; i < *n; ++i)
      configs.push_back(i);
  } else {
    unsigned n;
    if (llvm::StringRef(autotuneConfig).getAsInteger(10, n)) {
      llvm::errs() << "error: --autotune-config expects a number or 'all'\n";
      return 1;
    }
    configs.push_back(n);
  }

  mlir::MLIRContext ctx;
  CompileOptions options;
  options.debug = debug;
  mlir::OpPrintingFlags flags;
  if (printDebugInfo)
    flags.enableDebugInfo();
  bool first = true;
  for (std::optional<unsigned> config : configs) {
    llvm::FailureOr<Specialization> spec = specializeKernel(
        *module, kernelName, signature, constexprs, config, diags);
    if (failed(spec))
      return 1;
    mlir::OwningOpRef<mlir::ModuleOp> ir =
        lowerKernel(*module, kernelName, *spec, ctx, diags, options);
    if (!ir || diags.hadError())
      return 1;
    if (!first)
      llvm::outs() << "// -----\n";
    first = false;
    if (printKey)
      llvm::outs() << "// key: " << spec->key() << "\n";
    ir->print(llvm::outs(), flags);
    llvm::outs() << "\n";
  }
  return 0;
}
