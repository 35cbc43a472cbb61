//===- ASTPrinter.h - Readable dump of the AST ------------------*- C++ -*-===//
//
// One node per line, children indented by two spaces and prefixed with the
// field they fill ("target: Name 'x' <3:5-3:6>"); locations are
// <line:col-endline:endcol>, 1-based, end exclusive. The format is stable and
// meant for FileCheck.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_FRONTEND_ASTPRINTER_H
#define TESSERA_FRONTEND_ASTPRINTER_H

#include "tessera/Frontend/AST.h"

#include "llvm/Support/raw_ostream.h"

namespace tessera::frontend {

struct ASTPrintOptions {
  /// Print <line:col-line:col> after each node.
  bool locations = true;
};

/// Prints `node` and its subtree, starting at `indent` levels.
void printAST(const Node *node, llvm::raw_ostream &os,
              const ASTPrintOptions &options = {}, unsigned indent = 0);

/// The dump of `node` as a string.
std::string dumpAST(const Node *node, const ASTPrintOptions &options = {});

} // namespace tessera::frontend

#endif // TESSERA_FRONTEND_ASTPRINTER_H
