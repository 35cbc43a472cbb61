//===- tessera-ast.cpp - Dump the AST and module view of a kernel file ----===//
//
// tessera-ast FILE [--dump-ast] [--dump-module] [--kernel NAME]
//             [--eval-heuristics 'x=1024,y=3'] [--no-locations]
//
// Prints what the frontend sees in a Triton kernel file, for lit tests and
// for people. Diagnostics go to stderr; the exit code is 1 on any error.
//
//===----------------------------------------------------------------------===//
#include "tessera/Frontend/ASTPrinter.h"
#include "tessera/Frontend/Decorators.h"
#include "tessera/Frontend/ModulePrinter.h"
#include "tessera/Frontend/Parser.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace tessera::frontend;
namespace cl = llvm::cl;

static cl::opt<std::string> inputFile(cl::Positional, cl::desc("<kernel.py>"),
                                      cl::Required);
static cl::opt<bool> dumpAst("dump-ast",
                             cl::desc("Print the AST (of --kernel, or of "
                                      "every top-level statement)"));
static cl::opt<bool> dumpModule("dump-module",
                                cl::desc("Print the module summary (the "
                                         "default)"));
static cl::opt<std::string> kernelName("kernel",
                                       cl::desc("Restrict to one function"),
                                       cl::value_desc("name"));
static cl::opt<std::string>
    evalHeuristics("eval-heuristics",
                   cl::desc("Run @triton.heuristics over launch arguments "
                            "given as 'name=value,...'"),
                   cl::value_desc("args"));
static cl::opt<bool> noLocations("no-locations",
                                 cl::desc("Omit locations in --dump-ast"));

/// Parses 'x=1024,y=3' (values are Python expressions) into launch args.
static llvm::LogicalResult parseLaunchArgs(llvm::SourceMgr &sm,
                                           DiagnosticEngine &diags,
                                           HostEvaluator &eval,
                                           std::vector<HostKwarg> &out) {
  ASTContext ctx;
  // The list reads as one expression: a tuple of `name=value` would not
  // parse, so parse it as the arguments of a call.
  std::string text = "f(" + evalHeuristics + ")";
  auto callBuffer =
      llvm::MemoryBuffer::getMemBufferCopy(text, "<eval-heuristics>");
  unsigned callId = sm.AddNewSourceBuffer(std::move(callBuffer), llvm::SMLoc());
  Lexer callLexer(sm.getMemoryBuffer(callId)->getBuffer());
  Parser callParser(callLexer, ctx, diags);
  Expr *e = callParser.parseExpressionInput();
  auto *call = llvm::dyn_cast_or_null<CallExpr>(e);
  if (!call)
    return llvm::failure();
  if (!call->getArgs().empty()) {
    diags.error(call->getArgs()[0]->getLoc().ptr,
                "--eval-heuristics expects name=value pairs");
    return llvm::failure();
  }
  for (const Keyword &kw : call->getKeywords()) {
    llvm::FailureOr<HostValue> v = eval.evaluate(kw.value);
    if (failed(v))
      return llvm::failure();
    out.emplace_back(kw.name.str(), *v);
  }
  return llvm::success();
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::ParseCommandLineOptions(argc, argv,
                              "Tessera frontend: AST and module dump\n");
  llvm::SourceMgr sm;
  auto file = llvm::MemoryBuffer::getFileOrSTDIN(inputFile);
  if (std::error_code ec = file.getError()) {
    llvm::errs() << inputFile << ": error: cannot open file: " << ec.message()
                 << "\n";
    return 1;
  }
  unsigned id = sm.AddNewSourceBuffer(std::move(*file), llvm::SMLoc());
  DiagnosticEngine diags(sm);
  std::unique_ptr<KernelModule> module = KernelModule::scan(sm, id, diags);
  if (diags.hadError())
    return 1;
  HostEvaluator eval(module.get(), diags);

  ASTPrintOptions printOptions;
  printOptions.locations = !noLocations;
  bool any = false;
  if (dumpAst) {
    any = true;
    if (!kernelName.empty()) {
      const FunctionDefStmt *fn = module->lookupFunction(kernelName);
      if (!fn) {
        llvm::errs() << inputFile << ": error: no function named '"
                     << kernelName << "'\n";
        return 1;
      }
      printAST(fn, llvm::outs(), printOptions);
    } else {
      for (const Stmt *s : module->getStatements())
        printAST(s, llvm::outs(), printOptions);
    }
  }
  if (!evalHeuristics.empty()) {
    any = true;
    std::vector<HostKwarg> args;
    if (failed(parseLaunchArgs(sm, diags, eval, args)))
      return 1;
    for (const JitFunction &fn : module->getJitFunctions()) {
      if (!kernelName.empty() && fn.getName() != kernelName)
        continue;
      const DecoratorInfo *d = fn.findDecorator(DecoratorKind::Heuristics);
      if (!d)
        continue;
      llvm::FailureOr<HeuristicsSpec> spec = readHeuristics(eval, *d);
      if (failed(spec))
        return 1;
      llvm::FailureOr<std::vector<HostKwarg>> results =
          evaluateHeuristics(eval, *spec, args);
      if (failed(results))
        return 1;
      for (const auto &[name, value] : *results)
        llvm::outs() << "heuristic " << fn.getName() << "." << name << " = "
                     << value.repr() << "\n";
    }
  }
  if (dumpModule || !any)
    if (failed(printModuleSummary(*module, eval, llvm::outs())))
      return 1;
  return diags.hadError() ? 1 : 0;
}
