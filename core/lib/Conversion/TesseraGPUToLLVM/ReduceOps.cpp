//===- ReduceOps.cpp - Reductions within threads, warps and blocks --------===//
//
// A reduction along `axis` combines, in order: the registers of a thread
// that hold elements differing only along the axis; then the lanes whose
// layout bases move along the axis, by a butterfly of xor-shuffles (or the
// target's warp reduction); then the warps, through shared memory, every
// thread reading the partial results of all warps in the same order so that
// all copies of a result agree bit for bit.
//
//===----------------------------------------------------------------------===//
#include "Lowering.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

#include <map>

using namespace mlir;
using namespace mlir::tessera;
using namespace mlir::tessera::lowering;

namespace {

/// The single combining op of a reduction region the targets know natively.
std::optional<WarpReduceKind> getWarpReduceKind(Region &region) {
  Block &block = region.front();
  if (block.getNumArguments() != 2 || block.getOperations().size() != 2)
    return std::nullopt;
  Operation &op = block.front();
  if (op.getNumOperands() != 2 ||
      !llvm::is_contained(op.getOperands(), block.getArgument(0)) ||
      !llvm::is_contained(op.getOperands(), block.getArgument(1)))
    return std::nullopt;
  return llvm::TypeSwitch<Operation *, std::optional<WarpReduceKind>>(&op)
      .Case([](arith::AddIOp) { return WarpReduceKind::Add; })
      .Case([](arith::AddFOp) { return WarpReduceKind::FAdd; })
      .Case([](arith::MulIOp) { return WarpReduceKind::Mul; })
      .Case([](arith::MulFOp) { return WarpReduceKind::FMul; })
      .Case([](arith::MinSIOp) { return WarpReduceKind::MinS; })
      .Case([](arith::MinUIOp) { return WarpReduceKind::MinU; })
      .Case([](arith::MaxSIOp) { return WarpReduceKind::MaxS; })
      .Case([](arith::MaxUIOp) { return WarpReduceKind::MaxU; })
      .Case([](arith::MinimumFOp) { return WarpReduceKind::MinF; })
      .Case([](arith::MaximumFOp) { return WarpReduceKind::MaxF; })
      .Case([](arith::MinNumFOp) { return WarpReduceKind::MinNumF; })
      .Case([](arith::MaxNumFOp) { return WarpReduceKind::MaxNumF; })
      .Case([](arith::AndIOp) { return WarpReduceKind::And; })
      .Case([](arith::OrIOp) { return WarpReduceKind::Or; })
      .Case([](arith::XOrIOp) { return WarpReduceKind::Xor; })
      .Default([](Operation *) { return std::nullopt; });
}

struct ReduceLowering : public GPUPattern<ReduceOp> {
  using GPUPattern::GPUPattern;

  /// The combine region applied to (acc, cur), inlined at the builder.
  SmallVector<Value> combine(ConversionPatternRewriter &rewriter, ReduceOp op,
                             ArrayRef<Value> acc, ArrayRef<Value> cur) const {
    return inlineCombine(rewriter, op.getCombineOp(), acc, cur);
  }

  LogicalResult
  matchAndRewrite(ReduceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    unsigned axis = op.getAxis();
    auto srcType = cast<RankedTensorType>(op.getSrcs().front().getType());
    LinearLayout layout = getLayout(srcType);
    unsigned numOperands = op.getSrcs().size();
    unsigned rank = srcType.getRank();

    SmallVector<SmallVector<Value>> srcRegs;
    for (auto [value, original] : llvm::zip(adaptor.getSrcs(), op.getSrcs()))
      srcRegs.push_back(
          unpackRegisters(rewriter, loc, value, original.getType()));

    // 1. Within the thread: registers grouped by their coordinates off the
    // axis, combined in register order.
    std::map<SmallVector<int32_t>, SmallVector<Value>> groups;
    std::map<SmallVector<int32_t>, int32_t> representative;
    for (size_t r = 0; r < srcRegs.front().size(); ++r) {
      SmallVector<int32_t> key = getRegisterCoords(layout, r);
      key[axis] = 0;
      SmallVector<Value> cur;
      for (auto &regs : srcRegs)
        cur.push_back(regs[r]);
      auto [it, inserted] = groups.try_emplace(key, cur);
      if (inserted)
        representative[key] = r;
      else
        it->second = combine(rewriter, op, it->second, cur);
    }

    // 2. Across lanes.
    FailureOr<SmallVector<unsigned>> laneBits =
        getAxisBits(layout, kLaneDim, axis, op, "reduce");
    FailureOr<SmallVector<unsigned>> warpBits =
        getAxisBits(layout, kWarpDim, axis, op, "reduce");
    if (failed(laneBits) || failed(warpBits))
      return failure();
    if (!laneBits->empty()) {
      unsigned laneMask = 0;
      for (unsigned bit : *laneBits)
        laneMask |= 1u << bit;
      std::optional<WarpReduceKind> kind =
          numOperands == 1 ? getWarpReduceKind(op.getCombineOp())
                           : std::nullopt;
      for (auto &[key, acc] : groups) {
        if (kind) {
          FailureOr<Value> reduced =
              ctx.hooks.warpReduce(rewriter, loc, acc[0], *kind, laneMask);
          if (succeeded(reduced)) {
            acc[0] = *reduced;
            continue;
          }
        }
        for (unsigned bit : *laneBits) {
          SmallVector<Value> other;
          for (Value v : acc) {
            FailureOr<Value> got =
                shuffleAny(rewriter, loc, ctx.hooks, v, 1u << bit);
            if (failed(got))
              return op.emitError("the ")
                     << ctx.hooks.getName()
                     << " target cannot exchange registers between lanes, "
                        "which this reduction needs";
            other.push_back(*got);
          }
          acc = combine(rewriter, op, acc, other);
        }
      }
    }

    // 3. Across warps, through shared memory.
    SmallVector<int64_t> resultShape(srcType.getShape());
    resultShape.erase(resultShape.begin() + axis);
    if (!warpBits->empty()) {
      FailureOr<ThreadIndex> tid = getThreadIndex(rewriter, loc, ctx, op);
      if (failed(tid))
        return failure();
      unsigned numSlots = 1u << warpBits->size();
      int64_t numOut = 1;
      for (int64_t s : resultShape)
        numOut *= s;
      // This warp's slot: its axis bits, packed.
      Value slot = emitPackedBits(rewriter, loc, tid->warp, *warpBits);
      SmallVector<Value> threadCoords =
          emitThreadCoords(rewriter, loc, layout, *tid);
      // Flat index of a group's result element: thread parts along the
      // axis belong to the slot, not the index.
      unsigned axisBits = llvm::Log2_64_Ceil(srcType.getShape()[axis]);
      auto outIndex = [&](ArrayRef<int32_t> key) {
        return emitAxisBlockIndex(rewriter, loc, threadCoords, key,
                                  srcType.getShape(), axis, axisBits);
      };
      // Operand k's partials, [slot][out].
      WarpScratch scratch(ctx, op, op.getSrcs(), numSlots, numOut);
      auto slotPointer = [&](unsigned k, Value slotIndex, Value out) {
        return scratch.getPointer(rewriter, loc, k, slotIndex, out);
      };
      if (failed(ctx.hooks.createBarrier(rewriter, loc)))
        return op.emitError("the ")
               << ctx.hooks.getName()
               << " target has no block barrier, which a reduction across "
                  "warps needs";
      for (auto &[key, acc] : groups) {
        Value out = outIndex(key);
        for (unsigned k = 0; k < numOperands; ++k) {
          FailureOr<Value> ptr = slotPointer(k, slot, out);
          if (failed(ptr))
            return failure();
          // Every lane holds the same partial; all may write it.
          LLVM::StoreOp::create(rewriter, loc, acc[k], *ptr);
        }
      }
      (void)ctx.hooks.createBarrier(rewriter, loc);
      for (auto &[key, acc] : groups) {
        Value out = outIndex(key);
        SmallVector<Value> total;
        for (unsigned s = 0; s < numSlots; ++s) {
          SmallVector<Value> partial;
          for (unsigned k = 0; k < numOperands; ++k) {
            FailureOr<Value> ptr =
                slotPointer(k, createI32(rewriter, loc, s), out);
            if (failed(ptr))
              return failure();
            partial.push_back(
                LLVM::LoadOp::create(rewriter, loc, acc[k].getType(), *ptr));
          }
          total = s == 0 ? partial : combine(rewriter, op, total, partial);
        }
        acc = total;
      }
    }

    // 4. Results.
    if (rank == 1) {
      rewriter.replaceOp(op, groups.begin()->second);
      return success();
    }
    SmallVector<Value> results;
    for (unsigned k = 0; k < numOperands; ++k) {
      auto resultType = cast<RankedTensorType>(op.getResult(k).getType());
      LinearLayout resultLayout = getLayout(resultType);
      std::map<SmallVector<int32_t>, Value> byCoords;
      for (auto &[key, acc] : groups) {
        SmallVector<int32_t> dropped(key);
        dropped.erase(dropped.begin() + axis);
        byCoords[dropped] = acc[k];
      }
      // The result's threads must hold what the source's threads computed.
      for (StringRef dim : {StringRef(kLaneDim), StringRef(kWarpDim)}) {
        if (!layout.hasInDim(dim))
          continue;
        for (unsigned i = 0; i < layout.getInDimSizeLog2(dim); ++i) {
          SmallVector<int32_t> dropped(layout.getBasis(dim, i));
          dropped.erase(dropped.begin() + axis);
          if (!resultLayout.hasInDim(dim) ||
              dropped != SmallVector<int32_t>(resultLayout.getBasis(dim, i)))
            return op.emitError("the result layout ")
                   << resultType.getEncoding()
                   << " is not the slice of the source layout along the axis";
        }
      }
      SmallVector<Value> regs;
      for (int32_t r = 0; r < getNumRegisters(resultType); ++r) {
        auto it = byCoords.find(getRegisterCoords(resultLayout, r));
        if (it == byCoords.end())
          return op.emitError("the result layout ")
                 << resultType.getEncoding()
                 << " holds elements the source's threads do not reduce";
        regs.push_back(it->second);
      }
      results.push_back(packRegisters(
          rewriter, loc, getTypeConverter()->convertType(resultType), regs));
    }
    rewriter.replaceOp(op, results);
    return success();
  }
};

} // namespace

uint64_t lowering::getReduceScratchBytes(ReduceOp op) {
  auto srcType = cast<RankedTensorType>(op.getSrcs().front().getType());
  LinearLayout layout = getLayout(srcType);
  unsigned axis = op.getAxis();
  unsigned warpAxisBits = 0;
  if (layout.hasInDim(kWarpDim))
    for (auto &basis : layout.getBases(kWarpDim))
      warpAxisBits += basis[axis] != 0;
  if (warpAxisBits == 0)
    return 0;
  uint64_t numOut = srcType.getNumElements() / srcType.getShape()[axis];
  return WarpScratch::getBytes(op.getSrcs(), uint64_t(1) << warpAxisBits,
                               numOut);
}

void lowering::populateReducePatterns(GPUTypeConverter &converter,
                                      RewritePatternSet &patterns,
                                      LoweringContext &ctx) {
  patterns.add<ReduceLowering>(converter, ctx);
}
