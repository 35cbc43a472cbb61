//===- CrossLane.cpp - Exchanges between the lanes of a wavefront ---------===//
#include "CrossLane.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "tessera/Conversion/LoweringUtils.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tessera;
using namespace mlir::tessera::amdgpu;

namespace {

/// `value` (i32) as lane `dpp_ctrl` selects it, every row and bank enabled.
Value movDpp(OpBuilder &b, Location loc, Value value, unsigned control) {
  Value args[] = {
      value,
      value,
      createI32(b, loc, control),
      createI32(b, loc, 0xf),
      createI32(b, loc, 0xf),
      LLVM::ConstantOp::create(b, loc, b.getI1Type(), b.getBoolAttr(false))};
  return LLVM::CallIntrinsicOp::create(
             b, loc, b.getI32Type(),
             b.getStringAttr("llvm.amdgcn.update.dpp.i32"), args)
      .getResult(0);
}

/// This lane's index in the wavefront (0 to 63).
Value laneId(OpBuilder &b, Location loc) {
  Type i32 = b.getI32Type();
  Value low = ROCDL::MbcntLoOp::create(b, loc, i32, createI32(b, loc, -1),
                                       createI32(b, loc, 0),
                                       /*arg_attrs=*/nullptr,
                                       /*res_attrs=*/nullptr);
  return ROCDL::MbcntHiOp::create(b, loc, i32, createI32(b, loc, -1), low,
                                  /*arg_attrs=*/nullptr,
                                  /*res_attrs=*/nullptr);
}

/// The i32 `value` of lane `lane ^ laneMask`.
Value shuffleI32(OpBuilder &b, Location loc, Value value, unsigned laneMask) {
  if (laneMask < 4)
    return movDpp(
        b, loc, value,
        dpp::quadPerm(0 ^ laneMask, 1 ^ laneMask, 2 ^ laneMask, 3 ^ laneMask));
  Type i32 = b.getI32Type();
  if (laneMask < 32)
    return ROCDL::DsSwizzleOp::create(
        b, loc, i32, value, createI32(b, loc, dsSwizzleXorOffset(laneMask)));
  Value address = LLVM::ShlOp::create(
      b, loc,
      LLVM::XOrOp::create(b, loc, laneId(b, loc), createI32(b, loc, laneMask)),
      createI32(b, loc, 2));
  return ROCDL::DsBpermuteOp::create(b, loc, i32, address, value);
}

bool isFloatKind(WarpReduceKind kind) {
  return kind == WarpReduceKind::FAdd || kind == WarpReduceKind::FMul ||
         kind == WarpReduceKind::MinF || kind == WarpReduceKind::MaxF ||
         kind == WarpReduceKind::MinNumF || kind == WarpReduceKind::MaxNumF;
}

Value combine(OpBuilder &b, Location loc, WarpReduceKind kind, Value x,
              Value y) {
  switch (kind) {
  case WarpReduceKind::Add:
    return LLVM::AddOp::create(b, loc, x, y);
  case WarpReduceKind::FAdd:
    return LLVM::FAddOp::create(b, loc, x, y);
  case WarpReduceKind::Mul:
    return LLVM::MulOp::create(b, loc, x, y);
  case WarpReduceKind::FMul:
    return LLVM::FMulOp::create(b, loc, x, y);
  case WarpReduceKind::MinS:
    return LLVM::SMinOp::create(b, loc, x, y);
  case WarpReduceKind::MinU:
    return LLVM::UMinOp::create(b, loc, x, y);
  case WarpReduceKind::MaxS:
    return LLVM::SMaxOp::create(b, loc, x, y);
  case WarpReduceKind::MaxU:
    return LLVM::UMaxOp::create(b, loc, x, y);
  case WarpReduceKind::MinF:
    return LLVM::MinimumOp::create(b, loc, x, y);
  case WarpReduceKind::MaxF:
    return LLVM::MaximumOp::create(b, loc, x, y);
  case WarpReduceKind::MinNumF:
    return LLVM::MinNumOp::create(b, loc, x, y);
  case WarpReduceKind::MaxNumF:
    return LLVM::MaxNumOp::create(b, loc, x, y);
  case WarpReduceKind::And:
    return LLVM::AndOp::create(b, loc, x, y);
  case WarpReduceKind::Or:
    return LLVM::OrOp::create(b, loc, x, y);
  case WarpReduceKind::Xor:
    return LLVM::XOrOp::create(b, loc, x, y);
  }
  llvm_unreachable("unknown reduction kind");
}

} // namespace

FailureOr<Value> amdgpu::shuffleXorWave64(OpBuilder &b, Location loc,
                                          Value value, unsigned laneMask) {
  Type type = value.getType();
  if ((!type.isInteger(32) && !type.isF32()) || laneMask == 0 || laneMask > 63)
    return failure();
  Type i32 = b.getI32Type();
  Value bits =
      type.isF32() ? LLVM::BitcastOp::create(b, loc, i32, value) : value;
  Value got = shuffleI32(b, loc, bits, laneMask);
  return type.isF32() ? LLVM::BitcastOp::create(b, loc, type, got) : got;
}

FailureOr<Value> amdgpu::reduceWave64(OpBuilder &b, Location loc, Value value,
                                      WarpReduceKind kind, unsigned laneMask) {
  Type type = value.getType();
  bool floating = isFloatKind(kind);
  if (!(floating ? type.isF32() : type.isInteger(32)) || laneMask == 0 ||
      laneMask > 63 || !llvm::isPowerOf2_32(laneMask + 1))
    return failure();
  Type i32 = b.getI32Type();
  auto toBits = [&](Value v) {
    return floating ? LLVM::BitcastOp::create(b, loc, i32, v).getResult() : v;
  };
  auto fromBits = [&](Value v) {
    return floating ? LLVM::BitcastOp::create(b, loc, type, v).getResult() : v;
  };
  // Bits 0 and 1: quad permutations. Bits 2 and 3: with the lower bits
  // reduced every lane of a quad (an 8-lane half row) holds the same value,
  // so the mirrored lane is as good as the XOR partner. Bit 4: ds_swizzle.
  for (unsigned bit = 0; (1u << bit) <= laneMask && bit < 5; ++bit) {
    Value partner;
    if (bit < 2)
      partner = shuffleI32(b, loc, toBits(value), 1u << bit);
    else if (bit == 2)
      partner = movDpp(b, loc, toBits(value), dpp::kRowHalfMirror);
    else if (bit == 3)
      partner = movDpp(b, loc, toBits(value), dpp::kRowMirror);
    else
      partner = shuffleI32(b, loc, toBits(value), 16);
    value = combine(b, loc, kind, value, fromBits(partner));
  }
  if (laneMask & 32) {
    // Each half holds its result in every lane: read one lane of each into
    // scalar registers and combine them there.
    Value bits = toBits(value);
    Value low =
        ROCDL::ReadlaneOp::create(b, loc, i32, bits, createI32(b, loc, 0));
    Value high =
        ROCDL::ReadlaneOp::create(b, loc, i32, bits, createI32(b, loc, 32));
    value = combine(b, loc, kind, fromBits(low), fromBits(high));
  }
  return value;
}
