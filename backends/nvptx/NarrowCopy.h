//===- NarrowCopy.h - Copies too narrow for cp.async ------------*- C++ -*-===//
//
// A masked copy into shared memory too narrow for cp.async (fp16 rows not
// known to be aligned) lowered as a branch around a plain load gives LLVM one
// basic block per element; a 128x128 fp16 tile of them made LLVM's NVPTX code
// generation take seconds. This emits each as one predicated load and a
// shared store, straight-line. Masked global stores stay branches: as
// predicated `st.global` in inline PTX, layer norm's forward ran 17% slower
// on the H100 (2067 against 2501 GB/s, 2026-11-27, one machine).
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_BACKENDS_NVPTX_NARROWCOPY_H
#define TESSERA_BACKENDS_NVPTX_NARROWCOPY_H

#include "mlir/IR/Builders.h"

namespace mlir::tessera::nvptx {

/// Copies `bytes` (1 or 2) from global `src` to shared `dst`, or zero when
/// `pred` is false: what cp.async, which moves at least 4 bytes, cannot.
/// Fails, emitting nothing, for other sizes.
LogicalResult emitNarrowCopyToShared(OpBuilder &b, Location loc, Value dst,
                                     Value src, unsigned bytes, Value pred);

} // namespace mlir::tessera::nvptx

#endif // TESSERA_BACKENDS_NVPTX_NARROWCOPY_H
