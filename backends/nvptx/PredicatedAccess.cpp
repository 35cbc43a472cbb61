//===- PredicatedAccess.cpp - Masked memory accesses as predicated PTX ----===//
#include "PredicatedAccess.h"

#include "InlinePtx.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

using namespace mlir;
using namespace mlir::tessera;

namespace {

/// The size in bytes of a scalar or vector register value (pointers: 8).
unsigned getStoreBytes(Type type) {
  if (isa<LLVM::LLVMPointerType>(type))
    return 8;
  if (auto vector = dyn_cast<VectorType>(type)) {
    unsigned element = getStoreBytes(vector.getElementType());
    return element ? element * vector.getNumElements() : 0;
  }
  if (type.isIntOrFloat())
    return (type.getIntOrFloatBitWidth() + 7) / 8;
  return 0;
}

/// `value` as the PTX registers of a `bytes`-byte access: one 8-bit (in a
/// 16-bit register), 16-bit or 32-bit word up to 4 bytes, else 32-bit words.
SmallVector<Value> toWords(OpBuilder &b, Location loc, Value value,
                           unsigned bytes) {
  if (isa<LLVM::LLVMPointerType>(value.getType()))
    value = LLVM::PtrToIntOp::create(b, loc, b.getI64Type(), value);
  if (value.getType().isInteger(1))
    value = LLVM::ZExtOp::create(b, loc, b.getI8Type(), value);
  if (bytes <= 4) {
    Type word = b.getIntegerType(bytes * 8);
    Value bits = value.getType() == word
                     ? value
                     : LLVM::BitcastOp::create(b, loc, word, value).getResult();
    if (bytes == 1)
      bits = LLVM::ZExtOp::create(b, loc, b.getI16Type(), bits);
    return {bits};
  }
  unsigned count = bytes / 4;
  auto vector = VectorType::get({int64_t(count)}, b.getI32Type());
  Value words = LLVM::BitcastOp::create(b, loc, vector, value);
  SmallVector<Value> out;
  for (unsigned i = 0; i < count; ++i)
    out.push_back(LLVM::ExtractElementOp::create(
        b, loc, words,
        LLVM::ConstantOp::create(b, loc, b.getI32Type(), b.getI32IntegerAttr(i))));
  return out;
}

/// True when `pred` is the LLVM constant true.
bool isAlwaysTrue(Value pred) {
  auto constant = pred.getDefiningOp<LLVM::ConstantOp>();
  if (!constant)
    return false;
  auto value = dyn_cast<IntegerAttr>(constant.getValue());
  return value && value.getValue().getBoolValue();
}

Value predicateFlag(OpBuilder &b, Location loc, Value pred) {
  return LLVM::ZExtOp::create(b, loc, b.getI32Type(), pred);
}

} // namespace

LogicalResult nvptx::emitPredicatedGlobalStore(OpBuilder &b, Location loc,
                                               Value ptr, Value value,
                                               Value pred) {
  if (isAlwaysTrue(pred))
    return failure();
  unsigned bytes = getStoreBytes(value.getType());
  if (bytes != 1 && bytes != 2 && bytes != 4 && bytes != 8 && bytes != 16)
    return failure();
  SmallVector<Value> words = toWords(b, loc, value, bytes);
  // $0: the predicate, $1: the address, then the words.
  std::string type = bytes == 1   ? "b8"
                     : bytes == 2 ? "b16"
                     : bytes == 4 ? "b32"
                     : bytes == 8 ? "v2.b32"
                                  : "v4.b32";
  std::string operands;
  std::string constraints = "r,l";
  for (unsigned i = 0; i < words.size(); ++i) {
    operands += (i ? ", $" : "$") + std::to_string(i + 2);
    constraints += bytes <= 2 ? ",h" : ",r";
  }
  if (words.size() > 1)
    operands = "{" + operands + "}";
  std::string text = "{\n.reg .pred p;\nsetp.ne.b32 p, $0, 0;\n@p st.global." +
                     type + " [$1], " + operands + ";\n}";
  SmallVector<Value> args = {predicateFlag(b, loc, pred), ptr};
  args.append(words.begin(), words.end());
  emitInlinePtx(b, loc, Type(), args, text, constraints);
  return success();
}

LogicalResult nvptx::emitNarrowCopyToShared(OpBuilder &b, Location loc,
                                            Value dst, Value src,
                                            unsigned bytes, Value pred) {
  if (bytes != 1 && bytes != 2)
    return failure();
  std::string width = bytes == 1 ? "b8" : "b16";
  std::string text = "{\n.reg .pred p;\n.reg .b16 v;\n"
                     "setp.ne.b32 p, $2, 0;\nmov.b16 v, 0;\n"
                     "@p ld.global." +
                     width + " v, [$1];\nst.shared." + width + " [$0], v;\n}";
  emitInlinePtx(b, loc, Type(), ValueRange{dst, src, predicateFlag(b, loc, pred)},
                text, "r,l,r");
  return success();
}
