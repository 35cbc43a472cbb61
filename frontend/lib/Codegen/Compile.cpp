//===- Compile.cpp - The lowering driver
//-----------------------------------===//
#include "tessera/Frontend/Compile.h"

#include "Builtins.h"

#include "tessera/Frontend/Decorators.h"
#include "tessera/Frontend/Lexer.h"
#include "tessera/Frontend/ModulePrinter.h"
#include "tessera/Frontend/Parser.h"
#include "tessera/InitAll.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace tessera::frontend;
using namespace tessera::frontend::codegen;

ModuleCodegen::ModuleCodegen(KernelModule &km, mlir::MLIRContext &ctx,
                             DiagnosticEngine &diags,
                             const CompileOptions &options)
    : km(km), ctx(ctx), diags(diags), eval(&km, diags), options(options),
      builtins(BuiltinRegistry::get()) {}

void tessera::frontend::loadFrontendDialects(mlir::MLIRContext &ctx) {
  mlir::DialectRegistry registry;
  mlir::tessera::registerAllDialects(registry);
  ctx.appendDialectRegistry(registry);
  ctx.loadDialect<mlir::tessera::TesseraDialect, mlir::arith::ArithDialect,
                  mlir::math::MathDialect, mlir::scf::SCFDialect,
                  mlir::cf::ControlFlowDialect, mlir::func::FuncDialect>();
}

/// The @triton.jit(debug=...) flag of a kernel, if it sets one.
static std::optional<bool> jitDebugFlag(HostEvaluator &eval,
                                        const JitFunction &fn) {
  llvm::FailureOr<JitOptions> opts = getJitOptions(eval, fn);
  if (failed(opts))
    return std::nullopt;
  return opts->debug;
}

/// Says which decorators of other libraries the kernel was found under:
/// Tessera compiles the jit function they wrap and ignores them.
static void remarkIgnoredDecorators(const JitFunction &fn,
                                    DiagnosticEngine &diags) {
  for (const DecoratorInfo &d : fn.decorators) {
    if (d.kind != DecoratorKind::Other)
      continue;
    const Expr *callee = d.call ? d.call->getFunc() : d.expr;
    std::string name = d.qualifiedName;
    if (name.empty())
      name = getSourceText(callee).str();
    diags.remark(d.expr->getLoc().ptr,
                 "decorator '" + name +
                     "' is not Triton's: compiling the @triton.jit "
                     "function it wraps, without it");
  }
}

mlir::OwningOpRef<mlir::ModuleOp>
tessera::frontend::lowerKernel(KernelModule &module, llvm::StringRef kernel,
                               const Specialization &spec,
                               mlir::MLIRContext &ctx, DiagnosticEngine &diags,
                               const CompileOptions &options) {
  loadFrontendDialects(ctx);
  const JitFunction *fn = module.lookupJitFunction(kernel);
  if (!fn) {
    diags.error(llvm::SMLoc(), "no @triton.jit function named '" + kernel +
                                   "' in " + module.getFilename());
    return nullptr;
  }
  ModuleCodegen m(module, ctx, diags, options);
  if (std::optional<bool> debug = jitDebugFlag(m.eval, *fn))
    m.options.debug = *debug || options.debug;
  mlir::OpBuilder builder(&ctx);
  m.module = mlir::ModuleOp::create(
      mlir::FileLineColLoc::get(&ctx, module.getFilename(), 1, 1));
  remarkIgnoredDecorators(*fn, diags);
  FunctionCodegen cg(m, module, fn->def, {});
  if (failed(cg.lowerKernel(spec)) || diags.hadError())
    return nullptr;
  // The device functions were appended after the kernel as they were
  // lowered; keep the kernel first for readers.
  cg.fn->moveBefore(&m.module->getBody()->front());

  // IR that does not verify is a compiler bug, never a user error.
  std::string errors;
  {
    mlir::ScopedDiagnosticHandler handler(&ctx, [&](mlir::Diagnostic &d) {
      llvm::raw_string_ostream os(errors);
      os << d.getLocation() << ": " << d << "\n";
      return mlir::success();
    });
    if (failed(mlir::verify(*m.module))) {
      diags
          .error(fn->def->getNameLoc().ptr,
                 "internal compiler error: the IR lowered from kernel '" +
                     kernel + "' does not verify")
          .hint(errors);
      return nullptr;
    }
  }
  return std::move(m.module);
}

/// Evaluates `NAME=VALUE` command-line constexprs.
static llvm::FailureOr<std::vector<std::pair<std::string, HostValue>>>
evaluateNamed(llvm::ArrayRef<std::string> items, HostEvaluator &eval,
              DiagnosticEngine &diags) {
  std::vector<std::pair<std::string, HostValue>> out;
  for (const std::string &item : items) {
    auto [name, text] = llvm::StringRef(item).split('=');
    name = name.trim();
    if (name.empty() || text.trim().empty()) {
      diags.error(llvm::SMLoc(), "expected NAME=VALUE, got '" + item + "'");
      return llvm::failure();
    }
    llvm::Expected<std::vector<SignatureEntry>> entries =
        Specialization::parseSignature(text, eval);
    if (!entries) {
      diags.error(llvm::SMLoc(),
                  "in '" + item + "': " + llvm::toString(entries.takeError()));
      return llvm::failure();
    }
    if (entries->size() != 1 || !(*entries)[0].isConstexpr) {
      diags.error(llvm::SMLoc(), "'" + item + "' does not give a value");
      return llvm::failure();
    }
    out.emplace_back(name.str(), (*entries)[0].value);
  }
  return out;
}

llvm::FailureOr<unsigned> tessera::frontend::countAutotuneConfigs(
    KernelModule &module, llvm::StringRef kernel, DiagnosticEngine &diags) {
  const JitFunction *fn = module.lookupJitFunction(kernel);
  if (!fn) {
    diags.error(llvm::SMLoc(), "no @triton.jit function named '" + kernel +
                                   "' in " + module.getFilename());
    return llvm::failure();
  }
  const DecoratorInfo *d = fn->findDecorator(DecoratorKind::Autotune);
  if (!d)
    return 0u;
  HostEvaluator eval(&module, diags);
  llvm::FailureOr<AutotuneSpec> spec = readAutotune(eval, *d);
  if (failed(spec))
    return llvm::failure();
  return unsigned(spec->configs.size());
}

llvm::FailureOr<Specialization> tessera::frontend::specializeKernel(
    KernelModule &module, llvm::StringRef kernel, llvm::StringRef signature,
    llvm::ArrayRef<std::string> namedConstexprs,
    std::optional<unsigned> autotuneConfig, DiagnosticEngine &diags) {
  const JitFunction *fn = module.lookupJitFunction(kernel);
  if (!fn) {
    diags.error(llvm::SMLoc(), "no @triton.jit function named '" + kernel +
                                   "' in " + module.getFilename());
    return llvm::failure();
  }
  HostEvaluator eval(&module, diags);
  llvm::Expected<std::vector<SignatureEntry>> entries =
      Specialization::parseSignature(signature, eval);
  if (!entries) {
    diags.error(llvm::SMLoc(),
                "invalid signature: " + llvm::toString(entries.takeError()));
    return llvm::failure();
  }
  auto named = evaluateNamed(namedConstexprs, eval, diags);
  if (failed(named))
    return llvm::failure();

  std::vector<std::pair<int64_t, std::string>> options;
  if (autotuneConfig) {
    const DecoratorInfo *d = fn->findDecorator(DecoratorKind::Autotune);
    if (!d) {
      diags.error(fn->def->getNameLoc().ptr,
                  "--autotune-config given, but kernel '" + kernel +
                      "' has no @triton.autotune decorator");
      return llvm::failure();
    }
    llvm::FailureOr<AutotuneSpec> tune = readAutotune(eval, *d);
    if (failed(tune))
      return llvm::failure();
    if (*autotuneConfig >= tune->configs.size()) {
      diags.error(d->expr->getLoc().ptr,
                  "autotune config " + std::to_string(*autotuneConfig) +
                      " does not exist: kernel '" + kernel + "' has " +
                      std::to_string(tune->configs.size()) + " configs");
      return llvm::failure();
    }
    const TuneConfig &config = tune->configs[*autotuneConfig];
    for (const auto &[k, v] : config.kwargs)
      if (llvm::none_of(*named, [&](const auto &p) { return p.first == k; }))
        named->emplace_back(k, v);
    options.emplace_back(config.numWarps, "num_warps");
    options.emplace_back(config.numStages, "num_stages");
    if (config.numCtas != 1)
      options.emplace_back(config.numCtas, "num_ctas");
  }

  // Heuristics compute constexprs from the arguments known so far.
  if (const DecoratorInfo *d = fn->findDecorator(DecoratorKind::Heuristics)) {
    llvm::FailureOr<HeuristicsSpec> heur = readHeuristics(eval, *d);
    if (failed(heur))
      return llvm::failure();
    std::vector<HostKwarg> known;
    llvm::ArrayRef<Parameter> params = fn->def->getParams();
    for (size_t i = 0; i < params.size(); ++i) {
      if (i < entries->size() && (*entries)[i].isConstexpr)
        known.emplace_back(params[i].name.str(), (*entries)[i].value);
    }
    for (const auto &kv : *named)
      known.push_back(kv);
    llvm::FailureOr<std::vector<HostKwarg>> computed =
        evaluateHeuristics(eval, *heur, known);
    if (failed(computed))
      return llvm::failure();
    for (const auto &[k, v] : *computed)
      if (llvm::none_of(*named, [&](const auto &p) { return p.first == k; }))
        named->emplace_back(k, v);
  }

  llvm::Expected<Specialization> spec =
      Specialization::build(*fn->def, *entries, *named, eval);
  if (!spec) {
    diags.error(llvm::SMLoc(), llvm::toString(spec.takeError()));
    return llvm::failure();
  }
  for (const auto &[value, name] : options)
    spec->setOption(name, value);
  return std::move(*spec);
}
