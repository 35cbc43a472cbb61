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

/// Builds the scalar constants and comparisons the schemes use. Every op
/// is created in its own statement: C++ leaves the order in which a call's
/// arguments are evaluated open (GCC and Clang differ), and the IR must not
/// depend on the compiler that built the plugin.
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
    Value constant = i32(v);
    return arith::CmpIOp::create(b, loc, predicate, x, constant);
  }
  Value select(Value condition, Value a, Value c) {
    return arith::SelectOp::create(b, loc, condition, a, c);
  }
  /// `encoding[1]` where `negative` holds, else `encoding[0]` (as i32).
  Value bySign(Value negative, const SignedEncoding &encoding) {
    Value positive = i32(encoding[0]);
    Value negativeCode = i32(encoding[1]);
    return select(negative, negativeCode, positive);
  }
  /// `op(x, constant v)` for an integer binary op.
  template <typename OpTy> Value withI32(Value x, uint32_t v) {
    Value constant = i32(v);
    return OpTy::create(b, loc, x, constant);
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
  Value byte = arith::BitcastOp::create(b, loc, b.getI8Type(), x);
  Value bits = arith::ExtUIOp::create(b, loc, i32, byte);
  Value magnitude = e.withI32<arith::AndIOp>(bits, 0x7F);
  // Normal: the magnitude's fields moved into f32's and rebiased.
  Value fields =
      e.withI32<arith::ShLIOp>(magnitude, 23 - decoding->mantissaBits);
  Value rebiased = e.withI32<arith::AddIOp>(fields, decoding->rebias);
  Value normal = arith::BitcastOp::create(b, loc, f32, rebiased);
  // Subnormal: the magnitude times the smallest subnormal (exact).
  Value count = arith::UIToFPOp::create(b, loc, f32, magnitude);
  Value unit = e.f32(decoding->subnormalUnit);
  Value subnormal = arith::MulFOp::create(b, loc, count, unit);
  Value isSubnormal = e.compare(arith::CmpIPredicate::ult, magnitude,
                                1u << decoding->mantissaBits);
  Value value = e.select(isSubnormal, subnormal, normal);
  Value nan = e.f32(std::numeric_limits<float>::quiet_NaN());
  if (decoding->firstNonFinite < 128) {
    Value nonFinite = nan;
    if (decoding->infinity) {
      Value isInfinity =
          e.compare(arith::CmpIPredicate::eq, magnitude, *decoding->infinity);
      Value infinity = e.f32(std::numeric_limits<float>::infinity());
      nonFinite = e.select(isInfinity, infinity, nan);
    }
    Value isNonFinite = e.compare(arith::CmpIPredicate::uge, magnitude,
                                  decoding->firstNonFinite);
    value = e.select(isNonFinite, nonFinite, value);
  }
  // The sign bit moves to bit 31.
  Value signBit = e.withI32<arith::AndIOp>(bits, 0x80);
  Value sign = e.withI32<arith::ShLIOp>(signBit, 24);
  Value valueBits = arith::BitcastOp::create(b, loc, i32, value);
  Value signedBits = arith::OrIOp::create(b, loc, valueBits, sign);
  value = arith::BitcastOp::create(b, loc, f32, signedBits);
  if (decoding->negativeZeroIsNaN) {
    Value isNaN = e.compare(arith::CmpIPredicate::eq, bits, 0x80);
    value = e.select(isNaN, nan, value);
  }
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
  Value magnitude = e.withI32<arith::AndIOp>(bits, 0x7FFFFFFF);
  Value negative = e.compare(arith::CmpIPredicate::slt, bits, 0);
  // Normal: f32's exponent and mantissa fields rounded to the format's
  // mantissa as one integer, then rebiased.
  unsigned shift = 23 - encoding->mantissaBits;
  Value rounded = magnitude;
  if (!towardZero) {
    Value low = e.withI32<arith::ShRUIOp>(magnitude, shift);
    Value odd = e.withI32<arith::AndIOp>(low, 1);
    Value half = e.withI32<arith::AddIOp>(magnitude, (1u << (shift - 1)) - 1);
    rounded = arith::AddIOp::create(b, loc, half, odd);
  }
  Value kept = e.withI32<arith::ShRUIOp>(rounded, shift);
  Value normal = e.withI32<arith::SubIOp>(kept, encoding->rebias);
  // Subnormal: the magnitude in units of the smallest subnormal, rounded.
  Value absolute = arith::BitcastOp::create(b, loc, f32, magnitude);
  Value scale = e.f32(encoding->subnormalScale);
  Value units = arith::MulFOp::create(b, loc, absolute, scale);
  units = towardZero ? Value(math::TruncOp::create(b, loc, units))
                     : Value(math::RoundEvenOp::create(b, loc, units));
  Value subnormal = arith::FPToUIOp::create(b, loc, i32, units);
  Value isSubnormal =
      e.compare(arith::CmpIPredicate::ult, magnitude, encoding->minNormalBits);
  Value code = e.select(isSubnormal, subnormal, normal);
  Value signBit = e.withI32<arith::AndIOp>(bits, 0x80000000);
  Value sign = e.withI32<arith::ShRUIOp>(signBit, 24);
  Value result = arith::OrIOp::create(b, loc, code, sign);
  // The special cases, each a select over what came before.
  auto special = [&](arith::CmpIPredicate predicate, Value x, uint32_t v,
                     const SignedEncoding &encoding) {
    Value applies = e.compare(predicate, x, v);
    Value replacement = e.bySign(negative, encoding);
    result = e.select(applies, replacement, result);
  };
  special(arith::CmpIPredicate::eq, code, 0, encoding->zero);
  special(arith::CmpIPredicate::ugt, code, encoding->maxFinite,
          encoding->overflow);
  special(arith::CmpIPredicate::eq, magnitude, 0x7F800000, encoding->infinity);
  special(arith::CmpIPredicate::ugt, magnitude, 0x7F800000, encoding->nan);
  Value byte = arith::TruncIOp::create(b, loc, b.getI8Type(), result);
  return arith::BitcastOp::create(b, loc, dst, byte);
}
