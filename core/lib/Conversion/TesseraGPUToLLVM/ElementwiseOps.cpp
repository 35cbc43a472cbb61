//===- ElementwiseOps.cpp - Elementwise ops, one register at a time -------===//
//
// An elementwise op on laid-out tensors becomes the same computation on each
// register the thread holds: arith and math ops are recreated on scalars
// (and lowered by MLIR's own patterns, or the target's), tessera's
// elementwise ops are spelled here in the LLVM dialect.
//
//===----------------------------------------------------------------------===//
#include "Lowering.h"

#include "tessera/Dialect/TesseraGPU/IR/LayoutUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"

using namespace mlir;
using namespace mlir::tessera;
using namespace mlir::tessera::lowering;

namespace {

/// True for the elementwise ops of the tessera dialect. Not
/// `hasTrait<OpTrait::Elementwise>`: trait TypeIDs are not shared between
/// this library and libMLIR when built by different compilers.
bool isTesseraElementwise(Operation *op) {
  return isa<AddPtrOp, IntToPtrOp, PtrToIntOp, BitcastOp, ExternElementwiseOp,
             PreciseSqrtOp, PreciseDivFOp, FpToFpOp, ClampFOp, MulhiUIOp>(op);
}

/// True for float types narrower than 16 bits, which LLVM holds as integers
/// and so cannot convert with fpext and fptrunc.
bool isNarrowFloat(Type type) {
  auto f = dyn_cast<FloatType>(getElementTypeOrSelf(type));
  return f && f.getWidth() < 16;
}

/// arith.extf and arith.truncf to or from fp8, which MLIR's arith patterns
/// would spell as fpext and fptrunc of i8.
bool isNarrowFloatCast(Operation *op) {
  return isa<arith::ExtFOp, arith::TruncFOp>(op) &&
         (isNarrowFloat(op->getOperand(0).getType()) ||
          isNarrowFloat(op->getResult(0).getType()));
}

/// math.absf and arith.negf of fp8, which MLIR's patterns would spell as
/// float intrinsics of i8: fp8 formats are sign-magnitude, so these are the
/// sign bit cleared or flipped.
bool isNarrowFloatSignOp(Operation *op) {
  return isa<math::AbsFOp, arith::NegFOp>(op) &&
         isNarrowFloat(op->getResult(0).getType());
}

/// An fp8 math.absf or arith.negf on one converted (i8) scalar.
Value emitNarrowFloatSignOp(OpBuilder &b, Operation *op, Value bits) {
  Location loc = op->getLoc();
  auto type = cast<IntegerType>(bits.getType());
  APInt sign = APInt::getSignMask(type.getWidth());
  if (isa<math::AbsFOp>(op))
    return LLVM::AndOp::create(
        b, loc, bits, createConstant(b, loc, type, (~sign).getZExtValue()));
  return LLVM::XOrOp::create(b, loc, bits,
                             createConstant(b, loc, type, sign.getZExtValue()));
}

/// emitFp8Conversion, narrowing to nearest even from f16, bf16 or f32
/// through the target's instructions where it has them.
FailureOr<Value> convertFp8(LoweringHooks &hooks, OpBuilder &b, Location loc,
                            Operation *op, Value x, FloatType src,
                            FloatType dst, RoundingMode rounding) {
  if (dst.getWidth() == 8 && rounding == RoundingMode::rtne &&
      (src.isF16() || src.isBF16() || src.isF32()))
    if (FailureOr<Value> code = hooks.narrowToFp8(b, loc, x, dst);
        succeeded(code))
      return code;
  return emitFp8Conversion(b, loc, op, x, src, dst, rounding);
}

/// An fp8 arith.extf or arith.truncf on one converted scalar.
FailureOr<Value> emitNarrowFloatCast(LoweringHooks &hooks, OpBuilder &b,
                                     Operation *op, Value x) {
  auto src = cast<FloatType>(getElementTypeOrSelf(op->getOperand(0)));
  auto dst = cast<FloatType>(getElementTypeOrSelf(op->getResult(0)));
  RoundingMode rounding = RoundingMode::rtne;
  if (auto trunc = dyn_cast<arith::TruncFOp>(op)) {
    std::optional<arith::RoundingMode> mode = trunc.getRoundingmode();
    if (mode == arith::RoundingMode::toward_zero)
      rounding = RoundingMode::rtz;
    else if (mode && mode != arith::RoundingMode::to_nearest_even)
      return op->emitError("truncations to fp8 round to nearest even or "
                           "toward zero, not ")
             << arith::stringifyRoundingMode(*mode);
  }
  return convertFp8(hooks, b, op->getLoc(), op, x, src, dst, rounding);
}

/// Declares `name` as an external LLVM function of `type` unless it exists.
void declareFunction(OpBuilder &b, Operation *anchor, StringRef name,
                     LLVM::LLVMFunctionType type) {
  auto module = anchor->getParentOfType<ModuleOp>();
  if (module.lookupSymbol(name))
    return;
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(module.getBody());
  LLVM::LLVMFuncOp::create(b, anchor->getLoc(), name, type);
}

/// Float conversion honouring the rounding mode of tessera.fp_to_fp.
FailureOr<Value> emitFpToFp(LoweringHooks &hooks, OpBuilder &b, Location loc,
                            FpToFpOp op, Value x, Type dstType) {
  // fp8 has no LLVM type (the type converter makes it i8), so look at the
  // op's own types.
  auto srcElem = cast<FloatType>(getElementTypeOrSelf(op.getSrc()));
  auto dstElem = cast<FloatType>(getElementTypeOrSelf(op.getResult()));
  if (isNarrowFloat(srcElem) || isNarrowFloat(dstElem))
    return convertFp8(hooks, b, loc, op, x, srcElem, dstElem,
                      op.getRounding().value_or(RoundingMode::rtne));
  auto src = cast<FloatType>(x.getType());
  auto dst = cast<FloatType>(dstType);
  if (src == dst)
    return x;
  if (dst.getWidth() > src.getWidth() &&
      dst.getFPMantissaWidth() >= src.getFPMantissaWidth())
    return LLVM::FPExtOp::create(b, loc, dst, x).getResult();
  // f16 <-> bf16: through f32, which holds both exactly.
  if (dst.getWidth() >= src.getWidth()) {
    x = LLVM::FPExtOp::create(b, loc, b.getF32Type(), x);
    src = b.getF32Type();
  }
  Value rounded = LLVM::FPTruncOp::create(b, loc, dst, x);
  if (op.getRounding() != RoundingMode::rtz)
    return rounded;
  // Toward zero: when rounding to nearest moved the value away from zero,
  // step one unit back towards zero (integer decrement of the magnitude).
  Value back = LLVM::FPExtOp::create(b, loc, src, rounded);
  Value absBack = LLVM::FAbsOp::create(b, loc, back);
  Value absX = LLVM::FAbsOp::create(b, loc, x);
  Value away =
      LLVM::FCmpOp::create(b, loc, LLVM::FCmpPredicate::ogt, absBack, absX);
  Type intType = b.getIntegerType(dst.getWidth());
  Value bits = LLVM::BitcastOp::create(b, loc, intType, rounded);
  Value stepped =
      LLVM::SubOp::create(b, loc, bits, createConstant(b, loc, intType, 1));
  Value towardZero = LLVM::BitcastOp::create(b, loc, dst, stepped);
  return LLVM::SelectOp::create(b, loc, away, towardZero, rounded).getResult();
}

/// One element of a tessera elementwise op, on converted scalars.
FailureOr<Value> emitTesseraScalar(LoweringHooks &hooks, OpBuilder &b,
                                   Operation *op, ValueRange operands,
                                   Type resultType,
                                   const TypeConverter &converter) {
  Location loc = op->getLoc();
  if (auto addptr = dyn_cast<AddPtrOp>(op)) {
    auto ptrType = cast<PointerType>(getElementTypeOrSelf(addptr.getPtr()));
    Type pointee = converter.convertType(ptrType.getPointeeType());
    return LLVM::GEPOp::create(b, loc, resultType, pointee, operands[0],
                               ArrayRef<LLVM::GEPArg>{operands[1]})
        .getResult();
  }
  if (isa<IntToPtrOp>(op))
    return LLVM::IntToPtrOp::create(b, loc, resultType, operands[0])
        .getResult();
  if (isa<PtrToIntOp>(op))
    return LLVM::PtrToIntOp::create(b, loc, resultType, operands[0])
        .getResult();
  if (isa<BitcastOp>(op)) {
    if (operands[0].getType() == resultType)
      return operands[0];
    if (isa<LLVM::LLVMPointerType>(resultType))
      return LLVM::AddrSpaceCastOp::create(b, loc, resultType, operands[0])
          .getResult();
    return LLVM::BitcastOp::create(b, loc, resultType, operands[0]).getResult();
  }
  if (isa<PreciseSqrtOp>(op))
    return LLVM::SqrtOp::create(b, loc, operands[0]).getResult();
  if (isa<PreciseDivFOp>(op))
    return LLVM::FDivOp::create(b, loc, operands[0], operands[1]).getResult();
  if (auto cvt = dyn_cast<FpToFpOp>(op))
    return emitFpToFp(hooks, b, loc, cvt, operands[0], resultType);
  if (auto clamp = dyn_cast<ClampFOp>(op)) {
    Value x = operands[0], lo = operands[1], hi = operands[2];
    if (clamp.getPropagateNan() == PropagateNan::all)
      return LLVM::MinimumOp::create(b, loc,
                                     LLVM::MaximumOp::create(b, loc, x, lo), hi)
          .getResult();
    return LLVM::MinNumOp::create(b, loc, LLVM::MaxNumOp::create(b, loc, x, lo),
                                  hi)
        .getResult();
  }
  if (isa<MulhiUIOp>(op)) {
    auto type = cast<IntegerType>(operands[0].getType());
    Type wide = b.getIntegerType(2 * type.getWidth());
    Value x = LLVM::ZExtOp::create(b, loc, wide, operands[0]);
    Value y = LLVM::ZExtOp::create(b, loc, wide, operands[1]);
    Value product = LLVM::MulOp::create(b, loc, x, y);
    Value high = LLVM::LShrOp::create(
        b, loc, product, createConstant(b, loc, wide, type.getWidth()));
    return LLVM::TruncOp::create(b, loc, type, high).getResult();
  }
  if (auto ext = dyn_cast<ExternElementwiseOp>(op)) {
    SmallVector<Type> argTypes;
    for (Value v : operands)
      argTypes.push_back(v.getType());
    declareFunction(b, op, ext.getSymbol(),
                    LLVM::LLVMFunctionType::get(resultType, argTypes));
    return LLVM::CallOp::create(b, loc, TypeRange{resultType}, ext.getSymbol(),
                                operands)
        .getResult();
  }
  return op->emitError("the shared lowering cannot lower this op");
}

/// One element of any elementwise op.
FailureOr<Value> emitScalar(LoweringHooks &hooks, OpBuilder &b, Operation *op,
                            ValueRange operands, Type resultType,
                            const TypeConverter &converter) {
  if (isTesseraElementwise(op))
    return emitTesseraScalar(hooks, b, op, operands, resultType, converter);
  if (isNarrowFloatCast(op))
    return emitNarrowFloatCast(hooks, b, op, operands[0]);
  if (isNarrowFloatSignOp(op))
    return emitNarrowFloatSignOp(b, op, operands[0]);
  // arith and math ops are recreated on scalars; MLIR's patterns (or the
  // target's) lower them next.
  OperationState state(op->getLoc(), op->getName().getStringRef(), operands,
                       TypeRange{resultType}, op->getAttrs());
  return b.create(state)->getResult(0);
}

/// Elementwise ops whose operands and result are laid-out tensors, and
/// tessera's elementwise ops and fp8 casts on scalars.
struct ElementwiseLowering : public ConversionPattern {
  ElementwiseLowering(GPUTypeConverter &converter, LoweringHooks &hooks)
      : ConversionPattern(converter, MatchAnyOpTypeTag(), /*benefit=*/2,
                          &converter.getContext()),
        hooks(hooks) {}

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    if (op->getNumResults() != 1 || op->getNumRegions() != 0)
      return failure();

    bool tessera = isTesseraElementwise(op);
    if (!tessera &&
        !(isa<arith::ArithDialect, math::MathDialect>(op->getDialect()) &&
          OpTrait::hasElementwiseMappableTraits(op)))
      return failure();
    if (isa<arith::ConstantOp>(op))
      return failure();
    // Scalar arith ops are MLIR's to lower, except fp8 casts and sign ops,
    // which it cannot.
    auto resultTensor = dyn_cast<RankedTensorType>(op->getResult(0).getType());
    if (!resultTensor && !tessera && !isNarrowFloatCast(op) &&
        !isNarrowFloatSignOp(op))
      return failure();

    Type resultType = getTypeConverter()->convertType(
        getElementTypeOrSelf(op->getResult(0).getType()));
    if (!resultType)
      return failure();
    int64_t n = getNumRegisters(op->getResult(0).getType());
    SmallVector<SmallVector<Value>> unpacked;
    for (auto [operand, original] : llvm::zip(operands, op->getOperands())) {
      unpacked.push_back(
          unpackRegisters(rewriter, op->getLoc(), operand, original.getType()));
      // A scalar operand (the condition of a select) serves every register.
      if (!isa<RankedTensorType>(original.getType()))
        unpacked.back().assign(n, unpacked.back().front());
      if (int64_t(unpacked.back().size()) != n)
        return op->emitError("operands of an elementwise op hold different "
                             "numbers of registers; their layouts differ");
    }
    SmallVector<Value> results;
    for (int64_t i = 0; i < n; ++i) {
      SmallVector<Value> scalars;
      for (auto &regs : unpacked)
        scalars.push_back(regs[i]);
      FailureOr<Value> r = emitScalar(hooks, rewriter, op, scalars, resultType,
                                      *getTypeConverter());
      if (failed(r))
        return failure();
      results.push_back(*r);
    }
    Type converted =
        getTypeConverter()->convertType(op->getResult(0).getType());
    rewriter.replaceOp(
        op, packRegisters(rewriter, op->getLoc(), converted, results));
    return success();
  }

private:
  LoweringHooks &hooks;
};

/// Constant tensors: a splat constant in every register.
struct ConstantLowering : public GPUPattern<arith::ConstantOp> {
  using GPUPattern::GPUPattern;
  LogicalResult
  matchAndRewrite(arith::ConstantOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = dyn_cast<RankedTensorType>(op.getType());
    if (!type || !gpu::getDistributedEncoding(type))
      return failure();
    auto dense = dyn_cast<DenseElementsAttr>(op.getValue());
    if (!dense || !dense.isSplat())
      return op.emitError("only splat constants of laid-out tensors can be "
                          "lowered");
    Type element = getTypeConverter()->convertType(type.getElementType());
    Value scalar = LLVM::ConstantOp::create(rewriter, op.getLoc(), element,
                                            dense.getSplatValue<Attribute>());
    SmallVector<Value> regs(getNumRegisters(type), scalar);
    rewriter.replaceOp(op, packRegisters(rewriter, op.getLoc(),
                                         getTypeConverter()->convertType(type),
                                         regs));
    return success();
  }
};

} // namespace

void lowering::populateElementwisePatterns(GPUTypeConverter &converter,
                                           RewritePatternSet &patterns,
                                           LoweringContext &ctx) {
  patterns.add<ElementwiseLowering>(converter, ctx.hooks);
  patterns.add<ConstantLowering>(converter, ctx, /*benefit=*/2);
}
