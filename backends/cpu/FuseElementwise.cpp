//===- FuseElementwise.cpp - Fusing the elementwise ops of a block --------===//
//
// cpu-to-structured turns every elementwise op of a block into its own
// linalg.generic over the whole block, and every splat into a linalg.fill.
// Left so, a kernel of N block ops became N loops and N buffers: One-Shot
// Bufferize's conflict analysis over the chain of in-place updates, and
// LLVM's machine scheduler over the straight-line code the fully unrolled
// loops form, both took time quadratic in N (400 chained adds: 46 s, 1.1
// GB). This pass folds fills into their users as scalars and fuses each
// identity-mapped elementwise generic into its only user, so that a chain
// of elementwise ops is one loop whose body grows with the chain. Last, it
// gives each user of a tensor.empty its own (see splitSharedEmptyTensors).
//
//===----------------------------------------------------------------------===//
#include "Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

using namespace mlir;
using namespace mlir::tessera;

namespace {

/// A generic on tensors with one result whose loops are all parallel and
/// whose operands are all indexed by the identity: element i of the result
/// depends on element i of the operands only.
bool isSimpleElementwise(linalg::GenericOp op) {
  if (!op.hasPureTensorSemantics() || op->getNumResults() != 1 ||
      op.getNumDpsInits() != 1 || op.getNumParallelLoops() != op.getNumLoops())
    return false;
  return llvm::all_of(op.getIndexingMapsArray(),
                      [](AffineMap map) { return map.isIdentity(); });
}

/// Like isSimpleElementwise, except that inputs may also be read along a
/// subset of the dimensions with the others fixed (`(d0, d1) -> (d0, 0)`,
/// what tessera.broadcast lowers to): element i of the result depends on
/// one element of each input, found by the input's map.
bool isBroadcastingElementwise(linalg::GenericOp op) {
  if (!op.hasPureTensorSemantics() || op->getNumResults() != 1 ||
      op.getNumDpsInits() != 1 || op.getNumParallelLoops() != op.getNumLoops())
    return false;
  if (!op.getMatchingIndexingMap(op.getDpsInitOperand(0)).isIdentity())
    return false;
  return llvm::all_of(op.getDpsInputOperands(), [&](OpOperand *input) {
    return llvm::all_of(op.getMatchingIndexingMap(input).getResults(),
                        [](AffineExpr expr) {
                          return isa<AffineDimExpr, AffineConstantExpr>(expr);
                        });
  });
}

/// The indices of the element of `operand` that the element at `indices`
/// of the result of `op` (isBroadcastingElementwise) reads.
SmallVector<Value> getOperandIndices(OpBuilder &b, Location loc,
                                     linalg::GenericOp op, OpOperand &operand,
                                     ValueRange indices) {
  SmallVector<Value> result;
  for (AffineExpr expr : op.getMatchingIndexingMap(&operand).getResults()) {
    if (auto dim = dyn_cast<AffineDimExpr>(expr))
      result.push_back(indices[dim.getPosition()]);
    else
      result.push_back(arith::ConstantIndexOp::create(
          b, loc, cast<AffineConstantExpr>(expr).getValue()));
  }
  return result;
}

/// The most operations a fused body may hold. Each fusion clones both
/// bodies, so fusing a chain without a bound clones quadratically much; and
/// LLVM's loop passes slow down on long bodies too. A longer chain becomes
/// several loops of this size.
constexpr size_t kMaxFusedBodyOps = 256;

/// The most operations of a body computed again at each read of one of its
/// elements (ExtractOfElementwise), besides its yield.
constexpr size_t kMaxRecomputedOps = 8;

/// The operations of `op`'s body, counting at most `limit + 1`.
size_t countBodyOps(linalg::GenericOp op, size_t limit) {
  size_t n = 0;
  for (auto it = op.getRegion().front().begin(),
            end = op.getRegion().front().end();
       it != end && n <= limit; ++it)
    ++n;
  return n;
}

/// Clones the body of `op` at the builder's point with its block arguments
/// replaced by `args`; returns the values it yields.
SmallVector<Value> inlineBody(OpBuilder &b, linalg::GenericOp op,
                              ValueRange args) {
  Block &body = op.getRegion().front();
  IRMapping mapping;
  mapping.map(body.getArguments(), args);
  for (Operation &nested : body.without_terminator())
    b.clone(nested, mapping);
  SmallVector<Value> results;
  for (Value v : body.getTerminator()->getOperands())
    results.push_back(mapping.lookupOrDefault(v));
  return results;
}

/// A generic of identity maps and parallel loops over `inputs` and `init`,
/// of `op`'s rank, whose body `buildBody` fills from the block arguments.
linalg::GenericOp createElementwise(
    RewriterBase &rewriter, linalg::GenericOp op, ArrayRef<Value> inputs,
    Value init,
    function_ref<SmallVector<Value>(OpBuilder &, ValueRange)> buildBody) {
  unsigned rank = op.getNumLoops();
  SmallVector<AffineMap> maps(
      inputs.size() + 1,
      AffineMap::getMultiDimIdentityMap(rank, rewriter.getContext()));
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  return linalg::GenericOp::create(
      rewriter, op.getLoc(), op->getResultTypes(), inputs, ValueRange{init},
      maps, iterators, [&](OpBuilder &b, Location loc, ValueRange args) {
        linalg::YieldOp::create(b, loc, buildBody(b, args));
      });
}

/// A linalg.fill of a block gives every element one scalar: its users read
/// the scalar instead of a buffer filled with it.
struct FoldFillOperands : public OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    if (!isSimpleElementwise(op))
      return failure();
    auto fillOf = [](Value v) { return v.getDefiningOp<linalg::FillOp>(); };
    Value init = op.getDpsInits()[0];
    bool initRead = op.payloadUsesValueFromOperand(op.getDpsInitOperand(0));
    linalg::FillOp initFill = initRead ? fillOf(init) : linalg::FillOp();
    if (!initFill && llvm::none_of(op.getDpsInputs(), fillOf))
      return failure();

    // Inputs that are fills go; a filled destination that is read becomes
    // the fill's own destination, and the reads the scalar.
    SmallVector<Value> inputs;
    for (Value input : op.getDpsInputs())
      if (!fillOf(input))
        inputs.push_back(input);
    Value newInit = initFill ? initFill.getDpsInits()[0] : init;
    linalg::GenericOp fused = createElementwise(
        rewriter, op, inputs, newInit, [&](OpBuilder &b, ValueRange args) {
          SmallVector<Value> oldArgs;
          unsigned next = 0;
          for (Value input : op.getDpsInputs()) {
            if (linalg::FillOp fill = fillOf(input))
              oldArgs.push_back(fill.getInputs()[0]);
            else
              oldArgs.push_back(args[next++]);
          }
          oldArgs.push_back(initFill ? initFill.getInputs()[0] : args.back());
          return inlineBody(b, op, oldArgs);
        });
    rewriter.replaceOp(op, fused.getResults());
    return success();
  }
};

/// An elementwise generic whose result only one elementwise generic uses is
/// computed inside that user, element by element.
struct FuseProducerIntoUser : public OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    if (!isSimpleElementwise(op))
      return failure();
    // The first operand made by a fusible producer.
    linalg::GenericOp producer;
    for (OpOperand &operand : op->getOpOperands()) {
      auto candidate = operand.get().getDefiningOp<linalg::GenericOp>();
      if (!candidate || candidate == op || !isSimpleElementwise(candidate) ||
          candidate.getStaticLoopRanges() != op.getStaticLoopRanges())
        continue;
      if (llvm::any_of(candidate->getResult(0).getUses(),
                       [&](OpOperand &use) { return use.getOwner() != op; }))
        continue;
      size_t size = countBodyOps(op, kMaxFusedBodyOps);
      if (size + countBodyOps(candidate, kMaxFusedBodyOps - size) >
          kMaxFusedBodyOps)
        continue;
      producer = candidate;
      break;
    }
    if (!producer)
      return failure();

    Value produced = producer->getResult(0);
    Value init = op.getDpsInits()[0];
    Value producerInit = producer.getDpsInits()[0];
    bool producerReadsInit =
        producer.payloadUsesValueFromOperand(producer.getDpsInitOperand(0));
    // Writing where the producer would have written keeps the update in
    // place when the consumer's destination is the produced value; else the
    // producer's destination, if it reads it, is one more input.
    bool intoProducerInit = init == produced;
    SmallVector<Value> inputs;
    for (Value input : op.getDpsInputs())
      if (input != produced)
        inputs.push_back(input);
    unsigned producerInputsAt = inputs.size();
    llvm::append_range(inputs, producer.getDpsInputs());
    bool extraInit = producerReadsInit && !intoProducerInit;
    if (extraInit)
      inputs.push_back(producerInit);
    Value newInit = intoProducerInit ? producerInit : init;

    linalg::GenericOp fused = createElementwise(
        rewriter, op, inputs, newInit, [&](OpBuilder &b, ValueRange args) {
          Value out = args.back();
          SmallVector<Value> producerArgs(args.begin() + producerInputsAt,
                                          args.begin() + producerInputsAt +
                                              producer.getNumDpsInputs());
          producerArgs.push_back(extraInit ? args[args.size() - 2] : out);
          Value value = inlineBody(b, producer, producerArgs)[0];
          SmallVector<Value> consumerArgs;
          unsigned next = 0;
          for (Value input : op.getDpsInputs())
            consumerArgs.push_back(input == produced ? value : args[next++]);
          consumerArgs.push_back(intoProducerInit ? value : out);
          return inlineBody(b, op, consumerArgs);
        });
    rewriter.replaceOp(op, fused.getResults());
    rewriter.eraseOp(producer);
    return success();
  }
};

/// One element of an elementwise generic (`tensor.extract %g[i]`) is its
/// body computed for element i (on the elements of its inputs their maps
/// pick: a broadcast reads its source at 0 along the repeated dimensions,
/// so a mask broadcast over a block is no longer a buffer of the block's
/// size but one comparison per element read): the loads and stores through a
/// contiguous block of pointers read the first address only, and computing it
/// as a scalar leaves the block of addresses unused (then erased), so it no
/// longer stands between the loops the CPU fuses (FuseLoops.cpp).
struct ExtractOfElementwise : public OpRewritePattern<tensor::ExtractOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(tensor::ExtractOp op,
                                PatternRewriter &rewriter) const override {
    auto generic = op.getTensor().getDefiningOp<linalg::GenericOp>();
    if (!generic || !isBroadcastingElementwise(generic) ||
        countBodyOps(generic, kMaxFusedBodyOps) > kMaxFusedBodyOps)
      return failure();
    Block &body = generic.getRegion().front();
    for (Operation &nested : body.without_terminator())
      if (nested.getNumRegions() || !isMemoryEffectFree(&nested))
        return failure();
    // Computing an element again where it is read costs its body once per
    // read: done for one element (a first address), for a generic read
    // nowhere else, or for a body of a few cheap operations (a mask), never
    // for math functions.
    bool oneElement = llvm::all_of(
        op.getIndices(), [](Value v) { return matchPattern(v, m_Constant()); });
    bool cheap =
        countBodyOps(generic, kMaxRecomputedOps) <= kMaxRecomputedOps &&
        llvm::none_of(body, [](Operation &nested) {
          return isa<math::MathDialect>(nested.getDialect());
        });
    if (!oneElement && !generic->hasOneUse() && !cheap)
      return failure();
    ValueRange indices = op.getIndices();
    IRMapping mapping;
    for (OpOperand &operand : generic->getOpOperands()) {
      BlockArgument arg = generic.getMatchingBlockArgument(&operand);
      if (arg.use_empty())
        continue;
      mapping.map(arg, tensor::ExtractOp::create(
                           rewriter, op.getLoc(), operand.get(),
                           getOperandIndices(rewriter, op.getLoc(), generic,
                                             operand, indices))
                           .getResult());
    }
    for (Operation &nested : body.without_terminator()) {
      if (auto index = dyn_cast<linalg::IndexOp>(nested)) {
        mapping.map(index.getResult(), indices[index.getDim()]);
        continue;
      }
      rewriter.clone(nested, mapping);
    }
    rewriter.replaceOp(
        op, mapping.lookupOrDefault(body.getTerminator()->getOperand(0)));
    return success();
  }
};

struct FuseElementwisePass
    : public PassWrapper<FuseElementwisePass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(FuseElementwisePass)

  StringRef getArgument() const final { return "tessera-cpu-fuse-elementwise"; }
  StringRef getDescription() const final {
    return "Fold linalg.fill operands into elementwise generics and fuse each "
           "elementwise generic into its only elementwise user";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<linalg::LinalgDialect, tensor::TensorDialect>();
  }

  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<FoldFillOperands, FuseProducerIntoUser, ExtractOfElementwise>(
        &getContext());
    // Every rewrite removes a fill operand or a generic, so the driver
    // converges; where it stopped early, what is fused stays correct.
    GreedyRewriteConfig config;
    config.setMaxIterations(GreedyRewriteConfig::kNoLimit);
    (void)applyPatternsGreedily(getOperation(), std::move(patterns), config);
    splitSharedEmptyTensors();
  }

  /// CSE leaves one tensor.empty of each type for the whole kernel, the
  /// destination of every op of that type. Bufferization then saw N ops
  /// writing into one tensor and checked each write against every other
  /// access (quadratic in N) before giving each its own buffer anyway:
  /// each use gets its own tensor.empty instead.
  void splitSharedEmptyTensors() {
    SmallVector<tensor::EmptyOp> shared;
    getOperation().walk([&](tensor::EmptyOp op) {
      if (!op->hasOneUse() && !op->use_empty())
        shared.push_back(op);
    });
    for (tensor::EmptyOp op : shared) {
      OpBuilder b(op);
      for (OpOperand &use :
           llvm::make_early_inc_range(llvm::drop_begin(op->getUses()))) {
        b.setInsertionPoint(use.getOwner());
        use.set(b.clone(*op)->getResult(0));
      }
    }
  }
};

} // namespace

std::unique_ptr<Pass> cpu::createFuseElementwisePass() {
  return std::make_unique<FuseElementwisePass>();
}
