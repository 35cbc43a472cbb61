//===- PredicatedAccess.h - Masked memory accesses as predicated PTX -*- C++ -*-===//
//
// A masked access lowered as a branch around a plain load or store gives
// LLVM one basic block per element; a tile of them (a 128x128 fp16 epilogue
// whose rows are not known to be aligned: 128 per thread) made LLVM's NVPTX
// code generation take seconds, most of it straight-line strength reduction,
// for no better code, since ptxas predicates such branches anyway. These
// emit the access as one predicated PTX instruction instead, as straight-line
// code.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_BACKENDS_NVPTX_PREDICATEDACCESS_H
#define TESSERA_BACKENDS_NVPTX_PREDICATEDACCESS_H

#include "mlir/IR/Builders.h"

namespace mlir::tessera::nvptx {

/// Stores `value` (a scalar or vector of 1, 2, 4, 8 or 16 bytes) to the
/// global pointer `ptr` when `pred` (i1) is true, as `@p st.global`. Fails,
/// emitting nothing, for other sizes and when `pred` is the constant true
/// (a plain store, which LLVM may still vectorize, is better then).
LogicalResult emitPredicatedGlobalStore(OpBuilder &b, Location loc, Value ptr,
                                        Value value, Value pred);

/// Copies `bytes` (1 or 2) from global `src` to shared `dst`, or zero when
/// `pred` is false: what cp.async, which moves at least 4 bytes, cannot.
/// Fails, emitting nothing, for other sizes.
LogicalResult emitNarrowCopyToShared(OpBuilder &b, Location loc, Value dst,
                                     Value src, unsigned bytes, Value pred);

} // namespace mlir::tessera::nvptx

#endif // TESSERA_BACKENDS_NVPTX_PREDICATEDACCESS_H
