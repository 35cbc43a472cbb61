//===- Passes.h - Target-independent passes of the core ---------*- C++ -*-===//
#ifndef TESSERA_TRANSFORMS_PASSES_H
#define TESSERA_TRANSFORMS_PASSES_H

#include "tessera/Dialect/TesseraGPU/IR/Dialect.h"

#include "mlir/Pass/Pass.h"

namespace mlir::tessera {

#define GEN_PASS_DECL
#include "tessera/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "tessera/Transforms/Passes.h.inc"

} // namespace mlir::tessera

#endif // TESSERA_TRANSFORMS_PASSES_H
