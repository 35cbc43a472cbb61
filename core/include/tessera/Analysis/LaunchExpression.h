//===- LaunchExpression.h - Values a launch computes on the host -*- C++
//-*-===//
//
// Some values of a kernel depend only on its parameters (a tensor's shape,
// a stride, a base address). A target that wants them on the host at launch
// (to build a tensor map, say) records them as launch expressions: postfix
// programs over the kernel's parameters, which the launch evaluates from
// the argument values (tessera/Backend/LaunchExpression.h).
//
// Syntax: tokens separated by one space. `pN` pushes parameter N (an
// integer sign-extended to 64 bits, a pointer's address); a decimal integer
// (optionally negative) pushes itself; `+`, `-` and `*` pop two values and
// push the wrapped 64-bit result. A program leaves exactly one value.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_ANALYSIS_LAUNCHEXPRESSION_H
#define TESSERA_ANALYSIS_LAUNCHEXPRESSION_H

#include "mlir/IR/Value.h"
#include "mlir/Support/LLVM.h"

#include <string>

namespace mlir::tessera {

/// The launch expression of `value`, an integer or scalar pointer of a
/// kernel, or failure when it depends on anything but the kernel's
/// parameters and constants combined by add, sub, mul, sign extension and
/// pointer offsets (a program id, a load, a division...).
FailureOr<std::string> getLaunchExpression(Value value);

} // namespace mlir::tessera

#endif // TESSERA_ANALYSIS_LAUNCHEXPRESSION_H
