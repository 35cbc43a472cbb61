//===- ScanOps.cpp - Inclusive scans within threads, warps and blocks -----===//
//
// A scan along `axis` walks the bits of the axis coordinate from the least
// significant up. Before bit k is taken, every element holds its prefix
// within its block of 2^k positions (the positions sharing every coordinate
// bit from k up) and the total of that block. Taking the bits k to k+m-1
// joins 2^m such blocks in scan order: an element of the block s places the
// totals of blocks 0 to s-1 before its prefix, and all get the joined total.
// Who holds the 2^m blocks decides how they meet:
//   - registers: one thread holds them all; a sequential scan of the totals;
//   - a lane bit (m = 1): the two blocks are lanes `lane ^ bit` apart, one
//     xor-shuffle of the total;
//   - warp bits: the totals go through shared memory between two barriers
//     and every thread combines them in scan order, as a reduction does.
// The combine region is applied in scan order throughout (it need not
// commute), and a reversed scan is the same walk over the flipped
// coordinate. Only the xor-shuffle, barrier and thread-index hooks are
// needed; the target's shuffle gives each lane bit its cheapest exchange.
//
//===----------------------------------------------------------------------===//
#include "Lowering.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "llvm/Support/MathExtras.h"

#include <map>

using namespace mlir;
using namespace mlir::tessera;
using namespace mlir::tessera::lowering;

namespace {

/// Which input bit of the layout gives one bit of the axis coordinate.
struct AxisBit {
  StringRef dim;
  unsigned index;
};

/// The owner of every bit of the axis coordinate, least significant first;
/// an error on `op` (when given) for layouts the scan cannot walk.
FailureOr<SmallVector<AxisBit>> getAxisOwners(const LinearLayout &layout,
                                              unsigned axis, int64_t size,
                                              Operation *op) {
  auto fail = [&](const Twine &why) -> FailureOr<SmallVector<AxisBit>> {
    if (op)
      op->emitError("cannot scan along axis ") << axis << ": " << why;
    return failure();
  };
  unsigned numBits = llvm::Log2_64(size);
  SmallVector<std::optional<AxisBit>> owners(numBits);
  for (StringRef dim : {StringRef(kRegisterDim), StringRef(kLaneDim),
                        StringRef(kWarpDim), StringRef(kBlockDim)}) {
    // Without an op to report on (planning), the pattern reports later.
    SmallVector<unsigned> bits;
    if (op) {
      FailureOr<SmallVector<unsigned>> got =
          getAxisBits(layout, dim, axis, op, "scan");
      if (failed(got))
        return failure();
      bits = std::move(*got);
    } else if (layout.hasInDim(dim)) {
      for (auto [i, basis] : llvm::enumerate(layout.getBases(dim)))
        if (basis[axis] != 0)
          bits.push_back(i);
    }
    for (unsigned i : bits) {
      int32_t value = layout.getBasis(dim, i)[axis];
      if (dim == kBlockDim)
        return fail("the layout splits the axis between the blocks of a "
                    "cluster");
      if (!llvm::isPowerOf2_32(value) || value >= size ||
          owners[llvm::Log2_32(value)])
        return fail(Twine("the layout's bases along the axis are not "
                          "distinct powers of two (") +
                    dim + " bit " + Twine(i) + " moves " + Twine(value) + ")");
      owners[llvm::Log2_32(value)] = AxisBit{dim, i};
    }
  }
  SmallVector<AxisBit> result;
  for (auto [k, owner] : llvm::enumerate(owners)) {
    if (!owner)
      return fail("no thread holds the positions with axis bit " + Twine(k));
    result.push_back(*owner);
  }
  return result;
}

/// The runs [begin, end) of consecutive axis bits owned by warps.
SmallVector<std::pair<unsigned, unsigned>>
getWarpRuns(ArrayRef<AxisBit> owners) {
  SmallVector<std::pair<unsigned, unsigned>> runs;
  for (unsigned k = 0; k < owners.size();) {
    unsigned end = k + 1;
    if (owners[k].dim == kWarpDim) {
      while (end < owners.size() && owners[end].dim == kWarpDim)
        ++end;
      runs.push_back({k, end});
    }
    k = end;
  }
  return runs;
}

/// Bytes of a warp run's exchange: one total per slot (warp) and per block
/// above the run, for each operand.
uint64_t getRunBytes(ScanOp op, unsigned end, unsigned numSlotBits) {
  auto type = cast<RankedTensorType>(op.getSrcs().front().getType());
  int64_t size = type.getShape()[op.getAxis()];
  uint64_t numOut = type.getNumElements() / size * (size >> end);
  return WarpScratch::getBytes(op.getSrcs(), uint64_t(1) << numSlotBits,
                               numOut);
}

/// A block of the walk in one thread: the element's coordinates off the
/// axis, and the register part of its axis coordinate with the bits below
/// the current level cleared.
using BlockKey = std::pair<SmallVector<int32_t>, int32_t>;

struct ScanLowering : public GPUPattern<ScanOp> {
  using GPUPattern::GPUPattern;

  LogicalResult
  matchAndRewrite(ScanOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    unsigned axis = op.getAxis();
    auto srcType = cast<RankedTensorType>(op.getSrcs().front().getType());
    int64_t size = srcType.getShape()[axis];
    LinearLayout layout = getLayout(srcType);
    Region &region = op.getCombineOp();
    auto combine = [&](ArrayRef<Value> acc, ArrayRef<Value> cur) {
      return inlineCombine(rewriter, region, acc, cur);
    };
    auto select = [&](Value cond, ArrayRef<Value> a, ArrayRef<Value> b) {
      SmallVector<Value> out;
      for (auto [x, y] : llvm::zip(a, b))
        out.push_back(LLVM::SelectOp::create(rewriter, loc, cond, x, y));
      return out;
    };

    FailureOr<SmallVector<AxisBit>> owners =
        getAxisOwners(layout, axis, size, op);
    if (failed(owners))
      return failure();

    SmallVector<SmallVector<Value>> srcRegs;
    for (auto [value, original] : llvm::zip(adaptor.getSrcs(), op.getSrcs()))
      srcRegs.push_back(
          unpackRegisters(rewriter, loc, value, original.getType()));
    unsigned numOperands = srcRegs.size();

    // The distinct elements of the thread (registers may repeat one).
    struct Element {
      SmallVector<int32_t> offAxis;
      int32_t axisRegister;
      SmallVector<Value> prefix;
    };
    SmallVector<Element> elements;
    SmallVector<unsigned> elementOf;
    std::map<SmallVector<int32_t>, unsigned> byCoords;
    std::map<BlockKey, SmallVector<Value>> totals;
    for (size_t r = 0; r < srcRegs.front().size(); ++r) {
      SmallVector<int32_t> coords = getRegisterCoords(layout, r);
      auto [it, inserted] = byCoords.try_emplace(coords, elements.size());
      elementOf.push_back(it->second);
      if (!inserted)
        continue;
      Element element;
      element.axisRegister = coords[axis];
      element.offAxis = coords;
      element.offAxis[axis] = 0;
      for (auto &regs : srcRegs)
        element.prefix.push_back(regs[r]);
      totals[{element.offAxis, element.axisRegister}] = element.prefix;
      elements.push_back(std::move(element));
    }
    auto blockOf = [](const Element &e, unsigned level) -> BlockKey {
      return {e.offAxis, e.axisRegister & ~int32_t((1u << level) - 1)};
    };

    std::optional<ThreadIndex> tid;
    auto getTid = [&]() -> LogicalResult {
      if (!tid) {
        FailureOr<ThreadIndex> got = getThreadIndex(rewriter, loc, ctx, op);
        if (failed(got))
          return failure();
        tid = *got;
      }
      return success();
    };
    // Bit `bit` of the i32 `index`, as an i32 of 0 or 1.
    auto bitOf = [&](Value index, unsigned bit) -> Value {
      return LLVM::AndOp::create(
          rewriter, loc,
          LLVM::LShrOp::create(rewriter, loc, index,
                               createI32(rewriter, loc, bit)),
          createI32(rewriter, loc, 1));
    };

    bool reverse = op.getReverse();
    unsigned numBits = owners->size();
    for (unsigned k = 0; k < numBits;) {
      StringRef dim = (*owners)[k].dim;
      unsigned end = k + 1;
      if (dim != kLaneDim)
        while (end < numBits && (*owners)[end].dim == dim)
          ++end;
      unsigned m = end - k;
      int32_t numBlocks = 1 << m;
      // Block j of the run in coordinate order is block j ^ flip in scan
      // order.
      int32_t flip = reverse ? numBlocks - 1 : 0;
      std::map<BlockKey, SmallVector<Value>> joined;

      if (dim == kRegisterDim) {
        // R[s]: the totals of blocks 0..s in scan order, combined.
        std::map<BlockKey, SmallVector<SmallVector<Value>>> running;
        for (Element &e : elements) {
          BlockKey key = blockOf(e, end);
          auto [it, inserted] = running.try_emplace(key);
          SmallVector<SmallVector<Value>> &r = it->second;
          if (inserted) {
            for (int32_t s = 0; s < numBlocks; ++s) {
              BlockKey sub = key;
              sub.second |= (s ^ flip) << k;
              const SmallVector<Value> &total = totals.at(sub);
              r.push_back(s == 0 ? total : combine(r.back(), total));
            }
            joined[key] = r.back();
          }
          int32_t s = ((e.axisRegister >> k) & (numBlocks - 1)) ^ flip;
          // At level 0 an element is its own block: its prefix is R[s].
          if (k == 0)
            e.prefix = r[s];
          else if (s > 0)
            e.prefix = combine(r[s - 1], e.prefix);
        }
      } else if (dim == kLaneDim) {
        if (failed(getTid()))
          return failure();
        unsigned laneBit = (*owners)[k].index;
        Value upper = LLVM::ICmpOp::create(
            rewriter, loc, LLVM::ICmpPredicate::eq, bitOf(tid->lane, laneBit),
            createI32(rewriter, loc, reverse ? 0 : 1));
        std::map<BlockKey, SmallVector<Value>> partners;
        for (auto &[key, total] : totals) {
          SmallVector<Value> partner;
          for (Value v : total) {
            FailureOr<Value> got =
                shuffleAny(rewriter, loc, ctx.hooks, v, 1u << laneBit);
            if (failed(got))
              return op.emitError("the ")
                     << ctx.hooks.getName()
                     << " target cannot exchange registers between lanes, "
                        "which this scan needs";
            partner.push_back(*got);
          }
          // The lower block's total first (built in order, so that the
          // IR does not depend on the compiler's argument order).
          SmallVector<Value> lower = select(upper, partner, total);
          SmallVector<Value> higher = select(upper, total, partner);
          joined[key] = combine(lower, higher);
          partners[key] = std::move(partner);
        }
        for (Element &e : elements)
          e.prefix = select(
              upper, combine(partners.at(blockOf(e, k)), e.prefix), e.prefix);
      } else {
        assert(dim == kWarpDim && "block bits were rejected");
        if (failed(getTid()))
          return failure();
        // This warp's block in the run, in coordinate and scan order.
        SmallVector<unsigned> runBits;
        for (unsigned t = 0; t < m; ++t)
          runBits.push_back((*owners)[k + t].index);
        Value slot = emitPackedBits(rewriter, loc, tid->warp, runBits);
        Value order = LLVM::XOrOp::create(rewriter, loc, slot,
                                          createI32(rewriter, loc, flip));
        SmallVector<Value> threadCoords =
            emitThreadCoords(rewriter, loc, layout, *tid);
        // Blocks above the run, flattened: the coordinates off the axis and
        // the axis bits from `end` up.
        int64_t numOut = srcType.getNumElements() / size * (size >> end);
        auto outIndex = [&](const BlockKey &key) {
          SmallVector<int32_t> part = key.first;
          part[axis] = key.second;
          return emitAxisBlockIndex(rewriter, loc, threadCoords, part,
                                    srcType.getShape(), axis, end);
        };
        WarpScratch scratch(ctx, op, op.getSrcs(), numBlocks, numOut);
        auto slotPointer = [&](unsigned i, Value slotIndex, Value out) {
          return scratch.getPointer(rewriter, loc, i, slotIndex, out);
        };
        // The first barrier keeps earlier readers of the scratch space.
        if (failed(ctx.hooks.createBarrier(rewriter, loc)))
          return op.emitError("the ")
                 << ctx.hooks.getName()
                 << " target has no block barrier, which a scan across "
                    "warps needs";
        std::map<BlockKey, Value> outs;
        for (auto &[key, total] : totals) {
          Value out = outs[key] = outIndex(key);
          for (unsigned i = 0; i < numOperands; ++i) {
            FailureOr<Value> ptr = slotPointer(i, slot, out);
            if (failed(ptr))
              return failure();
            // The lanes holding a block all hold its total; all may write.
            LLVM::StoreOp::create(rewriter, loc, total[i], *ptr);
          }
        }
        (void)ctx.hooks.createBarrier(rewriter, loc);
        Value first =
            LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::eq, order,
                                 createI32(rewriter, loc, 0));
        std::map<BlockKey, SmallVector<Value>> before;
        for (auto &[key, total] : totals) {
          SmallVector<Value> running;
          SmallVector<Value> chosen;
          for (int32_t s = 0; s < numBlocks; ++s) {
            SmallVector<Value> other;
            for (unsigned i = 0; i < numOperands; ++i) {
              FailureOr<Value> ptr = slotPointer(
                  i, createI32(rewriter, loc, s ^ flip), outs.at(key));
              if (failed(ptr))
                return failure();
              other.push_back(LLVM::LoadOp::create(rewriter, loc,
                                                   total[i].getType(), *ptr));
            }
            running = s == 0 ? other : combine(running, other);
            // What blocks 0..s give block s + 1.
            if (s == 0)
              chosen = running;
            else if (s + 1 < numBlocks)
              chosen = select(
                  LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::eq,
                                       order, createI32(rewriter, loc, s + 1)),
                  running, chosen);
          }
          joined[key] = running;
          before[key] = std::move(chosen);
        }
        for (Element &e : elements)
          e.prefix = select(first, e.prefix,
                            combine(before.at(blockOf(e, k)), e.prefix));
      }
      totals = std::move(joined);
      k = end;
    }

    SmallVector<Value> results;
    for (unsigned i = 0; i < numOperands; ++i) {
      SmallVector<Value> regs;
      for (unsigned e : elementOf)
        regs.push_back(elements[e].prefix[i]);
      results.push_back(packRegisters(
          rewriter, loc,
          getTypeConverter()->convertType(op.getResult(i).getType()), regs));
    }
    rewriter.replaceOp(op, results);
    return success();
  }
};

} // namespace

uint64_t lowering::getScanScratchBytes(ScanOp op) {
  auto type = cast<RankedTensorType>(op.getSrcs().front().getType());
  FailureOr<SmallVector<AxisBit>> owners = getAxisOwners(
      getLayout(type), op.getAxis(), type.getShape()[op.getAxis()], nullptr);
  if (failed(owners))
    return 0;
  uint64_t bytes = 0;
  for (auto [begin, end] : getWarpRuns(*owners))
    bytes = std::max(bytes, getRunBytes(op, end, end - begin));
  return bytes;
}

void lowering::populateScanPatterns(GPUTypeConverter &converter,
                                    RewritePatternSet &patterns,
                                    LoweringContext &ctx) {
  patterns.add<ScanLowering>(converter, ctx);
}
