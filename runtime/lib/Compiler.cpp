//===- Compiler.cpp - From a kernel file to a loadable binary -------------===//
#include "tessera/Runtime/Compiler.h"

#include "tessera/Backend/KernelRecord.h"
#include "tessera/Frontend/Compile.h"
#include "tessera/InitAll.h"
#include "tessera/Support/Logging.h"
#include "tessera/Support/StageTimes.h"
#include "tessera/Support/Version.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::tessera;
using namespace mlir::tessera::runtime;

namespace {
constexpr std::pair<EmitStage, llvm::StringLiteral> kStageNames[] = {
    {EmitStage::Tessera, "tessera"}, {EmitStage::TesseraGPU, "tessera-gpu"},
    {EmitStage::LLVMIR, "llvm"},     {EmitStage::Assembly, "asm"},
    {EmitStage::Binary, "bin"},
};

/// The metadata entry of a CompiledKernel that keeps its remarks.
constexpr char kRemarksKey[] = "remarks";

llvm::Error compileError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// `text`'s diagnostics with the errors first, each with the lines that
/// follow it (source line, caret, notes), otherwise in the order reported:
/// the message's first line is what the user reads as the failure
/// (`tessera: error: ...`), and remarks said before it (a decorator looked
/// through, a dot staying on multiply-adds) only explain it.
std::string putErrorsFirst(llvm::StringRef text) {
  static const llvm::Regex header("^[^ \t].*: (error|warning|remark): ");
  std::vector<std::string> errors, others;
  std::vector<std::string> *current = &others;
  llvm::SmallVector<llvm::StringRef> lines;
  text.split(lines, '\n');
  for (llvm::StringRef line : lines) {
    llvm::SmallVector<llvm::StringRef, 2> match;
    if (header.match(line, &match)) {
      current = match[1] == "error" ? &errors : &others;
      current->emplace_back();
    } else if (current->empty()) {
      current->emplace_back();
    }
    current->back() += line.str() + "\n";
  }
  std::string out;
  for (const std::string &block : errors)
    out += block;
  for (const std::string &block : others)
    out += block;
  return out;
}

/// Diagnostics of the frontend and of MLIR, errors first, as one error;
/// `fallback` when neither said anything.
llvm::Error compileFailure(const std::string &frontendText,
                           std::string &mlirDiagnostics, std::string &remarks,
                           const llvm::Twine &fallback) {
  std::string text = putErrorsFirst(frontendText + mlirDiagnostics + remarks);
  mlirDiagnostics.clear();
  remarks.clear();
  while (!text.empty() && text.back() == '\n')
    text.pop_back();
  return compileError(text.empty() ? fallback.str() : text);
}

/// Adds to `to` the buffers of `from` it lacks (buffers are only ever
/// appended), as views: the source that owns them outlives every job.
void shareBuffers(const llvm::SourceMgr &from, llvm::SourceMgr &to) {
  for (unsigned id = to.getNumBuffers() + 1, e = from.getNumBuffers(); id <= e;
       ++id) {
    const llvm::MemoryBuffer *buffer = from.getMemoryBuffer(id);
    to.AddNewSourceBuffer(
        llvm::MemoryBuffer::getMemBuffer(buffer->getBuffer(),
                                         buffer->getBufferIdentifier(),
                                         /*RequiresNullTerminator=*/false),
        llvm::SMLoc());
  }
}

/// The name of the stage just before "lower-to-llvm".
llvm::Expected<std::string> stageBeforeLowering(const Pipeline &pipeline,
                                                llvm::StringRef backend) {
  std::vector<std::string> names = pipeline.getStageNames();
  auto it = llvm::find(names, kLowerToLLVMStage);
  if (it == names.end())
    return compileError("backend '" + backend + "' has no '" +
                        kLowerToLLVMStage +
                        "' stage; its stages are: " + llvm::join(names, ", "));
  if (it == names.begin())
    return compileError("backend '" + backend + "' lowers to LLVM first");
  return *(it - 1);
}
} // namespace

std::optional<EmitStage>
mlir::tessera::runtime::parseEmitStage(llvm::StringRef name) {
  for (const auto &[stage, text] : kStageNames)
    if (text == name)
      return stage;
  return std::nullopt;
}

llvm::StringRef mlir::tessera::runtime::stringifyEmitStage(EmitStage stage) {
  for (const auto &[s, text] : kStageNames)
    if (s == stage)
      return text;
  llvm_unreachable("unknown emit stage");
}

KernelCompiler::KernelCompiler(std::shared_ptr<Backend> backend,
                               PluginIdentity plugin, DiskCache *cache)
    : backend(std::move(backend)), plugin(std::move(plugin)), cache(cache) {}

llvm::Expected<std::vector<std::string>>
KernelCompiler::getStageNames(const CompileOptions &options) {
  llvm::Expected<TargetDescription> target = backend->describe(options.arch);
  if (!target)
    return target.takeError();
  Pipeline pipeline = buildCorePipeline();
  if (llvm::Error err = backend->buildPipeline(pipeline, *target, options))
    return std::move(err);
  return pipeline.getStageNames();
}

//===----------------------------------------------------------------------===//
// The stages of a compilation
//===----------------------------------------------------------------------===//

struct CompileJob::Impl {
  Impl(KernelSource &source, const CompileRequest &request)
      : source(source), request(request), mlirStream(mlirDiagnostics),
        remarkStream(remarkText) {
    scope.emplace(source);
  }

  KernelSource &source;
  CompileRequest request;
  /// Holds the source's lock from specialize() to the end of lower(): the
  /// frontend's state is the source's. What follows works on the job's own
  /// module, so that jobs of one source run their pipelines concurrently.
  std::optional<SourceScope> scope;
  /// What the frontend reported, taken when the scope ends.
  std::string frontendText;
  /// The source's buffers, for the diagnostics of later stages (file, line,
  /// caret) without the source's lock.
  llvm::SourceMgr sourceMgr;
  std::string mlirDiagnostics;
  llvm::raw_string_ostream mlirStream;
  /// Remarks and warnings of the MLIR stages, kept apart from errors.
  std::string remarkText;
  llvm::raw_string_ostream remarkStream;

  std::optional<::tessera::frontend::Specialization> spec;
  CompileResult result;
  std::optional<TargetDescription> target;
  std::optional<Pipeline> pipeline;
  PipelineOptions pipelineOptions;

  /// After lower(): one context per compilation, so that compilations on
  /// several threads never share MLIR state (its own thread pool is not
  /// needed for one kernel).
  std::unique_ptr<MLIRContext> context;
  std::unique_ptr<SourceMgrDiagnosticHandler> remarkPrinter;
  std::unique_ptr<SourceMgrDiagnosticHandler> handler;
  std::unique_ptr<ScopedDiagnosticHandler> remarkHandler;
  OwningOpRef<ModuleOp> module;
  bool ran = false;
};

CompileJob::CompileJob(std::unique_ptr<Impl> impl) : impl(std::move(impl)) {}
CompileJob::~CompileJob() {
  // The module and the handlers belong to the context: they go first.
  if (impl) {
    impl->module = nullptr;
    impl->remarkHandler.reset();
    impl->handler.reset();
    impl->remarkPrinter.reset();
    impl->context.reset();
  }
}
const CompileResult &CompileJob::getResult() const { return impl->result; }
bool CompileJob::isLowered() const { return bool(impl->module); }

llvm::Expected<std::unique_ptr<CompileJob>>
KernelCompiler::specialize(KernelSource &source,
                           const CompileRequest &request) {
  namespace fe = ::tessera::frontend;
  auto impl = std::make_unique<CompileJob::Impl>(source, request);
  StageTimer timer(&impl->result.times, "specialize");
  SourceScope &scope = *impl->scope;

  // The specialization: signature, named constexprs, autotune config and
  // heuristics, resolved by the frontend.
  llvm::FailureOr<fe::Specialization> spec = failure();
  if (request.completeSignature) {
    llvm::Expected<const fe::JitFunction *> fn =
        source.getJitFunction(request.kernel);
    if (!fn)
      return fn.takeError();
    fe::HostEvaluator &eval = scope.getEvaluator();
    llvm::Expected<std::vector<fe::SignatureEntry>> entries =
        fe::Specialization::parseSignature(request.signature, eval);
    if (!entries)
      return entries.takeError();
    llvm::Expected<fe::Specialization> built =
        fe::Specialization::build(*(*fn)->def, *entries, {}, eval);
    if (!built)
      return built.takeError();
    spec = std::move(*built);
  } else {
    spec = fe::specializeKernel(scope.getModule(), request.kernel,
                                request.signature, request.constexprs,
                                request.autotuneConfig, scope.getDiagnostics());
  }
  if (failed(spec))
    return compileFailure(scope.takeText(), impl->mlirDiagnostics,
                          impl->remarkText,
                          "cannot specialize kernel '" + request.kernel + "'");

  CompileResult &result = impl->result;
  result.specialization = spec->key();
  result.options = request.options;
  CompileOptions &options = result.options;
  if (request.autotuneConfig) {
    for (const auto &[name, value] : spec->getOptions()) {
      if (name == "num_warps")
        options.numWarps = static_cast<int>(value);
      else if (name == "num_stages")
        options.numStages = static_cast<int>(value);
      else if (name == "num_ctas")
        options.numCTAs = static_cast<int>(value);
    }
  }
  options.numWarps = request.numWarps.value_or(options.numWarps);
  options.numStages = request.numStages.value_or(options.numStages);
  options.numCTAs = request.numCTAs.value_or(options.numCTAs);
  impl->spec = std::move(*spec);

  llvm::Expected<TargetDescription> target = backend->describe(options.arch);
  if (!target)
    return target.takeError();
  // The key names the architecture actually compiled for.
  options.arch = target->arch;
  // Launch options come from flags, configs and Python callers alike: one
  // check against the target, before anything is compiled or cached.
  if (llvm::Error err = checkCompileOptions(*backend, *target, options))
    return std::move(err);
  Pipeline pipeline = buildCorePipeline();
  if (llvm::Error err = backend->buildPipeline(pipeline, *target, options))
    return std::move(err);
  impl->pipelineOptions = backend->getPipelineOptions(*target, options);
  impl->target = std::move(*target);
  impl->pipeline = std::move(pipeline);
  return std::unique_ptr<CompileJob>(new CompileJob(std::move(impl)));
}

llvm::Error KernelCompiler::lower(CompileJob &job) {
  namespace fe = ::tessera::frontend;
  CompileJob::Impl &impl = *job.impl;
  if (impl.module)
    return llvm::Error::success();
  StageTimer timer(&impl.result.times, "frontend");
  SourceScope &scope = *impl.scope;
  shareBuffers(scope.getSourceMgr(), impl.sourceMgr);
  DialectRegistry registry;
  registerAllDialects(registry);
  backend->registerDialects(registry);
  impl.context =
      std::make_unique<MLIRContext>(registry, MLIRContext::Threading::DISABLED);
  MLIRContext &context = *impl.context;
  fe::loadFrontendDialects(context);
  // Remarks and warnings are for the kernel's author, printed on every
  // successful compile and kept in the binary: their line and caret,
  // without the note printing the operation in the IR (errors keep it).
  // Their printer is registered first, so that it receives only what the
  // handler below hands it.
  impl.remarkPrinter = std::make_unique<SourceMgrDiagnosticHandler>(
      impl.sourceMgr, &context, impl.remarkStream);
  // Errors of later stages point into the kernel file too, so they print
  // with its source line and caret.
  impl.handler = std::make_unique<SourceMgrDiagnosticHandler>(
      impl.sourceMgr, &context, impl.mlirStream);
  SourceMgrDiagnosticHandler *printer = impl.remarkPrinter.get();
  impl.remarkHandler = std::make_unique<ScopedDiagnosticHandler>(
      &context, [printer](Diagnostic &diag) {
        DiagnosticSeverity severity = diag.getSeverity();
        if (severity != DiagnosticSeverity::Remark &&
            severity != DiagnosticSeverity::Warning)
          return failure();
        printer->emitDiagnostic(diag.getLocation(), diag.str(), severity);
        return success();
      });

  fe::CompileOptions frontendOptions;
  frontendOptions.debug = impl.request.debug;
  impl.module =
      fe::lowerKernel(scope.getModule(), impl.request.kernel, *impl.spec,
                      context, scope.getDiagnostics(), frontendOptions);
  // Files the frontend read while lowering (imports) are buffers too.
  shareBuffers(scope.getSourceMgr(), impl.sourceMgr);
  if (!impl.module)
    return compileFailure(scope.takeText(), impl.mlirDiagnostics,
                          impl.remarkText,
                          "cannot lower kernel '" + impl.request.kernel + "'");

  // The module as the frontend built it, without locations: what the
  // kernel computes, whatever files and globals it came from.
  std::string printed;
  {
    llvm::raw_string_ostream os(printed);
    OpPrintingFlags flags;
    flags.enableDebugInfo(false);
    impl.module->print(os, flags);
  }
  CompileResult &result = impl.result;
  result.moduleHash = sha256Hex(printed);

  CacheKeyInputs inputs;
  inputs.tesseraVersion = getTesseraVersion().str();
  inputs.plugin = plugin;
  std::call_once(pluginBinaryOnce,
                 [&] { pluginBinary = hashPluginFile(plugin.path); });
  inputs.pluginBinary = pluginBinary;
  inputs.target = impl.target->str();
  inputs.options = result.options.str();
  inputs.pipelineHash = impl.pipeline->hash(impl.pipelineOptions);
  inputs.sourceHash = impl.source.getSourceHash();
  inputs.moduleHash = result.moduleHash;
  inputs.kernelName = impl.request.kernel;
  inputs.specialization =
      result.specialization + (impl.request.debug ? " debug" : "");
  result.cacheKey = computeCacheKey(inputs);
  // The rest works on the job's own context and module: the source is
  // free for other jobs.
  impl.frontendText = scope.takeText();
  impl.scope.reset();
  return llvm::Error::success();
}

llvm::Expected<CompileResult> KernelCompiler::run(CompileJob &job,
                                                  EmitStage stage) {
  CompileJob::Impl &impl = *job.impl;
  assert(!impl.ran && "a compile job runs once");
  impl.ran = true;
  if (llvm::Error err = lower(job))
    return std::move(err);
  CompileResult &result = impl.result;
  const CompileRequest &request = impl.request;
  const CompileOptions &options = result.options;
  const TargetDescription &target = *impl.target;
  Pipeline &pipeline = *impl.pipeline;
  std::string &mlirDiagnostics = impl.mlirDiagnostics;

  if (stage == EmitStage::Tessera) {
    // The frontend's remarks and warnings, as every stage reports them.
    result.remarks = std::move(impl.frontendText) + impl.remarkText;
    impl.frontendText.clear();
    impl.remarkText.clear();
    llvm::raw_string_ostream os(result.text);
    impl.module->print(os);
    os << "\n";
    return std::move(result);
  }

  bool useCache = cache && stage == EmitStage::Binary && dump.after.empty();
  if (useCache) {
    StageTimer timer(&result.times, "cache-lookup");
    if (std::optional<std::string> payload = cache->lookup(result.cacheKey)) {
      llvm::Expected<CompiledKernel> kernel =
          CompiledKernel::deserialize(*payload);
      if (kernel) {
        result.kernel = std::move(*kernel);
        result.cacheHit = true;
        timer.stop(); // before `result` moves out
        auto remarks = result.kernel->metadata.find(kRemarksKey);
        if (remarks != result.kernel->metadata.end())
          result.remarks = remarks->second;
        return std::move(result);
      }
      // Written by another version of the serializer: rebuild it.
      getLogger().debug("kernel cache: entry {} is stale: {}", result.cacheKey,
                        llvm::toString(kernel.takeError()));
    }
  }

  std::string stopAfter;
  if (stage == EmitStage::TesseraGPU) {
    llvm::Expected<std::string> before =
        stageBeforeLowering(pipeline, backend->getName());
    if (!before)
      return before.takeError();
    stopAfter = *before;
  }
  if (failed(pipeline.run(*impl.module, impl.pipelineOptions, "", stopAfter,
                          dump, &result.times)))
    return compileFailure(impl.frontendText, mlirDiagnostics, impl.remarkText,
                          "the pipeline failed on kernel '" + request.kernel +
                              "'");
  // What succeeded may still have said something (only remarks and
  // warnings reach here).
  result.remarks =
      std::move(impl.frontendText) + impl.remarkText + mlirDiagnostics;
  impl.frontendText.clear();
  impl.remarkText.clear();
  mlirDiagnostics.clear();
  if (stage == EmitStage::TesseraGPU) {
    llvm::raw_string_ostream os(result.text);
    impl.module->print(os);
    os << "\n";
    return std::move(result);
  }

  // The backend's steps add their parts to the step the runtime times.
  CompileOptions backendOptions = options;
  backendOptions.times = &result.times;
  // What a launch needs, from the stages' records, before the translation
  // (which may rewrite the module); the emitter adds the binary.
  std::optional<CompiledKernel> kernel;
  if (stage == EmitStage::Binary) {
    llvm::Expected<CompiledKernel> built = buildCompiledKernel(
        *impl.module, request.kernel, target, backendOptions);
    if (!built)
      return built.takeError();
    kernel = std::move(*built);
  }
  llvm::LLVMContext llvmContext;
  std::optional<StageTimer> timer(std::in_place, &result.times, "llvm-ir");
  llvm::Expected<std::unique_ptr<llvm::Module>> llvmModule =
      backend->translateToLLVMIR(*impl.module, llvmContext, target,
                                 backendOptions);
  timer.reset();
  if (!llvmModule) {
    std::string why = llvm::toString(llvmModule.takeError());
    return compileFailure(impl.frontendText, mlirDiagnostics, impl.remarkText,
                          why);
  }
  if (stage == EmitStage::LLVMIR) {
    llvm::raw_string_ostream os(result.text);
    (*llvmModule)->print(os, /*AAW=*/nullptr);
    return std::move(result);
  }
  if (stage == EmitStage::Assembly) {
    timer.emplace(&result.times, "assembly");
    llvm::Expected<std::string> assembly =
        backend->emitAssembly(**llvmModule, target, backendOptions);
    timer.reset();
    if (!assembly)
      return assembly.takeError();
    result.text = std::move(*assembly);
    return std::move(result);
  }

  timer.emplace(&result.times, "binary");
  llvm::Error emitted =
      backend->emitBinary(**llvmModule, *kernel, target, backendOptions);
  timer.reset();
  if (emitted)
    return std::move(emitted);
  result.remarks += impl.remarkText + mlirDiagnostics;
  if (!result.remarks.empty())
    kernel->metadata[kRemarksKey] = result.remarks;
  if (cache) {
    StageTimer storeTimer(&result.times, "cache-store");
    // Stored even after a dump: the binary is the same either way.
    if (llvm::Error err =
            cache->store(result.cacheKey, kernel->serialize(),
                         {{"kernel", request.kernel},
                          {"file", impl.source.getPath().str()},
                          {"specialization", result.specialization},
                          {"backend", plugin.name + " " + plugin.version},
                          {"arch", options.arch}}))
      // A read-only or full cache costs time later, not correctness.
      getLogger().warn("kernel cache: cannot store kernel '{}': {}",
                       request.kernel, llvm::toString(std::move(err)));
  }
  result.kernel = std::move(*kernel);
  return std::move(result);
}

llvm::Expected<CompileResult>
KernelCompiler::compile(KernelSource &source, const CompileRequest &request,
                        EmitStage stage) {
  llvm::Expected<std::unique_ptr<CompileJob>> job = specialize(source, request);
  if (!job)
    return job.takeError();
  return run(**job, stage);
}
