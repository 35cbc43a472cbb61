//===- BuiltinsReduce.cpp - Reductions, scans and histograms --------------===//
//
// Reductions and scans build a tessera.reduce / tessera.scan whose combine
// region is produced by a body callback on the region's scalar arguments.
// tl.reduce and tl.associative_scan lower the user's jit combine function
// on those scalars (a call to its scalar specialization, which the core
// inlines); the standard reductions (sum, max, argmax, ...) emit the
// operations Triton's standard library combines with.
//
//===----------------------------------------------------------------------===//
#include "Builtins.h"

#include "llvm/Support/FormatVariadic.h"

using namespace tessera::frontend;
using namespace tessera::frontend::codegen;
using llvm::failure;
using llvm::FailureOr;
using llvm::LogicalResult;
using llvm::success;
namespace tt = mlir::tessera;

/// Builds the single-block combine region of `op` over `elemTypes` and
/// terminates it with `Ret`.
template <typename Ret>
static LogicalResult buildCombine(FunctionCodegen &cg, mlir::Region &region,
                                  llvm::ArrayRef<TType> elemTypes,
                                  CombineBody body) {
  mlir::OpBuilder::InsertPoint ip = cg.b.saveInsertionPoint();
  llvm::SmallVector<mlir::Type> types;
  llvm::SmallVector<mlir::Location> locs;
  for (int pass = 0; pass < 2; ++pass)
    for (const TType &t : elemTypes) {
      types.push_back(t.toMLIR(cg.getContext()));
      locs.push_back(cg.loc);
    }
  mlir::Block *block = cg.b.createBlock(&region, {}, types, locs);
  std::vector<Value> lhs, rhs;
  size_t n = elemTypes.size();
  for (size_t i = 0; i < n; ++i) {
    lhs.push_back(Value::tensor(block->getArgument(i), elemTypes[i]));
    rhs.push_back(Value::tensor(block->getArgument(n + i), elemTypes[i]));
  }
  FailureOr<std::vector<Value>> results = body(cg, lhs, rhs);
  if (failed(results)) {
    cg.b.restoreInsertionPoint(ip);
    return failure();
  }
  if (results->size() != n) {
    cg.b.restoreInsertionPoint(ip);
    return cg.fail(llvm::formatv("the combine function must return {0} "
                                 "value(s), it returns {1}",
                                 n, results->size()));
  }
  llvm::SmallVector<mlir::Value> handles;
  for (size_t i = 0; i < n; ++i) {
    const Value &r = (*results)[i];
    if (!r.isTensor() || r.getType() != elemTypes[i]) {
      cg.b.restoreInsertionPoint(ip);
      return cg.fail("the combine function returns " + r.typeStr() +
                     " for operand " + std::to_string(i) + ", which holds " +
                     elemTypes[i].str());
    }
    handles.push_back(r.getHandle());
  }
  Ret::create(cg.b, cg.loc, handles);
  cg.b.restoreInsertionPoint(ip);
  return success();
}

FailureOr<std::vector<Value>> tessera::frontend::codegen::emitReduce(
    FunctionCodegen &cg, llvm::ArrayRef<Value> inputsIn,
    std::optional<int64_t> axisIn, bool keepDims, CombineBody body) {
  std::vector<Value> inputs(inputsIn.begin(), inputsIn.end());
  for (const Value &v : inputs)
    if (!v.isBlock())
      return cg.fail("reductions need block operands, got " + v.typeStr());
  size_t origRank = inputs[0].getType().getShape().size();
  int64_t axis;
  if (!axisIn) {
    for (Value &v : inputs) {
      FailureOr<Value> flat =
          cg.reshape(v, {v.getType().getNumElements()}, /*canReorder=*/true);
      if (failed(flat))
        return failure();
      v = *flat;
    }
    axis = 0;
  } else {
    axis = *axisIn;
    int64_t rank = int64_t(origRank);
    if (axis < -rank || axis >= rank)
      return cg.fail(llvm::formatv("invalid axis {0}; expected {1} <= axis < "
                                   "{2}",
                                   axis, -rank, rank));
    if (axis < 0)
      axis += rank;
  }
  llvm::ArrayRef<int64_t> shape = inputs[0].getType().getShape();
  for (const Value &v : inputs)
    if (v.getType().getShape() != shape)
      return cg.fail("all reduction inputs must have the same shape");
  std::vector<int64_t> retShape;
  for (size_t i = 0; i < shape.size(); ++i)
    if (int64_t(i) != axis)
      retShape.push_back(shape[i]);
  llvm::SmallVector<mlir::Type> resultTypes;
  llvm::SmallVector<mlir::Value> srcs;
  std::vector<TType> elemTypes, retTypes;
  for (const Value &v : inputs) {
    const TType &e = v.getType().getElement();
    elemTypes.push_back(e);
    TType rt = retShape.empty() ? e : TType::block(e, retShape);
    retTypes.push_back(rt);
    resultTypes.push_back(rt.toMLIR(cg.getContext()));
    srcs.push_back(v.getHandle());
  }
  auto op =
      tt::ReduceOp::create(cg.b, cg.loc, resultTypes, srcs, uint32_t(axis));
  if (failed(buildCombine<tt::ReduceReturnOp>(cg, op.getCombineOp(), elemTypes,
                                              body)))
    return failure();
  std::vector<Value> results;
  for (size_t i = 0; i < inputs.size(); ++i) {
    Value r = Value::tensor(op.getResult(i), retTypes[i]);
    if (keepDims) {
      if (axisIn)
        r = cg.expandDims(r, int(axis));
      else
        for (size_t d = 0; d < origRank; ++d)
          r = cg.expandDims(r, 0);
    }
    results.push_back(r);
  }
  return results;
}

FailureOr<Value> tessera::frontend::codegen::unsplat(FunctionCodegen &cg,
                                                     const Value &v) {
  if (!v.getType().isBlock())
    return v;
  if (v.getType().getNumElements() != 1)
    return cg.fail("can only convert single-element tensors to scalars, got " +
                   v.getType().str());
  FailureOr<std::vector<Value>> r =
      emitReduce(cg, {v}, std::nullopt, false,
                 [](FunctionCodegen &, llvm::ArrayRef<Value> lhs,
                    llvm::ArrayRef<Value>) -> FailureOr<std::vector<Value>> {
                   return std::vector<Value>(lhs.begin(), lhs.end());
                 });
  if (failed(r))
    return failure();
  return (*r)[0];
}

/// An optional constexpr axis (None means every axis).
static FailureOr<std::optional<int64_t>>
readAxis(FunctionCodegen &cg, const Value &v, const Expr *at) {
  if (v.isNone())
    return std::optional<int64_t>();
  FailureOr<int64_t> axis = cg.requireInt(v, "axis", at);
  if (failed(axis))
    return failure();
  return std::optional<int64_t>(*axis);
}

/// The combine body that calls jit function `fn` on the scalars.
static CombineBody jitCombine(const HostFunction &fn) {
  return [&fn](FunctionCodegen &cg, llvm::ArrayRef<Value> lhs,
               llvm::ArrayRef<Value> rhs) -> FailureOr<std::vector<Value>> {
    CallArgs args;
    args.loc = cg.curLoc;
    for (const Value &v : lhs)
      args.add(v);
    for (const Value &v : rhs)
      args.add(v);
    FailureOr<Value> r = cg.callJitFunction(fn, args);
    if (failed(r))
      return failure();
    if (r->isTuple())
      return r->getElements().vec();
    return std::vector<Value>{*r};
  };
}

/// The inputs of tl.reduce / tl.associative_scan: a tensor or a tuple.
static FailureOr<std::vector<Value>>
readInputs(FunctionCodegen &cg, const Value &v, const Expr *at) {
  std::vector<Value> inputs;
  if (v.isTuple()) {
    for (const Value &e : v.getElements()) {
      FailureOr<Value> t = cg.requireTensor(e, "a reduction input", at);
      if (failed(t))
        return failure();
      inputs.push_back(*t);
    }
  } else {
    FailureOr<Value> t = cg.requireTensor(v, "the reduction input", at);
    if (failed(t))
      return failure();
    inputs.push_back(*t);
  }
  if (inputs.empty())
    return cg.fail("nothing to reduce");
  return inputs;
}

static FailureOr<const HostFunction *>
readCombineFn(FunctionCodegen &cg, const Value &v, const Expr *at) {
  if (v.isConstexpr() && v.getHost().isFunction() &&
      v.getHost().getFunction().isJit)
    return &v.getHost().getFunction();
  return cg.fail(at ? at->getLoc().ptr : cg.curLoc,
                 "combine_fn must be a @triton.jit function, got " +
                     v.typeStr());
}

static FailureOr<Value> reduceBuiltin(FunctionCodegen &cg, CallArgs &args) {
  FailureOr<BoundArgs> a = cg.bindArgs(
      args, "reduce", {"input", "axis", "combine_fn", "keep_dims"}, 3);
  if (failed(a))
    return failure();
  FailureOr<std::vector<Value>> inputs = readInputs(cg, (*a)[0], a->exprs[0]);
  FailureOr<std::optional<int64_t>> axis = readAxis(cg, (*a)[1], a->exprs[1]);
  FailureOr<const HostFunction *> fn = readCombineFn(cg, (*a)[2], a->exprs[2]);
  FailureOr<bool> keep = cg.requireBool((*a)[3], "keep_dims", a->exprs[3]);
  if (failed(inputs) || failed(axis) || failed(fn) || failed(keep))
    return failure();
  FailureOr<std::vector<Value>> r =
      emitReduce(cg, *inputs, *axis, *keep, jitCombine(**fn));
  if (failed(r))
    return failure();
  if (!(*a)[0].isTuple())
    return (*r)[0];
  return Value::tuple(*r);
}

/// Combines with one arith op per element type (float or integer form).
template <typename FloatOp, typename IntOp>
static FailureOr<std::vector<Value>> arithCombine(FunctionCodegen &cg,
                                                  llvm::ArrayRef<Value> lhs,
                                                  llvm::ArrayRef<Value> rhs) {
  std::vector<Value> out;
  for (size_t i = 0; i < lhs.size(); ++i) {
    mlir::Value r;
    if (lhs[i].getType().isFloating())
      r = FloatOp::create(cg.b, cg.loc, lhs[i].getHandle(), rhs[i].getHandle());
    else
      r = IntOp::create(cg.b, cg.loc, lhs[i].getHandle(), rhs[i].getHandle());
    out.push_back(Value::tensor(r, lhs[i].getType()));
  }
  return out;
}

/// Triton's _pick_sum_dtype: narrow integers sum in 32 bits.
static std::optional<TType> pickSumDType(const TType &in) {
  if (in.isSignedInt() && in.getPrimitiveBitwidth() < 32)
    return TType::scalar(ScalarKind::Int32);
  if (in.isUnsignedInt() && in.getPrimitiveBitwidth() < 32)
    return TType::scalar(ScalarKind::UInt32);
  return std::nullopt;
}

static FailureOr<Value> sum(FunctionCodegen &cg, CallArgs &args) {
  FailureOr<BoundArgs> a =
      cg.bindArgs(args, "sum", {"input", "axis", "keep_dims", "dtype"}, 1);
  if (failed(a))
    return failure();
  FailureOr<Value> in = cg.requireTensor((*a)[0], "input", a->exprs[0]);
  FailureOr<std::optional<int64_t>> axis = readAxis(cg, (*a)[1], a->exprs[1]);
  FailureOr<bool> keep = cg.requireBool((*a)[2], "keep_dims", a->exprs[2]);
  if (failed(in) || failed(axis) || failed(keep))
    return failure();
  std::optional<TType> dtype;
  if (a->has(3)) {
    FailureOr<TType> d = cg.requireDType((*a)[3], "dtype", a->exprs[3]);
    if (failed(d))
      return failure();
    dtype = *d;
  } else {
    dtype = pickSumDType(in->getType().getElement());
  }
  Value x = *in;
  if (dtype) {
    FailureOr<Value> c = cg.castTo(x, *dtype);
    if (failed(c))
      return failure();
    x = *c;
  }
  FailureOr<std::vector<Value>> r =
      emitReduce(cg, {x}, *axis, *keep,
                 arithCombine<mlir::arith::AddFOp, mlir::arith::AddIOp>);
  if (failed(r))
    return failure();
  return (*r)[0];
}

static FailureOr<Value> promoteBF16(FunctionCodegen &cg, const Value &v) {
  if (v.getType().is(ScalarKind::BF16))
    return cg.castTo(v, TType::scalar(ScalarKind::FP32));
  return v;
}

/// The argmax / argmin combine of Triton's standard library.
static CombineBody argCombine(bool isMax, bool tieBreakLeft) {
  return [isMax, tieBreakLeft](
             FunctionCodegen &cg, llvm::ArrayRef<Value> lhs,
             llvm::ArrayRef<Value> rhs) -> FailureOr<std::vector<Value>> {
    const Value &v1 = lhs[0], &i1 = lhs[1], &v2 = rhs[0], &i2 = rhs[1];
    FailureOr<Value> better =
        cg.compare(isMax ? CmpOpKind::Gt : CmpOpKind::Lt, v1, v2);
    if (failed(better))
      return failure();
    if (tieBreakLeft) {
      FailureOr<Value> eq = cg.compare(CmpOpKind::Eq, v1, v2);
      FailureOr<Value> lt = cg.compare(CmpOpKind::Lt, i1, i2);
      if (failed(eq) || failed(lt))
        return failure();
      FailureOr<Value> tie = cg.logicalAndOr(true, *eq, *lt);
      if (failed(tie))
        return failure();
      better = cg.logicalAndOr(false, *better, *tie);
      if (failed(better))
        return failure();
    }
    FailureOr<Value> v = cg.where(*better, v1, v2);
    FailureOr<Value> i = cg.where(*better, i1, i2);
    if (failed(v) || failed(i))
      return failure();
    return std::vector<Value>{*v, *i};
  };
}

static FailureOr<std::vector<Value>>
reduceWithIndices(FunctionCodegen &cg, const Value &input,
                  std::optional<int64_t> axis, bool keepDims, bool isMax,
                  bool tieBreakLeft) {
  if (!axis)
    return cg.fail("returning indices needs an axis");
  llvm::ArrayRef<int64_t> shape = input.getType().getShape();
  int64_t rank = int64_t(shape.size());
  int64_t ax = *axis < 0 ? *axis + rank : *axis;
  if (ax < 0 || ax >= rank)
    return cg.fail(
        llvm::formatv("invalid axis {0} for a rank-{1} tensor", *axis, rank));
  CallArgs ar;
  ar.loc = cg.curLoc;
  ar.add(Value::constant(HostValue::integer(0)));
  ar.add(Value::constant(HostValue::integer(shape[ax])));
  std::optional<FailureOr<Value>> index =
      cg.callBuiltin("triton.language.arange", ar);
  if (failed(*index))
    return failure();
  Value idx = **index;
  if (rank > 1) {
    for (int64_t d = 0; d < rank; ++d)
      if (d != ax)
        idx = cg.expandDims(idx, int(d));
    FailureOr<Value> b = cg.broadcastTo(idx, shape);
    if (failed(b))
      return failure();
    idx = *b;
  }
  return emitReduce(cg, {input, idx}, ax, keepDims,
                    argCombine(isMax, tieBreakLeft));
}

static FailureOr<Value> maxMin(FunctionCodegen &cg, CallArgs &args,
                               bool isMax) {
  FailureOr<BoundArgs> a =
      cg.bindArgs(args, isMax ? "max" : "min",
                  {"input", "axis", "return_indices",
                   "return_indices_tie_break_left", "keep_dims"},
                  1);
  if (failed(a))
    return failure();
  FailureOr<Value> in = cg.requireTensor((*a)[0], "input", a->exprs[0]);
  FailureOr<std::optional<int64_t>> axis = readAxis(cg, (*a)[1], a->exprs[1]);
  FailureOr<bool> indices =
      cg.requireBool((*a)[2], "return_indices", a->exprs[2]);
  FailureOr<bool> keep = cg.requireBool((*a)[4], "keep_dims", a->exprs[4]);
  if (failed(in) || failed(axis) || failed(indices) || failed(keep))
    return failure();
  bool tieLeft = true;
  if (a->given[3]) {
    FailureOr<bool> t =
        cg.requireBool((*a)[3], "return_indices_tie_break_left", a->exprs[3]);
    if (failed(t))
      return failure();
    tieLeft = *t;
  }
  FailureOr<Value> x = promoteBF16(cg, *in);
  if (failed(x))
    return failure();
  if (*indices) {
    FailureOr<std::vector<Value>> r =
        reduceWithIndices(cg, *x, *axis, *keep, isMax, tieLeft);
    if (failed(r))
      return failure();
    return Value::tuple(*r);
  }
  // Narrow types reduce in 32 bits.
  if (x->getType().getPrimitiveBitwidth() < 32) {
    TType wide = x->getType().isFloating() ? TType::scalar(ScalarKind::FP32)
                                           : TType::scalar(ScalarKind::Int32);
    x = cg.castTo(*x, wide);
    if (failed(x))
      return failure();
  }
  FailureOr<std::vector<Value>> r = emitReduce(
      cg, {*x}, *axis, *keep,
      [isMax](FunctionCodegen &cg, llvm::ArrayRef<Value> lhs,
              llvm::ArrayRef<Value> rhs) -> FailureOr<std::vector<Value>> {
        FailureOr<Value> m = cg.minMax(isMax, lhs[0], rhs[0], false);
        if (failed(m))
          return failure();
        return std::vector<Value>{*m};
      });
  if (failed(r))
    return failure();
  return (*r)[0];
}

static FailureOr<Value> argMaxMin(FunctionCodegen &cg, CallArgs &args,
                                  bool isMax) {
  FailureOr<BoundArgs> a =
      cg.bindArgs(args, isMax ? "argmax" : "argmin",
                  {"input", "axis", "tie_break_left", "keep_dims"}, 2);
  if (failed(a))
    return failure();
  FailureOr<Value> in = cg.requireTensor((*a)[0], "input", a->exprs[0]);
  FailureOr<std::optional<int64_t>> axis = readAxis(cg, (*a)[1], a->exprs[1]);
  FailureOr<bool> keep = cg.requireBool((*a)[3], "keep_dims", a->exprs[3]);
  if (failed(in) || failed(axis) || failed(keep))
    return failure();
  bool tieLeft = true;
  if (a->given[2]) {
    FailureOr<bool> t = cg.requireBool((*a)[2], "tie_break_left", a->exprs[2]);
    if (failed(t))
      return failure();
    tieLeft = *t;
  }
  FailureOr<Value> x = promoteBF16(cg, *in);
  if (failed(x))
    return failure();
  FailureOr<std::vector<Value>> r =
      reduceWithIndices(cg, *x, *axis, *keep, isMax, tieLeft);
  if (failed(r))
    return failure();
  return (*r)[1];
}

static FailureOr<Value> bitReduce(FunctionCodegen &cg, CallArgs &args,
                                  bool isXor) {
  FailureOr<BoundArgs> a =
      cg.bindArgs(args, isXor ? "xor_sum" : "reduce_or",
                  {"input", "axis", "keep_dims"}, isXor ? 1 : 2);
  if (failed(a))
    return failure();
  FailureOr<Value> in = cg.requireTensor((*a)[0], "input", a->exprs[0]);
  FailureOr<std::optional<int64_t>> axis = readAxis(cg, (*a)[1], a->exprs[1]);
  FailureOr<bool> keep = cg.requireBool((*a)[2], "keep_dims", a->exprs[2]);
  if (failed(in) || failed(axis) || failed(keep))
    return failure();
  if (!in->getType().isInt())
    return cg.fail(std::string(isXor ? "xor_sum" : "reduce_or") +
                   " only supported for integers");
  FailureOr<std::vector<Value>> r =
      isXor ? emitReduce(cg, {*in}, *axis, *keep,
                         arithCombine<mlir::arith::XOrIOp, mlir::arith::XOrIOp>)
            : emitReduce(cg, {*in}, *axis, *keep,
                         arithCombine<mlir::arith::OrIOp, mlir::arith::OrIOp>);
  if (failed(r))
    return failure();
  return (*r)[0];
}

/// Emits a tessera.scan of `inputs` along `axis`.
static FailureOr<std::vector<Value>> emitScan(FunctionCodegen &cg,
                                              llvm::ArrayRef<Value> inputs,
                                              int64_t axis, bool reverse,
                                              CombineBody body) {
  for (const Value &v : inputs)
    if (!v.isBlock())
      return cg.fail("scans need block operands, got " + v.typeStr());
  llvm::ArrayRef<int64_t> shape = inputs[0].getType().getShape();
  int64_t rank = int64_t(shape.size());
  if (axis < -rank || axis >= rank)
    return cg.fail(llvm::formatv("scan axis {0} must be < the inputs' rank "
                                 "({1})",
                                 axis, rank));
  if (axis < 0)
    axis += rank;
  llvm::SmallVector<mlir::Type> types;
  llvm::SmallVector<mlir::Value> srcs;
  std::vector<TType> elems;
  for (const Value &v : inputs) {
    if (v.getType().getShape() != shape)
      return cg.fail("all scan inputs must have the same shape");
    types.push_back(v.getHandle().getType());
    srcs.push_back(v.getHandle());
    elems.push_back(v.getType().getElement());
  }
  auto op =
      tt::ScanOp::create(cg.b, cg.loc, types, srcs, uint32_t(axis), reverse);
  if (failed(
          buildCombine<tt::ScanReturnOp>(cg, op.getCombineOp(), elems, body)))
    return failure();
  std::vector<Value> out;
  for (size_t i = 0; i < inputs.size(); ++i)
    out.push_back(Value::tensor(op.getResult(i), inputs[i].getType()));
  return out;
}

static FailureOr<Value> associativeScan(FunctionCodegen &cg, CallArgs &args) {
  FailureOr<BoundArgs> a = cg.bindArgs(
      args, "associative_scan", {"input", "axis", "combine_fn", "reverse"}, 3);
  if (failed(a))
    return failure();
  FailureOr<std::vector<Value>> inputs = readInputs(cg, (*a)[0], a->exprs[0]);
  FailureOr<int64_t> axis = cg.requireInt((*a)[1], "axis", a->exprs[1]);
  FailureOr<const HostFunction *> fn = readCombineFn(cg, (*a)[2], a->exprs[2]);
  FailureOr<bool> reverse = cg.requireBool((*a)[3], "reverse", a->exprs[3]);
  if (failed(inputs) || failed(axis) || failed(fn) || failed(reverse))
    return failure();
  FailureOr<std::vector<Value>> r =
      emitScan(cg, *inputs, *axis, *reverse, jitCombine(**fn));
  if (failed(r))
    return failure();
  if (!(*a)[0].isTuple())
    return (*r)[0];
  return Value::tuple(*r);
}

static FailureOr<Value> cumulative(FunctionCodegen &cg, CallArgs &args,
                                   bool isSum) {
  std::vector<llvm::StringRef> params = {"input", "axis", "reverse"};
  if (isSum)
    params.push_back("dtype");
  FailureOr<BoundArgs> a =
      cg.bindArgs(args, isSum ? "cumsum" : "cumprod", params, 1);
  if (failed(a))
    return failure();
  FailureOr<Value> in = cg.requireTensor((*a)[0], "input", a->exprs[0]);
  FailureOr<bool> reverse = cg.requireBool((*a)[2], "reverse", a->exprs[2]);
  if (failed(in) || failed(reverse))
    return failure();
  int64_t axis = 0;
  if (a->has(1)) {
    FailureOr<int64_t> ax = cg.requireInt((*a)[1], "axis", a->exprs[1]);
    if (failed(ax))
      return failure();
    axis = *ax;
  }
  FailureOr<Value> x = promoteBF16(cg, *in);
  if (failed(x))
    return failure();
  if (isSum) {
    std::optional<TType> dtype;
    if (a->has(3)) {
      FailureOr<TType> d = cg.requireDType((*a)[3], "dtype", a->exprs[3]);
      if (failed(d))
        return failure();
      dtype = *d;
    } else {
      dtype = pickSumDType(x->getType().getElement());
    }
    if (dtype) {
      x = cg.castTo(*x, *dtype);
      if (failed(x))
        return failure();
    }
  }
  FailureOr<std::vector<Value>> r =
      isSum ? emitScan(cg, {*x}, axis, *reverse,
                       arithCombine<mlir::arith::AddFOp, mlir::arith::AddIOp>)
            : emitScan(cg, {*x}, axis, *reverse,
                       arithCombine<mlir::arith::MulFOp, mlir::arith::MulIOp>);
  if (failed(r))
    return failure();
  return (*r)[0];
}

static FailureOr<Value> histogram(FunctionCodegen &cg, CallArgs &args) {
  FailureOr<BoundArgs> a =
      cg.bindArgs(args, "histogram", {"input", "num_bins", "mask"}, 2);
  if (failed(a))
    return failure();
  FailureOr<Value> in = cg.requireTensor((*a)[0], "input", a->exprs[0]);
  FailureOr<int64_t> bins = cg.requireInt((*a)[1], "num_bins", a->exprs[1]);
  if (failed(in) || failed(bins))
    return failure();
  if (in->getType().getShape().size() != 1)
    return cg.fail("histogram only supports 1D input, got " +
                   in->getType().str());
  if (!in->getType().isInt())
    return cg.fail("histogram only supports integer input, got " +
                   in->getType().str());
  if (*bins <= 0)
    return cg.fail("num_bins must be positive");
  mlir::Value mask;
  if (!(*a)[2].isNone()) {
    FailureOr<Value> m = cg.requireTensor((*a)[2], "mask", a->exprs[2]);
    if (failed(m))
      return failure();
    FailureOr<Value> mb = cg.broadcastTo(*m, in->getType().getShape());
    if (failed(mb))
      return failure();
    if (!mb->getType().isBool())
      return cg.fail("the mask must have boolean scalar type");
    mask = mb->getHandle();
  }
  TType type = TType::block(TType::scalar(ScalarKind::Int32), {*bins});
  auto op = tt::HistogramOp::create(cg.b, cg.loc, type.toMLIR(cg.getContext()),
                                    in->getHandle(), mask);
  return Value::tensor(op, type);
}

void tessera::frontend::codegen::registerReduceBuiltins(BuiltinRegistry &r) {
  r.addWithMethod("reduce", reduceBuiltin);
  r.addWithMethod("sum", sum);
  r.addWithMethod("max", [](FunctionCodegen &cg, CallArgs &a) {
    return maxMin(cg, a, true);
  });
  r.addWithMethod("min", [](FunctionCodegen &cg, CallArgs &a) {
    return maxMin(cg, a, false);
  });
  r.addWithMethod("argmax", [](FunctionCodegen &cg, CallArgs &a) {
    return argMaxMin(cg, a, true);
  });
  r.addWithMethod("argmin", [](FunctionCodegen &cg, CallArgs &a) {
    return argMaxMin(cg, a, false);
  });
  r.addWithMethod("xor_sum", [](FunctionCodegen &cg, CallArgs &a) {
    return bitReduce(cg, a, true);
  });
  r.addWithMethod("reduce_or", [](FunctionCodegen &cg, CallArgs &a) {
    return bitReduce(cg, a, false);
  });
  r.addWithMethod("associative_scan", associativeScan);
  r.addWithMethod("cumsum", [](FunctionCodegen &cg, CallArgs &a) {
    return cumulative(cg, a, true);
  });
  r.addWithMethod("cumprod", [](FunctionCodegen &cg, CallArgs &a) {
    return cumulative(cg, a, false);
  });
  r.addWithMethod("histogram", histogram);
}
