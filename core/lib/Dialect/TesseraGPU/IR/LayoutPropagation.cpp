//===- LayoutPropagation.cpp - How layouts flow through ops ---------------===//
#include "tessera/Dialect/TesseraGPU/IR/LayoutPropagation.h"
#include "tessera/Layout/LayoutConversions.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::tessera;
using namespace mlir::tessera::gpu;

namespace {

/// The distributed layout of `value`, or null.
Attribute layoutOf(Value value) {
  if (DistributedLayoutAttr layout = getDistributedEncoding(value.getType()))
    return layout;
  return {};
}

ArrayRef<int64_t> shapeOf(Value value) {
  return cast<RankedTensorType>(value.getType()).getShape();
}

LinearLayout toLL(Attribute layout, ArrayRef<int64_t> shape) {
  return cast<DistributedLayoutAttr>(layout).toLinearLayout(shape);
}

SmallVector<LinearLayout::NamedInt>
standardOutDims(ArrayRef<int64_t> shape, SmallVectorImpl<std::string> &names) {
  names.clear();
  for (unsigned i = 0; i < shape.size(); ++i)
    names.push_back(getTensorDimName(i));
  SmallVector<LinearLayout::NamedInt> outs;
  for (unsigned i = 0; i < shape.size(); ++i)
    outs.push_back({names[i], int32_t(shape[i])});
  return outs;
}

/// `layout` with its bases rewritten by `edit` (which gets the input
/// dimension name and the bases, and may drop or change any), for a tensor of
/// `shape`.
LinearLayout
rebuild(const LinearLayout &layout, ArrayRef<int64_t> shape,
        function_ref<void(StringRef, SmallVectorImpl<LinearLayout::Basis> &)>
            edit) {
  LinearLayout::BasesT bases;
  for (const auto &[inDim, dimBases] : layout.getBases()) {
    SmallVector<LinearLayout::Basis> edited(dimBases.begin(), dimBases.end());
    edit(inDim, edited);
    bases.push_back({inDim, std::move(edited)});
  }
  SmallVector<std::string> names;
  return LinearLayout(std::move(bases), standardOutDims(shape, names));
}

/// Renames the output dimensions of `layout` to dim0..dimN-1 in order.
LinearLayout renameOutsToStandard(const LinearLayout &layout) {
  LinearLayout result = layout;
  SmallVector<std::string> names;
  for (StringRef name : layout.getOutDimNames())
    names.push_back(name.str());
  // Two steps so that a new name never collides with one still in use.
  for (auto [i, name] : llvm::enumerate(names))
    result = result.renameOutDim(name, "tmp" + std::to_string(i));
  for (unsigned i = 0; i < names.size(); ++i)
    result =
        result.renameOutDim("tmp" + std::to_string(i), getTensorDimName(i));
  return result;
}

/// The blocked layout `src` with its dimensions permuted by `order` (result
/// dimension i is source dimension order[i]).
BlockedAttr permuteBlocked(BlockedAttr src, ArrayRef<int32_t> order) {
  SmallVector<unsigned> spt, tpw, wpc, cpc, newOrder;
  SmallVector<unsigned> position(order.size());
  for (auto [i, d] : llvm::enumerate(order))
    position[d] = i;
  SmallVector<unsigned> ctas = src.getCTAsPerCGAOrOnes();
  for (int32_t d : order) {
    spt.push_back(src.getSizePerThread()[d]);
    tpw.push_back(src.getThreadsPerWarp()[d]);
    wpc.push_back(src.getWarpsPerCTA()[d]);
    cpc.push_back(ctas[d]);
  }
  for (unsigned d : src.getOrder())
    newOrder.push_back(position[d]);
  if (src.getCTAsPerCGA().empty())
    cpc.clear();
  return BlockedAttr::get(src.getContext(), spt, tpw, wpc, newOrder, cpc);
}

/// The blocked layout `src` with a dimension of size 1 inserted at `axis`,
/// slowest in the order (its position does not matter: nothing spans it).
BlockedAttr insertBlockedDim(BlockedAttr src, unsigned axis) {
  auto insert = [&](ArrayRef<unsigned> values) {
    SmallVector<unsigned> result(values);
    result.insert(result.begin() + axis, 1);
    return result;
  };
  SmallVector<unsigned> order;
  for (unsigned d : src.getOrder())
    order.push_back(d >= axis ? d + 1 : d);
  order.push_back(axis);
  SmallVector<unsigned> ctas;
  if (!src.getCTAsPerCGA().empty())
    ctas = insert(src.getCTAsPerCGA());
  return BlockedAttr::get(src.getContext(), insert(src.getSizePerThread()),
                          insert(src.getThreadsPerWarp()),
                          insert(src.getWarpsPerCTA()), order, ctas);
}

/// Removes from `layout` the register basis that is exactly `pairBasis` when
/// no other basis reaches past `limit` along dimension `dim`, and shrinks
/// that dimension to `limit` (or drops it when `dropDim`); this undoes
/// appending one register that selects between two halves of the tensor.
FailureOr<LinearLayout> removePairRegister(const LinearLayout &layout,
                                           ArrayRef<int32_t> pairBasis,
                                           unsigned dim, int32_t limit,
                                           ArrayRef<int64_t> newShape,
                                           bool dropDim) {
  bool found = false, clean = true;
  for (const auto &[inDim, dimBases] : layout.getBases())
    for (const LinearLayout::Basis &basis : dimBases) {
      if (!found && inDim == kRegisterDim && ArrayRef(basis) == pairBasis) {
        found = true;
        continue;
      }
      if (basis[dim] >= limit)
        clean = false;
    }
  if (!found || !clean)
    return failure();
  return rebuild(
      layout, newShape,
      [&](StringRef inDim, SmallVectorImpl<LinearLayout::Basis> &bs) {
        if (inDim == kRegisterDim) {
          auto *it = llvm::find_if(
              bs, [&](const auto &b) { return ArrayRef(b) == pairBasis; });
          bs.erase(it);
        }
        if (dropDim)
          for (LinearLayout::Basis &b : bs)
            b.erase(b.begin() + dim);
      });
}

/// Appends a register selecting between two halves along `dim`: a new minor
/// dimension (join, `dim` == rank) or the upper half of dimension 0 (cat).
LinearLayout appendPairRegister(const LinearLayout &layout, unsigned dim) {
  return layout *
         LinearLayout::identity1D(2, kRegisterDim, getTensorDimName(dim));
}

/// Whether `layout` describes tensors of `shape` (a `linear` layout only
/// fits the shape its bases were written for).
bool fitsShape(Attribute layout, ArrayRef<int64_t> shape) {
  auto distributed = dyn_cast<DistributedLayoutAttr>(layout);
  if (!distributed || distributed.getRank() != shape.size())
    return false;
  if (auto slice = dyn_cast<SliceAttr>(layout)) {
    SmallVector<int64_t> parentShape(shape);
    parentShape.insert(parentShape.begin() + slice.getDim(), 1);
    return fitsShape(slice.getParent(), parentShape);
  }
  auto linear = dyn_cast<LinearAttr>(layout);
  if (!linear)
    return true;
  LinearLayout::BasesT bases;
  for (StringRef dim : {kRegisterDim, kLaneDim, kWarpDim, kBlockDim}) {
    SmallVector<LinearLayout::Basis> dimBases;
    for (const SmallVector<int32_t> &b : linear.getBases(dim))
      dimBases.emplace_back(b.begin(), b.end());
    bases.push_back({dim.str(), std::move(dimBases)});
  }
  SmallVector<std::string> names;
  llvm::Expected<LinearLayout> ll =
      LinearLayout::create(std::move(bases), standardOutDims(shape, names));
  if (!ll) {
    llvm::consumeError(ll.takeError());
    return false;
  }
  return true;
}

/// Every distributed tensor of `op` in `layout`.
OpLayouts uniformLayouts(Operation *op, Attribute layout) {
  OpLayouts result;
  for (Value v : op->getOperands())
    result.operands.push_back(layoutOf(v) ? layout : Attribute());
  for (Value v : op->getResults())
    result.results.push_back(layoutOf(v) ? layout : Attribute());
  return result;
}

bool isElementwise(Operation *op) {
  if (auto asmOp = dyn_cast<InlineAsmElementwiseOp>(op))
    // Packed elements go to one asm instance together, so the grouping
    // depends on the layout.
    return asmOp.getPackedElement() == 1;
  return op->hasTrait<OpTrait::Elementwise>() || isa<HintOp>(op);
}

/// The inverse of the permutation `order`.
SmallVector<int32_t> invertPermutation(ArrayRef<int32_t> order) {
  SmallVector<int32_t> inverse(order.size());
  for (auto [i, d] : llvm::enumerate(order))
    inverse[d] = i;
  return inverse;
}

} // namespace

//===----------------------------------------------------------------------===//
// Individual rules
//===----------------------------------------------------------------------===//

bool mlir::tessera::gpu::isShapeIndependent(Attribute layout) {
  if (isa<BlockedAttr, DotOperandAttr>(layout))
    return true;
  if (auto slice = dyn_cast<SliceAttr>(layout))
    return isShapeIndependent(slice.getParent());
  return false;
}

bool mlir::tessera::gpu::isSameLayout(Attribute a, Attribute b,
                                      ArrayRef<int64_t> shape) {
  if (a == b)
    return true;
  if (!a || !b)
    return false;
  // The linear form is canonical: equal bases, equal placement.
  MLIRContext *ctx = a.getContext();
  return LinearAttr::get(ctx, toLL(a, shape)) ==
         LinearAttr::get(ctx, toLL(b, shape));
}

Attribute mlir::tessera::gpu::getPreferredEncoding(
    MLIRContext *ctx, const LinearLayout &layout, ArrayRef<int64_t> shape,
    const LayoutHints &hints, ArrayRef<Attribute> candidates) {
  LinearAttr linear = LinearAttr::get(ctx, layout);
  auto matches = [&](Attribute candidate) {
    return candidate && fitsShape(candidate, shape) &&
           LinearAttr::get(ctx, toLL(candidate, shape)) == linear;
  };
  for (Attribute candidate : candidates)
    if (matches(candidate))
      return candidate;
  for (Attribute candidate : hints.preferred)
    if (matches(candidate))
      return candidate;
  const LaunchShape &launch = hints.launch;
  BlockedAttr blocked = getDefaultBlockedEncoding(
      ctx, shape, launch.numWarps, launch.threadsPerWarp, launch.numCTAs);
  if (matches(blocked))
    return blocked;
  return linear;
}

Attribute mlir::tessera::gpu::getSliceEncoding(Attribute parent,
                                               ArrayRef<int64_t> parentShape,
                                               unsigned dim,
                                               const LayoutHints &hints) {
  if (isShapeIndependent(parent))
    return SliceAttr::get(parent.getContext(), dim, parent);
  SmallVector<int64_t> shape(parentShape);
  shape.erase(shape.begin() + dim);
  return getPreferredEncoding(
      parent.getContext(), sliceToLinearLayout(toLL(parent, parentShape), dim),
      shape, hints);
}

Attribute mlir::tessera::gpu::inferExpandDimsResultEncoding(
    Attribute src, ArrayRef<int64_t> srcShape, unsigned axis,
    const LayoutHints &hints) {
  if (auto slice = dyn_cast<SliceAttr>(src))
    if (slice.getDim() == axis)
      return slice.getParent();
  SmallVector<int64_t> shape(srcShape);
  shape.insert(shape.begin() + axis, 1);
  LinearLayout layout =
      rebuild(toLL(src, srcShape), shape,
              [&](StringRef, SmallVectorImpl<LinearLayout::Basis> &bases) {
                for (LinearLayout::Basis &b : bases)
                  b.insert(b.begin() + axis, 0);
              });
  SmallVector<Attribute> candidates;
  if (auto blocked = dyn_cast<BlockedAttr>(src))
    candidates.push_back(insertBlockedDim(blocked, axis));
  return getPreferredEncoding(src.getContext(), layout, shape, hints,
                              candidates);
}

Attribute mlir::tessera::gpu::inferExpandDimsOperandEncoding(
    Attribute result, ArrayRef<int64_t> resultShape, unsigned axis,
    const LayoutHints &hints) {
  return getSliceEncoding(result, resultShape, axis, hints);
}

FailureOr<Attribute>
mlir::tessera::gpu::inferBroadcastResultEncoding(Attribute src) {
  if (isShapeIndependent(src))
    return src;
  return failure();
}

Attribute mlir::tessera::gpu::inferBroadcastOperandEncoding(
    Attribute result, ArrayRef<int64_t> resultShape, ArrayRef<int64_t> srcShape,
    const LayoutHints &hints) {
  if (isShapeIndependent(result))
    return result;
  // Collapse the broadcast dimensions: a thread then holds, for every element
  // it holds in the result, the one element it was broadcast from.
  LinearLayout layout =
      rebuild(toLL(result, resultShape), srcShape,
              [&](StringRef, SmallVectorImpl<LinearLayout::Basis> &bases) {
                for (LinearLayout::Basis &b : bases)
                  for (unsigned d = 0; d < srcShape.size(); ++d)
                    if (srcShape[d] != resultShape[d])
                      b[d] = 0;
              });
  layout = layout.removeZeroBasesAlongDim(kRegisterDim);
  return getPreferredEncoding(result.getContext(), layout, srcShape, hints);
}

Attribute mlir::tessera::gpu::inferTransEncoding(Attribute src,
                                                 ArrayRef<int64_t> srcShape,
                                                 ArrayRef<int32_t> order,
                                                 const LayoutHints &hints) {
  SmallVector<std::string> names;
  for (int32_t d : order)
    names.push_back(getTensorDimName(d));
  SmallVector<StringRef> nameRefs(names.begin(), names.end());
  LinearLayout layout =
      renameOutsToStandard(toLL(src, srcShape).transposeOuts(nameRefs));
  SmallVector<int64_t> shape;
  for (int32_t d : order)
    shape.push_back(srcShape[d]);
  // A transposed blocked layout is still blocked: keep it readable.
  SmallVector<Attribute> candidates;
  if (auto blocked = dyn_cast<BlockedAttr>(src))
    candidates.push_back(permuteBlocked(blocked, order));
  return getPreferredEncoding(src.getContext(), layout, shape, hints,
                              candidates);
}

Attribute mlir::tessera::gpu::inferReshapeEncoding(Attribute src,
                                                   ArrayRef<int64_t> srcShape,
                                                   ArrayRef<int64_t> dstShape,
                                                   const LayoutHints &hints) {
  // Rename first so that the new names never clash with the old ones.
  LinearLayout layout = toLL(src, srcShape);
  SmallVector<std::string> oldNames;
  for (StringRef name : layout.getOutDimNames())
    oldNames.push_back(name.str());
  for (auto [i, name] : llvm::enumerate(oldNames))
    layout = layout.renameOutDim(name, "old" + std::to_string(i));
  SmallVector<std::string> names;
  layout = layout.reshapeOuts(standardOutDims(dstShape, names));
  return getPreferredEncoding(src.getContext(), layout, dstShape, hints);
}

Attribute mlir::tessera::gpu::inferJoinResultEncoding(
    Attribute src, ArrayRef<int64_t> srcShape, const LayoutHints &hints) {
  SmallVector<int64_t> shape(srcShape);
  shape.push_back(2);
  return getPreferredEncoding(
      src.getContext(),
      appendPairRegister(toLL(src, srcShape), srcShape.size()), shape, hints);
}

FailureOr<Attribute> mlir::tessera::gpu::inferJoinOperandEncoding(
    Attribute result, ArrayRef<int64_t> resultShape, const LayoutHints &hints) {
  unsigned minor = resultShape.size() - 1;
  SmallVector<int32_t> pair(resultShape.size(), 0);
  pair[minor] = 1;
  ArrayRef<int64_t> shape = resultShape.drop_back();
  FailureOr<LinearLayout> layout =
      removePairRegister(toLL(result, resultShape), pair, minor, /*limit=*/1,
                         shape, /*dropDim=*/true);
  if (failed(layout))
    return failure();
  return getPreferredEncoding(result.getContext(), *layout, shape, hints);
}

FailureOr<Attribute> mlir::tessera::gpu::inferSplitResultEncoding(
    Attribute src, ArrayRef<int64_t> srcShape, const LayoutHints &hints) {
  // A split undoes a join: the results drop the register holding the pair.
  return inferJoinOperandEncoding(src, srcShape, hints);
}

Attribute mlir::tessera::gpu::inferSplitOperandEncoding(
    Attribute result, ArrayRef<int64_t> resultShape, const LayoutHints &hints) {
  return inferJoinResultEncoding(result, resultShape, hints);
}

Attribute mlir::tessera::gpu::inferCatResultEncoding(Attribute src,
                                                     ArrayRef<int64_t> srcShape,
                                                     const LayoutHints &hints) {
  SmallVector<int64_t> shape(srcShape);
  shape[0] *= 2;
  return getPreferredEncoding(src.getContext(),
                              appendPairRegister(toLL(src, srcShape), 0), shape,
                              hints);
}

FailureOr<Attribute> mlir::tessera::gpu::inferCatOperandEncoding(
    Attribute result, ArrayRef<int64_t> resultShape, const LayoutHints &hints) {
  if (resultShape[0] < 2)
    return failure();
  int32_t half = resultShape[0] / 2;
  SmallVector<int32_t> pair(resultShape.size(), 0);
  pair[0] = half;
  SmallVector<int64_t> shape(resultShape);
  shape[0] = half;
  FailureOr<LinearLayout> layout =
      removePairRegister(toLL(result, resultShape), pair, 0, half, shape,
                         /*dropDim=*/false);
  if (failed(layout))
    return failure();
  return getPreferredEncoding(result.getContext(), *layout, shape, hints);
}

//===----------------------------------------------------------------------===//
// Whole ops
//===----------------------------------------------------------------------===//

LayoutRole mlir::tessera::gpu::getLayoutRole(Operation *op) {
  auto hasLayout = [](Value v) { return bool(layoutOf(v)); };
  if (isa<SplatOp, MakeRangeOp>(op))
    return hasLayout(op->getResult(0)) ? LayoutRole::Free : LayoutRole::Fixed;
  if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
    auto dense = dyn_cast<DenseElementsAttr>(constant.getValue());
    return dense && dense.isSplat() && hasLayout(constant.getResult())
               ? LayoutRole::Free
               : LayoutRole::Fixed;
  }
  if (llvm::none_of(op->getOperands(), hasLayout) &&
      llvm::none_of(op->getResults(), hasLayout))
    return LayoutRole::Fixed;
  if (isa<BroadcastOp, ExpandDimsOp, ReduceOp, ScanOp, TransOp, ReshapeOp,
          JoinOp, SplitOp, CatOp>(op) ||
      isElementwise(op))
    return LayoutRole::Propagatable;
  return LayoutRole::Fixed;
}

OpLayouts mlir::tessera::gpu::getCurrentLayouts(Operation *op) {
  OpLayouts result;
  for (Value v : op->getOperands())
    result.operands.push_back(layoutOf(v));
  for (Value v : op->getResults())
    result.results.push_back(layoutOf(v));
  return result;
}

FailureOr<OpLayouts>
mlir::tessera::gpu::inferLayoutsFromOperand(Operation *op, unsigned operandIdx,
                                            Attribute layout,
                                            const LayoutHints &hints) {
  if (getLayoutRole(op) != LayoutRole::Propagatable ||
      operandIdx >= op->getNumOperands() ||
      !layoutOf(op->getOperand(operandIdx)) || !layout)
    return failure();
  ArrayRef<int64_t> srcShape = shapeOf(op->getOperand(operandIdx));
  OpLayouts result = uniformLayouts(op, layout);
  auto setResults = [&](Attribute resultLayout) {
    for (Attribute &r : result.results)
      if (r)
        r = resultLayout;
  };
  return TypeSwitch<Operation *, FailureOr<OpLayouts>>(op)
      .Case([&](BroadcastOp) -> FailureOr<OpLayouts> {
        FailureOr<Attribute> res = inferBroadcastResultEncoding(layout);
        if (failed(res))
          return failure();
        setResults(*res);
        return result;
      })
      .Case([&](ExpandDimsOp expand) -> FailureOr<OpLayouts> {
        setResults(inferExpandDimsResultEncoding(layout, srcShape,
                                                 expand.getAxis(), hints));
        return result;
      })
      .Case([&](ReduceOp reduce) -> FailureOr<OpLayouts> {
        // A rank-1 reduction yields scalars, which have no layout (and a
        // rank-0 slice has no blocked form to compare with).
        if (srcShape.size() > 1)
          setResults(
              getSliceEncoding(layout, srcShape, reduce.getAxis(), hints));
        return result;
      })
      .Case([&](TransOp trans) -> FailureOr<OpLayouts> {
        setResults(
            inferTransEncoding(layout, srcShape, trans.getOrder(), hints));
        return result;
      })
      .Case([&](ReshapeOp reshape) -> FailureOr<OpLayouts> {
        setResults(inferReshapeEncoding(layout, srcShape,
                                        reshape.getType().getShape(), hints));
        return result;
      })
      .Case([&](JoinOp) -> FailureOr<OpLayouts> {
        setResults(inferJoinResultEncoding(layout, srcShape, hints));
        return result;
      })
      .Case([&](SplitOp) -> FailureOr<OpLayouts> {
        FailureOr<Attribute> res =
            inferSplitResultEncoding(layout, srcShape, hints);
        if (failed(res))
          return failure();
        setResults(*res);
        return result;
      })
      .Case([&](CatOp) -> FailureOr<OpLayouts> {
        setResults(inferCatResultEncoding(layout, srcShape, hints));
        return result;
      })
      // Elementwise ops, scans and hints: one layout for everything.
      .Default([&](Operation *) -> FailureOr<OpLayouts> { return result; });
}

FailureOr<OpLayouts>
mlir::tessera::gpu::inferLayoutsFromResult(Operation *op, unsigned resultIdx,
                                           Attribute layout,
                                           const LayoutHints &hints) {
  if (getLayoutRole(op) != LayoutRole::Propagatable ||
      resultIdx >= op->getNumResults() || !layoutOf(op->getResult(resultIdx)) ||
      !layout)
    return failure();
  ArrayRef<int64_t> resultShape = shapeOf(op->getResult(resultIdx));
  OpLayouts result = uniformLayouts(op, layout);
  auto setOperands = [&](Attribute operandLayout) {
    for (Attribute &o : result.operands)
      if (o)
        o = operandLayout;
  };
  auto srcShape = [&]() { return shapeOf(op->getOperand(0)); };
  return TypeSwitch<Operation *, FailureOr<OpLayouts>>(op)
      .Case([&](BroadcastOp) -> FailureOr<OpLayouts> {
        setOperands(inferBroadcastOperandEncoding(layout, resultShape,
                                                  srcShape(), hints));
        return result;
      })
      .Case([&](ExpandDimsOp expand) -> FailureOr<OpLayouts> {
        setOperands(inferExpandDimsOperandEncoding(layout, resultShape,
                                                   expand.getAxis(), hints));
        return result;
      })
      .Case([&](ReduceOp reduce) -> FailureOr<OpLayouts> {
        // Only a slice says what the operand looked like; its parent must
        // also fit the operand's (larger) shape.
        auto slice = dyn_cast<SliceAttr>(layout);
        if (!slice || slice.getDim() != reduce.getAxis() ||
            !isShapeIndependent(slice.getParent()))
          return failure();
        setOperands(slice.getParent());
        return result;
      })
      .Case([&](TransOp trans) -> FailureOr<OpLayouts> {
        setOperands(inferTransEncoding(
            layout, resultShape, invertPermutation(trans.getOrder()), hints));
        return result;
      })
      .Case([&](ReshapeOp) -> FailureOr<OpLayouts> {
        setOperands(
            inferReshapeEncoding(layout, resultShape, srcShape(), hints));
        return result;
      })
      .Case([&](JoinOp) -> FailureOr<OpLayouts> {
        FailureOr<Attribute> operand =
            inferJoinOperandEncoding(layout, resultShape, hints);
        if (failed(operand))
          return failure();
        setOperands(*operand);
        return result;
      })
      .Case([&](SplitOp) -> FailureOr<OpLayouts> {
        setOperands(inferSplitOperandEncoding(layout, resultShape, hints));
        return result;
      })
      .Case([&](CatOp) -> FailureOr<OpLayouts> {
        FailureOr<Attribute> operand =
            inferCatOperandEncoding(layout, resultShape, hints);
        if (failed(operand))
          return failure();
        setOperands(*operand);
        return result;
      })
      .Default([&](Operation *) -> FailureOr<OpLayouts> { return result; });
}

bool mlir::tessera::gpu::hasConsistentLayouts(Operation *op,
                                              const LayoutHints &hints) {
  if (getLayoutRole(op) != LayoutRole::Propagatable)
    return true;
  OpLayouts current = getCurrentLayouts(op);
  auto agree = [](ValueRange values, ArrayRef<Attribute> have,
                  ArrayRef<Attribute> want) {
    for (auto [v, h, w] : llvm::zip_equal(values, have, want))
      if (h && !isSameLayout(h, w, shapeOf(v)))
        return false;
    return true;
  };
  auto matches = [&](FailureOr<OpLayouts> inferred) {
    return succeeded(inferred) &&
           agree(op->getOperands(), current.operands, inferred->operands) &&
           agree(op->getResults(), current.results, inferred->results);
  };
  // Some rules only work one way (a broadcast of a `linear` layout is only
  // known from its result), so either direction may vouch for the op.
  auto *operandIt =
      llvm::find_if(current.operands, [](Attribute a) { return bool(a); });
  if (operandIt != current.operands.end() &&
      matches(inferLayoutsFromOperand(op, operandIt - current.operands.begin(),
                                      *operandIt, hints)))
    return true;
  auto *resultIt =
      llvm::find_if(current.results, [](Attribute a) { return bool(a); });
  return resultIt != current.results.end() &&
         matches(inferLayoutsFromResult(op, resultIt - current.results.begin(),
                                        *resultIt, hints));
}

SmallVector<TiedLayoutGroup>
mlir::tessera::gpu::getTiedLayoutGroups(Operation *op) {
  SmallVector<TiedLayoutGroup> groups;
  auto add = [&](TiedLayoutGroup group) {
    if (!group.values.empty() && layoutOf(group.values.front()))
      groups.push_back(std::move(group));
  };
  if (auto forOp = dyn_cast<scf::ForOp>(op)) {
    auto yield = cast<scf::YieldOp>(forOp.getBody()->getTerminator());
    for (unsigned i = 0; i < forOp.getNumResults(); ++i)
      add({{forOp.getRegionIterArgs()[i], forOp.getResult(i)},
           {&forOp.getInitsMutable()[i], &yield.getResultsMutable()[i]}});
  } else if (auto ifOp = dyn_cast<scf::IfOp>(op)) {
    if (ifOp.getNumResults() == 0)
      return groups;
    scf::YieldOp thenYield = ifOp.thenYield(), elseYield = ifOp.elseYield();
    for (unsigned i = 0; i < ifOp.getNumResults(); ++i)
      add({{ifOp.getResult(i)},
           {&thenYield.getResultsMutable()[i],
            &elseYield.getResultsMutable()[i]}});
  } else if (auto whileOp = dyn_cast<scf::WhileOp>(op)) {
    scf::ConditionOp condition = whileOp.getConditionOp();
    scf::YieldOp yield = whileOp.getYieldOp();
    for (unsigned i = 0; i < whileOp.getNumOperands(); ++i)
      add({{whileOp.getBeforeArguments()[i]},
           {&whileOp->getOpOperand(i), &yield.getResultsMutable()[i]}});
    for (unsigned i = 0; i < whileOp.getNumResults(); ++i)
      add({{whileOp.getAfterArguments()[i], whileOp.getResult(i)},
           {&condition.getArgsMutable()[i]}});
  }
  return groups;
}

Value mlir::tessera::gpu::cloneFreeOpWithLayout(OpBuilder &builder,
                                                Operation *op,
                                                Attribute layout) {
  auto type =
      withEncoding(cast<RankedTensorType>(op->getResult(0).getType()), layout);
  if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
    auto dense = cast<DenseElementsAttr>(constant.getValue());
    return arith::ConstantOp::create(
        builder, op->getLoc(), type,
        SplatElementsAttr::get(type, dense.getSplatValue<Attribute>()));
  }
  Operation *clone = builder.clone(*op);
  clone->getResult(0).setType(type);
  return clone->getResult(0);
}
