//===- BuiltinsShape.cpp - reshape, permute, join, split, cat, ... --------===//
#include "Builtins.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

using namespace tessera::frontend;
using namespace tessera::frontend::codegen;
using llvm::failure;
using llvm::FailureOr;
namespace tt = mlir::tessera;

/// Triton's _unwrap_iterable: f(x, (1, 2)) and f(x, 1, 2) are the same.
static Value unwrapIterable(const Value &varargs) {
  llvm::ArrayRef<Value> elts = varargs.getElements();
  if (elts.size() == 1 && elts[0].isTuple())
    return elts[0];
  return varargs;
}

static FailureOr<std::vector<int64_t>>
readShape(FunctionCodegen &cg, const Value &v, const Expr *at) {
  FailureOr<std::vector<int64_t>> shape = cg.requireShape(v, "the shape", at);
  if (failed(shape))
    return failure();
  for (int64_t d : *shape)
    if (d <= 0 || !llvm::isPowerOf2_64(uint64_t(d)))
      return cg.fail(
          at ? at->getLoc().ptr : cg.curLoc,
          llvm::formatv("shape element {0} must be a power of 2", d));
  return shape;
}

static FailureOr<std::vector<int64_t>> readInts(FunctionCodegen &cg,
                                                const Value &v,
                                                llvm::StringRef what,
                                                const Expr *at) {
  std::vector<int64_t> out;
  llvm::SmallVector<Value> elts;
  if (v.isTuple())
    elts.append(v.getElements().begin(), v.getElements().end());
  else
    elts.push_back(v);
  for (const Value &e : elts) {
    FailureOr<int64_t> x = cg.requireInt(e, what, at);
    if (failed(x))
      return failure();
    out.push_back(*x);
  }
  return out;
}

static FailureOr<Value> broadcast(FunctionCodegen &cg, CallArgs &args) {
  FailureOr<BoundArgs> a =
      cg.bindArgs(args, "broadcast", {"input", "other"}, 2);
  if (failed(a))
    return failure();
  FailureOr<Value> x = cg.requireTensor((*a)[0], "input", a->exprs[0]);
  FailureOr<Value> y = cg.requireTensor((*a)[1], "other", a->exprs[1]);
  if (failed(x) || failed(y))
    return failure();
  auto r = cg.broadcastPair(*x, *y);
  if (failed(r))
    return failure();
  return Value::tuple({r->first, r->second});
}

static FailureOr<Value> broadcastTo(FunctionCodegen &cg, CallArgs &args) {
  FailureOr<BoundArgs> a =
      cg.bindArgs(args, "broadcast_to", {"input", "*shape"}, 1);
  if (failed(a))
    return failure();
  FailureOr<Value> x = cg.requireTensor((*a)[0], "input", a->exprs[0]);
  FailureOr<std::vector<int64_t>> shape =
      readShape(cg, unwrapIterable((*a)[1]), a->exprs[1]);
  if (failed(x) || failed(shape))
    return failure();
  return cg.broadcastTo(*x, *shape);
}

static FailureOr<Value> permuteImpl(FunctionCodegen &cg, CallArgs &args,
                                    bool isTrans) {
  FailureOr<BoundArgs> a =
      cg.bindArgs(args, isTrans ? "trans" : "permute", {"input", "*dims"}, 1);
  if (failed(a))
    return failure();
  FailureOr<Value> x = cg.requireTensor((*a)[0], "input", a->exprs[0]);
  if (failed(x))
    return failure();
  Value dimsV = unwrapIterable((*a)[1]);
  FailureOr<std::vector<int64_t>> dims =
      readInts(cg, dimsV, "a dimension", a->exprs[1]);
  if (failed(dims))
    return failure();
  if (isTrans && dims->empty()) {
    size_t n = x->getType().getShape().size();
    if (n < 2)
      return cg.fail("tl.trans invoked with a 0- or 1-dimensional tensor");
    for (size_t i = 0; i + 2 < n; ++i)
      dims->push_back(int64_t(i));
    dims->push_back(int64_t(n - 1));
    dims->push_back(int64_t(n - 2));
  }
  return cg.permute(*x, *dims);
}

static FailureOr<Value> reshapeImpl(FunctionCodegen &cg, CallArgs &args,
                                    bool isView) {
  std::vector<llvm::StringRef> params = {"input", "*shape"};
  if (!isView)
    params.push_back("can_reorder");
  FailureOr<BoundArgs> a =
      cg.bindArgs(args, isView ? "view" : "reshape", params, 1);
  if (failed(a))
    return failure();
  FailureOr<Value> x = cg.requireTensor((*a)[0], "input", a->exprs[0]);
  FailureOr<std::vector<int64_t>> shape =
      readShape(cg, unwrapIterable((*a)[1]), a->exprs[1]);
  if (failed(x) || failed(shape))
    return failure();
  bool canReorder = isView;
  if (!isView && a->has(2)) {
    FailureOr<bool> c = cg.requireBool((*a)[2], "can_reorder", a->exprs[2]);
    if (failed(c))
      return failure();
    canReorder = *c;
  }
  if (shape->empty())
    return unsplat(cg, *x);
  return cg.reshape(*x, *shape, canReorder);
}

static FailureOr<Value> expandDims(FunctionCodegen &cg, CallArgs &args) {
  FailureOr<BoundArgs> a =
      cg.bindArgs(args, "expand_dims", {"input", "axis"}, 2);
  if (failed(a))
    return failure();
  FailureOr<Value> x = cg.requireTensor((*a)[0], "input", a->exprs[0]);
  FailureOr<std::vector<int64_t>> axes =
      readInts(cg, (*a)[1], "an axis", a->exprs[1]);
  if (failed(x) || failed(axes))
    return failure();
  int64_t ndim = int64_t(x->getType().getShape().size() + axes->size());
  for (int64_t &ax : *axes) {
    if (ax < -ndim || ax >= ndim)
      return cg.fail(llvm::formatv("invalid axis {0}; expected {1} <= axis < "
                                   "{2}",
                                   ax, -ndim, ndim));
    if (ax < 0)
      ax += ndim;
  }
  llvm::sort(*axes);
  if (std::adjacent_find(axes->begin(), axes->end()) != axes->end())
    return cg.fail("expand_dims received duplicate axes");
  Value r = *x;
  for (int64_t ax : *axes)
    r = cg.expandDims(r, int(ax));
  return r;
}

static FailureOr<Value> join(FunctionCodegen &cg, CallArgs &args) {
  FailureOr<BoundArgs> a = cg.bindArgs(args, "join", {"a", "b"}, 2);
  if (failed(a))
    return failure();
  FailureOr<Value> x = cg.requireTensor((*a)[0], "a", a->exprs[0]);
  FailureOr<Value> y = cg.requireTensor((*a)[1], "b", a->exprs[1]);
  if (failed(x) || failed(y))
    return failure();
  auto xy = cg.broadcastPair(*x, *y);
  if (failed(xy))
    return failure();
  auto [l, r] = *xy;
  if (l.getType() != r.getType())
    return cg.fail("join needs operands of the same type, got " +
                   l.getType().str() + " and " + r.getType().str());
  bool wasScalar = !l.getType().isBlock();
  if (wasScalar) {
    l = cg.expandDims(l, 0);
    r = cg.expandDims(r, 0);
  }
  std::vector<int64_t> shape(l.getType().getShape());
  shape.push_back(2);
  TType type = TType::block(l.getType().getElement(), shape);
  auto op = tt::JoinOp::create(cg.b, cg.loc, type.toMLIR(cg.getContext()),
                               l.getHandle(), r.getHandle());
  Value joined = Value::tensor(op, type);
  if (wasScalar)
    return cg.reshape(joined, {2}, false);
  return joined;
}

static FailureOr<Value> split(FunctionCodegen &cg, CallArgs &args) {
  FailureOr<BoundArgs> a = cg.bindArgs(args, "split", {"a"}, 1);
  if (failed(a))
    return failure();
  FailureOr<Value> x = cg.requireTensor((*a)[0], "a", a->exprs[0]);
  if (failed(x))
    return failure();
  llvm::ArrayRef<int64_t> shape = x->getType().getShape();
  if (shape.empty() || shape.back() != 2)
    return cg.fail("split needs a tensor whose last dimension is 2, got " +
                   x->getType().str());
  Value v = *x;
  bool wasRank1 = shape.size() == 1;
  if (wasRank1)
    v = cg.expandDims(v, 0);
  std::vector<int64_t> outShape(v.getType().getShape().drop_back());
  TType type = TType::block(v.getType().getElement(), outShape);
  mlir::Type t = type.toMLIR(cg.getContext());
  auto op = tt::SplitOp::create(cg.b, cg.loc, t, t, v.getHandle());
  Value l = Value::tensor(op.getOutLHS(), type),
        r = Value::tensor(op.getOutRHS(), type);
  if (wasRank1) {
    FailureOr<Value> ls = unsplat(cg, l), rs = unsplat(cg, r);
    if (failed(ls) || failed(rs))
      return failure();
    l = *ls;
    r = *rs;
  }
  return Value::tuple({l, r});
}

static FailureOr<Value> cat(FunctionCodegen &cg, CallArgs &args) {
  FailureOr<BoundArgs> a =
      cg.bindArgs(args, "cat", {"input", "other", "can_reorder"}, 2);
  if (failed(a))
    return failure();
  FailureOr<Value> x = cg.requireTensor((*a)[0], "input", a->exprs[0]);
  FailureOr<Value> y = cg.requireTensor((*a)[1], "other", a->exprs[1]);
  FailureOr<bool> reorder = cg.requireBool((*a)[2], "can_reorder", a->exprs[2]);
  if (failed(x) || failed(y) || failed(reorder))
    return failure();
  if (!*reorder)
    return cg.fail("tl.cat may reorder elements: call it with "
                   "can_reorder=True");
  if (x->getType().getShape().size() != 1)
    return cg.fail("tl.cat supports rank-1 tensors only, got " +
                   x->getType().str());
  if (x->getType() != y->getType())
    return cg.fail("tl.cat needs operands of the same type, got " +
                   x->getType().str() + " and " + y->getType().str());
  TType type =
      TType::block(x->getType().getElement(), {2 * x->getType().getShape()[0]});
  auto op = tt::CatOp::create(cg.b, cg.loc, type.toMLIR(cg.getContext()),
                              x->getHandle(), y->getHandle());
  return Value::tensor(op, type);
}

static FailureOr<Value> interleave(FunctionCodegen &cg, CallArgs &args) {
  FailureOr<Value> c = join(cg, args);
  if (failed(c))
    return failure();
  llvm::ArrayRef<int64_t> shape = c->getType().getShape();
  if (shape.size() == 1)
    return *c;
  std::vector<int64_t> out(shape.begin(), shape.end() - 2);
  out.push_back(2 * shape[shape.size() - 2]);
  return cg.reshape(*c, out, false);
}

static FailureOr<Value> ravel(FunctionCodegen &cg, CallArgs &args) {
  FailureOr<BoundArgs> a = cg.bindArgs(args, "ravel", {"x", "can_reorder"}, 1);
  if (failed(a))
    return failure();
  FailureOr<Value> x = cg.requireTensor((*a)[0], "x", a->exprs[0]);
  FailureOr<bool> reorder = cg.requireBool((*a)[1], "can_reorder", a->exprs[1]);
  if (failed(x) || failed(reorder))
    return failure();
  return cg.reshape(
      *x, {x->getType().isBlock() ? x->getType().getNumElements() : 1},
      *reorder);
}

static FailureOr<Value> item(FunctionCodegen &cg, CallArgs &args) {
  FailureOr<BoundArgs> a = cg.bindArgs(args, "item", {"input"}, 1);
  if (failed(a))
    return failure();
  FailureOr<Value> x = cg.requireTensor((*a)[0], "input", a->exprs[0]);
  if (failed(x))
    return failure();
  return unsplat(cg, *x);
}

void tessera::frontend::codegen::registerShapeBuiltins(BuiltinRegistry &r) {
  r.add("triton.language.broadcast", broadcast);
  r.addWithMethod("broadcast_to", broadcastTo);
  r.addWithMethod("trans", [](FunctionCodegen &cg, CallArgs &a) {
    return permuteImpl(cg, a, true);
  });
  r.addWithMethod("permute", [](FunctionCodegen &cg, CallArgs &a) {
    return permuteImpl(cg, a, false);
  });
  r.addWithMethod("reshape", [](FunctionCodegen &cg, CallArgs &a) {
    return reshapeImpl(cg, a, false);
  });
  r.addWithMethod("view", [](FunctionCodegen &cg, CallArgs &a) {
    return reshapeImpl(cg, a, true);
  });
  r.addWithMethod("expand_dims", expandDims);
  r.add("triton.language.join", join);
  r.addWithMethod("split", split);
  r.add("triton.language.cat", cat);
  r.add("triton.language.interleave", interleave);
  r.addWithMethod("ravel", ravel);
  r.addWithMethod("item", item);
}
