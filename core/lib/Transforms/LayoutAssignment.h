//===- LayoutAssignment.h - Choosing layouts to remove conversions -*- C++ -*-//
//
// The pieces of tessera-remove-layout-conversions: a cost model of layout
// conversions against recomputation, the global layout assignment (which
// moves whole groups of ops into the layout that needs the fewest
// conversions), and backward rematerialization (which recomputes cheap
// values in a second layout instead of converting them).
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_LIB_TRANSFORMS_LAYOUTASSIGNMENT_H
#define TESSERA_LIB_TRANSFORMS_LAYOUTASSIGNMENT_H

#include "tessera/Dialect/TesseraGPU/IR/LayoutPropagation.h"

#include "mlir/Interfaces/FunctionInterfaces.h"

namespace mlir::tessera {

/// What the rewrites weigh, in "register operations": one instruction applied
/// to one register of every thread. A conversion writes every element to
/// shared memory and reads it back in the other layout, behind a barrier, so
/// it costs a few operations per 32-bit word of each side (narrow elements
/// pack: converting after a truncation moves fewer bytes than before it)
/// plus a fixed amount;
/// recomputing an elementwise op costs one per register of its result. Code
/// in a loop runs an unknown number of times, counted as `kLoopWeight` per
/// level of nesting.
class LayoutCostModel {
public:
  /// Cost of one conversion apart from its size (barrier, addressing).
  static constexpr int64_t kConversionFixedCost = 16;
  /// Cost of moving one 32-bit word through shared memory (store or load).
  static constexpr int64_t kConversionCostPerRegister = 4;
  /// Cost of one lane shuffle and the combine after it, per register.
  static constexpr int64_t kShuffleCost = 2;
  /// Cost of a conversion between two attributes that place every element
  /// in the same register of the same thread: nothing moves, but the IR
  /// still carries an op, so it is avoided when there is a choice.
  static constexpr int64_t kEquivalentConversionCost = 1;
  /// How many times more often the body of a loop is assumed to run.
  static constexpr int64_t kLoopWeight = 8;
  /// Loops nested deeper than this weigh no more.
  static constexpr unsigned kMaxLoopDepth = 4;

  /// Registers each thread holds for a tensor of `type`'s shape in `layout`.
  int64_t registers(RankedTensorType type, Attribute layout);
  /// Whether `a` and `b` place every element of `type` identically.
  bool isSame(RankedTensorType type, Attribute a, Attribute b);
  /// Cost of converting `type` from `from` to `to` once.
  int64_t conversionCost(RankedTensorType type, Attribute from, Attribute to);
  /// Cost of running `op` once with its operands and results in the given
  /// layouts (null for values that are not distributed tensors): one
  /// operation per result register, except for reductions and scans, which
  /// also pay for combining across lanes (shuffles) and across warps (a round
  /// through shared memory) when their axis is spread over them.
  int64_t opCost(Operation *op, ArrayRef<Attribute> operandLayouts,
                 ArrayRef<Attribute> resultLayouts);
  /// How often code in `block` runs relative to the function body.
  static int64_t executionWeight(Block *block);

private:
  struct LayoutFacts {
    gpu::LinearAttr canonical;
    int64_t registers;
  };
  /// By value: a reference into `cache` dies with the next insertion
  /// (isSame asks for two).
  LayoutFacts facts(RankedTensorType type, Attribute layout);
  /// Cost of combining `type` in `layout` along `axis` (reduce or scan).
  int64_t combineCost(RankedTensorType type, Attribute layout, unsigned axis,
                      bool keepsAxis);
  DenseMap<Type, LayoutFacts> cache;
  DenseMap<std::pair<Type, unsigned>, int64_t> combineCache;
};

/// The layouts of the anchors of `func` (the tensors of its Fixed ops and
/// its arguments), in program order: what inferred layouts are preferably
/// written as.
SmallVector<Attribute> collectAnchorLayouts(FunctionOpInterface func);

/// Chooses the layout of every tensor computed by Propagatable ops and
/// carried by control flow in `func` so as to minimize the cost of the
/// conversions left plus the computation, rewrites `func` accordingly and
/// rebuilds every conversion it still needs right after the value it
/// converts. Fails only on an internal inconsistency.
LogicalResult assignLayouts(FunctionOpInterface func,
                            const gpu::LayoutHints &hints,
                            LayoutCostModel &costs);

/// Replaces conversions of values that are cheap to recompute (chains of
/// pure Propagatable ops over Free ops) by the same computation in the
/// target layout, when the duplicated work costs no more than the
/// conversion.
void rematerializeConversions(FunctionOpInterface func,
                              const gpu::LayoutHints &hints,
                              LayoutCostModel &costs);

} // namespace mlir::tessera

#endif // TESSERA_LIB_TRANSFORMS_LAYOUTASSIGNMENT_H
