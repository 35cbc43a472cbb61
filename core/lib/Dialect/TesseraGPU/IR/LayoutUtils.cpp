//===- LayoutUtils.cpp - Queries over laid-out tensors --------------------===//
#include "tessera/Dialect/TesseraGPU/IR/LayoutUtils.h"

#include "mlir/IR/BuiltinOps.h"

using namespace mlir;
using namespace mlir::tessera;
using namespace mlir::tessera::gpu;

FailureOr<LaunchShape> mlir::tessera::gpu::getLaunchShape(Operation *op) {
  auto module = isa<ModuleOp>(op) ? cast<ModuleOp>(op)
                                  : op->getParentOfType<ModuleOp>();
  if (!module)
    return failure();
  auto get = [&](StringRef name) -> std::optional<int> {
    if (auto attr = module->getAttrOfType<IntegerAttr>(name))
      return attr.getInt();
    return std::nullopt;
  };
  auto warps = get(TesseraGPUDialect::kNumWarpsAttrName);
  auto threads = get(TesseraGPUDialect::kThreadsPerWarpAttrName);
  if (!warps || !threads)
    return failure();
  LaunchShape shape;
  shape.numWarps = *warps;
  shape.threadsPerWarp = *threads;
  shape.numCTAs = get(TesseraGPUDialect::kNumCTAsAttrName).value_or(1);
  return shape;
}

void mlir::tessera::gpu::setLaunchShape(ModuleOp module,
                                        const LaunchShape &shape) {
  Builder b(module.getContext());
  module->setAttr(TesseraGPUDialect::kNumWarpsAttrName,
                  b.getI32IntegerAttr(shape.numWarps));
  module->setAttr(TesseraGPUDialect::kThreadsPerWarpAttrName,
                  b.getI32IntegerAttr(shape.threadsPerWarp));
  module->setAttr(TesseraGPUDialect::kNumCTAsAttrName,
                  b.getI32IntegerAttr(shape.numCTAs));
}

LinearLayout mlir::tessera::gpu::toLinearLayout(RankedTensorType type) {
  return cast<DistributedLayoutAttr>(type.getEncoding())
      .toLinearLayout(type.getShape());
}

LinearLayout mlir::tessera::gpu::toLinearLayout(MemDescType type) {
  return cast<SharedLayoutAttr>(type.getEncoding())
      .toLinearLayout(type.getShape());
}

BlockedAttr mlir::tessera::gpu::getBlockedEncoding(
    MLIRContext *ctx, ArrayRef<int64_t> shape, ArrayRef<unsigned> order,
    unsigned sizePerThread, int numWarps, int threadsPerWarp, int numCTAs) {
  size_t rank = shape.size();
  SmallVector<unsigned> spt(rank, 1), tpw(rank, 1), wpc(rank, 1),
      cpc(rank, 1);
  unsigned fastest = order[0];
  spt[fastest] = std::max<unsigned>(
      1, std::min<int64_t>(sizePerThread ? sizePerThread : 1, shape[fastest]));

  // Lanes fill the dimensions fastest first, as far as the tensor reaches;
  // what is left over goes to the slowest dimension (broadcast).
  unsigned lanesLeft = threadsPerWarp;
  for (unsigned d : order) {
    int64_t room = std::max<int64_t>(1, shape[d] / spt[d]);
    unsigned take = std::max<unsigned>(1, std::min<int64_t>(lanesLeft, room));
    tpw[d] = take;
    lanesLeft /= take;
  }
  tpw[order.back()] *= lanesLeft;

  unsigned warpsLeft = numWarps;
  for (unsigned d : order) {
    int64_t room = std::max<int64_t>(1, shape[d] / (spt[d] * tpw[d]));
    unsigned take = std::max<unsigned>(1, std::min<int64_t>(warpsLeft, room));
    wpc[d] = take;
    warpsLeft /= take;
  }
  wpc[order.back()] *= warpsLeft;

  // Blocks of a cluster split the slowest dimensions first.
  unsigned ctasLeft = numCTAs;
  for (unsigned d : llvm::reverse(order)) {
    int64_t room = std::max<int64_t>(1, shape[d] / (spt[d] * tpw[d] * wpc[d]));
    unsigned take = std::max<unsigned>(1, std::min<int64_t>(ctasLeft, room));
    cpc[d] = take;
    ctasLeft /= take;
  }
  cpc[order.front()] *= ctasLeft;
  if (numCTAs == 1)
    cpc.clear();
  return BlockedAttr::get(ctx, spt, tpw, wpc, order, cpc);
}

BlockedAttr mlir::tessera::gpu::getDefaultBlockedEncoding(
    MLIRContext *ctx, ArrayRef<int64_t> shape, int numWarps,
    int threadsPerWarp, int numCTAs, unsigned sizePerThread) {
  SmallVector<unsigned> order;
  for (int64_t d = shape.size() - 1; d >= 0; --d)
    order.push_back(d);
  return getBlockedEncoding(ctx, shape, order, sizePerThread, numWarps,
                            threadsPerWarp, numCTAs);
}

int64_t mlir::tessera::gpu::getTotalElemsPerThread(RankedTensorType type) {
  return toLinearLayout(type).getInDimSize("register");
}

RankedTensorType mlir::tessera::gpu::withEncoding(RankedTensorType type,
                                                  Attribute encoding) {
  return RankedTensorType::get(type.getShape(), type.getElementType(),
                               encoding);
}

DistributedLayoutAttr mlir::tessera::gpu::getDistributedEncoding(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return dyn_cast_or_null<DistributedLayoutAttr>(tensor.getEncoding());
  return {};
}
