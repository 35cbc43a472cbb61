//===- ControlFlow.cpp - if, for, while and conditional expressions -------===//
//
// Control flow keeps Triton's rules:
//  - A constexpr condition compiles only the branch taken.
//  - A run-time `if` becomes scf.if yielding the variables either branch
//    reassigns and those both branches define (with equal types); names
//    bound in one branch only are not visible after it. An `if` containing a
//    `return` becomes blocks and branches (cf) at function level instead.
//  - A loop body is lowered twice: a first, discarded time to find which
//    variables it reassigns, then for real into scf.for / scf.while carrying
//    exactly those. A carried variable keeps its type across iterations.
//
//===----------------------------------------------------------------------===//
#include "Builtins.h"

#include "tessera/Frontend/Codegen/Promotion.h"
#include "tessera/Frontend/Limits.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cstdint>

using namespace tessera::frontend;
using namespace tessera::frontend::codegen;
using llvm::cast;
using llvm::dyn_cast;
using llvm::failure;
using llvm::FailureOr;
using llvm::LogicalResult;
using llvm::success;
namespace scf = mlir::scf;

static bool sameHandles(const Value &a, const Value &b) {
  llvm::SmallVector<mlir::Value> ha, hb;
  a.flatten(ha);
  b.flatten(hb);
  return ha == hb;
}

/// Values that live in IR and so may be yielded by regions (Triton's
/// _is_triton_value).
static bool isRegionValue(const Value &v) {
  return v.isTensor() || v.isTuple() || v.isDescriptor();
}

FailureOr<Value> FunctionCodegen::conditionValue(const Value &cond,
                                                 const Node *at) {
  if (cond.isTensor()) {
    Value c = cond;
    if (c.getType().isBlock()) {
      if (c.getType().getNumElements() != 1)
        return fail(at,
                    "the truth value of a tensor with more than one "
                    "element is ambiguous",
                    "reduce it first (tl.max, tl.sum, ...) or use tl.where");
      FailureOr<Value> s = unsplat(*this, c);
      if (failed(s))
        return failure();
      c = *s;
    }
    return castTo(c, TType::scalar(ScalarKind::Int1));
  }
  if (cond.isConstexpr() && (cond.getHost().isIntegral() || cond.isNone()))
    return cond;
  return fail(at, "conditions can only be tensors or constexprs of type "
                  "bool, int or None, not " +
                      cond.typeStr());
}

//===----------------------------------------------------------------------===//
// if
//===----------------------------------------------------------------------===//

namespace {
/// What one branch of an `if` left behind.
struct BranchResult {
  Scope vars;
  Scope defs;
  mlir::Block *end = nullptr;
  bool terminated = false;
};
} // namespace

/// The names an `if` must merge, with Triton's type checks: variables live
/// before the `if` that either branch changed, then names both branches
/// define.
static FailureOr<std::vector<std::string>>
mergedNames(FunctionCodegen &cg, const Scope &liveins, BranchResult &thenR,
            BranchResult &elseR, const Node *at) {
  std::vector<std::string> names;
  for (const auto &[name, value] : liveins) {
    if (!isRegionValue(value))
      continue;
    const Value &tv = thenR.vars.lookup(name), &ev = elseR.vars.lookup(name);
    if (sameHandles(tv, ev))
      continue;
    names.push_back(name);
    thenR.defs[name] = tv;
    elseR.defs[name] = ev;
    for (auto [defs, branch] :
         {std::pair{&thenR.defs, "then"}, std::pair{&elseR.defs, "else"}}) {
      const Value &d = (*defs)[name];
      if (!d.sameType(value))
        return cg.fail(at,
                       "the initial value of '" + name + "' has type " +
                           value.typeStr() + ", but the " + branch +
                           " branch redefines it as " + d.typeStr(),
                       "a variable keeps its type across the branches of "
                       "an if with a run-time condition");
    }
  }
  std::vector<std::string> both;
  for (const auto &[name, v] : thenR.defs)
    if (elseR.defs.count(name) && !llvm::is_contained(names, name))
      both.push_back(name);
  llvm::sort(both);
  for (const std::string &name : both) {
    const Value &tv = thenR.defs[name], &ev = elseR.defs[name];
    if (!tv.sameType(ev))
      return cg.fail(at, "mismatched type for '" + name +
                             "' between the then branch (" + tv.typeStr() +
                             ") and the else branch (" + ev.typeStr() + ")");
    if (!isRegionValue(tv))
      continue;
    names.push_back(name);
  }
  return names;
}

/// Lowers one branch into `block` starting from `liveins`.
static LogicalResult lowerBranch(FunctionCodegen &cg, StmtList body,
                                 const Scope &liveins, mlir::Block *block,
                                 BranchResult &out) {
  cg.vars = liveins;
  cg.localDefs.clear();
  cg.terminated = false;
  cg.b.setInsertionPointToEnd(block);
  if (failed(cg.lowerBlock(body)))
    return failure();
  out.vars = cg.vars;
  out.defs = cg.localDefs;
  out.end = cg.b.getInsertionBlock();
  out.terminated = cg.terminated;
  return success();
}

/// Rebinds `names` to `handles` after a merge, in the enclosing scope.
static void bindMerged(FunctionCodegen &cg, llvm::ArrayRef<std::string> names,
                       const Scope &protos,
                       llvm::ArrayRef<mlir::Value> handles) {
  size_t cursor = 0;
  for (const std::string &name : names)
    cg.setValue(name, protos.lookup(name).unflatten(handles, cursor));
}

/// An `if` whose branches contain a `return`: blocks and branches.
static LogicalResult lowerIfWithReturn(FunctionCodegen &cg, const IfStmt *s,
                                       const Value &cond) {
  Scope liveins = cg.vars, outerDefs = cg.localDefs;
  mlir::Block *current = cg.b.getInsertionBlock();
  mlir::Region *region = current->getParent();
  auto *thenBlock = new mlir::Block(), *elseBlock = new mlir::Block();
  region->push_back(thenBlock);
  region->push_back(elseBlock);
  cg.b.setInsertionPointToEnd(current);
  mlir::cf::CondBranchOp::create(cg.b, cg.loc, cond.getHandle(), thenBlock,
                                 elseBlock);
  BranchResult thenR, elseR;
  if (failed(lowerBranch(cg, s->getBody(), liveins, thenBlock, thenR)) ||
      failed(lowerBranch(cg, s->getOrElse(), liveins, elseBlock, elseR)))
    return failure();
  cg.localDefs = outerDefs;
  if (thenR.terminated && elseR.terminated) {
    cg.vars = liveins;
    cg.terminated = true;
    return success();
  }
  // When one branch returned, the code after the `if` is the other branch's
  // continuation.
  if (thenR.terminated || elseR.terminated) {
    BranchResult &live = thenR.terminated ? elseR : thenR;
    cg.vars = live.vars;
    for (const auto &[name, v] : live.defs)
      cg.localDefs[name] = v;
    cg.terminated = false;
    cg.b.setInsertionPointToEnd(live.end);
    return success();
  }
  FailureOr<std::vector<std::string>> names =
      mergedNames(cg, liveins, thenR, elseR, s);
  if (failed(names))
    return failure();
  llvm::SmallVector<mlir::Value> thenHandles, elseHandles;
  for (const std::string &name : *names) {
    thenR.defs[name].flatten(thenHandles);
    elseR.defs[name].flatten(elseHandles);
  }
  auto *merge = new mlir::Block();
  region->push_back(merge);
  for (mlir::Value h : thenHandles)
    merge->addArgument(h.getType(), cg.loc);
  cg.b.setInsertionPointToEnd(thenR.end);
  mlir::cf::BranchOp::create(cg.b, cg.loc, merge, thenHandles);
  cg.b.setInsertionPointToEnd(elseR.end);
  mlir::cf::BranchOp::create(cg.b, cg.loc, merge, elseHandles);
  cg.vars = liveins;
  cg.terminated = false;
  cg.b.setInsertionPointToEnd(merge);
  llvm::SmallVector<mlir::Value> args(merge->getArguments());
  bindMerged(cg, *names, thenR.defs, args);
  return success();
}

LogicalResult FunctionCodegen::lowerIf(const IfStmt *s) {
  FailureOr<Value> test = lowerExpr(s->getTest());
  if (failed(test))
    return failure();
  FailureOr<Value> cond = conditionValue(*test, s->getTest());
  if (failed(cond))
    return failure();
  if (!cond->isTensor())
    return lowerBlock(cond->getHost().isTruthy() ? s->getBody()
                                                 : s->getOrElse());
  if (containsReturn(s->getBody()) || containsReturn(s->getOrElse())) {
    if (loopDepth > 0)
      return fail(s, "cannot have `return` statements inside `while` or "
                     "`for` statements in device code");
    return lowerIfWithReturn(*this, s, *cond);
  }

  Scope liveins = vars, outerDefs = localDefs;
  mlir::OpBuilder::InsertPoint ip = b.saveInsertionPoint();
  auto thenBlock = std::make_unique<mlir::Block>();
  std::unique_ptr<mlir::Block> elseBlock;
  BranchResult thenR, elseR;
  if (failed(lowerBranch(*this, s->getBody(), liveins, thenBlock.get(), thenR)))
    return failure();
  if (!s->getOrElse().empty()) {
    elseBlock = std::make_unique<mlir::Block>();
    if (failed(lowerBranch(*this, s->getOrElse(), liveins, elseBlock.get(),
                           elseR)))
      return failure();
  } else {
    elseR.vars = liveins;
  }
  terminated = false;
  localDefs = outerDefs;
  b.restoreInsertionPoint(ip);
  FailureOr<std::vector<std::string>> names =
      mergedNames(*this, liveins, thenR, elseR, s);
  if (failed(names))
    return failure();
  llvm::SmallVector<mlir::Value> thenHandles, elseHandles;
  for (const std::string &name : *names) {
    thenR.defs[name].flatten(thenHandles);
    elseR.defs[name].flatten(elseHandles);
  }
  llvm::SmallVector<mlir::Type> types;
  for (mlir::Value h : thenHandles)
    types.push_back(h.getType());
  auto ifOp = scf::IfOp::create(b, loc, types, cond->getHandle(),
                                /*addThenBlock=*/false,
                                /*addElseBlock=*/false);
  ifOp.getThenRegion().push_back(thenBlock.release());
  b.setInsertionPointToEnd(&ifOp.getThenRegion().front());
  scf::YieldOp::create(b, loc, thenHandles);
  if (elseBlock || !types.empty()) {
    if (!elseBlock)
      elseBlock = std::make_unique<mlir::Block>();
    ifOp.getElseRegion().push_back(elseBlock.release());
    b.setInsertionPointToEnd(&ifOp.getElseRegion().front());
    scf::YieldOp::create(b, loc, elseHandles);
  }
  b.setInsertionPointAfter(ifOp);
  vars = liveins;
  llvm::SmallVector<mlir::Value> results(ifOp.getResults());
  bindMerged(*this, *names, thenR.defs, results);
  return success();
}

FailureOr<Value> FunctionCodegen::lowerIfExp(const IfExpExpr *e) {
  FailureOr<Value> test = lowerExpr(e->getTest());
  if (failed(test))
    return failure();
  FailureOr<Value> cond = conditionValue(*test, e->getTest());
  if (failed(cond))
    return failure();
  if (!cond->isTensor())
    return lowerExpr(cond->getHost().isTruthy() ? e->getBody()
                                                : e->getOrElse());
  mlir::OpBuilder::InsertPoint ip = b.saveInsertionPoint();
  // A call that returns nothing (tl.store, ...) is Triton's void tensor:
  // when both arms are such calls the expression only chooses which runs.
  auto isVoid = [](const Expr *arm, const Value &v) {
    return v.isNone() && llvm::isa<CallExpr>(arm);
  };
  bool thenVoid = false, elseVoid = false;
  auto lowerArm = [&](const Expr *arm, mlir::Block *block,
                      bool &armVoid) -> FailureOr<Value> {
    b.setInsertionPointToEnd(block);
    FailureOr<Value> v = lowerExpr(arm);
    if (failed(v))
      return failure();
    armVoid = isVoid(arm, *v);
    if (armVoid)
      return *v;
    LocationScope scope(*this, arm);
    return toTensor(*v);
  };
  auto thenBlock = std::make_unique<mlir::Block>();
  auto elseBlock = std::make_unique<mlir::Block>();
  FailureOr<Value> thenV = lowerArm(e->getBody(), thenBlock.get(), thenVoid);
  if (failed(thenV))
    return failure();
  FailureOr<Value> elseV = lowerArm(e->getOrElse(), elseBlock.get(), elseVoid);
  if (failed(elseV))
    return failure();
  b.restoreInsertionPoint(ip);
  if (thenVoid && elseVoid) {
    auto ifOp = scf::IfOp::create(b, loc, mlir::TypeRange{}, cond->getHandle(),
                                  false, false);
    ifOp.getThenRegion().push_back(thenBlock.release());
    b.setInsertionPointToEnd(&ifOp.getThenRegion().front());
    scf::YieldOp::create(b, loc);
    ifOp.getElseRegion().push_back(elseBlock.release());
    b.setInsertionPointToEnd(&ifOp.getElseRegion().front());
    scf::YieldOp::create(b, loc);
    b.setInsertionPointAfter(ifOp);
    return Value::none();
  }
  if (thenVoid != elseVoid)
    return fail(e,
                "a conditional expression with a run-time condition has "
                "inconsistent types: one branch returns nothing",
                "make both branches calls that return nothing, or both "
                "values");
  if (!thenV->sameType(*elseV))
    return fail(e, "a conditional expression with a run-time condition has "
                   "inconsistent types " +
                       thenV->typeStr() + " and " + elseV->typeStr());
  mlir::Type type = thenV->getHandle().getType();
  auto ifOp = scf::IfOp::create(b, loc, mlir::TypeRange{type},
                                cond->getHandle(), false, false);
  ifOp.getThenRegion().push_back(thenBlock.release());
  b.setInsertionPointToEnd(&ifOp.getThenRegion().front());
  scf::YieldOp::create(b, loc, thenV->getHandle());
  ifOp.getElseRegion().push_back(elseBlock.release());
  b.setInsertionPointToEnd(&ifOp.getElseRegion().front());
  scf::YieldOp::create(b, loc, elseV->getHandle());
  b.setInsertionPointAfter(ifOp);
  return Value::tensor(ifOp.getResult(0), thenV->getType());
}

//===----------------------------------------------------------------------===//
// Loops
//===----------------------------------------------------------------------===//

/// Lowers a loop body once into a throwaway block (whose arguments stand for
/// `extraArgs`, bound by `bind`) and returns the live-in names it reassigns.
static FailureOr<std::vector<std::string>>
findCarries(FunctionCodegen &cg, StmtList body, const Scope &liveins,
            llvm::StringRef ignore, const Node *at,
            llvm::function_ref<void(mlir::Block *)> bind) {
  mlir::OpBuilder::InsertPoint ip = cg.b.saveInsertionPoint();
  auto block = std::make_unique<mlir::Block>();
  cg.b.setInsertionPointToEnd(block.get());
  cg.vars = liveins;
  cg.localDefs.clear();
  bind(block.get());
  ++cg.m.dryRunDepth;
  ++cg.loopDepth;
  LogicalResult result = cg.lowerBlock(body);
  --cg.loopDepth;
  --cg.m.dryRunDepth;
  Scope after = cg.vars, defs = cg.localDefs;
  cg.b.restoreInsertionPoint(ip);
  block->dropAllDefinedValueUses();
  block->dropAllReferences();
  block.reset();
  cg.vars = liveins;
  cg.localDefs.clear();
  cg.terminated = false;
  if (failed(result))
    return failure();
  std::vector<std::string> names;
  for (const auto &[name, live] : liveins) {
    if (name == ignore)
      continue;
    if (!isRegionValue(live)) {
      if (defs.count(name))
        return cg.fail(at,
                       "'" + name +
                           "' holds a compile-time value before the "
                           "loop and cannot be reassigned in it",
                       "give it a tensor value before the loop");
      continue;
    }
    const Value &loopVal = after.lookup(name);
    if (!loopVal.sameType(live))
      return cg.fail(at,
                     "loop-carried variable '" + name + "' has initial type " +
                         live.typeStr() + " but is reassigned to " +
                         loopVal.typeStr() + " in the loop",
                     "make sure the type stays the same, e.g. with .to()");
    if (!sameHandles(loopVal, live))
      names.push_back(name);
  }
  return names;
}

namespace {
/// The iteration of a `for` over range or tl.range.
struct RangeSpec {
  Value lb, ub, step;
  std::optional<int64_t> numStages, unrollFactor;
  bool disallowAccMultiBuffer = false, flatten = false, warpSpecialize = false,
       disableLicm = false;
};
} // namespace

/// Integer cast to the induction variable type, with the extension Triton
/// picks (by the destination's signedness).
static Value castIV(FunctionCodegen &cg, const Value &v, const TType &iv) {
  unsigned from = v.getType().getPrimitiveBitwidth(),
           to = iv.getPrimitiveBitwidth();
  mlir::Type t = iv.toMLIR(cg.getContext());
  if (from == to)
    return Value::tensor(v.getHandle(), iv);
  if (from > to)
    return Value::tensor(
        mlir::arith::TruncIOp::create(cg.b, cg.loc, t, v.getHandle()), iv);
  if (iv.isSignedInt())
    return Value::tensor(
        mlir::arith::ExtSIOp::create(cg.b, cg.loc, t, v.getHandle()), iv);
  return Value::tensor(
      mlir::arith::ExtUIOp::create(cg.b, cg.loc, t, v.getHandle()), iv);
}

LogicalResult FunctionCodegen::lowerFor(const ForStmt *s) {
  if (s->hasElse())
    return fail(s->getOrElse().front(),
                "'else' on a for loop is not supported in device code");
  auto *iterCall = dyn_cast<CallExpr>(s->getIter());
  if (!iterCall)
    return fail(s->getIter(), "device code can only loop over range(), "
                              "tl.range() or tl.static_range()");
  FailureOr<Value> callee = lowerExpr(iterCall->getFunc());
  if (failed(callee))
    return failure();
  std::string kind;
  if (callee->isConstexpr() && callee->getHost().isSymbol())
    kind = canonicalBuiltinName(callee->getHost().getString());
  if (kind != "builtins.range" && kind != "triton.language.range" &&
      kind != "triton.language.static_range")
    return fail(s->getIter(), "device code can only loop over range(), "
                              "tl.range() or tl.static_range()");
  auto *target = dyn_cast<NameExpr>(s->getTarget());
  if (!target)
    return fail(s->getTarget(), "the target of a for loop must be a single "
                                "name in device code");
  CallArgs args;
  args.loc = iterCall->getLoc().ptr;
  for (const Expr *a : iterCall->getArgs()) {
    FailureOr<Value> v = lowerExpr(a);
    if (failed(v))
      return failure();
    args.add(*v, a);
  }
  for (const Keyword &kw : iterCall->getKeywords()) {
    FailureOr<Value> v = lowerExpr(kw.value);
    if (failed(v))
      return failure();
    args.addKeyword(kw.name.str(), *v, kw.value);
  }
  llvm::StringRef fnName = kind == "builtins.range" ? "range"
                           : kind == "triton.language.range"
                               ? "tl.range"
                               : "tl.static_range";
  std::vector<llvm::StringRef> params = {"arg1", "arg2", "step"};
  if (kind == "triton.language.range")
    params.insert(params.end(), {"num_stages", "loop_unroll_factor",
                                 "disallow_acc_multi_buffer", "flatten",
                                 "warp_specialize", "disable_licm"});
  FailureOr<BoundArgs> bound = bindArgs(args, fnName, params, 1);
  if (failed(bound))
    return failure();
  RangeSpec range;
  if (bound->given[1]) {
    range.lb = (*bound)[0];
    range.ub = (*bound)[1];
  } else {
    range.lb = Value::constant(HostValue::integer(0));
    range.ub = (*bound)[0];
  }
  range.step =
      bound->given[2] ? (*bound)[2] : Value::constant(HostValue::integer(1));

  if (kind == "triton.language.static_range") {
    FailureOr<int64_t> lo =
        requireInt(range.lb, "the start of tl.static_range");
    FailureOr<int64_t> hi = requireInt(range.ub, "the end of tl.static_range");
    FailureOr<int64_t> st =
        requireInt(range.step, "the step of tl.static_range");
    if (failed(lo) || failed(hi) || failed(st))
      return failure();
    if (*st == 0)
      return fail(s->getIter(), "tl.static_range() step must not be zero");
    // Every iteration is a copy of the body in the IR: the count is bounded
    // per kernel (nested loops multiply), so that tl.static_range(2**40)
    // is an error rather than a compiler that never finishes. 128-bit
    // arithmetic: the bounds may span all of int64.
    __int128 span = *st > 0 ? __int128(*hi) - *lo : __int128(*lo) - *hi;
    __int128 stride = *st > 0 ? __int128(*st) : -__int128(*st);
    int64_t trips = span <= 0 ? 0
                              : int64_t(std::min<__int128>(
                                    (span + stride - 1) / stride, INT64_MAX));
    if (trips > kMaxStaticRangeIterations - m.staticRangeIterations)
      return fail(s->getIter(),
                  llvm::formatv("tl.static_range would unroll {0} more "
                                "iterations, past the limit of {1} unrolled "
                                "iterations per kernel",
                                trips, kMaxStaticRangeIterations),
                  "use tl.range() or range() for a loop that runs that often");
    m.staticRangeIterations += trips;
    for (int64_t t = 0; t < trips; ++t) {
      // Between lo and hi, so it fits; t * step alone may not (lo < 0).
      int64_t i = int64_t(__int128(*lo) + __int128(t) * *st);
      vars[target->getId().str()] = Value::constant(HostValue::integer(i));
      if (failed(lowerBlock(s->getBody())))
        return failure();
      if (terminated)
        break;
    }
    return success();
  }

  if (kind == "triton.language.range") {
    for (auto [idx, field] :
         {std::pair{3u, &range.numStages}, std::pair{4u, &range.unrollFactor}})
      if (bound->has(idx)) {
        FailureOr<int64_t> v =
            requireInt((*bound)[idx], params[idx], bound->exprs[idx]);
        if (failed(v))
          return failure();
        *field = *v;
      }
    for (auto [idx, field] :
         {std::pair{5u, &range.disallowAccMultiBuffer},
          std::pair{6u, &range.flatten}, std::pair{7u, &range.warpSpecialize},
          std::pair{8u, &range.disableLicm}})
      if (bound->has(idx)) {
        FailureOr<bool> v =
            requireBool((*bound)[idx], params[idx], bound->exprs[idx]);
        if (failed(v))
          return failure();
        *field = *v;
      }
  }

  // A negative constant step runs the loop upwards and maps the counter.
  bool negativeStep = false;
  if (range.step.isConstexpr() && range.step.getHost().isIntegral() &&
      range.step.getHost().getInt() < 0) {
    range.step =
        Value::constant(HostValue::integer(-range.step.getHost().getInt()));
    std::swap(range.lb, range.ub);
    negativeStep = true;
  }
  Value bounds[3];
  const char *what[3] = {"lower bound", "upper bound", "step"};
  const Value *in[3] = {&range.lb, &range.ub, &range.step};
  for (int i = 0; i < 3; ++i) {
    LocationScope scope(*this, s->getIter());
    FailureOr<Value> t = toTensor(*in[i]);
    if (failed(t))
      return failure();
    if (!t->getType().isInt())
      return fail(s->getIter(), std::string("the ") + what[i] +
                                    " of a for loop must be an integer, got " +
                                    t->getType().str());
    if (t->getType().isBlock())
      return fail(s->getIter(), std::string("the ") + what[i] +
                                    " of a for loop must be a scalar, got " +
                                    t->getType().str());
    bounds[i] = *t;
  }
  TType ivType =
      promoteIntegers(promoteIntegers(bounds[0].getType(), bounds[1].getType()),
                      bounds[2].getType());
  for (Value &v : bounds)
    v = castIV(*this, v, ivType);

  Scope liveins = vars, outerDefs = localDefs;
  mlir::Type ivMLIR = ivType.toMLIR(getContext());
  std::string ivName = target->getId().str();
  FailureOr<std::vector<std::string>> names = findCarries(
      *this, s->getBody(), liveins, ivName, s, [&](mlir::Block *block) {
        setValue(ivName,
                 Value::tensor(block->addArgument(ivMLIR, loc), ivType));
      });
  if (failed(names))
    return failure();
  llvm::SmallVector<mlir::Value> inits;
  for (const std::string &name : *names)
    liveins.lookup(name).flatten(inits);
  // An unsigned induction variable compares unsigned (Triton compares
  // signed, which skips loops whose bounds exceed INT_MAX).
  auto forOp =
      scf::ForOp::create(b, loc, bounds[0].getHandle(), bounds[1].getHandle(),
                         bounds[2].getHandle(), inits, nullptr,
                         /*unsignedCmp=*/ivType.isUnsignedInt());
  auto setI32 = [&](llvm::StringRef name, std::optional<int64_t> v) {
    if (v)
      forOp->setAttr(name, b.getI32IntegerAttr(int32_t(*v)));
  };
  setI32("tessera.num_stages", range.numStages);
  setI32("tessera.loop_unroll_factor", range.unrollFactor);
  for (auto [name, flag] :
       {std::pair{"tessera.disallow_acc_multi_buffer",
                  range.disallowAccMultiBuffer},
        std::pair{"tessera.flatten", range.flatten},
        std::pair{"tessera.warp_specialize", range.warpSpecialize},
        std::pair{"tessera.disable_licm", range.disableLicm}})
    if (flag)
      forOp->setAttr(name, b.getUnitAttr());

  mlir::Block *body = forOp.getBody();
  if (!body->empty())
    body->back().erase(); // the implicit scf.yield
  b.setInsertionPointToEnd(body);
  vars = liveins;
  localDefs.clear();
  llvm::SmallVector<mlir::Value> iterArgs(forOp.getRegionIterArgs());
  bindMerged(*this, *names, liveins, iterArgs);
  Value iv = Value::tensor(forOp.getInductionVar(), ivType);
  if (negativeStep) {
    // Counting lb (the original end) up to ub: run ub - (iv - lb).
    auto d = mlir::arith::SubIOp::create(b, loc, bounds[1].getHandle(),
                                         iv.getHandle());
    auto r = mlir::arith::AddIOp::create(b, loc, d, bounds[0].getHandle());
    iv = Value::tensor(r, ivType);
  }
  setValue(ivName, iv);
  ++loopDepth;
  LogicalResult result = lowerBlock(s->getBody());
  --loopDepth;
  if (failed(result))
    return failure();
  llvm::SmallVector<mlir::Value> yields;
  for (const std::string &name : *names)
    vars.lookup(name).flatten(yields);
  scf::YieldOp::create(b, loc, yields);
  b.setInsertionPointAfter(forOp);
  vars = liveins;
  localDefs = outerDefs;
  llvm::SmallVector<mlir::Value> results(forOp.getResults());
  bindMerged(*this, *names, liveins, results);
  // The loop variable does not outlive the loop.
  vars.erase(ivName);
  localDefs.erase(ivName);
  return success();
}

LogicalResult FunctionCodegen::lowerWhile(const WhileStmt *s) {
  if (s->hasElse())
    return fail(s->getOrElse().front(),
                "'else' on a while loop is not supported in device code");
  Scope liveins = vars, outerDefs = localDefs;
  FailureOr<std::vector<std::string>> names =
      findCarries(*this, s->getBody(), liveins, "", s, [](mlir::Block *) {});
  if (failed(names))
    return failure();
  llvm::SmallVector<mlir::Value> inits;
  for (const std::string &name : *names)
    liveins.lookup(name).flatten(inits);
  llvm::SmallVector<mlir::Type> types;
  llvm::SmallVector<mlir::Location> locs;
  for (mlir::Value v : inits) {
    types.push_back(v.getType());
    locs.push_back(loc);
  }
  auto whileOp = scf::WhileOp::create(b, loc, types, inits);
  mlir::OpBuilder::InsertPoint after = b.saveInsertionPoint();

  // The condition, evaluated in the `before` region on the carried values.
  mlir::Block *before = b.createBlock(&whileOp.getBefore(), {}, types, locs);
  vars = liveins;
  localDefs.clear();
  llvm::SmallVector<mlir::Value> beforeArgs(before->getArguments());
  bindMerged(*this, *names, liveins, beforeArgs);
  FailureOr<Value> test = lowerExpr(s->getTest());
  if (failed(test))
    return failure();
  Value testValue = *test;
  bool disableLicm = false;
  if (testValue.isTuple() && testValue.getElements().size() == 3 &&
      testValue.getElements()[2].isConstexpr() &&
      testValue.getElements()[2].getHost().isSymbol() &&
      testValue.getElements()[2].getHost().getString() ==
          "triton.language.condition") {
    // tl.condition(c, disable_licm) (see BuiltinsCore).
    disableLicm = testValue.getElements()[1].getHost().isTruthy();
    testValue = testValue.getElements()[0];
  }
  FailureOr<Value> cond = conditionValue(testValue, s->getTest());
  if (failed(cond))
    return failure();
  Value c = *cond;
  if (!c.isTensor())
    c = scalarConstant(HostValue::boolean(c.getHost().isTruthy()),
                       TType::scalar(ScalarKind::Int1));
  scf::ConditionOp::create(b, loc, c.getHandle(), beforeArgs);
  if (disableLicm)
    whileOp->setAttr("tessera.disable_licm", b.getUnitAttr());

  // The body, in the `after` region.
  mlir::Block *afterBlock = b.createBlock(&whileOp.getAfter(), {}, types, locs);
  vars = liveins;
  localDefs.clear();
  llvm::SmallVector<mlir::Value> afterArgs(afterBlock->getArguments());
  bindMerged(*this, *names, liveins, afterArgs);
  ++loopDepth;
  LogicalResult result = lowerBlock(s->getBody());
  --loopDepth;
  if (failed(result))
    return failure();
  llvm::SmallVector<mlir::Value> yields;
  for (const std::string &name : *names)
    vars.lookup(name).flatten(yields);
  scf::YieldOp::create(b, loc, yields);
  b.restoreInsertionPoint(after);
  b.setInsertionPointAfter(whileOp);
  vars = liveins;
  localDefs = outerDefs;
  llvm::SmallVector<mlir::Value> results(whileOp.getResults());
  bindMerged(*this, *names, liveins, results);
  return success();
}
