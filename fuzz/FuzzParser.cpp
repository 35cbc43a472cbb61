//===- FuzzParser.cpp - Fuzz target: lexer, parser and module scanner -----===//
//
// Any bytes as a kernel file: the lexer and parser through the module
// scanner (which skips host statements that do not parse and resumes at the
// next top-level line), then the AST printer over every statement kept.
//
//===----------------------------------------------------------------------===//
#include "FuzzScan.h"
#include "FuzzSupport.h"

#include "tessera/Frontend/ASTPrinter.h"
#include "tessera/Frontend/KernelModule.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

using namespace tessera::frontend;

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  tessera::fuzz::silenceLogging();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::raw_null_ostream sink;
  tessera::fuzz::ScannedFile file(tessera::fuzz::asText(data, size), "fuzz.py",
                                  sink);
  for (const Stmt *stmt : file.module->getStatements())
    printAST(stmt, sink);
  return 0;
}
