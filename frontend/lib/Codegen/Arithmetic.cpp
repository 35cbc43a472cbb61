//===- Arithmetic.cpp - Operators on tensors
//-------------------------------===//
//
// Triton's binary, unary, comparison and logical operators on tensors,
// with its implicit conversions: integers compute in C's promoted type and
// divide and take remainders as C does (sdiv/srem, udiv/urem for unsigned),
// `/` always divides in floating point, comparisons convert Python numbers
// to tensors first.
//
//===----------------------------------------------------------------------===//
#include "CodeGen.h"

#include "tessera/Frontend/Codegen/Promotion.h"

using namespace tessera::frontend;
using namespace tessera::frontend::codegen;
using llvm::failure;
using llvm::FailureOr;
namespace arith = mlir::arith;
namespace tt = mlir::tessera;

namespace {
/// Emits `OpTy(a, b)` with the type of `a`.
template <typename OpTy>
Value emitBinary(FunctionCodegen &cg, const Value &a, const Value &b) {
  auto op = OpTy::create(cg.b, cg.loc, a.getHandle(), b.getHandle());
  return Value::tensor(op, a.getType());
}
} // namespace

FailureOr<Value> FunctionCodegen::binaryOp(BinaryOpKind op, const Value &lhs,
                                           const Value &rhs) {
  switch (op) {
  case BinaryOpKind::Add:
    return add(lhs, rhs);
  case BinaryOpKind::Sub:
    return sub(lhs, rhs);
  case BinaryOpKind::Mult:
    return mul(lhs, rhs);
  case BinaryOpKind::Div:
    return trueDiv(lhs, rhs);
  case BinaryOpKind::FloorDiv:
    return floorDiv(lhs, rhs);
  case BinaryOpKind::Mod:
    return mod(lhs, rhs);
  case BinaryOpKind::LShift:
  case BinaryOpKind::RShift:
    return shift(op, lhs, rhs);
  case BinaryOpKind::BitAnd:
  case BinaryOpKind::BitOr:
  case BinaryOpKind::BitXor:
    return bitwise(op, lhs, rhs);
  case BinaryOpKind::Pow:
    return fail("the '**' operator is not supported on tensors",
                "multiply explicitly, or use tl.exp2 / libdevice.pow");
  case BinaryOpKind::MatMult:
    return fail("the '@' operator is not supported on tensors",
                "use tl.dot(a, b)");
  }
  return failure();
}

FailureOr<Value> FunctionCodegen::add(const Value &a, const Value &b0) {
  auto checked = binaryTypeCheck(a, b0, true, true);
  if (failed(checked))
    return failure();
  auto [lhs, rhs] = *checked;
  const TType &lt = lhs.getType().getElement(),
              &rt = rhs.getType().getElement();
  if (lt.isPointer() && rt.isPointer())
    return fail("cannot add pointers together");
  if (rt.isPointer())
    std::swap(lhs, rhs);
  if (lhs.getType().getElement().isPointer()) {
    Value offset = rhs;
    // addptr reads its offset as signed: zero-extend narrow unsigned ones.
    if (offset.getType().isUnsignedInt() &&
        offset.getType().getPrimitiveBitwidth() < 64) {
      TType i64 =
          offset.getType().withElement(TType::scalar(ScalarKind::Int64));
      offset =
          Value::tensor(arith::ExtUIOp::create(b, loc, i64.toMLIR(getContext()),
                                               offset.getHandle()),
                        i64);
    }
    auto op = tt::AddPtrOp::create(b, loc, lhs.getType().toMLIR(getContext()),
                                   lhs.getHandle(), offset.getHandle());
    return Value::tensor(op, lhs.getType());
  }
  if (lhs.getType().isFloating())
    return emitBinary<arith::AddFOp>(*this, lhs, rhs);
  if (lhs.getType().isInt())
    return emitBinary<arith::AddIOp>(*this, lhs, rhs);
  return fail("unexpected type " + lhs.getType().str() + " in '+'");
}

FailureOr<Value> FunctionCodegen::sub(const Value &a, const Value &b0) {
  auto checked = binaryTypeCheck(a, b0, true, false);
  if (failed(checked))
    return failure();
  auto [lhs, rhs] = *checked;
  if (lhs.getType().getElement().isPointer()) {
    FailureOr<Value> neg = minus(rhs);
    if (failed(neg))
      return failure();
    return add(lhs, *neg);
  }
  if (lhs.getType().isFloating())
    return emitBinary<arith::SubFOp>(*this, lhs, rhs);
  if (lhs.getType().isInt())
    return emitBinary<arith::SubIOp>(*this, lhs, rhs);
  return fail("unexpected type " + lhs.getType().str() + " in '-'");
}

FailureOr<Value> FunctionCodegen::mul(const Value &a, const Value &b0) {
  auto checked = binaryTypeCheck(a, b0);
  if (failed(checked))
    return failure();
  auto [lhs, rhs] = *checked;
  if (lhs.getType().isFloating())
    return emitBinary<arith::MulFOp>(*this, lhs, rhs);
  if (lhs.getType().isInt())
    return emitBinary<arith::MulIOp>(*this, lhs, rhs);
  return fail("unexpected type " + lhs.getType().str() + " in '*'");
}

FailureOr<Value> FunctionCodegen::trueDiv(const Value &a, const Value &b0) {
  auto checked = binaryTypeCheck(a, b0, false, false, true, true);
  if (failed(checked))
    return failure();
  auto [lhs, rhs] = *checked;
  const TType &lt = lhs.getType(), &rt = rhs.getType();
  FailureOr<Value> l = lhs, r = rhs;
  if (lt.isFloating() && rt.isInt()) {
    r = castTo(rhs, lt.getElement());
  } else if (lt.isInt() && rt.isFloating()) {
    l = castTo(lhs, rt.getElement());
  } else if (lt.isInt() && rt.isInt()) {
    l = castTo(lhs, TType::scalar(ScalarKind::FP32));
    r = castTo(rhs, TType::scalar(ScalarKind::FP32));
  } else if (lt.isFloating() && rt.isFloating()) {
    if (lt.getFPMantissaWidth() > rt.getFPMantissaWidth())
      r = castTo(rhs, lt.getElement());
    else
      l = castTo(lhs, rt.getElement());
  } else {
    return fail("unexpected type " + lt.str() + " in '/'");
  }
  if (failed(l) || failed(r))
    return failure();
  return emitBinary<arith::DivFOp>(*this, *l, *r);
}

FailureOr<Value> FunctionCodegen::floorDiv(const Value &a, const Value &b0) {
  auto checked = binaryTypeCheck(a, b0, false, false, true, true);
  if (failed(checked))
    return failure();
  auto [lhs, rhs] = *checked;
  if (!lhs.getType().isInt() || !rhs.getType().isInt())
    return fail("'//' needs integer operands, got " + lhs.getType().str(),
                "use '/' for floating-point division (and tl.floor to round)");
  // Integer division truncates toward zero, as in C (not Python).
  if (lhs.getType().isSignedInt())
    return emitBinary<arith::DivSIOp>(*this, lhs, rhs);
  return emitBinary<arith::DivUIOp>(*this, lhs, rhs);
}

FailureOr<Value> FunctionCodegen::mod(const Value &a, const Value &b0) {
  auto checked = binaryTypeCheck(a, b0, false, false, true, true);
  if (failed(checked))
    return failure();
  auto [lhs, rhs] = *checked;
  if (lhs.getType().isFloating())
    return emitBinary<arith::RemFOp>(*this, lhs, rhs);
  if (!lhs.getType().isInt())
    return fail("unexpected type " + lhs.getType().str() + " in '%'");
  // The remainder has the sign of the dividend, as in C (not Python).
  if (lhs.getType().isSignedInt())
    return emitBinary<arith::RemSIOp>(*this, lhs, rhs);
  return emitBinary<arith::RemUIOp>(*this, lhs, rhs);
}

/// The operands of a bitwise operator or shift: both integers, converted
/// to their promoted type.
static FailureOr<std::pair<Value, Value>> integerOperands(FunctionCodegen &cg,
                                                          BinaryOpKind op,
                                                          const Value &a,
                                                          const Value &b) {
  auto checked = cg.binaryTypeCheck(a, b);
  if (failed(checked))
    return failure();
  auto [lhs, rhs] = *checked;
  if (!lhs.getType().isInt() || !rhs.getType().isInt())
    return cg.fail("invalid operands of type " + lhs.getType().str() + " and " +
                       rhs.getType().str() + " for '" + getSpelling(op) + "'",
                   "bitwise operators and shifts need integer (or boolean) "
                   "operands");
  TType ret = promoteIntegers(lhs.getType(), rhs.getType());
  FailureOr<Value> l = cg.castTo(lhs, ret), r = cg.castTo(rhs, ret);
  if (failed(l) || failed(r))
    return failure();
  return std::make_pair(*l, *r);
}

FailureOr<Value> FunctionCodegen::bitwise(BinaryOpKind op, const Value &a,
                                          const Value &b0) {
  auto operands = integerOperands(*this, op, a, b0);
  if (failed(operands))
    return failure();
  auto [l, r] = *operands;
  switch (op) {
  case BinaryOpKind::BitAnd:
    return emitBinary<arith::AndIOp>(*this, l, r);
  case BinaryOpKind::BitOr:
    return emitBinary<arith::OrIOp>(*this, l, r);
  default:
    return emitBinary<arith::XOrIOp>(*this, l, r);
  }
}

FailureOr<Value> FunctionCodegen::shift(BinaryOpKind op, const Value &a,
                                        const Value &b0) {
  // `>>` is arithmetic when the tensor the operator was called on is signed.
  const Value &self = a.isTensor() ? a : b0;
  bool arithmetic = self.isTensor() && self.getType().isSignedInt();
  auto operands = integerOperands(*this, op, a, b0);
  if (failed(operands))
    return failure();
  auto [l, r] = *operands;
  if (op == BinaryOpKind::LShift)
    return emitBinary<arith::ShLIOp>(*this, l, r);
  if (arithmetic)
    return emitBinary<arith::ShRSIOp>(*this, l, r);
  return emitBinary<arith::ShRUIOp>(*this, l, r);
}

FailureOr<Value> FunctionCodegen::compare(CmpOpKind op, const Value &a,
                                          const Value &b0) {
  FailureOr<Value> at = toTensor(a), bt = toTensor(b0);
  if (failed(at) || failed(bt))
    return failure();
  auto checked = binaryTypeCheck(*at, *bt);
  if (failed(checked))
    return failure();
  auto [lhs, rhs] = *checked;
  TType boolTy = lhs.getType().withElement(TType::scalar(ScalarKind::Int1));
  if (lhs.getType().isFloating()) {
    using P = arith::CmpFPredicate;
    P pred;
    switch (op) {
    case CmpOpKind::Eq:
      pred = P::OEQ;
      break;
    case CmpOpKind::NotEq:
      pred = P::UNE;
      break;
    case CmpOpKind::Lt:
      pred = P::OLT;
      break;
    case CmpOpKind::LtE:
      pred = P::OLE;
      break;
    case CmpOpKind::Gt:
      pred = P::OGT;
      break;
    case CmpOpKind::GtE:
      pred = P::OGE;
      break;
    default:
      return fail("unsupported comparison '" + getSpelling(op) +
                  "' on tensors");
    }
    auto cmp =
        arith::CmpFOp::create(b, loc, pred, lhs.getHandle(), rhs.getHandle());
    return Value::tensor(cmp, boolTy);
  }
  if (lhs.getType().isInt()) {
    using P = arith::CmpIPredicate;
    bool s = lhs.getType().isSignedInt();
    P pred;
    switch (op) {
    case CmpOpKind::Eq:
      pred = P::eq;
      break;
    case CmpOpKind::NotEq:
      pred = P::ne;
      break;
    case CmpOpKind::Lt:
      pred = s ? P::slt : P::ult;
      break;
    case CmpOpKind::LtE:
      pred = s ? P::sle : P::ule;
      break;
    case CmpOpKind::Gt:
      pred = s ? P::sgt : P::ugt;
      break;
    case CmpOpKind::GtE:
      pred = s ? P::sge : P::uge;
      break;
    default:
      return fail("unsupported comparison '" + getSpelling(op) +
                  "' on tensors");
    }
    auto cmp =
        arith::CmpIOp::create(b, loc, pred, lhs.getHandle(), rhs.getHandle());
    return Value::tensor(cmp, boolTy);
  }
  return fail("cannot compare values of type " + lhs.getType().str());
}

FailureOr<Value> FunctionCodegen::minus(const Value &v) {
  if (v.getType().getElement().isPointer())
    return fail("wrong type argument to unary minus (" + v.getType().str() +
                ")");
  // Triton negates as 0 - x (so -(0.0) is +0.0).
  Value zero = scalarConstant(HostValue::integer(0), v.getType().getElement());
  return sub(zero, v);
}

FailureOr<Value> FunctionCodegen::invert(const Value &v) {
  if (!v.getType().isInt())
    return fail("wrong type argument to unary invert (" + v.getType().str() +
                ")");
  Value ones = scalarConstant(HostValue::integer(-1), v.getType().getElement());
  return bitwise(BinaryOpKind::BitXor, v, ones);
}

FailureOr<Value> FunctionCodegen::logicalNot(const Value &v) {
  FailureOr<Value> asBool = bitcast(v, TType::scalar(ScalarKind::Int1));
  if (failed(asBool))
    return failure();
  return invert(*asBool);
}

FailureOr<Value> FunctionCodegen::logicalAndOr(bool isAnd, const Value &a,
                                               const Value &b0) {
  FailureOr<Value> at = toTensor(a), bt = toTensor(b0);
  if (failed(at) || failed(bt))
    return failure();
  FailureOr<Value> l = bitcast(*at, TType::scalar(ScalarKind::Int1));
  if (failed(l))
    return failure();
  FailureOr<Value> r = bitcast(*bt, TType::scalar(ScalarKind::Int1));
  if (failed(r))
    return failure();
  return bitwise(isAnd ? BinaryOpKind::BitAnd : BinaryOpKind::BitOr, *l, *r);
}

FailureOr<Value> FunctionCodegen::where(const Value &condIn, const Value &x,
                                        const Value &y) {
  FailureOr<Value> cond = toTensor(condIn);
  if (failed(cond))
    return failure();
  cond = castTo(*cond, TType::scalar(ScalarKind::Int1));
  if (failed(cond))
    return failure();
  auto checked = binaryTypeCheck(x, y, true, true);
  if (failed(checked))
    return failure();
  auto [xv, yv] = *checked;
  Value c = *cond;
  if (c.getType().isBlock()) {
    auto cx = broadcastPair(c, xv);
    if (failed(cx))
      return failure();
    std::tie(c, xv) = *cx;
    auto xy = broadcastPair(xv, yv);
    if (failed(xy))
      return failure();
    std::tie(xv, yv) = *xy;
    auto c2 = broadcastTo(c, xv.getType().getShape());
    if (failed(c2))
      return failure();
    c = *c2;
  } else {
    c = splat(c, xv.getType().getShape());
  }
  auto op = arith::SelectOp::create(b, loc, c.getHandle(), xv.getHandle(),
                                    yv.getHandle());
  return Value::tensor(op, xv.getType());
}

FailureOr<Value> FunctionCodegen::minMax(bool isMax, const Value &x0,
                                         const Value &y0, bool propagateNan) {
  FailureOr<Value> x = toTensor(x0), y = toTensor(y0);
  if (failed(x) || failed(y))
    return failure();
  // No bf16 min/max in hardware: Triton computes them in fp32.
  for (FailureOr<Value> *v : {&x, &y})
    if ((*v)->getType().is(ScalarKind::BF16)) {
      *v = castTo(**v, TType::scalar(ScalarKind::FP32));
      if (failed(*v))
        return failure();
    }
  auto checked = binaryTypeCheck(*x, *y);
  if (failed(checked))
    return failure();
  auto [l, r] = *checked;
  const TType &t = l.getType();
  if (t.isFloating()) {
    if (propagateNan)
      return isMax ? emitBinary<arith::MaximumFOp>(*this, l, r)
                   : emitBinary<arith::MinimumFOp>(*this, l, r);
    return isMax ? emitBinary<arith::MaxNumFOp>(*this, l, r)
                 : emitBinary<arith::MinNumFOp>(*this, l, r);
  }
  if (t.isSignedInt())
    return isMax ? emitBinary<arith::MaxSIOp>(*this, l, r)
                 : emitBinary<arith::MinSIOp>(*this, l, r);
  if (t.isUnsignedInt())
    return isMax ? emitBinary<arith::MaxUIOp>(*this, l, r)
                 : emitBinary<arith::MinUIOp>(*this, l, r);
  return fail("unexpected dtype " + t.str() + " for a minimum or maximum");
}
