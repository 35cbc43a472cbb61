//===- NarrowCopy.cpp - Copies too narrow for cp.async --------------------===//
#include "NarrowCopy.h"

#include "InlinePtx.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

using namespace mlir;
using namespace mlir::tessera;

namespace {

Value predicateFlag(OpBuilder &b, Location loc, Value pred) {
  return LLVM::ZExtOp::create(b, loc, b.getI32Type(), pred);
}

} // namespace

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
  emitInlinePtx(b, loc, Type(),
                ValueRange{dst, src, predicateFlag(b, loc, pred)}, text,
                "r,l,r");
  return success();
}
