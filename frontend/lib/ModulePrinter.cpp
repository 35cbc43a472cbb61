//===- ModulePrinter.cpp - Readable summary of a kernel module ------------===//
#include "tessera/Frontend/ModulePrinter.h"
#include "tessera/Frontend/Decorators.h"

using namespace tessera::frontend;

llvm::StringRef tessera::frontend::getSourceText(const Node *node) {
  const char *begin = node->getLoc().getPointer();
  const char *end = node->getEndLoc().getPointer();
  if (!begin || !end || end < begin)
    return {};
  return llvm::StringRef(begin, end - begin);
}

static void printParams(llvm::ArrayRef<Parameter> params,
                        llvm::raw_ostream &os) {
  os << "(";
  for (size_t i = 0; i < params.size(); ++i) {
    const Parameter &p = params[i];
    if (i)
      os << ", ";
    if (p.kind == ParamKind::VarPositional)
      os << "*";
    else if (p.kind == ParamKind::VarKeyword)
      os << "**";
    os << p.name;
    if (p.annotation)
      os << ": " << getSourceText(p.annotation);
    if (p.defaultValue)
      os << " = " << getSourceText(p.defaultValue);
  }
  os << ")";
}

static llvm::StringRef kindName(DecoratorKind kind) {
  switch (kind) {
  case DecoratorKind::Jit:
    return "jit";
  case DecoratorKind::Autotune:
    return "autotune";
  case DecoratorKind::Heuristics:
    return "heuristics";
  case DecoratorKind::Other:
    return "other";
  }
  return "other";
}

static void printList(llvm::ArrayRef<std::string> names,
                      llvm::raw_ostream &os) {
  os << "[";
  for (size_t i = 0; i < names.size(); ++i)
    os << (i ? ", " : "") << "'" << names[i] << "'";
  os << "]";
}

llvm::LogicalResult tessera::frontend::printModuleSummary(
    const KernelModule &module, HostEvaluator &eval, llvm::raw_ostream &os) {
  bool ok = true;
  os << "module '" << module.getFilename() << "'\n";
  for (const ImportInfo &imp : module.getImports())
    os << "  import " << imp.boundName << " = " << imp.qualifiedName << "  @"
       << imp.loc.line << ":" << imp.loc.column << "\n";

  for (const std::string &name : module.getGlobalNames()) {
    const GlobalSymbol *symbol = module.lookupGlobal(name);
    const GlobalBinding &last = symbol->bindings.back();
    switch (last.kind) {
    case BindingKind::Import:
    case BindingKind::JitFunction:
      continue;
    case BindingKind::HostFunction:
      os << "  host def " << name;
      printParams(llvm::cast<FunctionDefStmt>(last.stmt)->getParams(), os);
      os << "  @" << last.loc.line << ":" << last.loc.column << "\n";
      continue;
    case BindingKind::Class:
      os << "  class " << name << "  @" << last.loc.line << ":"
         << last.loc.column << "\n";
      continue;
    case BindingKind::Unparsed:
      os << "  global " << name << " = <unparsed>  @" << last.loc.line << ":"
         << last.loc.column << "\n";
      continue;
    case BindingKind::Value:
      break;
    }
    // Constants are shown evaluated where possible; failing to evaluate one
    // here is not an error, since nothing may need it.
    DiagnosticCapture capture(eval.getDiagnostics());
    llvm::FailureOr<HostValue> value = eval.evaluateGlobal(name, last.loc.ptr);
    os << "  " << (symbol->isConstexpr ? "constexpr " : "global ") << name
       << " = ";
    if (succeeded(value))
      os << value->repr();
    else
      os << "<host expression: " << getSourceText(last.value) << ">";
    os << "  @" << last.loc.line << ":" << last.loc.column << "\n";
  }

  for (const JitFunction &fn : module.getJitFunctions()) {
    const FunctionDefStmt *def = fn.def;
    os << "  jit " << def->getName();
    printParams(def->getParams(), os);
    os << "  @" << def->getNameLoc().line << ":" << def->getNameLoc().column
       << "\n";
    for (const DecoratorInfo &d : fn.decorators) {
      os << "    decorator " << kindName(d.kind) << " "
         << (d.qualifiedName.empty() ? getSourceText(d.expr)
                                     : llvm::StringRef(d.qualifiedName))
         << "  @" << d.expr->getLoc().line << ":" << d.expr->getLoc().column
         << "\n";
      if (d.kind == DecoratorKind::Jit && d.call) {
        llvm::FailureOr<JitOptions> options = readJitOptions(eval, d);
        if (failed(options)) {
          ok = false;
          continue;
        }
        if (!options->doNotSpecialize.empty())
          os << "      do_not_specialize = "
             << HostValue::list(options->doNotSpecialize).repr() << "\n";
        if (!options->doNotSpecializeOnAlignment.empty())
          os << "      do_not_specialize_on_alignment = "
             << HostValue::list(options->doNotSpecializeOnAlignment).repr()
             << "\n";
        if (options->noinline)
          os << "      noinline = " << (*options->noinline ? "True" : "False")
             << "\n";
        if (options->debug)
          os << "      debug = " << (*options->debug ? "True" : "False")
             << "\n";
        for (const auto &[k, v] : options->other)
          os << "      " << k << " = " << v.repr() << "\n";
      } else if (d.kind == DecoratorKind::Autotune) {
        llvm::FailureOr<AutotuneSpec> spec = readAutotune(eval, d);
        if (failed(spec)) {
          ok = false;
          continue;
        }
        os << "      key = ";
        printList(spec->key, os);
        os << "\n";
        if (!spec->resetToZero.empty()) {
          os << "      reset_to_zero = ";
          printList(spec->resetToZero, os);
          os << "\n";
        }
        if (!spec->restoreValue.empty()) {
          os << "      restore_value = ";
          printList(spec->restoreValue, os);
          os << "\n";
        }
        if (!spec->pruneConfigsBy.isNone())
          os << "      prune_configs_by = " << spec->pruneConfigsBy.repr()
             << "\n";
        if (spec->warmup)
          os << "      warmup = " << *spec->warmup << "\n";
        if (spec->rep)
          os << "      rep = " << *spec->rep << "\n";
        os << "      configs: " << spec->configs.size() << "\n";
        for (size_t i = 0; i < spec->configs.size(); ++i)
          os << "        [" << i << "] " << spec->configs[i].repr() << "\n";
      } else if (d.kind == DecoratorKind::Heuristics) {
        llvm::FailureOr<HeuristicsSpec> spec = readHeuristics(eval, d);
        if (failed(spec)) {
          ok = false;
          continue;
        }
        for (const auto &[name, fn] : spec->values)
          os << "      " << name << " = " << fn.repr() << "\n";
      }
    }
  }
  if (module.getNumSkippedStatements())
    os << "  skipped " << module.getNumSkippedStatements()
       << " top-level statement(s) that did not parse\n";
  return llvm::success(ok);
}
