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
//===----------------------------------------------------------------------===//
#ifndef TESSERA_FRONTEND_HOSTEVALUATOR_H
#define TESSERA_FRONTEND_HOSTEVALUATOR_H

#include "tessera/Frontend/HostValue.h"
#include "tessera/Frontend/KernelModule.h"

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
  llvm::FailureOr<HostValue> callBuiltin(const std::string &name,
                                         llvm::ArrayRef<HostValue> args,
                                         llvm::ArrayRef<HostKwarg> kwargs,
                                         llvm::SMLoc loc, bool &handled);

  /// The os.environ dict (built from the process on first use).
  const HostValue &getEnvironment();

  const KernelModule *module;
  DiagnosticEngine &diags;
  llvm::StringMap<HostValue> globalCache;
  llvm::StringSet<> inProgress;
  /// What is being evaluated, innermost last, for the notes of errors.
  std::vector<std::pair<std::string, llvm::SMLoc>> context;
  std::optional<HostValue> environ;
  ExternalCallHandler externalHandler;
  unsigned callDepth = 0;
};

} // namespace tessera::frontend

#endif // TESSERA_FRONTEND_HOSTEVALUATOR_H
