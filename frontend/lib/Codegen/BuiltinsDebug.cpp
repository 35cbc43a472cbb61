//===- BuiltinsDebug.cpp - Printing, asserts, hints and inline assembly ---===//
#include "Builtins.h"

#include "llvm/Support/FormatVariadic.h"

using namespace tessera::frontend;
using namespace tessera::frontend::codegen;
using llvm::failure;
using llvm::FailureOr;
namespace tt = mlir::tessera;

static FailureOr<Value> staticAssert(FunctionCodegen &cg, CallArgs &args) {
  if (!args.kwargs.empty() || args.args.empty() || args.args.size() > 2)
    return cg.fail("static_assert requires one or two positional arguments "
                   "only");
  const Value &cond = args.args[0];
  if (!cond.isConstexpr() || !cond.getHost().isBool())
    return cg.fail(args.argExprs[0] ? args.argExprs[0]->getLoc().ptr
                                    : cg.curLoc,
                   "static_assert's condition could not be determined at "
                   "compile time (got " +
                       cond.typeStr() + ")",
                   "make it depend on constexpr values only");
  if (cond.getHost().getBool())
    return Value::none();
  std::string message;
  if (args.args.size() == 2) {
    const Value &m = args.args[1];
    message = m.isConstexpr() && m.getHost().isString()
                  ? m.getHost().getString()
                  : m.reprConstexpr();
  }
  return cg.fail("static_assert failed" +
                 (message.empty() ? std::string() : ": " + message));
}

/// Python's str() of a value, for static_print.
static std::string strOf(const Value &v) {
  if (v.isConstexpr()) {
    const HostValue &h = v.getHost();
    if (h.isString())
      return h.getString();
    return h.repr();
  }
  if (v.isType())
    return v.getType().str();
  if (v.isTuple()) {
    std::string s = "(";
    for (size_t i = 0; i < v.getElements().size(); ++i)
      s += (i ? ", " : "") + strOf(v.getElements()[i]);
    return s + (v.getElements().size() == 1 ? ",)" : ")");
  }
  if (v.isTensor()) {
    std::string s = v.getType().getElement().str() + "[";
    for (size_t i = 0; i < v.getType().getShape().size(); ++i)
      s += (i ? ", " : "") + std::to_string(v.getType().getShape()[i]);
    return s + "]";
  }
  return v.typeStr();
}

static FailureOr<Value> staticPrint(FunctionCodegen &cg, CallArgs &args) {
  FailureOr<BoundArgs> a = cg.bindArgs(
      args, "static_print", {"*values", "sep", "end", "file", "flush"}, 0);
  if (failed(a))
    return failure();
  FailureOr<std::string> sep = cg.requireString((*a)[1], "sep", a->exprs[1]);
  FailureOr<std::string> end = cg.requireString((*a)[2], "end", a->exprs[2]);
  if (failed(sep) || failed(end))
    return failure();
  if (!a->given[1])
    *sep = " ";
  if (!a->given[2])
    *end = "\n";
  // The first, discarded lowering of a loop body prints nothing.
  if (cg.m.dryRunDepth > 0)
    return Value::none();
  llvm::raw_ostream &os = cg.m.options.staticPrintStream
                              ? *cg.m.options.staticPrintStream
                              : llvm::errs();
  llvm::ArrayRef<Value> values = (*a)[0].getElements();
  for (size_t i = 0; i < values.size(); ++i)
    os << (i ? *sep : "") << strOf(values[i]);
  os << *end;
  os.flush();
  return Value::none();
}

static FailureOr<Value> devicePrint(FunctionCodegen &cg, CallArgs &args) {
  FailureOr<BoundArgs> a =
      cg.bindArgs(args, "device_print", {"prefix", "*args", "hex"}, 1);
  if (failed(a))
    return failure();
  const Value &p = (*a)[0];
  if (!p.isConstexpr() || !p.getHost().isString())
    return cg.fail(a->exprs[0] ? a->exprs[0]->getLoc().ptr : cg.curLoc,
                   "the first argument of device_print must be a string, got " +
                       p.typeStr());
  std::string prefix = p.getHost().getString();
  for (char c : prefix)
    if ((unsigned char)c > 127)
      return cg.fail("the prefix of device_print must be an ascii string");
  FailureOr<bool> hex = cg.requireBool((*a)[2], "hex", a->exprs[2]);
  if (failed(hex))
    return failure();
  llvm::SmallVector<mlir::Value> handles;
  llvm::SmallVector<int32_t> isSigned;
  for (const Value &v : (*a)[1].getElements()) {
    FailureOr<Value> t = cg.requireTensor(v, "a printed value");
    if (failed(t))
      return failure();
    handles.push_back(t->getHandle());
    isSigned.push_back(t->getType().isSignedInt() ? 1 : 0);
  }
  // Triton's formatting: a non-empty prefix starts with a space and ends
  // with ": " when values follow.
  bool hasArgs = !handles.empty();
  if (hasArgs && !llvm::StringRef(prefix).ends_with(" "))
    prefix += " ";
  if (hasArgs && !llvm::StringRef(prefix).ends_with(": "))
    prefix = prefix.substr(0, prefix.size() - 1) + ": ";
  if (prefix.size() > 2 && !llvm::StringRef(prefix).starts_with(" "))
    prefix = " " + prefix;
  tt::PrintOp::create(cg.b, cg.loc, prefix, *hex, handles, isSigned);
  return Value::none();
}

static FailureOr<Value> deviceAssert(FunctionCodegen &cg, CallArgs &args) {
  FailureOr<BoundArgs> a =
      cg.bindArgs(args, "device_assert", {"cond", "msg", "mask"}, 1);
  if (failed(a))
    return failure();
  FailureOr<std::string> msg = cg.requireString((*a)[1], "msg", a->exprs[1]);
  if (failed(msg))
    return failure();
  // As in Triton, device asserts exist only when compiling for debug.
  if (!cg.m.options.debug)
    return Value::none();
  FailureOr<Value> cond = cg.requireTensor((*a)[0], "cond", a->exprs[0]);
  if (failed(cond))
    return failure();
  Value c = *cond;
  if (!(*a)[2].isNone()) {
    FailureOr<Value> mask = cg.requireTensor((*a)[2], "mask", a->exprs[2]);
    if (failed(mask))
      return failure();
    FailureOr<Value> notMask = cg.logicalNot(*mask);
    if (failed(notMask))
      return failure();
    FailureOr<Value> either = cg.bitwise(BinaryOpKind::BitOr, c, *notMask);
    if (failed(either))
      return failure();
    c = *either;
  }
  if (!c.getType().isBool()) {
    FailureOr<Value> b = cg.castTo(c, TType::scalar(ScalarKind::Int1));
    if (failed(b))
      return failure();
    c = *b;
  }
  SourceLoc where = cg.m.diags.getSourceLoc(args.loc);
  tt::AssertOp::create(cg.b, cg.loc, c.getHandle(), *msg, cg.km.getFilename(),
                       cg.def->getName(), where.line);
  return Value::none();
}

static FailureOr<Value> debugBarrier(FunctionCodegen &cg, CallArgs &args) {
  FailureOr<BoundArgs> a = cg.bindArgs(args, "debug_barrier", {}, 0);
  if (failed(a))
    return failure();
  tt::DebugBarrierOp::create(cg.b, cg.loc);
  return Value::none();
}

/// tl.multiple_of, tl.max_contiguous and tl.max_constancy.
static FailureOr<Value> hint(FunctionCodegen &cg, CallArgs &args,
                             llvm::StringRef name) {
  FailureOr<BoundArgs> a = cg.bindArgs(args, name, {"input", "values"}, 2);
  if (failed(a))
    return failure();
  FailureOr<Value> in = cg.requireTensor((*a)[0], "input", a->exprs[0]);
  if (failed(in))
    return failure();
  llvm::SmallVector<Value> elts;
  if ((*a)[1].isTuple())
    elts.append((*a)[1].getElements().begin(), (*a)[1].getElements().end());
  else
    elts.push_back((*a)[1]);
  llvm::SmallVector<int64_t> values;
  for (size_t i = 0; i < elts.size(); ++i) {
    const Value &e = elts[i];
    if (!e.isConstexpr() || !e.getHost().isInt())
      return cg.fail(a->exprs[1] ? a->exprs[1]->getLoc().ptr : cg.curLoc,
                     llvm::formatv("values element {0} must have type "
                                   "`constexpr[int]`, got {1}",
                                   i, e.typeStr()));
    int64_t v = e.getHost().getInt();
    if (v < 1)
      return cg.fail(a->exprs[1] ? a->exprs[1]->getLoc().ptr : cg.curLoc,
                     llvm::formatv("values element {0} must be positive, got "
                                   "{1}",
                                   i, v));
    // The facts are recorded as powers of two: the largest dividing the
    // value is implied by it.
    values.push_back(v & -v);
  }
  size_t rank = in->getType().getShape().size();
  bool isMultipleOf = name == "multiple_of";
  size_t expected = isMultipleOf ? std::max<size_t>(1, rank) : rank;
  if (values.size() != expected)
    return cg.fail("the shape of the input to " + name +
                   " does not match the length of values");
  if (values.empty())
    return *in;
  auto attr = mlir::DenseI64ArrayAttr::get(cg.getContext(), values);
  llvm::StringRef attrName = isMultipleOf               ? "divisibility"
                             : name == "max_contiguous" ? "contiguity"
                                                        : "constancy";
  // Triton marks the defining op; hints on a hint merge into it.
  if (auto prev = in->getHandle().getDefiningOp<tt::HintOp>()) {
    prev->setAttr(attrName, attr);
    return *in;
  }
  auto op = tt::HintOp::create(cg.b, cg.loc, in->getHandle(), nullptr, nullptr,
                               nullptr);
  op->setAttr(attrName, attr);
  return Value::tensor(op, in->getType());
}

static FailureOr<Value> assume(FunctionCodegen &cg, CallArgs &args) {
  FailureOr<BoundArgs> a = cg.bindArgs(args, "assume", {"cond"}, 1);
  if (failed(a))
    return failure();
  FailureOr<Value> cond = cg.requireTensor((*a)[0], "cond", a->exprs[0]);
  if (failed(cond))
    return failure();
  if (cond->getType().isBlock() || !cond->getType().isBool())
    return cg.fail("tl.assume needs a scalar boolean condition, got " +
                   cond->getType().str());
  tt::AssumeOp::create(cg.b, cg.loc, cond->getHandle());
  return Value::none();
}

static FailureOr<Value> inlineAsm(FunctionCodegen &cg, CallArgs &args) {
  FailureOr<BoundArgs> a = cg.bindArgs(
      args, "inline_asm_elementwise",
      {"asm", "constraints", "args", "dtype", "is_pure", "pack"}, 6);
  if (failed(a))
    return failure();
  FailureOr<std::string> asmStr = cg.requireString((*a)[0], "asm", a->exprs[0]);
  FailureOr<std::string> constraints =
      cg.requireString((*a)[1], "constraints", a->exprs[1]);
  FailureOr<bool> pure = cg.requireBool((*a)[4], "is_pure", a->exprs[4]);
  FailureOr<int64_t> pack = cg.requireInt((*a)[5], "pack", a->exprs[5]);
  if (failed(asmStr) || failed(constraints) || failed(pure) || failed(pack))
    return failure();
  if (*pack < 1)
    return cg.fail(a->exprs[5] ? a->exprs[5]->getLoc().ptr : cg.curLoc,
                   "inline_asm_elementwise: pack must be 1 or more, got " +
                       std::to_string(*pack));
  bool multiple = (*a)[3].isTuple();
  std::vector<TType> dtypes;
  llvm::SmallVector<Value> dtypeVals;
  if (multiple)
    dtypeVals.append((*a)[3].getElements().begin(),
                     (*a)[3].getElements().end());
  else
    dtypeVals.push_back((*a)[3]);
  if (dtypeVals.empty())
    return cg.fail(a->exprs[3], "inline_asm_elementwise needs at least one "
                                "result dtype");
  for (const Value &d : dtypeVals) {
    FailureOr<TType> t = cg.requireDType(d, "dtype", a->exprs[3]);
    if (failed(t))
      return failure();
    dtypes.push_back(*t);
  }
  std::vector<Value> operands;
  llvm::SmallVector<Value> argVals;
  if ((*a)[2].isTuple())
    argVals.append((*a)[2].getElements().begin(), (*a)[2].getElements().end());
  else
    argVals.push_back((*a)[2]);
  for (const Value &v : argVals) {
    FailureOr<Value> t = cg.requireTensor(v, "an argument", a->exprs[2]);
    if (failed(t))
      return failure();
    operands.push_back(*t);
  }
  // The results' shape is the arguments' (as in Triton, which fails on an
  // empty list too); without any, the op had no shape and no lowering.
  if (operands.empty())
    return cg.fail(a->exprs[2],
                   "inline_asm_elementwise needs at least one tensor argument: "
                   "the result takes its shape from the arguments");
  // Broadcast every argument to the common shape.
  FailureOr<std::vector<Value>> broadcast = cg.broadcastAll(operands);
  if (failed(broadcast))
    return failure();
  operands = *broadcast;
  std::vector<int64_t> shape;
  if (!operands.empty())
    shape.assign(operands[0].getType().getShape().begin(),
                 operands[0].getType().getShape().end());
  llvm::SmallVector<mlir::Type> resultTypes;
  std::vector<TType> results;
  for (const TType &d : dtypes) {
    TType t = shape.empty() ? d : TType::block(d, shape);
    results.push_back(t);
    resultTypes.push_back(t.toMLIR(cg.getContext()));
  }
  llvm::SmallVector<mlir::Value> handles;
  for (const Value &v : operands)
    handles.push_back(v.getHandle());
  auto op = tt::InlineAsmElementwiseOp::create(cg.b, cg.loc, resultTypes,
                                               handles, *asmStr, *constraints,
                                               *pure, uint32_t(*pack));
  std::vector<Value> out;
  for (size_t i = 0; i < results.size(); ++i)
    out.push_back(Value::tensor(op.getResult()[i], results[i]));
  if (!multiple)
    return out[0];
  return Value::tuple(std::move(out));
}

void tessera::frontend::codegen::registerDebugBuiltins(BuiltinRegistry &r) {
  r.add("triton.language.static_assert", staticAssert);
  r.add("triton.language.static_print", staticPrint);
  r.add("triton.language.device_print", devicePrint);
  r.add("builtins.print", devicePrint);
  r.add("triton.language.device_assert", deviceAssert);
  r.add("triton.language.debug_barrier", debugBarrier);
  r.add("triton.language.multiple_of", [](FunctionCodegen &cg, CallArgs &a) {
    return hint(cg, a, "multiple_of");
  });
  r.add("triton.language.max_contiguous", [](FunctionCodegen &cg, CallArgs &a) {
    return hint(cg, a, "max_contiguous");
  });
  r.add("triton.language.max_constancy", [](FunctionCodegen &cg, CallArgs &a) {
    return hint(cg, a, "max_constancy");
  });
  r.add("triton.language.assume", assume);
  r.add("triton.language.inline_asm_elementwise", inlineAsm);
}
