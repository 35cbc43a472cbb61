//===- PrepareWgmma.cpp - Put wgmma's operands in shared memory -----------===//
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
// A 16-bit A read in place from a ring stays there. A global load's result
// converted to A's register layout for the dot alone is stored to a buffer
// of its own like B: the conversion would pass through shared memory
// anyway, and A's registers would stay taken while the dot runs. Any other
// 16-bit A is read from registers (staging attention's loop-invariant Q in
// shared memory instead measured slower on the H100: 140 vs 153 TFLOP/s,
// causal 96 vs 124) -- except an A read from a buffer before the loop of
// its dot, which nothing in the loop writes (attention's Q loaded by TMA):
// the dot reads that buffer in place. ptxas (CUDA 13.0, 12.8) gives such
// loop-invariant A registers to the next register-A wgmma's operand when
// both have the same size (P in P*V at BLOCK_N == HEAD_DIM), so from the
// second iteration on QK^T read P: wrong results on the H100. An A kept in
// registers across such a loop (Q loaded with pointers) is stored to a
// buffer before the loop and read in place too, when another wgmma of the
// loop takes a register A of its type. wgmma reads 8-bit (fp8) operands
// only K-major from shared memory: such a B is always stored K-major, and
// such an A not already in a ring is stored too, in the same barrier
// window.
//
//===----------------------------------------------------------------------===//
#include "MmaLayouts.h"
#include "Wgmma.h"

#include "tessera/Conversion/TesseraGPUToLLVM.h"
#include "tessera/Dialect/Tessera/IR/Dialect.h"
#include "tessera/Dialect/TesseraGPU/IR/LayoutUtils.h"
#include "tessera/Transforms/AccelerateDot.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/LoopLikeInterface.h"

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

/// True for 8-bit operands, which wgmma reads only K-major from shared
/// memory (A too).
bool hasByteOperands(DotOp dot) {
  return cast<RankedTensorType>(dot.getA().getType())
             .getElementType()
             .getIntOrFloatBitWidth() == 8;
}

/// True when operand `opIdx` is read from a buffer wgmma can take as it
/// is, in place.
bool readsWgmmaBuffer(DotOp dot, unsigned opIdx, int64_t columns) {
  Value operand = opIdx == 0 ? dot.getA() : dot.getB();
  auto load = operand.getDefiningOp<gpu::LocalLoadOp>();
  if (!load || !canReadInPlace(load, dot))
    return false;
  std::optional<WgmmaSharedOperand> view =
      getWgmmaSharedOperand(load.getSrc().getType(), opIdx);
  if (!view)
    return false;
  if (opIdx == 0 || hasByteOperands(dot))
    return view->kMajor;
  return view->kMajor || columns % view->width == 0;
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

/// The source of `dot`'s B when it is a 2-D transposition, else null.
TransOp getTransposedSource(DotOp dot) {
  Value value = dot.getB();
  while (auto cvt = value.getDefiningOp<gpu::ConvertLayoutOp>())
    value = cvt.getSrc();
  auto trans = value.getDefiningOp<TransOp>();
  if (trans && trans.getOrder().size() == 2 && trans.getOrder()[0] == 1 &&
      trans.getOrder()[1] == 0)
    return trans;
  return nullptr;
}

/// The load a transposed B was just read from, when its buffer is laid out
/// as restaging would lay it out (a TMA block) and still holds it: the dot
/// may read a K-major view of that buffer. Null otherwise.
gpu::LocalLoadOp getTransposedBlockLoad(DotOp dot) {
  TransOp trans = getTransposedSource(dot);
  if (!trans)
    return nullptr;
  unsigned bytes = cast<RankedTensorType>(dot.getB().getType())
                       .getElementType()
                       .getIntOrFloatBitWidth() /
                   8;
  auto load = trans.getSrc().getDefiningOp<gpu::LocalLoadOp>();
  auto srcType = cast<RankedTensorType>(trans.getSrc().getType());
  if (!load || load.getToken() ||
      load.getSrc().getType().getEncoding() !=
          getWgmmaSharedLayout(dot.getContext(), srcType.getShape(), bytes) ||
      !nothingWritesBetween(load, dot))
    return nullptr;
  return load;
}

/// A K-major view of the buffer a transposed B was just read from
/// (getTransposedBlockLoad): B needs no copy. Null otherwise.
Value viewTransposedBlock(OpBuilder &b, DotOp dot) {
  gpu::LocalLoadOp load = getTransposedBlockLoad(dot);
  if (!load)
    return nullptr;
  auto bType = cast<RankedTensorType>(dot.getB().getType());
  Type element = bType.getElementType();
  unsigned bytes = element.getIntOrFloatBitWidth() / 8;
  MLIRContext *ctx = dot.getContext();
  auto viewType = gpu::MemDescType::get(
      ctx, bType.getShape(), element,
      getKMajorLayout(ctx, bType.getShape()[0], bType.getShape()[1], bytes),
      load.getSrc().getType().getMutableMemory());
  return gpu::MemDescTransOp::create(b, dot.getLoc(), viewType, load.getSrc(),
                                     b.getDenseI32ArrayAttr({1, 0}));
}

/// True when `op` or an op nested in it uses `buffer` other than by reading
/// it with local_load (which is what may write it).
bool mayWriteBuffer(Operation *op, Value buffer) {
  WalkResult result = op->walk([&](Operation *nested) {
    if (isa<gpu::LocalLoadOp>(nested))
      return WalkResult::advance();
    if (llvm::is_contained(nested->getOperands(), buffer))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return result.wasInterrupted();
}

/// When `dot` sits in a loop and reads A from a buffer loaded before it
/// that nothing in the loop (nor between the load and the loop) writes, a
/// load of A just before the dot replaces it, which the dot then reads in
/// place. See the file header for the ptxas register-allocation fault this
/// avoids.
void rereadLoopInvariantA(DotOp dot) {
  auto load = dot.getA().getDefiningOp<gpu::LocalLoadOp>();
  auto loop = dot->getParentOfType<LoopLikeOpInterface>();
  if (!load || load.getToken() || !loop || loop->isAncestor(load))
    return;
  Operation *entry = load->getBlock()->findAncestorOpInBlock(*loop);
  if (!entry || !load->isBeforeInBlock(entry))
    return;
  Value buffer = load.getSrc();
  for (Operation *op = load->getNextNode(); op; op = op->getNextNode()) {
    if (mayWriteBuffer(op, buffer))
      return;
    if (op == entry)
      break;
  }
  OpBuilder builder(dot);
  Operation *reread = builder.clone(*load);
  dot.getAMutable().assign(reread->getResult(0));
  if (load->use_empty())
    load->erase();
}

/// Stores B to a buffer of its own: a transposed B stores its source
/// row-major and views it transposed (K contiguous); any other B is stored
/// row-major (N contiguous), or with K contiguous where a warpgroup's
/// columns are narrower than one swizzle row or the elements are bytes.
Value storeB(OpBuilder &b, DotOp dot, int64_t columns) {
  Location loc = dot.getLoc();
  MLIRContext *ctx = dot.getContext();
  auto bType = cast<RankedTensorType>(dot.getB().getType());
  Type element = bType.getElementType();
  unsigned bytes = element.getIntOrFloatBitWidth() / 8;
  int64_t k = bType.getShape()[0], n = bType.getShape()[1];
  if (TransOp trans = getTransposedSource(dot)) {
    auto srcType = cast<RankedTensorType>(trans.getSrc().getType());
    auto rowType = gpu::MemDescType::get(
        ctx, srcType.getShape(), element,
        getWgmmaSharedLayout(ctx, srcType.getShape(), bytes), true);
    Value rows =
        gpu::LocalAllocOp::create(b, loc, rowType, trans.getSrc()).getResult();
    auto viewType =
        gpu::MemDescType::get(ctx, bType.getShape(), element,
                              getKMajorLayout(ctx, k, n, bytes), true);
    return gpu::MemDescTransOp::create(b, loc, viewType, rows,
                                       b.getDenseI32ArrayAttr({1, 0}));
  }
  Value value = dot.getB();
  while (auto cvt = value.getDefiningOp<gpu::ConvertLayoutOp>())
    value = cvt.getSrc();
  gpu::SwizzledSharedAttr layout =
      getWgmmaSharedLayout(ctx, bType.getShape(), bytes);
  int64_t width = layout.getBlockCols() ? layout.getBlockCols() : n;
  if (columns % width != 0 || bytes == 1)
    layout = getKMajorLayout(ctx, k, n, bytes);
  auto type =
      gpu::MemDescType::get(ctx, bType.getShape(), element, layout, true);
  return gpu::LocalAllocOp::create(b, loc, type, value).getResult();
}

/// Stores A (M x K, K contiguous) to a buffer of its own: the registers a
/// layout conversion of A starts from, as storeB does.
Value storeA(OpBuilder &b, DotOp dot) {
  MLIRContext *ctx = dot.getContext();
  auto aType = cast<RankedTensorType>(dot.getA().getType());
  unsigned bytes = aType.getElementType().getIntOrFloatBitWidth() / 8;
  auto type = gpu::MemDescType::get(
      ctx, aType.getShape(), aType.getElementType(),
      getWgmmaSharedLayout(ctx, aType.getShape(), bytes), true);
  Value value = dot.getA();
  while (auto cvt = value.getDefiningOp<gpu::ConvertLayoutOp>())
    value = cvt.getSrc();
  return gpu::LocalAllocOp::create(b, dot.getLoc(), type, value);
}

/// True when `dot`'s A is a global load's result converted to A's register
/// layout next to the dot (in its block, for the dot alone): the
/// conversion passes through shared memory anyway, so storing the loaded
/// registers to a buffer wgmma reads costs the same stores, and saves the
/// reads back and the registers holding A while the dot runs (128 per
/// thread for a 256 x 128 fp16 A over one warpgroup, which then spills).
/// A loop-invariant A (attention's Q) is converted outside the loop and
/// stays in registers (see the file header).
bool isLoadConvertedForDot(DotOp dot) {
  auto cvt = dot.getA().getDefiningOp<gpu::ConvertLayoutOp>();
  return cvt && cvt->hasOneUse() && cvt->getBlock() == dot->getBlock() &&
         cvt.getSrc().getDefiningOp<LoadOp>();
}

/// True when `dot` sits in a loop, takes a 16-bit A from registers computed
/// before the loop, and another wgmma of the loop takes a register A of the
/// same type computed in it (attention's Q and P at BLOCK_N == HEAD_DIM,
/// the pattern ptxas mis-allocates, see the file header): A must then be
/// stored to a buffer before the loop and read in place by the dot.
bool needsLoopInvariantAStage(DotOp dot) {
  Value a = dot.getA();
  auto loop = dot->getParentOfType<LoopLikeOpInterface>();
  if (!loop || !loop.isDefinedOutsideOfLoop(a) ||
      a.getDefiningOp<gpu::LocalLoadOp>() || hasByteOperands(dot))
    return false;
  auto aType = cast<RankedTensorType>(a.getType());
  bool sameSizeInLoop = false;
  loop->walk([&](DotOp other) {
    auto name = other->getAttrOfType<StringAttr>(kMatrixInstructionAttrName);
    auto otherType = cast<RankedTensorType>(other.getA().getType());
    if (other != dot && name && name.getValue().starts_with("wgmma") &&
        !loop.isDefinedOutsideOfLoop(other.getA()) &&
        !other.getA().getDefiningOp<gpu::LocalLoadOp>() &&
        otherType.getShape() == aType.getShape() &&
        otherType.getElementType() == aType.getElementType())
      sameSizeInLoop = true;
  });
  return sameSizeInLoop;
}

/// True when `buffer` is defined before `loop` in a block enclosing it,
/// so that a dot of the loop can read it.
bool isAvailableIn(Value buffer, Operation *loop) {
  Operation *def = buffer.getDefiningOp();
  Operation *entry =
      def ? def->getBlock()->findAncestorOpInBlock(*loop) : nullptr;
  return entry && def->isBeforeInBlock(entry);
}

/// Stores `dot`'s loop-invariant A to a buffer before its loop when
/// needsLoopInvariantAStage says so. The buffers already staged (by value of
/// A) are reused by later loops they reach: attention's off-band and
/// on-band loops read one copy of Q, not two, which nothing writes after
/// its barrier.
void stageLoopInvariantA(DotOp dot, DenseMap<Value, Value> &staged) {
  if (!needsLoopInvariantAStage(dot))
    return;
  Value a = dot.getA();
  Operation *loop = dot->getParentOfType<LoopLikeOpInterface>();
  Value buffer = staged.lookup(a);
  if (!buffer || !isAvailableIn(buffer, loop)) {
    OpBuilder builder(loop);
    gpu::BarrierOp::create(builder, dot.getLoc());
    buffer = storeA(builder, dot);
    gpu::BarrierOp::create(builder, dot.getLoc());
    staged[a] = buffer;
  }
  OpBuilder builder(dot);
  dot.getAMutable().assign(gpu::LocalLoadOp::create(builder, dot.getLoc(),
                                                    a.getType(), buffer,
                                                    Value())
                               .getResult());
}

/// Gives `dot` the operands it must read from buffers of their own: the
/// copies go between two barriers (the first lets the previous reads of the
/// buffers finish, the second publishes the writes), and every operand is
/// read back with local_load just before the dot.
void restage(DotOp dot, bool a, bool b, int64_t columns) {
  OpBuilder builder(dot);
  Location loc = dot.getLoc();
  // An A read in place from a ring moves past the copies (which write only
  // their own buffers), so that it stays next to the dot.
  gpu::LocalLoadOp aLoad;
  if (!a && readsWgmmaBuffer(dot, 0, columns))
    aLoad = dot.getA().getDefiningOp<gpu::LocalLoadOp>();
  Value aBuffer, bBuffer = b ? viewTransposedBlock(builder, dot) : Value();
  if (a || (b && !bBuffer)) {
    gpu::BarrierOp::create(builder, loc);
    if (a)
      aBuffer = storeA(builder, dot);
    if (b && !bBuffer)
      bBuffer = storeB(builder, dot, columns);
    gpu::BarrierOp::create(builder, loc);
    if (aLoad)
      aLoad->moveBefore(dot);
  }
  if (aBuffer)
    dot.getAMutable().assign(gpu::LocalLoadOp::create(builder, loc,
                                                      dot.getA().getType(),
                                                      aBuffer, Value())
                                 .getResult());
  if (bBuffer)
    dot.getBMutable().assign(gpu::LocalLoadOp::create(builder, loc,
                                                      dot.getB().getType(),
                                                      bBuffer, Value())
                                 .getResult());
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
    DenseMap<Value, Value> stagedA;
    module.walk([&](DotOp dot) {
      auto name = dot->getAttrOfType<StringAttr>(kMatrixInstructionAttrName);
      if (!name || !name.getValue().starts_with("wgmma"))
        return;
      any = true;
      rereadLoopInvariantA(dot);
      stageLoopInvariantA(dot, stagedA);
      int64_t columns = getWarpgroupColumns(dot);
      auto aConversion = dot.getA().getDefiningOp<gpu::ConvertLayoutOp>();
      bool storesA = (hasByteOperands(dot) || isLoadConvertedForDot(dot)) &&
                     !readsWgmmaBuffer(dot, 0, columns);
      restage(dot, storesA, !readsWgmmaBuffer(dot, 1, columns), columns);
      // Its conversion would still pass through shared memory, barriers
      // and all.
      if (aConversion && aConversion->use_empty())
        aConversion->erase();
      // The lowering reads these buffers through descriptors (the same
      // conditions as lowerWgmmaDot's), so the loads need no registers.
      auto markInPlace = [&](Value operand, unsigned opIdx) {
        auto load = operand.getDefiningOp<gpu::LocalLoadOp>();
        if (!load || !canReadInPlace(load, dot))
          return;
        std::optional<WgmmaSharedOperand> view =
            getWgmmaSharedOperand(load.getSrc().getType(), opIdx);
        if (view && (view->kMajor || (opIdx == 1 && !hasByteOperands(dot))))
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

/// Bytes of `dot`'s 8-bit operand `opIdx` when it is a pointer load's
/// result converted for the dot in a loop, which pipelining will read from
/// a ring laid out as the load runs (row-major, or column-major where the
/// threads run down the columns), and that ring is not K-major (a B with N
/// contiguous, an A with M contiguous): the operand is then stored K-major
/// to a buffer of its own (restage). 0 otherwise.
static uint64_t getRestagedByteOperandBytes(DotOp dot, unsigned opIdx) {
  if (!hasByteOperands(dot) || !isa<scf::ForOp>(dot->getParentOp()))
    return 0;
  auto cvt = (opIdx == 0 ? dot.getA() : dot.getB())
                 .getDefiningOp<gpu::ConvertLayoutOp>();
  auto load = cvt ? cvt.getSrc().getDefiningOp<LoadOp>() : LoadOp();
  if (!load || load->getBlock() != dot->getBlock())
    return 0;
  auto type = cast<RankedTensorType>(load.getType());
  auto blocked = dyn_cast_or_null<gpu::BlockedAttr>(type.getEncoding());
  if (!blocked || type.getRank() != 2)
    return 0;
  // K is A's second dimension and B's first.
  unsigned kDim = opIdx == 0 ? 1 : 0;
  if (blocked.getOrder().front() == kDim)
    return 0;
  return llvm::alignTo(type.getNumElements(), 1024);
}

uint64_t nvptx::getPrepareWgmmaSharedBytes(Operation *module) {
  llvm::SmallPtrSet<Value, 4> staged;
  uint64_t bytes = 0;
  module->walk([&](DotOp dot) {
    auto name = dot->getAttrOfType<StringAttr>(kMatrixInstructionAttrName);
    if (!name || !name.getValue().starts_with("wgmma"))
      return;
    bytes += getRestagedByteOperandBytes(dot, 0) +
             getRestagedByteOperandBytes(dot, 1);
    if (!needsLoopInvariantAStage(dot))
      return;
    // An A loaded through a descriptor the launch builds becomes a buffer
    // of tensor-maps' own, which the dot reads in place.
    Value a = dot.getA();
    while (auto cvt = a.getDefiningOp<gpu::ConvertLayoutOp>())
      a = cvt.getSrc();
    if (auto load = a.getDefiningOp<DescriptorLoadOp>())
      if (!load.getDesc().getDefiningOp<MakeTensorDescOp>())
        return;
    if (!staged.insert(dot.getA()).second)
      return;
    auto aType = cast<RankedTensorType>(dot.getA().getType());
    // Swizzled buffers start at a multiple of 1024 bytes.
    bytes += llvm::alignTo(
        aType.getNumElements() * (aType.getElementTypeBitWidth() / 8), 1024);
  });
  return bytes;
}

bool nvptx::isConversionReadInPlace(Operation *op) {
  auto cvt = dyn_cast<gpu::ConvertLayoutOp>(op);
  if (!cvt || cvt->use_empty())
    return false;
  return llvm::all_of(cvt->getUses(), [](OpOperand &use) {
    auto dot = dyn_cast<DotOp>(use.getOwner());
    if (!dot || &use != &dot.getBMutable())
      return false;
    auto name = dot->getAttrOfType<StringAttr>(kMatrixInstructionAttrName);
    return name && name.getValue().starts_with("wgmma") &&
           getTransposedBlockLoad(dot);
  });
}

std::unique_ptr<Pass> nvptx::createPrepareWgmmaPass() {
  return std::make_unique<PrepareWgmmaPass>();
}
