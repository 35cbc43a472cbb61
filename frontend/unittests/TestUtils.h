//===- TestUtils.h - Helpers shared by the frontend unit tests --*- C++ -*-===//
#ifndef TESSERA_FRONTEND_UNITTESTS_TESTUTILS_H
#define TESSERA_FRONTEND_UNITTESTS_TESTUTILS_H

#include "tessera/Frontend/ASTPrinter.h"
#include "tessera/Frontend/Diagnostics.h"
#include "tessera/Frontend/Parser.h"

#include "llvm/Support/MemoryBuffer.h"

#include <memory>
#include <string>
#include <vector>

namespace tessera::frontend::test {

/// A source buffer with a collecting, silent diagnostic engine.
struct Source {
  llvm::SourceMgr sm;
  std::vector<Diagnostic> collected;
  DiagnosticEngine diags{sm, nullptr};
  unsigned id;

  explicit Source(llvm::StringRef text, llvm::StringRef name = "test.py") {
    id = sm.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBufferCopy(text, name),
                               llvm::SMLoc());
    diags.setCollector(&collected);
  }
  llvm::StringRef buffer() const { return sm.getMemoryBuffer(id)->getBuffer(); }
  /// All collected diagnostics rendered as printed.
  std::string rendered() const {
    std::string out;
    for (const Diagnostic &d : collected)
      out += diags.render(d);
    return out;
  }
};

/// Parses `text` as a file; returns the dump of every statement, or
/// "ERROR: <rendered diagnostics>".
inline std::string parseAndDump(llvm::StringRef text, bool locations = false) {
  Source src(text);
  Lexer lexer(src.buffer());
  ASTContext ctx;
  Parser parser(lexer, ctx, src.diags);
  llvm::SmallVector<Stmt *> stmts;
  if (failed(parser.parseFile(stmts)))
    return "ERROR: " + src.rendered();
  ASTPrintOptions options;
  options.locations = locations;
  std::string out;
  for (Stmt *s : stmts)
    out += dumpAST(s, options);
  return out;
}

/// The dump of one expression.
inline std::string exprDump(llvm::StringRef text) {
  Source src(text);
  Lexer lexer(src.buffer());
  ASTContext ctx;
  Parser parser(lexer, ctx, src.diags);
  Expr *e = parser.parseExpressionInput();
  if (!e)
    return "ERROR: " + src.rendered();
  ASTPrintOptions options;
  options.locations = false;
  return dumpAST(e, options);
}

} // namespace tessera::frontend::test

#endif // TESSERA_FRONTEND_UNITTESTS_TESTUTILS_H
