//===- LowerElementwise.cpp - Elementwise ops on the CPU ------------------===//
//
// Every elementwise op (arith, math and tessera's own) on tensors becomes one
// linalg.generic whose body is the op on scalars; LLVM vectorizes the loops
// it turns into. Ops with side effects (impure extern calls) become loop
// nests instead, which keep their order. Tessera's scalar ops lower to arith,
// math and calls: addptr to address arithmetic, extern_elementwise to libm
// or inline code (InlineMath.cpp), fp_to_fp with its rounding mode, clampf,
// mulhiui.
//
//===----------------------------------------------------------------------===//
#include "Lowering.h"
#include "Runtime.h"

#include "tessera/Backend/MathSymbols.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "llvm/ADT/StringSwitch.h"

using namespace mlir;
using namespace mlir::tessera;
using namespace mlir::tessera::cpu;

//===----------------------------------------------------------------------===//
// libm symbols
//===----------------------------------------------------------------------===//

namespace {
/// A math function the CPU backend takes from libm: its neutral name and
/// number of operands. The double version has the neutral name, the float
/// version an `f` suffix (C99).
struct LibmFunction {
  StringRef name;
  unsigned arity;
};
} // namespace

static constexpr LibmFunction kLibmFunctions[] = {
    {"acos", 1},   {"acosh", 1},     {"asin", 1},      {"asinh", 1},
    {"atan", 1},   {"atanh", 1},     {"cbrt", 1},      {"ceil", 1},
    {"cos", 1},    {"cosh", 1},      {"erf", 1},       {"erfc", 1},
    {"exp", 1},    {"exp10", 1},     {"exp2", 1},      {"expm1", 1},
    {"fabs", 1},   {"floor", 1},     {"j0", 1},        {"j1", 1},
    {"lgamma", 1}, {"log", 1},       {"log10", 1},     {"log1p", 1},
    {"log2", 1},   {"logb", 1},      {"nearbyint", 1}, {"rint", 1},
    {"round", 1},  {"sin", 1},       {"sinh", 1},      {"sqrt", 1},
    {"tan", 1},    {"tanh", 1},      {"tgamma", 1},    {"trunc", 1},
    {"y0", 1},     {"y1", 1},        {"atan2", 2},     {"copysign", 2},
    {"fdim", 2},   {"fmax", 2},      {"fmin", 2},      {"fmod", 2},
    {"hypot", 2},  {"nextafter", 2}, {"pow", 2},       {"remainder", 2},
    {"fma", 3},
};

std::string cpu::resolveLibmSymbol(StringRef symbol, Type type,
                                   unsigned numOperands, Type &computeType) {
  auto floatType = dyn_cast<FloatType>(type);
  if (!floatType)
    return "";
  // Neutral spellings: the frontend's `__tessera_<name>_<operand types>`
  // (`__tessera_asin_fp32`), and `asin`, `asinf`, `asin_f32`. The element
  // type, not the spelling, picks the variant.
  StringRef name = getMathBaseName(symbol);
  // CUDA's approximate `fast_expf` and friends: the precise version is a
  // valid result.
  name.consume_front("fast_");
  auto find = [&](StringRef candidate) -> const LibmFunction * {
    for (const LibmFunction &fn : kLibmFunctions)
      if (fn.name == candidate && fn.arity == numOperands)
        return &fn;
    return nullptr;
  };
  const LibmFunction *fn = find(name);
  if (!fn && name.ends_with("f"))
    fn = find(name.drop_back());
  if (!fn)
    return "";
  if (floatType.isF64()) {
    computeType = floatType;
    return fn->name.str();
  }
  computeType = Float32Type::get(type.getContext());
  return (fn->name + "f").str();
}

LogicalResult cpu::emitNoMathFunctionError(ExternElementwiseOp op,
                                           Type elementType) {
  InFlightDiagnostic diag = op.emitError()
                            << "the CPU backend has no math function '"
                            << op.getSymbol() << "' for " << op.getSrcs().size()
                            << " operand(s) of type " << elementType;
  if (!op.getLibname().empty())
    diag << " (library '" << op.getLibname() << "')";
  diag << "; it calls libm functions (acos, asin, atan2, erf, exp, pow, ...) "
          "by their C names, optionally with an 'f' suffix or a '__tessera_' "
          "prefix";
  return diag;
}

//===----------------------------------------------------------------------===//
// Scalar lowering of tessera's elementwise ops
//===----------------------------------------------------------------------===//

/// Float conversion with an explicit rounding mode (tessera.fp_to_fp).
static Value emitFpToFp(OpBuilder &b, Location loc, FpToFpOp op, Value x,
                        FloatType dst) {
  auto src = cast<FloatType>(x.getType());
  bool towardZero = op.getRounding() == RoundingMode::rtz;
  if (src == dst)
    return x;
  if (getFp8Format(dst) != Fp8Format::None) {
    if (getFp8Format(src) != Fp8Format::None)
      x = arith::ExtFOp::create(b, loc, b.getF32Type(), x);
    return emitToFp8(b, loc, op, x, dst, towardZero);
  }
  // Exact conversions: every value of the source is one of the destination.
  bool exact = dst.getWidth() > src.getWidth() &&
               dst.getFPMantissaWidth() >= src.getFPMantissaWidth();
  if (exact)
    return arith::ExtFOp::create(b, loc, dst, x);
  // Between formats of one width (f16 <-> bf16), go through f32, which holds
  // both exactly.
  if (dst.getWidth() >= src.getWidth()) {
    x = arith::ExtFOp::create(b, loc, b.getF32Type(), x);
    src = b.getF32Type();
  }
  if (!towardZero)
    return arith::TruncFOp::create(b, loc, dst, x);
  return emitDirectedTruncF(b, loc, x, dst, RoundDirection::TowardZero);
}

/// A libm call for tessera.extern_elementwise.
static FailureOr<Value> emitExternCall(OpBuilder &b, Location loc,
                                       ExternElementwiseOp op,
                                       ValueRange operands, Type resultType) {
  if (std::optional<Value> inlined =
          emitInlineMath(b, loc, op.getSymbol(), operands, resultType))
    return *inlined;
  Type computeType;
  std::string name = resolveLibmSymbol(op.getSymbol(), resultType,
                                       operands.size(), computeType);
  if (name.empty())
    return emitNoMathFunctionError(op, resultType);
  SmallVector<Value> args;
  for (Value operand : operands) {
    if (operand.getType() != computeType) {
      if (!isa<FloatType>(operand.getType())) {
        return op.emitError()
               << "math function '" << op.getSymbol()
               << "' takes float operands, got " << operand.getType();
      }
      operand = arith::ExtFOp::create(b, loc, computeType, operand);
    }
    args.push_back(operand);
  }
  SmallVector<Type> argTypes(args.size(), computeType);
  declareFunction(b, op, name, b.getFunctionType(argTypes, computeType));
  Value result =
      func::CallOp::create(b, loc, name, TypeRange{computeType}, args)
          .getResult(0);
  if (result.getType() != resultType)
    result = arith::TruncFOp::create(b, loc, resultType, result);
  return result;
}

FailureOr<SmallVector<Value>>
cpu::emitScalarElementwise(OpBuilder &b, Operation *op, ValueRange operands,
                           TypeRange resultTypes) {
  Location loc = op->getLoc();
  auto one = [](Value v) -> FailureOr<SmallVector<Value>> {
    return SmallVector<Value>{v};
  };
  if (!isa<TesseraDialect>(op->getDialect())) {
    OperationState state(loc, op->getName().getStringRef(), operands,
                         resultTypes, op->getAttrs());
    return SmallVector<Value>(b.create(state)->getResults());
  }
  if (auto addptr = dyn_cast<AddPtrOp>(op)) {
    auto ptrType = cast<PointerType>(getElementTypeOrSelf(addptr.getPtr()));
    return one(offsetAddress(b, loc, operands[0], operands[1],
                             getElementByteSize(ptrType.getPointeeType())));
  }
  if (isa<IntToPtrOp, PtrToIntOp>(op))
    return one(operands[0]);
  if (isa<BitcastOp>(op)) {
    if (operands[0].getType() == resultTypes[0])
      return one(operands[0]);
    return one(arith::BitcastOp::create(b, loc, resultTypes[0], operands[0]));
  }
  if (isa<PreciseSqrtOp>(op))
    return one(math::SqrtOp::create(b, loc, operands[0]));
  if (isa<PreciseDivFOp>(op))
    return one(arith::DivFOp::create(b, loc, operands[0], operands[1]));
  if (auto cvt = dyn_cast<FpToFpOp>(op))
    return one(
        emitFpToFp(b, loc, cvt, operands[0], cast<FloatType>(resultTypes[0])));
  if (auto clamp = dyn_cast<ClampFOp>(op)) {
    Value x = operands[0], lo = operands[1], hi = operands[2];
    if (clamp.getPropagateNan() == PropagateNan::all)
      return one(arith::MinimumFOp::create(
          b, loc, arith::MaximumFOp::create(b, loc, x, lo), hi));
    return one(arith::MinNumFOp::create(
        b, loc, arith::MaxNumFOp::create(b, loc, x, lo), hi));
  }
  if (isa<MulhiUIOp>(op)) {
    auto type = cast<IntegerType>(operands[0].getType());
    Type wide = b.getIntegerType(2 * type.getWidth());
    Value x = arith::ExtUIOp::create(b, loc, wide, operands[0]);
    Value y = arith::ExtUIOp::create(b, loc, wide, operands[1]);
    Value product = arith::MulIOp::create(b, loc, x, y);
    Value shift = arith::ConstantOp::create(
        b, loc, b.getIntegerAttr(wide, type.getWidth()));
    Value high = arith::ShRUIOp::create(b, loc, product, shift);
    return one(arith::TruncIOp::create(b, loc, type, high));
  }
  if (auto ext = dyn_cast<ExternElementwiseOp>(op)) {
    FailureOr<Value> result =
        emitExternCall(b, loc, ext, operands, resultTypes[0]);
    if (failed(result))
      return failure();
    return one(*result);
  }
  if (isa<InlineAsmElementwiseOp>(op))
    return op->emitError("tessera.inline_asm_elementwise is not supported on "
                         "the CPU backend: inline assembly is written for a "
                         "GPU instruction set");
  return op->emitError("the CPU backend cannot lower this elementwise op");
}

//===----------------------------------------------------------------------===//
// Patterns
//===----------------------------------------------------------------------===//

namespace {} // namespace

bool cpu::isElementwise(Operation *op) {
  // Not op->hasTrait<OpTrait::Elementwise>(): a trait's TypeID comes from a
  // compiler-specific type name, and this library and libMLIR (built by
  // another compiler) do not agree on it. MLIR's ops are asked through
  // libMLIR, tessera's are listed.
  if (isa<TesseraDialect>(op->getDialect()))
    return isa<AddPtrOp, IntToPtrOp, PtrToIntOp, BitcastOp, ExternElementwiseOp,
               InlineAsmElementwiseOp, PreciseSqrtOp, PreciseDivFOp, FpToFpOp,
               ClampFOp, MulhiUIOp>(op);
  return OpTrait::hasElementwiseMappableTraits(op);
}

namespace {

/// True for elementwise ops on tensors this file lowers to loops.
bool isElementwiseOnTensors(Operation *op) {
  if (!isElementwise(op))
    return false;
  if (!isa<arith::ArithDialect, math::MathDialect, TesseraDialect>(
          op->getDialect()))
    return false;
  auto isTensor = [](Type t) { return isa<RankedTensorType>(t); };
  return llvm::any_of(op->getResultTypes(), isTensor) ||
         llvm::any_of(op->getOperandTypes(), isTensor);
}

/// An elementwise op on tensors -> linalg.generic (or a loop nest when it
/// has side effects) applying the op to scalars.
struct ElementwiseToLoops : public ConversionPattern {
  ElementwiseToLoops(const TypeConverter &converter, MLIRContext *ctx)
      : ConversionPattern(converter, MatchAnyOpTypeTag(), /*benefit=*/1, ctx) {}

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isElementwiseOnTensors(op))
      return failure();
    Location loc = op->getLoc();
    SmallVector<RankedTensorType> resultTypes;
    for (Type type : op->getResultTypes()) {
      auto converted = getTypeConverter()->convertType<RankedTensorType>(type);
      if (!converted)
        return rewriter.notifyMatchFailure(op, "result is not a tensor");
      resultTypes.push_back(converted);
    }
    SmallVector<Type> scalarTypes;
    for (RankedTensorType type : resultTypes)
      scalarTypes.push_back(type.getElementType());
    ArrayRef<int64_t> shape = resultTypes.front().getShape();

    if (!isMemoryEffectFree(op))
      return lowerToLoopNest(op, operands, resultTypes, scalarTypes, shape,
                             rewriter);

    // Tensor operands are inputs of the generic, scalars are captured. An
    // operand of the result's type that nothing else reads is the
    // destination instead (read through the output argument), so that
    // bufferization may update it in place. One read again later could not
    // be updated in place anyway: as a destination it only made the
    // bufferization analysis longer, quadratically so along a chain.
    SmallVector<Value> inputs, outputs;
    SmallVector<int> inputIndex(operands.size(), -1);
    int destOperand = -1;
    if (resultTypes.size() == 1)
      for (auto [i, operand] : llvm::enumerate(operands))
        if (operand.getType() == resultTypes[0] &&
            op->getOperand(i).hasOneUse()) {
          destOperand = i;
          break;
        }
    for (auto [i, operand] : llvm::enumerate(operands)) {
      if (!isa<RankedTensorType>(operand.getType()) || (int)i == destOperand)
        continue;
      inputIndex[i] = inputs.size();
      inputs.push_back(operand);
    }
    if (destOperand >= 0) {
      outputs.push_back(operands[destOperand]);
    } else {
      for (RankedTensorType type : resultTypes)
        outputs.push_back(createEmpty(rewriter, loc, type));
    }
    unsigned rank = shape.size();
    SmallVector<AffineMap> maps(
        inputs.size() + outputs.size(),
        AffineMap::getMultiDimIdentityMap(rank, rewriter.getContext()));
    SmallVector<utils::IteratorType> iterators(rank,
                                               utils::IteratorType::parallel);
    bool failedBody = false;
    auto generic = linalg::GenericOp::create(
        rewriter, loc,
        SmallVector<Type>(resultTypes.begin(), resultTypes.end()), inputs,
        outputs, maps, iterators,
        [&](OpBuilder &b, Location nestedLoc, ValueRange args) {
          SmallVector<Value> scalars;
          for (auto [i, operand] : llvm::enumerate(operands)) {
            if ((int)i == destOperand)
              scalars.push_back(args[inputs.size()]);
            else if (inputIndex[i] >= 0)
              scalars.push_back(args[inputIndex[i]]);
            else
              scalars.push_back(operand);
          }
          FailureOr<SmallVector<Value>> results =
              emitScalarElementwise(b, op, scalars, scalarTypes);
          if (failed(results)) {
            failedBody = true;
            SmallVector<Value> poison;
            for (Type t : scalarTypes)
              poison.push_back(LLVM::PoisonOp::create(b, nestedLoc, t));
            linalg::YieldOp::create(b, nestedLoc, poison);
            return;
          }
          linalg::YieldOp::create(b, nestedLoc, *results);
        });
    if (failedBody) {
      rewriter.eraseOp(generic);
      return failure();
    }
    rewriter.replaceOp(op, generic.getResults());
    return success();
  }

  LogicalResult lowerToLoopNest(Operation *op, ArrayRef<Value> operands,
                                ArrayRef<RankedTensorType> resultTypes,
                                ArrayRef<Type> scalarTypes,
                                ArrayRef<int64_t> shape,
                                ConversionPatternRewriter &rewriter) const {
    Location loc = op->getLoc();
    SmallVector<Value> inits;
    for (RankedTensorType type : resultTypes)
      inits.push_back(createEmpty(rewriter, loc, type));
    bool failedBody = false;
    SmallVector<Value> results = buildLoopNest(
        rewriter, loc, shape, inits,
        [&](OpBuilder &b, Location nestedLoc, ValueRange ivs,
            ValueRange args) -> SmallVector<Value> {
          SmallVector<Value> scalars;
          for (Value operand : operands) {
            if (isa<RankedTensorType>(operand.getType()))
              operand = tensor::ExtractOp::create(b, nestedLoc, operand, ivs);
            scalars.push_back(operand);
          }
          FailureOr<SmallVector<Value>> values =
              emitScalarElementwise(b, op, scalars, scalarTypes);
          if (failed(values)) {
            failedBody = true;
            return SmallVector<Value>(args);
          }
          SmallVector<Value> updated;
          for (auto [value, tensor] : llvm::zip(*values, args))
            updated.push_back(
                tensor::InsertOp::create(b, nestedLoc, value, tensor, ivs));
          return updated;
        });
    if (failedBody)
      return failure();
    rewriter.replaceOp(op, results);
    return success();
  }
};

/// A tessera elementwise op on scalars -> its scalar lowering; an arith op
/// on scalars whose types change (a select of two pointers, which are i64
/// addresses here) -> the same op on the converted values.
struct ScalarElementwise : public ConversionPattern {
  ScalarElementwise(const TypeConverter &converter, MLIRContext *ctx)
      : ConversionPattern(converter, MatchAnyOpTypeTag(), /*benefit=*/1, ctx) {}

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    bool retyped = isa<arith::ArithDialect>(op->getDialect()) &&
                   !getTypeConverter()->isLegal(op);
    if ((!isa<TesseraDialect>(op->getDialect()) && !retyped) ||
        !isElementwise(op) || isElementwiseOnTensors(op))
      return failure();
    SmallVector<Type> resultTypes;
    if (failed(getTypeConverter()->convertTypes(op->getResultTypes(),
                                                resultTypes)))
      return failure();
    FailureOr<SmallVector<Value>> results =
        emitScalarElementwise(rewriter, op, operands, resultTypes);
    if (failed(results))
      return failure();
    rewriter.replaceOp(op, *results);
    return success();
  }
};

/// Tensor constants lose their layout; splats become fills so that no
/// global is materialized for them.
struct ConstantOpLowering : public OpConversionPattern<arith::ConstantOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(arith::ConstantOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = dyn_cast<RankedTensorType>(op.getType());
    auto attr = dyn_cast<DenseElementsAttr>(op.getValue());
    if (!type || !attr)
      return failure();
    auto newType = getTypeConverter()->convertType<RankedTensorType>(type);
    Location loc = op.getLoc();
    if (attr.isSplat()) {
      Value scalar = arith::ConstantOp::create(
          rewriter, loc, cast<TypedAttr>(attr.getSplatValue<Attribute>()));
      Value empty = createEmpty(rewriter, loc, newType);
      rewriter.replaceOpWithNewOp<linalg::FillOp>(op, scalar, empty);
      return success();
    }
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(op, newType,
                                                   attr.reshape(newType));
    return success();
  }
};

/// A poison tensor (canonicalization leaves them) is an uninitialized one.
struct PoisonOpLowering : public OpConversionPattern<ub::PoisonOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ub::PoisonOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = getTypeConverter()->convertType<RankedTensorType>(op.getType());
    if (!type)
      return failure();
    rewriter.replaceOp(op, createEmpty(rewriter, op.getLoc(), type));
    return success();
  }
};

struct SplatOpLowering : public OpConversionPattern<SplatOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(SplatOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = getTypeConverter()->convertType<RankedTensorType>(op.getType());
    Value empty = createEmpty(rewriter, op.getLoc(), type);
    rewriter.replaceOpWithNewOp<linalg::FillOp>(op, adaptor.getSrc(), empty);
    return success();
  }
};

struct MakeRangeOpLowering : public OpConversionPattern<MakeRangeOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(MakeRangeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = getTypeConverter()->convertType<RankedTensorType>(op.getType());
    Location loc = op.getLoc();
    Value empty = createEmpty(rewriter, loc, type);
    int32_t start = op.getStart();
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{type}, ValueRange{}, ValueRange{empty},
        SmallVector<AffineMap>{
            AffineMap::getMultiDimIdentityMap(1, rewriter.getContext())},
        SmallVector<utils::IteratorType>{utils::IteratorType::parallel},
        [&](OpBuilder &b, Location nestedLoc, ValueRange) {
          Value index = linalg::IndexOp::create(b, nestedLoc, 0);
          Value i =
              arith::IndexCastOp::create(b, nestedLoc, b.getI32Type(), index);
          if (start != 0)
            i = arith::AddIOp::create(
                b, nestedLoc, i,
                arith::ConstantOp::create(b, nestedLoc,
                                          b.getI32IntegerAttr(start)));
          linalg::YieldOp::create(b, nestedLoc, i);
        });
    rewriter.replaceOp(op, generic.getResults());
    return success();
  }
};

/// Size-1 dimensions repeat: the source is indexed with 0 along them.
struct BroadcastOpLowering : public OpConversionPattern<BroadcastOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(BroadcastOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = getTypeConverter()->convertType<RankedTensorType>(op.getType());
    auto srcType = cast<RankedTensorType>(adaptor.getSrc().getType());
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    unsigned rank = type.getRank();
    SmallVector<AffineExpr> srcExprs;
    for (unsigned d = 0; d < rank; ++d)
      srcExprs.push_back(srcType.getDimSize(d) == 1 && type.getDimSize(d) != 1
                             ? getAffineConstantExpr(0, ctx)
                             : getAffineDimExpr(d, ctx));
    SmallVector<AffineMap> maps{AffineMap::get(rank, 0, srcExprs, ctx),
                                AffineMap::getMultiDimIdentityMap(rank, ctx)};
    Value empty = createEmpty(rewriter, loc, type);
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{type}, ValueRange{adaptor.getSrc()},
        ValueRange{empty}, maps,
        SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
        [&](OpBuilder &b, Location nestedLoc, ValueRange args) {
          linalg::YieldOp::create(b, nestedLoc, args[0]);
        });
    rewriter.replaceOp(op, generic.getResults());
    return success();
  }
};

} // namespace

void cpu::populateElementwisePatterns(const CpuTypeConverter &converter,
                                      RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<ElementwiseToLoops, ScalarElementwise>(converter, ctx);
  patterns.add<ConstantOpLowering, PoisonOpLowering, SplatOpLowering,
               MakeRangeOpLowering, BroadcastOpLowering>(converter, ctx);
}
