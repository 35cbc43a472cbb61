//===- Dialect.h - The tessera_gpu dialect ----------------------*- C++ -*-===//
#ifndef TESSERA_DIALECT_TESSERAGPU_IR_DIALECT_H
#define TESSERA_DIALECT_TESSERAGPU_IR_DIALECT_H

#include "tessera/Dialect/Tessera/IR/Dialect.h"
#include "tessera/Layout/LinearLayout.h"

#include "mlir/IR/BuiltinTypeInterfaces.h"
#include "mlir/IR/TensorEncoding.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "tessera/Dialect/TesseraGPU/IR/TesseraGPUDialect.h.inc"

#include "tessera/Dialect/TesseraGPU/IR/TesseraGPUAttrInterfaces.h.inc"

#define GET_ATTRDEF_CLASSES
#include "tessera/Dialect/TesseraGPU/IR/TesseraGPUAttrs.h.inc"

#define GET_TYPEDEF_CLASSES
#include "tessera/Dialect/TesseraGPU/IR/TesseraGPUTypes.h.inc"

namespace mlir::tessera::gpu {

/// The shared memory of a block, as a side-effect resource: ops on it are
/// ordered among themselves but not against global memory.
struct SharedMemory : public SideEffects::Resource::Base<SharedMemory> {
  StringRef getName() final { return "<SharedMemory>"; }
};

} // namespace mlir::tessera::gpu

#define GET_OP_CLASSES
#include "tessera/Dialect/TesseraGPU/IR/TesseraGPUOps.h.inc"

#endif // TESSERA_DIALECT_TESSERAGPU_IR_DIALECT_H
