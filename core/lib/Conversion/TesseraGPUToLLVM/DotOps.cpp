//===- DotOps.cpp - Matrix products: the target's, or multiply-adds -------===//
//
// The target lowers a dot with its matrix instructions through
// LoweringHooks::lowerDot. When it declines, each thread computes its
// accumulator elements with multiply-adds, which needs operand layouts that
// give the thread the whole row of A and column of B of each of its
// accumulator elements (the dot-operand layouts of a blocked result do), in
// the same batch for a three-dimensional dot.
//
//===----------------------------------------------------------------------===//
#include "Lowering.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

#include <array>
#include <map>

using namespace mlir;
using namespace mlir::tessera;
using namespace mlir::tessera::lowering;

namespace {

/// Coordinates (batch, row, column) of a dot's element; the batch is 0 in
/// a two-dimensional dot.
using DotCoords = std::array<int32_t, 3>;

DotCoords toDotCoords(ArrayRef<int32_t> c) {
  return c.size() == 3 ? DotCoords{c[0], c[1], c[2]} : DotCoords{0, c[0], c[1]};
}

/// True when operand `operand` (0: A, [B x] MxK; 1: B, [B x] KxN) places its
/// elements in the threads of accumulator layout `acc`: its lane and warp
/// bases are the accumulator's with the other matrix dimension moved to
/// K = 0 (the batch dimension, if any, unchanged).
bool operandFollowsAccumulator(const LinearLayout &operand,
                               const LinearLayout &acc, unsigned opIdx) {
  for (StringRef dim : {StringRef(kLaneDim), StringRef(kWarpDim)}) {
    unsigned bits = acc.hasInDim(dim) ? acc.getInDimSizeLog2(dim) : 0;
    unsigned opBits = operand.hasInDim(dim) ? operand.getInDimSizeLog2(dim) : 0;
    if (bits != opBits)
      return false;
    for (unsigned i = 0; i < bits; ++i) {
      SmallVector<int32_t> expected(acc.getBasis(dim, i));
      expected[expected.size() - (opIdx == 0 ? 1 : 2)] = 0;
      if (expected != SmallVector<int32_t>(operand.getBasis(dim, i)))
        return false;
    }
  }
  return true;
}

/// Registers of `layout` by their register-part coordinates.
std::map<DotCoords, int32_t> indexRegisters(const LinearLayout &layout) {
  std::map<DotCoords, int32_t> index;
  for (int32_t r = 0; r < layout.getInDimSize(kRegisterDim); ++r)
    index.try_emplace(toDotCoords(getRegisterCoords(layout, r)), r);
  return index;
}

/// `x`, an element of type `elementType` (as converted: i8 for fp8),
/// converted to the accumulator type `acc`.
FailureOr<Value> extendTo(OpBuilder &b, Location loc, Operation *op, Value x,
                          Type elementType, Type acc) {
  Type type = x.getType();
  auto floatElement = dyn_cast<FloatType>(elementType);
  if (floatElement && floatElement.getWidth() == 8) {
    // fp8 registers are i8 bit patterns, never integers.
    auto accFloat = dyn_cast<FloatType>(acc);
    if (!accFloat)
      return op->emitError("an fp8 dot accumulates in a float type");
    return emitFp8Conversion(b, loc, op, x, floatElement, accFloat,
                             RoundingMode::rtne);
  }
  if (type == acc)
    return x;
  if (isa<FloatType>(acc)) {
    if (isa<FloatType>(type))
      return cast<FloatType>(type).getWidth() < cast<FloatType>(acc).getWidth()
                 ? LLVM::FPExtOp::create(b, loc, acc, x).getResult()
                 : LLVM::FPTruncOp::create(b, loc, acc, x).getResult();
    return LLVM::SIToFPOp::create(b, loc, acc, x).getResult();
  }
  return LLVM::SExtOp::create(b, loc, acc, x).getResult();
}

struct DotLowering : public GPUPattern<DotOp> {
  using GPUPattern::GPUPattern;
  LogicalResult
  matchAndRewrite(DotOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto aType = cast<RankedTensorType>(op.getA().getType());
    auto bType = cast<RankedTensorType>(op.getB().getType());
    auto cType = cast<RankedTensorType>(op.getC().getType());
    SmallVector<Value> a =
        unpackRegisters(rewriter, loc, adaptor.getA(), aType);
    SmallVector<Value> b =
        unpackRegisters(rewriter, loc, adaptor.getB(), bType);
    SmallVector<Value> c =
        unpackRegisters(rewriter, loc, adaptor.getC(), cType);
    Type resultType = getTypeConverter()->convertType(op.getType());

    DotOperands operands{op, a, b, c};
    if (auto load = op.getA().getDefiningOp<gpu::LocalLoadOp>()) {
      operands.aShared = rewriter.getRemappedValue(load.getSrc());
      operands.aSharedType = load.getSrc().getType();
    }
    if (auto load = op.getB().getDefiningOp<gpu::LocalLoadOp>()) {
      operands.bShared = rewriter.getRemappedValue(load.getSrc());
      operands.bSharedType = load.getSrc().getType();
    }
    FailureOr<SmallVector<Value>> d =
        ctx.hooks.lowerDot(rewriter, loc, operands);
    if (succeeded(d)) {
      rewriter.replaceOp(op, packRegisters(rewriter, loc, resultType, *d));
      return success();
    }

    LinearLayout la = getLayout(aType), lb = getLayout(bType),
                 lc = getLayout(cType);
    if (!operandFollowsAccumulator(la, lc, 0) ||
        !operandFollowsAccumulator(lb, lc, 1))
      return op.emitError("the ")
             << ctx.hooks.getName()
             << " target declined this dot, and its operand layouts do not "
                "give each thread the rows and columns of its accumulator "
                "elements, which the multiply-add lowering needs";
    // A blocked accumulator is where accelerate-dot leaves the dots no
    // matrix instruction takes, and it has said why; any other layout was
    // chosen for an instruction the target then declined.
    if (!isa<gpu::BlockedAttr>(cType.getEncoding()))
      op.emitRemark("dot computed with multiply-adds: the ")
          << ctx.hooks.getName() << " target declined the dot in layout "
          << cType.getEncoding();

    int64_t k = aType.getShape().back();
    auto aIndex = indexRegisters(la), bIndex = indexRegisters(lb);
    Type resultElem = c.front().getType();
    // A float accumulator narrower than fp32 (out_dtype=fp16) sums in fp32
    // and is rounded once at the end, as matrix units keep at least fp32
    // inside an instruction: one rounding per product would lose about
    // log2(K) bits more than the dots matrix instructions take.
    Type accType = resultElem;
    if (isa<FloatType>(resultElem) && resultElem.getIntOrFloatBitWidth() < 32)
      accType = rewriter.getF32Type();
    bool isFloat = isa<FloatType>(accType);
    // Each operand register is widened once, not once per use: an fp8
    // decode is a dozen operations, and every A register is used by a whole
    // row of accumulators.
    DenseMap<std::pair<unsigned, int32_t>, Value> widened;
    auto widen = [&](unsigned operand, int32_t reg) -> FailureOr<Value> {
      auto it = widened.find({operand, reg});
      if (it != widened.end())
        return it->second;
      FailureOr<Value> x = operand == 0
                               ? extendTo(rewriter, loc, op, a[reg],
                                          aType.getElementType(), accType)
                               : extendTo(rewriter, loc, op, b[reg],
                                          bType.getElementType(), accType);
      if (succeeded(x))
        widened[{operand, reg}] = *x;
      return x;
    };
    SmallVector<Value> result;
    for (int32_t r = 0; r < int32_t(c.size()); ++r) {
      DotCoords coords = toDotCoords(getRegisterCoords(lc, r));
      Value acc = c[r];
      if (accType != resultElem)
        acc = LLVM::FPExtOp::create(rewriter, loc, accType, acc);
      for (int64_t i = 0; i < k; ++i) {
        auto ai = aIndex.find({coords[0], coords[1], int32_t(i)});
        auto bi = bIndex.find({coords[0], int32_t(i), coords[2]});
        if (ai == aIndex.end() || bi == bIndex.end())
          return op.emitError("an operand layout does not hold the whole "
                              "reduction dimension in each thread");
        FailureOr<Value> x = widen(0, ai->second);
        FailureOr<Value> y = widen(1, bi->second);
        if (failed(x) || failed(y))
          return failure();
        acc = isFloat ? LLVM::FMulAddOp::create(rewriter, loc, *x, *y, acc)
                            .getResult()
                      : LLVM::AddOp::create(
                            rewriter, loc, acc,
                            LLVM::MulOp::create(rewriter, loc, *x, *y))
                            .getResult();
      }
      if (accType != resultElem)
        acc = LLVM::FPTruncOp::create(rewriter, loc, resultElem, acc);
      result.push_back(acc);
    }
    rewriter.replaceOp(op, packRegisters(rewriter, loc, resultType, result));
    return success();
  }
};

/// dot_wait: the target waits for its running dots; where it declines,
/// dots are synchronous and the values pass through.
struct DotWaitLowering : public GPUPattern<gpu::DotWaitOp> {
  using GPUPattern::GPUPattern;
  LogicalResult
  matchAndRewrite(gpu::DotWaitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    SmallVector<Value> registers;
    SmallVector<size_t> counts;
    for (auto [value, type] :
         llvm::zip(adaptor.getInputs(), op.getInputs().getTypes())) {
      SmallVector<Value> regs =
          unpackRegisters(rewriter, loc, value, cast<RankedTensorType>(type));
      counts.push_back(regs.size());
      llvm::append_range(registers, regs);
    }
    FailureOr<SmallVector<Value>> waited =
        ctx.hooks.waitForDots(rewriter, loc, registers, op.getPending());
    if (succeeded(waited)) {
      if (waited->size() != registers.size())
        return op.emitError("the ")
               << ctx.hooks.getName() << " target's wait for dots returned "
               << waited->size() << " registers for " << registers.size();
      registers = std::move(*waited);
    }
    SmallVector<Value> results;
    size_t next = 0;
    for (auto [count, type] : llvm::zip(counts, op.getOutputs().getTypes())) {
      results.push_back(
          packRegisters(rewriter, loc, getTypeConverter()->convertType(type),
                        ArrayRef<Value>(registers).slice(next, count)));
      next += count;
    }
    rewriter.replaceOp(op, results);
    return success();
  }
};

} // namespace

void lowering::populateDotPatterns(GPUTypeConverter &converter,
                                   RewritePatternSet &patterns,
                                   LoweringContext &ctx) {
  patterns.add<DotLowering, DotWaitLowering>(converter, ctx);
}
