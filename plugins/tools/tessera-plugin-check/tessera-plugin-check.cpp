//===- tessera-plugin-check.cpp - Load one plugin and exercise it ---------===//
//
// Loads one plugin file the way the host does and prints what it declares:
// its descriptor, architectures, target description, devices and pipeline
// stages. Given a .mlir file of the tessera dialect, it compiles it through
// the core stages and the plugin's own and prints the result (MLIR, LLVM
// IR, assembly or the compiled kernel's header). --start-after-stage and
// --stop-after-stage select a range of stages, so that a plugin's own pass
// is tested IR in, IR out: the input is the module as the stage before it
// left it. Every plugin's lit tests drive it.
//
//===----------------------------------------------------------------------===//
#include "tessera/Backend/Backend.h"
#include "tessera/Backend/KernelRecord.h"
#include "tessera/InitAll.h"
#include "tessera/Plugin/PluginRegistry.h"
#include "tessera/Support/Logging.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"

#include <cstdlib>
#include <optional>

using namespace mlir;
using namespace mlir::tessera;
namespace cl = llvm::cl;

namespace {
enum class EmitKind { MLIR, LLVM, Assembly, Binary };

cl::opt<std::string> pluginPath(cl::Positional, cl::Required,
                                cl::desc("<plugin file>"));
cl::opt<std::string> inputPath(cl::Positional, cl::init(""),
                               cl::desc("[input .mlir file]"));
cl::opt<std::string> outputPath("o", cl::init("-"),
                                cl::desc("Output file (default: stdout)"),
                                cl::value_desc("file"));
cl::opt<std::string> arch("arch", cl::init(""),
                          cl::desc("Architecture (default: the plugin's)"));
cl::opt<int> numWarps("num-warps", cl::init(4), cl::desc("Warps per block"));
cl::opt<std::string> startAfter(
    "start-after-stage", cl::init(""),
    cl::desc("Run only the stages after this one: the input is the module "
             "as this stage left it (--emit=mlir after it)"));
cl::opt<std::string> stopAfter("stop-after-stage", cl::init(""),
                               cl::desc("Stop after this pipeline stage"));
cl::opt<std::string> kernelName(
    "kernel", cl::init(""),
    cl::desc("Kernel to emit with --emit=binary (default: the first)"));
cl::opt<EmitKind> emitKind(
    "emit", cl::init(EmitKind::LLVM), cl::desc("What to print for an input"),
    cl::values(clEnumValN(EmitKind::MLIR, "mlir", "the IR after the pipeline"),
               clEnumValN(EmitKind::LLVM, "llvm", "LLVM IR"),
               clEnumValN(EmitKind::Assembly, "asm", "the target's assembly"),
               clEnumValN(EmitKind::Binary, "binary",
                          "the compiled kernel's header and size")));

int fail(const llvm::Twine &message) {
  llvm::errs() << "tessera-plugin-check: " << message << "\n";
  return 1;
}

/// Prints what the plugin declares about itself without compiling.
void describe(llvm::raw_ostream &os, const PluginInfo &info, Backend &backend,
              const TargetDescription &target, const Pipeline &pipeline) {
  os << "plugin: " << info.name << "\n"
     << "version: " << info.version << "\n"
     << "api-version: " << info.apiVersion << "\n"
     << "llvm-major: " << info.llvmMajor << "\n"
     << "description: " << info.description << "\n"
     << "file: " << info.path << "\n"
     << "architectures: " << llvm::join(backend.getArchitectures(), ", ")
     << "\n"
     << "target: " << target.str() << "\n";
  Driver &driver = backend.getDriver();
  os << "devices: " << driver.getDeviceCount();
  std::string reason = driver.getUnavailableReason();
  if (!reason.empty())
    os << " (" << reason << ")";
  os << "\nstages:\n";
  for (const PipelineStage &stage : pipeline.getStages())
    os << "  " << stage.name << ": " << stage.description << "\n";
}

/// The kernel --emit binary compiles without --kernel: the first function of
/// the lowered module carrying a signature record (KernelRecord.h), named
/// by the kernel it launches.
std::string firstKernel(ModuleOp module) {
  for (Operation &op : module.getBody()->getOperations()) {
    if (!op.hasAttr(kSignatureTypesAttrName))
      continue;
    if (auto of = op.getAttrOfType<StringAttr>(kEntryOfAttrName))
      return of.str();
    return SymbolTable::getSymbolName(&op).str();
  }
  return "";
}

/// Compiles `inputPath` with `backend` and prints what --emit asks for.
int compile(llvm::raw_ostream &os, Backend &backend,
            const TargetDescription &target, const CompileOptions &options,
            const Pipeline &pipeline) {
  DialectRegistry registry;
  registerAllDialects(registry);
  backend.registerDialects(registry);
  MLIRContext context(registry);
  // Diagnostics name the file, line and column; the op's whole text would
  // bury them.
  context.printOpOnDiagnostic(false);
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> input = openInputFile(inputPath, &error);
  if (!input)
    return fail(error);
  sourceMgr.AddNewSourceBuffer(std::move(input), llvm::SMLoc());
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module)
    return 1;
  if (failed(pipeline.run(*module, backend.getPipelineOptions(target, options),
                          startAfter, stopAfter)))
    return 1;
  if (emitKind == EmitKind::MLIR) {
    module->print(os);
    os << "\n";
    return 0;
  }

  // As the host does: the CompiledKernel from the lowered module's records,
  // before the translation.
  std::optional<CompiledKernel> kernel;
  if (emitKind == EmitKind::Binary) {
    std::string name =
        kernelName.empty() ? firstKernel(*module) : kernelName.getValue();
    llvm::Expected<CompiledKernel> built =
        buildCompiledKernel(*module, name, target, options);
    if (!built)
      return fail(llvm::toString(built.takeError()));
    kernel = std::move(*built);
  }
  llvm::LLVMContext llvmContext;
  llvm::Expected<std::unique_ptr<llvm::Module>> llvmModule =
      backend.translateToLLVMIR(*module, llvmContext, target, options);
  if (!llvmModule)
    return fail(llvm::toString(llvmModule.takeError()));
  switch (emitKind) {
  case EmitKind::MLIR:
    llvm_unreachable("printed above");
  case EmitKind::LLVM:
    (*llvmModule)->print(os, nullptr);
    return 0;
  case EmitKind::Assembly: {
    llvm::Expected<std::string> assembly =
        backend.emitAssembly(**llvmModule, target, options);
    if (!assembly)
      return fail(llvm::toString(assembly.takeError()));
    os << *assembly;
    return 0;
  }
  case EmitKind::Binary: {
    if (llvm::Error err =
            backend.emitBinary(**llvmModule, *kernel, target, options))
      return fail(llvm::toString(std::move(err)));
    std::string bytes = kernel->serialize();
    os << llvm::StringRef(bytes).split('\n').first << "\n"
       << "binary: " << kernel->binary.size() << " bytes\n";
    return 0;
  }
  }
  llvm_unreachable("unknown emit kind");
}
} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::ParseCommandLineOptions(
      argc, argv,
      "Loads one Tessera plugin and prints what it declares, or compiles a "
      ".mlir file with it\n");
  // Load failures are this tool's output; the logger would repeat them.
  if (!std::getenv("TESSERA_LOG_LEVEL"))
    getLogger().set_level(spdlog::level::err);

  PluginSearchOptions search;
  search.paths = {pluginPath};
  search.useEnvironment = false;
  search.useDefaultDirectories = false;
  PluginRegistry plugins(search);
  llvm::ArrayRef<PluginInfo> infos = plugins.enumerate();
  for (const PluginLoadFailure &failure : plugins.getLoadFailures())
    fail(failure.message);
  if (!plugins.getLoadFailures().empty())
    return 1;
  if (infos.size() != 1)
    return fail(pluginPath + ": expected one plugin, found " +
                llvm::Twine(infos.size()));
  const PluginInfo &info = infos.front();

  llvm::Expected<std::shared_ptr<Backend>> backend = plugins.create(info.name);
  if (!backend)
    return fail(llvm::toString(backend.takeError()));
  llvm::Expected<TargetDescription> target = (*backend)->describe(arch);
  if (!target)
    return fail(llvm::toString(target.takeError()));
  CompileOptions options;
  options.arch = target->arch;
  options.numWarps = numWarps;
  Pipeline pipeline = buildCorePipeline();
  if (llvm::Error err = (*backend)->buildPipeline(pipeline, *target, options))
    return fail(llvm::toString(std::move(err)));
  if (!pipeline.contains(kLowerToLLVMStage))
    return fail(info.path + ": its pipeline has no '" + kLowerToLLVMStage +
                "' stage");

  std::string error;
  std::unique_ptr<llvm::ToolOutputFile> output =
      openOutputFile(outputPath, &error);
  if (!output)
    return fail(error);
  int status = 0;
  if (inputPath.empty())
    describe(output->os(), info, **backend, *target, pipeline);
  else
    status = compile(output->os(), **backend, *target, options, pipeline);
  if (status == 0)
    output->keep();
  return status;
}
