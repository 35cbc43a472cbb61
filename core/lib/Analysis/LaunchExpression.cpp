//===- LaunchExpression.cpp - Values a launch computes on the host --------===//
#include "tessera/Analysis/LaunchExpression.h"

#include "tessera/Dialect/Tessera/IR/Dialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"

using namespace mlir;
using namespace mlir::tessera;

namespace {

/// Appends `value`'s program to `out`; `depth` bounds the walk (the
/// expressions worth hoisting are small).
LogicalResult emit(Value value, std::string &out, unsigned depth) {
  if (depth > 32)
    return failure();
  auto append = [&](const std::string &token) {
    if (!out.empty())
      out += ' ';
    out += token;
  };
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    auto func = dyn_cast<func::FuncOp>(arg.getOwner()->getParentOp());
    if (!func || arg.getOwner() != &func.getBody().front())
      return failure();
    append("p" + std::to_string(arg.getArgNumber()));
    return success();
  }
  Operation *op = value.getDefiningOp();
  if (auto constant = dyn_cast_or_null<arith::ConstantOp>(op)) {
    auto attr = dyn_cast<IntegerAttr>(constant.getValue());
    if (!attr || attr.getType().isInteger(1))
      return failure();
    append(std::to_string(attr.getValue().getSExtValue()));
    return success();
  }
  auto binary = [&](Value lhs, Value rhs, StringRef token) {
    if (failed(emit(lhs, out, depth + 1)) || failed(emit(rhs, out, depth + 1)))
      return failure();
    append(token.str());
    return success();
  };
  // 64-bit arithmetic gives the same result as narrower arithmetic that
  // does not wrap, which is what a shape or stride computation means.
  if (auto add = dyn_cast_or_null<arith::AddIOp>(op))
    return binary(add.getLhs(), add.getRhs(), "+");
  if (auto sub = dyn_cast_or_null<arith::SubIOp>(op))
    return binary(sub.getLhs(), sub.getRhs(), "-");
  if (auto mul = dyn_cast_or_null<arith::MulIOp>(op))
    return binary(mul.getLhs(), mul.getRhs(), "*");
  if (auto ext = dyn_cast_or_null<arith::ExtSIOp>(op))
    return emit(ext.getIn(), out, depth + 1);
  if (auto addptr = dyn_cast_or_null<AddPtrOp>(op)) {
    auto ptr = dyn_cast<PointerType>(addptr.getPtr().getType());
    Type pointee = ptr ? ptr.getPointeeType() : Type();
    if (!pointee || !pointee.isIntOrFloat())
      return failure();
    unsigned bytes = std::max(1u, pointee.getIntOrFloatBitWidth() / 8);
    if (failed(emit(addptr.getPtr(), out, depth + 1)) ||
        failed(emit(addptr.getOffset(), out, depth + 1)))
      return failure();
    append(std::to_string(bytes));
    append("*");
    append("+");
    return success();
  }
  return failure();
}

} // namespace

FailureOr<std::string> mlir::tessera::getLaunchExpression(Value value) {
  std::string out;
  if (failed(emit(value, out, 0)))
    return failure();
  return out;
}
