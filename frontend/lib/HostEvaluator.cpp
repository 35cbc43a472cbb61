//===- HostEvaluator.cpp - Evaluation of host expressions -----------------===//
#include "tessera/Frontend/HostEvaluator.h"

#include "tessera/Frontend/Codegen/DtypeMethods.h"
#include "tessera/Frontend/Language.h"
#include "tessera/Frontend/ModuleSet.h"

#include "llvm/Support/FormatVariadic.h"

extern char **environ;

using namespace tessera::frontend;
using llvm::cast;
using llvm::dyn_cast;
using llvm::failure;
using llvm::FailureOr;
using llvm::isa;
using llvm::LogicalResult;
using llvm::success;
using ScopePtr = std::shared_ptr<HostScope>;

namespace {
/// Pushes a note context ("while evaluating global 'X'") for errors.
struct ContextScope {
  std::vector<std::pair<std::string, llvm::SMLoc>> &stack;
  ContextScope(std::vector<std::pair<std::string, llvm::SMLoc>> &stack,
               std::string what, llvm::SMLoc loc)
      : stack(stack) {
    stack.emplace_back(std::move(what), loc);
  }
  ~ContextScope() { stack.pop_back(); }
};
} // namespace

HostEvaluator::HostEvaluator(const KernelModule *module,
                             DiagnosticEngine &diags)
    : module(module), diags(diags) {}

void HostEvaluator::setEnvironment(std::map<std::string, std::string> env) {
  HostValue::Items items;
  for (auto &[k, v] : env)
    items.emplace_back(HostValue::string(k), HostValue::string(v));
  environ = HostValue::dict(std::move(items));
}

const HostValue &HostEvaluator::getEnvironment() {
  if (!environ) {
    std::map<std::string, std::string> env;
    for (char **e = ::environ; e && *e; ++e) {
      auto [k, v] = llvm::StringRef(*e).split('=');
      env[k.str()] = v.str();
    }
    setEnvironment(std::move(env));
  }
  return *environ;
}

LogicalResult HostEvaluator::emitError(llvm::SMLoc loc,
                                       const llvm::Twine &message) {
  InFlightDiagnostic diag = diags.error(loc, message);
  for (auto it = context.rbegin(); it != context.rend(); ++it)
    diag.note(it->second, it->first);
  return failure();
}

FailureOr<HostValue> HostEvaluator::evaluate(const Expr *expr,
                                             const ScopePtr &scope) {
  llvm::SMLoc loc = expr->getLoc().ptr;
  switch (expr->getKind()) {
  case NodeKind::Name:
    return evalName(cast<NameExpr>(expr), scope);
  case NodeKind::IntLiteral: {
    auto *lit = cast<IntLiteralExpr>(expr);
    if (!lit->fitsIn64Bits() ||
        lit->getValue() > uint64_t(std::numeric_limits<int64_t>::max()))
      return emitError(loc, "integer literal does not fit in 64 bits");
    return HostValue::integer(int64_t(lit->getValue()));
  }
  case NodeKind::FloatLiteral:
    return HostValue::floating(cast<FloatLiteralExpr>(expr)->getValue());
  case NodeKind::StringLiteral: {
    auto *str = cast<StringLiteralExpr>(expr);
    if (str->isFString())
      return emitError(loc, "cannot evaluate an f-string at compile time");
    if (str->isBytes())
      return emitError(loc, "cannot evaluate a bytes literal at compile time");
    return HostValue::string(str->getValue().str());
  }
  case NodeKind::BoolLiteral:
    return HostValue::boolean(cast<BoolLiteralExpr>(expr)->getValue());
  case NodeKind::NoneLiteral:
    return HostValue::none();
  case NodeKind::EllipsisLiteral:
    return HostValue::symbol("Ellipsis");
  case NodeKind::Attribute:
    return evalAttribute(cast<AttributeExpr>(expr), scope);
  case NodeKind::Subscript:
    return evalSubscript(cast<SubscriptExpr>(expr), scope);
  case NodeKind::Call:
    return evalCall(cast<CallExpr>(expr), scope);
  case NodeKind::BinOp: {
    auto *bin = cast<BinOpExpr>(expr);
    FailureOr<HostValue> lhs = evaluate(bin->getLHS(), scope);
    if (failed(lhs))
      return failure();
    FailureOr<HostValue> rhs = evaluate(bin->getRHS(), scope);
    if (failed(rhs))
      return failure();
    return evalBinary(bin->getOp(), *lhs, *rhs, bin->getOpLoc().ptr);
  }
  case NodeKind::UnaryOp: {
    auto *un = cast<UnaryOpExpr>(expr);
    FailureOr<HostValue> v = evaluate(un->getOperand(), scope);
    if (failed(v))
      return failure();
    return evalUnary(un->getOp(), *v, loc);
  }
  case NodeKind::BoolOp: {
    // Python returns the deciding operand, not a bool.
    auto *op = cast<BoolOpExpr>(expr);
    HostValue last;
    for (const Expr *e : op->getValues()) {
      FailureOr<HostValue> v = evaluate(e, scope);
      if (failed(v))
        return failure();
      last = *v;
      bool truthy = last.isTruthy();
      if ((op->getOp() == BoolOpKind::And) != truthy)
        return last;
    }
    return last;
  }
  case NodeKind::Compare: {
    auto *cmp = cast<CompareExpr>(expr);
    FailureOr<HostValue> lhs = evaluate(cmp->getLeft(), scope);
    if (failed(lhs))
      return failure();
    HostValue left = *lhs;
    for (size_t i = 0; i < cmp->getOps().size(); ++i) {
      const Expr *rhsExpr = cmp->getComparators()[i];
      FailureOr<HostValue> rhs = evaluate(rhsExpr, scope);
      if (failed(rhs))
        return failure();
      FailureOr<bool> result =
          evalCompare(cmp->getOps()[i], left, *rhs, rhsExpr->getLoc().ptr);
      if (failed(result))
        return failure();
      if (!*result)
        return HostValue::boolean(false);
      left = *rhs;
    }
    return HostValue::boolean(true);
  }
  case NodeKind::IfExp: {
    auto *ifExp = cast<IfExpExpr>(expr);
    FailureOr<HostValue> test = evaluate(ifExp->getTest(), scope);
    if (failed(test))
      return failure();
    return evaluate(test->isTruthy() ? ifExp->getBody() : ifExp->getOrElse(),
                    scope);
  }
  case NodeKind::Lambda: {
    HostFunction fn;
    fn.lambda = cast<LambdaExpr>(expr);
    fn.closure = scope;
    fn.module = module;
    fn.name = "<lambda>";
    return HostValue::function(std::move(fn));
  }
  case NodeKind::Tuple:
  case NodeKind::List:
  case NodeKind::Set: {
    std::vector<HostValue> elts;
    if (failed(evalElements(cast<SequenceExpr>(expr)->getElts(), scope, elts)))
      return failure();
    if (isa<TupleExpr>(expr))
      return HostValue::tuple(std::move(elts));
    if (isa<SetExpr>(expr)) {
      // Sets are kept as lists of distinct elements, in insertion order.
      std::vector<HostValue> unique;
      for (HostValue &v : elts) {
        if (!v.isHashable())
          return emitError(loc, "unhashable type: '" + v.getTypeName() + "'");
        if (llvm::none_of(unique,
                          [&](const HostValue &u) { return u.equals(v); }))
          unique.push_back(v);
      }
      return HostValue::list(std::move(unique));
    }
    return HostValue::list(std::move(elts));
  }
  case NodeKind::Dict: {
    auto *dict = cast<DictExpr>(expr);
    HostValue::Items items;
    auto insert = [&](HostValue key, HostValue value,
                      llvm::SMLoc at) -> LogicalResult {
      if (!key.isHashable())
        return emitError(at, "unhashable type: '" + key.getTypeName() + "'");
      for (auto &item : items)
        if (item.first.equals(key)) {
          item.second = std::move(value);
          return success();
        }
      items.emplace_back(std::move(key), std::move(value));
      return success();
    };
    for (size_t i = 0; i < dict->getValues().size(); ++i) {
      FailureOr<HostValue> value = evaluate(dict->getValues()[i], scope);
      if (failed(value))
        return failure();
      const Expr *keyExpr = dict->getKeys()[i];
      if (!keyExpr) {
        if (!value->isDict())
          return emitError(dict->getValues()[i]->getLoc().ptr,
                           "'**' in a dict display needs a dict, not '" +
                               value->getTypeName() + "'");
        for (const auto &[k, v] : value->getItems())
          (void)insert(k, v, loc);
        continue;
      }
      FailureOr<HostValue> key = evaluate(keyExpr, scope);
      if (failed(key) || failed(insert(*key, *value, keyExpr->getLoc().ptr)))
        return failure();
    }
    return HostValue::dict(std::move(items));
  }
  case NodeKind::ListComp:
  case NodeKind::SetComp:
  case NodeKind::GeneratorExp:
  case NodeKind::DictComp:
    return evalComprehension(expr, scope);
  case NodeKind::Starred:
    return emitError(loc, "starred expression is not allowed here");
  case NodeKind::Slice:
    return emitError(loc, "slice is not allowed here");
  case NodeKind::NamedExpr:
    return emitError(loc, "cannot evaluate an assignment expression (':=') "
                          "at compile time");
  default:
    return emitError(loc, "cannot evaluate this expression at compile time");
  }
}

LogicalResult HostEvaluator::evalElements(llvm::ArrayRef<Expr *> elts,
                                          const ScopePtr &scope,
                                          std::vector<HostValue> &out) {
  for (const Expr *e : elts) {
    if (auto *star = dyn_cast<StarredExpr>(e)) {
      FailureOr<HostValue> v = evaluate(star->getValue(), scope);
      if (failed(v))
        return failure();
      FailureOr<std::vector<HostValue>> items = iterate(*v, e->getLoc().ptr);
      if (failed(items))
        return failure();
      out.insert(out.end(), items->begin(), items->end());
      continue;
    }
    FailureOr<HostValue> v = evaluate(e, scope);
    if (failed(v))
      return failure();
    out.push_back(*v);
  }
  return success();
}

FailureOr<std::vector<HostValue>> HostEvaluator::iterate(const HostValue &v,
                                                         llvm::SMLoc loc) {
  if (v.isSequence())
    return v.getElements();
  if (v.isDict()) {
    std::vector<HostValue> keys;
    for (const auto &item : v.getItems())
      keys.push_back(item.first);
    return keys;
  }
  if (v.isString()) {
    std::vector<HostValue> chars;
    for (char c : v.getString())
      chars.push_back(HostValue::string(std::string(1, c)));
    return chars;
  }
  return emitError(loc, "'" + v.getTypeName() + "' object is not iterable");
}

LogicalResult HostEvaluator::assign(const Expr *target, const HostValue &value,
                                    const ScopePtr &scope) {
  if (auto *name = dyn_cast<NameExpr>(target)) {
    scope->vars[name->getId()] = value;
    return success();
  }
  if (auto *seq = dyn_cast<SequenceExpr>(target)) {
    FailureOr<std::vector<HostValue>> items =
        iterate(value, target->getLoc().ptr);
    if (failed(items))
      return failure();
    if (items->size() != seq->getElts().size())
      return emitError(target->getLoc().ptr,
                       llvm::formatv("cannot unpack {0} values into {1} "
                                     "targets",
                                     items->size(), seq->getElts().size()));
    for (size_t i = 0; i < items->size(); ++i)
      if (failed(assign(seq->getElts()[i], (*items)[i], scope)))
        return failure();
    return success();
  }
  return emitError(target->getLoc().ptr,
                   "cannot evaluate an assignment to this target at compile "
                   "time");
}

FailureOr<HostValue> HostEvaluator::evalComprehension(const Expr *expr,
                                                      const ScopePtr &scope) {
  llvm::ArrayRef<Comprehension> gens;
  if (auto *comp = dyn_cast<ComprehensionExpr>(expr))
    gens = comp->getGenerators();
  else
    gens = cast<DictCompExpr>(expr)->getGenerators();
  auto inner = std::make_shared<HostScope>();
  inner->parent = scope;
  std::vector<HostValue> results;
  HostValue::Items items;
  constexpr size_t kMaxElements = 1 << 20;

  // Nested for-clauses, left to right, as nested loops.
  std::function<LogicalResult(size_t)> loop = [&](size_t level) {
    if (level == gens.size()) {
      if (results.size() + items.size() >= kMaxElements)
        return emitError(expr->getLoc().ptr,
                         "comprehension produces too many elements");
      if (auto *dc = dyn_cast<DictCompExpr>(expr)) {
        FailureOr<HostValue> k = evaluate(dc->getKey(), inner);
        if (failed(k))
          return failure();
        FailureOr<HostValue> v = evaluate(dc->getValue(), inner);
        if (failed(v))
          return failure();
        if (!k->isHashable())
          return emitError(dc->getKey()->getLoc().ptr,
                           "unhashable type: '" + k->getTypeName() + "'");
        for (auto &item : items)
          if (item.first.equals(*k)) {
            item.second = *v;
            return success();
          }
        items.emplace_back(*k, *v);
        return success();
      }
      FailureOr<HostValue> v =
          evaluate(cast<ComprehensionExpr>(expr)->getElt(), inner);
      if (failed(v))
        return failure();
      results.push_back(*v);
      return success();
    }
    const Comprehension &gen = gens[level];
    FailureOr<HostValue> iterable = evaluate(gen.iter, inner);
    if (failed(iterable))
      return failure();
    FailureOr<std::vector<HostValue>> elems =
        iterate(*iterable, gen.iter->getLoc().ptr);
    if (failed(elems))
      return failure();
    for (const HostValue &elem : *elems) {
      if (failed(assign(gen.target, elem, inner)))
        return failure();
      bool keep = true;
      for (const Expr *cond : gen.ifs) {
        FailureOr<HostValue> c = evaluate(cond, inner);
        if (failed(c))
          return failure();
        if (!c->isTruthy()) {
          keep = false;
          break;
        }
      }
      if (keep && failed(loop(level + 1)))
        return failure();
    }
    return success();
  };
  if (failed(loop(0)))
    return failure();
  if (isa<DictCompExpr>(expr))
    return HostValue::dict(std::move(items));
  if (isa<SetCompExpr>(expr)) {
    std::vector<HostValue> unique;
    for (HostValue &v : results)
      if (llvm::none_of(unique,
                        [&](const HostValue &u) { return u.equals(v); }))
        unique.push_back(v);
    return HostValue::list(std::move(unique));
  }
  return HostValue::list(std::move(results));
}

/// Names Python provides without an import that the evaluator implements.
static bool isBuiltinName(llvm::StringRef name) {
  static const char *const names[] = {
      "min",     "max",       "abs",      "int",   "float",      "bool",
      "str",     "len",       "range",    "list",  "tuple",      "dict",
      "filter",  "map",       "sorted",   "sum",   "any",        "all",
      "zip",     "enumerate", "reversed", "round", "isinstance", "print",
      "hasattr", "getattr",   "callable"};
  for (const char *n : names)
    if (name == n)
      return true;
  return false;
}

FailureOr<HostValue> HostEvaluator::evalName(const NameExpr *name,
                                             const ScopePtr &scope) {
  if (scope)
    if (const HostValue *v = scope->lookup(name->getId()))
      return *v;
  if (module && module->lookupGlobal(name->getId()))
    return evaluateGlobal(name->getId(), name->getLoc().ptr);
  if (std::optional<HostValue> v =
          lookupStarImports(name->getId(), name->getLoc().ptr))
    return *v;
  if (isBuiltinName(name->getId()))
    return HostValue::symbol(name->getId().str());
  return emitError(name->getLoc().ptr,
                   "name '" + name->getId() + "' is not defined");
}

/// Where a binding's statement starts in its module's buffer.
static const char *getBindingPosition(const GlobalBinding &binding) {
  if (binding.stmt)
    return binding.stmt->getLoc().getPointer();
  return binding.loc.getPointer();
}

bool HostEvaluator::isVisibleGlobal(const KernelModule &mod,
                                    llvm::StringRef name) const {
  const GlobalSymbol *symbol = mod.lookupGlobal(name);
  if (!symbol || symbol->bindings.empty())
    return false;
  auto horizon = horizons.find(&mod);
  if (horizon == horizons.end())
    return true;
  return llvm::any_of(symbol->bindings, [&](const GlobalBinding &b) {
    const char *pos = getBindingPosition(b);
    return !pos || pos < horizon->second;
  });
}

class HostEvaluator::HorizonScope {
public:
  HorizonScope(HostEvaluator &eval, const char *at)
      : eval(eval), module(eval.module) {
    auto it = eval.horizons.find(module);
    if (it != eval.horizons.end())
      saved = it->second;
    eval.horizons[module] = at;
  }
  ~HorizonScope() {
    if (saved)
      eval.horizons[module] = saved;
    else
      eval.horizons.erase(module);
  }

private:
  HostEvaluator &eval;
  const KernelModule *module;
  const char *saved = nullptr;
};

FailureOr<HostValue> HostEvaluator::evaluateGlobal(llvm::StringRef name,
                                                   llvm::SMLoc useLoc) {
  if (!module)
    return emitError(useLoc, "name '" + name + "' is not defined");
  return evaluateGlobal(*module, name, useLoc);
}

FailureOr<HostValue> HostEvaluator::evaluateGlobal(const KernelModule &mod,
                                                   llvm::StringRef name,
                                                   llvm::SMLoc useLoc) {
  const GlobalSymbol *symbol = mod.lookupGlobal(name);
  if (!symbol || symbol->bindings.empty())
    return emitError(useLoc, "name '" + name + "' is not defined");
  // A function that rebinds the global may have run before the kernel
  // compiles (FlagGems sets its libdevice module so at import time): its
  // first value is no answer.
  llvm::StringRef rebinder = mod.getRebindingFunction(name);
  if (!rebinder.empty() &&
      symbol->bindings.back().kind != BindingKind::Injected)
    return emitError(
        useLoc, "cannot know the value of global '" + name + "' of module '" +
                    mod.getModuleName() + "' at compile time: function '" +
                    rebinder + "' rebinds it ('global " + name +
                    "') when it runs; Tessera's Python package reads "
                    "the live value");
  // The last binding before the module's horizon, if it has one.
  size_t index = symbol->bindings.size() - 1;
  auto horizon = horizons.find(&mod);
  if (horizon != horizons.end()) {
    size_t visible = symbol->bindings.size();
    for (size_t i = symbol->bindings.size(); i-- > 0;) {
      const char *pos = getBindingPosition(symbol->bindings[i]);
      if (!pos || pos < horizon->second) {
        visible = i;
        break;
      }
    }
    if (visible == symbol->bindings.size())
      return emitError(useLoc, "name '" + name +
                                   "' is not defined yet where module '" +
                                   mod.getModuleName() + "' reads it");
    index = visible;
  }
  std::string key = (name + "#" + llvm::Twine(index)).str();
  llvm::StringMap<HostValue> &cache = globalCache[&mod];
  auto cached = cache.find(key);
  if (cached != cache.end())
    return cached->second;
  if (!inProgress[&mod].insert(key).second)
    return emitError(useLoc,
                     "global '" + name + "' is defined in terms of itself");
  FailureOr<HostValue> result = failure();
  {
    ModuleScope in(*this, &mod);
    result = evalBinding(*symbol, index, useLoc);
  }
  inProgress[&mod].erase(key);
  if (succeeded(result))
    globalCache[&mod][key] = *result;
  return result;
}

FailureOr<HostValue> HostEvaluator::evalBinding(const GlobalSymbol &symbol,
                                                size_t index,
                                                llvm::SMLoc useLoc) {
  // Module code runs top to bottom: the value is that of the last binding
  // whose enclosing conditions hold.
  for (size_t i = index + 1; i-- > 0;) {
    const GlobalBinding &binding = symbol.bindings[i];
    bool taken = true;
    for (const BindingGuard &guard : binding.guards) {
      ContextScope ctx(context,
                       "while evaluating the condition that guards '" +
                           symbol.name + "'",
                       binding.loc.ptr);
      bool holds;
      if (guard.tryStmt) {
        HorizonScope at(*this, guard.tryStmt->getLoc().getPointer());
        FailureOr<bool> ok = evalTryGuard(guard.tryStmt);
        if (failed(ok))
          return failure();
        holds = *ok;
      } else {
        HorizonScope at(*this, guard.condition->getLoc().getPointer());
        FailureOr<HostValue> cond = evaluate(guard.condition);
        if (failed(cond))
          return failure();
        holds = cond->isTruthy();
      }
      if (holds != guard.expected) {
        taken = false;
        break;
      }
    }
    if (!taken)
      continue;
    ContextScope ctx(context, "while evaluating global '" + symbol.name + "'",
                     binding.loc.ptr);
    // The statement sees what was bound before it (an embedder's values
    // have no statement).
    std::optional<HorizonScope> at;
    if (const char *pos = getBindingPosition(binding))
      at.emplace(*this, pos);
    switch (binding.kind) {
    case BindingKind::Import:
      return evalImport(module->getImports()[binding.importIndex]);
    case BindingKind::Injected:
      return binding.injected;
    case BindingKind::JitFunction:
    case BindingKind::HostFunction: {
      HostFunction fn;
      fn.def = cast<FunctionDefStmt>(binding.stmt);
      fn.module = module;
      fn.name = symbol.name;
      fn.isJit = binding.kind == BindingKind::JitFunction;
      return HostValue::function(std::move(fn));
    }
    case BindingKind::Class:
      return HostValue::symbol(symbol.name);
    case BindingKind::Unparsed: {
      InFlightDiagnostic diag =
          diags.error(useLoc, "global '" + symbol.name +
                                  "' is needed but its definition could not "
                                  "be parsed");
      for (const Diagnostic &d : binding.parseErrors)
        diag.note(d.loc, d.message);
      return failure();
    }
    case BindingKind::Value: {
      FailureOr<HostValue> value = evaluate(binding.value);
      if (failed(value))
        return failure();
      if (binding.augmentedOp) {
        if (i == 0)
          return emitError(binding.loc.ptr,
                           "name '" + symbol.name + "' is not defined");
        FailureOr<HostValue> previous = evalBinding(symbol, i - 1, useLoc);
        if (failed(previous))
          return failure();
        return evalBinary(*binding.augmentedOp, *previous, *value,
                          binding.loc.ptr);
      }
      HostValue v = *value;
      for (unsigned idx : binding.unpackPath) {
        FailureOr<std::vector<HostValue>> elts = iterate(v, binding.loc.ptr);
        if (failed(elts))
          return failure();
        if (idx >= elts->size())
          return emitError(binding.loc.ptr, "not enough values to unpack");
        v = (*elts)[idx];
      }
      return v;
    }
    }
  }
  return emitError(useLoc, "global '" + symbol.name +
                               "' is not bound under the conditions that "
                               "hold at compile time");
}

FailureOr<std::string>
HostEvaluator::resolveImportModule(const ImportInfo &import) {
  llvm::StringRef name = import.module;
  name = name.ltrim('.');
  if (import.level == 0)
    return name.str();
  ModuleSet *set = module ? module->getModuleSet() : nullptr;
  if (!set)
    return name.str();
  llvm::Expected<std::string> resolved =
      set->resolveRelative(*module, import.level, name);
  if (!resolved)
    return FailureOr<std::string>(
        emitError(import.loc.ptr, llvm::toString(resolved.takeError())));
  return *resolved;
}

/// True for an import of `packaging.version`, whose Version and parse the
/// evaluator implements (callBuiltin): its source, even where the module
/// search path holds a copy, is classes the evaluator cannot run.
static bool importsEvaluatorModule(const ImportInfo &import) {
  if (import.level != 0)
    return false;
  return import.module == "packaging.version" ||
         (import.module == "packaging" && import.member == "version");
}

FailureOr<HostValue> HostEvaluator::evalImport(const ImportInfo &import) {
  ModuleSet *set = module ? module->getModuleSet() : nullptr;
  // The language, and any import of a file scanned alone, stays a name.
  if (!set || importsEvaluatorModule(import) ||
      (import.level == 0 &&
       ModuleSet::isLanguageModule(
           llvm::StringRef(import.module).split('.').first)))
    return HostValue::symbol(canonicalizeTritonName(import.qualifiedName));
  FailureOr<std::string> target = resolveImportModule(import);
  if (failed(target))
    return failure();
  if (ModuleSet::isLanguageModule(*target))
    return HostValue::symbol(canonicalizeTritonName(
        import.member.empty() ? *target : *target + "." + import.member));

  // `from . import x` outside a package: x is a top-level module.
  if (target->empty()) {
    std::string why;
    if (const KernelModule *top = set->importModule(import.member, &why))
      return HostValue::module(top);
    return HostValue::symbol(import.member);
  }
  const KernelModule *imported = set->importModule(*target);
  if (import.member.empty()) {
    // `import a.b.c` binds `a`; `import a.b.c as m` binds `a.b.c`.
    bool aliased =
        import.boundName != llvm::StringRef(*target).split('.').first;
    if (!imported)
      return HostValue::symbol(aliased ? *target : import.boundName);
    if (aliased)
      return HostValue::module(imported);
    const KernelModule *root =
        set->importModule(llvm::StringRef(*target).split('.').first);
    return root ? HostValue::module(root) : HostValue::symbol(import.boundName);
  }
  // An unknown module stays a name: an error only where a kernel uses it.
  if (!imported)
    return HostValue::symbol(*target + "." + import.member);
  // An attribute of the module first, as Python does, if it is bound yet
  // (`from . import x` in a package's __init__ binds the very name it
  // looks up: that is the submodule).
  if (isVisibleGlobal(*imported, import.member))
    return evaluateGlobal(*imported, import.member, import.loc.ptr);
  std::string why;
  if (const KernelModule *sub =
          set->importModule(*target + "." + import.member, &why))
    return HostValue::module(sub);
  return emitError(import.loc.ptr, "cannot import name '" + import.member +
                                       "' from '" + *target + "' (" +
                                       imported->getFilename() + ")");
}

bool HostEvaluator::isConstexprGlobal(const KernelModule &mod,
                                      llvm::StringRef name, unsigned depth) {
  const GlobalSymbol *symbol = mod.lookupGlobal(name);
  if (!symbol || symbol->bindings.empty() || depth > 32)
    return false;
  if (symbol->isConstexpr)
    return true;
  const GlobalBinding &last = symbol->bindings.back();
  ModuleSet *set = mod.getModuleSet();
  if (last.kind != BindingKind::Import || !set)
    return false;
  const ImportInfo &import = mod.getImports()[last.importIndex];
  if (import.member.empty())
    return false;
  ModuleScope in(*this, &mod);
  std::string target = llvm::StringRef(import.module).ltrim('.').str();
  if (import.level) {
    llvm::Expected<std::string> resolved =
        set->resolveRelative(mod, import.level, target);
    if (!resolved) {
      llvm::consumeError(resolved.takeError());
      return false;
    }
    target = *resolved;
  }
  if (target.empty() || ModuleSet::isLanguageModule(target))
    return false;
  const KernelModule *from = set->importModule(target);
  return from && isConstexprGlobal(*from, import.member, depth + 1);
}

std::optional<HostValue> HostEvaluator::lookupStarImports(llvm::StringRef name,
                                                          llvm::SMLoc useLoc) {
  if (!module || name.starts_with("_"))
    return std::nullopt;
  ModuleSet *set = module->getModuleSet();
  for (const ImportInfo &star : llvm::reverse(module->getStarImports())) {
    std::string target = llvm::StringRef(star.module).ltrim('.').str();
    if (star.level && set) {
      llvm::Expected<std::string> resolved =
          set->resolveRelative(*module, star.level, target);
      if (!resolved) {
        llvm::consumeError(resolved.takeError());
        continue;
      }
      target = *resolved;
    }
    if (ModuleSet::isLanguageModule(target)) {
      std::string qualified = target + "." + name.str();
      if (isLanguageName(qualified))
        return HostValue::symbol(canonicalizeTritonName(qualified));
      continue;
    }
    if (!set)
      continue;
    if (const KernelModule *from = set->importModule(target))
      if (from->lookupGlobal(name)) {
        FailureOr<HostValue> v = evaluateGlobal(*from, name, useLoc);
        if (succeeded(v))
          return *v;
        return std::nullopt;
      }
  }
  return std::nullopt;
}

FailureOr<bool> HostEvaluator::importResolves(const ImportInfo &import) {
  ModuleSet *set = module ? module->getModuleSet() : nullptr;
  FailureOr<std::string> target = resolveImportModule(import);
  if (failed(target))
    return failure();
  std::string full = import.member.empty() ? *target
                     : target->empty()     ? import.member
                                           : *target + "." + import.member;
  // Tessera knows its language: what it lacks, Triton 3.6 lacks too.
  if (ModuleSet::isLanguageModule(*target))
    return isLanguageName(full);
  // A file scanned alone keeps the happy path, as Python on the author's
  // machine would.
  if (!set)
    return true;
  std::string why;
  const KernelModule *imported =
      set->importModule(target->empty() ? full : *target, &why);
  if (!imported)
    return FailureOr<bool>(emitError(
        import.loc.ptr, "cannot tell whether this import succeeds: " + why));
  if (target->empty())
    return true;
  if (import.member.empty() || imported->lookupGlobal(import.member))
    return true;
  return set->importModule(full) != nullptr;
}

FailureOr<bool> HostEvaluator::evalTryGuard(const TryStmt *tryStmt) {
  auto cached = tryCache.find(tryStmt);
  if (cached != tryCache.end())
    return cached->second;
  // The imports of the body decide, in order: the first that fails raises
  // ImportError.
  bool ok = true;
  for (const ImportInfo &import : module->getImports()) {
    if (import.loc.ptr.getPointer() < tryStmt->getLoc().ptr.getPointer() ||
        import.loc.ptr.getPointer() >= tryStmt->getRange().end.ptr.getPointer())
      continue;
    // Only the body's imports, not the handlers'.
    bool inBody = false;
    for (const Stmt *s : tryStmt->getBody())
      if (import.loc.ptr.getPointer() >= s->getLoc().ptr.getPointer() &&
          import.loc.ptr.getPointer() < s->getRange().end.ptr.getPointer())
        inBody = true;
    if (!inBody)
      continue;
    FailureOr<bool> resolves = importResolves(import);
    if (failed(resolves))
      return failure();
    if (!*resolves) {
      ok = false;
      break;
    }
  }
  tryCache[tryStmt] = ok;
  return ok;
}

FailureOr<HostValue> HostEvaluator::getAttribute(const HostValue &base,
                                                 llvm::StringRef name,
                                                 llvm::SMLoc loc) {
  if (base.isModule()) {
    const KernelModule &mod = base.getModule();
    if (mod.lookupGlobal(name))
      return evaluateGlobal(mod, name, loc);
    if (ModuleSet *set = mod.getModuleSet())
      if (const KernelModule *sub =
              set->importModule((mod.getModuleName() + "." + name).str()))
        return HostValue::module(sub);
    if (name == "__name__")
      return HostValue::string(mod.getModuleName().str());
    if (name == "__file__")
      return HostValue::string(mod.getFilename().str());
    return emitError(loc, "module '" + mod.getModuleName() +
                              "' has no attribute '" + name + "'");
  }
  if (base.isSymbol()) {
    // A dtype's attributes (`primitive_bitwidth`, `name`); its is_*
    // predicates stay symbols that callBuiltin answers.
    if (std::optional<TType> t =
            TType::fromQualifiedName(canonicalizeTritonName(base.getString())))
      if (std::optional<HostValue> v = getDtypeAttribute(*t, name))
        return *v;
    std::string qualified =
        canonicalizeTritonName(base.getString() + "." + name.str());
    if (qualified == "os.environ")
      return getEnvironment();
    if (qualified == "triton.__version__")
      return HostValue::string(kTritonLanguageVersion.str());
    return HostValue::symbol(qualified);
  }
  if (base.isConfig()) {
    const TuneConfig &config = base.getConfig();
    if (name == "kwargs" || name == "all_kwargs") {
      HostValue::Items items;
      for (const auto &[k, v] : config.kwargs)
        items.emplace_back(HostValue::string(k), v);
      return HostValue::dict(std::move(items));
    }
    if (name == "num_warps")
      return HostValue::integer(config.numWarps);
    if (name == "num_stages")
      return HostValue::integer(config.numStages);
    if (name == "num_ctas")
      return HostValue::integer(config.numCtas);
    if (name == "maxnreg")
      return config.maxnreg ? HostValue::integer(*config.maxnreg)
                            : HostValue::none();
    if (name == "pre_hook")
      return config.preHook;
  }
  return emitError(loc, "cannot evaluate attribute '" + name + "' of a '" +
                            base.getTypeName() + "' value at compile time");
}

std::optional<bool> HostEvaluator::hasAttribute(const HostValue &base,
                                                llvm::StringRef name,
                                                llvm::SMLoc loc) {
  if (base.isModule()) {
    const KernelModule &mod = base.getModule();
    if (mod.lookupGlobal(name))
      return true;
    if (ModuleSet *set = mod.getModuleSet())
      return set->importModule((mod.getModuleName() + "." + name).str()) !=
             nullptr;
    return false;
  }
  if (base.isSymbol() && ModuleSet::isLanguageModule(base.getString()))
    return isLanguageName(base.getString() + "." + name.str());
  if (base.isConfig())
    return llvm::is_contained({"kwargs", "all_kwargs", "num_warps",
                               "num_stages", "num_ctas", "maxnreg", "pre_hook"},
                              name);
  if (base.isNumber() || base.isString() || base.isNone() ||
      base.isSequence() || base.isDict())
    return false;
  (void)emitError(loc, "cannot tell at compile time whether a '" +
                           base.getTypeName() + "' value has attribute '" +
                           name + "'");
  return std::nullopt;
}

FailureOr<HostValue> HostEvaluator::evalAttribute(const AttributeExpr *attr,
                                                  const ScopePtr &scope) {
  FailureOr<HostValue> base = evaluate(attr->getValue(), scope);
  if (failed(base))
    return failure();
  return getAttribute(*base, attr->getAttr(), attr->getAttrLoc().ptr);
}

/// Normalizes a Python index into [0, size); false if out of range.
static bool normalizeIndex(int64_t &index, size_t size) {
  if (index < 0)
    index += int64_t(size);
  return index >= 0 && index < int64_t(size);
}

FailureOr<HostValue> HostEvaluator::evalSubscript(const SubscriptExpr *sub,
                                                  const ScopePtr &scope) {
  FailureOr<HostValue> base = evaluate(sub->getValue(), scope);
  if (failed(base))
    return failure();
  llvm::SMLoc loc = sub->getIndex()->getLoc().ptr;
  if (auto *slice = dyn_cast<SliceExpr>(sub->getIndex())) {
    if (!base->isSequence() && !base->isString())
      return emitError(loc, "'" + base->getTypeName() +
                                "' object cannot be sliced at compile time");
    int64_t parts[3] = {0, 0, 1};
    const Expr *exprs[3] = {slice->getLower(), slice->getUpper(),
                            slice->getStep()};
    bool given[3] = {false, false, false};
    for (int i = 0; i < 3; ++i) {
      if (!exprs[i])
        continue;
      FailureOr<HostValue> v = evaluate(exprs[i], scope);
      if (failed(v))
        return failure();
      if (v->isNone())
        continue;
      if (!v->isIntegral())
        return emitError(exprs[i]->getLoc().ptr,
                         "slice indices must be integers");
      parts[i] = v->getInt();
      given[i] = true;
    }
    int64_t step = parts[2];
    if (step == 0)
      return emitError(loc, "slice step cannot be zero");
    int64_t size = base->isString() ? base->getString().size()
                                    : base->getElements().size();
    auto clamp = [&](int64_t v, bool isGiven, int64_t dflt) {
      if (!isGiven)
        return dflt;
      if (v < 0)
        v += size;
      if (step > 0)
        return std::clamp<int64_t>(v, 0, size);
      return std::clamp<int64_t>(v, -1, size - 1);
    };
    int64_t start = clamp(parts[0], given[0], step > 0 ? 0 : size - 1);
    int64_t stop = clamp(parts[1], given[1], step > 0 ? size : -1);
    std::vector<HostValue> elts;
    std::string text;
    for (int64_t i = start; step > 0 ? i < stop : i > stop; i += step) {
      if (base->isString())
        text += base->getString()[i];
      else
        elts.push_back(base->getElements()[i]);
    }
    if (base->isString())
      return HostValue::string(text);
    return base->isList() ? HostValue::list(std::move(elts))
                          : HostValue::tuple(std::move(elts));
  }
  FailureOr<HostValue> index = evaluate(sub->getIndex(), scope);
  if (failed(index))
    return failure();
  if (base->isDict()) {
    if (const HostValue *v = base->lookup(*index))
      return *v;
    return emitError(loc, "key " + index->repr() + " is not in the dict");
  }
  if (base->isSequence() || base->isString()) {
    if (!index->isIntegral())
      return emitError(loc, "indices must be integers, not '" +
                                index->getTypeName() + "'");
    int64_t i = index->getInt();
    size_t size = base->isString() ? base->getString().size()
                                   : base->getElements().size();
    if (!normalizeIndex(i, size))
      return emitError(loc, "index " + std::to_string(index->getInt()) +
                                " is out of range");
    if (base->isString())
      return HostValue::string(std::string(1, base->getString()[i]));
    return base->getElements()[i];
  }
  return emitError(sub->getLoc().ptr, "cannot subscript a '" +
                                          base->getTypeName() +
                                          "' value at compile time");
}

FailureOr<HostValue> HostEvaluator::evalCall(const CallExpr *call,
                                             const ScopePtr &scope) {
  llvm::SMLoc loc = call->getLoc().ptr;
  // Methods of dicts: d.get(k, default), d.keys(), d.values(), d.items().
  if (auto *attr = dyn_cast<AttributeExpr>(call->getFunc())) {
    llvm::StringRef method = attr->getAttr();
    if (method == "get" || method == "keys" || method == "values" ||
        method == "items") {
      FailureOr<HostValue> base = evaluate(attr->getValue(), scope);
      if (failed(base))
        return failure();
      if (base->isDict()) {
        std::vector<HostValue> args;
        if (failed(evalElements(call->getArgs(), scope, args)))
          return failure();
        if (method == "get") {
          if (args.empty() || args.size() > 2)
            return emitError(loc, "dict.get takes 1 or 2 arguments");
          const HostValue *v = base->lookup(args[0]);
          return v ? *v : (args.size() == 2 ? args[1] : HostValue::none());
        }
        std::vector<HostValue> out;
        for (const auto &[k, v] : base->getItems()) {
          if (method == "keys")
            out.push_back(k);
          else if (method == "values")
            out.push_back(v);
          else
            out.push_back(HostValue::tuple({k, v}));
        }
        return HostValue::list(std::move(out));
      }
    }
  }
  // Methods of strings, as version checks use them.
  if (auto *attr = dyn_cast<AttributeExpr>(call->getFunc())) {
    FailureOr<HostValue> base = failure();
    {
      // Only a string receiver is a method call here; anything else is
      // evaluated below as an attribute (a module's function, say).
      DiagnosticCapture quiet(diags);
      base = evaluate(attr->getValue(), scope);
    }
    if (succeeded(base) && base->isString()) {
      std::vector<HostValue> args;
      if (failed(evalElements(call->getArgs(), scope, args)))
        return failure();
      return callStringMethod(base->getString(), attr->getAttr(), args, loc);
    }
  }
  FailureOr<HostValue> callee = evaluate(call->getFunc(), scope);
  if (failed(callee))
    return failure();
  std::vector<HostValue> args;
  if (failed(evalElements(call->getArgs(), scope, args)))
    return failure();
  std::vector<HostKwarg> kwargs;
  for (const Keyword &kw : call->getKeywords()) {
    FailureOr<HostValue> v = evaluate(kw.value, scope);
    if (failed(v))
      return failure();
    if (kw.name.empty()) {
      if (!v->isDict())
        return emitError(kw.range.begin.ptr,
                         "argument after ** must be a dict");
      for (const auto &[k, val] : v->getItems()) {
        if (!k.isString())
          return emitError(kw.range.begin.ptr, "keywords must be strings");
        kwargs.emplace_back(k.getString(), val);
      }
      continue;
    }
    kwargs.emplace_back(kw.name.str(), *v);
  }
  return this->call(*callee, args, kwargs, loc);
}

FailureOr<HostValue> HostEvaluator::call(const HostValue &callee,
                                         llvm::ArrayRef<HostValue> args,
                                         llvm::ArrayRef<HostKwarg> kwargs,
                                         llvm::SMLoc loc) {
  if (callee.isFunction())
    return callFunction(callee.getFunction(), args, kwargs, loc);
  if (callee.isSymbol()) {
    bool handled = false;
    FailureOr<HostValue> result =
        callBuiltin(callee.getString(), args, kwargs, loc, handled);
    if (handled)
      return result;
    if (externalHandler)
      if (std::optional<HostValue> v =
              externalHandler(callee.getString(), args, kwargs))
        return *v;
    return emitError(loc, "cannot evaluate call to '" + callee.getString() +
                              "' at compile time");
  }
  return emitError(loc,
                   "'" + callee.getTypeName() + "' object is not callable");
}

FailureOr<HostValue>
HostEvaluator::callFunction(const HostFunction &fn,
                            llvm::ArrayRef<HostValue> args,
                            llvm::ArrayRef<HostKwarg> kwargs, llvm::SMLoc loc) {
  if (fn.isJit)
    return emitError(loc, "cannot call @triton.jit function '" + fn.name +
                              "' on the host");
  // The body reads the globals of the module that defines it.
  ModuleScope in(*this, fn.module);
  constexpr unsigned kMaxCallDepth = 64;
  if (callDepth >= kMaxCallDepth)
    return emitError(loc, "host function calls nest too deeply");
  struct DepthGuard {
    unsigned &depth;
    ~DepthGuard() { --depth; }
  } guard{++callDepth};

  llvm::ArrayRef<Parameter> params =
      fn.def ? fn.def->getParams() : fn.lambda->getParams();
  auto scope = std::make_shared<HostScope>();
  scope->parent = fn.closure;
  ContextScope ctx(context, "in call to '" + fn.name + "'", loc);

  // Bind arguments as Python does: positionals, then keywords, then
  // defaults; *args and **kwargs collect the rest.
  size_t nextArg = 0;
  std::vector<HostValue> extraArgs;
  HostValue::Items extraKwargs;
  std::vector<bool> used(kwargs.size(), false);
  for (const Parameter &p : params) {
    if (p.kind == ParamKind::VarPositional) {
      for (; nextArg < args.size(); ++nextArg)
        extraArgs.push_back(args[nextArg]);
      scope->vars[p.name] = HostValue::tuple(extraArgs);
      continue;
    }
    if (p.kind == ParamKind::VarKeyword)
      continue;
    std::optional<HostValue> value;
    if ((p.kind == ParamKind::Positional ||
         p.kind == ParamKind::PositionalOnly) &&
        nextArg < args.size())
      value = args[nextArg++];
    if (p.kind != ParamKind::PositionalOnly)
      for (size_t k = 0; k < kwargs.size(); ++k)
        if (kwargs[k].first == p.name) {
          if (value)
            return emitError(loc, "'" + fn.name +
                                      "' got multiple values for argument '" +
                                      p.name + "'");
          value = kwargs[k].second;
          used[k] = true;
        }
    if (!value && p.defaultValue) {
      FailureOr<HostValue> d = evaluate(p.defaultValue);
      if (failed(d))
        return failure();
      value = *d;
    }
    if (!value)
      return emitError(loc, "'" + fn.name + "' is missing argument '" + p.name +
                                "'");
    scope->vars[p.name] = *value;
  }
  if (nextArg < args.size())
    return emitError(loc, llvm::formatv("'{0}' takes {1} positional "
                                        "arguments but {2} were given",
                                        fn.name, nextArg, args.size()));
  const Parameter *varKeyword = nullptr;
  for (const Parameter &p : params)
    if (p.kind == ParamKind::VarKeyword)
      varKeyword = &p;
  for (size_t k = 0; k < kwargs.size(); ++k) {
    if (used[k])
      continue;
    if (!varKeyword)
      return emitError(loc, "'" + fn.name +
                                "' got an unexpected keyword argument '" +
                                kwargs[k].first + "'");
    extraKwargs.emplace_back(HostValue::string(kwargs[k].first),
                             kwargs[k].second);
  }
  if (varKeyword)
    scope->vars[varKeyword->name] = HostValue::dict(std::move(extraKwargs));

  if (fn.lambda)
    return evaluate(fn.lambda->getBody(), scope);
  std::optional<HostValue> returned;
  if (failed(execBody(fn.def->getBody(), scope, returned)))
    return failure();
  return returned ? *returned : HostValue::none();
}

LogicalResult HostEvaluator::execBody(StmtList body, const ScopePtr &scope,
                                      std::optional<HostValue> &returned) {
  for (const Stmt *stmt : body) {
    switch (stmt->getKind()) {
    case NodeKind::Pass:
      continue;
    case NodeKind::ExprStmt:
      // Docstrings; other expression statements would be side effects.
      if (isa<StringLiteralExpr>(cast<ExprStmt>(stmt)->getValue()))
        continue;
      break;
    case NodeKind::Return: {
      const Expr *value = cast<ReturnStmt>(stmt)->getValue();
      if (!value) {
        returned = HostValue::none();
        return success();
      }
      FailureOr<HostValue> v = evaluate(value, scope);
      if (failed(v))
        return failure();
      returned = *v;
      return success();
    }
    case NodeKind::Assign: {
      auto *assign = cast<AssignStmt>(stmt);
      FailureOr<HostValue> v = evaluate(assign->getValue(), scope);
      if (failed(v))
        return failure();
      for (const Expr *target : assign->getTargets())
        if (failed(this->assign(target, *v, scope)))
          return failure();
      continue;
    }
    case NodeKind::AnnAssign: {
      auto *assign = cast<AnnAssignStmt>(stmt);
      if (!assign->getValue())
        continue;
      FailureOr<HostValue> v = evaluate(assign->getValue(), scope);
      if (failed(v) || failed(this->assign(assign->getTarget(), *v, scope)))
        return failure();
      continue;
    }
    case NodeKind::AugAssign: {
      auto *assign = cast<AugAssignStmt>(stmt);
      FailureOr<HostValue> lhs = evaluate(assign->getTarget(), scope);
      if (failed(lhs))
        return failure();
      FailureOr<HostValue> rhs = evaluate(assign->getValue(), scope);
      if (failed(rhs))
        return failure();
      FailureOr<HostValue> v =
          evalBinary(assign->getOp(), *lhs, *rhs, stmt->getLoc().ptr);
      if (failed(v) || failed(this->assign(assign->getTarget(), *v, scope)))
        return failure();
      continue;
    }
    case NodeKind::Try: {
      // The body runs as written; when it fails, whether a handler would
      // have caught the exception cannot be known, so the failure stands.
      // (`try: pkg = importlib.import_module(name)` succeeds exactly when
      // the module is known.)
      auto *tryStmt = cast<TryStmt>(stmt);
      if (failed(execBody(tryStmt->getBody(), scope, returned)))
        return failure();
      if (!returned && failed(execBody(tryStmt->getOrElse(), scope, returned)))
        return failure();
      if (!tryStmt->getFinalBody().empty()) {
        std::optional<HostValue> finalReturn;
        if (failed(execBody(tryStmt->getFinalBody(), scope, finalReturn)))
          return failure();
        if (finalReturn)
          returned = finalReturn;
      }
      if (returned)
        return success();
      continue;
    }
    case NodeKind::For: {
      // `for x in items:` over a known sequence (no else, break or
      // continue: those are reported as unsupported statements inside).
      auto *forStmt = cast<ForStmt>(stmt);
      if (forStmt->hasElse())
        break;
      FailureOr<HostValue> iterable = evaluate(forStmt->getIter(), scope);
      if (failed(iterable))
        return failure();
      FailureOr<std::vector<HostValue>> items =
          iterate(*iterable, forStmt->getIter()->getLoc().ptr);
      if (failed(items))
        return failure();
      for (const HostValue &item : *items) {
        if (failed(this->assign(forStmt->getTarget(), item, scope)) ||
            failed(execBody(forStmt->getBody(), scope, returned)))
          return failure();
        if (returned)
          return success();
      }
      continue;
    }
    case NodeKind::Import:
    case NodeKind::ImportFrom:
      // A function-local import binds its names in the function's scope,
      // resolved as the defining module's imports are.
      for (const ImportInfo &info : getImportInfos(stmt)) {
        FailureOr<HostValue> v = evalImport(info);
        if (failed(v))
          return failure();
        scope->vars[info.boundName] = *v;
      }
      continue;
    case NodeKind::Assert: {
      // A failed assertion ends the compile, with the assertion's message.
      auto *assertStmt = cast<AssertStmt>(stmt);
      FailureOr<HostValue> test = evaluate(assertStmt->getTest(), scope);
      if (failed(test))
        return failure();
      if (test->isTruthy())
        continue;
      std::string message = "assertion failed in a host function";
      if (const Expr *msg = assertStmt->getMsg()) {
        FailureOr<HostValue> text = evaluate(msg, scope);
        if (failed(text))
          return failure();
        message += ": " + (text->isString() ? text->getString() : text->repr());
      }
      return emitError(stmt->getLoc().ptr, message);
    }
    case NodeKind::If: {
      auto *ifStmt = cast<IfStmt>(stmt);
      FailureOr<HostValue> test = evaluate(ifStmt->getTest(), scope);
      if (failed(test))
        return failure();
      if (failed(execBody(test->isTruthy() ? ifStmt->getBody()
                                           : ifStmt->getOrElse(),
                          scope, returned)))
        return failure();
      if (returned)
        return success();
      continue;
    }
    default:
      break;
    }
    return emitError(stmt->getLoc().ptr,
                     "cannot evaluate a '" + getNodeKindName(stmt->getKind()) +
                         "' statement in a host function at compile time");
  }
  return success();
}
