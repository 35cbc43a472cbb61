//===- InlineMath.cpp - Math-library functions computed inline ------------===//
//
// Triton programs call CUDA's libdevice names (`libdevice.rsqrt`,
// `isnan`, `finitef`, `div_rn`, `float2int_rz`, `fast_expf`, ...). NVIDIA's
// libdevice defines them; libm and AMD's ocml lack many, so the CPU and
// AMDGPU plugins compute the ones that can be computed exactly
// (round-to-nearest arithmetic, predicates, truncating or nearest-even
// conversions, fast approximations as their precise versions, `pow` with
// an integer exponent) from arith and math ops. Directed rounding modes
// (`_rd`, `_ru`, `_rz`) of fp32 division, reciprocal, square root and
// multiplication are computed in fp64, whose result lies on the same side
// of every fp32 value as the exact one, then rounded in that direction;
// fp64 ones, and fp32 addition and fma (whose fp64 result may round across
// an fp32 value), stay errors.
//
//===----------------------------------------------------------------------===//
#include "tessera/Backend/InlineMath.h"
#include "tessera/Backend/MathSymbols.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/StringSwitch.h"

using namespace mlir;
using namespace mlir::tessera;

namespace {
enum class InlineMath {
  None,
  Rsqrt,
  Rcp,
  Sqrt,
  Add,
  Sub,
  Mul,
  Div,
  Fma,
  IsNan,
  IsInf,
  IsFinite,
  SignBit,
  Saturate,
  ToIntNearest,
  ToIntTruncate,
  IntToFloat,
  PowInt,
};

/// How an arithmetic function rounds: `_rn` or no suffix, `_rz`, `_rd`, `_ru`.
enum class Rounding { Nearest, TowardZero, Down, Up };

/// `element` in the shape of `like` (a tensor keeps its shape and encoding).
Type withElement(Type like, Type element) {
  if (auto tensor = dyn_cast<RankedTensorType>(like))
    return tensor.clone(element);
  return element;
}

/// A constant of `type` (a scalar or a splat tensor) holding `value`.
Value splat(OpBuilder &b, Location loc, Type type, TypedAttr value) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return arith::ConstantOp::create(b, loc,
                                     DenseElementsAttr::get(tensor, value));
  return arith::ConstantOp::create(b, loc, value);
}
} // namespace

/// The rounding suffix of `name`, removed from `base`.
static Rounding takeRounding(StringRef &base) {
  if (base.consume_back("_rn"))
    return Rounding::Nearest;
  if (base.consume_back("_rz"))
    return Rounding::TowardZero;
  if (base.consume_back("_rd"))
    return Rounding::Down;
  if (base.consume_back("_ru"))
    return Rounding::Up;
  return Rounding::Nearest;
}

/// The computation a (base) name stands for, and the operand count it takes.
static std::pair<InlineMath, unsigned> classify(StringRef name) {
  StringRef base = name;
  Rounding rounding = takeRounding(base);
  bool suffixed = base.size() != name.size();
  bool nearest = suffixed && rounding == Rounding::Nearest;
  bool truncate = rounding == Rounding::TowardZero;
  auto op = llvm::StringSwitch<std::pair<InlineMath, unsigned>>(base)
                .Case("rsqrt", {InlineMath::Rsqrt, 1})
                .Case("rcp", {InlineMath::Rcp, 1})
                .Case("sqrt", {InlineMath::Sqrt, 1})
                .Case("add", {InlineMath::Add, 2})
                .Case("sub", {InlineMath::Sub, 2})
                .Case("mul", {InlineMath::Mul, 2})
                .Case("div", {InlineMath::Div, 2})
                .Case("fma", {InlineMath::Fma, 3})
                .Default({InlineMath::None, 0});
  // Plain `sqrt`/`fma` are libm's; only their suffixed spellings are ours
  // (plan() checks which directed ones are computable).
  if (op.first != InlineMath::None &&
      (suffixed || op.first == InlineMath::Rsqrt))
    return op;
  // pow with an integer exponent (libdevice's powi, powif and the
  // (fp32, i32) overload of pow); plan() checks the exponent's type.
  if (llvm::is_contained({"pow", "powi", "powif"}, name))
    return {InlineMath::PowInt, 2};
  auto predicate =
      llvm::StringSwitch<InlineMath>(name)
          .Cases({"isnan", "isnanf", "isnand"}, InlineMath::IsNan)
          .Cases({"isinf", "isinff", "isinfd"}, InlineMath::IsInf)
          .Cases({"finitef", "isfinited", "isfinite"}, InlineMath::IsFinite)
          .Cases({"signbit", "signbitf", "signbitd"}, InlineMath::SignBit)
          .Case("saturatef", InlineMath::Saturate)
          .Default(InlineMath::None);
  if (predicate != InlineMath::None)
    return {predicate, 1};
  // float2int_rn, double2ll_rz, float2uint_rz, ...: to an integer.
  if (name.starts_with("float2") || name.starts_with("double2")) {
    StringRef to = name.substr(name.find('2') + 1);
    to.consume_back("_rn") || to.consume_back("_rz");
    if (llvm::is_contained({"int", "uint", "ll", "ull"}, to)) {
      if (nearest)
        return {InlineMath::ToIntNearest, 1};
      if (truncate)
        return {InlineMath::ToIntTruncate, 1};
    }
  }
  // int2float_rn, ll2double_rn, uint2float_rn, ...
  if (nearest && (base.ends_with("2float") || base.ends_with("2double")) &&
      llvm::is_contained({"int", "uint", "ll", "ull"},
                         base.substr(0, base.find('2'))))
    return {InlineMath::IntToFloat, 1};
  return {InlineMath::None, 0};
}

/// Whether `name` converts from or to an unsigned integer.
static bool isUnsignedConversion(StringRef name) {
  return name.contains("2uint") || name.contains("2ull") ||
         name.starts_with("uint2") || name.starts_with("ull2");
}

/// The computation for `symbol` on these types, or None: the name is one
/// of ours, the operand count matches and the types are the ones it takes.
/// `rounding` is the direction of an arithmetic function.
static InlineMath plan(StringRef symbol, TypeRange operands, Type result,
                       StringRef &name, Rounding &rounding) {
  name = getMathBaseName(symbol);
  // An approximate division may be computed exactly (the other `fast_`
  // functions go to libm's precise versions).
  if (name == "fast_dividef")
    name = "div_rn";
  auto [op, arity] = classify(name);
  if (op == InlineMath::None || arity != operands.size())
    return InlineMath::None;
  StringRef base = name;
  rounding = takeRounding(base);
  bool floatIn = isa<FloatType>(operands[0]);
  switch (op) {
  case InlineMath::IsNan:
  case InlineMath::IsInf:
  case InlineMath::IsFinite:
  case InlineMath::SignBit:
  case InlineMath::ToIntNearest:
  case InlineMath::ToIntTruncate:
    rounding = Rounding::Nearest;
    return floatIn && isa<IntegerType>(result) ? op : InlineMath::None;
  case InlineMath::IntToFloat:
    rounding = Rounding::Nearest;
    return isa<IntegerType>(operands[0]) && isa<FloatType>(result)
               ? op
               : InlineMath::None;
  case InlineMath::PowInt:
    rounding = Rounding::Nearest;
    return floatIn && operands[0] == result && isa<IntegerType>(operands[1])
               ? op
               : InlineMath::None;
  default:
    // Float in, the same float out.
    if (!isa<FloatType>(result) ||
        !llvm::all_of(operands, [&](Type t) { return t == result; }))
      return InlineMath::None;
    if (rounding == Rounding::Nearest)
      return op;
    // Directed: where fp64 holds a result on the right side of every fp32
    // value (see the file header).
    bool exactInF64 = op == InlineMath::Div || op == InlineMath::Rcp ||
                      op == InlineMath::Sqrt || op == InlineMath::Mul;
    return exactInF64 && result.isF32() ? op : InlineMath::None;
  }
}

bool tessera::hasInlineMath(StringRef symbol, TypeRange operands, Type result) {
  StringRef name;
  Rounding rounding;
  return plan(symbol, operands, result, name, rounding) != InlineMath::None;
}

Value tessera::emitDirectedTruncF(OpBuilder &b, Location loc, Value x, Type dst,
                                  RoundDirection direction) {
  Type src = x.getType();
  if (src == dst)
    return x;
  Value rounded = arith::TruncFOp::create(b, loc, dst, x);
  // Formats are sign-magnitude: a step is the bit pattern plus or minus
  // one (infinity steps to the largest finite value, zero to the smallest
  // subnormal of the wanted sign). Each value is made in its own statement:
  // the op order is the IR's.
  Value back = arith::ExtFOp::create(b, loc, src, rounded);
  unsigned width = cast<FloatType>(getElementTypeOrSelf(dst)).getWidth();
  Type intType = withElement(dst, b.getIntegerType(width));
  auto intConstant = [&](const APInt &v) -> Value {
    return splat(b, loc, intType, b.getIntegerAttr(b.getIntegerType(width), v));
  };
  Value wrong;
  if (direction == RoundDirection::TowardZero) {
    Value absBack = math::AbsFOp::create(b, loc, back);
    Value absX = math::AbsFOp::create(b, loc, x);
    wrong =
        arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT, absBack, absX);
  } else {
    wrong = arith::CmpFOp::create(b, loc,
                                  direction == RoundDirection::Down
                                      ? arith::CmpFPredicate::OGT
                                      : arith::CmpFPredicate::OLT,
                                  back, x);
  }
  Value bits = arith::BitcastOp::create(b, loc, intType, rounded);
  Value one = intConstant(APInt(width, 1));
  Value stepped;
  if (direction == RoundDirection::TowardZero) {
    stepped = arith::SubIOp::create(b, loc, bits, one);
  } else {
    Value minus = arith::SubIOp::create(b, loc, bits, one);
    Value plus = arith::AddIOp::create(b, loc, bits, one);
    Value zero = intConstant(APInt(width, 0));
    Value negative =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, bits, zero);
    if (direction == RoundDirection::Up) {
      stepped = arith::SelectOp::create(b, loc, negative, minus, plus);
    } else {
      Value positiveZero =
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, bits, zero);
      Value smallestNegative =
          intConstant(APInt::getSignMask(width) | APInt(width, 1));
      Value fromZero = arith::SelectOp::create(b, loc, positiveZero,
                                               smallestNegative, minus);
      stepped = arith::SelectOp::create(b, loc, negative, plus, fromZero);
    }
  }
  Value steppedValue = arith::BitcastOp::create(b, loc, dst, stepped);
  return arith::SelectOp::create(b, loc, wrong, steppedValue, rounded);
}

std::optional<Value> tessera::emitInlineMath(OpBuilder &b, Location loc,
                                             StringRef symbol,
                                             ValueRange operands,
                                             Type resultType) {
  StringRef name;
  Rounding rounding;
  SmallVector<Type> elements;
  for (Value operand : operands)
    elements.push_back(getElementTypeOrSelf(operand.getType()));
  InlineMath op =
      plan(symbol, elements, getElementTypeOrSelf(resultType), name, rounding);
  if (op == InlineMath::None)
    return std::nullopt;
  Type f64 = withElement(resultType, b.getF64Type());
  if (rounding != Rounding::Nearest) {
    // fp32 in fp64, then rounded in the function's direction.
    SmallVector<Value> wide;
    for (Value operand : operands)
      wide.push_back(arith::ExtFOp::create(b, loc, f64, operand));
    std::optional<Value> exact =
        emitInlineMath(b, loc, (name.drop_back(3) + "_rn").str(), wide, f64);
    if (!exact)
      return std::nullopt;
    RoundDirection direction =
        rounding == Rounding::TowardZero ? RoundDirection::TowardZero
        : rounding == Rounding::Down     ? RoundDirection::Down
                                         : RoundDirection::Up;
    return emitDirectedTruncF(b, loc, *exact, resultType, direction);
  }
  Value x = operands[0];
  auto toResultInt = [&](Value flag) -> Value {
    if (resultType == flag.getType())
      return flag;
    return arith::ExtUIOp::create(b, loc, resultType, flag);
  };
  auto floatConstant = [&](Type type, double value) -> Value {
    return splat(b, loc, type,
                 b.getFloatAttr(getElementTypeOrSelf(type), value));
  };
  switch (op) {
  case InlineMath::None:
    break;
  case InlineMath::IsNan:
    return toResultInt(
        arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, x, x));
  case InlineMath::IsInf:
  case InlineMath::IsFinite: {
    // |x| == inf, |x| < inf (false for NaN), in ops every path lowers.
    auto type = cast<FloatType>(getElementTypeOrSelf(x.getType()));
    Value inf =
        splat(b, loc, x.getType(),
              b.getFloatAttr(type, APFloat::getInf(type.getFloatSemantics())));
    Value magnitude = math::AbsFOp::create(b, loc, x);
    auto pred = op == InlineMath::IsInf ? arith::CmpFPredicate::OEQ
                                        : arith::CmpFPredicate::OLT;
    return toResultInt(arith::CmpFOp::create(b, loc, pred, magnitude, inf));
  }
  case InlineMath::SignBit: {
    Type bitsElement = b.getIntegerType(
        cast<FloatType>(getElementTypeOrSelf(x.getType())).getWidth());
    Value bits = arith::BitcastOp::create(
        b, loc, withElement(x.getType(), bitsElement), x);
    Value zero =
        splat(b, loc, bits.getType(), b.getIntegerAttr(bitsElement, 0));
    return toResultInt(
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, bits, zero));
  }
  case InlineMath::ToIntNearest:
  case InlineMath::ToIntTruncate:
    if (op == InlineMath::ToIntNearest)
      x = math::RoundEvenOp::create(b, loc, x);
    if (isUnsignedConversion(name))
      return arith::FPToUIOp::create(b, loc, resultType, x).getResult();
    return arith::FPToSIOp::create(b, loc, resultType, x).getResult();
  case InlineMath::IntToFloat:
    if (isUnsignedConversion(name))
      return arith::UIToFPOp::create(b, loc, resultType, x).getResult();
    return arith::SIToFPOp::create(b, loc, resultType, x).getResult();
  case InlineMath::Rsqrt:
    return math::RsqrtOp::create(b, loc, x).getResult();
  case InlineMath::Rcp:
    return arith::DivFOp::create(b, loc, floatConstant(resultType, 1.0), x)
        .getResult();
  case InlineMath::Sqrt:
    return math::SqrtOp::create(b, loc, x).getResult();
  case InlineMath::Add:
    return arith::AddFOp::create(b, loc, x, operands[1]).getResult();
  case InlineMath::Sub:
    return arith::SubFOp::create(b, loc, x, operands[1]).getResult();
  case InlineMath::Mul:
    return arith::MulFOp::create(b, loc, x, operands[1]).getResult();
  case InlineMath::Div:
    return arith::DivFOp::create(b, loc, x, operands[1]).getResult();
  case InlineMath::Fma:
    return math::FmaOp::create(b, loc, x, operands[1], operands[2]).getResult();
  case InlineMath::PowInt: {
    // In fp64, which holds every int32 exponent exactly: libm's pow, then
    // one rounding to the result's type.
    Value base = x.getType() == f64 ? x : arith::ExtFOp::create(b, loc, f64, x);
    Value exponent = arith::SIToFPOp::create(b, loc, f64, operands[1]);
    Value power = math::PowFOp::create(b, loc, base, exponent);
    if (resultType == f64)
      return power;
    return arith::TruncFOp::create(b, loc, resultType, power).getResult();
  }
  case InlineMath::Saturate: {
    Value zero = floatConstant(resultType, 0.0);
    // CUDA's saturate maps NaN to 0.
    Value clamped = arith::MinNumFOp::create(
        b, loc, arith::MaxNumFOp::create(b, loc, x, zero),
        floatConstant(resultType, 1.0));
    Value isNan =
        arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, x, x);
    return arith::SelectOp::create(b, loc, isNan, zero, clamped).getResult();
  }
  }
  return std::nullopt;
}
