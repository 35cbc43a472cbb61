//===- LoweringUtils.cpp - Builders for lowering hooks --------------------===//
#include "tessera/Conversion/LoweringUtils.h"

#include "llvm/ADT/Hashing.h"

using namespace mlir;
using namespace mlir::tessera;

Value mlir::tessera::createI32(OpBuilder &b, Location loc, int64_t value) {
  return LLVM::ConstantOp::create(b, loc, b.getI32Type(),
                                  b.getI32IntegerAttr(int32_t(value)));
}

Value mlir::tessera::createI64(OpBuilder &b, Location loc, int64_t value) {
  return LLVM::ConstantOp::create(b, loc, b.getI64Type(),
                                  b.getI64IntegerAttr(value));
}

Value mlir::tessera::createConstant(OpBuilder &b, Location loc, Type type,
                                    int64_t value) {
  if (auto f = dyn_cast<FloatType>(type))
    return LLVM::ConstantOp::create(b, loc, type,
                                    b.getFloatAttr(f, double(value)));
  return LLVM::ConstantOp::create(b, loc, type, b.getIntegerAttr(type, value));
}

Value mlir::tessera::createZero(OpBuilder &b, Location loc, Type type) {
  return LLVM::ZeroOp::create(b, loc, type);
}

ModuleOp mlir::tessera::getEnclosingModule(OpBuilder &b) {
  Operation *op = b.getInsertionBlock()->getParentOp();
  return isa<ModuleOp>(op) ? cast<ModuleOp>(op)
                           : op->getParentOfType<ModuleOp>();
}

LLVM::LLVMFuncOp mlir::tessera::declareFunction(OpBuilder &b, Location loc,
                                                StringRef name,
                                                LLVM::LLVMFunctionType type) {
  ModuleOp module = getEnclosingModule(b);
  if (auto existing = module.lookupSymbol<LLVM::LLVMFuncOp>(name))
    return existing;
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(module.getBody());
  return LLVM::LLVMFuncOp::create(b, loc, name, type);
}

Value mlir::tessera::getStringPointer(OpBuilder &b, Location loc,
                                      StringRef text, StringRef prefix,
                                      unsigned addressSpace) {
  ModuleOp module = getEnclosingModule(b);
  std::string data = text.str();
  data.push_back('\0');
  std::string name =
      (prefix + "_" + std::to_string(llvm::hash_value(data) & 0xffffffff))
          .str();
  if (!module.lookupSymbol(name)) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(module.getBody());
    LLVM::GlobalOp::create(
        b, loc, LLVM::LLVMArrayType::get(b.getI8Type(), data.size()),
        /*isConstant=*/true, LLVM::Linkage::Internal, name,
        b.getStringAttr(data), /*alignment=*/1, addressSpace);
  }
  Value global = LLVM::AddressOfOp::create(
      b, loc, LLVM::LLVMPointerType::get(b.getContext(), addressSpace), name);
  if (addressSpace == 0)
    return global;
  return LLVM::AddrSpaceCastOp::create(
      b, loc, LLVM::LLVMPointerType::get(b.getContext()), global);
}

SmallVector<Value> mlir::tessera::emitIf(
    RewriterBase &rewriter, Location loc, Value pred, ValueRange otherwise,
    llvm::function_ref<SmallVector<Value>(OpBuilder &)> body) {
  Block *before = rewriter.getInsertionBlock();
  Block *after = rewriter.splitBlock(before, rewriter.getInsertionPoint());
  for (Value v : otherwise)
    after->addArgument(v.getType(), loc);
  Block *then = rewriter.createBlock(after);
  rewriter.setInsertionPointToEnd(then);
  SmallVector<Value> yielded = body(rewriter);
  LLVM::BrOp::create(rewriter, loc, yielded, after);
  rewriter.setInsertionPointToEnd(before);
  LLVM::CondBrOp::create(rewriter, loc, pred, then, ValueRange{}, after,
                         otherwise);
  rewriter.setInsertionPointToStart(after);
  return SmallVector<Value>(after->getArguments());
}
