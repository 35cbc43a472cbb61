//===- SinkMatrixLoads.cpp - Matrix loads next to the mma that reads them -===//
//
// The shared lowering reads a whole operand tile (every K step) before the
// dot computes, so all fragments are live at once: with 64-wide K tiles that
// is more than the 255 registers a thread has. Moving each ldmatrix, and
// the pure operations that unpack and repack its registers, down to the
// first instruction that uses them leaves only the current K step's
// fragments live (the dot runs K steps outermost); ptxas hides the latency
// (issuing loads several mma instructions early measured slower on an H100:
// more spills at 128x256x64). An ldmatrix never moves past an operation
// with any memory effect but another ldmatrix (stores, barriers, async
// copies and waits, and, more than needed, plain loads): it must read what
// it read where it was.
//
//===----------------------------------------------------------------------===//
#include "Pipeline.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Pass/Pass.h"

using namespace mlir;

namespace {

bool isMatrixLoad(Operation *op) {
  auto asmOp = dyn_cast<LLVM::InlineAsmOp>(op);
  return asmOp && asmOp.getAsmString().starts_with("ldmatrix");
}

/// Operations that may move down to their first use: pure ones other than
/// inline assembly (the mma order is the dot lowering's choice), and
/// matrix loads.
bool isSinkable(Operation *op) {
  if (isMatrixLoad(op))
    return true;
  return !isa<LLVM::InlineAsmOp>(op) && op->getNumRegions() == 0 &&
         !op->hasTrait<OpTrait::IsTerminator>() && isMemoryEffectFree(op);
}

/// The first operation of `op`'s block that uses one of its results, or
/// null when a use lies elsewhere or there is none.
Operation *getFirstUser(Operation *op) {
  Block *block = op->getBlock();
  Operation *first = nullptr;
  for (Operation *user : op->getUsers()) {
    Operation *local = block->findAncestorOpInBlock(*user);
    if (!local)
      return nullptr;
    if (!first || local->isBeforeInBlock(first))
      first = local;
  }
  return first;
}

void sinkInBlock(Block &block) {
  SmallVector<Operation *> ops;
  for (Operation &op : block)
    ops.push_back(&op);
  // Last first, so that users have reached their places before what they
  // use moves after them.
  for (Operation *op : llvm::reverse(ops)) {
    if (!isSinkable(op))
      continue;
    Operation *target = getFirstUser(op);
    if (!target || target == op->getNextNode())
      continue;
    if (isMatrixLoad(op)) {
      // Stop before anything that writes memory or synchronizes.
      for (Operation *next = op->getNextNode(); next != target;
           next = next->getNextNode()) {
        if (!isMemoryEffectFree(next) && !isMatrixLoad(next)) {
          target = next;
          break;
        }
      }
      if (target == op->getNextNode())
        continue;
    }
    op->moveBefore(target);
  }
}

struct SinkMatrixLoadsPass
    : public PassWrapper<SinkMatrixLoadsPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(SinkMatrixLoadsPass)

  StringRef getArgument() const final {
    return "tessera-nvptx-sink-matrix-loads";
  }

  void runOnOperation() override {
    getOperation().walk([](LLVM::LLVMFuncOp func) {
      for (Block &block : func.getBody())
        sinkInBlock(block);
    });
  }
};

} // namespace

std::unique_ptr<Pass> mlir::tessera::nvptx::createSinkMatrixLoadsPass() {
  return std::make_unique<SinkMatrixLoadsPass>();
}
