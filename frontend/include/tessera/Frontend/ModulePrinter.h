//===- ModulePrinter.h - Readable summary of a kernel module ----*- C++ -*-===//
#ifndef TESSERA_FRONTEND_MODULEPRINTER_H
#define TESSERA_FRONTEND_MODULEPRINTER_H

#include "tessera/Frontend/HostEvaluator.h"

namespace tessera::frontend {

/// Prints the imports, module constants (evaluated where possible), host
/// functions and jit functions with their decorators, autotune configs and
/// heuristics. Fails if a jit function's decorators cannot be evaluated
/// (the errors are reported).
llvm::LogicalResult printModuleSummary(const KernelModule &module,
                                       HostEvaluator &eval,
                                       llvm::raw_ostream &os);

/// The source text of a node, as written.
llvm::StringRef getSourceText(const Node *node);

} // namespace tessera::frontend

#endif // TESSERA_FRONTEND_MODULEPRINTER_H
