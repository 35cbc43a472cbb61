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
// rings of S buffers and S barriers: before the loop the copies of
// iterations 0 .. S-2 start; iteration i waits for its own copy (the
// arrival token of the copy travels in the loop's carried values),
// synchronizes the block (every thread is done with iteration i - 1, so its
// slot is free), starts the copy of iteration i + S - 1 into that slot and
// computes on slot i % S while S - 1 copies are in flight. Copies past the
// end still run (a tensor map reads blocks outside the tensor as its
// padding, without touching memory) and are waited for after the loop.
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
  /// The rings that replace `buffer` and `barrier`.
  MemDescType ringType, barrierRingType;
  Value ring, barrierRing;
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
      !loop.isDefinedOutsideOfLoop(load.getMap()) ||
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
  /// `slot`, returning their tokens (one per chain).
  SmallVector<Value> issue(OpBuilder &b, Value slot, const IRMapping &map);

  scf::ForOp loop;
  int stages;
  /// Iterations the dots may run behind; the rings' slots beyond `stages`.
  int dotsInFlight;
  int slots = 0;
  SmallVector<Chain> chains;
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
  // barriers: the rings of buffers right before the loop, the rings of
  // barriers where the barriers were (their initialization stays there).
  SmallVector<RingBytes> rings;
  SmallVector<Operation *> replaced;
  for (Chain &c : chains) {
    MemDescType tile = c.load.getDst().getType();
    rings.push_back({uint64_t(tile.getNumElements()) *
                     tile.getElementType().getIntOrFloatBitWidth() / 8});
    rings.push_back({8, c.barrier, gpu::kBufferAlignment});
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
  for (Chain &c : chains) {
    c.ringType = getRingType(c.load.getDst().getType(), slots);
    c.barrierRingType = getRingType(c.load.getBarrier().getType(), slots);
  }
  slice.sort();
  return true;
}

SmallVector<Value> TensorLoopPipeliner::issue(OpBuilder &b, Value slot,
                                              const IRMapping &map) {
  SmallVector<Value> tokens;
  for (Chain &c : chains) {
    Location loc = c.load.getLoc();
    SmallVector<Value> indices;
    for (Value index : c.load.getIndices())
      indices.push_back(map.lookupOrDefault(index));
    // One statement each: the order of the ops must not depend on the
    // compiler's order of evaluating arguments.
    Value barrier = getSlot(b, loc, c.barrierRing, slot);
    Value tile = getSlot(b, loc, c.ring, slot);
    tokens.push_back(AsyncTensorLoadOp::create(
        b, loc, b.getI64Type(), c.load.getMap(), indices, tile, barrier));
  }
  return tokens;
}

void TensorLoopPipeliner::rewrite() {
  Location loc = loop.getLoc();
  // The rings of buffers right before the loop (their bytes may serve
  // others before it), the rings of barriers where the barriers were, each
  // initialized where the one it replaces was.
  for (Chain &c : chains) {
    OpBuilder b(loop);
    c.ring = LocalAllocOp::create(b, c.buffer.getLoc(), c.ringType, Value());
    b.setInsertionPoint(c.barrier);
    c.barrierRing =
        LocalAllocOp::create(b, c.barrier.getLoc(), c.barrierRingType, Value());
    b.setInsertionPoint(c.init);
    for (int s = 0; s < slots; ++s)
      InitBarrierOp::create(b, c.init.getLoc(),
                            getSlot(b, c.init.getLoc(), c.barrierRing,
                                    createI32Constant(b, c.init.getLoc(), s)),
                            c.init.getCount());
    c.init->erase();
  }

  // Prologue: iterations 0 .. S-2, the carried values advancing with them.
  OpBuilder b(loop);
  ArrayRef<unsigned> carriedArgs = slice.getCarriedArgs();
  // tokens[s][c]: the copy of iteration s for chain c.
  SmallVector<SmallVector<Value>> tokens;
  SmallVector<Value> carried = slice.clonePrologue(
      b, stages - 1, [&](int s, Value, const IRMapping &map) {
        tokens.push_back(issue(b, createI32Constant(b, loc, s), map));
      });

  // The loop carries the values S-1 iterations ahead, the tokens of the
  // copies in flight and the two slots.
  SmallVector<Value> inits(loop.getInitArgs());
  unsigned firstAhead = inits.size();
  llvm::append_range(inits, carried);
  unsigned firstToken = inits.size();
  for (auto &iteration : tokens)
    llvm::append_range(inits, iteration);
  unsigned readSlotIndex = inits.size();
  inits.push_back(createI32Constant(b, loc, 0));
  inits.push_back(createI32Constant(b, loc, stages - 1));
  scf::ForOp newLoop = rebuildLoopWithInits(loop, inits);
  Block *newBody = newLoop.getBody();
  loop = newLoop;
  slice.setLoop(newLoop);
  auto yield = cast<scf::YieldOp>(newBody->getTerminator());
  ValueRange ahead =
      newLoop.getRegionIterArgs().slice(firstAhead, carriedArgs.size());
  size_t numChains = chains.size();
  ValueRange inFlight =
      newLoop.getRegionIterArgs().slice(firstToken, numChains * (stages - 1));
  Value readSlot = newLoop.getRegionIterArgs()[readSlotIndex];
  Value writeSlot = newLoop.getRegionIterArgs()[readSlotIndex + 1];

  // Top of each iteration: its copies landed; every thread is done with
  // the previous iteration, whose slot the copies S-1 iterations ahead
  // take.
  b.setInsertionPointToStart(newBody);
  for (auto [c, chain] : llvm::enumerate(chains))
    WaitBarrierOp::create(b, chain.wait.getLoc(),
                          getSlot(b, loc, chain.barrierRing, readSlot),
                          inFlight[c]);
  BarrierOp::create(b, loc);
  Value iv = advanceInductionVar(b, loc, newLoop.getInductionVar(),
                                 newLoop.getStep(), stages - 1);
  IRMapping map;
  slice.clone(b, iv, ahead, map);
  SmallVector<Value> started = issue(b, writeSlot, map);

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
    c.buffer->erase();
    c.barrier->erase();
  }

  b.setInsertionPoint(yield);
  SmallVector<Value> yields(yield.getOperands());
  llvm::append_range(yields, slice.getNextCarried(map));
  // The tokens move one iteration down: the oldest was waited for above.
  for (int s = 1; s + 1 < stages; ++s)
    for (size_t c = 0; c < numChains; ++c)
      yields.push_back(inFlight[s * numChains + c]);
  llvm::append_range(yields, started);
  yields.push_back(nextRingSlot(b, loc, readSlot, slots));
  yields.push_back(nextRingSlot(b, loc, writeSlot, slots));
  yield->setOperands(yields);
  slice.dropDeadCarriedUpdates();
  if (dotsInFlight > 0)
    newLoop->setAttr(kDotsInFlightAttrName, b.getI32IntegerAttr(dotsInFlight));

  // After the loop: the copies still in flight (past the end) land before
  // the buffers are reused, and every thread is done with the rings.
  b.setInsertionPointAfter(newLoop);
  Value slot = newLoop.getResult(readSlotIndex);
  for (int s = 0; s + 1 < stages; ++s) {
    for (auto [c, chain] : llvm::enumerate(chains))
      WaitBarrierOp::create(b, loc, getSlot(b, loc, chain.barrierRing, slot),
                            newLoop.getResult(firstToken + s * numChains + c));
    if (s + 2 < stages)
      slot = nextRingSlot(b, loc, slot, slots);
  }
  BarrierOp::create(b, loc);
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
