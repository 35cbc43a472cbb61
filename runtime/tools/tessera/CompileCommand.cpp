//===- CompileCommand.cpp - tessera compile -------------------------------===//
//
// Compiles one kernel of a kernel file for an ahead-of-time signature and
// writes the stage asked for:
//
//   tessera compile FILE --kernel NAME --signature SIG [--emit STAGE] [-o OUT]
//
// Stages: tessera (the frontend's module), tessera-gpu (before the
// backend's lower-to-llvm), llvm (LLVM IR), asm (the target's assembly),
// bin (the serialized CompiledKernel: a JSON header line, then the
// loadable bytes; what the kernel cache stores and the runtime loads) and
// obj (only the loadable bytes: an ELF object, a cubin, ...). Text goes to
// standard output by default; bin to NAME.tkb and obj to NAME.bin.
// Exit code 0 on success, 1 on any error.
//
//===----------------------------------------------------------------------===//
#include "Commands.h"

#include "tessera/Runtime/Compiler.h"
#include "tessera/Runtime/Environment.h"
#include "tessera/Runtime/KernelSource.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir::tessera;
using namespace mlir::tessera::runtime;
using namespace mlir::tessera::tool;
namespace cl = llvm::cl;

namespace {
struct CompileFlags {
  cl::OptionCategory category{"tessera compile options"};
  SessionFlags session{category};
  cl::opt<std::string> input{cl::Positional, cl::desc("<kernel file>"),
                             cl::Required, cl::cat(category)};
  cl::opt<std::string> kernel{"kernel", cl::desc("The @triton.jit function"),
                              cl::value_desc("name"), cl::Required,
                              cl::cat(category)};
  cl::opt<std::string> signature{
      "signature",
      cl::desc("Ahead-of-time signature, one entry per parameter: "
               "'*fp32:16,*fp32:16,i32,1024' (trailing constexprs may come "
               "from --constexpr, --autotune-config or defaults)"),
      cl::value_desc("sig"), cl::cat(category)};
  cl::list<std::string> constexprs{
      "constexpr", cl::desc("A constexpr's value (repeatable)"),
      cl::value_desc("NAME=VALUE"), cl::cat(category)};
  cl::opt<int> autotuneConfig{
      "autotune-config",
      cl::desc("Take the constexprs and launch options of the Nth "
               "@triton.autotune config"),
      cl::value_desc("n"), cl::init(-1), cl::cat(category)};
  cl::opt<int> numWarps{"num-warps", cl::desc("Warps per program (4)"),
                        cl::value_desc("n"), cl::init(4), cl::cat(category)};
  cl::opt<int> numStages{"num-stages",
                         cl::desc("Software pipelining stages (3)"),
                         cl::value_desc("n"), cl::init(3), cl::cat(category)};
  cl::opt<int> numCTAs{"num-ctas", cl::desc("Programs per cluster (1)"),
                       cl::value_desc("n"), cl::init(1), cl::cat(category)};
  cl::opt<int> maxNumRegs{"maxnreg",
                          cl::desc("Register limit per thread (0: target's)"),
                          cl::value_desc("n"), cl::init(0), cl::cat(category)};
  cl::opt<bool> debug{"debug", cl::desc("Compile device asserts"),
                      cl::cat(category)};
  cl::opt<std::string> emit{
      "emit",
      cl::desc("What to write: tessera, tessera-gpu, llvm, asm, bin "
               "(serialized CompiledKernel, the default) or obj (raw "
               "loadable bytes)"),
      cl::value_desc("stage"), cl::init("bin"), cl::cat(category)};
  cl::opt<std::string> output{
      "o",
      cl::desc("Output file; '-' for standard output (the default for text; "
               "bin: NAME.tkb, obj: NAME.bin)"),
      cl::value_desc("file"), cl::cat(category)};
  cl::list<std::string> dumpAfter{
      "dump-ir-after",
      cl::desc("Dump the IR after these stages (comma-separated, "
               "repeatable) or 'all' [TESSERA_DUMP_IR_AFTER]"),
      cl::value_desc("stage"), cl::CommaSeparated, cl::cat(category)};
  cl::opt<std::string> dumpDir{
      "dump-dir",
      cl::desc("Write dumps to DIR/NN-STAGE.mlir instead of standard error "
               "[TESSERA_DUMP_DIR]"),
      cl::value_desc("dir"), cl::cat(category)};
  cl::opt<bool> listStages{"list-stages",
                           cl::desc("Print the pipeline's stage names and "
                                    "exit"),
                           cl::cat(category)};
  cl::opt<bool> timeStages{
      "time-stages",
      cl::desc("Print the wall time of each compilation step on standard "
               "error [TESSERA_TIME_STAGES]"),
      cl::cat(category)};
  cl::opt<bool> verbose{"verbose",
                        cl::desc("Report the backend, specialization and "
                                 "cache status on standard error"),
                        cl::cat(category)};
};

int fail(llvm::Error err) {
  printError(std::move(err));
  return 1;
}

int failWith(const llvm::Twine &message) {
  return fail(llvm::createStringError(llvm::inconvertibleErrorCode(), message));
}
} // namespace

int mlir::tessera::tool::runCompileCommand(int argc, char **argv) {
  static CompileFlags flags;
  parseSubcommand(argc, argv, flags.category,
                  "Compiles one kernel of a Triton kernel file\n");
  llvm::Expected<RuntimeOptions> given = flags.session.getRuntimeOptions();
  if (!given)
    return fail(given.takeError());
  RuntimeOptions options = std::move(*given);

  std::optional<EmitStage> stage;
  bool rawObject = flags.emit == "obj";
  if (rawObject)
    stage = EmitStage::Binary;
  else
    stage = parseEmitStage(flags.emit);
  if (!stage)
    return failWith("unknown --emit '" + flags.emit +
                    "'; expected tessera, tessera-gpu, llvm, asm, bin or obj");

  DumpOptions dump = getEnvironmentDumpOptions();
  if (flags.dumpAfter.getNumOccurrences())
    dump.after.assign(flags.dumpAfter.begin(), flags.dumpAfter.end());
  if (flags.dumpDir.getNumOccurrences())
    dump.directory = flags.dumpDir;
  options.dump = dump;
  // Compiling needs no device: a backend without one compiles for its
  // default architecture.
  options.allowNoDevice = true;

  llvm::Expected<std::unique_ptr<KernelSource>> source = KernelSource::load(
      flags.input, resolveModuleSearchPath(options.modulePaths));
  if (!source)
    return fail(source.takeError());
  llvm::Expected<std::unique_ptr<Runtime>> rt =
      Runtime::open(std::move(options));
  if (!rt)
    return fail(rt.takeError());
  KernelCompiler &compiler = (*rt)->getCompiler();

  CompileRequest request;
  request.kernel = flags.kernel;
  request.signature = flags.signature;
  request.constexprs.assign(flags.constexprs.begin(), flags.constexprs.end());
  if (flags.autotuneConfig.getNumOccurrences() && flags.autotuneConfig < 0)
    return failWith("--autotune-config must be a config's index (0 or "
                    "more), got " +
                    llvm::Twine(flags.autotuneConfig.getValue()));
  if (flags.autotuneConfig >= 0)
    request.autotuneConfig = static_cast<unsigned>(flags.autotuneConfig);
  request.options.arch = (*rt)->getOptions().arch;
  if (request.options.arch.empty())
    if (Device *device = (*rt)->getDevice())
      request.options.arch = device->getProperties().arch;
  // Explicit flags win over an autotune config; otherwise the config's
  // launch options win over the defaults.
  request.options.numWarps = flags.numWarps;
  request.options.numStages = flags.numStages;
  request.options.numCTAs = flags.numCTAs;
  if (flags.numWarps.getNumOccurrences())
    request.numWarps = flags.numWarps;
  if (flags.numStages.getNumOccurrences())
    request.numStages = flags.numStages;
  if (flags.numCTAs.getNumOccurrences())
    request.numCTAs = flags.numCTAs;
  request.options.maxNumRegs = flags.maxNumRegs;
  request.debug = flags.debug;

  if (flags.listStages) {
    llvm::Expected<std::vector<std::string>> names =
        compiler.getStageNames(request.options);
    if (!names)
      return fail(names.takeError());
    for (const std::string &name : *names)
      llvm::outs() << name << "\n";
    return 0;
  }
  if (!dump.after.empty()) {
    // A misspelled stage is an error here rather than a silent no-dump.
    llvm::Expected<std::vector<std::string>> names =
        compiler.getStageNames(request.options);
    if (!names)
      return fail(names.takeError());
    for (const std::string &name : dump.after)
      if (name != "all" && llvm::find(*names, name) == names->end())
        return failWith("--dump-ir-after: no stage named '" + name +
                        "'; stages are: " + llvm::join(*names, ", "));
  }

  const std::string kernelName = flags.kernel;
  const std::string outputPath = flags.output;
  const bool verbose = flags.verbose;
  const bool timeStages = flags.timeStages.getNumOccurrences()
                              ? bool(flags.timeStages)
                              : isEnvironmentFlagSet(kTimeStagesEnvVar);
  llvm::Expected<CompileResult> result =
      compiler.compile(**source, request, *stage);
  if (!result)
    return fail(result.takeError());
  // As a compiler prints its warnings: why a dot stays on multiply-adds...
  llvm::errs() << result->remarks;
  if (timeStages) {
    llvm::errs() << "tessera: compile times of '" << kernelName << "' ("
                 << (*rt)->getPluginIdentity().name << " "
                 << result->options.arch << ", "
                 << (result->cacheHit ? "cache hit" : "compiled") << "):\n";
    result->times.print(llvm::errs());
  }

  if (verbose) {
    const PluginIdentity &plugin = (*rt)->getPluginIdentity();
    llvm::errs() << "tessera: backend " << plugin.name << " " << plugin.version
                 << ", arch " << result->options.arch << "\n"
                 << "tessera: specialization " << result->specialization << "\n"
                 << "tessera: options " << result->options.str() << "\n";
    if (*stage == EmitStage::Binary)
      llvm::errs() << "tessera: cache "
                   << (!(*rt)->getCache() ? "disabled"
                       : result->cacheHit ? "hit"
                                          : "miss")
                   << " " << result->cacheKey << "\n";
  }

  std::string bytes;
  bool binary = *stage == EmitStage::Binary;
  if (!binary)
    bytes = std::move(result->text);
  else if (rawObject)
    bytes = result->kernel->binary;
  else
    bytes = result->kernel->serialize();
  std::string path = outputPath;
  if (path.empty())
    path = !binary ? "-" : kernelName + (rawObject ? ".bin" : ".tkb");
  std::error_code ec;
  llvm::ToolOutputFile out(
      path, ec, binary ? llvm::sys::fs::OF_None : llvm::sys::fs::OF_Text);
  if (ec)
    return failWith("cannot write '" + path + "': " + ec.message());
  out.os() << bytes;
  out.os().flush();
  if (out.os().has_error()) {
    // Reported here, once: a stream left in error aborts the process when
    // it is destroyed (`-o /dev/full` ended in "LLVM ERROR: IO failure").
    std::error_code writeError = out.os().error();
    out.os().clear_error();
    return failWith("cannot write '" + path + "': " + writeError.message());
  }
  out.keep();
  return 0;
}
