//===- KernelModule.cpp - The module-level view of a kernel file ----------===//
#include "tessera/Frontend/KernelModule.h"
#include "tessera/Frontend/Decorators.h"
#include "tessera/Frontend/ModuleSet.h"
#include "tessera/Frontend/Parser.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace tessera::frontend;
using llvm::cast;
using llvm::dyn_cast;
using llvm::isa;

std::string tessera::frontend::canonicalizeTritonName(llvm::StringRef name) {
  return llvm::StringSwitch<std::string>(name)
      .Cases({"triton.runtime.jit", "triton.runtime.jit.jit"}, "triton.jit")
      .Cases({"triton.runtime.autotune", "triton.runtime.autotuner.autotune"},
             "triton.autotune")
      .Cases(
          {"triton.runtime.heuristics", "triton.runtime.autotuner.heuristics"},
          "triton.heuristics")
      .Cases({"triton.runtime.Config", "triton.runtime.autotuner.Config"},
             "triton.Config")
      .Case("triton.language.core.constexpr", "triton.language.constexpr")
      .Default(name.str());
}

const DecoratorInfo *JitFunction::findDecorator(DecoratorKind kind) const {
  for (const DecoratorInfo &d : decorators)
    if (d.kind == kind)
      return &d;
  return nullptr;
}

GlobalSymbol &KernelModule::getOrCreateGlobal(llvm::StringRef name) {
  auto [it, inserted] = globals.try_emplace(name);
  if (inserted) {
    it->second.name = name.str();
    globalOrder.push_back(name.str());
  }
  return it->second;
}

const JitFunction *KernelModule::lookupJitFunction(llvm::StringRef name) const {
  const GlobalSymbol *symbol = lookupGlobal(name);
  if (!symbol || symbol->bindings.empty())
    return nullptr;
  const GlobalBinding &last = symbol->bindings.back();
  if (last.kind != BindingKind::JitFunction)
    return nullptr;
  return &jitFunctions[last.jitIndex];
}

const FunctionDefStmt *
KernelModule::lookupFunction(llvm::StringRef name) const {
  const GlobalSymbol *symbol = lookupGlobal(name);
  if (!symbol || symbol->bindings.empty())
    return nullptr;
  const GlobalBinding &last = symbol->bindings.back();
  if (last.kind != BindingKind::JitFunction &&
      last.kind != BindingKind::HostFunction)
    return nullptr;
  return cast<FunctionDefStmt>(last.stmt);
}

const GlobalSymbol *KernelModule::lookupGlobal(llvm::StringRef name) const {
  auto it = globals.find(name);
  return it == globals.end() ? nullptr : &it->second;
}

std::optional<std::string>
KernelModule::getQualifiedName(const Expr *expr) const {
  if (auto *name = dyn_cast<NameExpr>(expr)) {
    const GlobalSymbol *symbol = lookupGlobal(name->getId());
    if (!symbol || symbol->bindings.empty())
      return std::nullopt;
    const GlobalBinding &last = symbol->bindings.back();
    // An embedder's globals name the language's objects as symbols.
    if (last.kind == BindingKind::Injected && last.injected.isSymbol())
      return canonicalizeTritonName(last.injected.getString());
    if (last.kind != BindingKind::Import)
      return std::nullopt;
    const ImportInfo &import = imports[last.importIndex];
    if (std::optional<std::string> followed = followImport(import, 0))
      return followed;
    return canonicalizeTritonName(import.qualifiedName);
  }
  if (auto *attr = dyn_cast<AttributeExpr>(expr)) {
    std::optional<std::string> base = getQualifiedName(attr->getValue());
    if (!base)
      return std::nullopt;
    // `compat.triton.jit`: an attribute of a module of the set is what that
    // module binds.
    if (moduleSet && !ModuleSet::isLanguageModule(*base)) {
      ImportInfo member;
      member.module = *base;
      member.member = attr->getAttr().str();
      if (std::optional<std::string> followed = followImport(member, 0))
        return followed;
    }
    return canonicalizeTritonName(*base + "." + attr->getAttr().str());
  }
  return std::nullopt;
}

std::optional<std::string> KernelModule::followImport(const ImportInfo &import,
                                                      unsigned depth) const {
  if (!moduleSet || import.member.empty() || depth > 16)
    return std::nullopt;
  std::string target = llvm::StringRef(import.module).ltrim('.').str();
  if (import.level) {
    llvm::Expected<std::string> resolved =
        moduleSet->resolveRelative(*this, import.level, target);
    if (!resolved) {
      llvm::consumeError(resolved.takeError());
      return std::nullopt;
    }
    target = *resolved;
  }
  if (target.empty() || ModuleSet::isLanguageModule(target))
    return std::nullopt;
  const KernelModule *from = moduleSet->importModule(target);
  if (!from)
    return std::nullopt;
  const GlobalSymbol *symbol = from->lookupGlobal(import.member);
  if (!symbol)
    return std::nullopt;
  // A static answer for classifying decorators: the name's last import
  // (compatibility modules fall back to stand-ins only when the import
  // fails), else an alias `jit = triton.jit`.
  for (const GlobalBinding &binding : llvm::reverse(symbol->bindings)) {
    if (binding.kind == BindingKind::Import) {
      const ImportInfo &inner = from->imports[binding.importIndex];
      if (std::optional<std::string> followed =
              from->followImport(inner, depth + 1))
        return followed;
      if (inner.level == 0)
        return canonicalizeTritonName(inner.qualifiedName);
      return std::nullopt;
    }
  }
  const GlobalBinding &last = symbol->bindings.back();
  if (last.kind == BindingKind::Value && last.value &&
      last.unpackPath.empty() && !last.augmentedOp &&
      (isa<NameExpr>(last.value) || isa<AttributeExpr>(last.value)))
    return from->getQualifiedName(last.value);
  return std::nullopt;
}

namespace tessera::frontend {
/// Builds a KernelModule statement by statement.
class ModuleScanner {
public:
  ModuleScanner(KernelModule &module, llvm::StringRef buffer)
      : m(module), diags(module.diags), lexer(buffer),
        parser(lexer, module.ctx, module.diags) {}

  void run();

private:
  void record(Stmt *stmt, const std::vector<BindingGuard> &guards);
  void recordFunction(FunctionDefStmt *def,
                      const std::vector<BindingGuard> &guards);
  void recordTarget(const Expr *target, const GlobalBinding &proto,
                    std::vector<unsigned> &path);
  void addBinding(llvm::StringRef name, GlobalBinding binding);
  DecoratorInfo classify(const Expr *decorator) const;
  bool isConstexprAnnotation(const Expr *annotation) const;
  bool isConstexprCall(const Expr *value) const;

  KernelModule &m;
  DiagnosticEngine &diags;
  Lexer lexer;
  Parser parser;
};
} // namespace tessera::frontend

/// Whether the statement at `start` is a def decorated with something that
/// mentions jit/autotune/heuristics; its parse errors are then real.
static bool looksLikeKernel(const char *start, const char *end) {
  if (*start != '@')
    return false;
  llvm::StringRef rest(start, end - start);
  size_t def = rest.find("\ndef ");
  llvm::StringRef decorators = rest.take_front(def);
  for (llvm::StringRef word : {"jit", "autotune", "heuristics"})
    if (decorators.contains(word))
      return true;
  return false;
}

/// The name assigned by a statement that starts `NAME =` or `NAME: T =`.
static std::optional<llvm::StringRef> assignedName(const char *start,
                                                   const char *end) {
  llvm::StringRef rest(start, end - start);
  size_t n = 0;
  while (n < rest.size() && (llvm::isAlnum(rest[n]) || rest[n] == '_'))
    ++n;
  if (n == 0 || llvm::isDigit(rest[0]))
    return std::nullopt;
  llvm::StringRef name = rest.take_front(n);
  llvm::StringRef after = rest.drop_front(n).ltrim(" \t");
  if (after.starts_with(":")) {
    size_t eq = after.find_first_of("=\n");
    if (eq == llvm::StringRef::npos || after[eq] != '=')
      return std::nullopt;
    after = after.drop_front(eq);
  }
  if (after.starts_with("=") && !after.starts_with("=="))
    return name;
  return std::nullopt;
}

void ModuleScanner::run() {
  const char *bufferEnd = lexer.getBuffer().end();
  while (!parser.atEnd()) {
    const char *start = parser.getCurrentToken().loc.getPointer();
    llvm::SmallVector<Stmt *, 2> stmts;
    std::vector<Diagnostic> errors;
    bool ok;
    {
      DiagnosticCapture capture(diags);
      ok = succeeded(parser.parseStatement(stmts));
      if (ok)
        capture.commit();
      else
        errors = capture.takeDiagnostics();
    }
    if (ok) {
      for (Stmt *stmt : stmts) {
        m.statements.push_back(stmt);
        record(stmt, {});
      }
      continue;
    }
    if (looksLikeKernel(start, bufferEnd)) {
      for (Diagnostic &d : errors)
        diags.report(std::move(d));
    } else {
      ++m.numSkipped;
      if (std::optional<llvm::StringRef> name =
              assignedName(start, bufferEnd)) {
        GlobalBinding binding;
        binding.kind = BindingKind::Unparsed;
        binding.parseErrors = std::move(errors);
        binding.loc = diags.getSourceLoc(llvm::SMLoc::getFromPointer(start));
        addBinding(*name, std::move(binding));
      }
    }
    parser.recoverAtTopLevel(start);
  }
}

void ModuleScanner::addBinding(llvm::StringRef name, GlobalBinding binding) {
  m.getOrCreateGlobal(name).bindings.push_back(std::move(binding));
}

bool ModuleScanner::isConstexprAnnotation(const Expr *annotation) const {
  if (!annotation)
    return false;
  std::optional<std::string> name = m.getQualifiedName(annotation);
  return name && *name == "triton.language.constexpr";
}

bool ModuleScanner::isConstexprCall(const Expr *value) const {
  auto *call = llvm::dyn_cast_or_null<CallExpr>(value);
  return call && isConstexprAnnotation(call->getFunc());
}

void ModuleScanner::recordTarget(const Expr *target, const GlobalBinding &proto,
                                 std::vector<unsigned> &path) {
  if (auto *name = dyn_cast<NameExpr>(target)) {
    GlobalBinding binding = proto;
    binding.unpackPath = path;
    binding.loc = name->getLoc();
    GlobalSymbol &symbol = m.getOrCreateGlobal(name->getId());
    if (path.empty() && (isConstexprAnnotation(proto.annotation) ||
                         isConstexprCall(proto.value)))
      symbol.isConstexpr = true;
    symbol.bindings.push_back(std::move(binding));
    return;
  }
  auto *seq = dyn_cast<SequenceExpr>(target);
  if (!seq || isa<SetExpr>(seq))
    return; // Attribute or subscript stores do not bind module names.
  for (unsigned i = 0; i < seq->getElts().size(); ++i) {
    if (isa<StarredExpr>(seq->getElts()[i]))
      return; // Starred unpacking is not tracked.
    path.push_back(i);
    recordTarget(seq->getElts()[i], proto, path);
    path.pop_back();
  }
}

DecoratorInfo ModuleScanner::classify(const Expr *decorator) const {
  return classifyDecorator(m, decorator);
}

DecoratorInfo tessera::frontend::classifyDecorator(const KernelModule &m,
                                                   const Expr *decorator) {
  DecoratorInfo info;
  info.expr = decorator;
  const Expr *callee = decorator;
  if (auto *call = dyn_cast<CallExpr>(decorator)) {
    info.call = call;
    callee = call->getFunc();
  }
  if (std::optional<std::string> name = m.getQualifiedName(callee)) {
    info.qualifiedName = *name;
    info.kind = llvm::StringSwitch<DecoratorKind>(*name)
                    .Case("triton.jit", DecoratorKind::Jit)
                    .Case("triton.autotune", DecoratorKind::Autotune)
                    .Case("triton.heuristics", DecoratorKind::Heuristics)
                    .Default(DecoratorKind::Other);
  }
  return info;
}

void ModuleScanner::recordFunction(FunctionDefStmt *def,
                                   const std::vector<BindingGuard> &guards) {
  // `global X` anywhere in the body: calling the function rebinds X.
  for (const Stmt *s : def->getBody())
    walk(s, [&](const Node *node) {
      if (const auto *g = llvm::dyn_cast<GlobalStmt>(node))
        for (llvm::StringRef name : g->getNames())
          m.rebinders.try_emplace(name, def->getName().str());
      return true;
    });
  std::vector<DecoratorInfo> decorators;
  for (const Expr *d : def->getDecorators())
    decorators.push_back(classify(d));
  auto isTriton = [](const DecoratorInfo &d) {
    return d.kind != DecoratorKind::Other;
  };
  bool anyTriton = llvm::any_of(decorators, isTriton);
  GlobalBinding binding;
  binding.stmt = def;
  binding.guards = guards;
  binding.loc = def->getNameLoc();
  if (!anyTriton) {
    binding.kind = BindingKind::HostFunction;
    addBinding(def->getName(), std::move(binding));
    return;
  }
  // Triton applies @jit first, then heuristics and autotune around it.
  auto jit = llvm::find_if(decorators, [](const DecoratorInfo &d) {
    return d.kind == DecoratorKind::Jit;
  });
  if (jit == decorators.end() &&
      decorators.back().kind == DecoratorKind::Other) {
    // The decorator closest to the def may be a library's alias of
    // triton.jit, known once imports can be followed (resolveDecorators).
    binding.kind = BindingKind::HostFunction;
    addBinding(def->getName(), std::move(binding));
    return;
  }
  if (jit == decorators.end()) {
    const DecoratorInfo &first = *llvm::find_if(decorators, isTriton);
    diags
        .error(first.expr->getLoc().ptr,
               "@" + first.qualifiedName +
                   " must decorate a @triton.jit function")
        .hint("add @triton.jit directly above 'def " + def->getName() + "'");
  } else if (jit != decorators.end() - 1) {
    diags
        .error(jit->expr->getLoc().ptr,
               "@triton.jit must be the decorator closest to 'def'")
        .hint("decorators apply bottom-up: write @triton.autotune and "
              "@triton.heuristics above @triton.jit");
  }
  // Decorators of other libraries above @triton.jit (Inductor's
  // @triton_heuristics.pointwise, FlagGems' @libentry) wrap the jit
  // function: the kernel is the jit function, and compiling it says which
  // decorator it looked through (lowerKernel's remark).
  JitFunction fn;
  fn.def = def;
  fn.decorators = std::move(decorators);
  binding.kind = BindingKind::JitFunction;
  binding.jitIndex = m.jitFunctions.size();
  m.jitFunctions.push_back(std::move(fn));
  addBinding(def->getName(), std::move(binding));
}

std::vector<ImportInfo> tessera::frontend::getImportInfos(const Stmt *stmt) {
  std::vector<ImportInfo> infos;
  if (auto *import = dyn_cast<ImportStmt>(stmt)) {
    for (const ImportAlias &alias : import->getNames()) {
      ImportInfo info;
      info.module = alias.name.str();
      info.loc = alias.range.begin;
      if (alias.asName.empty()) {
        // `import a.b.c` binds `a`.
        info.boundName = alias.name.split('.').first.str();
        info.qualifiedName = info.boundName;
      } else {
        info.boundName = alias.asName.str();
        info.qualifiedName = info.module;
      }
      infos.push_back(std::move(info));
    }
  } else if (auto *from = dyn_cast<ImportFromStmt>(stmt)) {
    std::string module =
        std::string(from->getLevel(), '.') + from->getModule().str();
    for (const ImportAlias &alias : from->getNames()) {
      if (alias.name == "*")
        continue;
      ImportInfo info;
      info.module = module;
      info.member = alias.name.str();
      info.boundName = (alias.asName.empty() ? alias.name : alias.asName).str();
      info.qualifiedName = module + "." + info.member;
      info.level = from->getLevel();
      info.loc = alias.range.begin;
      infos.push_back(std::move(info));
    }
  }
  return infos;
}

void ModuleScanner::record(Stmt *stmt,
                           const std::vector<BindingGuard> &guards) {
  switch (stmt->getKind()) {
  case NodeKind::Import:
    for (ImportInfo &info : getImportInfos(stmt)) {
      GlobalBinding binding;
      binding.kind = BindingKind::Import;
      binding.stmt = stmt;
      binding.guards = guards;
      binding.importIndex = m.imports.size();
      binding.loc = info.loc;
      addBinding(info.boundName, std::move(binding));
      m.imports.push_back(std::move(info));
    }
    return;
  case NodeKind::ImportFrom: {
    auto *from = cast<ImportFromStmt>(stmt);
    std::string module =
        std::string(from->getLevel(), '.') + from->getModule().str();
    for (const ImportAlias &alias : from->getNames()) {
      if (alias.name == "*") {
        // What it binds is known only once the module is: names not
        // bound otherwise are looked up through it (HostEvaluator).
        ImportInfo info;
        info.module = module;
        info.member = "*";
        info.level = from->getLevel();
        info.loc = alias.range.begin;
        m.starImports.push_back(std::move(info));
      }
    }
    for (ImportInfo &info : getImportInfos(stmt)) {
      GlobalBinding binding;
      binding.kind = BindingKind::Import;
      binding.stmt = stmt;
      binding.guards = guards;
      binding.importIndex = m.imports.size();
      binding.loc = info.loc;
      addBinding(info.boundName, std::move(binding));
      m.imports.push_back(std::move(info));
    }
    return;
  }
  case NodeKind::FunctionDef:
    return recordFunction(cast<FunctionDefStmt>(stmt), guards);
  case NodeKind::ClassDef: {
    GlobalBinding binding;
    binding.kind = BindingKind::Class;
    binding.stmt = stmt;
    binding.guards = guards;
    binding.loc = stmt->getLoc();
    addBinding(cast<ClassDefStmt>(stmt)->getName(), std::move(binding));
    return;
  }
  case NodeKind::Assign: {
    auto *assign = cast<AssignStmt>(stmt);
    GlobalBinding proto;
    proto.stmt = stmt;
    proto.value = assign->getValue();
    proto.guards = guards;
    for (const Expr *target : assign->getTargets()) {
      std::vector<unsigned> path;
      recordTarget(target, proto, path);
    }
    return;
  }
  case NodeKind::AnnAssign: {
    auto *assign = cast<AnnAssignStmt>(stmt);
    if (!assign->getValue())
      return; // `X: int` declares without binding.
    GlobalBinding proto;
    proto.stmt = stmt;
    proto.value = assign->getValue();
    proto.annotation = assign->getAnnotation();
    proto.guards = guards;
    std::vector<unsigned> path;
    recordTarget(assign->getTarget(), proto, path);
    return;
  }
  case NodeKind::AugAssign: {
    auto *assign = cast<AugAssignStmt>(stmt);
    auto *name = dyn_cast<NameExpr>(assign->getTarget());
    if (!name)
      return;
    GlobalBinding binding;
    binding.stmt = stmt;
    binding.value = assign->getValue();
    binding.augmentedOp = assign->getOp();
    binding.guards = guards;
    binding.loc = name->getLoc();
    addBinding(name->getId(), std::move(binding));
    return;
  }
  case NodeKind::If: {
    auto *ifStmt = cast<IfStmt>(stmt);
    std::vector<BindingGuard> inner = guards;
    inner.push_back({ifStmt->getTest(), nullptr, true});
    for (Stmt *s : ifStmt->getBody())
      record(s, inner);
    inner.back().expected = false;
    for (Stmt *s : ifStmt->getOrElse())
      record(s, inner);
    return;
  }
  case NodeKind::Try: {
    // `try: from a import x / except ImportError: from b import x`: the
    // body and its `else` bind when the body's imports resolve, the
    // handlers when they do not (HostEvaluator decides), `finally` always.
    auto *tryStmt = cast<TryStmt>(stmt);
    std::vector<BindingGuard> inner = guards;
    inner.push_back({nullptr, tryStmt, true});
    for (Stmt *s : tryStmt->getBody())
      record(s, inner);
    for (Stmt *s : tryStmt->getOrElse())
      record(s, inner);
    inner.back().expected = false;
    for (const ExceptHandler &handler : tryStmt->getHandlers())
      for (Stmt *s : handler.body)
        record(s, inner);
    for (Stmt *s : tryStmt->getFinalBody())
      record(s, guards);
    return;
  }
  default:
    // Calls, loops, with blocks, asserts...: host code the kernels do not
    // see.
    return;
  }
}

void KernelModule::inject(llvm::StringRef name, HostValue value,
                          bool isConstexpr) {
  GlobalBinding binding;
  binding.kind = BindingKind::Injected;
  binding.injected = std::move(value);
  GlobalSymbol &symbol = getOrCreateGlobal(name);
  symbol.isConstexpr |= isConstexpr;
  symbol.bindings.push_back(std::move(binding));
}

bool KernelModule::markJit(llvm::StringRef name, JitOptions options) {
  GlobalSymbol *symbol = nullptr;
  auto it = globals.find(name);
  if (it != globals.end())
    symbol = &it->second;
  if (!symbol)
    return false;
  auto shared = std::make_shared<const JitOptions>(std::move(options));
  for (GlobalBinding &binding : llvm::reverse(symbol->bindings)) {
    if (binding.kind == BindingKind::JitFunction) {
      jitFunctions[binding.jitIndex].embedderOptions = shared;
      return true;
    }
    if (binding.kind != BindingKind::HostFunction)
      continue;
    JitFunction fn;
    fn.def = cast<FunctionDefStmt>(binding.stmt);
    fn.embedderOptions = shared;
    binding.kind = BindingKind::JitFunction;
    binding.jitIndex = jitFunctions.size();
    jitFunctions.push_back(std::move(fn));
    return true;
  }
  return false;
}

void KernelModule::resolveDecorators() {
  if (!moduleSet)
    return;
  for (const std::string &name : globalOrder) {
    GlobalSymbol &symbol = globals.find(name)->second;
    for (GlobalBinding &binding : symbol.bindings) {
      if (binding.kind != BindingKind::HostFunction &&
          binding.kind != BindingKind::JitFunction)
        continue;
      auto *def = cast<FunctionDefStmt>(binding.stmt);
      std::vector<DecoratorInfo> decorators;
      for (const Expr *d : def->getDecorators())
        decorators.push_back(classifyDecorator(*this, d));
      if (binding.kind == BindingKind::JitFunction) {
        // Aliases of triton.autotune/heuristics found behind other modules.
        jitFunctions[binding.jitIndex].decorators = std::move(decorators);
        continue;
      }
      // A def is a jit function only if @triton.jit, reached through the
      // alias, is the decorator closest to it (checked at scan time for
      // the direct spelling).
      if (decorators.empty() || decorators.back().kind != DecoratorKind::Jit) {
        auto triton = llvm::find_if(decorators, [](const DecoratorInfo &d) {
          return d.kind == DecoratorKind::Autotune ||
                 d.kind == DecoratorKind::Heuristics;
        });
        if (triton != decorators.end())
          diags
              .error(triton->expr->getLoc().ptr,
                     "@" + triton->qualifiedName +
                         " must decorate a @triton.jit function")
              .hint("add @triton.jit directly above 'def " + def->getName() +
                    "'");
        continue;
      }
      JitFunction fn;
      fn.def = def;
      fn.decorators = std::move(decorators);
      binding.kind = BindingKind::JitFunction;
      binding.jitIndex = jitFunctions.size();
      jitFunctions.push_back(std::move(fn));
    }
  }
}

std::unique_ptr<KernelModule> KernelModule::scan(llvm::SourceMgr &sourceMgr,
                                                 unsigned bufferId,
                                                 DiagnosticEngine &diags) {
  std::unique_ptr<KernelModule> module(new KernelModule(sourceMgr, diags));
  const llvm::MemoryBuffer *buffer = sourceMgr.getMemoryBuffer(bufferId);
  module->filename = buffer->getBufferIdentifier().str();
  ModuleScanner scanner(*module, buffer->getBuffer());
  scanner.run();
  return module;
}
