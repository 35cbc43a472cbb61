//===- HostEvaluator.h - Evaluation of host expressions ---------*- C++ -*-===//
//
// Evaluates the Python expressions that a kernel file computes on the host
// at compile or launch time: decorator arguments, module constants,
// heuristics lambdas and the small module-level functions they call.
// Semantics follow Python (floor division and modulo round toward negative
// infinity, `/` gives a float, `and`/`or` return an operand, chained
// comparisons), with 64-bit integers whose overflow is reported.
//
// What cannot be evaluated at compile time is an error at the construct:
// "cannot evaluate call to 'torch.get_default_device' at compile
// time", with notes naming the global or function being evaluated.
//
// Names resolve in the globals of the current module. When the module
// belongs to a ModuleSet, imports load the modules they name, module
// attributes evaluate that module's globals, and functions run in the module
// that defines them; the values of every module's globals are cached for the
// evaluator's lifetime (one compilation or one launch's heuristics).
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_FRONTEND_HOSTEVALUATOR_H
#define TESSERA_FRONTEND_HOSTEVALUATOR_H

#include "tessera/Frontend/HostValue.h"
#include "tessera/Frontend/KernelModule.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/LogicalResult.h"

#include <functional>
#include <map>

namespace tessera::frontend {

/// Local variables of a lambda, function call or comprehension.
struct HostScope {
  llvm::StringMap<HostValue> vars;
  std::shared_ptr<HostScope> parent;

  const HostValue *lookup(llvm::StringRef name) const {
    for (const HostScope *s = this; s; s = s->parent.get()) {
      auto it = s->vars.find(name);
      if (it != s->vars.end())
        return &it->second;
    }
    return nullptr;
  }
};

/// A named argument of a host call.
using HostKwarg = std::pair<std::string, HostValue>;

class HostEvaluator {
public:
  /// Evaluates against the globals of `module`, which may be null to
  /// evaluate self-contained expressions (builtins only).
  HostEvaluator(const KernelModule *module, DiagnosticEngine &diags);

  /// Evaluates `expr` with local variables `scope` (may be null).
  llvm::FailureOr<HostValue>
  evaluate(const Expr *expr, const std::shared_ptr<HostScope> &scope = nullptr);

  /// The value of module-level name `name` (cached), evaluated lazily through
  /// its bindings; `useLoc` is where it is needed, for diagnostics.
  llvm::FailureOr<HostValue> evaluateGlobal(llvm::StringRef name,
                                            llvm::SMLoc useLoc);
  /// The value of global `name` of `module`.
  llvm::FailureOr<HostValue> evaluateGlobal(const KernelModule &module,
                                            llvm::StringRef name,
                                            llvm::SMLoc useLoc);

  /// Attribute `name` of a value: a module's global or submodule, a name
  /// under a language symbol, a config's fields. Errors at `loc`.
  llvm::FailureOr<HostValue> getAttribute(const HostValue &base,
                                          llvm::StringRef name,
                                          llvm::SMLoc loc);

  /// Whether global `name` of `module` was bound as a constexpr
  /// (`tl.constexpr(...)` or annotated so), following `from M import name`
  /// to the module that binds it: constexpr-ness belongs to the value, as
  /// in Triton.
  bool isConstexprGlobal(const KernelModule &module, llvm::StringRef name,
                         unsigned depth = 0);

  /// The value `name` has in the current module through its star imports
  /// (`from triton.language import *`, `from .common import *`), the last
  /// that binds it winning; nullopt when none does.
  std::optional<HostValue> lookupStarImports(llvm::StringRef name,
                                             llvm::SMLoc useLoc);

  /// Python's hasattr(base, name), where the answer can be known at compile
  /// time: nullopt with an error reported when it cannot.
  std::optional<bool> hasAttribute(const HostValue &base, llvm::StringRef name,
                                   llvm::SMLoc loc);

  /// While alive, errors get a note `message` at `loc` (after the notes of
  /// what is evaluated inside): where device code needed a value, say.
  class ContextNote {
  public:
    ContextNote(HostEvaluator &eval, std::string message, llvm::SMLoc loc)
        : eval(eval) {
      eval.context.emplace_back(std::move(message), loc);
    }
    ~ContextNote() { eval.context.pop_back(); }
    ContextNote(const ContextNote &) = delete;
    ContextNote &operator=(const ContextNote &) = delete;

  private:
    HostEvaluator &eval;
  };

  /// While alive, names resolve in `module`'s globals (null keeps the
  /// current module).
  class ModuleScope {
  public:
    ModuleScope(HostEvaluator &eval, const KernelModule *module)
        : eval(eval), saved(eval.module) {
      if (module)
        eval.module = module;
    }
    ~ModuleScope() { eval.module = saved; }
    ModuleScope(const ModuleScope &) = delete;
    ModuleScope &operator=(const ModuleScope &) = delete;

  private:
    HostEvaluator &eval;
    const KernelModule *saved;
  };

  /// Calls a function, lambda or builtin symbol.
  llvm::FailureOr<HostValue> call(const HostValue &callee,
                                  llvm::ArrayRef<HostValue> args,
                                  llvm::ArrayRef<HostKwarg> kwargs,
                                  llvm::SMLoc loc);

  /// The variables `os.environ` shows (the process environment by default).
  void setEnvironment(std::map<std::string, std::string> env);

  /// A hook for host calls the evaluator does not know (e.g. a runtime that
  /// can answer `triton.runtime.driver.active.get_current_target`). Returns
  /// nullopt to decline.
  using ExternalCallHandler = std::function<std::optional<HostValue>(
      llvm::StringRef qualifiedName, llvm::ArrayRef<HostValue> args,
      llvm::ArrayRef<HostKwarg> kwargs)>;
  void setExternalCallHandler(ExternalCallHandler handler) {
    externalHandler = std::move(handler);
  }

  DiagnosticEngine &getDiagnostics() const { return diags; }
  /// The module names currently resolve in.
  const KernelModule *getModule() const { return module; }

  /// Python's binary operator `op` on two values (errors at `loc`). Device
  /// code lowering uses these for its constexpr arithmetic, so that
  /// compile-time values follow exactly the host rules.
  llvm::FailureOr<HostValue> evalBinary(BinaryOpKind op, const HostValue &lhs,
                                        const HostValue &rhs, llvm::SMLoc loc);
  /// Python's unary operator `op`.
  llvm::FailureOr<HostValue> evalUnary(UnaryOpKind op, const HostValue &v,
                                       llvm::SMLoc loc);
  /// Python's comparison `op`.
  llvm::FailureOr<bool> evalCompare(CmpOpKind op, const HostValue &lhs,
                                    const HostValue &rhs, llvm::SMLoc loc);

  /// Reports an error at `loc` with notes for the functions and globals
  /// being evaluated; always returns failure.
  llvm::LogicalResult emitError(llvm::SMLoc loc, const llvm::Twine &message);

private:
  llvm::FailureOr<HostValue> evalName(const NameExpr *name,
                                      const std::shared_ptr<HostScope> &scope);
  llvm::FailureOr<HostValue> evalAttribute(const AttributeExpr *attr,
                                           const std::shared_ptr<HostScope> &);
  llvm::FailureOr<HostValue> evalSubscript(const SubscriptExpr *sub,
                                           const std::shared_ptr<HostScope> &);
  llvm::FailureOr<HostValue> evalCall(const CallExpr *call,
                                      const std::shared_ptr<HostScope> &);
  llvm::FailureOr<HostValue>
  evalComprehension(const Expr *expr, const std::shared_ptr<HostScope> &scope);
  llvm::LogicalResult evalElements(llvm::ArrayRef<Expr *> elts,
                                   const std::shared_ptr<HostScope> &scope,
                                   std::vector<HostValue> &out);
  llvm::FailureOr<HostValue> evalBinding(const GlobalSymbol &symbol,
                                         size_t index, llvm::SMLoc useLoc);
  /// The value an import binds in the current module.
  llvm::FailureOr<HostValue> evalImport(const ImportInfo &import);
  /// The absolute module an import names (relative ones resolved).
  llvm::FailureOr<std::string> resolveImportModule(const ImportInfo &import);
  /// Whether the body of `tryStmt` (in the current module) imports without
  /// an ImportError; fails when that cannot be known.
  llvm::FailureOr<bool> evalTryGuard(const TryStmt *tryStmt);
  /// Whether one import of a try body resolves; fails when unknowable.
  llvm::FailureOr<bool> importResolves(const ImportInfo &import);
  llvm::FailureOr<HostValue> callFunction(const HostFunction &fn,
                                          llvm::ArrayRef<HostValue> args,
                                          llvm::ArrayRef<HostKwarg> kwargs,
                                          llvm::SMLoc loc);
  /// Runs the statements of a host def; sets `returned` when one returns.
  llvm::LogicalResult execBody(StmtList body,
                               const std::shared_ptr<HostScope> &scope,
                               std::optional<HostValue> &returned);
  llvm::LogicalResult assign(const Expr *target, const HostValue &value,
                             const std::shared_ptr<HostScope> &scope);
  /// The elements a for-clause iterates over.
  llvm::FailureOr<std::vector<HostValue>> iterate(const HostValue &v,
                                                  llvm::SMLoc loc);
  /// `text.method(args)` for the str methods host code uses (split,
  /// startswith, endswith, strip, lstrip, rstrip, lower, upper, replace,
  /// join).
  llvm::FailureOr<HostValue> callStringMethod(const std::string &text,
                                              llvm::StringRef method,
                                              llvm::ArrayRef<HostValue> args,
                                              llvm::SMLoc loc);
  llvm::FailureOr<HostValue> callBuiltin(const std::string &name,
                                         llvm::ArrayRef<HostValue> args,
                                         llvm::ArrayRef<HostKwarg> kwargs,
                                         llvm::SMLoc loc, bool &handled);

  /// The os.environ dict (built from the process on first use).
  const HostValue &getEnvironment();

  const KernelModule *module;
  DiagnosticEngine &diags;
  llvm::DenseMap<const KernelModule *, llvm::StringMap<HostValue>> globalCache;
  llvm::DenseMap<const KernelModule *, llvm::StringSet<>> inProgress;
  llvm::DenseMap<const TryStmt *, bool> tryCache;
  /// What is being evaluated, innermost last, for the notes of errors.
  std::vector<std::pair<std::string, llvm::SMLoc>> context;
  std::optional<HostValue> environ;
  ExternalCallHandler externalHandler;
  unsigned callDepth = 0;
};

} // namespace tessera::frontend

#endif // TESSERA_FRONTEND_HOSTEVALUATOR_H
