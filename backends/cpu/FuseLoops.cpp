//===- FuseLoops.cpp - One loop for a block's elementwise operations ------===//
//
// After bufferization a 1-D kernel is a sequence of loops over the block,
// one per block operation that is not fused at the tensor level (each load
// and store through a block of pointers is its own loop, and each generic
// between them), with a buffer between every two: vector add ran about ten
// passes over 1024-element buffers per program, masks stored as bytes
// one by one. This pass fuses consecutive loops of one iteration space into
// one when it is legal, then forwards each element stored to a buffer to
// the loads of the same element after it and removes buffers nothing reads:
// the kernel becomes one loop over registers, which LLVM vectorizes.
//
// Legality, for loop B fused into the loop A before it:
//  - the same bounds and step, no results, no nested loops;
//  - the operations between them can move above A (pure, their operands
//    defined before A, or allocations);
//  - every buffer one writes and the other accesses is accessed at the
//    induction variable only (element i depends on element i);
//  - global memory (LLVM loads and stores, atomics, calls): A may read it
//    and B write it, but if A writes it B must not access it. A block's
//    loads and stores of different elements through overlapping pointers
//    are unordered in Triton (on a GPU each thread holds some elements), so
//    interleaving A's reads with B's writes keeps every element's order;
//    a write followed by a read of another element is what a barrier
//    (tl.debug_barrier, which stands between the loops) orders.
//
//===----------------------------------------------------------------------===//
#include "Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Dominance.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "mlir/Pass/Pass.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace mlir;
using namespace mlir::tessera;

namespace {

/// What one loop's body does to memory.
struct LoopAccesses {
  /// Buffers (memref.alloca) read or written, and whether every access is
  /// at the induction variable.
  llvm::SetVector<Value> reads, writes;
  llvm::DenseSet<Value> notAtIv;
  bool globalRead = false, globalWrite = false;
  /// An operation the analysis cannot place (a nested loop, an effect it
  /// does not know): the loop fuses with nothing.
  bool opaque = false;

  /// Adds what a loop fused into this one does: its accesses at its
  /// induction variable are at this loop's after the fusion, so the fused
  /// loop's body need not be walked again.
  void merge(const LoopAccesses &other) {
    reads.insert(other.reads.begin(), other.reads.end());
    writes.insert(other.writes.begin(), other.writes.end());
    notAtIv.insert(other.notAtIv.begin(), other.notAtIv.end());
    globalRead |= other.globalRead;
    globalWrite |= other.globalWrite;
    opaque |= other.opaque;
  }
};

/// A loop that may be fused: no results, and a body of one block.
bool isCandidate(scf::ForOp loop) {
  return loop.getNumResults() == 0 && loop.getRegion().hasOneBlock();
}

/// Whether `buffer` (or a view of it) is used otherwise than by loads,
/// stores and views.
bool escapes(Value buffer) {
  for (Operation *user : buffer.getUsers()) {
    if (isa<memref::LoadOp, memref::StoreOp>(user))
      continue;
    if (auto view = dyn_cast<ViewLikeOpInterface>(user))
      if (view.getViewSource() == buffer && !escapes(user->getResult(0)))
        continue;
    return true;
  }
  return false;
}

/// Records the access of `op` to `memref` at `indices`. A view of a buffer
/// (a subview, a cast) is an access to the buffer whose element is not
/// known: never at the induction variable.
void recordBuffer(LoopAccesses &acc, scf::ForOp loop, Value memref,
                  ValueRange indices, bool write) {
  Value root = memref;
  bool viewed = false;
  while (auto view = root.getDefiningOp<ViewLikeOpInterface>()) {
    root = view.getViewSource();
    viewed = true;
  }
  // A buffer whose address escapes (to a call, a pointer) may be accessed
  // through it at any element: global memory as far as order goes.
  if (!root.getDefiningOp<memref::AllocaOp>() || escapes(root)) {
    (write ? acc.globalWrite : acc.globalRead) = true;
    return;
  }
  (write ? acc.writes : acc.reads).insert(root);
  if (viewed || indices.size() != 1 || indices[0] != loop.getInductionVar())
    acc.notAtIv.insert(root);
}

LoopAccesses analyze(scf::ForOp loop) {
  LoopAccesses acc;
  loop.getBody()->walk([&](Operation *op) {
    if (isa<scf::ForOp, scf::WhileOp, scf::ParallelOp>(op)) {
      acc.opaque = true;
      return WalkResult::interrupt();
    }
    if (auto load = dyn_cast<memref::LoadOp>(op)) {
      recordBuffer(acc, loop, load.getMemRef(), load.getIndices(), false);
      return WalkResult::advance();
    }
    if (auto store = dyn_cast<memref::StoreOp>(op)) {
      recordBuffer(acc, loop, store.getMemRef(), store.getIndices(), true);
      return WalkResult::advance();
    }
    if (isa<LLVM::LoadOp>(op)) {
      acc.globalRead = true;
      return WalkResult::advance();
    }
    // scf.if's own effects are its body's, which the walk visits. (Traits
    // are not asked: their TypeIDs differ between this library and libMLIR
    // when different compilers built them.)
    if (isa<scf::IfOp, scf::YieldOp>(op) || isMemoryEffectFree(op))
      return WalkResult::advance();
    // Stores, atomics, calls and whatever else touches memory: a global
    // write, which orders the loop against every other global access.
    acc.globalWrite = true;
    acc.globalRead = true;
    return WalkResult::advance();
  });
  return acc;
}

/// Whether `second` may run interleaved with `first`, element by element.
bool canFuse(const LoopAccesses &first, const LoopAccesses &second) {
  if (first.opaque || second.opaque)
    return false;
  if (first.globalWrite && (second.globalRead || second.globalWrite))
    return false;
  auto elementwise = [&](Value buffer) {
    return !first.notAtIv.contains(buffer) && !second.notAtIv.contains(buffer);
  };
  for (Value buffer : first.writes)
    if ((second.reads.contains(buffer) || second.writes.contains(buffer)) &&
        !elementwise(buffer))
      return false;
  for (Value buffer : second.writes)
    if (first.reads.contains(buffer) && !elementwise(buffer))
      return false;
  return true;
}

bool sameBounds(scf::ForOp a, scf::ForOp b) {
  return a.getLowerBound() == b.getLowerBound() &&
         a.getUpperBound() == b.getUpperBound() && a.getStep() == b.getStep();
}

/// Whether `op` (between two loops) may move above `loop`, with the ops in
/// `moving` (before it) moved too.
bool canHoistAbove(Operation *op, scf::ForOp loop,
                   const llvm::SmallPtrSetImpl<Operation *> &moving,
                   DominanceInfo &dom) {
  if (op->getNumRegions())
    return false;
  if (!isa<memref::AllocaOp>(op) && !isMemoryEffectFree(op))
    return false;
  return llvm::all_of(op->getOperands(), [&](Value v) {
    Operation *def = v.getDefiningOp();
    return (def && moving.contains(def)) || dom.properlyDominates(v, loop);
  });
}

/// Moves `second`'s body to the end of `first`'s.
void fuseInto(scf::ForOp first, scf::ForOp second) {
  Block *from = second.getBody();
  Block *to = first.getBody();
  from->getArgument(0).replaceAllUsesWith(first.getInductionVar());
  Operation *terminator = to->getTerminator();
  for (Operation &op : llvm::make_early_inc_range(from->without_terminator()))
    op.moveBefore(terminator);
  second.erase();
}

/// Fuses the candidate loops of `block`, in order.
void fuseLoopsIn(Block &block, DominanceInfo &dom) {
  scf::ForOp current;
  LoopAccesses currentAccesses;
  SmallVector<Operation *> between;
  for (Operation &op : llvm::make_early_inc_range(block)) {
    auto loop = dyn_cast<scf::ForOp>(&op);
    if (!loop || !isCandidate(loop)) {
      if (current)
        between.push_back(&op);
      continue;
    }
    LoopAccesses accesses = analyze(loop);
    bool fusable = current && sameBounds(current, loop) &&
                   canFuse(currentAccesses, accesses);

    if (fusable) {
      llvm::SmallPtrSet<Operation *, 8> moving;
      for (Operation *mid : between) {
        if (!canHoistAbove(mid, current, moving, dom)) {
          fusable = false;
          break;
        }
        moving.insert(mid);
      }
    }
    if (!fusable) {
      current = loop;
      currentAccesses = std::move(accesses);
      between.clear();
      continue;
    }
    for (Operation *mid : between)
      mid->moveBefore(current);
    between.clear();
    fuseInto(current, loop);
    currentAccesses.merge(accesses);
  }
}

/// Fuses the loops of `block`, then of the blocks nested in what is left: a
/// kernel's loops over a block may sit in the body of a loop of its own
/// (over a row's columns, a persistent loop). Fusing first means no block
/// visited belongs to a loop fusion erased.
void fuseLoopsBelow(Block &block, DominanceInfo &dom) {
  fuseLoopsIn(block, dom);
  for (Operation &op : block)
    for (Region &region : op.getRegions())
      for (Block &nested : region)
        fuseLoopsBelow(nested, dom);
}

/// In the body of `loop`, a load of a buffer at the induction variable
/// after a store of that element takes the stored value; then buffers that
/// only are stored to (nothing reads them any more) are removed.
void forwardStores(scf::ForOp loop) {
  Value iv = loop.getInductionVar();
  llvm::DenseMap<Value, Value> stored;
  auto atIv = [&](ValueRange indices) {
    return indices.size() == 1 && indices[0] == iv;
  };
  for (Operation &op :
       llvm::make_early_inc_range(loop.getBody()->getOperations())) {
    if (auto store = dyn_cast<memref::StoreOp>(op)) {
      if (atIv(store.getIndices()))
        stored[store.getMemRef()] = store.getValueToStore();
      else
        stored.erase(store.getMemRef());
      continue;
    }
    // A store at a nested level (under a mask) may or may not happen.
    op.walk([&](memref::StoreOp nested) { stored.erase(nested.getMemRef()); });
    auto load = dyn_cast<memref::LoadOp>(op);
    if (load && atIv(load.getIndices())) {
      auto it = stored.find(load.getMemRef());
      if (it != stored.end()) {
        load.getResult().replaceAllUsesWith(it->second);
        load.erase();
      }
    }
  }
}

/// Removes allocations whose only uses are stores.
void removeWriteOnlyBuffers(Operation *root) {
  SmallVector<memref::AllocaOp> allocas;
  root->walk([&](memref::AllocaOp op) { allocas.push_back(op); });
  for (memref::AllocaOp alloca : allocas) {
    bool writeOnly = llvm::all_of(alloca->getUses(), [&](OpOperand &use) {
      auto store = dyn_cast<memref::StoreOp>(use.getOwner());
      return store && store.getMemRef() == alloca.getResult();
    });
    if (!writeOnly)
      continue;
    for (Operation *user : llvm::make_early_inc_range(alloca->getUsers()))
      user->erase();
    alloca.erase();
  }
}

struct FuseLoopsPass
    : public PassWrapper<FuseLoopsPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(FuseLoopsPass)

  StringRef getArgument() const final { return "tessera-cpu-fuse-loops"; }
  StringRef getDescription() const final {
    return "Fuse consecutive loops over a block's elements where legal, "
           "forward stored elements to later loads and drop buffers nothing "
           "reads";
  }

  void runOnOperation() override {
    DominanceInfo dom(getOperation());
    getOperation().walk([&](func::FuncOp func) {
      for (Block &block : func.getBody())
        fuseLoopsBelow(block, dom);
      func.walk([&](scf::ForOp loop) {
        if (isCandidate(loop))
          forwardStores(loop);
      });
      removeWriteOnlyBuffers(func);
    });
  }
};

} // namespace

std::unique_ptr<Pass> cpu::createFuseLoopsPass() {
  return std::make_unique<FuseLoopsPass>();
}
