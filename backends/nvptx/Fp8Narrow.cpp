//===- Fp8Narrow.cpp - Rounding to fp8 with cvt.satfinite -----------------===//
#include "Fp8Narrow.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/bit.h"

using namespace mlir;
using namespace mlir::tessera;

namespace {

/// What rounding into one fp8 format needs beyond the instruction.
struct Format {
  /// The f32 magnitude bits above which (or from which, when
  /// `tieOverflows`) the core's result is an overflow or NaN code.
  uint32_t limitBits;
  bool tieOverflows;
  uint8_t nanCode;
  uint8_t overflowCode;
};

Format describe(FloatType dst) {
  const llvm::fltSemantics &sem = dst.getFloatSemantics();
  // Past this magnitude rounding to nearest even leaves the finite range:
  // halfway to the next binade step, included when the largest finite's
  // code is odd (the tie rounds away from it).
  llvm::APFloat largest = llvm::APFloat::getLargest(sem);
  llvm::APFloat below = largest;
  below.next(/*nextDown=*/true);
  double top = largest.convertToDouble();
  float limit = float(top + (top - below.convertToDouble()) / 2);
  Format format;
  format.limitBits = llvm::bit_cast<uint32_t>(limit);
  format.tieOverflows = largest.bitcastToAPInt().getZExtValue() & 1;
  format.nanCode = llvm::APFloat::getQNaN(sem).bitcastToAPInt().getZExtValue();
  format.overflowCode =
      llvm::APFloat::semanticsHasInf(sem)
          ? llvm::APFloat::getInf(sem).bitcastToAPInt().getZExtValue()
          : format.nanCode;
  return format;
}

} // namespace

FailureOr<Value> nvptx::emitNarrowToFp8(OpBuilder &b, Location loc, Value x,
                                        FloatType dst) {
  auto src = dyn_cast<FloatType>(x.getType());
  if (!src || !(src.isF16() || src.isBF16() || src.isF32()) ||
      !isa<Float8E4M3FNType, Float8E5M2Type>(dst))
    return failure();
  Format format = describe(dst);

  Type f32 = b.getF32Type(), i8 = b.getI8Type(), i32 = b.getI32Type();
  auto i8Constant = [&](uint64_t v) -> Value {
    return LLVM::ConstantOp::create(b, loc, i8, b.getIntegerAttr(i8, v));
  };
  auto i32Constant = [&](uint64_t v) -> Value {
    return LLVM::ConstantOp::create(b, loc, i32, b.getIntegerAttr(i32, v));
  };
  if (!src.isF32())
    x = LLVM::FPExtOp::create(b, loc, f32, x);
  // One element per instruction: converting neighbours in pairs saved an
  // instruction per two elements but cost ptxas 4x the time and 600 more
  // bytes of spills on 09's fp8 epilogues of 128x256 over 4 warps (CUDA
  // 13.0, 2026-11-29). The element is both operands; the low byte is
  // kept.
  auto rounding =
      NVVM::FPRoundingModeAttr::get(b.getContext(), NVVM::FPRoundingMode::RN);
  auto saturation = NVVM::SaturationModeAttr::get(
      b.getContext(), NVVM::SaturationMode::SATFINITE);
  Value pair = NVVM::ConvertF32x2ToF8x2Op::create(
      b, loc, b.getI16Type(), x, x, rounding, saturation,
      /*relu=*/b.getBoolAttr(false), TypeAttr::get(dst));
  Value code = LLVM::TruncOp::create(b, loc, i8, pair);

  // Overflows and NaNs, told apart from finite values by their magnitude's
  // bits (NaNs lie above infinity), become the core's codes with the sign.
  Value bits = LLVM::BitcastOp::create(b, loc, i32, x);
  Value magnitude = LLVM::AndOp::create(b, loc, bits, i32Constant(0x7fffffffu));
  Value special = LLVM::ICmpOp::create(
      b, loc,
      format.tieOverflows ? LLVM::ICmpPredicate::uge : LLVM::ICmpPredicate::ugt,
      magnitude, i32Constant(format.limitBits));
  Value highByte = LLVM::TruncOp::create(
      b, loc, i8, LLVM::LShrOp::create(b, loc, bits, i32Constant(24)));
  Value sign = LLVM::AndOp::create(b, loc, highByte, i8Constant(0x80));
  Value specialCode = i8Constant(format.overflowCode);
  if (format.nanCode != format.overflowCode) {
    Value isNan = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ugt,
                                       magnitude, i32Constant(0x7f800000u));
    specialCode = LLVM::SelectOp::create(
        b, loc, isNan, i8Constant(format.nanCode), specialCode);
  }
  Value fixed = LLVM::OrOp::create(b, loc, sign, specialCode);
  return LLVM::SelectOp::create(b, loc, special, fixed, code).getResult();
}
