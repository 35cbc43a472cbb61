//===- LoopSlice.cpp - What a loop iteration's copies are computed from ---===//
#include "LoopSlice.h"

#include "tessera/Dialect/TesseraGPU/IR/SharedMemoryPlan.h"
#include "tessera/Transforms/PipelineLoads.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::tessera;

namespace {
/// True when loop-carried value `index` is read by nothing but pure
/// operations that only compute its own next value, and the loop's result
/// is unused.
bool isDeadCycle(scf::ForOp loop, unsigned index) {
  if (!loop.getResult(index).use_empty())
    return false;
  Operation *yield = loop.getBody()->getTerminator();
  SmallVector<Value> work{loop.getRegionIterArg(index)};
  llvm::DenseSet<Operation *> seen;
  while (!work.empty()) {
    Value value = work.pop_back_val();
    for (OpOperand &use : value.getUses()) {
      Operation *user = use.getOwner();
      if (user == yield) {
        if (use.getOperandNumber() != index)
          return false;
        continue;
      }
      if (user->getBlock() != loop.getBody() || user->getNumRegions() != 0 ||
          !isMemoryEffectFree(user))
        return false;
      if (seen.insert(user).second)
        llvm::append_range(work, user->getResults());
    }
  }
  return true;
}
} // namespace

bool LoopSlice::add(Value value) {
  Block *body = loop.getBody();
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    if (arg.getOwner() != body)
      inputs.insert(value);
    if (arg.getOwner() != body || arg == loop.getInductionVar())
      return true;
    unsigned index = arg.getArgNumber() - 1;
    if (!carriedArgs.insert(index))
      return true;
    // A carried value is known ahead only when its update is a slice too.
    return add(body->getTerminator()->getOperand(index));
  }
  Operation *def = value.getDefiningOp();
  // Values from outside the loop are the same in every iteration.
  if (def->getBlock() != body) {
    inputs.insert(value);
    return true;
  }
  if (ops.contains(def))
    return true;
  if (def->getNumRegions() != 0 || !isMemoryEffectFree(def))
    return false;
  for (Value operand : def->getOperands())
    if (!add(operand))
      return false;
  ops.insert(def);
  return true;
}

bool LoopSlice::reads(Value value) const {
  return llvm::any_of(ops, [&](Operation *op) {
    return llvm::is_contained(op->getOperands(), value);
  });
}

void LoopSlice::sort() {
  SmallVector<Operation *> ordered(ops.begin(), ops.end());
  llvm::sort(ordered,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  ops = llvm::SetVector<Operation *>(ordered.begin(), ordered.end());
}

void LoopSlice::clone(OpBuilder &b, Value iv, ValueRange carried,
                      IRMapping &map) {
  map.map(loop.getInductionVar(), iv);
  for (auto [index, value] : llvm::zip(carriedArgs, carried))
    map.map(loop.getRegionIterArg(index), value);
  for (Operation *op : ops)
    b.clone(*op, map);
}

scf::ForOp mlir::tessera::rebuildLoopWithInits(scf::ForOp loop,
                                               ValueRange inits) {
  OpBuilder b(loop);
  auto newLoop =
      scf::ForOp::create(b, loop.getLoc(), loop.getLowerBound(),
                         loop.getUpperBound(), loop.getStep(), inits);
  newLoop->setAttrs(loop->getAttrs());
  Block *newBody = newLoop.getBody();
  Block *oldBody = loop.getBody();
  newBody->getOperations().splice(newBody->end(), oldBody->getOperations());
  for (auto [oldArg, newArg] : llvm::zip(
           oldBody->getArguments(),
           newBody->getArguments().take_front(oldBody->getNumArguments())))
    oldArg.replaceAllUsesWith(newArg);
  loop.replaceAllUsesWith(
      newLoop.getResults().take_front(loop.getNumResults()));
  loop.erase();
  return newLoop;
}

SmallVector<Value> LoopSlice::getNextCarried(const IRMapping &map) {
  SmallVector<Value> next;
  for (unsigned index : carriedArgs)
    next.push_back(map.lookupOrDefault(
        loop.getBody()->getTerminator()->getOperand(index)));
  return next;
}

SmallVector<Value> LoopSlice::clonePrologue(
    OpBuilder &b, int count,
    llvm::function_ref<void(int, Value, const IRMapping &)> issue) {
  SmallVector<Value> carried;
  for (unsigned index : carriedArgs)
    carried.push_back(loop.getInitArgs()[index]);
  for (int i = 0; i < count; ++i) {
    Value iv = advanceInductionVar(b, loop.getLoc(), loop.getLowerBound(),
                                   loop.getStep(), i);
    IRMapping map;
    clone(b, iv, carried, map);
    issue(i, iv, map);
    carried = getNextCarried(map);
  }
  return carried;
}

void LoopSlice::dropDeadCarriedUpdates() {
  Operation *yield = loop.getBody()->getTerminator();
  for (unsigned index : carriedArgs)
    if (isDeadCycle(loop, index))
      yield->setOperand(index, loop.getRegionIterArg(index));
}

Value mlir::tessera::createI32Constant(OpBuilder &b, Location loc,
                                       int64_t value) {
  return arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(value));
}

Value mlir::tessera::advanceInductionVar(OpBuilder &b, Location loc, Value base,
                                         Value step, int64_t count) {
  Value n = arith::ConstantOp::create(b, loc,
                                      b.getIntegerAttr(base.getType(), count));
  return arith::AddIOp::create(b, loc, base,
                               arith::MulIOp::create(b, loc, step, n));
}

Value mlir::tessera::nextRingSlot(OpBuilder &b, Location loc, Value slot,
                                  int stages) {
  Value next =
      arith::AddIOp::create(b, loc, slot, createI32Constant(b, loc, 1));
  Value wrap = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, next,
                                     createI32Constant(b, loc, stages));
  return arith::SelectOp::create(b, loc, wrap, createI32Constant(b, loc, 0),
                                 next);
}

std::optional<RingShape>
mlir::tessera::fitRings(int stages, int dotsInFlight,
                        llvm::function_ref<bool(int slots)> fits) {
  for (int extra : {dotsInFlight, 0}) {
    int s = stages;
    while (s > 2 && !fits(s + extra))
      --s;
    if (fits(s + extra))
      return RingShape{s, s + extra};
  }
  return std::nullopt;
}

bool mlir::tessera::ringsFit(scf::ForOp loop, ArrayRef<RingBytes> rings,
                             int slots, const SharedMemoryBudget &budget,
                             ArrayRef<Operation *> replaced) {
  if (budget.limit == 0)
    return true;
  SmallVector<gpu::PlannedBuffer> planned;
  for (const RingBytes &ring : rings)
    planned.push_back({loop, ring.slotBytes * uint64_t(slots), ring.alignment,
                       /*barrierAfter=*/true, ring.start});
  auto module = loop->getParentOfType<ModuleOp>();
  Operation *root = module ? module.getOperation() : loop->getParentOp();
  return budget.laterBytes + estimateSharedMemoryBytes(root, planned, replaced,
                                                       budget.laterDropped) <=
         budget.limit;
}
