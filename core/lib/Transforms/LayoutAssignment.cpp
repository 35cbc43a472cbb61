//===- LayoutAssignment.cpp - Choosing layouts to remove conversions ------===//
//
// Conversions are treated as transparent: a value and every conversion of it
// are one *logical value*, and each operand that reads it, directly or
// through conversions, states the layout it needs. The choices are made per
// *node*: a Propagatable op (whose operand and result layouts determine each
// other through the rules of LayoutPropagation.h) or a tied group of control
// flow (an scf.for variable, an scf.if result, ...). Values made by other ops
// keep their layouts (anchors: loads, dots, ...), values made by Free ops fit
// any layout, and the cost of an assignment is, for each logical value, one
// conversion per distinct layout its readers need besides its own, plus the
// computation of every node.
//
// Nodes that read each other's results directly (not through a conversion)
// form a *cluster*: the ops between two conversions, which the earlier passes
// put in one layout. The search visits one cluster at a time (iterated
// conditional modes). Its candidates propagate a layout found at one of the
// cluster's boundaries (that of a value flowing in, or one a reader outside
// needs), or at all of them at once, through the cluster and, in a second
// variant, on through conversions into the clusters beyond, so that several
// clusters can move together where none gains alone. Propagation goes on
// only from nodes whose layouts change. The candidate that lowers the total
// cost most is kept; every move strictly lowers it, so the search ends.
//
// This pushes a conversion forward past the ops that follow it (the
// candidate seeded by its source's layout) or backward through the ops
// before it (seeded by the layout its readers need), moves loop-carried
// values into the layout their loop body produces, and lets anchors win
// wherever that saves conversions. Finally every reader is given its value
// in the layout it needs: the value itself, a Free op rebuilt in that
// layout, or one conversion per value and layout, placed right after the
// value is made.
//
//===----------------------------------------------------------------------===//
#include "LayoutAssignment.h"

#include "tessera/Dialect/TesseraGPU/IR/LayoutPropagation.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/EquivalenceClasses.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/Support/Debug.h"

#include <deque>

using namespace mlir;
using namespace mlir::tessera;
using namespace mlir::tessera::gpu;

#define DEBUG_TYPE "tessera-remove-layout-conversions"

//===----------------------------------------------------------------------===//
// The assignment problem
//===----------------------------------------------------------------------===//

namespace {

constexpr unsigned kNone = ~0u;
/// Rounds of the cluster-by-cluster search; each lowers the cost, and real
/// kernels settle in two or three.
constexpr unsigned kMaxRounds = 8;
/// Single-boundary candidates tried per cluster and round.
constexpr unsigned kMaxSingleSeeds = 48;
/// Nodes a candidate crossing conversions may move at once.
constexpr unsigned kMaxMovedNodes = 1024;

/// The layouts of a node's tensors: one per produced value and per consumed
/// operand (null where not a distributed tensor).
struct LayoutState {
  SmallVector<Attribute> produced;
  SmallVector<Attribute> consumed;
  bool operator==(const LayoutState &other) const = default;
};

/// One Propagatable op, or one tied group of control flow.
struct Node {
  Operation *op;
  bool tied;
  SmallVector<Value> produced;
  SmallVector<OpOperand *> consumed;
  /// Logical value index of each produced value / consumed operand.
  SmallVector<unsigned> producedValue;
  SmallVector<unsigned> consumedValue;
  LayoutState current;
  int64_t weight;
  unsigned cluster = kNone;
};

/// An operand reading a logical value, directly or through conversions.
struct UseInfo {
  OpOperand *operand;
  /// The node the operand belongs to, or kNone: a reader whose layout is
  /// fixed (an anchor, a return, an op we do not know).
  unsigned node = kNone;
  unsigned slot = 0;
  Attribute fixedLayout;
  /// Whether it reads the value itself rather than a conversion of it.
  bool direct;
};

/// A logical value: an SSA value that is not a conversion.
struct ValueInfo {
  enum class Kind { Node, Fixed, Free };
  Value value;
  RankedTensorType type;
  Kind kind;
  unsigned node = kNone, slot = 0;
  Attribute fixedLayout;
  /// Execution weight of the place where a conversion of it would go.
  int64_t weight;
  SmallVector<unsigned> uses;
};

/// Where a candidate assignment starts: the layout of one produced value or
/// one consumed operand of a node.
struct Seed {
  unsigned node;
  bool produced;
  unsigned slot;
  Attribute layout;
  bool operator==(const Seed &other) const = default;
};

class LayoutAssignment {
public:
  LayoutAssignment(FunctionOpInterface func, const LayoutHints &hints,
                   LayoutCostModel &costs)
      : func(func), hints(hints), costs(costs) {}

  LogicalResult run() {
    build();
    formClusters();
    solve();
    return rewrite();
  }

private:
  void build();
  unsigned addNode(Operation *op, bool tied, SmallVector<Value> produced,
                   SmallVector<OpOperand *> consumed);
  unsigned getValue(Value root);
  void formClusters();

  Attribute layoutOf(const ValueInfo &value) const;
  Attribute requirementOf(const UseInfo &use) const;
  int64_t valueCost(const ValueInfo &value);
  int64_t nodesCost(const DenseMap<unsigned, LayoutState> &changed);

  void solve();
  SmallVector<SmallVector<Seed>> candidateSeeds(unsigned cluster);
  FailureOr<LayoutState> inferState(const Seed &seed);
  FailureOr<LayoutState> inferStateUncached(const Seed &seed);
  bool isEquivalent(const Node &node, const LayoutState &a,
                    const LayoutState &b);
  DenseMap<unsigned, LayoutState>
  propagate(unsigned cluster, ArrayRef<Seed> seeds, bool acrossConversions);

  LogicalResult rewrite();
  Value materialize(unsigned valueIdx, Attribute layout,
                    ArrayRef<OpOperand *> readers);

  FunctionOpInterface func;
  LayoutHints hints;
  LayoutCostModel &costs;

  std::vector<Node> nodes;
  std::vector<ValueInfo> values;
  std::vector<UseInfo> uses;
  DenseMap<Value, unsigned> valueIndex;
  DenseMap<Value, std::pair<unsigned, unsigned>> producerOf;
  DenseMap<OpOperand *, std::pair<unsigned, unsigned>> consumerOf;
  /// The assignment being searched, one state per node.
  std::vector<LayoutState> state;
  std::vector<SmallVector<unsigned>> clusters;
  /// Marks for deduplicating values while costing (see nodesCost).
  std::vector<unsigned> valueMark;
  unsigned markGeneration = 0;
  SmallVector<Operation *> originalConversions;
  DenseMap<std::tuple<unsigned, unsigned, unsigned, Attribute>,
           FailureOr<LayoutState>>
      inferred;
  DenseMap<std::pair<Operation *, Attribute>, Value> freeClones;
};

Attribute distributedLayout(Value value) {
  if (DistributedLayoutAttr layout = getDistributedEncoding(value.getType()))
    return layout;
  return {};
}

/// The value a chain of conversions starts from.
Value stripConversions(Value value) {
  while (auto convert = value.getDefiningOp<ConvertLayoutOp>())
    value = convert.getSrc();
  return value;
}

Block *definingBlock(Value value) {
  if (auto arg = dyn_cast<BlockArgument>(value))
    return arg.getOwner();
  return value.getDefiningOp()->getBlock();
}

} // namespace

unsigned LayoutAssignment::addNode(Operation *op, bool tied,
                                   SmallVector<Value> produced,
                                   SmallVector<OpOperand *> consumed) {
  unsigned id = nodes.size();
  Node node;
  node.op = op;
  node.tied = tied;
  node.weight = LayoutCostModel::executionWeight(op->getBlock());
  for (auto [slot, value] : llvm::enumerate(produced)) {
    node.current.produced.push_back(value ? distributedLayout(value)
                                          : Attribute());
    if (value)
      producerOf[value] = {id, slot};
  }
  for (auto [slot, operand] : llvm::enumerate(consumed)) {
    node.current.consumed.push_back(operand ? distributedLayout(operand->get())
                                            : Attribute());
    if (operand)
      consumerOf[operand] = {id, slot};
  }
  node.produced = std::move(produced);
  node.consumed = std::move(consumed);
  nodes.push_back(std::move(node));
  return id;
}

unsigned LayoutAssignment::getValue(Value root) {
  auto [it, inserted] = valueIndex.try_emplace(root, values.size());
  if (!inserted)
    return it->second;
  ValueInfo info;
  info.value = root;
  info.type = cast<RankedTensorType>(root.getType());
  info.weight = LayoutCostModel::executionWeight(definingBlock(root));
  auto producer = producerOf.find(root);
  Operation *def = root.getDefiningOp();
  if (producer != producerOf.end()) {
    info.kind = ValueInfo::Kind::Node;
    std::tie(info.node, info.slot) = producer->second;
  } else if (def && getLayoutRole(def) == LayoutRole::Free) {
    info.kind = ValueInfo::Kind::Free;
  } else {
    info.kind = ValueInfo::Kind::Fixed;
    info.fixedLayout = distributedLayout(root);
  }
  values.push_back(std::move(info));
  return it->second;
}

void LayoutAssignment::build() {
  func.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (isa<ConvertLayoutOp>(op)) {
      originalConversions.push_back(op);
      return;
    }
    for (TiedLayoutGroup &group : getTiedLayoutGroups(op))
      addNode(op, /*tied=*/true, group.values, group.operands);
    if (getLayoutRole(op) != LayoutRole::Propagatable)
      return;
    SmallVector<Value> produced;
    for (Value result : op->getResults())
      produced.push_back(distributedLayout(result) ? result : Value());
    SmallVector<OpOperand *> consumed;
    for (OpOperand &operand : op->getOpOperands())
      consumed.push_back(distributedLayout(operand.get()) ? &operand : nullptr);
    addNode(op, /*tied=*/false, produced, consumed);
  });

  // Every operand reading a distributed tensor, except conversions (which
  // are transparent), is a use of the logical value it strips down to.
  func.walk([&](Operation *op) {
    if (isa<ConvertLayoutOp>(op))
      return;
    for (OpOperand &operand : op->getOpOperands()) {
      if (!distributedLayout(operand.get()))
        continue;
      Value root = stripConversions(operand.get());
      unsigned valueIdx = getValue(root);
      UseInfo use;
      use.operand = &operand;
      use.direct = root == operand.get();
      auto consumer = consumerOf.find(&operand);
      if (consumer != consumerOf.end())
        std::tie(use.node, use.slot) = consumer->second;
      else
        use.fixedLayout = distributedLayout(operand.get());
      values[valueIdx].uses.push_back(uses.size());
      uses.push_back(use);
    }
  });

  for (Node &node : nodes) {
    for (Value value : node.produced)
      node.producedValue.push_back(value ? getValue(value) : kNone);
    for (OpOperand *operand : node.consumed)
      node.consumedValue.push_back(
          operand ? getValue(stripConversions(operand->get())) : kNone);
    state.push_back(node.current);
  }
}

void LayoutAssignment::formClusters() {
  llvm::EquivalenceClasses<unsigned> classes;
  for (unsigned n = 0; n < nodes.size(); ++n)
    classes.insert(n);
  for (const ValueInfo &value : values) {
    if (value.kind != ValueInfo::Kind::Node)
      continue;
    for (unsigned u : value.uses)
      if (uses[u].direct && uses[u].node != kNone)
        classes.unionSets(value.node, uses[u].node);
  }
  // Number the clusters in program order of their first node.
  DenseMap<unsigned, unsigned> clusterOfLeader;
  for (unsigned n = 0; n < nodes.size(); ++n) {
    unsigned leader = classes.getLeaderValue(n);
    auto [it, inserted] = clusterOfLeader.try_emplace(leader, clusters.size());
    if (inserted)
      clusters.emplace_back();
    nodes[n].cluster = it->second;
    clusters[it->second].push_back(n);
  }
  valueMark.assign(values.size(), 0);
}

//===----------------------------------------------------------------------===//
// Costs
//===----------------------------------------------------------------------===//

Attribute LayoutAssignment::layoutOf(const ValueInfo &value) const {
  switch (value.kind) {
  case ValueInfo::Kind::Node:
    return state[value.node].produced[value.slot];
  case ValueInfo::Kind::Fixed:
    return value.fixedLayout;
  case ValueInfo::Kind::Free:
    return {};
  }
  llvm_unreachable("unknown value kind");
}

Attribute LayoutAssignment::requirementOf(const UseInfo &use) const {
  if (use.node == kNone)
    return use.fixedLayout;
  return state[use.node].consumed[use.slot];
}

int64_t LayoutAssignment::valueCost(const ValueInfo &value) {
  // Free values are rebuilt in whatever layout a reader needs.
  if (value.kind == ValueInfo::Kind::Free)
    return 0;
  Attribute own = layoutOf(value);
  SmallVector<Attribute, 4> converted;
  int64_t cost = 0;
  for (unsigned u : value.uses) {
    Attribute need = requirementOf(uses[u]);
    if (need == own || llvm::is_contained(converted, need))
      continue;
    // One conversion per distinct layout, shared by all its readers.
    converted.push_back(need);
    cost += costs.conversionCost(value.type, own, need);
  }
  return cost * value.weight;
}

int64_t
LayoutAssignment::nodesCost(const DenseMap<unsigned, LayoutState> &changed) {
  // The values these nodes make or read (each once), and their work.
  ++markGeneration;
  int64_t cost = 0;
  auto addValue = [&](unsigned v) {
    if (v == kNone || valueMark[v] == markGeneration)
      return;
    valueMark[v] = markGeneration;
    cost += valueCost(values[v]);
  };
  for (const auto &entry : changed) {
    const Node &node = nodes[entry.first];
    llvm::for_each(node.producedValue, addValue);
    llvm::for_each(node.consumedValue, addValue);
    if (!node.tied)
      cost += costs.opCost(node.op, state[entry.first].consumed,
                           state[entry.first].produced) *
              node.weight;
  }
  return cost;
}

//===----------------------------------------------------------------------===//
// Search
//===----------------------------------------------------------------------===//

FailureOr<LayoutState> LayoutAssignment::inferState(const Seed &seed) {
  // The IR does not change during the search: each inference is made once.
  auto key = std::make_tuple(seed.node, unsigned(seed.produced), seed.slot,
                             seed.layout);
  auto known = inferred.find(key);
  if (known != inferred.end())
    return known->second;
  FailureOr<LayoutState> result = inferStateUncached(seed);
  inferred.try_emplace(key, result);
  return result;
}

FailureOr<LayoutState> LayoutAssignment::inferStateUncached(const Seed &seed) {
  const Node &node = nodes[seed.node];
  if (node.tied) {
    // Control flow hands the value along unchanged: one layout for all.
    LayoutState result;
    result.produced.assign(node.produced.size(), seed.layout);
    result.consumed.assign(node.consumed.size(), seed.layout);
    return result;
  }
  FailureOr<OpLayouts> layouts =
      seed.produced
          ? inferLayoutsFromResult(node.op, seed.slot, seed.layout, hints)
          : inferLayoutsFromOperand(node.op, seed.slot, seed.layout, hints);
  if (failed(layouts))
    return failure();
  return LayoutState{layouts->results, layouts->operands};
}

bool LayoutAssignment::isEquivalent(const Node &node, const LayoutState &a,
                                    const LayoutState &b) {
  auto same = [&](Value value, Attribute x, Attribute y) {
    return x == y ||
           (x && y &&
            costs.isSame(cast<RankedTensorType>(value.getType()), x, y));
  };
  for (auto [value, x, y] :
       llvm::zip_equal(node.produced, a.produced, b.produced))
    if (value && !same(value, x, y))
      return false;
  for (auto [operand, x, y] :
       llvm::zip_equal(node.consumed, a.consumed, b.consumed))
    if (operand && !same(operand->get(), x, y))
      return false;
  return true;
}

DenseMap<unsigned, LayoutState>
LayoutAssignment::propagate(unsigned cluster, ArrayRef<Seed> seeds,
                            bool acrossConversions) {
  DenseMap<unsigned, LayoutState> changed;
  DenseSet<unsigned> visited;
  std::deque<Seed> worklist(seeds.begin(), seeds.end());
  // Within the cluster, or (to move several clusters at once) through
  // conversions into the others as well.
  auto reachable = [&](unsigned node, bool direct) {
    return node != kNone && !visited.contains(node) &&
           (acrossConversions ? changed.size() < kMaxMovedNodes
                              : direct && nodes[node].cluster == cluster);
  };
  // Breadth first, first layout wins: a node reached with two layouts keeps
  // the one from the nearer seed and the other becomes a conversion.
  while (!worklist.empty()) {
    Seed seed = worklist.front();
    worklist.pop_front();
    if (!visited.insert(seed.node).second)
      continue;
    FailureOr<LayoutState> inferred = inferState(seed);
    if (failed(inferred))
      continue;
    const Node &node = nodes[seed.node];
    const LayoutState &now = state[seed.node];
    // Different attributes may place elements identically (a slice of a
    // blocked layout and a 1-D blocked one). When the node already has the
    // layout it is reached with, keep its attributes rather than equivalent
    // ones, so that no conversion between equivalent layouts appears on its
    // other side.
    Attribute arrival =
        seed.produced ? now.produced[seed.slot] : now.consumed[seed.slot];
    if (arrival == seed.layout && isEquivalent(node, *inferred, now))
      *inferred = now;
    // A node that keeps its layouts changes nothing for the neighbours that
    // agree with it already; only the edges that need a conversion now may
    // improve from there.
    bool moved = *inferred != now;
    for (auto [slot, valueIdx] : llvm::enumerate(node.consumedValue)) {
      if (valueIdx == kNone)
        continue;
      const ValueInfo &value = values[valueIdx];
      if (value.kind != ValueInfo::Kind::Node ||
          (!moved && layoutOf(value) == now.consumed[slot]))
        continue;
      if (reachable(value.node, node.consumed[slot]->get() == value.value))
        worklist.push_back(
            {value.node, true, value.slot, inferred->consumed[slot]});
    }
    for (auto [slot, valueIdx] : llvm::enumerate(node.producedValue)) {
      if (valueIdx == kNone)
        continue;
      for (unsigned u : values[valueIdx].uses) {
        const UseInfo &use = uses[u];
        if ((moved || requirementOf(use) != now.produced[slot]) &&
            reachable(use.node, use.direct))
          worklist.push_back(
              {use.node, false, use.slot, inferred->produced[slot]});
      }
    }
    if (moved)
      changed.try_emplace(seed.node, std::move(*inferred));
  }
  return changed;
}

SmallVector<SmallVector<Seed>>
LayoutAssignment::candidateSeeds(unsigned cluster) {
  SmallVector<Seed> incoming, outgoing;
  auto inCluster = [&](unsigned node) {
    return node != kNone && nodes[node].cluster == cluster;
  };
  for (unsigned n : clusters[cluster]) {
    const Node &node = nodes[n];
    // Layouts flowing in: values made outside the cluster, or read through
    // a conversion (dropping that conversion is a candidate).
    for (auto [slot, valueIdx] : llvm::enumerate(node.consumedValue)) {
      if (valueIdx == kNone)
        continue;
      const ValueInfo &value = values[valueIdx];
      bool direct = node.consumed[slot]->get() == value.value;
      if (value.kind == ValueInfo::Kind::Free ||
          (direct && value.kind == ValueInfo::Kind::Node &&
           inCluster(value.node)))
        continue;
      incoming.push_back({n, false, unsigned(slot), layoutOf(value)});
    }
    // Layouts needed by readers outside the cluster or behind conversions.
    for (auto [slot, valueIdx] : llvm::enumerate(node.producedValue)) {
      if (valueIdx == kNone)
        continue;
      for (unsigned u : values[valueIdx].uses) {
        const UseInfo &use = uses[u];
        if (use.direct && inCluster(use.node))
          continue;
        outgoing.push_back({n, true, unsigned(slot), requirementOf(use)});
      }
    }
  }

  SmallVector<SmallVector<Seed>> candidates;
  auto addSingle = [&](const Seed &seed) {
    SmallVector<Seed> single{seed};
    if (candidates.size() < kMaxSingleSeeds &&
        !llvm::is_contained(candidates, single))
      candidates.push_back(single);
  };
  for (const Seed &seed : incoming)
    addSingle(seed);
  for (const Seed &seed : outgoing)
    addSingle(seed);
  // All boundaries at once: a cluster fed by several anchors may need every
  // one of them to reach all its nodes (e.g. a broadcast that can only be
  // placed from its result side).
  if (incoming.size() > 1)
    candidates.push_back(incoming);
  if (outgoing.size() > 1)
    candidates.push_back(outgoing);
  if (!incoming.empty() && !outgoing.empty()) {
    SmallVector<Seed> all(incoming);
    all.append(outgoing);
    candidates.push_back(std::move(all));
  }
  return candidates;
}

void LayoutAssignment::solve() {
  for (unsigned round = 0; round < kMaxRounds; ++round) {
    bool improved = false;
    for (unsigned c = 0; c < clusters.size(); ++c) {
      int64_t bestGain = 0;
      std::optional<DenseMap<unsigned, LayoutState>> best;
      for (const SmallVector<Seed> &seeds : candidateSeeds(c)) {
        for (bool across : {false, true}) {
          DenseMap<unsigned, LayoutState> candidate =
              propagate(c, seeds, across);
          if (candidate.empty())
            continue;
          // Nodes the candidate does not reach keep their layouts, so only
          // the costs around the ones it reaches change.
          int64_t before = nodesCost(candidate);
          for (auto &[n, layouts] : candidate)
            std::swap(state[n], layouts);
          int64_t after = nodesCost(candidate);
          for (auto &[n, layouts] : candidate)
            std::swap(state[n], layouts);
          LLVM_DEBUG(llvm::dbgs()
                     << "cluster " << c << (across ? " (across)" : "") << ": "
                     << seeds.size() << " seed(s) from "
                     << nodes[seeds.front().node].op->getName() << " in "
                     << seeds.front().layout << " move " << candidate.size()
                     << " node(s), cost " << before << " -> " << after << "\n");
          if (before - after > bestGain) {
            bestGain = before - after;
            best = std::move(candidate);
          }
        }
      }
      if (!best)
        continue;
      for (auto &[n, layouts] : *best)
        state[n] = std::move(layouts);
      improved = true;
    }
    if (!improved)
      break;
  }
}

//===----------------------------------------------------------------------===//
// Rewrite
//===----------------------------------------------------------------------===//

/// Where a conversion of `value` for `readers` goes: right after the value is
/// made (so conversions of loop-invariant values stay out of loops), but
/// inside an scf.if branch when every reader is in that branch, so that the
/// other branch does not pay for it.
static OpBuilder::InsertPoint conversionPoint(Value value,
                                              ArrayRef<OpOperand *> readers) {
  Block *block = definingBlock(value);
  Block::iterator point = isa<BlockArgument>(value)
                              ? block->begin()
                              : std::next(value.getDefiningOp()->getIterator());
  while (true) {
    Operation *common = nullptr;
    for (OpOperand *reader : readers) {
      Operation *ancestor = block->findAncestorOpInBlock(*reader->getOwner());
      if (!ancestor || (common && ancestor != common)) {
        common = nullptr;
        break;
      }
      common = ancestor;
    }
    auto ifOp = dyn_cast_or_null<scf::IfOp>(common);
    if (!ifOp)
      break;
    Region *region = nullptr;
    for (OpOperand *reader : readers) {
      Region *r =
          ifOp.getThenRegion().isAncestor(reader->getOwner()->getParentRegion())
              ? &ifOp.getThenRegion()
          : ifOp.getElseRegion().isAncestor(
                reader->getOwner()->getParentRegion())
              ? &ifOp.getElseRegion()
              : nullptr;
      if (!r || (region && r != region)) {
        region = nullptr;
        break;
      }
      region = r;
    }
    if (!region)
      break;
    block = &region->front();
    point = block->begin();
  }
  return OpBuilder::InsertPoint(block, point);
}

Value LayoutAssignment::materialize(unsigned valueIdx, Attribute layout,
                                    ArrayRef<OpOperand *> readers) {
  const ValueInfo &info = values[valueIdx];
  Value value = info.value;
  if (distributedLayout(value) == layout)
    return value;
  OpBuilder builder(value.getContext());
  if (info.kind == ValueInfo::Kind::Free) {
    Operation *def = value.getDefiningOp();
    Value &clone = freeClones[{def, layout}];
    if (!clone) {
      builder.setInsertionPointAfter(def);
      clone = cloneFreeOpWithLayout(builder, def, layout);
    }
    return clone;
  }
  builder.restoreInsertionPoint(conversionPoint(value, readers));
  return ConvertLayoutOp::create(builder, value.getLoc(),
                                 withEncoding(info.type, layout), value);
}

LogicalResult LayoutAssignment::rewrite() {
  // What every reader needs, decided before any type changes.
  SmallVector<Attribute> required;
  for (const UseInfo &use : uses)
    required.push_back(requirementOf(use));

  SmallVector<Operation *> retyped;
  for (auto [n, node] : llvm::enumerate(nodes)) {
    if (state[n] == node.current)
      continue;
    for (auto [value, layout] :
         llvm::zip_equal(node.produced, state[n].produced))
      if (value)
        value.setType(
            withEncoding(cast<RankedTensorType>(value.getType()), layout));
    if (!node.tied)
      retyped.push_back(node.op);
  }

  // Readers of one value needing one layout share one conversion.
  llvm::MapVector<std::pair<unsigned, Attribute>, SmallVector<OpOperand *>>
      groups;
  for (auto [valueIdx, value] : llvm::enumerate(values))
    for (unsigned u : value.uses)
      groups[{unsigned(valueIdx), required[u]}].push_back(uses[u].operand);
  SetVector<Operation *> maybeDead;
  for (auto &[key, readers] : groups) {
    Value replacement = materialize(key.first, key.second, readers);
    for (OpOperand *reader : readers) {
      if (reader->get() == replacement)
        continue;
      if (Operation *def = reader->get().getDefiningOp())
        maybeDead.insert(def);
      reader->set(replacement);
    }
  }

  // The old conversions, and Free ops rebuilt in other layouts, are unused
  // now; erase them and whatever they alone kept alive.
  maybeDead.insert(originalConversions.begin(), originalConversions.end());
  while (!maybeDead.empty()) {
    Operation *op = maybeDead.pop_back_val();
    if (!op->use_empty() ||
        (!isa<ConvertLayoutOp>(op) && getLayoutRole(op) != LayoutRole::Free))
      continue;
    for (Value operand : op->getOperands())
      if (Operation *def = operand.getDefiningOp())
        maybeDead.insert(def);
    op->erase();
  }

  for (Operation *op : retyped)
    if (!hasConsistentLayouts(op, hints))
      return op->emitError("internal error: remove-layout-conversions gave "
                           "this op inconsistent layouts");
  return success();
}

SmallVector<Attribute>
mlir::tessera::collectAnchorLayouts(FunctionOpInterface func) {
  SetVector<Attribute> layouts;
  auto add = [&](ValueRange values) {
    for (Value value : values)
      if (Attribute layout = distributedLayout(value))
        layouts.insert(layout);
  };
  add(func.getFunctionBody().getArguments());
  func.walk([&](Operation *op) {
    if (isa<ConvertLayoutOp>(op) || getLayoutRole(op) != LayoutRole::Fixed ||
        !getTiedLayoutGroups(op).empty())
      return;
    add(op->getOperands());
    add(op->getResults());
  });
  return layouts.takeVector();
}

LogicalResult mlir::tessera::assignLayouts(FunctionOpInterface func,
                                           const LayoutHints &hints,
                                           LayoutCostModel &costs) {
  return LayoutAssignment(func, hints, costs).run();
}
