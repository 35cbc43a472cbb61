//===- PipelineTensorLoads.h - Rings of tensor-map copies -------*- C++ -*-===//
#ifndef TESSERA_LIB_TRANSFORMS_PIPELINETENSORLOADS_H
#define TESSERA_LIB_TRANSFORMS_PIPELINETENSORLOADS_H

#include "LoopSlice.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

namespace mlir::tessera {

/// Pipelines the tensor-map copies of `loop` (PipelineTensorLoads.cpp says
/// which and how) through rings of `stages` buffers plus `dotsInFlight`
/// (iterations the loop's dots may run behind), or fewer where `budget`
/// would not hold them next to the rest of the module. False when the loop
/// does not qualify; it is then unchanged.
bool pipelineTensorLoads(scf::ForOp loop, int stages, int dotsInFlight,
                         const SharedMemoryBudget &budget);

} // namespace mlir::tessera

#endif // TESSERA_LIB_TRANSFORMS_PIPELINETENSORLOADS_H
