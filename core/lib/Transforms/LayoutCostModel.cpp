//===- LayoutCostModel.cpp - What conversions and recomputation cost ------===//
#include "LayoutAssignment.h"

#include "tessera/Layout/LayoutConversions.h"

#include "mlir/Interfaces/LoopLikeInterface.h"

using namespace mlir;
using namespace mlir::tessera;
using namespace mlir::tessera::gpu;

LayoutCostModel::LayoutFacts LayoutCostModel::facts(RankedTensorType type,
                                                    Attribute layout) {
  // Keyed by shape and layout only: the element type changes nothing.
  Type key = RankedTensorType::get(
      type.getShape(), IntegerType::get(type.getContext(), 8), layout);
  auto it = cache.find(key);
  if (it != cache.end())
    return it->second;
  LinearLayout ll =
      cast<DistributedLayoutAttr>(layout).toLinearLayout(type.getShape());
  LayoutFacts f{LinearAttr::get(type.getContext(), ll),
                ll.getInDimSize(kRegisterDim)};
  return cache.try_emplace(key, f).first->second;
}

int64_t LayoutCostModel::registers(RankedTensorType type, Attribute layout) {
  return facts(type, layout).registers;
}

bool LayoutCostModel::isSame(RankedTensorType type, Attribute a, Attribute b) {
  return a == b || facts(type, a).canonical == facts(type, b).canonical;
}

int64_t LayoutCostModel::conversionCost(RankedTensorType type, Attribute from,
                                        Attribute to) {
  if (from == to)
    return 0;
  if (isSame(type, from, to))
    return kEquivalentConversionCost;
  // Shared memory moves bytes: narrow elements pack into fewer accesses, so
  // converting after a truncation is cheaper than before it.
  Type element = type.getElementType();
  // Pointers are 64-bit addresses.
  int64_t bits = element.isIntOrFloat()
                     ? std::max<int64_t>(element.getIntOrFloatBitWidth(), 8)
                     : 64;
  int64_t words = llvm::divideCeil(
      (registers(type, from) + registers(type, to)) * bits, 32);
  return kConversionFixedCost + kConversionCostPerRegister * words;
}

int64_t LayoutCostModel::combineCost(RankedTensorType type, Attribute layout,
                                     unsigned axis, bool keepsAxis) {
  Type key = RankedTensorType::get(
      type.getShape(), IntegerType::get(type.getContext(), 8), layout);
  auto [it, inserted] = combineCache.try_emplace({key, 2 * axis + keepsAxis});
  if (!inserted)
    return it->second;
  LinearLayout ll =
      cast<DistributedLayoutAttr>(layout).toLinearLayout(type.getShape());
  int64_t in = ll.getInDimSize(kRegisterDim);
  // A reduction continues with one value per row, a scan with all of them.
  int64_t out =
      keepsAxis ? in : sliceToLinearLayout(ll, axis).getInDimSize(kRegisterDim);
  auto spans = [&](StringRef dim) {
    return llvm::count_if(ll.getBases(dim), [&](const LinearLayout::Basis &b) {
      return b[axis] != 0;
    });
  };
  int64_t cost = in + kShuffleCost * spans(kLaneDim) * out;
  if (spans(kWarpDim) || spans(kBlockDim))
    cost += kConversionFixedCost + 2 * kConversionCostPerRegister * out;
  // Look the entry up again: computing the cost may have grown the map.
  combineCache[{key, 2 * axis + keepsAxis}] = cost;
  return cost;
}

int64_t LayoutCostModel::opCost(Operation *op,
                                ArrayRef<Attribute> operandLayouts,
                                ArrayRef<Attribute> resultLayouts) {
  auto combine = [&](unsigned axis, bool keepsAxis) {
    int64_t cost = 0;
    for (auto [operand, layout] :
         llvm::zip_equal(op->getOperands(), operandLayouts))
      if (layout)
        cost += combineCost(cast<RankedTensorType>(operand.getType()), layout,
                            axis, keepsAxis);
    return cost;
  };
  if (auto reduce = dyn_cast<ReduceOp>(op))
    return combine(reduce.getAxis(), /*keepsAxis=*/false);
  if (auto scan = dyn_cast<ScanOp>(op))
    return combine(scan.getAxis(), /*keepsAxis=*/true);
  int64_t cost = 0;
  for (auto [result, layout] : llvm::zip_equal(op->getResults(), resultLayouts))
    if (layout)
      cost += registers(cast<RankedTensorType>(result.getType()), layout);
  return cost;
}

int64_t LayoutCostModel::executionWeight(Block *block) {
  unsigned depth = 0;
  for (Operation *op = block->getParentOp(); op; op = op->getParentOp())
    if (isa<LoopLikeOpInterface>(op))
      ++depth;
  int64_t weight = 1;
  for (unsigned i = 0; i < std::min(depth, kMaxLoopDepth); ++i)
    weight *= kLoopWeight;
  return weight;
}
