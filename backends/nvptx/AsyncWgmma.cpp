//===- AsyncWgmma.cpp - Leave accumulator wgmma dots running --------------===//
//
// A wgmma dot that carries a loop's accumulator need not be waited for in
// its own iteration: the next iteration's wgmma takes the accumulator
// registers while they are still being written (the instructions of one
// accumulator chain run in order), so the tensor cores stay busy while the
// next iteration waits for its copies. The dot then waits only until
// `n` groups remain in flight (its own included) -- the previous
// iteration's wgmma has then finished -- and a dot_wait after the loop
// waits for the rest before anything else reads the accumulator.
//
// The shared memory such a dot reads must stay as it is until that wait:
// each buffer it reads in place is either a ring slot of a loop the
// pipeliner gave `n` spare slots (kDotsInFlightAttrName: a slot is written
// again only after the block synchronization that follows the wait), or a
// buffer the loop never writes. Any other dot stays synchronous.
//
//===----------------------------------------------------------------------===//
#include "MmaLayouts.h"
#include "Wgmma.h"

#include "tessera/Conversion/TesseraGPUToLLVM.h"
#include "tessera/Dialect/Tessera/IR/Dialect.h"
#include "tessera/Dialect/TesseraGPU/IR/Dialect.h"
#include "tessera/Dialect/TesseraGPU/IR/SharedMemoryPlan.h"
#include "tessera/Transforms/PipelineLoads.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"

using namespace mlir;
using namespace mlir::tessera;
using namespace mlir::tessera::nvptx;

namespace {

/// True when an operation inside `loop` writes `buffer` other than as an
/// asynchronous copy (`copiesAllowed`) or any way at all.
bool isWrittenIn(scf::ForOp loop, Value buffer, bool copiesAllowed) {
  SmallVector<Value> views{buffer};
  while (!views.empty()) {
    Value view = views.pop_back_val();
    for (Operation *user : view.getUsers()) {
      if (isa<gpu::MemDescIndexOp, gpu::MemDescTransOp>(user)) {
        views.push_back(user->getResult(0));
        continue;
      }
      if (!loop->isAncestor(user) || isa<gpu::LocalLoadOp>(user))
        continue;
      if (copiesAllowed &&
          isa<gpu::AsyncCopyGlobalToLocalOp, gpu::AsyncTensorLoadOp>(user))
        continue;
      return true;
    }
  }
  return false;
}

/// True when the buffer `operand` of a dot in `loop` is read from stays
/// unwritten while the dot runs up to `dotsInFlight` iterations behind.
bool staysWhileRunning(Value operand, scf::ForOp loop) {
  auto load = operand.getDefiningOp<gpu::LocalLoadOp>();
  if (!load || !load->hasAttr(kReadInPlaceAttrName))
    return true; // Registers: the dot holds its own values.
  Operation *alloc = gpu::getAllocation(load.getSrc());
  if (!alloc || loop->isAncestor(alloc))
    return false;
  if (!isWrittenIn(loop, alloc->getResult(0), /*copiesAllowed=*/false))
    return true;
  // A ring of the loop's pipeliner: read at the slot the loop carries,
  // written only by the copies it starts.
  Value view = load.getSrc();
  while (auto trans = view.getDefiningOp<gpu::MemDescTransOp>())
    view = trans.getSrc();
  auto slot = view.getDefiningOp<gpu::MemDescIndexOp>();
  auto index = slot ? dyn_cast<BlockArgument>(slot.getIndex()) : nullptr;
  return index && index.getOwner() == loop.getBody() &&
         slot.getSrc() == alloc->getResult(0) &&
         !isWrittenIn(loop, alloc->getResult(0), /*copiesAllowed=*/true);
}

struct AsyncWgmmaPass
    : public PassWrapper<AsyncWgmmaPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(AsyncWgmmaPass)

  StringRef getArgument() const final { return "tessera-nvptx-async-wgmma"; }
  StringRef getDescription() const final {
    return "Leave the accumulator wgmma dots of pipelined loops running "
           "into the next iteration";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<gpu::TesseraGPUDialect>();
  }

  void runOnOperation() override {
    getOperation().walk([&](scf::ForOp loop) {
      auto inFlight = loop->getAttrOfType<IntegerAttr>(kDotsInFlightAttrName);
      if (!inFlight || inFlight.getInt() < 1)
        return;
      SmallVector<unsigned> carried;
      for (auto dot : loop.getBody()->getOps<DotOp>()) {
        if (!matchMatrixDot(dot, "wgmma") || !isLoopAccumulatorDot(dot, loop) ||
            !staysWhileRunning(dot.getA(), loop) ||
            !staysWhileRunning(dot.getB(), loop))
          continue;
        dot->setAttr(kWgmmaPendingAttrName,
                     IntegerAttr::get(IntegerType::get(&getContext(), 32),
                                      inFlight.getInt()));
        carried.push_back(cast<BlockArgument>(dot.getC()).getArgNumber() - 1);
      }
      if (carried.empty())
        return;
      // Nothing after the loop reads the accumulators, or reuses the
      // buffers, before the dots are done.
      OpBuilder b(loop->getContext());
      b.setInsertionPointAfter(loop);
      SmallVector<Value> results;
      for (unsigned i : carried)
        results.push_back(loop.getResult(i));
      auto wait = gpu::DotWaitOp::create(b, loop.getLoc(), results, 0);
      for (auto [result, waited] : llvm::zip(results, wait.getOutputs()))
        result.replaceAllUsesExcept(waited, wait);
    });
  }
};

} // namespace

std::unique_ptr<Pass> nvptx::createAsyncWgmmaPass() {
  return std::make_unique<AsyncWgmmaPass>();
}
