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
// target lets dots run n iterations behind (each thread's dots of
// iteration i having waited for those of i - n): the block then
// synchronizes and the copies S - 1 iterations ahead start at the end of
// each iteration, after its dots, into the slot of iteration i - n: the
// rings hold S + n - 1 slots, one fewer than starting the copies at the top
// of the iteration would need for as many in flight.
//
// A loop directly in a flattened tile loop (`tl.range(..., flatten=True)`:
// its iterations may overlap) of a persistent kernel, over bounds the same
// for every tile, whose copies' positions follow from the two induction
// variables, gets rings that live across the tile loop: the barriers are
// initialized once before it, the slot and phase go on from one tile to
// the next, and the copies S - 1 iterations ahead run over the loop nest's
// iterations in order (the loop's next iteration, else the first of the
// next tile, with the tile-dependent values of the copies' positions
// recomputed only then), so that the next tile's first copies are in
// flight while this tile's last iterations and its epilogue run. A copy
// is started only for an iteration of the nest; the block synchronizes and
// the barriers end after the tile loop.
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

  bool analyze(const SharedMemoryBudget &budget);
  void rewrite();

private:
  /// Where the copies S - 1 iterations ahead are, across tiles: the tile
  /// loop's induction variable, the loop's, and the `leaves` at that tile.
  struct Producer {
    Value tile, k;
    SmallVector<Value> leaves;
  };

  /// Takes the loop's tile loop (see the top of the file) when the copies
  /// may run ahead across its iterations and the rings fit there too.
  bool analyzeTileLoop(ArrayRef<RingBytes> rings,
                       ArrayRef<Operation *> replaced,
                       const SharedMemoryBudget &budget);
  /// Starts the copies of the iteration `map` holds the slice of into
  /// `slot` if `inRange`.
  void issue(OpBuilder &b, Value slot, Value inRange, const IRMapping &map);
  /// The slice cloned for `p`.
  IRMapping cloneProducer(OpBuilder &b, const Producer &p);
  /// The leaves at tile `tile` where `compute` holds, else `otherwise`
  /// (the tile may be past the end, where their divisions could divide by
  /// zero: they are computed only for tiles the tile loop runs).
  SmallVector<Value> cloneLeaves(OpBuilder &b, Value compute, Value tile,
                                 ValueRange otherwise);
  /// True where `p` is an iteration of the loop nest.
  Value producerInRange(OpBuilder &b, const Producer &p);
  /// The iteration after `p`: the next of the loop, else the first of the
  /// next tile (leaves recomputed only then).
  Producer advance(OpBuilder &b, const Producer &p);
  SmallVector<Value> pack(const Producer &p) const;
  Producer unpack(ValueRange values) const;

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
  /// The flattened loop around `loop` the rings live across, or null.
  scf::ForOp tileLoop;
  /// What the copies read of the tile loop's body (`leaves`, neither its
  /// induction variable nor defined outside it), and its slice over it.
  SmallVector<Value> leaves;
  std::optional<LoopSlice> tileSlice;
};

/// The i1 constant true.
Value createBoolConstant(OpBuilder &b, Location loc) {
  return arith::ConstantOp::create(b, loc, b.getBoolAttr(true));
}

/// True where `iv` is an induction variable `l` runs.
Value isInLoop(OpBuilder &b, Location loc, scf::ForOp l, Value iv) {
  return arith::CmpIOp::create(b, loc,
                               l.getUnsignedCmp() ? arith::CmpIPredicate::ult
                                                  : arith::CmpIPredicate::slt,
                               iv, l.getUpperBound());
}

bool TensorLoopPipeliner::analyze(const SharedMemoryBudget &budget) {
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
  // Dots n iterations behind need n - 1 spare slots: the copies start
  // after the dots (see the top of the file).
  std::optional<RingShape> shape =
      fitRings(stages, std::max(dotsInFlight - 1, 0), [&](int slots) {
        return ringsFit(loop, rings, slots, budget, replaced);
      });
  if (!shape)
    return false;
  stages = shape->stages;
  slots = shape->slots;
  if (dotsInFlight > 0)
    dotsInFlight = slots - stages + 1;
  for (Chain &c : chains)
    c.ringType = getRingType(c.load.getDst().getType(), slots);
  barrierRingType =
      getRingType(chains.front().load.getBarrier().getType(), slots);
  slice.sort();
  analyzeTileLoop(rings, replaced, budget);
  return true;
}

bool TensorLoopPipeliner::analyzeTileLoop(ArrayRef<RingBytes> rings,
                                          ArrayRef<Operation *> replaced,
                                          const SharedMemoryBudget &budget) {
  // A flattened loop directly around, whose every iteration runs the loop
  // over the same bounds, and copies whose positions follow from the two
  // induction variables alone (nothing carried), so that they are known
  // for any later tile.
  auto tiles = dyn_cast<scf::ForOp>(loop->getParentOp());
  if (!tiles || !tiles->hasAttr(kFlattenAttrName) ||
      !tiles.getInductionVar().getType().isInteger() ||
      !slice.getCarriedArgs().empty())
    return false;
  for (Value bound :
       {loop.getLowerBound(), loop.getUpperBound(), loop.getStep()})
    if (!tiles.isDefinedOutsideOfLoop(bound))
      return false;
  // The rings' barriers are initialized once, before the tile loop: the
  // loop must be its only one with copies, and the chains' maps and
  // barriers must exist there.
  for (Operation &op : tiles.getBody()->without_terminator())
    if (&op != loop.getOperation() && op.walk([](AsyncTensorLoadOp) {
                                          return WalkResult::interrupt();
                                        }).wasInterrupted())
      return false;
  for (Chain &c : chains)
    if (!tiles.isDefinedOutsideOfLoop(c.load.getMap()) ||
        tiles->isAncestor(c.barrier))
      return false;
  LoopSlice overTiles(tiles);
  SmallVector<Value> found;
  for (Value input : slice.getInputs()) {
    if (input == tiles.getInductionVar() || tiles.isDefinedOutsideOfLoop(input))
      continue;
    if (!input.getType().isIntOrIndex() || !overTiles.add(input))
      return false;
    found.push_back(input);
  }
  if (!overTiles.getCarriedArgs().empty() ||
      !ringsFit(tiles, rings, slots, budget, replaced))
    return false;
  overTiles.sort();
  tileLoop = tiles;
  leaves = std::move(found);
  tileSlice.emplace(std::move(overTiles));
  return true;
}

void TensorLoopPipeliner::issue(OpBuilder &b, Value slot, Value inRange,
                                const IRMapping &map) {
  Value barrier = getSlot(b, loop.getLoc(), barrierRing, slot);
  for (Chain &c : chains) {
    SmallVector<Value> indices;
    for (Value index : c.load.getIndices())
      indices.push_back(map.lookupOrDefault(index));
    Value tile = getSlot(b, c.load.getLoc(), c.ring, slot);
    AsyncTensorLoadOp::create(b, c.load.getLoc(), /*token=*/Type(),
                              c.load.getMap(), indices, tile, barrier, inRange);
  }
}

IRMapping TensorLoopPipeliner::cloneProducer(OpBuilder &b, const Producer &p) {
  IRMapping map;
  map.map(tileLoop.getInductionVar(), p.tile);
  for (auto [leaf, value] : llvm::zip(leaves, p.leaves))
    map.map(leaf, value);
  slice.clone(b, p.k, /*carried=*/{}, map);
  return map;
}

SmallVector<Value> TensorLoopPipeliner::cloneLeaves(OpBuilder &b, Value compute,
                                                    Value tile,
                                                    ValueRange otherwise) {
  Location loc = loop.getLoc();
  auto ifOp = scf::IfOp::create(b, loc, otherwise.getTypes(), compute,
                                /*withElseRegion=*/true);
  OpBuilder thenBuilder = ifOp.getThenBodyBuilder();
  IRMapping map;
  tileSlice->clone(thenBuilder, tile, /*carried=*/{}, map);
  scf::YieldOp::create(thenBuilder, loc,
                       llvm::map_to_vector(leaves, [&](Value leaf) {
                         return map.lookupOrDefault(leaf);
                       }));
  OpBuilder elseBuilder = ifOp.getElseBodyBuilder();
  scf::YieldOp::create(elseBuilder, loc, otherwise);
  return llvm::to_vector_of<Value>(ifOp.getResults());
}

Value TensorLoopPipeliner::producerInRange(OpBuilder &b, const Producer &p) {
  // Operands built one statement at a time: the order of the IR does not
  // depend on the compiler's order of evaluating arguments.
  Location loc = loop.getLoc();
  Value tileInRange = isInLoop(b, loc, tileLoop, p.tile);
  Value kInRange = isInLoop(b, loc, loop, p.k);
  return arith::AndIOp::create(b, loc, kInRange, tileInRange);
}

TensorLoopPipeliner::Producer TensorLoopPipeliner::advance(OpBuilder &b,
                                                           const Producer &p) {
  Location loc = loop.getLoc();
  Value k = advanceInductionVar(b, loc, p.k, loop.getStep(), 1);
  Value more = isInLoop(b, loc, loop, k);
  Value nextTile = advanceInductionVar(b, loc, p.tile, tileLoop.getStep(), 1);
  Producer next;
  next.k = arith::SelectOp::create(b, loc, more, k, loop.getLowerBound());
  next.tile = arith::SelectOp::create(b, loc, more, p.tile, nextTile);
  if (leaves.empty())
    return next;
  // The leaves (tile coordinates: divisions, often) change with the tile
  // only.
  Value nextInRange = isInLoop(b, loc, tileLoop, nextTile);
  Value wraps = arith::XOrIOp::create(b, loc, more, createBoolConstant(b, loc));
  Value newTile = arith::AndIOp::create(b, loc, wraps, nextInRange);
  next.leaves = cloneLeaves(b, newTile, nextTile, p.leaves);
  return next;
}

SmallVector<Value> TensorLoopPipeliner::pack(const Producer &p) const {
  SmallVector<Value> values{p.tile, p.k};
  llvm::append_range(values, p.leaves);
  return values;
}

TensorLoopPipeliner::Producer
TensorLoopPipeliner::unpack(ValueRange values) const {
  return {values[0], values[1], llvm::to_vector(values.drop_front(2))};
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
  // buffers right before the loop, or the tile loop they live across (their
  // bytes may serve others before it). Each copy's issuing thread arrives
  // once, and the barriers start at phase 0 for every run of that loop.
  OpBuilder b(chains.front().barrier);
  barrierRing = LocalAllocOp::create(b, chains.front().barrier.getLoc(),
                                     barrierRingType, Value());
  b.setInsertionPoint(tileLoop ? tileLoop : loop);
  for (int s = 0; s < slots; ++s)
    InitBarrierOp::create(
        b, loc, getSlot(b, loc, barrierRing, createI32Constant(b, loc, s)),
        int32_t(chains.size()));
  BarrierOp::create(b, loc);
  for (Chain &c : chains)
    c.ring = LocalAllocOp::create(b, c.buffer.getLoc(), c.ringType, Value());

  // Prologue: iterations 0 .. S-2 into slots 0 .. S-2; what computes the
  // copies ahead (the slice's carried values, or the producer's place in
  // the loop nest) advancing with them.
  SmallVector<Value> ahead;
  if (tileLoop) {
    Producer p{tileLoop.getLowerBound(), loop.getLowerBound(), {}};
    SmallVector<Value> zeros = llvm::map_to_vector(leaves, [&](Value leaf) {
      return Value(
          arith::ConstantOp::create(b, loc, b.getZeroAttr(leaf.getType())));
    });
    p.leaves =
        cloneLeaves(b, isInLoop(b, loc, tileLoop, p.tile), p.tile, zeros);
    for (int s = 0; s + 1 < stages; ++s) {
      IRMapping map = cloneProducer(b, p);
      issue(b, createI32Constant(b, loc, s), producerInRange(b, p), map);
      p = advance(b, p);
    }
    ahead = pack(p);
  } else {
    ahead = slice.clonePrologue(b, stages - 1,
                                [&](int s, Value iv, const IRMapping &map) {
                                  issue(b, createI32Constant(b, loc, s),
                                        isInLoop(b, loc, loop, iv), map);
                                });
  }

  // The loops carry the slot the loop reads with its barrier's phase, the
  // slot it writes and what is ahead.
  SmallVector<Value> state{createI32Constant(b, loc, 0),
                           createI32Constant(b, loc, 0),
                           createI32Constant(b, loc, stages - 1)};
  llvm::append_range(state, ahead);
  unsigned tileArgs = 0;
  if (tileLoop) {
    SmallVector<Value> inits(tileLoop.getInitArgs());
    tileArgs = inits.size();
    llvm::append_range(inits, state);
    tileLoop = rebuildLoopWithInits(tileLoop, inits);
    tileSlice->setLoop(tileLoop);
    state = llvm::to_vector_of<Value>(
        tileLoop.getRegionIterArgs().drop_front(tileArgs));
  }
  SmallVector<Value> inits(loop.getInitArgs());
  unsigned loopArgs = inits.size();
  llvm::append_range(inits, state);
  scf::ForOp newLoop = rebuildLoopWithInits(loop, inits);
  Block *newBody = newLoop.getBody();
  loop = newLoop;
  slice.setLoop(newLoop);
  auto yield = cast<scf::YieldOp>(newBody->getTerminator());
  ValueRange carriedState = newLoop.getRegionIterArgs().drop_front(loopArgs);
  Value readSlot = carriedState[0];
  Value readPhase = carriedState[1];
  Value writeSlot = carriedState[2];

  // Top of each iteration: its copies landed. Then every thread is done
  // with the slot the copies S-1 iterations ahead take: at the top, the
  // previous iteration's; with dots n iterations behind, after the dots,
  // that of iteration i - n.
  b.setInsertionPointToStart(newBody);
  Location waitLoc = chains.front().wait.getLoc();
  WaitBarrierOp::create(b, waitLoc, getSlot(b, waitLoc, barrierRing, readSlot),
                        readPhase);
  if (dotsInFlight > 0)
    b.setInsertionPoint(yield);
  BarrierOp::create(b, loc);
  SmallVector<Value> nextAhead;
  if (tileLoop) {
    Producer p = unpack(carriedState.drop_front(3));
    IRMapping map = cloneProducer(b, p);
    issue(b, writeSlot, producerInRange(b, p), map);
    nextAhead = pack(advance(b, p));
  } else {
    Value iv = advanceInductionVar(b, loc, newLoop.getInductionVar(),
                                   newLoop.getStep(), stages - 1);
    IRMapping map;
    slice.clone(b, iv, carriedState.drop_front(3), map);
    issue(b, writeSlot, isInLoop(b, loc, loop, iv), map);
    nextAhead = slice.getNextCarried(map);
  }

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
  yields.push_back(nextRingSlot(b, loc, readSlot, slots));
  yields.push_back(nextRingPhase(b, loc, readSlot, readPhase, slots));
  yields.push_back(nextRingSlot(b, loc, writeSlot, slots));
  llvm::append_range(yields, nextAhead);
  yield->setOperands(yields);
  slice.dropDeadCarriedUpdates();
  if (dotsInFlight > 0)
    newLoop->setAttr(kDotsInFlightAttrName, b.getI32IntegerAttr(dotsInFlight));
  if (tileLoop) {
    // The tile loop passes the state on from one run of the loop to the
    // next.
    Operation *tileYield = tileLoop.getBody()->getTerminator();
    SmallVector<Value> tileYields(tileYield->getOperands());
    llvm::append_range(tileYields, newLoop.getResults().drop_front(loopArgs));
    tileYield->setOperands(tileYields);
  }

  // After the loop (no copy in flight: those past the end were not
  // started), once every thread is done with the rings, the barriers end.
  b.setInsertionPointAfter(tileLoop ? tileLoop : newLoop);
  BarrierOp::create(b, loc);
  for (int s = 0; s < slots; ++s)
    InvalBarrierOp::create(
        b, loc, getSlot(b, loc, barrierRing, createI32Constant(b, loc, s)));
}

} // namespace

bool mlir::tessera::pipelineTensorLoads(scf::ForOp loop, int stages,
                                        int dotsInFlight,
                                        const SharedMemoryBudget &budget) {
  TensorLoopPipeliner pipeliner(loop, stages, dotsInFlight);
  if (!pipeliner.analyze(budget))
    return false;
  pipeliner.rewrite();
  return true;
}
