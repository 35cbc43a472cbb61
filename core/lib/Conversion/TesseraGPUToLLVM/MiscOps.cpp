//===- MiscOps.cpp - Indices, barriers, hints, printing and assertions ----===//
#include "Lowering.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::tessera;
using namespace mlir::tessera::lowering;

namespace {

struct ProgramIdLowering : public GPUPattern<ProgramIdOp> {
  using GPUPattern::GPUPattern;
  LogicalResult
  matchAndRewrite(ProgramIdOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    FailureOr<Value> id =
        ctx.hooks.getProgramId(rewriter, op.getLoc(), unsigned(op.getAxis()));
    if (failed(id))
      return op.emitError("the ")
             << ctx.hooks.getName() << " target gives no program index";
    rewriter.replaceOp(op, *id);
    return success();
  }
};

struct NumProgramsLowering : public GPUPattern<NumProgramsOp> {
  using GPUPattern::GPUPattern;
  LogicalResult
  matchAndRewrite(NumProgramsOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    FailureOr<Value> n =
        ctx.hooks.getNumPrograms(rewriter, op.getLoc(), unsigned(op.getAxis()));
    if (failed(n))
      return op.emitError("the ")
             << ctx.hooks.getName() << " target gives no program count";
    rewriter.replaceOp(op, *n);
    return success();
  }
};

/// tessera.debug_barrier and tessera_gpu.barrier.
template <typename OpT> struct BarrierLowering : public GPUPattern<OpT> {
  using GPUPattern<OpT>::GPUPattern;
  LogicalResult
  matchAndRewrite(OpT op, typename OpT::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(this->ctx.hooks.createBarrier(rewriter, op.getLoc())))
      return op.emitError("the ")
             << this->ctx.hooks.getName() << " target has no block barrier";
    rewriter.eraseOp(op);
    return success();
  }
};

struct HintLowering : public GPUPattern<HintOp> {
  using GPUPattern::GPUPattern;
  LogicalResult
  matchAndRewrite(HintOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    // Hints fed the axis analysis; nothing of them runs.
    rewriter.replaceOp(op, adaptor.getSrc());
    return success();
  }
};

struct AssumeLowering : public GPUPattern<AssumeOp> {
  using GPUPattern::GPUPattern;
  LogicalResult
  matchAndRewrite(AssumeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    LLVM::AssumeOp::create(rewriter, op.getLoc(), adaptor.getCond());
    rewriter.eraseOp(op);
    return success();
  }
};

/// The printf conversion of an element of `type` and the value passed for
/// it (ints widened to 32 or 64 bits, floats to double as C varargs do).
std::pair<std::string, Value> formatValue(OpBuilder &b, Location loc,
                                          Value value, Type type, bool isSigned,
                                          bool hex) {
  if (isa<PointerType>(type))
    return {"%p", value};
  if (auto f = dyn_cast<FloatType>(type)) {
    if (!f.isF64())
      value = LLVM::FPExtOp::create(b, loc, b.getF64Type(), value);
    return {hex ? "%a" : "%f", value};
  }
  unsigned width = type.getIntOrFloatBitWidth();
  Type wide = width > 32 ? b.getI64Type() : b.getI32Type();
  if (width < wide.getIntOrFloatBitWidth())
    value = isSigned && width > 1
                ? LLVM::SExtOp::create(b, loc, wide, value).getResult()
                : LLVM::ZExtOp::create(b, loc, wide, value).getResult();
  std::string spec = width > 32 ? "%ll" : "%";
  spec += hex ? "x" : (isSigned && width > 1 ? "d" : "u");
  return {spec, value};
}

struct PrintLowering : public GPUPattern<PrintOp> {
  using GPUPattern::GPUPattern;
  LogicalResult
  matchAndRewrite(PrintOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    SmallVector<Value> pid;
    for (unsigned axis = 0; axis < 3; ++axis) {
      FailureOr<Value> id = ctx.hooks.getProgramId(rewriter, loc, axis);
      if (failed(id))
        return op.emitError("the ")
               << ctx.hooks.getName() << " target gives no program index";
      pid.push_back(*id);
    }
    std::string prefix = "pid (%d, %d, %d) ";
    auto emit = [&](StringRef format, ArrayRef<Value> args) -> LogicalResult {
      SmallVector<Value> all(pid);
      all.append(args.begin(), args.end());
      if (failed(ctx.hooks.printf(rewriter, loc, format, all)))
        return op.emitError("the ")
               << ctx.hooks.getName() << " target cannot print from a kernel";
      return success();
    };
    if (op.getArgs().empty()) {
      if (failed(emit(prefix + op.getPrefix().str() + "\n", {})))
        return failure();
      rewriter.eraseOp(op);
      return success();
    }

    for (auto [i, arg] : llvm::enumerate(op.getArgs())) {
      bool isSigned = op.getIsSigned()[i] != 0;
      Type type = arg.getType();
      auto tensor = dyn_cast<RankedTensorType>(type);
      if (!tensor) {
        auto [spec, value] = formatValue(rewriter, loc, adaptor.getArgs()[i],
                                         type, isSigned, op.getHex());
        if (failed(emit(prefix + op.getPrefix().str() + spec + "\n", {value})))
          return failure();
        continue;
      }
      FailureOr<ThreadIndex> tid = getThreadIndex(rewriter, loc, ctx, op);
      if (failed(tid))
        return failure();
      LinearLayout layout = getLayout(tensor);
      SmallVector<SmallVector<Value>> coords =
          emitAllCoords(rewriter, loc, layout, *tid);
      SmallVector<Value> regs =
          unpackRegisters(rewriter, loc, adaptor.getArgs()[i], tensor);
      std::string idx = "idx (";
      for (int64_t d = 0; d < tensor.getRank(); ++d)
        idx += d ? ", %d" : "%d";
      idx += ") ";
      for (auto [reg, value] : llvm::enumerate(regs)) {
        auto [spec, formatted] =
            formatValue(rewriter, loc, value, tensor.getElementType(), isSigned,
                        op.getHex());
        SmallVector<Value> args(coords[reg]);
        args.push_back(formatted);
        if (failed(
                emit(prefix + idx + op.getPrefix().str() + spec + "\n", args)))
          return failure();
      }
    }
    rewriter.eraseOp(op);
    return success();
  }
};

struct AssertLowering : public GPUPattern<AssertOp> {
  using GPUPattern::GPUPattern;
  LogicalResult
  matchAndRewrite(AssertOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    SmallVector<Value> regs = unpackRegisters(
        rewriter, loc, adaptor.getCondition(), op.getCondition().getType());
    Value holds = regs.front();
    for (Value reg : ArrayRef<Value>(regs).drop_front())
      holds = LLVM::AndOp::create(rewriter, loc, holds, reg);
    Value fails = LLVM::XOrOp::create(
        rewriter, loc, holds,
        LLVM::ConstantOp::create(rewriter, loc, rewriter.getI1Type(),
                                 rewriter.getBoolAttr(true)));
    emitIf(rewriter, loc, fails, {}, [&](OpBuilder &b) {
      if (failed(ctx.hooks.assertFail(b, loc, op.getMessage(), op.getFile(),
                                      op.getFunction(), op.getLine())))
        LLVM::Trap::create(b, loc);
      return SmallVector<Value>{};
    });
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void lowering::populateMiscPatterns(GPUTypeConverter &converter,
                                    RewritePatternSet &patterns,
                                    LoweringContext &ctx) {
  patterns.add<ProgramIdLowering, NumProgramsLowering,
               BarrierLowering<DebugBarrierOp>, BarrierLowering<gpu::BarrierOp>,
               HintLowering, AssumeLowering, PrintLowering, AssertLowering>(
      converter, ctx);
}
