//===- LayoutUtils.h - Queries over laid-out tensors ------------*- C++ -*-===//
#ifndef TESSERA_DIALECT_TESSERAGPU_IR_LAYOUTUTILS_H
#define TESSERA_DIALECT_TESSERAGPU_IR_LAYOUTUTILS_H

#include "tessera/Dialect/TesseraGPU/IR/Dialect.h"

namespace mlir::tessera::gpu {

/// The launch shape a module was converted for, read from its attributes.
struct LaunchShape {
  int numWarps = 4;
  int threadsPerWarp = 32;
  int numCTAs = 1;
};

/// Reads the tessera_gpu launch attributes of the module enclosing `op`;
/// failure when the module was not converted to tessera_gpu.
FailureOr<LaunchShape> getLaunchShape(Operation *op);

/// Writes `shape` as the module's tessera_gpu launch attributes.
void setLaunchShape(ModuleOp module, const LaunchShape &shape);

/// The LinearLayout of a tensor with a distributed encoding.
LinearLayout toLinearLayout(RankedTensorType type);

/// The LinearLayout of a shared-memory buffer.
LinearLayout toLinearLayout(MemDescType type);

/// The layout a tensor of `shape` gets by default: each thread holds
/// `sizePerThread` contiguous elements along the last dimension (1 when 0 is
/// given), threads then warps then blocks fill the dimensions from the last
/// (fastest) to the first.
BlockedAttr getDefaultBlockedEncoding(MLIRContext *ctx, ArrayRef<int64_t> shape,
                                      int numWarps, int threadsPerWarp,
                                      int numCTAs, unsigned sizePerThread = 1);

/// A blocked layout for `shape` whose fastest dimension is `order[0]`, with
/// `sizePerThread` elements per thread along it.
BlockedAttr getBlockedEncoding(MLIRContext *ctx, ArrayRef<int64_t> shape,
                               ArrayRef<unsigned> order, unsigned sizePerThread,
                               int numWarps, int threadsPerWarp, int numCTAs);

/// Number of elements of `type` each thread holds (counting broadcast copies).
int64_t getTotalElemsPerThread(RankedTensorType type);

/// `type` with its encoding replaced.
RankedTensorType withEncoding(RankedTensorType type, Attribute encoding);

/// The distributed encoding of a tensor type, or null.
DistributedLayoutAttr getDistributedEncoding(Type type);

} // namespace mlir::tessera::gpu

#endif // TESSERA_DIALECT_TESSERAGPU_IR_LAYOUTUTILS_H
