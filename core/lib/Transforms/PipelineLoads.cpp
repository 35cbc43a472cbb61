//===- PipelineLoads.cpp - Software pipelining of a loop's loads ----------===//
//
// For a loop of S stages, each load whose value goes (through one layout
// conversion) into dots gets a ring of S shared buffers. Before the loop,
// the copies of iterations 0 .. S-2 start, one commit group per iteration.
// Iteration i then waits until only the S-2 younger groups are pending,
// synchronizes the block (every thread's copies are visible, and every
// thread is done reading the slot written next), reads slot i % S in the
// dot's layout, computes, and starts the copy of iteration i + S - 1 into
// the slot of iteration i - 1. Copies past the end are masked off (they
// write zeros and are drained after the loop; a block barrier then frees
// the rings' bytes for what follows, see SharedMemoryPlan.h).
//
// A target whose dots may run n iterations behind their own (an
// asynchronous matrix unit) gets n more slots in the rings of a loop with
// an accumulator dot: the copy into the slot of iteration i then starts at
// the end of iteration i + n + 1, after its barrier, and the loop carries
// kDotsInFlightAttrName.
//
// What a load of iteration j reads is recomputed from its operands' slice:
// pure operations of the loop body over the induction variable, values
// from outside and loop-carried values whose updates are such slices too
// (the pointers advanced by a constant each iteration). Those carried
// values get a copy that runs S - 1 iterations ahead; the originals, left
// with no reader, are dropped by canonicalization.
//
//===----------------------------------------------------------------------===//
#include "tessera/Transforms/PipelineLoads.h"

#include "LoopSlice.h"
#include "PipelineTensorLoads.h"

#include "tessera/Analysis/AxisInfo.h"
#include "tessera/Conversion/TesseraGPUToLLVM.h"
#include "tessera/Dialect/Tessera/IR/Dialect.h"
#include "tessera/Dialect/TesseraGPU/IR/Dialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::tessera;
using namespace mlir::tessera::gpu;

namespace {

/// One load to pipeline.
struct Candidate {
  LoadOp load;
  /// The conversion into the dots' operand layout.
  ConvertLayoutOp convert;
  /// The ring of buffers, one per stage.
  MemDescType bufferType;
  /// The load's threads run down the columns of a 2-D tile (dimension 0
  /// contiguous), so the ring stores it column by column.
  bool columnMajor = false;
};

/// Bytes of an element in memory.
uint64_t getBytes(Type element) {
  return std::max<uint64_t>(1, element.getIntOrFloatBitWidth() / 8);
}

/// The swizzled row-major layout of a tile of `shape` with `bytes`-byte
/// elements: 16-byte groups, eight consecutive rows in eight different
/// groups of banks (the layout matrix loads read without conflicts). Rows
/// longer than 128 bytes are stored in blocks of 128 bytes, so that every
/// block is the 32/64/128-byte swizzle pattern of matrix units that read
/// shared memory through descriptors.
SwizzledSharedAttr getTileLayout(MLIRContext *ctx, ArrayRef<int64_t> shape,
                                 uint64_t bytes) {
  int64_t last = shape.back();
  int64_t vec = std::max<int64_t>(1, std::min<int64_t>(last, 16 / bytes));
  int64_t groups = last / vec;
  SmallVector<unsigned> order;
  for (int d = int(shape.size()) - 1; d >= 0; --d)
    order.push_back(d);
  unsigned blockCols = groups > 8 ? unsigned(8 * vec) : 0;
  return SwizzledSharedAttr::get(ctx, vec, std::max<int64_t>(1, 8 / groups),
                                 std::min<int64_t>(groups, 8), order, {},
                                 blockCols);
}

/// The layout of a 2-D tile of `shape` stored column by column: the
/// row-major layout of its transpose, viewed back (order [0, 1]).
SwizzledSharedAttr
getColumnTileLayout(MLIRContext *ctx, ArrayRef<int64_t> shape, uint64_t bytes) {
  SwizzledSharedAttr rows = getTileLayout(ctx, {shape[1], shape[0]}, bytes);
  return SwizzledSharedAttr::get(ctx, rows.getVec(), rows.getPerPhase(),
                                 rows.getMaxPhase(), {0, 1}, {},
                                 rows.getBlockCols());
}

/// True when `value` is zero: a zero constant, or +0.0 converted to another
/// float format (an fp8 `other=0.0`, which nothing folds), all-zero bits in
/// every format.
bool isZero(Value value) {
  if (matchPattern(value, m_AnyZeroFloat()) || matchPattern(value, m_Zero()))
    return true;
  auto convert = value.getDefiningOp<FpToFpOp>();
  return convert && matchPattern(convert.getSrc(), m_PosZeroFloat());
}

/// The dot-feeding load behind `op`, when it is one the pass can start
/// early: a masked or unmasked load of a rank-2 block of pointers, its
/// threads running along rows, whose only use converts it into the operand
/// layout of dots.
std::optional<Candidate> matchCandidate(LoadOp load) {
  auto type = dyn_cast<RankedTensorType>(load.getType());
  if (!type || type.getRank() != 2 || !type.getEncoding() ||
      !isa<RankedTensorType>(load.getPtr().getType()) || load.getIsVolatile() ||
      !load.getResult().hasOneUse() || !type.getElementType().isIntOrFloat())
    return std::nullopt;
  // The ring follows the threads: row-major where they run along the rows,
  // column-major for a 2-D tile whose threads run down the columns (a
  // K-major B), so that copies stay contiguous on both sides. Other orders
  // keep their registers-and-exchange path.
  auto blocked = dyn_cast<BlockedAttr>(type.getEncoding());
  if (!blocked)
    return std::nullopt;
  bool columnMajor = type.getRank() == 2 && blocked.getOrder().front() == 0;
  if (blocked.getOrder().front() != type.getRank() - 1 && !columnMajor)
    return std::nullopt;
  auto convert = dyn_cast<ConvertLayoutOp>(*load->user_begin());
  if (!convert || convert->getBlock() != load->getBlock() ||
      convert->use_empty() ||
      !llvm::all_of(convert->getUsers(), [&](Operation *user) {
        auto dot = dyn_cast<DotOp>(user);
        return dot && dot.getC() != convert.getResult();
      }))
    return std::nullopt;
  return Candidate{load, convert, MemDescType(), columnMajor};
}

/// Bytes one thread's access of `load` moves, as the lowering will vector
/// it: the thread's run of elements along the fastest dimension, cut to
/// the run the pointers (and the mask) are known to keep aligned.
uint64_t getAccessBytes(LoadOp load, const ModuleAxisInfoAnalysis &axis) {
  auto type = cast<RankedTensorType>(load.getType());
  auto blocked = cast<BlockedAttr>(type.getEncoding());
  SmallVector<unsigned> order(blocked.getOrder());
  uint64_t vec = std::min<uint64_t>(
      blocked.getSizePerThread()[order.front()],
      axis.getAccessAlignment(load.getPtr(), load.getMask(), order));
  return std::max<uint64_t>(1, vec) * getBytes(type.getElementType());
}

class LoopPipeliner {
public:
  LoopPipeliner(scf::ForOp loop, int stages, int dotsInFlight,
                const llvm::DenseSet<Operation *> &narrow)
      : loop(loop), stages(stages), dotsInFlight(dotsInFlight), narrow(narrow),
        slice(loop) {}

  /// Collects what to pipeline; false when the loop does not qualify.
  bool analyze(const SharedMemoryBudget &budget);
  /// Rewrites the loop.
  void rewrite();

private:
  /// Starts the copies of one iteration (through `map`) into `slot`, masked
  /// off unless `iv` < the upper bound, and commits them.
  void issueCopies(OpBuilder &b, Value iv, Value slot, const IRMapping &map);

  scf::ForOp loop;
  int stages;
  /// Iterations the dots may run behind; the rings' slots beyond `stages`.
  int dotsInFlight;
  /// Loads too narrow to pipeline (PipelineLoadsOptions::minCopyBytes).
  const llvm::DenseSet<Operation *> &narrow;
  int slots = 0;
  SmallVector<Candidate> candidates;
  /// Body operations the copies' operands depend on.
  LoopSlice slice;
  SmallVector<Value> buffers;
};

bool LoopPipeliner::analyze(const SharedMemoryBudget &budget) {
  Block *body = loop.getBody();
  // A step that is a positive constant: "iteration j" is lb + j * step.
  std::optional<int64_t> step = getConstantIntValue(loop.getStep());
  if (!step || *step <= 0 || !loop.getInductionVar().getType().isInteger())
    return false;
  for (Operation &op : body->without_terminator()) {
    // Starting reads early is only right when the loop writes no memory
    // they might read.
    if (!isa<LoadOp>(op) && !isMemoryEffectFree(&op) &&
        !isa<ConvertLayoutOp>(op))
      return false;
    if (auto load = dyn_cast<LoadOp>(op))
      if (std::optional<Candidate> c = matchCandidate(load))
        if (!narrow.contains(load))
          candidates.push_back(*c);
  }
  if (candidates.empty())
    return false;
  for (Candidate &c : candidates) {
    for (Value operand : c.load->getOperands())
      if (!slice.add(operand))
        return false;
  }
  // The slice must not read what the loop loads.
  if (llvm::any_of(candidates,
                   [&](Candidate &c) { return slice.reads(c.load); }))
    return false;

  // The rings: as many stages as fit next to what shared memory already
  // holds. The rings' reads replace the conversions.
  SmallVector<RingBytes> rings;
  SmallVector<Operation *> replaced;
  for (Candidate &c : candidates) {
    auto type = cast<RankedTensorType>(c.load.getType());
    rings.push_back({type.getNumElements() * getBytes(type.getElementType())});
    replaced.push_back(c.convert);
  }
  std::optional<RingShape> shape =
      fitRings(stages, dotsInFlight, [&](int slots) {
        return ringsFit(loop, rings, slots, budget, replaced);
      });
  if (!shape)
    return false;
  stages = shape->stages;
  slots = shape->slots;
  dotsInFlight = slots - stages;
  MLIRContext *ctx = loop.getContext();
  for (Candidate &c : candidates) {
    auto type = cast<RankedTensorType>(c.load.getType());
    SmallVector<int64_t> shape{slots};
    llvm::append_range(shape, type.getShape());
    uint64_t bytes = getBytes(type.getElementType());
    c.bufferType = MemDescType::get(
        ctx, shape, type.getElementType(),
        c.columnMajor ? getColumnTileLayout(ctx, type.getShape(), bytes)
                      : getTileLayout(ctx, type.getShape(), bytes),
        /*mutableMemory=*/true);
  }
  slice.sort();
  return true;
}

void LoopPipeliner::issueCopies(OpBuilder &b, Value iv, Value slot,
                                const IRMapping &map) {
  Location loc = loop.getLoc();
  MLIRContext *ctx = b.getContext();
  Value inRange = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, iv,
                                        loop.getUpperBound());
  SmallVector<Value> tokens;
  for (auto [c, buffer] : llvm::zip(candidates, buffers)) {
    auto ptrType = cast<RankedTensorType>(c.load.getPtr().getType());
    auto maskType = RankedTensorType::get(ptrType.getShape(), b.getI1Type(),
                                          ptrType.getEncoding());
    Value mask = SplatOp::create(b, loc, maskType, inRange);
    if (Value original = c.load.getMask())
      mask = arith::AndIOp::create(b, loc, map.lookupOrDefault(original), mask);
    // Masked-off elements of a copy are zero; another `other` is kept (the
    // lowering then copies those synchronously).
    Value other = c.load.getOther();
    if (other && isZero(other))
      other = Value();
    auto tileType = MemDescType::get(ctx, c.bufferType.getShape().drop_front(),
                                     c.bufferType.getElementType(),
                                     c.bufferType.getEncoding(), true);
    Value tile = MemDescIndexOp::create(b, loc, tileType, buffer, slot);
    tokens.push_back(AsyncCopyGlobalToLocalOp::create(
        b, loc, AsyncTokenType::get(ctx), map.lookupOrDefault(c.load.getPtr()),
        tile, mask, other ? map.lookupOrDefault(other) : Value(),
        c.load.getCache(), c.load.getEvict(), /*isVolatile=*/false));
  }
  AsyncCommitGroupOp::create(b, loc, AsyncTokenType::get(ctx), tokens);
}

void LoopPipeliner::rewrite() {
  Location loc = loop.getLoc();
  MLIRContext *ctx = loop.getContext();
  OpBuilder b(loop);
  for (Candidate &c : candidates)
    buffers.push_back(LocalAllocOp::create(b, loc, c.bufferType, Value()));

  // Prologue: iterations 0 .. S-2, the carried values advancing with them.
  SmallVector<Value> carried = slice.clonePrologue(
      b, stages - 1, [&](int s, Value iv, const IRMapping &map) {
        issueCopies(b, iv, createI32Constant(b, loc, s), map);
      });

  // The loop carries the values S-1 iterations ahead and the two slots.
  SmallVector<Value> inits(loop.getInitArgs());
  unsigned firstAhead = inits.size();
  llvm::append_range(inits, carried);
  inits.push_back(createI32Constant(b, loc, 0));
  inits.push_back(createI32Constant(b, loc, stages - 1));
  scf::ForOp newLoop = rebuildLoopWithInits(loop, inits);
  Block *newBody = newLoop.getBody();
  auto yield = cast<scf::YieldOp>(newBody->getTerminator());
  size_t numAhead = slice.getCarriedArgs().size();
  ValueRange ahead = newLoop.getRegionIterArgs().slice(firstAhead, numAhead);
  Value readSlot = newLoop.getRegionIterArgs()[firstAhead + numAhead];
  Value writeSlot = newLoop.getRegionIterArgs()[firstAhead + numAhead + 1];
  // The pipeliner's slice is now in the new body.
  loop = newLoop;
  slice.setLoop(newLoop);

  // Top of each iteration: this iteration's tile has landed everywhere.
  b.setInsertionPointToStart(newBody);
  AsyncWaitOp::create(b, loc, AsyncTokenType::get(ctx), ValueRange(),
                      stages - 2);
  BarrierOp::create(b, loc);

  // Read each tile where its conversion was, in the dots' layout.
  for (auto [c, buffer] : llvm::zip(candidates, buffers)) {
    b.setInsertionPoint(c.convert);
    auto tileType = MemDescType::get(ctx, c.bufferType.getShape().drop_front(),
                                     c.bufferType.getElementType(),
                                     c.bufferType.getEncoding(), true);
    Value tile = MemDescIndexOp::create(b, loc, tileType, buffer, readSlot);
    auto read = LocalLoadOp::create(b, c.convert.getLoc(), c.convert.getType(),
                                    tile, Value());
    c.convert.getResult().replaceAllUsesWith(read.getResult());
  }

  // Start iteration i + S - 1's copies at the end of the iteration: the
  // reads above stay next to the dots (a target may move them down to
  // their uses, but never past a copy into shared memory).
  b.setInsertionPoint(yield);
  Value iv = advanceInductionVar(b, loc, newLoop.getInductionVar(),
                                 newLoop.getStep(), stages - 1);
  IRMapping map;
  slice.clone(b, iv, ahead, map);
  issueCopies(b, iv, writeSlot, map);
  SmallVector<Value> yields(yield.getOperands());
  llvm::append_range(yields, slice.getNextCarried(map));
  b.setInsertionPoint(yield);
  yields.push_back(nextRingSlot(b, loc, readSlot, slots));
  yields.push_back(nextRingSlot(b, loc, writeSlot, slots));
  yield->setOperands(yields);
  if (dotsInFlight > 0)
    newLoop->setAttr(kDotsInFlightAttrName, b.getI32IntegerAttr(dotsInFlight));

  for (Candidate &c : candidates) {
    c.convert->erase();
    c.load->erase();
  }
  // The carried values the copies ran ahead of may have no reader left but
  // their own update; passing them through unchanged lets canonicalization
  // drop them.
  slice.dropDeadCarriedUpdates();

  // Masked-off copies past the end still write their zeros: drain them
  // before the buffers go, and let every thread finish with them, so that
  // what comes after may take their bytes.
  b.setInsertionPointAfter(newLoop);
  AsyncWaitOp::create(b, loc, AsyncTokenType::get(ctx), ValueRange(), 0);
  for (Value buffer : buffers)
    LocalDeallocOp::create(b, loc, buffer);
  BarrierOp::create(b, loc);
}

} // namespace

bool mlir::tessera::isLoopAccumulatorDot(Operation *op, scf::ForOp loop) {
  auto dot = dyn_cast<DotOp>(op);
  if (!dot || dot->getParentOp() != loop)
    return false;
  auto arg = dyn_cast<BlockArgument>(dot.getC());
  if (!arg || arg.getOwner() != loop.getBody() || arg.getArgNumber() == 0 ||
      !arg.hasOneUse() || !dot.getResult().hasOneUse())
    return false;
  OpOperand &use = *dot.getResult().use_begin();
  return use.getOwner() == loop.getBody()->getTerminator() &&
         use.getOperandNumber() + 1 == arg.getArgNumber();
}

uint64_t mlir::tessera::estimateSharedMemoryBytes(
    Operation *root, ArrayRef<gpu::PlannedBuffer> planned,
    ArrayRef<Operation *> replaced,
    llvm::function_ref<bool(Operation *)> laterDropped) {
  auto scratch = [&](Operation *op) -> uint64_t {
    if (auto cvt = dyn_cast<ConvertLayoutOp>(op)) {
      if (laterDropped && laterDropped(op))
        return 0;
      auto type = cast<RankedTensorType>(cvt.getType());
      Type element = type.getElementType();
      uint64_t bytes = element.isIntOrFloat() ? getBytes(element) : 8;
      return type.getNumElements() * bytes;
    }
    return getSharedScratchBytes(op);
  };
  return gpu::planSharedMemory(root, scratch, planned, replaced).total();
}

namespace {

class PipelineLoadsPass
    : public PassWrapper<PipelineLoadsPass, OperationPass<ModuleOp>> {
public:
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(PipelineLoadsPass)

  PipelineLoadsPass() = default;
  PipelineLoadsPass(const PipelineLoadsPass &other)
      : PassWrapper(other), laterBytes(other.laterBytes),
        laterDropped(other.laterDropped) {}
  explicit PipelineLoadsPass(PipelineLoadsOptions options)
      : laterBytes(std::move(options.laterSharedMemoryBytes)),
        laterDropped(std::move(options.laterDroppedConversion)) {
    numStages = options.numStages;
    sharedMemory = options.sharedMemoryBytes;
    dotsInFlight = options.dotsInFlight;
    minCopyBytes = options.minCopyBytes;
  }

  StringRef getArgument() const final { return "tessera-pipeline-loads"; }
  StringRef getDescription() const final {
    return "Start the dot operand loads of loops stages-1 iterations ahead "
           "through shared memory";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<TesseraGPUDialect, arith::ArithDialect, scf::SCFDialect>();
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    // Innermost loops first; an enclosing loop is then not innermost.
    SmallVector<scf::ForOp> loops;
    module.walk([&](scf::ForOp loop) {
      if (loop.getBody()
              ->walk([](scf::ForOp) { return WalkResult::interrupt(); })
              .wasInterrupted())
        return;
      loops.push_back(loop);
    });
    // What later stages add is known from the loops and dots as they are
    // before any ring exists (a ring changes neither).
    SharedMemoryBudget budget{sharedMemory, reservedSharedMemory, {}};
    if (laterBytes && !loops.empty())
      budget.laterBytes += laterBytes(module);
    if (laterDropped)
      budget.laterDropped = laterDropped;
    // Widths are read before any loop changes, while the analysis still
    // describes the IR.
    llvm::DenseSet<Operation *> narrow;
    if (minCopyBytes > 0 && !loops.empty()) {
      ModuleAxisInfoAnalysis &axis = getAnalysis<ModuleAxisInfoAnalysis>();
      for (scf::ForOp loop : loops)
        for (auto load : loop.getBody()->getOps<LoadOp>())
          if (matchCandidate(load) && getAccessBytes(load, axis) < minCopyBytes)
            narrow.insert(load);
    }
    for (scf::ForOp loop : loops) {
      int stages = numStages;
      if (auto attr = loop->getAttrOfType<IntegerAttr>(kNumStagesAttrName))
        stages = attr.getInt();
      if (stages < 2)
        continue;
      // Extra slots only where a dot could run behind its iteration.
      int inFlight = 0;
      if (dotsInFlight > 0 &&
          llvm::any_of(loop.getBody()->getOps<DotOp>(), [&](DotOp dot) {
            return isLoopAccumulatorDot(dot, loop);
          }))
        inFlight = dotsInFlight;
      if (pipelineTensorLoads(loop, stages, inFlight, budget))
        continue;
      LoopPipeliner pipeliner(loop, stages, inFlight, narrow);
      if (!pipeliner.analyze(budget))
        continue;
      pipeliner.rewrite();
    }
  }

private:
  Option<int> numStages{*this, "num-stages",
                        llvm::cl::desc("Stages of loops without their own"),
                        llvm::cl::init(3)};
  Option<uint64_t> sharedMemory{
      *this, "shared-memory",
      llvm::cl::desc("Shared memory a block may use (bytes, 0: no limit)"),
      llvm::cl::init(0)};
  Option<int> dotsInFlight{
      *this, "dots-in-flight",
      llvm::cl::desc("Iterations dots may run behind their own (extra ring "
                     "slots of loops with an accumulator dot)"),
      llvm::cl::init(0)};
  Option<unsigned> minCopyBytes{
      *this, "min-copy-bytes",
      llvm::cl::desc("Loads whose per-thread accesses move fewer bytes are "
                     "not pipelined (0: every width is)"),
      llvm::cl::init(0)};
  Option<uint64_t> reservedSharedMemory{
      *this, "reserved-shared-memory",
      llvm::cl::desc("Shared memory (bytes) later stages will add, counted "
                     "against the limit"),
      llvm::cl::init(0)};
  std::function<uint64_t(Operation *)> laterBytes;
  std::function<bool(Operation *)> laterDropped;
};

} // namespace

std::unique_ptr<Pass>
mlir::tessera::createPipelineLoadsPass(PipelineLoadsOptions options) {
  return std::make_unique<PipelineLoadsPass>(options);
}

void mlir::tessera::registerPipelineLoadsPass() {
  PassRegistration<PipelineLoadsPass>();
}
