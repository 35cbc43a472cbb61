//===- ScalarLoad.cpp - Masked scalar loads as predicated PTX -------------===//
#include "ScalarLoad.h"

#include "InlinePtx.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::tessera;

FailureOr<Value> nvptx::emitPredicatedScalarLoad(OpBuilder &b, Location loc,
                                                 Value ptr, Type type,
                                                 Value pred, Value other) {
  if (!type.isIntOrFloat() || matchPattern(pred, m_One()))
    return failure();
  unsigned bits = type.getIntOrFloatBitWidth();
  // PTX has no 8-bit registers: a byte is loaded into a 16-bit one.
  unsigned regBits = std::max(16u, bits);
  StringRef constraint;
  switch (bits) {
  case 8:
  case 16:
    constraint = "h";
    break;
  case 32:
    constraint = "r";
    break;
  case 64:
    constraint = "l";
    break;
  default:
    return failure();
  }
  Type bitsType = b.getIntegerType(bits);
  Type regType = b.getIntegerType(regBits);
  Value otherBits =
      type == bitsType
          ? other
          : LLVM::BitcastOp::create(b, loc, bitsType, other).getResult();
  if (regBits != bits)
    otherBits = LLVM::ZExtOp::create(b, loc, regType, otherBits);
  std::string width = "b" + std::to_string(bits);
  std::string regWidth = "b" + std::to_string(regBits);
  // The result starts as `other` and the load overwrites it where `pred`
  // (a predicate register, "b") holds.
  std::string text =
      "mov." + regWidth + " $0, $1;\n@$3 ld.global." + width + " $0, [$2];";
  std::string constraints =
      ("=" + constraint + "," + constraint + ",l,b").str();
  Value loaded =
      emitInlinePtx(b, loc, regType, ValueRange{otherBits, ptr, pred}, text,
                    constraints)
          .getResult(0);
  if (regBits != bits)
    loaded = LLVM::TruncOp::create(b, loc, bitsType, loaded);
  if (type != bitsType)
    loaded = LLVM::BitcastOp::create(b, loc, type, loaded);
  return loaded;
}
