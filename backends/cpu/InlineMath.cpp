//===- InlineMath.cpp - Math-library functions libm lacks, inline --------===//
//
// Triton programs call CUDA's libdevice names (`libdevice.rsqrt`,
// `isnan`, `finitef`, `div_rn`, `float2int_rz`, `fast_expf`, ...); the GPU
// plugins resolve them in their vendor libraries. libm has no such
// functions, so the CPU backend computes the ones it can compute exactly
// (round-to-nearest arithmetic, predicates, truncating or nearest-even
// conversions, fast approximations as their precise versions) from arith
// and math ops. Directed rounding modes (`_rd`, `_ru`, and `_rz` on
// arithmetic) are not among them: they stay errors.
//
//===----------------------------------------------------------------------===//
#include "Lowering.h"

#include "tessera/Backend/MathSymbols.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
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
};
} // namespace

/// The computation a (base) name stands for, and the operand count it takes.
static std::pair<InlineMath, unsigned> classify(StringRef name) {
  // The `_rn` suffix is IEEE's default rounding, which arith computes.
  StringRef base = name;
  bool nearest = base.consume_back("_rn");
  bool truncate = !nearest && base.consume_back("_rz");
  if (nearest || !truncate) {
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
    // Plain `sqrt`/`fma` are libm's; only their `_rn` spellings are ours.
    if (op.first != InlineMath::None &&
        (nearest || op.first == InlineMath::Rsqrt))
      return op;
  }
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
static InlineMath plan(StringRef symbol, TypeRange operands, Type result,
                       StringRef &name) {
  name = getMathBaseName(symbol);
  // An approximate division may be computed exactly (the other `fast_`
  // functions go to libm's precise versions).
  if (name == "fast_dividef")
    name = "div_rn";
  auto [op, arity] = classify(name);
  if (op == InlineMath::None || arity != operands.size())
    return InlineMath::None;
  bool floatIn = isa<FloatType>(operands[0]);
  switch (op) {
  case InlineMath::IsNan:
  case InlineMath::IsInf:
  case InlineMath::IsFinite:
  case InlineMath::SignBit:
  case InlineMath::ToIntNearest:
  case InlineMath::ToIntTruncate:
    return floatIn && isa<IntegerType>(result) ? op : InlineMath::None;
  case InlineMath::IntToFloat:
    return isa<IntegerType>(operands[0]) && isa<FloatType>(result)
               ? op
               : InlineMath::None;
  default:
    // Float in, the same float out.
    return isa<FloatType>(result) &&
                   llvm::all_of(operands, [&](Type t) { return t == result; })
               ? op
               : InlineMath::None;
  }
}

bool cpu::hasInlineMath(StringRef symbol, TypeRange operands, Type result) {
  StringRef name;
  return plan(symbol, operands, result, name) != InlineMath::None;
}

std::optional<Value> cpu::emitInlineMath(OpBuilder &b, Location loc,
                                         StringRef symbol, ValueRange operands,
                                         Type resultType) {
  StringRef name;
  InlineMath op = plan(symbol, operands.getTypes(), resultType, name);
  if (op == InlineMath::None)
    return std::nullopt;
  Value x = operands[0];
  auto toResultInt = [&](Value flag) -> Value {
    if (resultType == flag.getType())
      return flag;
    return arith::ExtUIOp::create(b, loc, resultType, flag);
  };
  auto floatConstant = [&](Type type, double value) -> Value {
    return arith::ConstantOp::create(b, loc, b.getFloatAttr(type, value));
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
    auto type = cast<FloatType>(x.getType());
    Value inf = arith::ConstantOp::create(
        b, loc,
        b.getFloatAttr(type, APFloat::getInf(type.getFloatSemantics())));
    Value magnitude = math::AbsFOp::create(b, loc, x);
    auto pred = op == InlineMath::IsInf ? arith::CmpFPredicate::OEQ
                                        : arith::CmpFPredicate::OLT;
    return toResultInt(arith::CmpFOp::create(b, loc, pred, magnitude, inf));
  }
  case InlineMath::SignBit: {
    Type bitsType = b.getIntegerType(cast<FloatType>(x.getType()).getWidth());
    Value bits = arith::BitcastOp::create(b, loc, bitsType, x);
    Value zero =
        arith::ConstantOp::create(b, loc, b.getIntegerAttr(bitsType, 0));
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
