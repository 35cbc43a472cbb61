//===- LoweringHooks.cpp - The hooks' defaults: decline -------------------===//
#include "tessera/Conversion/LoweringHooks.h"

using namespace mlir;
using namespace mlir::tessera;

LoweringHooks::~LoweringHooks() = default;

FailureOr<Value> LoweringHooks::getProgramId(OpBuilder &, Location, unsigned) {
  return failure();
}
FailureOr<Value> LoweringHooks::getNumPrograms(OpBuilder &, Location,
                                               unsigned) {
  return failure();
}
FailureOr<Value> LoweringHooks::getThreadId(OpBuilder &, Location) {
  return failure();
}
LogicalResult LoweringHooks::createBarrier(OpBuilder &, Location) {
  return failure();
}
FailureOr<Value> LoweringHooks::shuffleXor(OpBuilder &, Location, Value,
                                           unsigned) {
  return failure();
}
FailureOr<Value> LoweringHooks::warpReduce(OpBuilder &, Location, Value,
                                           WarpReduceKind, unsigned) {
  return failure();
}
FailureOr<Value> LoweringHooks::getSharedMemoryBase(OpBuilder &, Location) {
  return failure();
}
FailureOr<Value> LoweringHooks::loadGlobal(OpBuilder &, Location, Value, Type,
                                           Value, Value) {
  return failure();
}
LogicalResult LoweringHooks::storeGlobal(OpBuilder &, Location, Value, Value,
                                         Value) {
  return failure();
}
FailureOr<Value> LoweringHooks::loadShared(OpBuilder &, Location, Value, Type) {
  return failure();
}
LogicalResult LoweringHooks::storeShared(OpBuilder &, Location, Value, Value,
                                         Value) {
  return failure();
}
LogicalResult LoweringHooks::asyncCopy(OpBuilder &, Location, Value, Value,
                                       unsigned, Value) {
  return failure();
}
LogicalResult LoweringHooks::asyncCommitGroup(OpBuilder &, Location) {
  return failure();
}
LogicalResult LoweringHooks::asyncWait(OpBuilder &, Location, unsigned) {
  return failure();
}
std::string LoweringHooks::getSyncScope(StringRef) { return ""; }
FailureOr<SmallVector<Value>>
LoweringHooks::loadSharedTile(OpBuilder &, Location, const SharedTile &) {
  return failure();
}
FailureOr<SmallVector<Value>> LoweringHooks::lowerDot(OpBuilder &, Location,
                                                      const DotOperands &) {
  return failure();
}
FailureOr<SmallVector<Value>> LoweringHooks::waitForDots(OpBuilder &, Location,
                                                         ValueRange, unsigned) {
  return failure();
}
FailureOr<Value> LoweringHooks::narrowToFp8(OpBuilder &, Location, Value,
                                            FloatType) {
  return failure();
}
LogicalResult LoweringHooks::printf(OpBuilder &, Location, StringRef,
                                    ValueRange) {
  return failure();
}
LogicalResult LoweringHooks::assertFail(OpBuilder &, Location, StringRef,
                                        StringRef, StringRef, unsigned) {
  return failure();
}
void LoweringHooks::populatePatterns(LLVMTypeConverter &, RewritePatternSet &) {
}
void LoweringHooks::finalizeKernel(LLVM::LLVMFuncOp, unsigned) {}
