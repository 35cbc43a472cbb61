//===- SharedMemoryPlan.cpp - Where a block's shared memory goes ----------===//
//
// Lives are intervals of a pre-order numbering of the operations under the
// root (an operation's own index, then its regions'); a use inside an
// operation counts as a use of its ancestor in the block of the
// allocation, so a loop that uses a buffer keeps it alive throughout.
//
//===----------------------------------------------------------------------===//
#include "tessera/Dialect/TesseraGPU/IR/SharedMemoryPlan.h"

#include "tessera/Dialect/TesseraGPU/IR/Dialect.h"

#include "mlir/Interfaces/LoopLikeInterface.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tessera;
using namespace mlir::tessera::gpu;

Operation *mlir::tessera::gpu::getAllocation(Value view) {
  while (Operation *def = view.getDefiningOp()) {
    if (isa<LocalAllocOp>(def))
      return def;
    if (!isa<MemDescIndexOp, MemDescTransOp>(def))
      return nullptr;
    view = def->getOperand(0);
  }
  return nullptr;
}

namespace {

/// A closed interval of operation indices.
struct Life {
  uint64_t first = 0, last = 0;
  bool overlaps(const Life &other) const {
    return first <= other.last && other.first <= last;
  }
};

class Planner {
public:
  explicit Planner(Operation *root) : root(root) { number(root); }

  /// The life of something allocated right before `at` (in `at`'s block)
  /// whose last use inside that block is `lastUse` (or its subtree), or
  /// that a barrier follows right after `lastUse` when `barrierAfter`.
  Life getLife(Operation *at, Operation *lastUse, bool barrierAfter) const {
    Life life{index.lookup(at), last.lookup(lastUse)};
    if (barrierAfter)
      return life;
    // Free at the first block barrier after the last use: every thread is
    // then done with the bytes.
    for (Operation *op = lastUse->getNextNode(); op; op = op->getNextNode())
      if (isa<BarrierOp>(op))
        return Life{life.first, index.lookup(op)};
    // No barrier: alive to the end of the block -- and, in a loop, through
    // the next iterations up to where it is used again.
    Operation *outer = nullptr;
    for (Operation *p = at->getParentOp(); p && p != root; p = p->getParentOp())
      if (isa<LoopLikeOpInterface>(p))
        outer = p;
    if (outer)
      return Life{index.lookup(outer), last.lookup(outer)};
    return Life{life.first, last.lookup(at->getBlock()->getParentOp())};
  }

  /// The life of the buffer `alloc` allocates.
  Life getBufferLife(Operation *alloc) const {
    Block *block = alloc->getBlock();
    Operation *lastUse = alloc;
    llvm::SmallPtrSet<Operation *, 2> seen{alloc};
    SmallVector<Value> views{alloc->getResult(0)};
    while (!views.empty()) {
      Value view = views.pop_back_val();
      for (Operation *user : view.getUsers()) {
        // A view (slot, transposition) is a use through its own uses.
        if (isa<MemDescIndexOp, MemDescTransOp>(user))
          views.push_back(user->getResult(0));
        // The copies into a buffer complete through their barrier: the
        // buffer lives as long as that (its allocation in the same block).
        if (auto copy = dyn_cast<AsyncTensorLoadOp>(user))
          if (copy.getDst() == view)
            if (Operation *barrier = getAllocation(copy.getBarrier()))
              if (barrier->getBlock() == block && seen.insert(barrier).second)
                views.push_back(barrier->getResult(0));
        Operation *top = user;
        while (top && top->getBlock() != block)
          top = top->getParentOp();
        if (!top || top == root)
          return Life{index.lookup(alloc), last.lookup(root)};
        if (index.lookup(top) > index.lookup(lastUse))
          lastUse = top;
      }
    }
    return getLife(alloc, lastUse, /*barrierAfter=*/false);
  }

  Life getPlannedLife(const PlannedBuffer &planned) const {
    Life life = getLife(planned.at, planned.at, planned.barrierAfter);
    if (planned.start)
      life.first = std::min(life.first, index.lookup(planned.start));
    return life;
  }

  uint64_t getIndex(Operation *op) const { return index.lookup(op); }

private:
  void number(Operation *op) {
    index[op] = next++;
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (Operation &child : block)
          number(&child);
    last[op] = next - 1;
  }

  Operation *root;
  uint64_t next = 0;
  llvm::DenseMap<Operation *, uint64_t> index, last;
};

struct Placed {
  Life life;
  uint64_t offset, end;
};

/// The lowest offset aligned to `alignment` where `bytes` bytes overlap no
/// placed buffer whose life overlaps `life`.
uint64_t findOffset(ArrayRef<Placed> placed, const Life &life, uint64_t bytes,
                    uint64_t alignment) {
  SmallVector<const Placed *> live;
  for (const Placed &p : placed)
    if (p.life.overlaps(life) && p.end > p.offset)
      live.push_back(&p);
  llvm::sort(live, [](const Placed *a, const Placed *b) {
    return a->offset < b->offset;
  });
  uint64_t offset = 0;
  bool moved = true;
  while (moved) {
    moved = false;
    for (const Placed *p : live)
      if (offset < p->end && p->offset < offset + bytes) {
        offset = llvm::alignTo(p->end, alignment);
        moved = true;
      }
  }
  return offset;
}

} // namespace

std::pair<uint64_t, uint64_t>
mlir::tessera::gpu::getBufferBytesAndAlignment(Type type) {
  auto memdesc = cast<MemDescType>(type);
  Type element = memdesc.getElementType();
  uint64_t bytes =
      element.isIntOrFloat()
          ? std::max<uint64_t>(1, element.getIntOrFloatBitWidth() / 8)
          : 8;
  for (int64_t d : memdesc.getShape())
    bytes *= d;
  // Swizzled tiles start where their pattern does (however small: a
  // 512-byte tile of 64-byte rows still repeats every 512 bytes).
  auto layout = dyn_cast<SwizzledSharedAttr>(memdesc.getEncoding());
  bool swizzled = layout && layout.getMaxPhase() > 1;
  return {bytes, swizzled ? kSwizzledBufferAlignment : kBufferAlignment};
}

SharedMemoryPlan mlir::tessera::gpu::planSharedMemory(
    Operation *root, llvm::function_ref<uint64_t(Operation *)> getScratchBytes,
    ArrayRef<PlannedBuffer> planned, ArrayRef<Operation *> replaced) {
  Planner planner(root);
  // Buffers in program order; a planned one right before its operation.
  struct Item {
    uint64_t order;
    Operation *alloc; // null for a planned buffer
    const PlannedBuffer *planned;
  };
  SmallVector<Item> items;
  SmallVector<Operation *> scratchOps;
  SharedMemoryPlan plan;
  root->walk([&](Operation *op) {
    if (llvm::is_contained(replaced, op))
      return;
    if (isa<LocalAllocOp>(op))
      items.push_back({2 * planner.getIndex(op) + 1, op, nullptr});
    if (uint64_t bytes = getScratchBytes(op)) {
      scratchOps.push_back(op);
      plan.scratchBytes = std::max(plan.scratchBytes, bytes);
    }
  });
  for (const PlannedBuffer &p : planned)
    items.push_back(
        {2 * planner.getIndex(p.start ? p.start : p.at), nullptr, &p});
  llvm::stable_sort(
      items, [](const Item &a, const Item &b) { return a.order < b.order; });

  SmallVector<Placed> placed;
  for (const Item &item : items) {
    uint64_t bytes, alignment;
    Life life;
    if (item.alloc) {
      std::tie(bytes, alignment) =
          getBufferBytesAndAlignment(item.alloc->getResult(0).getType());
      life = planner.getBufferLife(item.alloc);
    } else {
      bytes = item.planned->bytes;
      alignment = item.planned->alignment;
      life = planner.getPlannedLife(*item.planned);
    }
    uint64_t offset = findOffset(placed, life, bytes, alignment);
    placed.push_back({life, offset, offset + bytes});
    if (item.alloc)
      plan.bufferOffsets[item.alloc] = offset;
    plan.buffersEnd = std::max(plan.buffersEnd, offset + bytes);
  }

  // The scratch space: clear of every buffer alive where it is used.
  if (scratchOps.empty()) {
    plan.scratchOffset = llvm::alignTo(plan.buffersEnd, kBufferAlignment);
    return plan;
  }
  SmallVector<Life> scratchLives;
  for (Operation *op : scratchOps)
    scratchLives.push_back(planner.getLife(op, op, /*barrierAfter=*/false));
  SmallVector<Placed> alive;
  for (const Placed &p : placed)
    if (llvm::any_of(scratchLives,
                     [&](const Life &life) { return p.life.overlaps(life); }))
      alive.push_back(Placed{Life{0, 0}, p.offset, p.end});
  plan.scratchOffset =
      findOffset(alive, Life{0, 0}, plan.scratchBytes, kBufferAlignment);
  return plan;
}
