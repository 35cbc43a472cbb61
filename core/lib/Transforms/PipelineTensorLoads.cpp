//===- PipelineTensorLoads.cpp - Rings of tensor-map copies in loops ------===//
//
// A target with tensor-memory copies (a copy engine moving whole blocks
// through a tensor map) leaves each block load of a loop as a chain:
//
//   barrier                                  (the buffer is free again)
//   %t = async_tensor_load %map[...], %buf, %bar
//   wait_barrier %bar, %t
//   ... local_load %buf ...                  (next to the dots)
//
// with %buf and %bar allocated before the loop. Each iteration then waits
// for a copy it has just started. For a loop of S stages the chains become
// rings of S buffers, and their barriers one ring of S barriers that all
// copies of an iteration complete: before the loop the ring of barriers is
// initialized (again, in an enclosing loop) and the copies of iterations
// 0 .. S-2 start; iteration i waits for its own copies (by the phase's
// parity, which the loop carries with the slot: only the thread that
// starts a copy arrives, and no thread holds a token), synchronizes the
// block (every thread is done with iteration i - 1, so its slot is free),
// starts the copies of iteration i + S - 1 into that slot and computes on
// slot i % S while S - 1 iterations of copies are in flight. The copies of
// iterations past the end are not started (each copy is predicated on its
// iteration being one; a loop of run-time bounds may run once, as causal
// attention's diagonal loop, or not at all), so every copy started is
// waited for in the loop; after it the block synchronizes and the ring of
// barriers is invalidated.
//
// The block synchronization is what frees a slot, so the dots that read a
// slot must be complete at the end of their iteration (synchronous matrix
// instructions, or asynchronous ones waited for by then) -- unless the
// target lets dots run n iterations behind: the rings then hold S + n
// slots, and the copy into the slot of iteration i starts only in
// iteration i + n + 1, after its block synchronization.
//
//===----------------------------------------------------------------------===//
#include "PipelineTensorLoads.h"

#include "LoopSlice.h"

#include "tessera/Dialect/TesseraGPU/IR/Dialect.h"
#include "tessera/Transforms/PipelineLoads.h"

#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tessera;
using namespace mlir::tessera::gpu;

namespace {

/// One tensor-map copy of a loop and what belongs to it.
struct Chain {
  /// The block synchronization that frees the buffer; may be null.
  BarrierOp fence;
  AsyncTensorLoadOp load;
  WaitBarrierOp wait;
  /// The reads of the copied block.
  SmallVector<LocalLoadOp> reads;
  LocalAllocOp buffer, barrier;
  InitBarrierOp init;
  /// The ring that replaces `buffer`.
  MemDescType ringType;
  Value ring;
};

/// Swizzled buffers are placed 1024-byte aligned; a ring's slots stay so
/// when each slot is a multiple of that.
constexpr uint64_t kSlotAlignment = 1024;

/// The chain of `load` in `loop`'s body, when the copy is one the loop
/// alone uses as described at the top of the file.
std::optional<Chain> matchChain(scf::ForOp loop, AsyncTensorLoadOp load) {
  Block *body = loop.getBody();
  Chain chain;
  chain.load = load;
  chain.buffer = load.getDst().getDefiningOp<LocalAllocOp>();
  chain.barrier = load.getBarrier().getDefiningOp<LocalAllocOp>();
  if (!chain.buffer || !chain.barrier || chain.buffer.getSrc() ||
      loop->isAncestor(chain.buffer) || loop->isAncestor(chain.barrier) ||
      !loop.isDefinedOutsideOfLoop(load.getMap()) || !load.getToken() ||
      !load.getToken().hasOneUse())
    return std::nullopt;
  chain.wait = dyn_cast<WaitBarrierOp>(*load.getToken().user_begin());
  if (!chain.wait || chain.wait->getBlock() != body ||
      chain.wait.getBarrier() != load.getBarrier())
    return std::nullopt;
  for (Operation *user : chain.barrier->getUsers()) {
    if (user == load || user == chain.wait)
      continue;
    auto init = dyn_cast<InitBarrierOp>(user);
    if (!init || chain.init || loop->isAncestor(init))
      return std::nullopt;
    chain.init = init;
  }
  if (!chain.init)
    return std::nullopt;
  for (Operation *user : chain.buffer->getUsers()) {
    if (user == load)
      continue;
    auto read = dyn_cast<LocalLoadOp>(user);
    if (!read || read->getBlock() != body || !chain.wait->isBeforeInBlock(read))
      return std::nullopt;
    chain.reads.push_back(read);
  }
  chain.fence = dyn_cast_or_null<BarrierOp>(load->getPrevNode());
  MemDescType tile = load.getDst().getType();
  uint64_t bytes =
      tile.getNumElements() * tile.getElementType().getIntOrFloatBitWidth() / 8;
  if (bytes % kSlotAlignment != 0)
    return std::nullopt;
  return chain;
}

/// The type of a ring of `stages` buffers of `type`.
MemDescType getRingType(MemDescType type, int stages) {
  SmallVector<int64_t> shape{stages};
  llvm::append_range(shape, type.getShape());
  return MemDescType::get(type.getContext(), shape, type.getElementType(),
                          type.getEncoding(), /*mutableMemory=*/true);
}

/// Slot `slot` of `ring`.
Value getSlot(OpBuilder &b, Location loc, Value ring, Value slot) {
  auto type = cast<MemDescType>(ring.getType());
  auto slotType =
      MemDescType::get(type.getContext(), type.getShape().drop_front(),
                       type.getElementType(), type.getEncoding(),
                       /*mutableMemory=*/true);
  return MemDescIndexOp::create(b, loc, slotType, ring, slot);
}

class TensorLoopPipeliner {
public:
  TensorLoopPipeliner(scf::ForOp loop, int stages, int dotsInFlight)
      : loop(loop), stages(stages), dotsInFlight(dotsInFlight), slice(loop) {}

  bool analyze(uint64_t budget, uint64_t laterBytes);
  void rewrite();

private:
  /// Starts the copies of the iteration `map` holds the slice of into
  /// `slot`, if `iv` (that iteration's induction variable) is below the
  /// loop's upper bound.
  void issue(OpBuilder &b, Value slot, Value iv, const IRMapping &map);

  scf::ForOp loop;
  int stages;
  /// Iterations the dots may run behind; the rings' slots beyond `stages`.
  int dotsInFlight;
  int slots = 0;
  SmallVector<Chain> chains;
  /// The ring of barriers the copies of an iteration complete.
  MemDescType barrierRingType;
  Value barrierRing;
  LoopSlice slice;
};

bool TensorLoopPipeliner::analyze(uint64_t budget, uint64_t laterBytes) {
  std::optional<int64_t> step = getConstantIntValue(loop.getStep());
  if (!step || *step <= 0 || !loop.getInductionVar().getType().isInteger())
    return false;
  Block *body = loop.getBody();
  for (auto load : body->getOps<AsyncTensorLoadOp>()) {
    std::optional<Chain> chain = matchChain(loop, load);
    if (!chain)
      return false;
    chains.push_back(std::move(*chain));
  }
  if (chains.empty())
    return false;
  // Starting copies early is only right when the loop writes no memory
  // they might read and touches no buffer but its chains'.
  llvm::DenseSet<Operation *> owned;
  for (Chain &c : chains) {
    owned.insert(c.load);
    owned.insert(c.wait);
    if (c.fence)
      owned.insert(c.fence);
    for (LocalLoadOp read : c.reads)
      owned.insert(read);
  }
  for (Operation &op : body->without_terminator())
    if (!owned.contains(&op) && !isMemoryEffectFree(&op) &&
        !isa<ConvertLayoutOp>(op))
      return false;
  for (Chain &c : chains)
    for (Value index : c.load.getIndices())
      if (!slice.add(index))
        return false;
  for (Chain &c : chains)
    for (LocalLoadOp read : c.reads)
      if (slice.reads(read))
        return false;

  // The rings: as many stages as fit, in place of the chains' buffers and
  // barriers: the rings of buffers right before the loop, the ring of
  // barriers where the first chain's barrier was.
  SmallVector<RingBytes> rings;
  SmallVector<Operation *> replaced;
  rings.push_back({8, chains.front().barrier, gpu::kBufferAlignment});
  for (Chain &c : chains) {
    MemDescType tile = c.load.getDst().getType();
    rings.push_back({uint64_t(tile.getNumElements()) *
                     tile.getElementType().getIntOrFloatBitWidth() / 8});
    replaced.push_back(c.buffer);
    replaced.push_back(c.barrier);
  }
  std::optional<RingShape> shape =
      fitRings(stages, dotsInFlight, [&](int slots) {
        return ringsFit(loop, rings, slots, budget, laterBytes, replaced);
      });
  if (!shape)
    return false;
  stages = shape->stages;
  slots = shape->slots;
  dotsInFlight = slots - stages;
  for (Chain &c : chains)
    c.ringType = getRingType(c.load.getDst().getType(), slots);
  barrierRingType =
      getRingType(chains.front().load.getBarrier().getType(), slots);
  slice.sort();
  return true;
}

void TensorLoopPipeliner::issue(OpBuilder &b, Value slot, Value iv,
                                const IRMapping &map) {
  Location loc = loop.getLoc();
  Value inRange =
      arith::CmpIOp::create(b, loc,
                            loop.getUnsignedCmp() ? arith::CmpIPredicate::ult
                                                  : arith::CmpIPredicate::slt,
                            iv, loop.getUpperBound());
  Value barrier = getSlot(b, loc, barrierRing, slot);
  for (Chain &c : chains) {
    SmallVector<Value> indices;
    for (Value index : c.load.getIndices())
      indices.push_back(map.lookupOrDefault(index));
    Value tile = getSlot(b, c.load.getLoc(), c.ring, slot);
    AsyncTensorLoadOp::create(b, c.load.getLoc(), /*token=*/Type(),
                              c.load.getMap(), indices, tile, barrier, inRange);
  }
}

/// The parity of the barrier phase the slot after `slot` waits for: it
/// flips where the ring of `slots` wraps around.
Value nextRingPhase(OpBuilder &b, Location loc, Value slot, Value phase,
                    int slots) {
  Value last = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, slot,
                                     createI32Constant(b, loc, slots - 1));
  Value flip = arith::ExtUIOp::create(b, loc, b.getI32Type(), last);
  return arith::XOrIOp::create(b, loc, phase, flip);
}

void TensorLoopPipeliner::rewrite() {
  Location loc = loop.getLoc();
  // The ring of barriers where the first chain's barrier was; the rings of
  // buffers right before the loop (their bytes may serve others before
  // it). Each copy's issuing thread arrives once, and the barriers start
  // at phase 0 for every run of the loop (an enclosing loop runs it again).
  OpBuilder b(chains.front().barrier);
  barrierRing = LocalAllocOp::create(b, chains.front().barrier.getLoc(),
                                     barrierRingType, Value());
  b.setInsertionPoint(loop);
  for (int s = 0; s < slots; ++s)
    InitBarrierOp::create(
        b, loc, getSlot(b, loc, barrierRing, createI32Constant(b, loc, s)),
        int32_t(chains.size()));
  BarrierOp::create(b, loc);
  for (Chain &c : chains)
    c.ring = LocalAllocOp::create(b, c.buffer.getLoc(), c.ringType, Value());

  // Prologue: iterations 0 .. S-2 into slots 0 .. S-2, the carried values
  // advancing with them.
  ArrayRef<unsigned> carriedArgs = slice.getCarriedArgs();
  SmallVector<Value> carried = slice.clonePrologue(
      b, stages - 1, [&](int s, Value iv, const IRMapping &map) {
        issue(b, createI32Constant(b, loc, s), iv, map);
      });

  // The loop carries the values S-1 iterations ahead, the slot it reads
  // with its barrier's phase, and the slot it writes.
  SmallVector<Value> inits(loop.getInitArgs());
  unsigned firstAhead = inits.size();
  llvm::append_range(inits, carried);
  unsigned readSlotIndex = inits.size();
  inits.push_back(createI32Constant(b, loc, 0));
  inits.push_back(createI32Constant(b, loc, 0));
  inits.push_back(createI32Constant(b, loc, stages - 1));
  scf::ForOp newLoop = rebuildLoopWithInits(loop, inits);
  Block *newBody = newLoop.getBody();
  loop = newLoop;
  slice.setLoop(newLoop);
  auto yield = cast<scf::YieldOp>(newBody->getTerminator());
  ValueRange ahead =
      newLoop.getRegionIterArgs().slice(firstAhead, carriedArgs.size());
  Value readSlot = newLoop.getRegionIterArgs()[readSlotIndex];
  Value readPhase = newLoop.getRegionIterArgs()[readSlotIndex + 1];
  Value writeSlot = newLoop.getRegionIterArgs()[readSlotIndex + 2];

  // Top of each iteration: its copies landed; every thread is done with
  // the previous iteration, whose slot the copies S-1 iterations ahead
  // take.
  b.setInsertionPointToStart(newBody);
  Location waitLoc = chains.front().wait.getLoc();
  WaitBarrierOp::create(b, waitLoc, getSlot(b, waitLoc, barrierRing, readSlot),
                        readPhase);
  BarrierOp::create(b, loc);
  Value iv = advanceInductionVar(b, loc, newLoop.getInductionVar(),
                                 newLoop.getStep(), stages - 1);
  IRMapping map;
  slice.clone(b, iv, ahead, map);
  issue(b, writeSlot, iv, map);

  // The reads take this iteration's slot; the chains' own copies go.
  for (Chain &c : chains) {
    for (LocalLoadOp read : c.reads) {
      b.setInsertionPoint(read);
      read.getSrcMutable().assign(getSlot(b, read.getLoc(), c.ring, readSlot));
    }
    c.wait->erase();
    c.load->erase();
    if (c.fence)
      c.fence->erase();
    c.init->erase();
    c.buffer->erase();
    c.barrier->erase();
  }

  b.setInsertionPoint(yield);
  SmallVector<Value> yields(yield.getOperands());
  llvm::append_range(yields, slice.getNextCarried(map));
  yields.push_back(nextRingSlot(b, loc, readSlot, slots));
  yields.push_back(nextRingPhase(b, loc, readSlot, readPhase, slots));
  yields.push_back(nextRingSlot(b, loc, writeSlot, slots));
  yield->setOperands(yields);
  slice.dropDeadCarriedUpdates();
  if (dotsInFlight > 0)
    newLoop->setAttr(kDotsInFlightAttrName, b.getI32IntegerAttr(dotsInFlight));

  // After the loop (no copy in flight: those past the end were not
  // started), once every thread is done with the rings, the barriers end.
  b.setInsertionPointAfter(newLoop);
  BarrierOp::create(b, loc);
  for (int s = 0; s < slots; ++s)
    InvalBarrierOp::create(
        b, loc, getSlot(b, loc, barrierRing, createI32Constant(b, loc, s)));
}

} // namespace

bool mlir::tessera::pipelineTensorLoads(scf::ForOp loop, int stages,
                                        int dotsInFlight, uint64_t budget,
                                        uint64_t laterBytes) {
  TensorLoopPipeliner pipeliner(loop, stages, dotsInFlight);
  if (!pipeliner.analyze(budget, laterBytes))
    return false;
  pipeliner.rewrite();
  return true;
}
