//===- HostValues.h - Launch values as kernel-file values -------*- C++ -*-===//
//
// Heuristics, autotune configs and default values are Python expressions
// of the kernel file, evaluated by the frontend's HostEvaluator into
// HostValues; launches carry KernelArgs. These convert between the two. A
// pointer has no Python value the evaluator knows: it reads as the symbol
// `tessera.pointer[<type>]`, which heuristics can pass around but not
// inspect.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_RUNTIME_HOSTVALUES_H
#define TESSERA_RUNTIME_HOSTVALUES_H

#include "tessera/Frontend/HostValue.h"
#include "tessera/Runtime/KernelArg.h"

#include "llvm/Support/Error.h"

namespace mlir::tessera::runtime {

/// The HostValue a kernel file sees for `arg`.
::tessera::frontend::HostValue toHostValue(const KernelArg &arg);

/// The launch value of a HostValue: None, bools, ints, floats, strings and
/// `triton.language` dtypes. Fails, naming `what`, for anything else.
llvm::Expected<KernelArg>
fromHostValue(const ::tessera::frontend::HostValue &value,
              llvm::StringRef what);

} // namespace mlir::tessera::runtime

#endif // TESSERA_RUNTIME_HOSTVALUES_H
