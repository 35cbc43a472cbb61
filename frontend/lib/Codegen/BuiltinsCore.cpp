//===- BuiltinsCore.cpp - Program ids, block creation, casts, Python builtins
//-===//
#include "Builtins.h"

#include "tessera/Frontend/Codegen/Promotion.h"
#include "tessera/Frontend/Limits.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

using namespace tessera::frontend;
using namespace tessera::frontend::codegen;
using llvm::failure;
using llvm::FailureOr;
namespace tt = mlir::tessera;

const BuiltinRegistry &BuiltinRegistry::get() {
  static const BuiltinRegistry registry = [] {
    BuiltinRegistry r;
    registerCoreBuiltins(r);
    registerShapeBuiltins(r);
    registerMemoryBuiltins(r);
    registerAtomicBuiltins(r);
    registerMathBuiltins(r);
    registerReduceBuiltins(r);
    registerSortBuiltins(r);
    registerRandomBuiltins(r);
    registerDebugBuiltins(r);
    return r;
  }();
  return registry;
}

FailureOr<bool>
tessera::frontend::codegen::readPropagateNan(FunctionCodegen &cg,
                                             const Value &v) {
  if (v.isNone())
    return false;
  if (v.isConstexpr() && v.getHost().isSymbol()) {
    llvm::StringRef s = v.getHost().getString();
    if (s.ends_with("PropagateNan.ALL"))
      return true;
    if (s.ends_with("PropagateNan.NONE"))
      return false;
  }
  if (v.isConstexpr() && v.getHost().isIntegral())
    return v.getHost().getInt() != 0;
  return cg.fail("propagate_nan must be tl.PropagateNan.NONE or "
                 "tl.PropagateNan.ALL, got " +
                 v.typeStr());
}

/// Triton's validate_block_shape: power-of-two dimensions, bounded size.
static llvm::LogicalResult validateShape(FunctionCodegen &cg,
                                         llvm::ArrayRef<int64_t> shape,
                                         const Expr *at) {
  for (int64_t d : shape)
    if (d <= 0 || !llvm::isPowerOf2_64(uint64_t(d)))
      return cg.fail(
          at ? at->getLoc().ptr : cg.curLoc,
          llvm::formatv("shape element {0} must be a power of 2", d));
  int64_t numel = countBlockElements(shape);
  if (numel > kMaxBlockElements)
    return cg.fail(at ? at->getLoc().ptr : cg.curLoc,
                   llvm::formatv("a block has at most {0} elements, this one "
                                 "would have {1}",
                                 kMaxBlockElements, numel));
  return llvm::success();
}

static FailureOr<int64_t> readAxis(FunctionCodegen &cg, const BoundArgs &a,
                                   llvm::StringRef fn) {
  FailureOr<int64_t> axis =
      cg.requireInt(a[0], "the axis of " + fn.str(), a.exprs[0]);
  if (failed(axis))
    return failure();
  if (*axis < 0 || *axis > 2)
    return cg.fail(a.exprs[0] ? a.exprs[0]->getLoc().ptr : cg.curLoc,
                   fn + " axis must be 0, 1, or 2 but got " +
                       std::to_string(*axis));
  return axis;
}

static FailureOr<Value> programIdLike(FunctionCodegen &cg, CallArgs &args,
                                      bool numPrograms) {
  llvm::StringRef fn = numPrograms ? "num_programs" : "program_id";
  FailureOr<BoundArgs> a = cg.bindArgs(args, fn, {"axis"}, 1);
  if (failed(a))
    return failure();
  FailureOr<int64_t> axis = readAxis(cg, *a, fn);
  if (failed(axis))
    return failure();
  auto attr = tt::ProgramAxisAttr::get(cg.getContext(),
                                       static_cast<tt::ProgramAxis>(*axis));
  mlir::Type i32 = cg.b.getI32Type();
  mlir::Value v =
      numPrograms
          ? mlir::Value(tt::NumProgramsOp::create(cg.b, cg.loc, i32, attr))
          : mlir::Value(tt::ProgramIdOp::create(cg.b, cg.loc, i32, attr));
  return Value::tensor(v, TType::scalar(ScalarKind::Int32));
}

static FailureOr<Value> arange(FunctionCodegen &cg, CallArgs &args) {
  FailureOr<BoundArgs> a = cg.bindArgs(args, "arange", {"start", "end"}, 2);
  if (failed(a))
    return failure();
  FailureOr<int64_t> start =
      cg.requireInt((*a)[0], "arange's start", a->exprs[0]);
  FailureOr<int64_t> end = cg.requireInt((*a)[1], "arange's end", a->exprs[1]);
  if (failed(start) || failed(end))
    return failure();
  if ((*start >> 32) || (*end >> 32))
    return cg.fail("arange must fit in int32");
  if (*end <= *start)
    return cg.fail(llvm::formatv("arange's end ({0}) must be greater than its "
                                 "start ({1})",
                                 *end, *start));
  int64_t range = *end - *start;
  if (!llvm::isPowerOf2_64(uint64_t(range)))
    return cg.fail(
        llvm::formatv("arange's range ({0}) must be a power of 2", range));
  if (failed(validateShape(cg, {range}, nullptr)))
    return failure();
  TType type = TType::block(TType::scalar(ScalarKind::Int32), {range});
  auto op = tt::MakeRangeOp::create(cg.b, cg.loc, type.toMLIR(cg.getContext()),
                                    cg.b.getI32IntegerAttr(int32_t(*start)),
                                    cg.b.getI32IntegerAttr(int32_t(*end)));
  return Value::tensor(op, type);
}

static FailureOr<Value> fullImpl(FunctionCodegen &cg, const Value &shapeV,
                                 const Expr *shapeExpr, const Value &value,
                                 const Value &dtypeV, const Expr *dtypeExpr) {
  FailureOr<std::vector<int64_t>> shape =
      cg.requireShape(shapeV, "the shape", shapeExpr);
  if (failed(shape) || failed(validateShape(cg, *shape, shapeExpr)))
    return failure();
  FailureOr<TType> dtype = cg.requireDType(dtypeV, "dtype", dtypeExpr);
  if (failed(dtype))
    return failure();
  FailureOr<Value> scalar = cg.makeScalar(value, *dtype);
  if (failed(scalar))
    return failure();
  return cg.splat(*scalar, *shape);
}

static FailureOr<Value> full(FunctionCodegen &cg, CallArgs &args) {
  FailureOr<BoundArgs> a =
      cg.bindArgs(args, "full", {"shape", "value", "dtype"}, 3);
  if (failed(a))
    return failure();
  return fullImpl(cg, (*a)[0], a->exprs[0], (*a)[1], (*a)[2], a->exprs[2]);
}

static FailureOr<Value> zeros(FunctionCodegen &cg, CallArgs &args) {
  FailureOr<BoundArgs> a = cg.bindArgs(args, "zeros", {"shape", "dtype"}, 2);
  if (failed(a))
    return failure();
  return fullImpl(cg, (*a)[0], a->exprs[0],
                  Value::constant(HostValue::integer(0)), (*a)[1], a->exprs[1]);
}

static FailureOr<Value> zerosLike(FunctionCodegen &cg, CallArgs &args) {
  FailureOr<BoundArgs> a = cg.bindArgs(args, "zeros_like", {"input"}, 1);
  if (failed(a))
    return failure();
  FailureOr<Value> in = cg.requireTensor((*a)[0], "input", a->exprs[0]);
  if (failed(in))
    return failure();
  return cg.zeroValue(in->getType());
}

static FailureOr<Value> cdiv(FunctionCodegen &cg, CallArgs &args) {
  FailureOr<BoundArgs> a = cg.bindArgs(args, "cdiv", {"x", "div"}, 2);
  if (failed(a))
    return failure();
  const Value &x = (*a)[0], &div = (*a)[1];
  // tl.cdiv is a jit function computing (x + (div - 1)) // div: with two
  // constexprs that is Python arithmetic, returned (like any jit function
  // result) as a tensor.
  if (!x.isTensor() && !div.isTensor()) {
    std::optional<HostValue> hx = x.toHost(), hd = div.toHost();
    if (!hx || !hd)
      return cg.fail("cdiv expects numbers or tensors");
    FailureOr<HostValue> dm1 = cg.m.eval.evalBinary(
        BinaryOpKind::Sub, *hd, HostValue::integer(1), cg.curLoc);
    if (failed(dm1))
      return failure();
    FailureOr<HostValue> sum =
        cg.m.eval.evalBinary(BinaryOpKind::Add, *hx, *dm1, cg.curLoc);
    if (failed(sum))
      return failure();
    FailureOr<HostValue> q =
        cg.m.eval.evalBinary(BinaryOpKind::FloorDiv, *sum, *hd, cg.curLoc);
    if (failed(q))
      return failure();
    return cg.toTensor(Value::fromHost(*q));
  }
  // A constexpr divisor may be any number (a float gives a float result,
  // as in Triton); anything else is the user's error, which used to abort
  // the compiler reading it as an integer.
  if (!div.isTensor() && !div.isNumber())
    return cg.fail(a->exprs[1] ? a->exprs[1]->getLoc().ptr : cg.curLoc,
                   "cdiv expects a number or a tensor as the divisor, got " +
                       div.typeStr());
  if (!x.isTensor() && !x.isNumber())
    return cg.fail(a->exprs[0] ? a->exprs[0]->getLoc().ptr : cg.curLoc,
                   "cdiv expects a number or a tensor as the dividend, got " +
                       x.typeStr());
  FailureOr<Value> dm1 = failure();
  if (div.isTensor()) {
    dm1 = cg.sub(div, Value::constant(HostValue::integer(1)));
  } else {
    // Python arithmetic on the constexpr keeps it a Python scalar, which
    // then promotes with `x` as Triton's `x + (div - 1)` does.
    FailureOr<HostValue> h = cg.m.eval.evalBinary(
        BinaryOpKind::Sub, div.getHost(), HostValue::integer(1), cg.curLoc);
    if (succeeded(h))
      dm1 = Value::fromHost(*h);
  }
  if (failed(dm1))
    return failure();
  FailureOr<Value> sum = cg.add(x, *dm1);
  if (failed(sum))
    return failure();
  return cg.floorDiv(*sum, div);
}

static FailureOr<Value> where(FunctionCodegen &cg, CallArgs &args) {
  FailureOr<BoundArgs> a =
      cg.bindArgs(args, "where", {"condition", "x", "y"}, 3);
  if (failed(a))
    return failure();
  return cg.where((*a)[0], (*a)[1], (*a)[2]);
}

static FailureOr<Value> minMaxBuiltin(FunctionCodegen &cg, CallArgs &args,
                                      bool isMax) {
  FailureOr<BoundArgs> a = cg.bindArgs(args, isMax ? "maximum" : "minimum",
                                       {"x", "y", "propagate_nan"}, 2);
  if (failed(a))
    return failure();
  FailureOr<bool> nan = readPropagateNan(cg, (*a)[2]);
  if (failed(nan))
    return failure();
  return cg.minMax(isMax, (*a)[0], (*a)[1], *nan);
}

static FailureOr<Value> clamp(FunctionCodegen &cg, CallArgs &args) {
  FailureOr<BoundArgs> a =
      cg.bindArgs(args, "clamp", {"x", "min", "max", "propagate_nan"}, 3);
  if (failed(a))
    return failure();
  FailureOr<bool> nan = readPropagateNan(cg, (*a)[3]);
  if (failed(nan))
    return failure();
  std::vector<Value> vals;
  for (int i = 0; i < 3; ++i) {
    FailureOr<Value> t =
        cg.requireTensor((*a)[i], "clamp's operand", a->exprs[i]);
    if (failed(t))
      return failure();
    if (t->getType().is(ScalarKind::BF16)) {
      t = cg.castTo(*t, TType::scalar(ScalarKind::FP32));
      if (failed(t))
        return failure();
    }
    vals.push_back(*t);
  }
  auto mm = cg.binaryTypeCheck(vals[1], vals[2]);
  if (failed(mm))
    return failure();
  auto xm = cg.binaryTypeCheck(vals[0], mm->first);
  if (failed(xm))
    return failure();
  auto xM = cg.binaryTypeCheck(xm->first, mm->second);
  if (failed(xM))
    return failure();
  Value x = xM->first, lo = xm->second, hi = xM->second;
  if (!x.getType().isFloating())
    return cg.fail("unexpected dtype " + x.getType().str() +
                   ": only floating-point clamp is supported");
  // min was broadcast with x before x met max; bring it to x's final shape.
  FailureOr<Value> lo2 = cg.broadcastTo(lo, x.getType().getShape());
  if (failed(lo2))
    return failure();
  auto op = tt::ClampFOp::create(
      cg.b, cg.loc, x.getHandle(), lo2->getHandle(), hi.getHandle(),
      tt::PropagateNanAttr::get(cg.getContext(), *nan
                                                     ? tt::PropagateNan::all
                                                     : tt::PropagateNan::none));
  return Value::tensor(op, x.getType());
}

/// Python's min and max: on constexprs the host's, otherwise a chain of
/// tl.minimum / tl.maximum.
static FailureOr<Value> pyMinMax(FunctionCodegen &cg, CallArgs &args,
                                 bool isMax) {
  FailureOr<BoundArgs> a =
      cg.bindArgs(args, isMax ? "max" : "min", {"*args", "propagate_nan"}, 0);
  if (failed(a))
    return failure();
  llvm::ArrayRef<Value> vals = (*a)[0].getElements();
  if (vals.empty())
    return cg.fail("expected at least 1 argument");
  bool allConst =
      llvm::all_of(vals, [](const Value &v) { return !v.isIRValue(); });
  if (allConst) {
    std::vector<HostValue> hostArgs;
    for (const Value &v : vals) {
      std::optional<HostValue> h = v.toHost();
      if (!h)
        return cg.fail("cannot compare " + v.typeStr());
      hostArgs.push_back(*h);
    }
    FailureOr<HostValue> r = cg.m.eval.call(
        HostValue::symbol(isMax ? "max" : "min"), hostArgs, {}, cg.curLoc);
    if (failed(r))
      return failure();
    return Value::fromHost(*r);
  }
  if (vals.size() < 2)
    return cg.fail(std::string(isMax ? "max" : "min") +
                   " requires at least 2 values");
  FailureOr<bool> nan = readPropagateNan(cg, (*a)[1]);
  if (failed(nan))
    return failure();
  Value acc = vals[0];
  for (const Value &v : vals.drop_front()) {
    FailureOr<Value> r = cg.minMax(isMax, acc, v, *nan);
    if (failed(r))
      return failure();
    acc = *r;
  }
  return acc;
}

static FailureOr<Value> castBuiltin(FunctionCodegen &cg, CallArgs &args) {
  FailureOr<BoundArgs> a = cg.bindArgs(
      args, "cast", {"input", "dtype", "fp_downcast_rounding", "bitcast"}, 2);
  if (failed(a))
    return failure();
  FailureOr<Value> in =
      cg.requireTensor((*a)[0], "the input of cast", a->exprs[0]);
  if (failed(in))
    return failure();
  FailureOr<TType> dtype = cg.requireDType((*a)[1], "dtype", a->exprs[1]);
  if (failed(dtype))
    return failure();
  FailureOr<bool> bitcast = cg.requireBool((*a)[3], "bitcast", a->exprs[3]);
  if (failed(bitcast))
    return failure();
  if (*bitcast)
    return cg.bitcast(*in, *dtype);
  FailureOr<std::string> rounding =
      cg.requireString((*a)[2], "fp_downcast_rounding", a->exprs[2]);
  if (failed(rounding))
    return failure();
  std::optional<tt::RoundingMode> mode;
  if (*rounding == "rtne")
    mode = tt::RoundingMode::rtne;
  else if (*rounding == "rtz")
    mode = tt::RoundingMode::rtz;
  else if (!rounding->empty())
    return cg.fail(a->exprs[2] ? a->exprs[2]->getLoc().ptr : cg.curLoc,
                   "invalid rounding mode '" + *rounding +
                       "'; the supported rounding modes are 'rtne' and 'rtz'");
  return cg.castTo(*in, *dtype, mode);
}

static FailureOr<Value> toTensorBuiltin(FunctionCodegen &cg, CallArgs &args) {
  FailureOr<BoundArgs> a = cg.bindArgs(args, "to_tensor", {"x"}, 1);
  if (failed(a))
    return failure();
  return cg.toTensor((*a)[0]);
}

static FailureOr<Value> constexprBuiltin(FunctionCodegen &cg, CallArgs &args) {
  FailureOr<BoundArgs> a = cg.bindArgs(args, "constexpr", {"value"}, 1);
  if (failed(a))
    return failure();
  if ((*a)[0].isIRValue())
    return cg.fail("tl.constexpr() needs a compile-time value, got " +
                   (*a)[0].typeStr());
  return (*a)[0];
}

static FailureOr<Value> pointerType(FunctionCodegen &cg, CallArgs &args) {
  FailureOr<BoundArgs> a = cg.bindArgs(
      args, "pointer_type", {"element_ty", "address_space", "const"}, 1);
  if (failed(a))
    return failure();
  FailureOr<TType> elem = cg.requireDType((*a)[0], "element_ty", a->exprs[0]);
  if (failed(elem))
    return failure();
  int64_t space = 1;
  if (a->has(1)) {
    FailureOr<int64_t> s = cg.requireInt((*a)[1], "address_space", a->exprs[1]);
    if (failed(s))
      return failure();
    space = *s;
  }
  return Value::type(TType::pointer(*elem, int(space)));
}

static FailureOr<Value> condition(FunctionCodegen &cg, CallArgs &args) {
  FailureOr<BoundArgs> a =
      cg.bindArgs(args, "condition", {"arg1", "disable_licm"}, 1);
  if (failed(a))
    return failure();
  FailureOr<bool> licm = cg.requireBool((*a)[1], "disable_licm", a->exprs[1]);
  if (failed(licm))
    return failure();
  return Value::tuple(
      {(*a)[0], Value::constant(HostValue::boolean(*licm)),
       Value::constant(HostValue::symbol("triton.language.condition"))});
}

static FailureOr<Value> rangeOutsideFor(FunctionCodegen &cg, CallArgs &) {
  return cg.fail("range iterators can only be used as the iterator of a for "
                 "loop in device code");
}

/// Python builtins evaluated on the host: int(), float(), bool().
static FailureOr<Value> hostBuiltin(FunctionCodegen &cg, CallArgs &args,
                                    llvm::StringRef name) {
  if (!args.kwargs.empty())
    return cg.fail(name + "() takes no keyword arguments in device code");
  std::vector<HostValue> hostArgs;
  for (size_t i = 0; i < args.args.size(); ++i) {
    FailureOr<HostValue> h = cg.requireConstexpr(
        args.args[i], "the argument of " + name.str() + "()", args.argExprs[i]);
    if (failed(h))
      return failure();
    hostArgs.push_back(*h);
  }
  FailureOr<HostValue> r =
      cg.m.eval.call(HostValue::symbol(name.str()), hostArgs, {}, cg.curLoc);
  if (failed(r))
    return failure();
  return Value::fromHost(*r);
}

static FailureOr<Value> pyLen(FunctionCodegen &cg, CallArgs &args) {
  FailureOr<BoundArgs> a = cg.bindArgs(args, "len", {"obj"}, 1);
  if (failed(a))
    return failure();
  const Value &v = (*a)[0];
  if (v.isTuple())
    return Value::constant(HostValue::integer(v.getElements().size()));
  if (v.isConstexpr() && v.getHost().isString())
    return Value::constant(HostValue::integer(v.getHost().getString().size()));
  return cg.fail("len() is not defined for " + v.typeStr(),
                 v.isTensor() ? "use x.shape[0] or x.numel" : "");
}

static FailureOr<Value> pyAbs(FunctionCodegen &cg, CallArgs &args) {
  if (args.args.size() == 1 && args.args[0].isTensor()) {
    std::optional<FailureOr<Value>> r =
        cg.callBuiltin("triton.language.abs", args);
    return *r;
  }
  return hostBuiltin(cg, args, "abs");
}

/// isinstance(x, cls) on the classes device code can name. Like Triton,
/// constexprs are compared unwrapped (so nothing is a tl.constexpr).
static FailureOr<Value> pyIsinstance(FunctionCodegen &cg, CallArgs &args) {
  FailureOr<BoundArgs> a = cg.bindArgs(args, "isinstance", {"obj", "cls"}, 2);
  if (failed(a))
    return failure();
  const Value &obj = (*a)[0];
  llvm::SmallVector<Value> classes;
  if ((*a)[1].isTuple())
    classes.append((*a)[1].getElements().begin(), (*a)[1].getElements().end());
  else
    classes.push_back((*a)[1]);
  bool result = false;
  for (const Value &cls : classes) {
    if (!cls.isConstexpr() || !cls.getHost().isSymbol())
      return cg.fail("isinstance() arg 2 must be a class, got " +
                     cls.typeStr());
    std::string c = canonicalBuiltinName(cls.getHost().getString());
    llvm::StringRef name = c;
    const HostValue &h = obj.getHost();
    if (name == "triton.language.tensor_descriptor" ||
        name == "triton.language.tensor_descriptor_base")
      result |= obj.isDescriptor();
    else if (name == "triton.language.tensor")
      result |= obj.isTensor();
    else if (name == "triton.language.tuple" || name == "builtins.tuple")
      result |= obj.isTuple();
    else if (name == "triton.language.dtype")
      result |= obj.isType();
    else if (name == "triton.language.constexpr")
      result |= false;
    else if (name == "builtins.int")
      result |= obj.isConstexpr() && h.isIntegral();
    else if (name == "builtins.float")
      result |= obj.isConstexpr() && h.isFloat();
    else if (name == "builtins.bool")
      result |= obj.isConstexpr() && h.isBool();
    else if (name == "builtins.str")
      result |= obj.isConstexpr() && h.isString();
    else
      return cg.fail("isinstance() with class '" + c +
                     "' is not supported in device code");
  }
  return Value::constant(HostValue::boolean(result));
}

static FailureOr<Value> pyGetattr(FunctionCodegen &cg, CallArgs &args) {
  FailureOr<BoundArgs> a =
      cg.bindArgs(args, "getattr", {"obj", "name", "default"}, 2);
  if (failed(a))
    return failure();
  FailureOr<std::string> name = cg.requireString((*a)[1], "name", a->exprs[1]);
  if (failed(name))
    return failure();
  if (!a->given[2])
    return cg.getAttribute((*a)[0], *name, cg.curLoc);
  DiagnosticCapture capture(cg.m.diags);
  FailureOr<Value> v = cg.getAttribute((*a)[0], *name, cg.curLoc);
  if (succeeded(v))
    return *v;
  return (*a)[2];
}

static FailureOr<Value> pyHasattr(FunctionCodegen &cg, CallArgs &args) {
  FailureOr<BoundArgs> a = cg.bindArgs(args, "hasattr", {"obj", "name"}, 2);
  if (failed(a))
    return failure();
  FailureOr<std::string> name = cg.requireString((*a)[1], "name", a->exprs[1]);
  if (failed(name))
    return failure();
  DiagnosticCapture capture(cg.m.diags);
  return Value::constant(HostValue::boolean(
      succeeded(cg.getAttribute((*a)[0], *name, cg.curLoc))));
}

/// `a op b` with Python semantics on constexprs and Triton's on tensors.
static FailureOr<Value> arith(FunctionCodegen &cg, BinaryOpKind op,
                              const Value &a, const Value &b) {
  if (a.isTensor() || b.isTensor())
    return cg.binaryOp(op, a, b);
  std::optional<HostValue> l = a.toHost(), r = b.toHost();
  if (!l || !r)
    return cg.fail("unsupported operand types for " + getSpelling(op) + ": " +
                   a.typeStr() + " and " + b.typeStr());
  FailureOr<HostValue> v = cg.m.eval.evalBinary(op, *l, *r, cg.curLoc);
  if (failed(v))
    return failure();
  return Value::fromHost(*v);
}

/// tl.add, tl.sub, tl.mul (sanitize_overflow only matters with the overflow
/// sanitizer, which Tessera does not implement).
static FailureOr<Value> arithBuiltin(FunctionCodegen &cg, CallArgs &args,
                                     BinaryOpKind op, llvm::StringRef name) {
  FailureOr<BoundArgs> a =
      cg.bindArgs(args, name, {"x", "y", "sanitize_overflow"}, 2);
  if (failed(a))
    return failure();
  // Python numbers keep their scalar role in the promotion.
  for (int i = 0; i < 2; ++i)
    if (!(*a)[i].isNumber() && !(*a)[i].isTensor())
      return cg.fail(a->exprs[i] ? a->exprs[i]->getLoc().ptr : cg.curLoc,
                     name + "() expects tensors or numbers, got " +
                         (*a)[i].typeStr());
  return cg.binaryOp(op, (*a)[0], (*a)[1]);
}

/// tl.swizzle2d, a jit function in Triton's standard library.
static FailureOr<Value> swizzle2d(FunctionCodegen &cg, CallArgs &args) {
  FailureOr<BoundArgs> a = cg.bindArgs(
      args, "swizzle2d", {"i", "j", "size_i", "size_j", "size_g"}, 5);
  if (failed(a))
    return failure();
  using B = BinaryOpKind;
  const Value &i = (*a)[0], &j = (*a)[1], &sizeI = (*a)[2], &sizeJ = (*a)[3],
              &sizeG0 = (*a)[4];
  FailureOr<Value> ij = arith(cg, B::Mult, i, sizeJ);
  if (failed(ij) || failed(ij = arith(cg, B::Add, *ij, j)))
    return failure();
  FailureOr<Value> sizeGJ = arith(cg, B::Mult, sizeG0, sizeJ);
  if (failed(sizeGJ))
    return failure();
  FailureOr<Value> group = arith(cg, B::FloorDiv, *ij, *sizeGJ);
  if (failed(group))
    return failure();
  FailureOr<Value> offI = arith(cg, B::Mult, *group, sizeG0);
  if (failed(offI))
    return failure();
  FailureOr<Value> left = arith(cg, B::Sub, sizeI, *offI);
  if (failed(left))
    return failure();
  FailureOr<Value> sizeG = cg.minMax(false, *left, sizeG0, false);
  if (failed(sizeG))
    return failure();
  FailureOr<Value> ijMod = arith(cg, B::Mod, *ij, *sizeGJ);
  if (failed(ijMod))
    return failure();
  FailureOr<Value> inGroup = arith(cg, B::Mod, *ijMod, *sizeG);
  if (failed(inGroup))
    return failure();
  FailureOr<Value> newI = arith(cg, B::Add, *offI, *inGroup);
  FailureOr<Value> newJ = arith(cg, B::FloorDiv, *ijMod, *sizeG);
  if (failed(newI) || failed(newJ))
    return failure();
  FailureOr<Value> ti = cg.toTensor(*newI), tj = cg.toTensor(*newJ);
  if (failed(ti) || failed(tj))
    return failure();
  return Value::tuple({*ti, *tj});
}

/// Triton functions the tessera dialect has no operation for yet.
static FailureOr<Value> notYetSupported(FunctionCodegen &cg, CallArgs &args) {
  std::string name = "this function";
  if (args.callee)
    if (std::optional<std::string> q = cg.km.getQualifiedName(args.callee))
      name = *q;
  return cg.fail(name + " is not supported by Tessera yet");
}

/// triton.cdiv, triton.next_power_of_2 and triton.language.standard._log2
/// are host functions Triton runs on a jit function's compile-time
/// arguments: the result is a constant. triton.cdiv of a tensor computes as
/// tl.cdiv does.
static FailureOr<Value> hostHelper(FunctionCodegen &cg, CallArgs &args,
                                   llvm::StringRef symbol,
                                   llvm::ArrayRef<llvm::StringRef> params) {
  llvm::StringRef name = symbol.substr(symbol.rfind('.') + 1);
  FailureOr<BoundArgs> a = cg.bindArgs(args, name, params, params.size());
  if (failed(a))
    return failure();
  if (symbol == "triton.cdiv" &&
      llvm::any_of(a->values, [](const Value &v) { return v.isTensor(); }))
    return cdiv(cg, args);
  std::vector<HostValue> hostArgs;
  for (size_t i = 0; i < params.size(); ++i) {
    FailureOr<HostValue> v = cg.requireConstexpr(
        (*a)[i], "an argument of " + symbol.str(), a->exprs[i]);
    if (failed(v))
      return failure();
    hostArgs.push_back(*v);
  }
  FailureOr<HostValue> r = cg.m.eval.call(HostValue::symbol(symbol.str()),
                                          hostArgs, {}, cg.curLoc);
  if (failed(r))
    return failure();
  // A dtype (get_int_dtype) is a type in device code; numbers constants.
  return Value::fromHost(*r);
}

void tessera::frontend::codegen::registerCoreBuiltins(BuiltinRegistry &r) {
  r.add("triton.cdiv", [](FunctionCodegen &cg, CallArgs &a) {
    return hostHelper(cg, a, "triton.cdiv", {"x", "y"});
  });
  r.add("triton.next_power_of_2", [](FunctionCodegen &cg, CallArgs &a) {
    return hostHelper(cg, a, "triton.next_power_of_2", {"n"});
  });
  // Not public in Triton, but imported by libraries' sorting networks
  // (`from triton.language.standard import _log2`).
  r.add("triton.language._log2", [](FunctionCodegen &cg, CallArgs &a) {
    return hostHelper(cg, a, "triton.language._log2", {"i"});
  });
  // Inductor's helpers choose integer types in device code
  // (`tl.core.get_int_dtype(x.dtype.primitive_bitwidth, signed=True)`).
  r.add("triton.language.get_int_dtype", [](FunctionCodegen &cg, CallArgs &a) {
    return hostHelper(cg, a, "triton.language.get_int_dtype",
                      {"bitwidth", "signed"});
  });
  // tl.core._unwrap_if_constexpr: the value a constexpr wraps. Device code
  // holds constexprs as their values already, so any value is itself.
  r.add("triton.language._unwrap_if_constexpr",
        [](FunctionCodegen &cg, CallArgs &args) -> FailureOr<Value> {
          FailureOr<BoundArgs> a =
              cg.bindArgs(args, "_unwrap_if_constexpr", {"o"}, 1);
          if (failed(a))
            return failure();
          return (*a)[0];
        });
  for (const char *name : {"map_elementwise", "dot_scaled"})
    r.addWithMethod(name, notYetSupported);
  r.add("triton.language.program_id", [](FunctionCodegen &cg, CallArgs &a) {
    return programIdLike(cg, a, false);
  });
  r.add("triton.language.num_programs", [](FunctionCodegen &cg, CallArgs &a) {
    return programIdLike(cg, a, true);
  });
  r.add("triton.language.arange", arange);
  r.add("triton.language.full", full);
  r.add("triton.language.zeros", zeros);
  r.add("triton.language.zeros_like", zerosLike);
  r.addWithMethod("cdiv", cdiv);
  r.add("triton.language.where", where);
  r.add("triton.language.minimum", [](FunctionCodegen &cg, CallArgs &a) {
    return minMaxBuiltin(cg, a, false);
  });
  r.add("triton.language.maximum", [](FunctionCodegen &cg, CallArgs &a) {
    return minMaxBuiltin(cg, a, true);
  });
  r.add("triton.language.clamp", clamp);
  r.add("triton.language.add", [](FunctionCodegen &cg, CallArgs &a) {
    return arithBuiltin(cg, a, BinaryOpKind::Add, "add");
  });
  r.add("triton.language.sub", [](FunctionCodegen &cg, CallArgs &a) {
    return arithBuiltin(cg, a, BinaryOpKind::Sub, "sub");
  });
  r.add("triton.language.mul", [](FunctionCodegen &cg, CallArgs &a) {
    return arithBuiltin(cg, a, BinaryOpKind::Mult, "mul");
  });
  r.add("triton.language.swizzle2d", swizzle2d);
  r.add("builtins.min", [](FunctionCodegen &cg, CallArgs &a) {
    return pyMinMax(cg, a, false);
  });
  r.add("builtins.max",
        [](FunctionCodegen &cg, CallArgs &a) { return pyMinMax(cg, a, true); });
  r.addWithMethod("cast", castBuiltin);
  r.add("tensor.to", castBuiltin);
  r.add("triton.language.to_tensor", toTensorBuiltin);
  r.add("triton.language.constexpr", constexprBuiltin);
  r.add("triton.language.pointer_type", pointerType);
  r.add("triton.language.condition", condition);
  r.add("triton.language.range", rangeOutsideFor);
  r.add("triton.language.static_range", rangeOutsideFor);
  r.add("builtins.range", rangeOutsideFor);
  r.add("builtins.int", [](FunctionCodegen &cg, CallArgs &a) {
    return hostBuiltin(cg, a, "int");
  });
  r.add("builtins.float", [](FunctionCodegen &cg, CallArgs &a) {
    return hostBuiltin(cg, a, "float");
  });
  r.add("builtins.bool", [](FunctionCodegen &cg, CallArgs &a) {
    return hostBuiltin(cg, a, "bool");
  });
  r.add("builtins.len", pyLen);
  r.add("builtins.abs", pyAbs);
  r.add("builtins.isinstance", pyIsinstance);
  r.add("builtins.getattr", pyGetattr);
  r.add("builtins.hasattr", pyHasattr);
}
