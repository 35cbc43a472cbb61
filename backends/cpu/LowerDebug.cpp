//===- LowerDebug.cpp - Printing, assertions and hints on the CPU ---------===//
//
// tessera.print calls the runtime once per element of each operand (one
// line each, serialized across threads); tessera.assert tests every element
// and calls the runtime's failure handler on the first false one, which
// records the message for Driver::synchronize and leaves the program
// instance. Hints and assumptions become nothing or llvm.intr.assume; a
// debug barrier is a no-op with one thread per program instance.
//
//===----------------------------------------------------------------------===//
#include "Lowering.h"
#include "Runtime.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::tessera;
using namespace mlir::tessera::cpu;

namespace {

/// Indices are passed as four i64 (unused ones zero).
constexpr unsigned kMaxPrintedRank = 4;

/// Runs `body` with the indices of every element of a value of `type` (no
/// indices for scalars).
void forEachIndex(OpBuilder &b, Location loc, Type type,
                  function_ref<void(OpBuilder &, Location, ValueRange)> body) {
  auto tensorType = dyn_cast<RankedTensorType>(type);
  if (!tensorType) {
    body(b, loc, ValueRange{});
    return;
  }
  buildLoopNest(b, loc, tensorType.getShape(), ValueRange{},
                [&](OpBuilder &nb, Location l, ValueRange ivs,
                    ValueRange) -> SmallVector<Value> {
                  body(nb, l, ivs);
                  return {};
                });
}

/// The rank and the four i64 index arguments of the runtime calls.
SmallVector<Value> indexArguments(OpBuilder &b, Location loc, ValueRange ivs) {
  SmallVector<Value> args{arith::ConstantOp::create(
      b, loc,
      b.getI32IntegerAttr(std::min<int64_t>(ivs.size(), kMaxPrintedRank)))};
  for (unsigned d = 0; d < kMaxPrintedRank; ++d)
    args.push_back(d < ivs.size() ? toI64(b, loc, ivs[d])
                                  : Value(createZero(b, loc, b.getI64Type())));
  return args;
}

struct PrintOpLowering : public OpConversionPattern<PrintOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(PrintOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type ptrType = LLVM::LLVMPointerType::get(rewriter.getContext());
    Type i32 = rewriter.getI32Type(), i64 = rewriter.getI64Type(),
         f64 = rewriter.getF64Type();
    Value prefix = getOrCreateStringConstant(rewriter, loc, op, op.getPrefix());
    if (adaptor.getArgs().empty()) {
      declareFunction(rewriter, op, kPrintLineSymbol,
                      rewriter.getFunctionType({ptrType}, {}));
      func::CallOp::create(rewriter, loc, kPrintLineSymbol, TypeRange{},
                           ValueRange{prefix});
      rewriter.eraseOp(op);
      return success();
    }
    declareFunction(
        rewriter, op, kPrintSymbol,
        rewriter.getFunctionType({ptrType, i32, i32, i32, i64, i64, i64, i64,
                                  i32, i32, i64, f64, i32},
                                 {}));
    ArrayRef<int32_t> isSigned = op.getIsSigned();
    int32_t numOperands = adaptor.getArgs().size();
    for (auto [index, arg] : llvm::enumerate(adaptor.getArgs())) {
      Type origElem = getElementTypeOrSelf(op.getArgs()[index].getType());
      bool isPointer = isa<PointerType>(origElem);
      bool signedValue =
          !isPointer && (index < isSigned.size() ? isSigned[index] != 0 : true);
      bool hex = op.getHex() || isPointer;
      forEachIndex(
          rewriter, loc, arg.getType(),
          [&](OpBuilder &b, Location l, ValueRange ivs) {
            Value value = arg;
            if (!ivs.empty())
              value = tensor::ExtractOp::create(b, l, arg, ivs);
            Type type = value.getType();
            PrintKind kind;
            Value intValue = createZero(b, l, i64);
            Value floatValue = createZero(b, l, f64);
            if (isa<FloatType>(type)) {
              kind = PrintKind::Float;
              floatValue = type == f64
                               ? value
                               : Value(arith::ExtFOp::create(b, l, f64, value));
            } else {
              kind = signedValue ? PrintKind::Signed : PrintKind::Unsigned;
              intValue = toI64(b, l, value, signedValue);
            }
            SmallVector<Value> args{
                prefix,
                arith::ConstantOp::create(b, l, b.getI32IntegerAttr(index)),
                arith::ConstantOp::create(b, l,
                                          b.getI32IntegerAttr(numOperands))};
            args.append(indexArguments(b, l, ivs));
            args.push_back(arith::ConstantOp::create(
                b, l, b.getI32IntegerAttr(static_cast<int32_t>(kind))));
            args.push_back(arith::ConstantOp::create(
                b, l, b.getI32IntegerAttr(type.getIntOrFloatBitWidth())));
            args.push_back(intValue);
            args.push_back(floatValue);
            args.push_back(
                arith::ConstantOp::create(b, l, b.getI32IntegerAttr(hex)));
            func::CallOp::create(b, l, kPrintSymbol, TypeRange{}, args);
          });
    }
    rewriter.eraseOp(op);
    return success();
  }
};

struct AssertOpLowering : public OpConversionPattern<AssertOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(AssertOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type ptrType = LLVM::LLVMPointerType::get(rewriter.getContext());
    Type i32 = rewriter.getI32Type(), i64 = rewriter.getI64Type();
    declareFunction(
        rewriter, op, kAssertFailSymbol,
        rewriter.getFunctionType(
            {ptrType, ptrType, i32, ptrType, i32, i64, i64, i64, i64}, {}));
    Value message =
        getOrCreateStringConstant(rewriter, loc, op, op.getMessage());
    Value file = getOrCreateStringConstant(rewriter, loc, op, op.getFile());
    Value function =
        getOrCreateStringConstant(rewriter, loc, op, op.getFunction());
    Value condition = adaptor.getCondition();
    int32_t line = op.getLine();
    forEachIndex(
        rewriter, loc, condition.getType(),
        [&](OpBuilder &b, Location l, ValueRange ivs) {
          Value holds = condition;
          if (!ivs.empty())
            holds = tensor::ExtractOp::create(b, l, condition, ivs);
          Value fails = arith::XOrIOp::create(
              b, l, holds,
              arith::ConstantOp::create(b, l, b.getBoolAttr(true)));
          scf::IfOp::create(b, l, fails, [&](OpBuilder &t, Location tl) {
            SmallVector<Value> args{
                message, file,
                arith::ConstantOp::create(t, tl, t.getI32IntegerAttr(line)),
                function};
            args.append(indexArguments(t, tl, ivs));
            func::CallOp::create(t, tl, kAssertFailSymbol, TypeRange{}, args);
            scf::YieldOp::create(t, tl);
          });
        });
    rewriter.eraseOp(op);
    return success();
  }
};

struct AssumeOpLowering : public OpConversionPattern<AssumeOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(AssumeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    callOutlined(rewriter, op.getLoc(), op, "__tessera_cpu_assume",
                 adaptor.getCond(), Type(),
                 [](OpBuilder &b, Location loc, ValueRange args) -> Value {
                   LLVM::AssumeOp::create(b, loc, args[0]);
                   return Value();
                 });
    rewriter.eraseOp(op);
    return success();
  }
};

/// Alignment facts are for the GPU lowerings' vectorization; here LLVM
/// infers what it needs.
struct HintOpLowering : public OpConversionPattern<HintOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(HintOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, adaptor.getSrc());
    return success();
  }
};

/// One thread per program instance: nothing to wait for.
struct DebugBarrierOpLowering : public OpConversionPattern<DebugBarrierOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(DebugBarrierOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void cpu::populateDebugPatterns(const CpuTypeConverter &converter,
                                RewritePatternSet &patterns) {
  patterns.add<PrintOpLowering, AssertOpLowering, AssumeOpLowering,
               HintOpLowering, DebugBarrierOpLowering>(converter,
                                                       patterns.getContext());
}
