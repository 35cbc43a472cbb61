//===- LayoutPropagation.h - How layouts flow through ops -------*- C++ -*-===//
//
// The rules that say which layouts an op's tensors may take without moving
// any element between threads: an elementwise op computes in whatever layout
// its operands have, a reduction's result lives in the slice of its
// operand's layout, a transpose relabels its operand's LinearLayout, and so
// on. Passes that assign layouts (convert-to-gpu) or move them
// (remove-layout-conversions) share these rules so that there is one
// definition of "free" layout changes.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_DIALECT_TESSERAGPU_IR_LAYOUTPROPAGATION_H
#define TESSERA_DIALECT_TESSERAGPU_IR_LAYOUTPROPAGATION_H

#include "tessera/Dialect/TesseraGPU/IR/LayoutUtils.h"

namespace mlir::tessera::gpu {

/// What the rules need besides the op itself.
struct LayoutHints {
  LayoutHints(const LaunchShape &launch, ArrayRef<Attribute> preferred = {})
      : launch(launch), preferred(preferred) {}

  /// The launch shape, which fixes the default blocked layouts.
  LaunchShape launch;
  /// Attributes to write an inferred layout with when one of them describes
  /// it (e.g. the layouts of the loads and stores nearby), so that the same
  /// layout is not spelled two ways and converted between.
  SmallVector<Attribute> preferred;
};

/// How an op constrains the layouts of its tensors.
enum class LayoutRole {
  /// The op makes the same tensor in any layout at no cost (splat, make_range,
  /// splat constants): it can be rebuilt in whatever layout a user wants.
  Free,
  /// The layouts of its results follow from those of its operands and back
  /// (elementwise ops, broadcast, expand_dims, reductions, scans, transposes,
  /// reshapes, joins, splits and concatenations): the whole op can be moved
  /// into another layout without moving data between threads.
  Propagatable,
  /// Anything else. Memory accesses keep the layouts coalescing chose, dots
  /// keep their operand and result layouts, shared-memory ops keep theirs, and
  /// ops nobody taught us about keep whatever they have.
  Fixed,
};

/// The role of `op`. Ops without distributed tensors are Fixed.
LayoutRole getLayoutRole(Operation *op);

/// The layouts of an op's operands and results, one entry per operand and
/// per result; null where that value is not a tensor with a distributed
/// layout.
struct OpLayouts {
  SmallVector<Attribute> operands;
  SmallVector<Attribute> results;
};

/// The layouts `op` has now.
OpLayouts getCurrentLayouts(Operation *op);

/// The layouts of every tensor of the Propagatable op `op` when operand
/// `operandIdx` takes `layout`; failure when the op cannot work in that
/// layout without moving data (e.g. a split whose pairs are spread over
/// threads) or `op` is not Propagatable.
FailureOr<OpLayouts> inferLayoutsFromOperand(Operation *op, unsigned operandIdx,
                                             Attribute layout,
                                             const LayoutHints &hints);

/// Like inferLayoutsFromOperand, from the layout of result `resultIdx`.
FailureOr<OpLayouts> inferLayoutsFromResult(Operation *op, unsigned resultIdx,
                                            Attribute layout,
                                            const LayoutHints &hints);

/// Whether the layouts `op` has agree with the rules above (compared as
/// LinearLayouts). Always true for ops that are not Propagatable.
bool hasConsistentLayouts(Operation *op, const LayoutHints &hints);

/// Whether `a` and `b` place every element of a tensor of `shape` in the
/// same register of the same thread.
bool isSameLayout(Attribute a, Attribute b, ArrayRef<int64_t> shape);

/// Values that control flow passes along and that must therefore share one
/// layout: an scf.for iteration variable (its init, region argument, yielded
/// value and result), an scf.if result (with what both branches yield), and
/// the two kinds of scf.while variables.
struct TiedLayoutGroup {
  /// Block arguments and op results carrying the value.
  SmallVector<Value> values;
  /// Operands handing the value in (inits, yields, scf.condition arguments).
  SmallVector<OpOperand *> operands;
};

/// The groups of an scf.for, scf.if or scf.while, one per variable that is a
/// tensor with a distributed layout; empty for other ops.
SmallVector<TiedLayoutGroup> getTiedLayoutGroups(Operation *op);

/// Builds a copy of the Free op `op` whose result has layout `layout`, at the
/// builder's insertion point.
Value cloneFreeOpWithLayout(OpBuilder &builder, Operation *op,
                            Attribute layout);

//===----------------------------------------------------------------------===//
// Individual rules
//===----------------------------------------------------------------------===//

/// Whether `layout` means the same thing for every tensor shape of its rank
/// (blocked, dot operand, slices of those), as opposed to a `linear` layout,
/// whose bases are written for one shape.
bool isShapeIndependent(Attribute layout);

/// How to write `layout` for a tensor of `shape`: the first of `candidates`,
/// then of the hints' preferred layouts, with that LinearLayout, else the
/// default blocked layout of the launch if it matches (readable, and what
/// coalescing recognizes), else a `linear` one.
Attribute getPreferredEncoding(MLIRContext *ctx, const LinearLayout &layout,
                               ArrayRef<int64_t> shape,
                               const LayoutHints &hints,
                               ArrayRef<Attribute> candidates = {});

/// The layout of a tensor of `parentShape` with dimension `dim` reduced
/// away: `slice<dim, parent>` for shape-independent parents, the sliced
/// LinearLayout otherwise (a slice of a `linear` layout would need the
/// parent's bases for a shape the parent was not written for).
Attribute getSliceEncoding(Attribute parent, ArrayRef<int64_t> parentShape,
                           unsigned dim, const LayoutHints &hints);

/// expand_dims: the result's layout for an operand of `srcShape` in `src`
/// (the parent of a slice along `axis`, else the operand's LinearLayout with
/// a dimension of size 1 inserted).
Attribute inferExpandDimsResultEncoding(Attribute src,
                                        ArrayRef<int64_t> srcShape,
                                        unsigned axis,
                                        const LayoutHints &hints);

/// expand_dims: the operand's layout for a result of `resultShape` in
/// `result`.
Attribute inferExpandDimsOperandEncoding(Attribute result,
                                         ArrayRef<int64_t> resultShape,
                                         unsigned axis,
                                         const LayoutHints &hints);

/// broadcast: the result keeps a shape-independent operand layout; fails for
/// a `linear` one, which says nothing about the new extent.
FailureOr<Attribute> inferBroadcastResultEncoding(Attribute src);

/// broadcast: the operand's layout for a result in `result` (the same
/// attribute when shape-independent, else the result's LinearLayout with the
/// broadcast dimensions collapsed: every thread keeps what it needs).
Attribute inferBroadcastOperandEncoding(Attribute result,
                                        ArrayRef<int64_t> resultShape,
                                        ArrayRef<int64_t> srcShape,
                                        const LayoutHints &hints);

/// trans: the result's layout (result dimension i is source dimension
/// order[i]); a blocked layout stays blocked. For the operand's layout from
/// the result's, pass the inverse permutation.
Attribute inferTransEncoding(Attribute src, ArrayRef<int64_t> srcShape,
                             ArrayRef<int32_t> order, const LayoutHints &hints);

/// reshape: every element keeps its thread and register, the row-major order
/// of the elements is unchanged. Works in both directions.
Attribute inferReshapeEncoding(Attribute src, ArrayRef<int64_t> srcShape,
                               ArrayRef<int64_t> dstShape,
                               const LayoutHints &hints);

/// join: the pair becomes the highest register of the operands' layout.
Attribute inferJoinResultEncoding(Attribute src, ArrayRef<int64_t> srcShape,
                                  const LayoutHints &hints);

/// join: the operands' layout, when one register of the result holds the
/// pair and nothing else moves along the new minor dimension.
FailureOr<Attribute> inferJoinOperandEncoding(Attribute result,
                                              ArrayRef<int64_t> resultShape,
                                              const LayoutHints &hints);

/// split: the results' layout, when one register holds each pair.
FailureOr<Attribute> inferSplitResultEncoding(Attribute src,
                                              ArrayRef<int64_t> srcShape,
                                              const LayoutHints &hints);

/// split: the operand's layout for results in `result`.
Attribute inferSplitOperandEncoding(Attribute result,
                                    ArrayRef<int64_t> resultShape,
                                    const LayoutHints &hints);

/// cat: the second operand goes to the registers above the first's.
Attribute inferCatResultEncoding(Attribute src, ArrayRef<int64_t> srcShape,
                                 const LayoutHints &hints);

/// cat: the operands' layout, when one register of the result chooses the
/// half along dimension 0.
FailureOr<Attribute> inferCatOperandEncoding(Attribute result,
                                             ArrayRef<int64_t> resultShape,
                                             const LayoutHints &hints);

} // namespace mlir::tessera::gpu

#endif // TESSERA_DIALECT_TESSERAGPU_IR_LAYOUTPROPAGATION_H
