//===- Fp8Conversions.cpp - fp8 to and from wider floats ------------------===//
//
// LLVM has no 8-bit float types: the type converter holds fp8 values as i8,
// so neither fpext nor fptrunc can convert them. These conversions are
// spelled in integer operations from the parameters of the format, which
// cover e4m3fn (fp8e4nv), e5m2 (fp8e5), the IEEE-style e4m3 and e3m4 and the
// "fnuz" formats (fp8e4b8, fp8e5b16, e4m3b11fnuz). Only e5m2fnuz, whose
// smallest normals are f16 subnormals, meets f16 through f32 with an exact
// fpext or fptrunc. A target with conversion instructions can lower the ops
// in its own patterns instead.
//
// Narrowing follows IEEE 754 with each format's encodings, as the conformance
// host references and LLVM's APFloat do: to nearest even, a finite value that
// rounds past the largest finite becomes infinity, or NaN where the format
// has no infinity (e4m3fn: above 464); toward zero it becomes the largest
// finite. Infinities stay infinite or become NaN; NaNs stay NaN.
//
//===----------------------------------------------------------------------===//
#include "Lowering.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "llvm/ADT/APFloat.h"

using namespace mlir;
using namespace mlir::tessera;
using namespace mlir::tessera::lowering;

namespace {

/// How an 8-bit format spends its codes beyond the finite values.
enum class Fp8Kind {
  /// The top exponent holds infinity and NaNs, as in IEEE 754 (e5m2).
  IEEE,
  /// No infinity; only S.1111.111 is NaN (e4m3fn).
  FiniteAndNaN,
  /// No infinity and no negative zero: 1.0000.000 is the NaN ("fnuz").
  NegativeZeroIsNaN,
};

/// An 8-bit float format: sign, exponent and `mantissaBits` mantissa bits.
struct Fp8Format {
  unsigned mantissaBits;
  int bias;
  Fp8Kind kind;
  /// Magnitude code (no sign) of the largest finite value.
  int64_t maxFinite;
  /// Code of the quiet NaN (positive, where NaNs have a sign).
  int64_t nan;
  /// Magnitude code of infinity (IEEE only).
  int64_t inf;

  /// The magnitude below which codes are subnormal (exponent field zero).
  int64_t minNormal() const { return int64_t(1) << mantissaBits; }
};

/// An IEEE binary format LLVM has a type for.
struct WideFormat {
  unsigned width;
  unsigned mantissaBits;
  int bias;
  /// Bits of +infinity and of the canonical quiet NaN.
  int64_t inf, nan;
};

/// The encoding of `value` (formats of at most 64 bits).
int64_t bitsOf(const llvm::APFloat &value) {
  return int64_t(value.bitcastToAPInt().getZExtValue());
}

/// The parameters of `type` when it is an 8-bit format with a sign, a zero
/// and NaN encoded in one of the ways of Fp8Kind (read from LLVM's APFloat
/// semantics, which MLIR's float types carry).
std::optional<Fp8Format> getFp8Format(FloatType type) {
  const llvm::fltSemantics &sem = type.getFloatSemantics();
  using llvm::APFloat;
  if (type.getWidth() != 8 || !APFloat::semanticsHasSignedRepr(sem) ||
      !APFloat::semanticsHasZero(sem) || !APFloat::semanticsHasNaN(sem))
    return std::nullopt;
  Fp8Format format;
  format.mantissaBits = APFloat::semanticsPrecision(sem) - 1;
  format.bias = 1 - APFloat::semanticsMinExponent(sem);
  format.maxFinite = bitsOf(APFloat::getLargest(sem));
  format.nan = bitsOf(APFloat::getQNaN(sem));
  format.inf = 0;
  if (APFloat::semanticsHasInf(sem)) {
    format.kind = Fp8Kind::IEEE;
    format.inf = bitsOf(APFloat::getInf(sem));
  } else if (format.nan == 0x7f) {
    format.kind = Fp8Kind::FiniteAndNaN;
  } else if (format.nan == 0x80) {
    format.kind = Fp8Kind::NegativeZeroIsNaN;
  } else {
    return std::nullopt;
  }
  return format;
}

/// The parameters of f16, bf16, f32 and f64.
std::optional<WideFormat> getWideFormat(FloatType type) {
  if (!isa<Float16Type, BFloat16Type, Float32Type, Float64Type>(type))
    return std::nullopt;
  const llvm::fltSemantics &sem = type.getFloatSemantics();
  using llvm::APFloat;
  return WideFormat{type.getWidth(), APFloat::semanticsPrecision(sem) - 1,
                    1 - APFloat::semanticsMinExponent(sem),
                    bitsOf(APFloat::getInf(sem)),
                    bitsOf(APFloat::getQNaN(sem))};
}

/// Builds integer operations on one LLVM integer type.
class IntBuilder {
public:
  IntBuilder(OpBuilder &b, Location loc, Type type)
      : b(b), loc(loc), type(type) {}

  Value c(int64_t value) { return createConstant(b, loc, type, value); }
  Value add(Value x, Value y) { return LLVM::AddOp::create(b, loc, x, y); }
  Value sub(Value x, Value y) { return LLVM::SubOp::create(b, loc, x, y); }
  Value bitAnd(Value x, Value y) { return LLVM::AndOp::create(b, loc, x, y); }
  Value bitOr(Value x, Value y) { return LLVM::OrOp::create(b, loc, x, y); }
  Value shl(Value x, Value y) { return LLVM::ShlOp::create(b, loc, x, y); }
  Value lshr(Value x, Value y) { return LLVM::LShrOp::create(b, loc, x, y); }
  Value cmp(LLVM::ICmpPredicate p, Value x, Value y) {
    return LLVM::ICmpOp::create(b, loc, p, x, y);
  }
  Value select(Value cond, Value x, Value y) {
    return LLVM::SelectOp::create(b, loc, cond, x, y);
  }

private:
  OpBuilder &b;
  Location loc;
  Type type;
};

using Pred = LLVM::ICmpPredicate;

/// The difference of exponent biases, wide minus fp8: the wide exponent
/// field of a normal fp8 value is its fp8 exponent field plus this.
int getBiasShift(const Fp8Format &src, const WideFormat &dst) {
  return dst.bias - src.bias;
}

/// True when the integer spelling of the widening applies: every normal fp8
/// value is normal in `dst`, and fp8 subnormals are either normal in `dst`
/// or subnormal at the same bit positions (equal biases).
bool canWidenDirectly(const Fp8Format &src, const WideFormat &dst) {
  int shift = getBiasShift(src, dst);
  // IEEE formats keep their top exponent field for infinity and NaN.
  int maxNormalField =
      (1 << (7 - src.mantissaBits)) - (src.kind == Fp8Kind::IEEE ? 2 : 1);
  int dstMaxNormalField = (1 << (dst.width - 1 - dst.mantissaBits)) - 2;
  return dst.mantissaBits >= src.mantissaBits && shift >= 0 &&
         maxNormalField + shift <= dstMaxNormalField &&
         (shift == 0 || shift >= int(src.mantissaBits));
}

/// fp8 code `x` (i8) widened to `dstType`: exact for every code.
Value emitWiden(OpBuilder &b, Location loc, Value x, const Fp8Format &src,
                FloatType dstType) {
  WideFormat dst = *getWideFormat(dstType);
  if (!canWidenDirectly(src, dst)) {
    assert(!dstType.isF32() && "f32 holds every fp8 format directly");
    // Only when the fp8 exponent range reaches below the wide one's (e5m2fnuz
    // to f16): f32 holds every fp8 value as a normal number, and every fp8
    // value is representable in `dst`, so the truncation is exact.
    Value wide = emitWiden(b, loc, x, src, b.getF32Type());
    return LLVM::FPTruncOp::create(b, loc, dstType, wide);
  }
  Type i8 = b.getI8Type();
  Type intType = b.getIntegerType(dst.width);
  IntBuilder n(b, loc, i8), w(b, loc, intType);
  unsigned m = src.mantissaBits, mantissaShift = dst.mantissaBits - m;
  int biasShift = getBiasShift(src, dst);

  Value magnitude = n.bitAnd(x, n.c(0x7f));
  Value wideMagnitude = LLVM::ZExtOp::create(b, loc, intType, magnitude);
  // Exponent and mantissa fields moved to their wide positions.
  Value moved = w.shl(wideMagnitude, w.c(mantissaShift));
  Value bits = moved;
  if (biasShift != 0) {
    // Normal: rebias the exponent field.
    Value normal = w.add(moved, w.c(int64_t(biasShift) << dst.mantissaBits));
    // Subnormal, magnitude * 2^(1 - bias - m), a normal wide value: shift
    // the leading one of the magnitude (bit 7 - lz) onto the implicit bit,
    // then add the exponent field less one, as `moved` + rebias does for
    // normal codes. Integer operations only, so no wide float arithmetic
    // (absent for bf16 on many targets, flushing subnormals on some) is
    // involved.
    Value lz = LLVM::ZExtOp::create(
        b, loc, intType,
        LLVM::CountLeadingZerosOp::create(b, loc, i8, magnitude,
                                          /*is_zero_poison=*/false));
    Value normalized =
        w.shl(wideMagnitude, w.add(lz, w.c(int64_t(dst.mantissaBits) - 7)));
    Value fieldLessOne = w.sub(w.c(7 + biasShift - int64_t(m)), lz);
    Value subnormal =
        w.add(normalized, w.shl(fieldLessOne, w.c(dst.mantissaBits)));
    subnormal = w.select(n.cmp(Pred::eq, magnitude, n.c(0)), w.c(0), subnormal);
    Value isSubnormal = n.cmp(Pred::ult, magnitude, n.c(src.minNormal()));
    bits = w.select(isSubnormal, subnormal, normal);
  }
  // Non-finite codes.
  switch (src.kind) {
  case Fp8Kind::IEEE: {
    Value special = w.select(n.cmp(Pred::eq, magnitude, n.c(src.inf)),
                             w.c(dst.inf), w.c(dst.nan));
    bits = w.select(n.cmp(Pred::uge, magnitude, n.c(src.inf)), special, bits);
    break;
  }
  case Fp8Kind::FiniteAndNaN:
    bits =
        w.select(n.cmp(Pred::eq, magnitude, n.c(src.nan)), w.c(dst.nan), bits);
    break;
  case Fp8Kind::NegativeZeroIsNaN:
    break;
  }
  Value sign = LLVM::ZExtOp::create(b, loc, intType, n.bitAnd(x, n.c(0x80)));
  bits = w.bitOr(bits, w.shl(sign, w.c(dst.width - 8)));
  if (src.kind == Fp8Kind::NegativeZeroIsNaN)
    bits = w.select(n.cmp(Pred::eq, x, n.c(src.nan)), w.c(dst.nan), bits);
  return LLVM::BitcastOp::create(b, loc, dstType, bits);
}

/// `x` of wide type `srcType` rounded to the fp8 format `dst` (an i8 code).
Value emitNarrow(OpBuilder &b, Location loc, Value x, FloatType srcType,
                 const Fp8Format &dst, RoundingMode rounding) {
  WideFormat src = *getWideFormat(srcType);
  if (getBiasShift(dst, src) < 0) {
    // The integer rounding below needs the wide subnormals to lie in the fp8
    // subnormal range (a wide bias at least the fp8 one); f16 has a smaller
    // bias only than e5m2fnuz, and widening it to f32 is exact.
    srcType = b.getF32Type();
    x = LLVM::FPExtOp::create(b, loc, srcType, x);
    src = *getWideFormat(srcType);
  }
  Type i8 = b.getI8Type();
  Type intType = b.getIntegerType(src.width);
  IntBuilder n(b, loc, i8), w(b, loc, intType);
  unsigned m = dst.mantissaBits, mw = src.mantissaBits;
  int64_t biasShift = getBiasShift(dst, src);
  assert(mw > m && "narrowing keeps fewer mantissa bits");

  Value bits = LLVM::BitcastOp::create(b, loc, intType, x);
  Value sign =
      LLVM::TruncOp::create(b, loc, i8, w.lshr(bits, w.c(src.width - 8)));
  sign = n.bitAnd(sign, n.c(0x80));
  // All bits but the sign (unsigned: for a 64-bit source, 2^63 - 1).
  Value magnitude =
      w.bitAnd(bits, w.c(int64_t((uint64_t(1) << (src.width - 1)) - 1)));

  // The value is significand * 2^(exponent - bias - mw), with the exponent
  // field of subnormals read as 1.
  Value field = w.lshr(magnitude, w.c(mw));
  Value isSubnormal = w.cmp(Pred::eq, field, w.c(0));
  Value exponent = w.select(isSubnormal, w.c(1), field);
  Value significand =
      w.select(isSubnormal, magnitude,
               w.bitOr(w.bitAnd(magnitude, w.c((int64_t(1) << mw) - 1)),
                       w.c(int64_t(1) << mw)));
  // Values below the smallest normal fp8 exponent (wide field 1 + biasShift)
  // keep fewer mantissa bits: `deficit` more are shifted out.
  Value below = w.sub(w.c(1 + biasShift), exponent);
  Value isBelow = w.cmp(Pred::sgt, below, w.c(0));
  Value deficit = w.select(isBelow, below, w.c(0));
  // Past mw + 2 every significand (< 2^(mw + 1)) rounds to zero either way;
  // the clamp keeps the shifts below the integer width.
  Value shift = w.add(w.c(mw - m), deficit);
  shift = w.select(w.cmp(Pred::ult, shift, w.c(mw + 2)), shift, w.c(mw + 2));
  Value kept = w.lshr(significand, shift);
  if (rounding == RoundingMode::rtne) {
    Value one = w.c(1);
    Value rest = w.bitAnd(significand, w.sub(w.shl(one, shift), one));
    Value half = w.shl(one, w.sub(shift, one));
    Value odd = w.cmp(Pred::ne, w.bitAnd(kept, one), w.c(0));
    Value tie = w.cmp(Pred::eq, rest, half);
    Value above = w.cmp(Pred::ugt, rest, half);
    Value up = LLVM::OrOp::create(b, loc, above,
                                  LLVM::AndOp::create(b, loc, tie, odd));
    kept = w.add(kept, LLVM::ZExtOp::create(b, loc, intType, up));
  }
  // `kept` holds the implicit bit of a normal result (a carry out of the
  // mantissa included), so adding the exponent field less one lands on the
  // code; in the subnormal range that field is zero.
  Value fieldLessOne =
      w.select(isBelow, w.c(0), w.sub(exponent, w.c(1 + biasShift)));
  Value code = w.add(kept, w.shl(fieldLessOne, w.c(m)));

  int64_t nonFinite = dst.kind == Fp8Kind::IEEE ? dst.inf : dst.nan;
  int64_t overflow = rounding == RoundingMode::rtz ? dst.maxFinite : nonFinite;
  code =
      w.select(w.cmp(Pred::ugt, code, w.c(dst.maxFinite)), w.c(overflow), code);
  code =
      w.select(w.cmp(Pred::eq, magnitude, w.c(src.inf)), w.c(nonFinite), code);
  code =
      w.select(w.cmp(Pred::ugt, magnitude, w.c(src.inf)), w.c(dst.nan), code);
  Value unsignedCode = LLVM::TruncOp::create(b, loc, i8, code);
  Value result = n.bitOr(unsignedCode, sign);
  // The negative zero code is the NaN: zeros are positive.
  if (dst.kind == Fp8Kind::NegativeZeroIsNaN)
    result =
        n.select(n.cmp(Pred::eq, unsignedCode, n.c(0)), unsignedCode, result);
  return result;
}

} // namespace

FailureOr<Value> mlir::tessera::emitFp8Conversion(OpBuilder &b, Location loc,
                                                  Operation *op, Value x,
                                                  FloatType srcType,
                                                  FloatType dstType,
                                                  RoundingMode rounding) {
  if (srcType == dstType)
    return x;
  auto unsupported = [&](FloatType type) -> InFlightDiagnostic {
    return op->emitError("the shared lowering cannot convert ")
           << srcType << " to " << dstType << ": " << type;
  };
  std::optional<Fp8Format> srcFp8, dstFp8;
  for (auto [type, format] :
       {std::pair{srcType, &srcFp8}, std::pair{dstType, &dstFp8}}) {
    if (type.getWidth() > 8) {
      if (!getWideFormat(type))
        return unsupported(type) << " is not f16, bf16, f32 or f64";
      continue;
    }
    *format = getFp8Format(type);
    if (!*format)
      return unsupported(type) << " is not an 8-bit float with a sign, a "
                                  "zero and NaN";
  }
  assert((srcFp8 || dstFp8) && "expected a conversion to or from fp8");

  if (srcFp8 && dstFp8) {
    // f32 holds every fp8 value, so one rounding happens, at the end.
    Value wide = emitWiden(b, loc, x, *srcFp8, b.getF32Type());
    return emitNarrow(b, loc, wide, b.getF32Type(), *dstFp8, rounding);
  }
  if (srcFp8)
    return emitWiden(b, loc, x, *srcFp8, dstType);
  return emitNarrow(b, loc, x, srcType, *dstFp8, rounding);
}
