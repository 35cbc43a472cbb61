//===- Fp8Narrow.cpp - Rounding to fp8 with cvt.satfinite -----------------===//
#include "Fp8Narrow.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "llvm/ADT/APFloat.h"

using namespace mlir;
using namespace mlir::tessera;

FailureOr<Value> nvptx::emitNarrowToFp8(OpBuilder &b, Location loc, Value x,
                                        FloatType dst) {
  auto src = dyn_cast<FloatType>(x.getType());
  if (!src || !(src.isF16() || src.isBF16() || src.isF32()) ||
      !isa<Float8E4M3FNType, Float8E5M2Type>(dst))
    return failure();
  const llvm::fltSemantics &sem = dst.getFloatSemantics();
  // Past this magnitude rounding to nearest even leaves the finite range:
  // halfway to the next binade step, included when the largest finite's
  // code is odd (the tie rounds away from it).
  llvm::APFloat largest = llvm::APFloat::getLargest(sem);
  llvm::APFloat below = largest;
  below.next(/*nextDown=*/true);
  double top = largest.convertToDouble();
  double limit = top + (top - below.convertToDouble()) / 2;
  bool tieOverflows = largest.bitcastToAPInt().getZExtValue() & 1;
  uint64_t nanCode =
      llvm::APFloat::getQNaN(sem).bitcastToAPInt().getZExtValue();
  uint64_t overflowCode =
      llvm::APFloat::semanticsHasInf(sem)
          ? llvm::APFloat::getInf(sem).bitcastToAPInt().getZExtValue()
          : nanCode;

  Type f32 = b.getF32Type(), i8 = b.getI8Type(), i32 = b.getI32Type();
  if (!src.isF32())
    x = LLVM::FPExtOp::create(b, loc, f32, x);
  auto rounding =
      NVVM::FPRoundingModeAttr::get(b.getContext(), NVVM::FPRoundingMode::RN);
  auto saturation = NVVM::SaturationModeAttr::get(
      b.getContext(), NVVM::SaturationMode::SATFINITE);
  // `b` lands in the low byte.
  Value pair = NVVM::ConvertF32x2ToF8x2Op::create(
      b, loc, b.getI16Type(), x, x, rounding, saturation,
      /*relu=*/b.getBoolAttr(false), TypeAttr::get(dst));
  Value code = LLVM::TruncOp::create(b, loc, i8, pair);

  auto i8Constant = [&](uint64_t v) {
    return LLVM::ConstantOp::create(b, loc, i8, b.getIntegerAttr(i8, v));
  };
  Value bits = LLVM::BitcastOp::create(b, loc, i32, x);
  Value shift = LLVM::ConstantOp::create(b, loc, i32, b.getI32IntegerAttr(24));
  Value high = LLVM::LShrOp::create(b, loc, bits, shift);
  Value highByte = LLVM::TruncOp::create(b, loc, i8, high);
  Value sign = LLVM::AndOp::create(b, loc, highByte, i8Constant(0x80));
  Value magnitude = LLVM::FAbsOp::create(b, loc, x);
  Value limitValue =
      LLVM::ConstantOp::create(b, loc, f32, b.getF32FloatAttr(float(limit)));
  Value overflows = LLVM::FCmpOp::create(
      b, loc,
      tieOverflows ? LLVM::FCmpPredicate::oge : LLVM::FCmpPredicate::ogt,
      magnitude, limitValue);
  Value isNan = LLVM::FCmpOp::create(b, loc, LLVM::FCmpPredicate::uno, x, x);
  Value overflowed = LLVM::OrOp::create(b, loc, sign, i8Constant(overflowCode));
  Value nan = LLVM::OrOp::create(b, loc, sign, i8Constant(nanCode));
  Value result = LLVM::SelectOp::create(b, loc, overflows, overflowed, code);
  return LLVM::SelectOp::create(b, loc, isNan, nan, result).getResult();
}
