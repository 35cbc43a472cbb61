//===- Promotion.cpp - Triton's implicit type promotion rules -------------===//
#include "tessera/Frontend/Codegen/Promotion.h"

#include <cmath>
#include <limits>

using namespace tessera::frontend;

TType tessera::frontend::promoteIntegers(const TType &a, const TType &b) {
  const TType &ea = a.getElement(), &eb = b.getElement();
  unsigned ra = ea.getPrimitiveBitwidth(), rb = eb.getPrimitiveBitwidth();
  bool ua = ea.isUnsignedInt(), ub = eb.isUnsignedInt();
  if (ua == ub)
    return ra > rb ? ea : eb;
  if (ua)
    return ra >= rb ? ea : eb;
  return rb >= ra ? eb : ea;
}

Promotion tessera::frontend::computeType(const TType &aIn, bool aIsPyScalar,
                                         const TType &bIn, bool bIsPyScalar,
                                         bool divOrMod) {
  const TType &a = aIn.getElement(), &b = bIn.getElement();
  auto result = [](TType t) { return Promotion{std::move(t), {}}; };
  // A Python scalar of a lower or equal kind does not take part.
  if (aIsPyScalar != bIsPyScalar) {
    const TType &scalar = aIsPyScalar ? a : b;
    const TType &tensor = aIsPyScalar ? b : a;
    if (scalar.getKindOrder() <= tensor.getKindOrder()) {
      if (divOrMod &&
          (tensor.is(ScalarKind::FP16) || tensor.is(ScalarKind::BF16)))
        return result(TType::scalar(ScalarKind::FP32));
      return result(tensor);
    }
  }
  if (a.is(ScalarKind::FP64) || b.is(ScalarKind::FP64))
    return result(TType::scalar(ScalarKind::FP64));
  if (a.is(ScalarKind::FP32) || b.is(ScalarKind::FP32))
    return result(TType::scalar(ScalarKind::FP32));
  if (a.is(ScalarKind::FP16) || b.is(ScalarKind::FP16))
    return result(
        TType::scalar(divOrMod ? ScalarKind::FP32 : ScalarKind::FP16));
  if (a.is(ScalarKind::BF16) && b.is(ScalarKind::BF16))
    return result(
        TType::scalar(divOrMod ? ScalarKind::FP32 : ScalarKind::BF16));
  if (a.is(ScalarKind::BF16) || b.is(ScalarKind::BF16))
    return result(TType::scalar(ScalarKind::FP32));
  if (a.isFP8() && b.isFP8())
    return result(a == b ? a : TType::scalar(ScalarKind::FP16));
  if (!a.isInt() || !b.isInt())
    return Promotion{{},
                     "unexpected operand types " + a.str() + " and " + b.str()};
  if (divOrMod && a.isUnsignedInt() != b.isUnsignedInt())
    return Promotion{{},
                     "cannot use /, // or % with " + a.repr() + " and " +
                         b.repr() +
                         " because they have different signedness; cast them "
                         "to the same signedness"};
  return result(promoteIntegers(a, b));
}

TType tessera::frontend::pythonScalarType(const HostValue &v) {
  if (v.isBool())
    return TType::scalar(ScalarKind::Int1);
  if (v.isInt()) {
    int64_t x = v.getInt();
    if (x >= std::numeric_limits<int32_t>::min() &&
        x <= std::numeric_limits<int32_t>::max())
      return TType::scalar(ScalarKind::Int32);
    if (x >= 0 && x <= int64_t(std::numeric_limits<uint32_t>::max()))
      return TType::scalar(ScalarKind::UInt32);
    return TType::scalar(ScalarKind::Int64);
  }
  double x = std::fabs(v.getNumber());
  const double minNormal = std::ldexp(1.0, -126);
  const double maxFloat = double(std::numeric_limits<float>::max());
  if (std::isinf(x) || x == 0.0 || std::isnan(x) ||
      (x >= minNormal && x <= maxFloat))
    return TType::scalar(ScalarKind::FP32);
  return TType::scalar(ScalarKind::FP64);
}

bool tessera::frontend::fitsIn(int64_t value, const TType &type) {
  unsigned bits = type.getPrimitiveBitwidth();
  if (type.isUnsignedInt()) {
    if (value < 0)
      return false;
    return bits >= 63 || value <= (int64_t(1) << bits) - 1;
  }
  if (bits >= 64)
    return true;
  int64_t lo = -(int64_t(1) << (bits - 1)), hi = (int64_t(1) << (bits - 1)) - 1;
  return value >= lo && value <= hi;
}
