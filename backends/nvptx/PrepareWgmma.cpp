//===- PrepareWgmma.cpp - Put wgmma's B operands in shared memory ---------===//
//
// wgmma reads B only from shared memory. A B that pipelining already reads
// from a ring of the right layout stays as it is; any other B is stored to
// a buffer of its own just before the dot, between two barriers (the first
// lets the previous reads of the buffer finish, the second publishes the
// writes), and read back with local_load, which the dot lowering replaces
// by descriptors of the buffer. A transposed B (`tl.trans(k)`) stores the
// transposition's source row-major and views it transposed, so that K is
// contiguous; otherwise B is stored row-major (N contiguous), or with K
// contiguous where a warpgroup's columns are narrower than one swizzle row.
// A stays where it is: read in place from a ring, else from registers
// (staging attention's loop-invariant Q in shared memory instead measured
// slower on the H100: 140 vs 153 TFLOP/s, causal 96 vs 124).
//
//===----------------------------------------------------------------------===//
#include "MmaLayouts.h"
#include "Wgmma.h"

#include "tessera/Conversion/TesseraGPUToLLVM.h"
#include "tessera/Dialect/Tessera/IR/Dialect.h"
#include "tessera/Dialect/TesseraGPU/IR/LayoutUtils.h"
#include "tessera/Transforms/AccelerateDot.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"

using namespace mlir;
using namespace mlir::tessera;
using namespace mlir::tessera::nvptx;

namespace {

/// The columns of N one warpgroup computes for `dot`.
int64_t getWarpgroupColumns(DotOp dot) {
  auto cType = cast<RankedTensorType>(dot.getC().getType());
  FailureOr<gpu::LaunchShape> launch = gpu::getLaunchShape(dot);
  std::optional<WarpgroupGrid> groups =
      failed(launch) ? std::nullopt
                     : chooseWgmmaGroups(cType.getShape()[0],
                                         cType.getShape()[1], launch->numWarps);
  return groups ? cType.getShape()[1] / groups->n : 0;
}

/// True when `from` and `to` are in one block and nothing between them
/// writes memory or synchronizes.
bool nothingWritesBetween(Operation *from, Operation *to) {
  if (from->getBlock() != to->getBlock())
    return false;
  for (Operation *op = from->getNextNode(); op && op != to;
       op = op->getNextNode()) {
    auto effects = dyn_cast<MemoryEffectOpInterface>(op);
    if (!effects) {
      if (op->getNumRegions() != 0 ||
          !op->hasTrait<OpTrait::HasRecursiveMemoryEffects>())
        return false;
      continue;
    }
    if (effects.hasEffect<MemoryEffects::Write>() ||
        effects.hasEffect<MemoryEffects::Free>())
      return false;
  }
  return true;
}

/// True when the dot may read `load`'s buffer itself instead: the load is
/// the dot's alone, in its block, and nothing between them writes memory or
/// synchronizes (so the buffer still holds what the load would read).
bool canReadInPlace(gpu::LocalLoadOp load, DotOp dot) {
  return load->hasOneUse() && nothingWritesBetween(load, dot);
}

/// True when B is read from a buffer wgmma can take as it is, in place.
bool readsWgmmaBuffer(DotOp dot, int64_t columns) {
  auto load = dot.getB().getDefiningOp<gpu::LocalLoadOp>();
  if (!load || !canReadInPlace(load, dot))
    return false;
  std::optional<WgmmaSharedOperand> view =
      getWgmmaSharedOperand(load.getSrc().getType(), 1);
  return view && (view->kMajor || columns % view->width == 0);
}

/// A shared layout wgmma reads for a K x N tile of `bytes`-byte elements
/// with K contiguous: the row-major one of the N x K tile, transposed.
gpu::SwizzledSharedAttr getKMajorLayout(MLIRContext *ctx, int64_t k, int64_t n,
                                        unsigned bytes) {
  gpu::SwizzledSharedAttr rowMajor = getWgmmaSharedLayout(ctx, {n, k}, bytes);
  return gpu::SwizzledSharedAttr::get(
      ctx, rowMajor.getVec(), rowMajor.getPerPhase(), rowMajor.getMaxPhase(),
      {0, 1}, {}, rowMajor.getBlockCols());
}

/// Stores B to a buffer of its own before `dot` and reads it back there.
void restageB(DotOp dot, int64_t columns) {
  OpBuilder b(dot);
  Location loc = dot.getLoc();
  MLIRContext *ctx = dot.getContext();
  auto bType = cast<RankedTensorType>(dot.getB().getType());
  Type element = bType.getElementType();
  unsigned bytes = element.getIntOrFloatBitWidth() / 8;
  int64_t k = bType.getShape()[0], n = bType.getShape()[1];

  Value value = dot.getB();
  while (auto cvt = value.getDefiningOp<gpu::ConvertLayoutOp>())
    value = cvt.getSrc();
  auto trans = value.getDefiningOp<TransOp>();
  bool transposed = trans && trans.getOrder().size() == 2 &&
                    trans.getOrder()[0] == 1 && trans.getOrder()[1] == 0;

  // A transposed tile just read from a buffer laid out as restaging would
  // lay it out (a TMA block) is viewed there, transposed, and not copied.
  if (transposed) {
    auto load = trans.getSrc().getDefiningOp<gpu::LocalLoadOp>();
    auto srcType = cast<RankedTensorType>(trans.getSrc().getType());
    if (load && !load.getToken() &&
        load.getSrc().getType().getEncoding() ==
            getWgmmaSharedLayout(ctx, srcType.getShape(), bytes) &&
        nothingWritesBetween(load, dot)) {
      auto viewType = gpu::MemDescType::get(
          ctx, bType.getShape(), element, getKMajorLayout(ctx, k, n, bytes),
          load.getSrc().getType().getMutableMemory());
      Value view = gpu::MemDescTransOp::create(b, loc, viewType, load.getSrc(),
                                               b.getDenseI32ArrayAttr({1, 0}));
      dot.getBMutable().assign(
          gpu::LocalLoadOp::create(b, loc, bType, view, Value()).getResult());
      return;
    }
  }

  gpu::BarrierOp::create(b, loc);
  Value buffer;
  if (transposed) {
    // K contiguous: the source N x K row-major, viewed as K x N.
    auto srcType = cast<RankedTensorType>(trans.getSrc().getType());
    auto rowType = gpu::MemDescType::get(
        ctx, srcType.getShape(), element,
        getWgmmaSharedLayout(ctx, srcType.getShape(), bytes), true);
    Value rows =
        gpu::LocalAllocOp::create(b, loc, rowType, trans.getSrc()).getResult();
    auto viewType =
        gpu::MemDescType::get(ctx, bType.getShape(), element,
                              getKMajorLayout(ctx, k, n, bytes), true);
    buffer = gpu::MemDescTransOp::create(b, loc, viewType, rows,
                                         b.getDenseI32ArrayAttr({1, 0}))
                 .getResult();
  } else {
    gpu::SwizzledSharedAttr layout =
        getWgmmaSharedLayout(ctx, bType.getShape(), bytes);
    int64_t width = layout.getBlockCols() ? layout.getBlockCols() : n;
    if (columns % width != 0)
      layout = getKMajorLayout(ctx, k, n, bytes);
    auto type =
        gpu::MemDescType::get(ctx, bType.getShape(), element, layout, true);
    buffer = gpu::LocalAllocOp::create(b, loc, type, value).getResult();
  }
  gpu::BarrierOp::create(b, loc);
  Value reread =
      gpu::LocalLoadOp::create(b, loc, bType, buffer, Value()).getResult();
  dot.getBMutable().assign(reread);
}

struct PrepareWgmmaPass
    : public PassWrapper<PrepareWgmmaPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(PrepareWgmmaPass)

  StringRef getArgument() const final { return "tessera-nvptx-prepare-wgmma"; }
  StringRef getDescription() const final {
    return "Read the B operand of every wgmma dot from a shared buffer with a "
           "descriptor layout";
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    bool any = false;
    module.walk([&](DotOp dot) {
      auto name = dot->getAttrOfType<StringAttr>(kMatrixInstructionAttrName);
      if (!name || !name.getValue().starts_with("wgmma"))
        return;
      any = true;
      int64_t columns = getWarpgroupColumns(dot);
      if (!readsWgmmaBuffer(dot, columns))
        restageB(dot, columns);
      // The lowering reads these buffers through descriptors (the same
      // conditions as lowerWgmmaDot's), so the loads need no registers.
      auto markInPlace = [&](Value operand, unsigned opIdx) {
        auto load = operand.getDefiningOp<gpu::LocalLoadOp>();
        if (!load || !canReadInPlace(load, dot))
          return;
        std::optional<WgmmaSharedOperand> view =
            getWgmmaSharedOperand(load.getSrc().getType(), opIdx);
        if (view && (opIdx == 1 || view->kMajor))
          load->setAttr(kReadInPlaceAttrName, UnitAttr::get(&getContext()));
      };
      markInPlace(dot.getA(), 0);
      markInPlace(dot.getB(), 1);
    });
    if (any)
      module->setAttr(kAsyncProxyReadsAttrName, UnitAttr::get(&getContext()));
  }
};

} // namespace

std::unique_ptr<Pass> nvptx::createPrepareWgmmaPass() {
  return std::make_unique<PrepareWgmmaPass>();
}
