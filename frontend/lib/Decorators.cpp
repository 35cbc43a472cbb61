//===- Decorators.cpp - Triton decorators read as data --------------------===//
#include "tessera/Frontend/Decorators.h"

using namespace tessera::frontend;
using llvm::failure;
using llvm::FailureOr;
using llvm::LogicalResult;
using llvm::success;

namespace {
/// The arguments of a decorator call matched to parameter names, evaluated.
struct BoundArgs {
  std::vector<std::pair<std::string, std::pair<HostValue, const Expr *>>>
      values;
  const std::pair<HostValue, const Expr *> *get(llvm::StringRef name) const {
    for (const auto &[n, v] : values)
      if (n == name)
        return &v;
    return nullptr;
  }
};
} // namespace

/// Evaluates the arguments of `decorator` against the parameter list
/// `params` (positional order); unknown keywords are errors unless
/// `allowOther`.
static FailureOr<BoundArgs> bindArgs(HostEvaluator &eval,
                                     const DecoratorInfo &decorator,
                                     llvm::ArrayRef<llvm::StringRef> params,
                                     bool allowOther) {
  BoundArgs bound;
  const CallExpr *call = decorator.call;
  if (!call)
    return bound;
  if (call->getArgs().size() > params.size())
    return FailureOr<BoundArgs>(eval.emitError(
        call->getArgs()[params.size()]->getLoc().ptr,
        "too many positional arguments to @" + decorator.qualifiedName));
  for (size_t i = 0; i < call->getArgs().size(); ++i) {
    const Expr *arg = call->getArgs()[i];
    if (llvm::isa<StarredExpr>(arg))
      return FailureOr<BoundArgs>(
          eval.emitError(arg->getLoc().ptr, "cannot evaluate '*' arguments "
                                            "of a decorator"));
    FailureOr<HostValue> v = eval.evaluate(arg);
    if (failed(v))
      return failure();
    bound.values.push_back({params[i].str(), {*v, arg}});
  }
  for (const Keyword &kw : call->getKeywords()) {
    if (kw.name.empty())
      return FailureOr<BoundArgs>(eval.emitError(
          kw.range.begin.ptr, "cannot evaluate '**' arguments of a decorator"));
    if (!allowOther && !llvm::is_contained(params, kw.name))
      return FailureOr<BoundArgs>(eval.emitError(
          kw.range.begin.ptr,
          "unknown argument '" + kw.name + "' to @" + decorator.qualifiedName));
    if (bound.get(kw.name))
      return FailureOr<BoundArgs>(eval.emitError(
          kw.range.begin.ptr, "argument '" + kw.name + "' given twice"));
    FailureOr<HostValue> v = eval.evaluate(kw.value);
    if (failed(v))
      return failure();
    bound.values.push_back({kw.name.str(), {*v, kw.value}});
  }
  return bound;
}

/// Reads a list of strings (None gives an empty list).
static LogicalResult readNames(HostEvaluator &eval, const BoundArgs &args,
                               llvm::StringRef name,
                               std::vector<std::string> &out) {
  const auto *arg = args.get(name);
  if (!arg || arg->first.isNone())
    return success();
  const HostValue &v = arg->first;
  if (!v.isSequence())
    return eval.emitError(arg->second->getLoc().ptr,
                          "'" + name + "' must be a list of argument names");
  for (const HostValue &e : v.getElements()) {
    if (!e.isString())
      return eval.emitError(arg->second->getLoc().ptr,
                            "'" + name + "' must list argument names, found " +
                                e.repr());
    out.push_back(e.getString());
  }
  return success();
}

FailureOr<JitOptions>
tessera::frontend::readJitOptions(HostEvaluator &eval,
                                  const DecoratorInfo &decorator) {
  static const llvm::StringRef params[] = {"fn"};
  FailureOr<BoundArgs> args =
      bindArgs(eval, decorator, {}, /*allowOther=*/true);
  (void)params;
  if (failed(args))
    return failure();
  JitOptions options;
  for (const auto &[name, value] : args->values) {
    const HostValue &v = value.first;
    if (name == "do_not_specialize" ||
        name == "do_not_specialize_on_alignment") {
      if (!v.isSequence() && !v.isNone())
        return FailureOr<JitOptions>(eval.emitError(
            value.second->getLoc().ptr,
            "'" + name + "' must be a list of parameter names or indices"));
      auto &list = name == "do_not_specialize"
                       ? options.doNotSpecialize
                       : options.doNotSpecializeOnAlignment;
      if (v.isSequence())
        list = v.getElements();
    } else if (name == "noinline") {
      options.noinline = v.isTruthy();
    } else if (name == "debug") {
      options.debug = v.isTruthy();
    } else {
      options.other.emplace_back(name, v);
    }
  }
  return options;
}

FailureOr<JitOptions>
tessera::frontend::getJitOptions(HostEvaluator &eval, const JitFunction &fn) {
  if (fn.embedderOptions)
    return *fn.embedderOptions;
  if (const DecoratorInfo *d = fn.findDecorator(DecoratorKind::Jit))
    return readJitOptions(eval, *d);
  return JitOptions();
}

FailureOr<AutotuneSpec>
tessera::frontend::readAutotune(HostEvaluator &eval,
                                const DecoratorInfo &decorator) {
  static const llvm::StringRef params[] = {
      "configs",        "key",           "prune_configs_by",
      "reset_to_zero",  "restore_value", "pre_hook",
      "post_hook",      "warmup",        "rep",
      "use_cuda_graph", "do_bench",      "cache_results"};
  if (!decorator.call)
    return FailureOr<AutotuneSpec>(eval.emitError(
        decorator.expr->getLoc().ptr,
        "@triton.autotune needs arguments: configs=[...] and key=[...]"));
  FailureOr<BoundArgs> args =
      bindArgs(eval, decorator, params, /*allowOther=*/false);
  if (failed(args))
    return failure();
  AutotuneSpec spec;
  spec.loc = decorator.expr->getLoc();
  const auto *configs = args->get("configs");
  if (!configs)
    return FailureOr<AutotuneSpec>(eval.emitError(
        decorator.expr->getLoc().ptr, "@triton.autotune requires 'configs'"));
  if (!configs->first.isSequence())
    return FailureOr<AutotuneSpec>(
        eval.emitError(configs->second->getLoc().ptr,
                       "'configs' must be a list of triton.Config, got '" +
                           configs->first.getTypeName() + "'"));
  for (const HostValue &c : configs->first.getElements()) {
    if (!c.isConfig())
      return FailureOr<AutotuneSpec>(eval.emitError(
          configs->second->getLoc().ptr,
          "'configs' must hold triton.Config objects, found " + c.repr()));
    spec.configs.push_back(c.getConfig());
  }
  if (!args->get("key"))
    return FailureOr<AutotuneSpec>(eval.emitError(
        decorator.expr->getLoc().ptr, "@triton.autotune requires 'key'"));
  if (failed(readNames(eval, *args, "key", spec.key)) ||
      failed(readNames(eval, *args, "reset_to_zero", spec.resetToZero)) ||
      failed(readNames(eval, *args, "restore_value", spec.restoreValue)))
    return failure();
  auto readInt = [&](llvm::StringRef name,
                     std::optional<int64_t> &out) -> LogicalResult {
    const auto *arg = args->get(name);
    if (!arg || arg->first.isNone())
      return success();
    if (!arg->first.isIntegral())
      return eval.emitError(arg->second->getLoc().ptr,
                            "'" + name + "' must be an integer");
    out = arg->first.getInt();
    return success();
  };
  if (failed(readInt("warmup", spec.warmup)) ||
      failed(readInt("rep", spec.rep)))
    return failure();
  if (const auto *a = args->get("prune_configs_by"))
    spec.pruneConfigsBy = a->first;
  if (const auto *a = args->get("pre_hook"))
    spec.preHook = a->first;
  if (const auto *a = args->get("post_hook"))
    spec.postHook = a->first;
  if (const auto *a = args->get("do_bench"))
    spec.doBench = a->first;
  if (const auto *a = args->get("use_cuda_graph"))
    spec.useCudaGraph = a->first.isTruthy();
  if (const auto *a = args->get("cache_results"))
    spec.cacheResults = a->first.isTruthy();
  return spec;
}

FailureOr<HeuristicsSpec>
tessera::frontend::readHeuristics(HostEvaluator &eval,
                                  const DecoratorInfo &decorator) {
  static const llvm::StringRef params[] = {"values"};
  if (!decorator.call)
    return FailureOr<HeuristicsSpec>(
        eval.emitError(decorator.expr->getLoc().ptr,
                       "@triton.heuristics needs a dict of name -> function"));
  FailureOr<BoundArgs> args =
      bindArgs(eval, decorator, params, /*allowOther=*/false);
  if (failed(args))
    return failure();
  const auto *values = args->get("values");
  if (!values || !values->first.isDict())
    return FailureOr<HeuristicsSpec>(eval.emitError(
        decorator.expr->getLoc().ptr,
        "@triton.heuristics expects a dict of name -> function"));
  HeuristicsSpec spec;
  spec.loc = decorator.expr->getLoc();
  for (const auto &[k, v] : values->first.getItems()) {
    if (!k.isString() || !v.isFunction())
      return FailureOr<HeuristicsSpec>(eval.emitError(
          values->second->getLoc().ptr,
          "@triton.heuristics entries must map a name to a function, found " +
              k.repr() + ": " + v.repr()));
    spec.values.emplace_back(k.getString(), v);
  }
  return spec;
}

FailureOr<std::vector<HostKwarg>>
tessera::frontend::evaluateHeuristics(HostEvaluator &eval,
                                      const HeuristicsSpec &spec,
                                      llvm::ArrayRef<HostKwarg> args) {
  HostValue::Items items;
  for (const auto &[name, value] : args)
    items.emplace_back(HostValue::string(name), value);
  std::vector<HostKwarg> results;
  for (const auto &[name, fn] : spec.values) {
    FailureOr<HostValue> v =
        eval.call(fn, {HostValue::dict(items)}, {}, spec.loc.ptr);
    if (failed(v))
      return failure();
    results.emplace_back(name, *v);
    HostValue key = HostValue::string(name);
    auto it = llvm::find_if(
        items, [&](const auto &item) { return item.first.equals(key); });
    if (it != items.end())
      it->second = *v;
    else
      items.emplace_back(key, *v);
  }
  return results;
}
