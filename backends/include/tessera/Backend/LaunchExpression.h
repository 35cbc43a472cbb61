//===- LaunchExpression.h - Evaluating launch expressions -------*- C++ -*-===//
//
// The host half of tessera/Analysis/LaunchExpression.h: a driver evaluates a
// launch expression (a postfix program over the kernel's parameters) from
// the values a launch passes.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_BACKEND_LAUNCHEXPRESSION_H
#define TESSERA_BACKEND_LAUNCHEXPRESSION_H

#include "tessera/Backend/CompiledKernel.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>

namespace mlir::tessera {

/// The value of `program` for a launch whose parameter i has type
/// `params[i].type` (Triton's spelling) and its value at `args[i]`. Integers
/// are read at their width and sign-extended (unsigned ones zero-extended),
/// pointers as 64-bit addresses; a float parameter, an unknown token or a
/// malformed program is an error naming it.
llvm::Expected<int64_t>
evaluateLaunchExpression(llvm::StringRef program,
                         llvm::ArrayRef<KernelParam> params,
                         llvm::ArrayRef<void *> args);

} // namespace mlir::tessera

#endif // TESSERA_BACKEND_LAUNCHEXPRESSION_H
