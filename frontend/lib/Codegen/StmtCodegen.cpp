//===- StmtCodegen.cpp - Lowering of statements
//----------------------------===//
//
// Simple statements: assignments (Triton turns Python numbers assigned to a
// variable into tensors unless the target is annotated tl.constexpr),
// returns, asserts, expression statements, and the clear errors for
// everything device code cannot contain.
//
//===----------------------------------------------------------------------===//
#include "Builtins.h"

#include "tessera/Frontend/AST.h"

using namespace tessera::frontend;
using namespace tessera::frontend::codegen;
using llvm::cast;
using llvm::dyn_cast;
using llvm::failure;
using llvm::FailureOr;
using llvm::isa;
using llvm::LogicalResult;
using llvm::success;

bool tessera::frontend::codegen::containsReturn(StmtList stmts) {
  bool found = false;
  for (const Stmt *s : stmts)
    walk(s, [&](const Node *n) {
      if (isa<ReturnStmt>(n))
        found = true;
      // A nested def's returns are its own.
      return !found && !isa<FunctionDefStmt>(n) && !isa<LambdaExpr>(n);
    });
  return found;
}

/// Triton's _sanitize_value: what a plain assignment stores. Python numbers
/// become scalar tensors; None, dtypes, tensors and descriptors stay; other
/// compile-time values cannot live in a variable.
static FailureOr<Value> sanitize(FunctionCodegen &cg, const Value &v,
                                 const Expr *at) {
  switch (v.getKind()) {
  case Value::Kind::Tuple: {
    std::vector<Value> elts;
    for (const Value &e : v.getElements()) {
      FailureOr<Value> s = sanitize(cg, e, at);
      if (failed(s))
        return failure();
      elts.push_back(*s);
    }
    return Value::tuple(std::move(elts));
  }
  case Value::Kind::Constexpr:
    if (v.isNone())
      return v;
    if (v.isNumber()) {
      LocationScope scope(cg, at);
      return cg.toTensor(v);
    }
    return cg.fail(
        at, "cannot assign " + v.typeStr() + " to a variable in device code",
        "annotate the target (`x: tl.constexpr = ...`) to keep a "
        "compile-time value");
  case Value::Kind::Method:
    return cg.fail(at, "cannot assign a bound method to a variable");
  default:
    return v;
  }
}

LogicalResult FunctionCodegen::assignTarget(const Expr *target,
                                            const Value &value) {
  if (auto *name = dyn_cast<NameExpr>(target)) {
    setValue(name->getId(), value);
    return success();
  }
  if (auto *seq = dyn_cast<SequenceExpr>(target)) {
    if (!value.isTuple())
      return fail(target, "cannot unpack a value of type " + value.typeStr());
    llvm::ArrayRef<Expr *> elts = seq->getElts();
    // Report a starred target as such rather than as a count mismatch.
    for (const Expr *e : elts)
      if (isa<StarredExpr>(e))
        return fail(e, "starred assignment targets are not supported in "
                       "device code");
    if (elts.size() != value.getElements().size())
      return fail(target, "cannot unpack " +
                              std::to_string(value.getElements().size()) +
                              " values into " + std::to_string(elts.size()) +
                              " targets");
    for (size_t i = 0; i < elts.size(); ++i)
      if (failed(assignTarget(elts[i], value.getElements()[i])))
        return failure();
    return success();
  }
  if (isa<SubscriptExpr>(target))
    return fail(target,
                "item assignment is not supported in device code: "
                "tensors are immutable",
                "build a new tensor with tl.where");
  if (isa<AttributeExpr>(target))
    return fail(target, "attribute assignment is not supported in device code");
  if (isa<StarredExpr>(target))
    return fail(target, "starred assignment targets are not supported in "
                        "device code");
  return fail(target, "cannot assign to this expression");
}

/// True when `annotation` names tl.constexpr.
static bool isConstexprAnnotation(FunctionCodegen &cg, const Expr *annotation) {
  if (std::optional<std::string> q = cg.km.getQualifiedName(annotation)) {
    std::string c = canonicalBuiltinName(*q);
    return c == "triton.language.constexpr";
  }
  return false;
}

LogicalResult FunctionCodegen::lowerReturn(const ReturnStmt *s) {
  if (loopDepth > 0)
    return fail(s, "cannot have `return` statements inside `while` or `for` "
                   "statements in device code");
  Value v = Value::none();
  if (s->getValue()) {
    FailureOr<Value> r = lowerExpr(s->getValue());
    if (failed(r))
      return failure();
    // Triton returns numbers as tensors.
    std::function<FailureOr<Value>(const Value &)> decay =
        [&](const Value &x) -> FailureOr<Value> {
      if (x.isTuple()) {
        std::vector<Value> elts;
        for (const Value &e : x.getElements()) {
          FailureOr<Value> d = decay(e);
          if (failed(d))
            return failure();
          elts.push_back(*d);
        }
        return Value::tuple(std::move(elts));
      }
      if (x.isNumber())
        return toTensor(x);
      if (x.isNone() || x.isTensor() || x.isDescriptor())
        return x;
      return fail(s->getValue(), "cannot return a value of type " +
                                     x.typeStr() + " from a jit function");
    };
    FailureOr<Value> d = decay(*r);
    if (failed(d))
      return failure();
    v = *d;
  }
  if (isKernel && !v.isNone())
    return fail(s, "a kernel cannot return a value",
                "store results through a pointer argument");
  if (returnValue && !returnValue->sameType(v))
    return fail(s, "inconsistent return types: " + returnValue->typeStr() +
                       " and " + v.typeStr());
  returnValue = v;
  llvm::SmallVector<mlir::Value> handles;
  v.flatten(handles);
  mlir::func::ReturnOp::create(b, loc, handles);
  terminated = true;
  return success();
}

LogicalResult FunctionCodegen::lowerBlock(StmtList stmts) {
  for (const Stmt *s : stmts) {
    if (terminated)
      break;
    if (failed(lowerStmt(s)))
      return failure();
  }
  return success();
}

/// The name of a statement kind device code cannot contain, for errors.
static const char *unsupportedStmtName(NodeKind kind) {
  switch (kind) {
  case NodeKind::Break:
    return "'break'";
  case NodeKind::Continue:
    return "'continue'";
  case NodeKind::Del:
    return "'del'";
  case NodeKind::Global:
    return "'global'";
  case NodeKind::Nonlocal:
    return "'nonlocal'";
  case NodeKind::Import:
  case NodeKind::ImportFrom:
    return "'import'";
  case NodeKind::FunctionDef:
    return "a nested function definition";
  case NodeKind::ClassDef:
    return "a class definition";
  case NodeKind::With:
    return "'with'";
  case NodeKind::Try:
    return "'try'";
  case NodeKind::Raise:
    return "'raise'";
  default:
    return "this statement";
  }
}

LogicalResult FunctionCodegen::lowerStmt(const Stmt *s) {
  LocationScope scope(*this, s);
  switch (s->getKind()) {
  case NodeKind::Pass:
    return success();
  case NodeKind::ExprStmt: {
    const Expr *e = cast<ExprStmt>(s)->getValue();
    if (isa<StringLiteralExpr>(e))
      return success(); // a docstring
    // Triton rejects an unused tl.advance: it returns the moved pointer.
    if (auto *call = dyn_cast<CallExpr>(e)) {
      const Expr *f = call->getFunc();
      bool isAdvance = false;
      if (auto *attr = dyn_cast<AttributeExpr>(f))
        isAdvance = attr->getAttr() == "advance";
      if (isAdvance)
        return fail(e, "the result of advance() is not being used",
                    "advance returns the moved block pointer; assign it "
                    "(ptr = tl.advance(ptr, offsets))");
    }
    return failure(failed(lowerExpr(e)));
  }
  case NodeKind::Assign: {
    auto *assign = cast<AssignStmt>(s);
    FailureOr<Value> v = lowerExpr(assign->getValue());
    if (failed(v))
      return failure();
    FailureOr<Value> clean = sanitize(*this, *v, assign->getValue());
    if (failed(clean))
      return failure();
    for (const Expr *target : assign->getTargets())
      if (failed(assignTarget(target, *clean)))
        return failure();
    return success();
  }
  case NodeKind::AnnAssign: {
    auto *assign = cast<AnnAssignStmt>(s);
    if (!assign->getValue())
      return success();
    FailureOr<Value> v = lowerExpr(assign->getValue());
    if (failed(v))
      return failure();
    if (isConstexprAnnotation(*this, assign->getAnnotation())) {
      auto *name = dyn_cast<NameExpr>(assign->getTarget());
      if (!name)
        return fail(assign->getTarget(),
                    "a tl.constexpr annotation needs a simple name");
      if (vars.count(name->getId().str()))
        return fail(assign->getTarget(),
                    "'" + name->getId() +
                        "' is already defined; a constexpr cannot be "
                        "reassigned");
      if (!v->isConstexprLike() && !(v->isTuple() && !v->isIRValue())) {
        // Triton wraps whatever the annotation receives and goes on with
        // the run-time value inside (library kernels rely on it); say so,
        // since the author likely meant a constant.
        if (!v->isTensor() || v->getType().getElement().isPointer())
          return fail(assign->getValue(),
                      "a tl.constexpr variable needs a compile-time value, "
                      "got " +
                          v->typeStr());
        m.diags.warning(assign->getValue()->getLoc().ptr,
                        "'" + name->getId() +
                            "' is annotated tl.constexpr but its value is a "
                            "run-time " +
                            v->typeStr() +
                            "; it stays a run-time value, as in Triton");
        FailureOr<Value> clean = sanitize(*this, *v, assign->getValue());
        if (failed(clean))
          return failure();
        return assignTarget(assign->getTarget(), *clean);
      }
      vars[name->getId().str()] = *v;
      return success();
    }
    FailureOr<Value> clean = sanitize(*this, *v, assign->getValue());
    if (failed(clean))
      return failure();
    return assignTarget(assign->getTarget(), *clean);
  }
  case NodeKind::AugAssign: {
    auto *assign = cast<AugAssignStmt>(s);
    if (!isa<NameExpr>(assign->getTarget()))
      return fail(assign->getTarget(),
                  "augmented assignment to this target is not supported in "
                  "device code; tensors are immutable");
    FailureOr<Value> lhs = lowerExpr(assign->getTarget());
    if (failed(lhs))
      return failure();
    FailureOr<Value> rhs = lowerExpr(assign->getValue());
    if (failed(rhs))
      return failure();
    FailureOr<Value> r;
    if (lhs->isTensor() || rhs->isTensor()) {
      r = binaryOp(assign->getOp(), *lhs, *rhs);
    } else {
      std::optional<HostValue> l = lhs->toHost(), rh = rhs->toHost();
      if (!l || !rh)
        return fail(s, "unsupported operand types for " +
                           getSpelling(assign->getOp()) +
                           "=: " + lhs->typeStr() + " and " + rhs->typeStr());
      FailureOr<HostValue> h =
          m.eval.evalBinary(assign->getOp(), *l, *rh, s->getLoc().ptr);
      if (failed(h))
        return failure();
      r = Value::fromHost(*h);
    }
    if (failed(r))
      return failure();
    FailureOr<Value> clean = sanitize(*this, *r, assign->getValue());
    if (failed(clean))
      return failure();
    return assignTarget(assign->getTarget(), *clean);
  }
  case NodeKind::If:
    return lowerIf(cast<IfStmt>(s));
  case NodeKind::For:
    return lowerFor(cast<ForStmt>(s));
  case NodeKind::While:
    return lowerWhile(cast<WhileStmt>(s));
  case NodeKind::Return:
    return lowerReturn(cast<ReturnStmt>(s));
  case NodeKind::Assert: {
    auto *as = cast<AssertStmt>(s);
    CallArgs args;
    args.loc = s->getLoc().ptr;
    FailureOr<Value> test = lowerExpr(as->getTest());
    if (failed(test))
      return failure();
    args.add(*test, as->getTest());
    if (as->getMsg()) {
      FailureOr<Value> msg = lowerExpr(as->getMsg());
      if (failed(msg))
        return failure();
      args.add(*msg, as->getMsg());
    }
    std::optional<FailureOr<Value>> r =
        callBuiltin("triton.language.device_assert", args);
    return failure(!r || failed(*r));
  }
  default: {
    std::string what = unsupportedStmtName(s->getKind());
    const char *hint = "";
    if (s->getKind() == NodeKind::Break || s->getKind() == NodeKind::Continue)
      hint = "restructure the loop: use a while loop whose condition says "
             "when to stop, or mask the rest of the iteration";
    return fail(s, what + " is not supported in device code", hint);
  }
  }
}
