//===- BuiltinsMath.cpp - Elementwise math, fdiv, fma, umulhi and dot -----===//
#include "Builtins.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "llvm/Support/FormatVariadic.h"

using namespace tessera::frontend;
using namespace tessera::frontend::codegen;
using llvm::failure;
using llvm::FailureOr;
using llvm::LogicalResult;
using llvm::success;
namespace tt = mlir::tessera;
namespace math = mlir::math;

/// Triton's _check_dtype: the tensor arguments of a math function must have
/// one of `allowed` element types (as libdevice does).
static LogicalResult checkDTypes(FunctionCodegen &cg, const CallArgs &args,
                                 llvm::ArrayRef<ScalarKind> allowed) {
  auto check = [&](const Value &v, const Expr *at) -> LogicalResult {
    if (!v.isTensor())
      return success();
    for (ScalarKind k : allowed)
      if (v.getType().is(k))
        return success();
    std::string names;
    for (ScalarKind k : allowed)
      names += (names.empty() ? "" : ", ") + getScalarName(k).str();
    return cg.fail(at ? at->getLoc().ptr : cg.curLoc,
                   "expected dtype [" + names + "] but got " +
                       v.getType().getElement().str(),
                   "convert the argument with .to(tl.float32) first");
  };
  for (size_t i = 0; i < args.args.size(); ++i)
    if (failed(check(args.args[i], args.argExprs[i])))
      return failure();
  for (size_t i = 0; i < args.kwargs.size(); ++i)
    if (failed(check(args.kwargs[i].second, args.kwargExprs[i])))
      return failure();
  return success();
}

static const ScalarKind kF32F64[] = {ScalarKind::FP32, ScalarKind::FP64};

/// A math function of one floating-point argument (fp32 or fp64).
template <typename OpTy>
static FailureOr<Value> unaryFloat(FunctionCodegen &cg, CallArgs &args,
                                   llvm::StringRef name) {
  if (failed(checkDTypes(cg, args, kF32F64)))
    return failure();
  FailureOr<BoundArgs> a = cg.bindArgs(args, name, {"x"}, 1);
  if (failed(a))
    return failure();
  FailureOr<Value> x = cg.requireTensor((*a)[0], "x", a->exprs[0]);
  if (failed(x))
    return failure();
  if (!x->getType().isFloating())
    return cg.fail(name + " needs a floating-point argument, got " +
                   x->getType().str());
  return emitUnary<OpTy>(cg, *x);
}

static FailureOr<Value> sqrtRn(FunctionCodegen &cg, CallArgs &args) {
  static const ScalarKind f32[] = {ScalarKind::FP32};
  if (failed(checkDTypes(cg, args, f32)))
    return failure();
  FailureOr<BoundArgs> a = cg.bindArgs(args, "sqrt_rn", {"x"}, 1);
  if (failed(a))
    return failure();
  FailureOr<Value> x = cg.requireTensor((*a)[0], "x", a->exprs[0]);
  if (failed(x))
    return failure();
  return emitUnary<tt::PreciseSqrtOp>(cg, *x);
}

static FailureOr<Value> absBuiltin(FunctionCodegen &cg, CallArgs &args) {
  FailureOr<BoundArgs> a = cg.bindArgs(args, "abs", {"x"}, 1);
  if (failed(a))
    return failure();
  FailureOr<Value> x = cg.requireTensor((*a)[0], "x", a->exprs[0]);
  if (failed(x))
    return failure();
  const TType &t = x->getType();
  if (t.is(ScalarKind::FP8E4B15)) {
    // No native type: clear the sign bit of the byte.
    FailureOr<Value> bits = cg.bitcast(*x, TType::scalar(ScalarKind::Int8));
    if (failed(bits))
      return failure();
    FailureOr<Value> cleared =
        cg.bitwise(BinaryOpKind::BitAnd, *bits,
                   cg.splat(cg.scalarConstant(HostValue::integer(0x7F),
                                              TType::scalar(ScalarKind::Int8)),
                            t.getShape()));
    if (failed(cleared))
      return failure();
    return cg.bitcast(*cleared, t.getElement());
  }
  if (t.isFloating())
    return emitUnary<math::AbsFOp>(cg, *x);
  if (t.isSignedInt())
    return emitUnary<math::AbsIOp>(cg, *x);
  if (t.isUnsignedInt())
    return *x;
  return cg.fail("unexpected dtype " + t.str() + " for abs");
}

static FailureOr<Value> fdiv(FunctionCodegen &cg, CallArgs &args) {
  FailureOr<BoundArgs> a =
      cg.bindArgs(args, "fdiv", {"x", "y", "ieee_rounding"}, 2);
  if (failed(a))
    return failure();
  FailureOr<Value> x = cg.requireTensor((*a)[0], "x", a->exprs[0]);
  FailureOr<Value> y = cg.requireTensor((*a)[1], "y", a->exprs[1]);
  if (failed(x) || failed(y))
    return failure();
  if (!x->getType().isFloating() || !y->getType().isFloating())
    return cg.fail("both operands of fdiv must have floating scalar type");
  auto xy = cg.binaryTypeCheck(*x, *y, false, false, false, true);
  if (failed(xy))
    return failure();
  if (xy->first.getType() != xy->second.getType())
    return cg.fail("fdiv needs operands of the same type, got " +
                   xy->first.getType().str() + " and " +
                   xy->second.getType().str());
  auto op = mlir::arith::DivFOp::create(cg.b, cg.loc, xy->first.getHandle(),
                                        xy->second.getHandle());
  return Value::tensor(op, xy->first.getType());
}

static FailureOr<Value> divRn(FunctionCodegen &cg, CallArgs &args) {
  static const ScalarKind f32[] = {ScalarKind::FP32};
  if (failed(checkDTypes(cg, args, f32)))
    return failure();
  FailureOr<BoundArgs> a = cg.bindArgs(args, "div_rn", {"x", "y"}, 2);
  if (failed(a))
    return failure();
  FailureOr<Value> x = cg.requireTensor((*a)[0], "x", a->exprs[0]);
  FailureOr<Value> y = cg.requireTensor((*a)[1], "y", a->exprs[1]);
  if (failed(x) || failed(y))
    return failure();
  auto xy = cg.binaryTypeCheck(*x, *y);
  if (failed(xy))
    return failure();
  auto op = tt::PreciseDivFOp::create(cg.b, cg.loc, xy->first.getHandle(),
                                      xy->second.getHandle());
  return Value::tensor(op, xy->first.getType());
}

static FailureOr<Value> fma(FunctionCodegen &cg, CallArgs &args) {
  FailureOr<BoundArgs> a = cg.bindArgs(args, "fma", {"x", "y", "z"}, 3);
  if (failed(a))
    return failure();
  FailureOr<Value> x = cg.requireTensor((*a)[0], "x", a->exprs[0]);
  FailureOr<Value> y = cg.requireTensor((*a)[1], "y", a->exprs[1]);
  FailureOr<Value> z = cg.requireTensor((*a)[2], "z", a->exprs[2]);
  if (failed(x) || failed(y) || failed(z))
    return failure();
  auto xy = cg.binaryTypeCheck(*x, *y);
  if (failed(xy))
    return failure();
  auto zx = cg.binaryTypeCheck(*z, xy->first);
  if (failed(zx))
    return failure();
  auto zy = cg.binaryTypeCheck(zx->first, xy->second);
  if (failed(zy))
    return failure();
  Value xv = zx->second, yv = zy->second, zv = zy->first;
  FailureOr<Value> xb = cg.broadcastTo(xv, zv.getType().getShape());
  if (failed(xb))
    return failure();
  if (!zv.getType().isFloating())
    return cg.fail("fma needs floating-point operands, got " +
                   zv.getType().str());
  auto op = math::FmaOp::create(cg.b, cg.loc, xb->getHandle(), yv.getHandle(),
                                zv.getHandle());
  return Value::tensor(op, zv.getType());
}

static FailureOr<Value> umulhi(FunctionCodegen &cg, CallArgs &args) {
  static const ScalarKind ints[] = {ScalarKind::Int32, ScalarKind::Int64,
                                    ScalarKind::UInt32, ScalarKind::UInt64};
  if (failed(checkDTypes(cg, args, ints)))
    return failure();
  FailureOr<BoundArgs> a = cg.bindArgs(args, "umulhi", {"x", "y"}, 2);
  if (failed(a))
    return failure();
  FailureOr<Value> x = cg.requireTensor((*a)[0], "x", a->exprs[0]);
  FailureOr<Value> y = cg.requireTensor((*a)[1], "y", a->exprs[1]);
  if (failed(x) || failed(y))
    return failure();
  auto xy = cg.binaryTypeCheck(*x, *y);
  if (failed(xy))
    return failure();
  auto op = tt::MulhiUIOp::create(cg.b, cg.loc, xy->first.getHandle(),
                                  xy->second.getHandle());
  return Value::tensor(op, xy->first.getType());
}

static FailureOr<Value> callUnary(FunctionCodegen &cg, llvm::StringRef name,
                                  const Value &x) {
  CallArgs args;
  args.loc = cg.curLoc;
  args.add(x);
  std::optional<FailureOr<Value>> r = cg.callBuiltin(name, args);
  return *r;
}

/// tl.sigmoid, a jit function in Triton: 1 / (1 + exp(-x)).
static FailureOr<Value> sigmoid(FunctionCodegen &cg, CallArgs &args) {
  FailureOr<BoundArgs> a = cg.bindArgs(args, "sigmoid", {"x"}, 1);
  if (failed(a))
    return failure();
  FailureOr<Value> x = cg.requireTensor((*a)[0], "x", a->exprs[0]);
  if (failed(x))
    return failure();
  FailureOr<Value> neg = cg.minus(*x);
  if (failed(neg))
    return failure();
  FailureOr<Value> e = callUnary(cg, "triton.language.exp", *neg);
  if (failed(e))
    return failure();
  FailureOr<Value> den = cg.add(Value::constant(HostValue::integer(1)), *e);
  if (failed(den))
    return failure();
  return cg.trueDiv(Value::constant(HostValue::integer(1)), *den);
}

/// tl.softmax, a jit function in Triton:
///   z = x - max(x, dim); num = exp(z); fdiv(num, sum(num, dim)).
static FailureOr<Value> softmax(FunctionCodegen &cg, CallArgs &args) {
  FailureOr<BoundArgs> a = cg.bindArgs(
      args, "softmax", {"x", "dim", "keep_dims", "ieee_rounding"}, 1);
  if (failed(a))
    return failure();
  FailureOr<Value> x = cg.requireTensor((*a)[0], "x", a->exprs[0]);
  if (failed(x))
    return failure();
  Value dim =
      (*a)[1].isNone() ? Value::constant(HostValue::integer(0)) : (*a)[1];
  Value keep =
      (*a)[2].isNone() ? Value::constant(HostValue::boolean(false)) : (*a)[2];
  auto reduce = [&](llvm::StringRef name, const Value &v) {
    CallArgs r;
    r.loc = cg.curLoc;
    r.add(v);
    r.add(dim);
    r.addKeyword("keep_dims", keep);
    std::optional<FailureOr<Value>> out = cg.callBuiltin(name, r);
    return *out;
  };
  FailureOr<Value> mx = reduce("triton.language.max", *x);
  if (failed(mx))
    return failure();
  FailureOr<Value> z = cg.sub(*x, *mx);
  if (failed(z))
    return failure();
  FailureOr<Value> num = callUnary(cg, "triton.language.exp", *z);
  if (failed(num))
    return failure();
  FailureOr<Value> den = reduce("triton.language.sum", *num);
  if (failed(den))
    return failure();
  CallArgs d;
  d.loc = cg.curLoc;
  d.add(*num);
  d.add(*den);
  return fdiv(cg, d);
}

static FailureOr<tt::InputPrecision>
parsePrecision(FunctionCodegen &cg, llvm::StringRef s, const Expr *at) {
  std::string lower = s.lower();
  if (lower == "tf32")
    return tt::InputPrecision::tf32;
  if (lower == "tf32x3")
    return tt::InputPrecision::tf32x3;
  if (lower == "ieee")
    return tt::InputPrecision::ieee;
  if (lower == "bf16x3")
    return tt::InputPrecision::bf16x3;
  if (lower == "bf16x6")
    return tt::InputPrecision::bf16x6;
  return cg.fail(at ? at->getLoc().ptr : cg.curLoc,
                 "input_precision must be one of tf32, tf32x3, ieee, bf16x3, "
                 "bf16x6; got '" +
                     s + "'");
}

static FailureOr<Value> dot(FunctionCodegen &cg, CallArgs &args) {
  FailureOr<BoundArgs> a =
      cg.bindArgs(args, "dot",
                  {"input", "other", "acc", "input_precision", "allow_tf32",
                   "max_num_imprecise_acc", "out_dtype"},
                  2);
  if (failed(a))
    return failure();
  if (!(*a)[0].isBlock() || !(*a)[1].isBlock())
    return cg.fail("both operands of dot must be blocks, got " +
                   (*a)[0].typeStr() + " and " + (*a)[1].typeStr());
  Value lhs = (*a)[0], rhs = (*a)[1];
  if (a->has(3) && a->has(4))
    return cg.fail("only one of input_precision and allow_tf32 can be "
                   "specified");
  std::string precision = "tf32";
  if (a->has(3)) {
    FailureOr<std::string> p =
        cg.requireString((*a)[3], "input_precision", a->exprs[3]);
    if (failed(p))
      return failure();
    precision = *p;
  } else if (a->has(4)) {
    FailureOr<bool> allow = cg.requireBool((*a)[4], "allow_tf32", a->exprs[4]);
    if (failed(allow))
      return failure();
    precision = *allow ? "tf32" : "ieee";
  }
  FailureOr<tt::InputPrecision> prec =
      parsePrecision(cg, precision, a->exprs[3]);
  if (failed(prec))
    return failure();
  TType outDType = TType::scalar(ScalarKind::FP32);
  if (a->has(6)) {
    FailureOr<TType> o = cg.requireDType((*a)[6], "out_dtype", a->exprs[6]);
    if (failed(o))
      return failure();
    outDType = *o;
  }

  llvm::ArrayRef<int64_t> as = lhs.getType().getShape(),
                          bs = rhs.getType().getShape();
  if (as.size() != bs.size() || as.size() < 2)
    return cg.fail(llvm::formatv("the operands of dot must have equal ranks "
                                 ">= 2, got {0} and {1}",
                                 lhs.getType().str(), rhs.getType().str()));
  if (as.drop_back(2) != bs.drop_back(2))
    return cg.fail("the operands of dot must have equal batch shapes, got " +
                   lhs.getType().str() + " and " + rhs.getType().str());
  if (as.back() != bs[bs.size() - 2])
    return cg.fail(llvm::formatv("the reduction dimensions of dot differ: {0} "
                                 "is {1}x{2} and {3} is {4}x{5}",
                                 lhs.getType().str(), as[as.size() - 2],
                                 as.back(), rhs.getType().str(),
                                 bs[bs.size() - 2], bs.back()));
  std::vector<int64_t> cShape(as.begin(), as.end() - 1);
  cShape.push_back(bs.back());
  std::optional<Value> acc;
  if (!(*a)[2].isNone()) {
    FailureOr<Value> c = cg.requireTensor((*a)[2], "acc", a->exprs[2]);
    if (failed(c))
      return failure();
    if (c->getType().getShape() != llvm::ArrayRef<int64_t>(cShape))
      return cg.fail(a->exprs[2] ? a->exprs[2]->getLoc().ptr : cg.curLoc,
                     "the accumulator has type " + c->getType().str() +
                         ", incompatible with the product's shape");
    acc = *c;
  }
  // Ranks above 3 multiply as one batch dimension.
  size_t rank = cShape.size();
  if (rank >= 4) {
    int64_t batch = 1;
    for (size_t i = 0; i + 2 < rank; ++i)
      batch *= cShape[i];
    FailureOr<Value> l =
        cg.reshape(lhs, {batch, as[as.size() - 2], as.back()}, false);
    FailureOr<Value> r =
        cg.reshape(rhs, {batch, bs[bs.size() - 2], bs.back()}, false);
    if (failed(l) || failed(r))
      return failure();
    lhs = *l;
    rhs = *r;
    if (acc) {
      FailureOr<Value> c =
          cg.reshape(*acc, {batch, cShape[rank - 2], cShape[rank - 1]}, false);
      if (failed(c))
        return failure();
      acc = *c;
    }
  }

  const TType &lt = lhs.getType().getElement(),
              &rt = rhs.getType().getElement();
  if (!(lt.isFP8() && rt.isFP8())) {
    auto allowed = [](const TType &t) {
      return t.is(ScalarKind::Int8) || t.is(ScalarKind::UInt8) ||
             t.is(ScalarKind::FP16) || t.is(ScalarKind::BF16) ||
             t.is(ScalarKind::FP32) || t.is(ScalarKind::FP64);
    };
    if (!allowed(lt))
      return cg.fail("unsupported lhs dtype " + lt.str() + " for dot");
    if (!allowed(rt))
      return cg.fail("unsupported rhs dtype " + rt.str() + " for dot");
    if (lt != rt)
      return cg.fail("both operands of dot must have the same dtype, got " +
                     lt.str() + " and " + rt.str());
  }
  if (lt.is(ScalarKind::FP8E4B15) || rt.is(ScalarKind::FP8E4B15)) {
    FailureOr<Value> l = cg.castTo(lhs, TType::scalar(ScalarKind::FP16));
    FailureOr<Value> r = cg.castTo(rhs, TType::scalar(ScalarKind::FP16));
    if (failed(l) || failed(r))
      return failure();
    lhs = *l;
    rhs = *r;
  }
  TType retElem;
  if (lhs.getType().isInt()) {
    if (!lhs.getType().is(ScalarKind::Int8))
      return cg.fail("integer dot supports int8 operands only");
    retElem = TType::scalar(ScalarKind::Int32);
  } else if (outDType.is(ScalarKind::BF16)) {
    return cg.fail("out_dtype=bfloat16 is unsupported",
                   "use out_dtype=tl.float32 (or tl.float16) and convert "
                   "with .to(tl.bfloat16)");
  } else if (lhs.getType().is(ScalarKind::FP32) ||
             lhs.getType().is(ScalarKind::BF16)) {
    retElem = TType::scalar(ScalarKind::FP32);
  } else if (lhs.getType().is(ScalarKind::FP64)) {
    retElem = TType::scalar(ScalarKind::FP64);
  } else {
    retElem = outDType;
  }
  std::vector<int64_t> retShape(lhs.getType().getShape().begin(),
                                lhs.getType().getShape().end() - 1);
  retShape.push_back(rhs.getType().getShape().back());
  TType retType = TType::block(retElem, retShape);
  Value c;
  if (!acc) {
    c = cg.zeroValue(retType);
  } else {
    if (acc->getType().getElement() != outDType)
      return cg.fail(a->exprs[2] ? a->exprs[2]->getLoc().ptr : cg.curLoc,
                     "the accumulator's element type " +
                         acc->getType().getElement().str() +
                         " must be out_dtype (" + outDType.str() + ")");
    if (acc->getType() != retType)
      return cg.fail(a->exprs[2] ? a->exprs[2]->getLoc().ptr : cg.curLoc,
                     "the accumulator has type " + acc->getType().str() +
                         " but the product has type " + retType.str());
    c = *acc;
  }
  int64_t k = lhs.getType().getShape().back();
  int64_t maxImprecise = 0;
  if (a->has(5)) {
    FailureOr<int64_t> m =
        cg.requireInt((*a)[5], "max_num_imprecise_acc", a->exprs[5]);
    if (failed(m))
      return failure();
    if (lt.isFP8() && rt.isFP8() && *m > k)
      return cg.fail(llvm::formatv("max_num_imprecise_acc ({0}) must be <= K "
                                   "({1})",
                                   *m, k));
    maxImprecise = (lt.isFP8() && rt.isFP8()) ? *m : 0;
  }
  auto op = tt::DotOp::create(
      cg.b, cg.loc, lhs.getHandle(), rhs.getHandle(), c.getHandle(),
      tt::InputPrecisionAttr::get(cg.getContext(), *prec),
      cg.b.getI32IntegerAttr(int32_t(maxImprecise)));
  Value result = Value::tensor(op, retType);
  if (rank >= 4)
    return cg.reshape(result, cShape, false);
  return result;
}

/// `x.logical_and(y)` / `x.logical_or(y)`.
template <bool IsAnd>
static FailureOr<Value> logicalMethod(FunctionCodegen &cg, CallArgs &args) {
  FailureOr<BoundArgs> b =
      cg.bindArgs(args, IsAnd ? "logical_and" : "logical_or",
                  {"self", "other"}, 2);
  if (failed(b))
    return failure();
  return cg.logicalAndOr(IsAnd, (*b)[0], (*b)[1]);
}

void tessera::frontend::codegen::registerMathBuiltins(BuiltinRegistry &r) {
  // tensor.logical_and / logical_or: `and` / `or` of two tensors.
  for (bool isAnd : {true, false})
    r.add(isAnd ? "tensor.logical_and" : "tensor.logical_or",
          isAnd ? logicalMethod<true> : logicalMethod<false>);
  r.addWithMethod("exp", [](FunctionCodegen &cg, CallArgs &a) {
    return unaryFloat<math::ExpOp>(cg, a, "exp");
  });
  r.addWithMethod("exp2", [](FunctionCodegen &cg, CallArgs &a) {
    return unaryFloat<math::Exp2Op>(cg, a, "exp2");
  });
  r.addWithMethod("log", [](FunctionCodegen &cg, CallArgs &a) {
    return unaryFloat<math::LogOp>(cg, a, "log");
  });
  r.addWithMethod("log2", [](FunctionCodegen &cg, CallArgs &a) {
    return unaryFloat<math::Log2Op>(cg, a, "log2");
  });
  r.addWithMethod("cos", [](FunctionCodegen &cg, CallArgs &a) {
    return unaryFloat<math::CosOp>(cg, a, "cos");
  });
  r.addWithMethod("sin", [](FunctionCodegen &cg, CallArgs &a) {
    return unaryFloat<math::SinOp>(cg, a, "sin");
  });
  r.addWithMethod("sqrt", [](FunctionCodegen &cg, CallArgs &a) {
    return unaryFloat<math::SqrtOp>(cg, a, "sqrt");
  });
  r.addWithMethod("rsqrt", [](FunctionCodegen &cg, CallArgs &a) {
    return unaryFloat<math::RsqrtOp>(cg, a, "rsqrt");
  });
  r.addWithMethod("erf", [](FunctionCodegen &cg, CallArgs &a) {
    return unaryFloat<math::ErfOp>(cg, a, "erf");
  });
  r.addWithMethod("floor", [](FunctionCodegen &cg, CallArgs &a) {
    return unaryFloat<math::FloorOp>(cg, a, "floor");
  });
  r.addWithMethod("ceil", [](FunctionCodegen &cg, CallArgs &a) {
    return unaryFloat<math::CeilOp>(cg, a, "ceil");
  });
  r.addWithMethod("sqrt_rn", sqrtRn);
  r.addWithMethod("abs", absBuiltin);
  r.add("triton.language.fdiv", fdiv);
  r.add("triton.language.div_rn", divRn);
  r.add("triton.language.fma", fma);
  r.add("triton.language.umulhi", umulhi);
  r.addWithMethod("sigmoid", sigmoid);
  r.addWithMethod("softmax", softmax);
  r.add("triton.language.dot", dot);
}
