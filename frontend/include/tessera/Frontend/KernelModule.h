//===- KernelModule.h - The module-level view of a kernel file --*- C++ -*-===//
//
// A KernelModule is what Tessera keeps of a Triton kernel file: its imports,
// its @triton.jit functions with their decorator stacks, its module-level
// bindings (constants, host defs, classes) kept as unevaluated expressions,
// and nothing else. Host code that the frontend does not need (the
// `if __name__ == "__main__":` block, benchmarks, syntax this parser does not
// know) is skipped without error: a top-level statement that fails to parse
// is dropped and scanning resumes at the next line at column 1. A parse error
// inside a @triton.jit function (or in the decorators stacked on it) is a
// real error.
//
// Bindings are evaluated lazily by HostEvaluator, so a kernel may refer to a
// function or constant defined further down the file. A module belongs to
// a ModuleSet when it was loaded with the modules it imports (the module's
// qualified name and package then resolve its imports), and may hold
// bindings an embedder injected with their values already known.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_FRONTEND_KERNELMODULE_H
#define TESSERA_FRONTEND_KERNELMODULE_H

#include "tessera/Frontend/AST.h"
#include "tessera/Frontend/Diagnostics.h"
#include "tessera/Frontend/HostValue.h"

#include "llvm/ADT/StringMap.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tessera::frontend {

class ModuleSet;
struct JitOptions;

/// One name bound by an import statement.
struct ImportInfo {
  /// The module imported from: "triton.language" for both
  /// `import triton.language as tl` and `from triton.language import x`.
  std::string module;
  /// For `from M import x`, "x"; empty for a plain import.
  std::string member;
  /// The name bound in the module: "tl", "x", or "triton" for
  /// `import triton.language`.
  std::string boundName;
  /// What the bound name refers to: "triton.language", "M.x", "triton".
  std::string qualifiedName;
  /// The number of leading dots of a relative `from` import (also in
  /// `module`).
  unsigned level = 0;
  SourceLoc loc;
};

/// The role of a decorator, recognized through the file's imports.
enum class DecoratorKind { Jit, Autotune, Heuristics, Other };

/// A decorator as written, outermost first in a function's stack.
struct DecoratorInfo {
  DecoratorKind kind = DecoratorKind::Other;
  const Expr *expr = nullptr;
  /// The call for `@triton.jit(...)` / `@triton.autotune(...)`, else null.
  const CallExpr *call = nullptr;
  /// The decorator's qualified name ("triton.autotune"), empty if unknown.
  std::string qualifiedName;
};

/// A @triton.jit function.
struct JitFunction {
  const FunctionDefStmt *def = nullptr;
  /// Outermost first: autotune, heuristics, ..., jit.
  std::vector<DecoratorInfo> decorators;
  /// The jit options an embedder gave; its decorators are then not read
  /// (getJitOptions in Decorators.h).
  std::shared_ptr<const JitOptions> embedderOptions;

  llvm::StringRef getName() const { return def->getName(); }
  /// The first decorator of `kind`, or null.
  const DecoratorInfo *findDecorator(DecoratorKind kind) const;
};

/// One condition (possibly negated) under which a module-level binding runs:
/// the test of an enclosing module-level `if`/`elif`/`else`, or for the
/// statements of a `try`, whether its body ran without an import error
/// (true for the body and its `else`, false for its handlers).
struct BindingGuard {
  const Expr *condition = nullptr;
  const TryStmt *tryStmt = nullptr;
  bool expected = true;
};

enum class BindingKind {
  Value,        // NAME = expr, NAME: T = expr, NAME op= expr, tuple unpacking
  Import,       // bound by an import
  JitFunction,  // a @triton.jit def
  HostFunction, // any other def
  Class,        // a class statement
  Unparsed,     // NAME = ... whose statement failed to parse
  Injected      // a value an embedder resolved (KernelModule::inject)
};

/// One statement that binds a module-level name.
struct GlobalBinding {
  BindingKind kind = BindingKind::Value;
  const Stmt *stmt = nullptr;
  /// The right-hand side (Value), or null.
  const Expr *value = nullptr;
  /// The annotation of `NAME: T = value`, or null.
  const Expr *annotation = nullptr;
  /// For NAME op= value.
  std::optional<BinaryOpKind> augmentedOp;
  /// For `A, (B, C) = value`: the indices leading to this name.
  std::vector<unsigned> unpackPath;
  std::vector<BindingGuard> guards;
  /// Import: the entry in KernelModule::getImports().
  unsigned importIndex = 0;
  /// JitFunction: the entry in KernelModule::getJitFunctions().
  unsigned jitIndex = 0;
  /// Unparsed: why the statement failed.
  std::vector<Diagnostic> parseErrors;
  /// Injected: the value.
  HostValue injected;
  SourceLoc loc;
};

/// Every binding of one module-level name, in source order.
struct GlobalSymbol {
  std::string name;
  std::vector<GlobalBinding> bindings;

  /// True if a binding is annotated tl.constexpr or wraps its value in
  /// tl.constexpr(...).
  bool isConstexpr = false;
};

class KernelModule {
public:
  /// Scans buffer `bufferId` of `sourceMgr`. Always returns a module; errors
  /// in jit functions are reported to `diags` (check diags.hadError()).
  static std::unique_ptr<KernelModule>
  scan(llvm::SourceMgr &sourceMgr, unsigned bufferId, DiagnosticEngine &diags);

  llvm::StringRef getFilename() const { return filename; }
  /// The module's qualified name ("pkg.utils"; "__main__" for a kernel file
  /// compiled on its own).
  llvm::StringRef getModuleName() const { return moduleName; }
  /// The package its relative imports start from: the module's own name
  /// for a package's `__init__.py`, else its parent ("" at top level).
  llvm::StringRef getPackageName() const { return packageName; }
  /// The set the module was loaded in, or null for a file scanned alone
  /// (its imports are then known only by name).
  ModuleSet *getModuleSet() const { return moduleSet; }
  llvm::SourceMgr &getSourceMgr() const { return sourceMgr; }
  DiagnosticEngine &getDiagnostics() const { return diags; }
  ASTContext &getContext() { return ctx; }

  llvm::ArrayRef<ImportInfo> getImports() const { return imports; }
  /// The `from M import *` statements, in order (member "*").
  llvm::ArrayRef<ImportInfo> getStarImports() const { return starImports; }
  llvm::ArrayRef<JitFunction> getJitFunctions() const { return jitFunctions; }
  /// Every module-level statement that parsed, in order.
  llvm::ArrayRef<Stmt *> getStatements() const { return statements; }
  /// Module-level names in order of first binding.
  llvm::ArrayRef<std::string> getGlobalNames() const { return globalOrder; }
  /// Top-level statements skipped because they did not parse.
  unsigned getNumSkippedStatements() const { return numSkipped; }

  /// The jit function `name`, or null.
  const JitFunction *lookupJitFunction(llvm::StringRef name) const;
  /// The def (jit or host) last bound to `name` at module level, or null.
  const FunctionDefStmt *lookupFunction(llvm::StringRef name) const;
  /// All bindings of `name` at module level, or null.
  const GlobalSymbol *lookupGlobal(llvm::StringRef name) const;
  /// The module-level function that rebinds global `name` when it runs
  /// (`global name` in its body, at any depth), or empty: the value such a
  /// global has when a kernel compiles depends on calls the file does not
  /// show.
  llvm::StringRef getRebindingFunction(llvm::StringRef name) const {
    auto it = rebinders.find(name);
    return it == rebinders.end() ? llvm::StringRef() : it->second;
  }

  /// Binds module-level `name` to `value`, known in advance (an embedder's
  /// globals); the binding comes after the file's own.
  void inject(llvm::StringRef name, HostValue value, bool isConstexpr);

  /// Records the module-level def `name` as a @triton.jit function with
  /// `options`, whatever its decorators say (an embedder knows which
  /// functions are jit, and evaluated their decorators itself). Fails if
  /// there is no such def.
  bool markJit(llvm::StringRef name, JitOptions options);

  /// The qualified name an expression denotes through the imports:
  /// `tl.constexpr` -> "triton.language.constexpr", `jit` ->
  /// "triton.jit" after `from triton import jit`. Canonical aliases are
  /// folded (triton.runtime.jit.jit -> triton.jit). In a ModuleSet, a name
  /// imported from another module is followed to what that module binds it
  /// to (`from .compat import triton` where compat does `import triton`
  /// names the language). nullopt if the expression is not a dotted name
  /// rooted at an import.
  std::optional<std::string> getQualifiedName(const Expr *expr) const;

  /// Classifies decorators again now that the module belongs to a set and
  /// imported names can be followed: a def decorated through a library's
  /// alias of `triton.jit` becomes a jit function (ModuleSet calls it).
  void resolveDecorators();

private:
  KernelModule(llvm::SourceMgr &sourceMgr, DiagnosticEngine &diags)
      : sourceMgr(sourceMgr), diags(diags) {}
  friend class ModuleScanner;
  friend class ModuleSet;

  GlobalSymbol &getOrCreateGlobal(llvm::StringRef name);
  /// What the module `import` names binds its member to, followed through
  /// other modules of the set (nullopt where the chain leaves them).
  std::optional<std::string> followImport(const ImportInfo &import,
                                          unsigned depth) const;

  llvm::SourceMgr &sourceMgr;
  DiagnosticEngine &diags;
  std::string filename;
  std::string moduleName = "__main__";
  std::string packageName;
  ModuleSet *moduleSet = nullptr;
  ASTContext ctx;
  std::vector<Stmt *> statements;
  std::vector<ImportInfo> imports;
  std::vector<ImportInfo> starImports;
  std::vector<JitFunction> jitFunctions;
  llvm::StringMap<GlobalSymbol> globals;
  llvm::StringMap<std::string> rebinders;
  std::vector<std::string> globalOrder;
  unsigned numSkipped = 0;
};

/// The role of `decorator` on a def of module `m` (through its imports).
DecoratorInfo classifyDecorator(const KernelModule &m, const Expr *decorator);

/// Folds the spellings Triton accepts for its decorators and Config into one
/// name: triton.runtime.jit(.jit) -> triton.jit, triton.runtime.autotuner.
/// autotune -> triton.autotune, triton.runtime.Config -> triton.Config, ...
std::string canonicalizeTritonName(llvm::StringRef qualifiedName);

/// The names an `import` or `from ... import` statement binds, one
/// ImportInfo each (star imports left out); empty for other statements.
std::vector<ImportInfo> getImportInfos(const Stmt *stmt);

} // namespace tessera::frontend

#endif // TESSERA_FRONTEND_KERNELMODULE_H
