//===- CarryPointerOffsets.cpp - Loops carry offsets, not pointer blocks --===//
//
// Triton kernels advance blocks of pointers through their loops
// (`a_ptrs += BLOCK_K * stride_ak`): the loop carries a tensor of pointers
// and adds the same offset to every element each iteration. On a GPU the
// block lives in registers; on the CPU it is a buffer (a 64x256 block is
// 128 KiB of addresses), which bufferization copies into a fresh heap
// allocation every iteration because the loop yields a new value. Tutorial
// 03's matmul spent most of its time in those allocations, their page
// faults and copies.
//
// This pass makes such a loop carry the scalar sum of the offsets instead
// (an i64, starting at 0) and rebuilds the block where it is used as
// `addptr(initial block, splat(sum))`. Addresses are the same: pointer
// arithmetic wraps modulo 2^64 either way, and the offsets are summed in 64
// bits. Rebuilt blocks are elementwise, so the lowering computes only the
// elements a load reads (one address per contiguous run) rather than a
// buffer.
//
// Rewritten: an iter_arg that is a tensor of (non-block) pointers whose
// yielded value is `addptr(iter_arg, offset)`, where `offset` is the same
// scalar for every element (a splat of a value defined outside the loop or
// a splat constant) and the addptr has no other use.
//
//===----------------------------------------------------------------------===//
#include "Passes.h"

#include "tessera/Dialect/Tessera/IR/Dialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Pass/Pass.h"

using namespace mlir;
using namespace mlir::tessera;

namespace {

/// The scalar every element of `offset` equals, materialized before `loop`
/// when it is a constant; null when the elements may differ or the scalar
/// is defined inside `loop`.
Value getUniformOffset(OpBuilder &b, Value offset, scf::ForOp loop) {
  if (auto splat = offset.getDefiningOp<SplatOp>()) {
    Value scalar = splat.getSrc();
    if (loop->isAncestor(scalar.getParentRegion()->getParentOp()))
      return Value();
    return scalar;
  }
  auto constant = offset.getDefiningOp<arith::ConstantOp>();
  auto dense = constant ? dyn_cast<SplatElementsAttr>(constant.getValue())
                        : SplatElementsAttr();
  if (dense && isa<IntegerType>(dense.getElementType())) {
    APInt value = dense.getSplatValue<APInt>();
    return arith::ConstantOp::create(b, loop.getLoc(),
                                     b.getI64IntegerAttr(value.getSExtValue()));
  }
  return Value();
}

/// `value` as i64 (sign-extended, as addptr reads its offsets).
Value toI64(OpBuilder &b, Location loc, Value value) {
  if (value.getType().isInteger(64))
    return value;
  return arith::ExtSIOp::create(b, loc, b.getI64Type(), value);
}

/// `addptr(block, splat(sum))`.
Value rebuild(OpBuilder &b, Location loc, Value block, Value sum) {
  auto blockType = cast<RankedTensorType>(block.getType());
  auto offsetType = RankedTensorType::get(blockType.getShape(), b.getI64Type(),
                                          blockType.getEncoding());
  Value splat = SplatOp::create(b, loc, offsetType, sum);
  return AddPtrOp::create(b, loc, blockType, block, splat);
}

/// One candidate iter_arg of a loop: its number and the offset it advances
/// by each iteration (a scalar available before the loop).
struct Advance {
  unsigned index;
  Value step;
};

/// Rewrites the advancing pointer blocks of `loop`; returns the loop that
/// replaces it (or `loop` itself when nothing changed).
scf::ForOp carryOffsets(scf::ForOp loop) {
  OpBuilder b(loop);
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  SmallVector<Advance> advances;
  for (auto [index, arg] : llvm::enumerate(loop.getRegionIterArgs())) {
    auto type = dyn_cast<RankedTensorType>(arg.getType());
    auto pointee =
        type ? dyn_cast<PointerType>(type.getElementType()) : PointerType();
    if (!pointee || pointee.isBlockPointer())
      continue;
    auto add = yield.getOperand(index).getDefiningOp<AddPtrOp>();
    if (!add || add.getPtr() != arg || !add->hasOneUse())
      continue;
    if (Value step = getUniformOffset(b, add.getOffset(), loop))
      advances.push_back({static_cast<unsigned>(index), step});
  }
  if (advances.empty())
    return loop;

  // One i64 sum per advancing block, starting at 0.
  Location loc = loop.getLoc();
  Value zero = arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(0));
  SmallVector<Value> inits(advances.size(), zero);
  IRRewriter rewriter(loop->getContext());
  rewriter.setInsertionPoint(loop);
  FailureOr<LoopLikeOpInterface> replaced = loop.replaceWithAdditionalYields(
      rewriter, inits, /*replaceInitOperandUsesInLoop=*/false,
      [&](OpBuilder &yb, Location yl, ArrayRef<BlockArgument> sums) {
        SmallVector<Value> next;
        for (auto [advance, sum] : llvm::zip(advances, sums))
          next.push_back(
              arith::AddIOp::create(yb, yl, sum, toI64(yb, yl, advance.step)));
        return next;
      });
  if (failed(replaced))
    return loop;
  auto newLoop = cast<scf::ForOp>(replaced->getOperation());

  unsigned first = newLoop.getNumRegionIterArgs() - advances.size();
  auto newYield = cast<scf::YieldOp>(newLoop.getBody()->getTerminator());
  for (auto [i, advance] : llvm::enumerate(advances)) {
    BlockArgument arg = newLoop.getRegionIterArg(advance.index);
    Value init = newLoop.getInitArgs()[advance.index];
    BlockArgument sum = newLoop.getRegionIterArg(first + i);
    // Inside: the block of this iteration from the initial one.
    OpBuilder inner = OpBuilder::atBlockBegin(newLoop.getBody());
    Value current = rebuild(inner, loc, init, sum);
    // The yielded addptr goes; the iter_arg passes through unchanged (and
    // canonicalization drops it).
    Operation *add = newYield.getOperand(advance.index).getDefiningOp();
    newYield.setOperand(advance.index, arg);
    add->erase();
    arg.replaceAllUsesExcept(current, newYield);
    // After: the block of the last iteration's successor.
    Value result = newLoop.getResult(advance.index);
    if (!result.use_empty()) {
      OpBuilder after(newLoop->getContext());
      after.setInsertionPointAfter(newLoop);
      Value final = rebuild(after, loc, init, newLoop.getResult(first + i));
      result.replaceAllUsesWith(final);
    }
  }
  return newLoop;
}

struct CarryPointerOffsetsPass
    : public PassWrapper<CarryPointerOffsetsPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(CarryPointerOffsetsPass)

  StringRef getArgument() const final {
    return "tessera-cpu-carry-pointer-offsets";
  }
  StringRef getDescription() const final {
    return "Loops that advance blocks of pointers by a uniform offset carry "
           "the summed offset instead of the block";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<arith::ArithDialect, scf::SCFDialect, TesseraDialect>();
  }

  void runOnOperation() override {
    SmallVector<scf::ForOp> loops;
    getOperation().walk([&](scf::ForOp loop) { loops.push_back(loop); });
    // Post-order: inner loops first, so an outer loop's rewrite (which
    // moves the body into a new loop) does not invalidate the list.
    for (scf::ForOp loop : loops)
      carryOffsets(loop);
  }
};

} // namespace

std::unique_ptr<Pass> cpu::createCarryPointerOffsetsPass() {
  return std::make_unique<CarryPointerOffsetsPass>();
}
