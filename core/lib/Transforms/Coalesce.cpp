//===- Coalesce.cpp - Layouts for memory accesses from the axis analysis --===//
//
// Consecutive threads should touch consecutive memory, and each thread
// should move as many bytes at once as the hardware allows. For every memory
// access through a block of pointers this pass picks a blocked layout whose
// fastest dimension is the pointers' most contiguous one and in which each
// thread holds as many consecutive elements as the axis analysis proves
// contiguous and aligned (capped by the widest access and by the block's
// size over the threads). Operands are converted into that layout and the
// result back; remove-layout-conversions then propagates it.
//
//===----------------------------------------------------------------------===//
#include "tessera/Analysis/AxisInfo.h"
#include "tessera/Dialect/TesseraGPU/IR/LayoutUtils.h"
#include "tessera/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/STLExtras.h"

#include <numeric>

namespace mlir::tessera {
#define GEN_PASS_DEF_TESSERACOALESCE
#include "tessera/Transforms/Passes.h.inc"
} // namespace mlir::tessera

using namespace mlir;
using namespace mlir::tessera;
using namespace mlir::tessera::gpu;

namespace {

/// Bits of one element behind a pointer (pointers are 64-bit; i1 is stored
/// as a byte).
unsigned pointeeBits(Type ptrTensor) {
  auto ptr = cast<PointerType>(cast<RankedTensorType>(ptrTensor).getElementType());
  Type pointee = ptr.getPointeeType();
  if (isa<PointerType>(pointee))
    return 64;
  return std::max(8u, pointee.getIntOrFloatBitWidth());
}

/// The pointer operand of the memory accesses this pass lays out, or null.
Value getPointerOperand(Operation *op) {
  Value ptr;
  if (auto load = dyn_cast<LoadOp>(op))
    ptr = load.getPtr();
  else if (auto store = dyn_cast<StoreOp>(op))
    ptr = store.getPtr();
  else if (auto rmw = dyn_cast<AtomicRMWOp>(op))
    ptr = rmw.getPtr();
  else if (auto cas = dyn_cast<AtomicCASOp>(op))
    ptr = cas.getPtr();
  else if (auto copy = dyn_cast<AsyncCopyGlobalToLocalOp>(op))
    ptr = copy.getSrc();
  auto tensor = ptr ? dyn_cast<RankedTensorType>(ptr.getType()) : nullptr;
  if (!tensor || !isa<PointerType>(tensor.getElementType()) ||
      !tensor.getEncoding())
    return {};
  return ptr;
}

/// Dimensions sorted by the pointers' contiguity, most contiguous first;
/// ties keep the order of the pointers' current layout (row-major when it
/// has none), so an access without contiguity keeps its order.
SmallVector<unsigned> contiguityOrder(const AxisInfo &info,
                                      RankedTensorType type) {
  unsigned rank = type.getRank();
  SmallVector<unsigned> current;
  if (auto blocked = dyn_cast<BlockedAttr>(type.getEncoding()))
    current.assign(blocked.getOrder().begin(), blocked.getOrder().end());
  else
    for (int d = rank - 1; d >= 0; --d)
      current.push_back(d);
  SmallVector<unsigned> order = current;
  llvm::stable_sort(order, [&](unsigned a, unsigned b) {
    return info.getContiguity(a) > info.getContiguity(b);
  });
  return order;
}

class CoalescePass
    : public mlir::tessera::impl::TesseraCoalesceBase<CoalescePass> {
public:
  using TesseraCoalesceBase::TesseraCoalesceBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    FailureOr<LaunchShape> launch = getLaunchShape(module);
    if (failed(launch)) {
      module.emitError("coalescing needs laid-out IR: run convert-to-gpu "
                       "first");
      return signalPassFailure();
    }
    ModuleAxisInfoAnalysis &axis = getAnalysis<ModuleAxisInfoAnalysis>();

    // Decide every layout before rewriting, while the analysis still
    // describes the IR.
    SmallVector<std::pair<Operation *, BlockedAttr>> plan;
    module.walk([&](Operation *op) {
      Value ptr = getPointerOperand(op);
      if (!ptr)
        return;
      plan.push_back({op, chooseLayout(ptr, *launch, axis)});
    });
    for (auto [op, layout] : plan)
      relayout(op, layout);
  }

private:
  BlockedAttr chooseLayout(Value ptr, const LaunchShape &launch,
                           const ModuleAxisInfoAnalysis &axis) {
    auto type = cast<RankedTensorType>(ptr.getType());
    SmallVector<unsigned> order = contiguityOrder(axis.getAxisInfo(ptr), type);
    unsigned bits = pointeeBits(type);
    int64_t numThreads =
        int64_t(launch.numWarps) * launch.threadsPerWarp * launch.numCTAs;
    int64_t perThread = axis.getPtrAlignment(ptr, order);
    perThread = std::min<int64_t>(perThread,
                                  std::max<unsigned>(1, maxVectorBits / bits));
    perThread = std::min<int64_t>(
        perThread, std::max<int64_t>(1, type.getNumElements() / numThreads));
    return getBlockedEncoding(&getContext(), type.getShape(), order, perThread,
                              launch.numWarps, launch.threadsPerWarp,
                              launch.numCTAs);
  }

  /// Rebuilds `op` with its tensor operands and results in `layout`,
  /// converting on the way in and out.
  void relayout(Operation *op, BlockedAttr layout) {
    OpBuilder builder(op);
    auto changed = [&](Type type) {
      auto tensor = dyn_cast<RankedTensorType>(type);
      return tensor && tensor.getEncoding() != layout;
    };
    if (llvm::none_of(op->getOperandTypes(), changed) &&
        llvm::none_of(op->getResultTypes(), changed))
      return;
    for (OpOperand &operand : op->getOpOperands()) {
      auto tensor = dyn_cast<RankedTensorType>(operand.get().getType());
      if (!tensor || tensor.getEncoding() == layout)
        continue;
      operand.set(ConvertLayoutOp::create(builder, op->getLoc(),
                                          withEncoding(tensor, layout),
                                          operand.get()));
    }
    builder.setInsertionPointAfter(op);
    for (OpResult result : op->getResults()) {
      auto tensor = dyn_cast<RankedTensorType>(result.getType());
      if (!tensor || tensor.getEncoding() == layout)
        continue;
      result.setType(withEncoding(tensor, layout));
      auto back = ConvertLayoutOp::create(builder, op->getLoc(), tensor, result);
      result.replaceAllUsesExcept(back, back);
    }
  }
};

} // namespace
