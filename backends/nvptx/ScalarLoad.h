//===- ScalarLoad.h - Masked scalar loads as predicated PTX -----*- C++ -*-===//
//
// A masked load of one element (an operand whose rows are not known to be
// aligned, read element by element) lowered as a branch around a plain
// load gives LLVM one basic block per element: a matmul tile of them made
// LLVM's code generation take seconds. This emits each as one predicated
// `ld.global`, straight-line, as Triton does. Vector loads keep the core's
// branch around a plain LLVM load, which LLVM optimizes better; masked
// global stores stay branches too (as predicated inline `st.global`, layer
// norm's forward ran 17% slower on the H100, 2026-11-27).
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_BACKENDS_NVPTX_SCALARLOAD_H
#define TESSERA_BACKENDS_NVPTX_SCALARLOAD_H

#include "mlir/IR/Builders.h"

namespace mlir::tessera::nvptx {

/// Loads the 8-, 16-, 32- or 64-bit scalar `type` from global `ptr` when
/// `pred` is true, else yields `other`, with one predicated `ld.global`.
/// Fails, emitting nothing, for vectors, other widths and an always-true
/// `pred` (a plain LLVM load is better then).
FailureOr<Value> emitPredicatedScalarLoad(OpBuilder &b, Location loc, Value ptr,
                                          Type type, Value pred, Value other);

} // namespace mlir::tessera::nvptx

#endif // TESSERA_BACKENDS_NVPTX_SCALARLOAD_H
