//===- LowerFp8.cpp - Conversions from and to fp8 as inline code ----------===//
//
// The IR of Fp8Codec.h's schemes: straight-line integer and f32 operations
// with selects, which LLVM vectorizes in the loops around them. Rounding
// from f64 keeps the runtime's converter (through f32 it would round twice).
//
//===----------------------------------------------------------------------===//
#include "Fp8Codec.h"
#include "Lowering.h"
#include "Runtime.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"

#include <limits>

using namespace mlir;
using namespace mlir::tessera;
using namespace mlir::tessera::cpu;

namespace {

/// Builds the scalar constants and comparisons the schemes use.
struct Emitter {
  OpBuilder &b;
  Location loc;

  Value i32(uint32_t v) {
    return arith::ConstantOp::create(
        b, loc, b.getI32IntegerAttr(static_cast<int32_t>(v)));
  }
  Value f32(float v) {
    return arith::ConstantOp::create(b, loc, b.getF32FloatAttr(v));
  }
  Value compare(arith::CmpIPredicate predicate, Value x, uint32_t v) {
    return arith::CmpIOp::create(b, loc, predicate, x, i32(v));
  }
  Value select(Value condition, Value a, Value c) {
    return arith::SelectOp::create(b, loc, condition, a, c);
  }
  /// `encoding[1]` where `negative` holds, else `encoding[0]` (as i32).
  Value bySign(Value negative, const SignedEncoding &encoding) {
    return select(negative, i32(encoding[1]), i32(encoding[0]));
  }
};

} // namespace

Value cpu::emitFp8ToF32(OpBuilder &b, Location loc, Value x) {
  auto type = cast<FloatType>(x.getType());
  std::optional<Fp8Decoding> decoding =
      getFp8Decoding(type.getFloatSemantics());
  if (!decoding)
    return Value();
  Emitter e{b, loc};
  Type f32 = b.getF32Type(), i32 = b.getI32Type();
  Value bits = arith::ExtUIOp::create(
      b, loc, i32, arith::BitcastOp::create(b, loc, b.getI8Type(), x));
  Value magnitude = arith::AndIOp::create(b, loc, bits, e.i32(0x7F));
  // Normal: the magnitude's fields moved into f32's and rebiased.
  Value normal = arith::BitcastOp::create(
      b, loc, f32,
      arith::AddIOp::create(
          b, loc,
          arith::ShLIOp::create(b, loc, magnitude,
                                e.i32(23 - decoding->mantissaBits)),
          e.i32(decoding->rebias)));
  // Subnormal: the magnitude times the smallest subnormal (exact).
  Value subnormal = arith::MulFOp::create(
      b, loc, arith::UIToFPOp::create(b, loc, f32, magnitude),
      e.f32(decoding->subnormalUnit));
  Value value = e.select(e.compare(arith::CmpIPredicate::ult, magnitude,
                                   1u << decoding->mantissaBits),
                         subnormal, normal);
  Value nan = e.f32(std::numeric_limits<float>::quiet_NaN());
  if (decoding->firstNonFinite < 128) {
    Value nonFinite = nan;
    if (decoding->infinity)
      nonFinite = e.select(
          e.compare(arith::CmpIPredicate::eq, magnitude, *decoding->infinity),
          e.f32(std::numeric_limits<float>::infinity()), nan);
    value = e.select(e.compare(arith::CmpIPredicate::uge, magnitude,
                               decoding->firstNonFinite),
                     nonFinite, value);
  }
  // The sign bit moves to bit 31.
  Value sign = arith::ShLIOp::create(
      b, loc, arith::AndIOp::create(b, loc, bits, e.i32(0x80)), e.i32(24));
  value = arith::BitcastOp::create(
      b, loc, f32,
      arith::OrIOp::create(b, loc, arith::BitcastOp::create(b, loc, i32, value),
                           sign));
  if (decoding->negativeZeroIsNaN)
    value =
        e.select(e.compare(arith::CmpIPredicate::eq, bits, 0x80), nan, value);
  return value;
}

/// The runtime's converter: rounds from f64, which holds every source
/// exactly.
static Value callToFp8(OpBuilder &b, Location loc, Operation *anchor, Value x,
                       FloatType dst, bool towardZero) {
  Type f64 = b.getF64Type(), i8 = b.getI8Type(), i32 = b.getI32Type();
  if (x.getType() != f64)
    x = arith::ExtFOp::create(b, loc, f64, x);
  declareFunction(b, anchor, kToFp8Symbol,
                  b.getFunctionType({f64, i32, i32}, i8));
  Value format = arith::ConstantOp::create(
      b, loc, b.getI32IntegerAttr(static_cast<int>(getFp8Format(dst))));
  Value mode =
      arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(towardZero));
  Value bits = func::CallOp::create(b, loc, kToFp8Symbol, TypeRange{i8},
                                    ValueRange{x, format, mode})
                   .getResult(0);
  return arith::BitcastOp::create(b, loc, dst, bits);
}

Value cpu::emitToFp8(OpBuilder &b, Location loc, Operation *anchor, Value x,
                     FloatType dst, bool towardZero) {
  auto src = cast<FloatType>(x.getType());
  std::optional<Fp8Encoding> encoding =
      src.getWidth() <= 32 ? getFp8Encoding(dst.getFloatSemantics(),
                                            getFp8Format(dst), towardZero)
                           : std::nullopt;
  if (!encoding)
    return callToFp8(b, loc, anchor, x, dst, towardZero);
  Emitter e{b, loc};
  Type f32 = b.getF32Type(), i32 = b.getI32Type();
  if (src != f32)
    x = arith::ExtFOp::create(b, loc, f32, x); // f16, bf16: exact
  Value bits = arith::BitcastOp::create(b, loc, i32, x);
  Value magnitude = arith::AndIOp::create(b, loc, bits, e.i32(0x7FFFFFFF));
  Value negative = e.compare(arith::CmpIPredicate::slt, bits, 0);
  // Normal: f32's exponent and mantissa fields rounded to the format's
  // mantissa as one integer, then rebiased.
  unsigned shift = 23 - encoding->mantissaBits;
  Value rounded = magnitude;
  if (!towardZero) {
    Value odd = arith::AndIOp::create(
        b, loc, arith::ShRUIOp::create(b, loc, magnitude, e.i32(shift)),
        e.i32(1));
    rounded = arith::AddIOp::create(
        b, loc,
        arith::AddIOp::create(b, loc, magnitude,
                              e.i32((1u << (shift - 1)) - 1)),
        odd);
  }
  Value normal = arith::SubIOp::create(
      b, loc, arith::ShRUIOp::create(b, loc, rounded, e.i32(shift)),
      e.i32(encoding->rebias));
  // Subnormal: the magnitude in units of the smallest subnormal, rounded.
  Value units = arith::MulFOp::create(
      b, loc, arith::BitcastOp::create(b, loc, f32, magnitude),
      e.f32(encoding->subnormalScale));
  units = towardZero ? Value(math::TruncOp::create(b, loc, units))
                     : Value(math::RoundEvenOp::create(b, loc, units));
  Value subnormal = arith::FPToUIOp::create(b, loc, i32, units);
  Value code = e.select(
      e.compare(arith::CmpIPredicate::ult, magnitude, encoding->minNormalBits),
      subnormal, normal);
  Value sign = arith::ShRUIOp::create(
      b, loc, arith::AndIOp::create(b, loc, bits, e.i32(0x80000000)),
      e.i32(24));
  Value result = arith::OrIOp::create(b, loc, code, sign);
  result = e.select(e.compare(arith::CmpIPredicate::eq, code, 0),
                    e.bySign(negative, encoding->zero), result);
  result =
      e.select(e.compare(arith::CmpIPredicate::ugt, code, encoding->maxFinite),
               e.bySign(negative, encoding->overflow), result);
  result = e.select(e.compare(arith::CmpIPredicate::eq, magnitude, 0x7F800000),
                    e.bySign(negative, encoding->infinity), result);
  result = e.select(e.compare(arith::CmpIPredicate::ugt, magnitude, 0x7F800000),
                    e.bySign(negative, encoding->nan), result);
  return arith::BitcastOp::create(
      b, loc, dst, arith::TruncIOp::create(b, loc, b.getI8Type(), result));
}
