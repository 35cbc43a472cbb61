//===- Compiler.cpp - From a kernel file to a loadable binary -------------===//
#include "tessera/Runtime/Compiler.h"

#include "tessera/Frontend/Compile.h"
#include "tessera/InitAll.h"
#include "tessera/Support/Logging.h"
#include "tessera/Support/Version.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
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

/// Diagnostics of the frontend and of MLIR, in the order reported, as one
/// error; `fallback` when neither said anything.
llvm::Error compileFailure(SourceScope &scope, std::string &mlirDiagnostics,
                           const llvm::Twine &fallback) {
  std::string text = scope.takeText() + mlirDiagnostics;
  mlirDiagnostics.clear();
  while (!text.empty() && text.back() == '\n')
    text.pop_back();
  return compileError(text.empty() ? fallback.str() : text);
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

llvm::Expected<CompileResult>
KernelCompiler::compile(KernelSource &source, const CompileRequest &request,
                        EmitStage stage) {
  SourceScope scope(source);
  namespace fe = ::tessera::frontend;
  std::string mlirDiagnostics;

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
    return compileFailure(scope, mlirDiagnostics,
                          "cannot specialize kernel '" + request.kernel + "'");

  CompileResult result;
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
  PipelineOptions pipelineOptions =
      backend->getPipelineOptions(*target, options);

  bool useCache = cache && stage == EmitStage::Binary && dump.after.empty();
  if (stage == EmitStage::Binary) {
    CacheKeyInputs inputs;
    inputs.tesseraVersion = getTesseraVersion().str();
    inputs.plugin = plugin;
    std::call_once(pluginBinaryOnce,
                   [&] { pluginBinary = hashPluginFile(plugin.path); });
    inputs.pluginBinary = pluginBinary;
    inputs.target = target->str();
    inputs.options = options.str();
    inputs.pipelineHash = pipeline.hash(pipelineOptions);
    inputs.sourceHash = source.getSourceHash();
    inputs.kernelName = request.kernel;
    inputs.specialization =
        result.specialization + (request.debug ? " debug" : "");
    result.cacheKey = computeCacheKey(inputs);
    if (useCache) {
      if (std::optional<std::string> payload = cache->lookup(result.cacheKey)) {
        llvm::Expected<CompiledKernel> kernel =
            CompiledKernel::deserialize(*payload);
        if (kernel) {
          result.kernel = std::move(*kernel);
          result.cacheHit = true;
          auto remarks = result.kernel->metadata.find(kRemarksKey);
          if (remarks != result.kernel->metadata.end())
            result.remarks = remarks->second;
          return result;
        }
        // Written by another version of the serializer: rebuild it.
        getLogger().debug("kernel cache: entry {} is stale: {}",
                          result.cacheKey, llvm::toString(kernel.takeError()));
      }
    }
  }

  // One context per compilation: compilations on several threads never
  // share MLIR state, and the context's own thread pool is not needed for
  // one kernel.
  DialectRegistry registry;
  registerAllDialects(registry);
  backend->registerDialects(registry);
  MLIRContext context(registry, MLIRContext::Threading::DISABLED);
  fe::loadFrontendDialects(context);
  llvm::raw_string_ostream mlirStream(mlirDiagnostics);
  // Errors of later stages point into the kernel file too, so they print
  // with its source line and caret.
  SourceMgrDiagnosticHandler handler(scope.getSourceMgr(), &context,
                                     mlirStream);
  // Remarks and warnings are for the kernel's author, printed on every
  // successful compile and kept in the binary: their line and caret,
  // without the note printing the operation in the IR (errors keep it).
  ScopedDiagnosticHandler remarks(&context, [&](Diagnostic &diag) {
    DiagnosticSeverity severity = diag.getSeverity();
    if (severity != DiagnosticSeverity::Remark &&
        severity != DiagnosticSeverity::Warning)
      return failure();
    handler.emitDiagnostic(diag.getLocation(), diag.str(), severity);
    return success();
  });

  fe::CompileOptions frontendOptions;
  frontendOptions.debug = request.debug;
  OwningOpRef<ModuleOp> module =
      fe::lowerKernel(scope.getModule(), request.kernel, *spec, context,
                      scope.getDiagnostics(), frontendOptions);
  if (!module)
    return compileFailure(scope, mlirDiagnostics,
                          "cannot lower kernel '" + request.kernel + "'");
  if (stage == EmitStage::Tessera) {
    llvm::raw_string_ostream os(result.text);
    module->print(os);
    os << "\n";
    return result;
  }

  std::string stopAfter;
  if (stage == EmitStage::TesseraGPU) {
    llvm::Expected<std::string> before =
        stageBeforeLowering(pipeline, backend->getName());
    if (!before)
      return before.takeError();
    stopAfter = *before;
  }
  if (failed(pipeline.run(*module, pipelineOptions, "", stopAfter, dump)))
    return compileFailure(scope, mlirDiagnostics,
                          "the pipeline failed on kernel '" + request.kernel +
                              "'");
  // What succeeded may still have said something (only remarks and
  // warnings reach here).
  result.remarks = scope.takeText() + mlirDiagnostics;
  mlirDiagnostics.clear();
  if (stage == EmitStage::TesseraGPU) {
    llvm::raw_string_ostream os(result.text);
    module->print(os);
    os << "\n";
    return result;
  }

  llvm::LLVMContext llvmContext;
  llvm::Expected<std::unique_ptr<llvm::Module>> llvmModule =
      backend->translateToLLVMIR(*module, llvmContext, *target, options);
  if (!llvmModule) {
    std::string why = llvm::toString(llvmModule.takeError());
    return compileFailure(scope, mlirDiagnostics, why);
  }
  if (stage == EmitStage::LLVMIR) {
    llvm::raw_string_ostream os(result.text);
    (*llvmModule)->print(os, /*AAW=*/nullptr);
    return result;
  }
  if (stage == EmitStage::Assembly) {
    llvm::Expected<std::string> assembly =
        backend->emitAssembly(**llvmModule, *target, options);
    if (!assembly)
      return assembly.takeError();
    result.text = std::move(*assembly);
    return result;
  }

  llvm::Expected<CompiledKernel> kernel =
      backend->emitBinary(**llvmModule, request.kernel, *target, options);
  if (!kernel)
    return kernel.takeError();
  result.remarks += mlirDiagnostics;
  if (!result.remarks.empty())
    kernel->metadata[kRemarksKey] = result.remarks;
  if (cache && stage == EmitStage::Binary) {
    // Stored even after a dump: the binary is the same either way.
    if (llvm::Error err =
            cache->store(result.cacheKey, kernel->serialize(),
                         {{"kernel", request.kernel},
                          {"file", source.getPath().str()},
                          {"specialization", result.specialization},
                          {"backend", plugin.name + " " + plugin.version},
                          {"arch", options.arch}}))
      // A read-only or full cache costs time later, not correctness.
      getLogger().warn("kernel cache: cannot store kernel '{}': {}",
                       request.kernel, llvm::toString(std::move(err)));
  }
  result.kernel = std::move(*kernel);
  return result;
}
