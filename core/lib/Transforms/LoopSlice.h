//===- LoopSlice.h - A loop iteration's copy operands -----------*- C++ -*-===//
//
// The software pipeliners start an iteration's copies S - 1 iterations
// early, so the operands of those copies must be computable for any
// iteration: the slice of pure body operations they depend on, over the
// induction variable, values from outside the loop and carried values whose
// updates are slices too (pointers advanced each iteration). The carried
// values in the slice then get copies that run ahead.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_LIB_TRANSFORMS_LOOPSLICE_H
#define TESSERA_LIB_TRANSFORMS_LOOPSLICE_H

#include "tessera/Dialect/TesseraGPU/IR/SharedMemoryPlan.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SetVector.h"

#include <optional>

namespace mlir::tessera {

/// The body operations some values of a loop depend on.
class LoopSlice {
public:
  explicit LoopSlice(scf::ForOp loop) : loop(loop) {}

  /// Adds what `value` depends on; false when that includes an operation
  /// that is not pure and region-free (then the value cannot be computed
  /// for another iteration).
  bool add(Value value);

  /// True when an operation of the slice reads `value`.
  bool reads(Value value) const;

  /// Puts the slice in body order, so that a clone maps every operand
  /// before its use; call once everything is added.
  void sort();

  /// Clones the slice for the iteration whose induction variable is `iv`
  /// and whose carried values (those of getCarriedArgs()) are `carried`.
  void clone(OpBuilder &b, Value iv, ValueRange carried, IRMapping &map);

  /// The next carried values (getCarriedArgs()'s updates) of the iteration
  /// `map` holds a clone of.
  SmallVector<Value> getNextCarried(const IRMapping &map);

  /// The prologue at `b`, before the loop: the slice cloned for iterations
  /// 0 .. count-1, each passed to `issue` (its number, induction variable
  /// and clone), the carried values advancing from the loop's inits.
  /// Returns the carried values `count` iterations ahead.
  SmallVector<Value>
  clonePrologue(OpBuilder &b, int count,
                llvm::function_ref<void(int, Value, const IRMapping &)> issue);

  /// Makes every carried value of the slice that nothing reads but its own
  /// update (the copies now run ahead of it) pass through the loop
  /// unchanged, so that canonicalization drops it.
  void dropDeadCarriedUpdates();

  /// Indices of the carried values the slice reads.
  ArrayRef<unsigned> getCarriedArgs() const {
    return carriedArgs.getArrayRef();
  }

  /// The values from outside the loop's body that the slice (or a value
  /// added) reads: the same in every iteration of this loop, though an
  /// enclosing loop may change them.
  ArrayRef<Value> getInputs() const { return inputs.getArrayRef(); }

  /// The loop, after the pipeliner replaced it with one of the same body.
  void setLoop(scf::ForOp newLoop) { loop = newLoop; }

private:
  scf::ForOp loop;
  llvm::SetVector<Operation *> ops;
  llvm::SetVector<unsigned> carriedArgs;
  llvm::SetVector<Value> inputs;
};

/// Replaces `loop` with one of the same bounds, attributes and body that
/// carries `inits` (the loop's own carried values first, then more); the
/// body's arguments are the new loop's leading ones and the loop's results
/// its leading results. Returns the new loop.
scf::ForOp rebuildLoopWithInits(scf::ForOp loop, ValueRange inits);

/// An i32 constant.
Value createI32Constant(OpBuilder &b, Location loc, int64_t value);

/// `base + count * step` in the type of the induction variable.
Value advanceInductionVar(OpBuilder &b, Location loc, Value base, Value step,
                          int64_t count);

/// (slot + 1) % stages.
Value nextRingSlot(OpBuilder &b, Location loc, Value slot, int stages);

/// The shape of a loop's rings: `stages` (S - 1 iterations of copies in
/// flight) and `slots` (S plus the iterations dots may run behind).
struct RingShape {
  int stages = 0;
  int slots = 0;
};

/// The deepest rings of at most `stages` stages for which `fits(slots)`
/// holds: with `dotsInFlight` extra slots while two stages at least
/// remain, else without. Nullopt when not even two plain stages fit.
std::optional<RingShape> fitRings(int stages, int dotsInFlight,
                                  llvm::function_ref<bool(int slots)> fits);

/// A ring a pipeliner would add: the bytes of a slot, where it is
/// allocated (null: right before the loop) and its alignment.
struct RingBytes {
  uint64_t slotBytes = 0;
  Operation *start = nullptr;
  uint64_t alignment = gpu::kSwizzledBufferAlignment;
};

/// The shared memory rings must fit in: `limit` bytes a block may use (0:
/// no limit), less the `laterBytes` later stages add; `laterDropped` (may
/// be null) says which of the module's layout conversions later stages
/// drop, whose scratch space is then not counted.
struct SharedMemoryBudget {
  uint64_t limit = 0;
  uint64_t laterBytes = 0;
  llvm::function_ref<bool(Operation *)> laterDropped;
};

/// True when `budget` holds the module of `loop` without the `replaced`
/// operations (allocations, conversions) and with `rings` of `slots` slots
/// each, used up to `loop` and freed by a block barrier after it.
bool ringsFit(scf::ForOp loop, ArrayRef<RingBytes> rings, int slots,
              const SharedMemoryBudget &budget,
              ArrayRef<Operation *> replaced = {});

} // namespace mlir::tessera

#endif // TESSERA_LIB_TRANSFORMS_LOOPSLICE_H
