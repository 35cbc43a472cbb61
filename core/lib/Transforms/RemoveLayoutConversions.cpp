//===- RemoveLayoutConversions.cpp - Propagate layouts, drop conversions --===//
//
// Three steps per function:
//  1. Layout assignment (LayoutAssignment.cpp): every group of ops between
//     conversions moves into the layout that needs the fewest conversions,
//     which pushes conversions forward past the ops that follow them, pulls
//     them backward through the ops before them, takes loop-carried values
//     out of loops and hoists conversions of loop-invariant values.
//  2. Backward rematerialization (here): a value still needed in a second
//     layout that is cheap to compute from Free ops is computed again in
//     that layout instead of being converted.
//  3. Clean-up: chains of conversions collapse, conversions to the same
//     layout vanish, and what they kept alive goes.
//
//===----------------------------------------------------------------------===//
#include "LayoutAssignment.h"

#include "tessera/Dialect/TesseraGPU/IR/LayoutPropagation.h"
#include "tessera/Transforms/Passes.h"

#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::tessera {
#define GEN_PASS_DEF_TESSERAREMOVELAYOUTCONVERSIONS
#include "tessera/Transforms/Passes.h.inc"
} // namespace mlir::tessera

using namespace mlir;
using namespace mlir::tessera;
using namespace mlir::tessera::gpu;

namespace {

/// Ops recomputed for one conversion at most; larger slices are converted.
constexpr unsigned kMaxRematerializedOps = 32;

Attribute distributedLayout(Value value) {
  if (DistributedLayoutAttr layout = getDistributedEncoding(value.getType()))
    return layout;
  return {};
}

/// Recomputes the values behind conversions in the conversions' layouts.
class Rematerializer {
public:
  Rematerializer(const LayoutHints &hints, LayoutCostModel &costs)
      : hints(hints), costs(costs) {}

  /// Replaces `convert` by a recomputation when that is allowed and
  /// cheaper; returns whether it did.
  bool run(ConvertLayoutOp convert);

  /// Ops that may have lost their last user.
  SetVector<Operation *> maybeDead;

private:
  /// Collects the ops computing `value` (in post-order: operands first) that
  /// must be rebuilt to have it in `layout`; false when some cannot be.
  bool collect(Value value, Attribute layout);

  const LayoutHints &hints;
  LayoutCostModel &costs;

  /// The ops to rebuild for the current conversion, operands first.
  SetVector<Operation *> slice;
  /// The layout each value of the slice (and each leaf) is needed in.
  DenseMap<Value, Attribute> wanted;
  /// Values the slice reads that already exist in the layout it needs.
  DenseMap<Value, Value> leaves;
  /// Free values the slice reads, rebuilt in that layout when it commits.
  SmallVector<Value> freeLeaves;

  /// Values already rebuilt in a layout, shared between conversions.
  DenseMap<std::pair<Value, Attribute>, Value> rebuilt;
};

bool Rematerializer::collect(Value value, Attribute layout) {
  if (distributedLayout(value) == layout)
    return true;
  // One value, one layout per slice.
  auto [known, inserted] = wanted.try_emplace(value, layout);
  if (!inserted)
    return known->second == layout;
  if (Value done = rebuilt.lookup({value, layout})) {
    leaves[value] = done;
    return true;
  }
  Operation *def = value.getDefiningOp();
  if (!def)
    return false; // block arguments belong to the control flow around them
  if (auto convert = dyn_cast<ConvertLayoutOp>(def)) {
    if (distributedLayout(convert.getSrc()) != layout)
      return false;
    leaves[value] = convert.getSrc();
    return true;
  }
  LayoutRole role = getLayoutRole(def);
  if (role == LayoutRole::Free) {
    freeLeaves.push_back(value);
    return true;
  }
  // Only pure ops may run twice.
  if (role != LayoutRole::Propagatable || !isMemoryEffectFree(def) ||
      slice.size() >= kMaxRematerializedOps)
    return false;
  FailureOr<OpLayouts> layouts = inferLayoutsFromResult(
      def, cast<OpResult>(value).getResultNumber(), layout, hints);
  if (failed(layouts))
    return false;
  for (auto [result, resultLayout] :
       llvm::zip_equal(def->getResults(), layouts->results)) {
    if (!resultLayout)
      continue;
    auto [it, fresh] = wanted.try_emplace(result, resultLayout);
    if (!fresh && it->second != resultLayout)
      return false;
  }
  for (auto [operand, operandLayout] :
       llvm::zip_equal(def->getOperands(), layouts->operands))
    if (operandLayout && !collect(operand, operandLayout))
      return false;
  slice.insert(def);
  return true;
}

bool Rematerializer::run(ConvertLayoutOp convert) {
  slice.clear();
  wanted.clear();
  leaves.clear();
  freeLeaves.clear();
  Value src = convert.getSrc();
  Attribute target = convert.getType().getEncoding();
  // Free sources are the canonicalizer's; anything else needs a slice.
  if (!src.getDefiningOp() ||
      getLayoutRole(src.getDefiningOp()) == LayoutRole::Free ||
      !collect(src, target) || slice.empty())
    return false;

  // The slice's ops that stay alive after the rewrite (read by something
  // outside it) are duplicated; the others merely move to the new layout.
  DenseSet<Operation *> alive;
  for (Operation *op : llvm::reverse(slice)) {
    bool readOutside = llvm::any_of(op->getUsers(), [&](Operation *user) {
      if (user == convert.getOperation())
        return false;
      return !slice.contains(user) || alive.contains(user);
    });
    if (readOutside)
      alive.insert(op);
  }
  int64_t duplicated = 0;
  for (Operation *op : alive) {
    SmallVector<Attribute> operandLayouts, resultLayouts;
    for (Value operand : op->getOperands())
      operandLayouts.push_back(wanted.lookup(operand)
                                   ? wanted.lookup(operand)
                                   : distributedLayout(operand));
    for (Value result : op->getResults())
      resultLayouts.push_back(wanted.lookup(result));
    duplicated += costs.opCost(op, operandLayouts, resultLayouts) *
                  LayoutCostModel::executionWeight(op->getBlock());
  }
  auto srcType = cast<RankedTensorType>(src.getType());
  int64_t saved = costs.conversionCost(srcType, srcType.getEncoding(), target) *
                  LayoutCostModel::executionWeight(convert->getBlock());
  if (duplicated > saved)
    return false;

  IRMapping mapping;
  for (auto [value, leaf] : leaves)
    mapping.map(value, leaf);
  for (Value value : freeLeaves) {
    Attribute layout = wanted.lookup(value);
    OpBuilder builder(value.getContext());
    builder.setInsertionPointAfterValue(value);
    Value clone = cloneFreeOpWithLayout(builder, value.getDefiningOp(), layout);
    rebuilt[{value, layout}] = clone;
    mapping.map(value, clone);
  }
  OpBuilder builder(convert);
  for (Operation *op : slice) {
    builder.setInsertionPointAfter(op);
    Operation *clone = builder.clone(*op, mapping);
    for (auto [result, newResult] :
         llvm::zip_equal(op->getResults(), clone->getResults())) {
      if (Attribute layout = wanted.lookup(result)) {
        newResult.setType(
            withEncoding(cast<RankedTensorType>(result.getType()), layout));
        rebuilt[{result, layout}] = newResult;
      }
    }
    maybeDead.insert(op);
  }
  convert.replaceAllUsesWith(mapping.lookup(src));
  convert.erase();
  return true;
}

/// Whether `op`'s verifier leaves the layout of operand `operand` free, so
/// that it may read an equivalent layout (one placing every element in the
/// same register of the same thread) instead.
bool takesAnyOperandEncoding(OpOperand &operand) {
  Operation *op = operand.getOwner();
  if (auto reduce = dyn_cast<ReduceOp>(op))
    return reduce.getSrcs().size() == 1;
  return isa<ExpandDimsOp, BroadcastOp, TransOp, ReshapeOp, SplitOp>(op);
}

/// Whether the verifier of the op making `result` leaves its layout free.
bool makesAnyResultEncoding(Value result) {
  Operation *op = result.getDefiningOp();
  return op && isa<ReduceOp, ExpandDimsOp, BroadcastOp, TransOp, ReshapeOp,
                   JoinOp, CatOp>(op);
}

/// Drops conversions between equivalent layouts (e.g. a slice and a blocked
/// layout that place every element alike, which the assignment cannot always
/// avoid because reductions name their results by slices) where the reader
/// or the producer accepts either spelling.
void foldEquivalentConversions(FunctionOpInterface func) {
  SmallVector<ConvertLayoutOp> converts;
  func.walk([&](ConvertLayoutOp op) { converts.push_back(op); });
  for (ConvertLayoutOp convert : converts) {
    Value src = convert.getSrc();
    auto srcType = cast<RankedTensorType>(src.getType());
    if (!isSameLayout(srcType.getEncoding(), convert.getType().getEncoding(),
                      srcType.getShape()))
      continue;
    if (llvm::all_of(convert->getUses(), [](OpOperand &use) {
          return takesAnyOperandEncoding(use);
        })) {
      convert.replaceAllUsesWith(src);
      convert.erase();
      continue;
    }
    if (src.hasOneUse() && makesAnyResultEncoding(src)) {
      src.setType(convert.getType());
      convert.replaceAllUsesWith(src);
      convert.erase();
    }
  }
}

/// Erases the ops of `ops` that nothing reads and that have no effects, and
/// then whatever those alone kept alive.
void eraseDeadOps(SetVector<Operation *> &ops) {
  while (!ops.empty()) {
    Operation *op = ops.pop_back_val();
    if (!isOpTriviallyDead(op))
      continue;
    for (Value operand : op->getOperands())
      if (Operation *def = operand.getDefiningOp())
        ops.insert(def);
    op->erase();
  }
}

class RemoveLayoutConversionsPass
    : public mlir::tessera::impl::TesseraRemoveLayoutConversionsBase<
          RemoveLayoutConversionsPass> {
public:
  using TesseraRemoveLayoutConversionsBase::TesseraRemoveLayoutConversionsBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    // A module without launch attributes has no layouts yet.
    FailureOr<LaunchShape> launch = getLaunchShape(module);
    if (failed(launch))
      return;
    LayoutCostModel costs;
    for (auto func : module.getOps<FunctionOpInterface>()) {
      if (func.isExternal())
        continue;
      LayoutHints hints(*launch, collectAnchorLayouts(func));
      if (failed(assignLayouts(func, hints, costs)))
        return signalPassFailure();
      rematerializeConversions(func, hints, costs);
      if (failed(cleanUp(func)))
        return signalPassFailure();
    }
  }

private:
  /// Collapses chains of conversions, drops conversions to the layout a
  /// value already has and rebuilds converted Free values in place (the
  /// conversion's own canonical forms).
  LogicalResult cleanUp(FunctionOpInterface func) {
    MLIRContext *ctx = &getContext();
    RewritePatternSet patterns(ctx);
    ConvertLayoutOp::getCanonicalizationPatterns(patterns, ctx);
    SmallVector<Operation *> converts;
    func.walk([&](ConvertLayoutOp op) { converts.push_back(op); });
    if (converts.empty())
      return success();
    GreedyRewriteConfig config;
    config.setStrictness(GreedyRewriteStrictness::ExistingAndNewOps);
    SetVector<Operation *> sources;
    for (Operation *op : converts)
      if (Operation *def = op->getOperand(0).getDefiningOp())
        sources.insert(def);
    if (failed(applyOpPatternsGreedily(converts, std::move(patterns), config)))
      return func.emitError("conversion clean-up did not converge");
    foldEquivalentConversions(func);
    // Sources whose only reader was a conversion that folded away.
    SetVector<Operation *> dead;
    func.walk([&](Operation *op) {
      if (sources.contains(op))
        dead.insert(op);
    });
    eraseDeadOps(dead);
    return success();
  }
};

} // namespace

void mlir::tessera::rematerializeConversions(FunctionOpInterface func,
                                             const LayoutHints &hints,
                                             LayoutCostModel &costs) {
  SmallVector<ConvertLayoutOp> converts;
  func.walk([&](ConvertLayoutOp op) { converts.push_back(op); });
  Rematerializer rematerializer(hints, costs);
  for (ConvertLayoutOp convert : converts)
    rematerializer.run(convert);
  eraseDeadOps(rematerializer.maybeDead);
}
