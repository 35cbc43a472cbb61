//===- BuiltinsAtomic.cpp - Atomic read-modify-write and compare-and-swap
//--===//
//
// Triton's atomics: the value (and mask) broadcast to the pointer's shape
// and converted to the pointee type; float max/min decomposed as Triton
// does into a signed integer max (min) on non-negative values and an
// unsigned integer min (max) on negative ones.
//
//===----------------------------------------------------------------------===//
#include "Builtins.h"

using namespace tessera::frontend;
using namespace tessera::frontend::codegen;
using llvm::failure;
using llvm::FailureOr;
namespace tt = mlir::tessera;

static FailureOr<tt::MemSemantic> readSem(FunctionCodegen &cg, const Value &v,
                                          const Expr *at) {
  FailureOr<std::string> s = cg.requireString(v, "sem", at);
  if (failed(s))
    return failure();
  if (s->empty() || *s == "acq_rel")
    return tt::MemSemantic::acq_rel;
  if (*s == "acquire")
    return tt::MemSemantic::acquire;
  if (*s == "release")
    return tt::MemSemantic::release;
  if (*s == "relaxed")
    return tt::MemSemantic::relaxed;
  return cg.fail(at ? at->getLoc().ptr : cg.curLoc,
                 "memory semantic '" + *s +
                     "' is not supported (acquire, release, acq_rel, "
                     "relaxed)");
}

static FailureOr<tt::MemScope> readScope(FunctionCodegen &cg, const Value &v,
                                         const Expr *at) {
  FailureOr<std::string> s = cg.requireString(v, "scope", at);
  if (failed(s))
    return failure();
  if (s->empty() || *s == "gpu")
    return tt::MemScope::gpu;
  if (*s == "cta")
    return tt::MemScope::cta;
  if (*s == "sys")
    return tt::MemScope::sys;
  return cg.fail(at ? at->getLoc().ptr : cg.curLoc,
                 "memory scope '" + *s + "' is not supported (gpu, cta, sys)");
}

namespace {
/// The operands of an atomic after Triton's checks and conversions.
struct AtomicOperands {
  Value ptr, val;
  std::optional<Value> mask;
  tt::MemSemantic sem;
  tt::MemScope scope;
};
} // namespace

static FailureOr<AtomicOperands> readAtomic(FunctionCodegen &cg, CallArgs &args,
                                            llvm::StringRef op) {
  FailureOr<BoundArgs> a =
      cg.bindArgs(args, "atomic_" + op.str(),
                  {"pointer", "val", "mask", "sem", "scope"}, 2);
  if (failed(a))
    return failure();
  AtomicOperands out;
  const Value &ptr = (*a)[0];
  if (!ptr.isTensor() || !ptr.getType().getElement().isPointer() ||
      ptr.getType().isBlockPointer())
    return cg.fail("the pointer argument of atomic_" + op +
                   " must be a "
                   "pointer or a tensor of pointers, got " +
                   ptr.typeStr());
  if (ptr.getType().getElement().isConstPointer())
    return cg.fail("atomic_" + op +
                   " cannot update memory through a "
                   "constant pointer (" +
                   ptr.typeStr() + ")");
  const TType &elem = ptr.getType().getElement().getPointee();
  if (elem.is(ScalarKind::FP16) && op != "add")
    return cg.fail("atomic_" + op + " does not support fp16");
  if (elem.is(ScalarKind::BF16) && op != "add")
    return cg.fail("atomic_" + op + " does not support bf16");
  if (elem.is(ScalarKind::Int16) || elem.is(ScalarKind::UInt16) ||
      elem.getPrimitiveBitwidth() < 16)
    return cg.fail("atomic_" + op + " does not support " + elem.str());
  FailureOr<Value> val = cg.requireTensor((*a)[1], "val", a->exprs[1]);
  if (failed(val))
    return failure();
  Value v = *val;
  if (ptr.getType().isBlock()) {
    FailureOr<Value> vb = cg.broadcastTo(v, ptr.getType().getShape());
    if (failed(vb))
      return failure();
    v = *vb;
  }
  if (!(*a)[2].isNone()) {
    FailureOr<Value> m = cg.requireTensor((*a)[2], "mask", a->exprs[2]);
    if (failed(m))
      return failure();
    Value mv = *m;
    if (ptr.getType().isBlock()) {
      FailureOr<Value> mb = cg.broadcastTo(mv, ptr.getType().getShape());
      if (failed(mb))
        return failure();
      mv = *mb;
    }
    if (!mv.getType().isBool())
      return cg.fail("the mask must have boolean type, got " + mv.typeStr());
    out.mask = mv;
  }
  if (v.getType().getShape() != ptr.getType().getShape())
    return cg.fail("the value of atomic_" + op + " has type " +
                   v.getType().str() + " but the pointer is " +
                   ptr.getType().str());
  FailureOr<Value> cv = cg.castTo(v, elem);
  FailureOr<tt::MemSemantic> sem = readSem(cg, (*a)[3], a->exprs[3]);
  FailureOr<tt::MemScope> scope = readScope(cg, (*a)[4], a->exprs[4]);
  if (failed(cv) || failed(sem) || failed(scope))
    return failure();
  out.ptr = ptr;
  out.val = *cv;
  out.sem = *sem;
  out.scope = *scope;
  return out;
}

static Value emitRMW(FunctionCodegen &cg, tt::RMWOp kind, const Value &ptr,
                     const Value &val, const std::optional<Value> &mask,
                     tt::MemSemantic sem, tt::MemScope scope) {
  auto op = tt::AtomicRMWOp::create(
      cg.b, cg.loc, val.getType().toMLIR(cg.getContext()), kind,
      ptr.getHandle(), val.getHandle(),
      mask ? mask->getHandle() : mlir::Value(), sem, scope);
  return Value::tensor(op, val.getType());
}

static FailureOr<Value> simpleRMW(FunctionCodegen &cg, CallArgs &args,
                                  llvm::StringRef name) {
  FailureOr<AtomicOperands> o = readAtomic(cg, args, name);
  if (failed(o))
    return failure();
  const TType &t = o->val.getType();
  tt::RMWOp kind;
  if (name == "add") {
    kind = t.isFloating() ? tt::RMWOp::fadd : tt::RMWOp::add;
  } else if (name == "xchg") {
    kind = tt::RMWOp::xchg;
  } else {
    if (!t.isInt())
      return cg.fail("atomic_" + name + " needs integer values, got " +
                     t.str());
    kind = name == "and"  ? tt::RMWOp::And
           : name == "or" ? tt::RMWOp::Or
                          : tt::RMWOp::Xor;
  }
  return emitRMW(cg, kind, o->ptr, o->val, o->mask, o->sem, o->scope);
}

static FailureOr<Value> maxMinRMW(FunctionCodegen &cg, CallArgs &args,
                                  bool isMax) {
  FailureOr<AtomicOperands> o = readAtomic(cg, args, isMax ? "max" : "min");
  if (failed(o))
    return failure();
  const TType &t = o->val.getType();
  if (t.isInt()) {
    tt::RMWOp kind = t.isSignedInt()
                         ? (isMax ? tt::RMWOp::max : tt::RMWOp::min)
                         : (isMax ? tt::RMWOp::umax : tt::RMWOp::umin);
    return emitRMW(cg, kind, o->ptr, o->val, o->mask, o->sem, o->scope);
  }
  if (!t.is(ScalarKind::FP32) && !t.is(ScalarKind::FP64))
    return cg.fail(std::string("atomic_") + (isMax ? "max" : "min") +
                   " not supported for dtype " + t.getElement().str());
  bool is32 = t.is(ScalarKind::FP32);
  TType iTy = TType::scalar(is32 ? ScalarKind::Int32 : ScalarKind::Int64);
  TType uTy = TType::scalar(is32 ? ScalarKind::UInt32 : ScalarKind::UInt64);
  FailureOr<Value> iVal = cg.bitcast(o->val, iTy);
  FailureOr<Value> iPtr = cg.bitcast(o->ptr, TType::pointer(iTy));
  FailureOr<Value> uVal = cg.bitcast(o->val, uTy);
  FailureOr<Value> uPtr = cg.bitcast(o->ptr, TType::pointer(uTy));
  if (failed(iVal) || failed(iPtr) || failed(uVal) || failed(uPtr))
    return failure();
  // The sign bit, as a bool.
  FailureOr<Value> sign = cg.shift(
      BinaryOpKind::RShift, *uVal,
      Value::constant(HostValue::integer(t.getPrimitiveBitwidth() - 1)));
  if (failed(sign))
    return failure();
  FailureOr<Value> neg = cg.castTo(*sign, TType::scalar(ScalarKind::Int1));
  if (failed(neg))
    return failure();
  FailureOr<Value> pos = cg.logicalNot(*neg);
  if (failed(pos))
    return failure();
  std::optional<Value> posMask = *pos, negMask = *neg;
  if (o->mask) {
    FailureOr<Value> pm = cg.bitwise(BinaryOpKind::BitAnd, *o->mask, *pos);
    FailureOr<Value> nm = cg.bitwise(BinaryOpKind::BitAnd, *o->mask, *neg);
    if (failed(pm) || failed(nm))
      return failure();
    posMask = *pm;
    negMask = *nm;
  }
  Value posRet = emitRMW(cg, isMax ? tt::RMWOp::max : tt::RMWOp::min, *iPtr,
                         *iVal, posMask, o->sem, o->scope);
  Value negRet = emitRMW(cg, isMax ? tt::RMWOp::umin : tt::RMWOp::umax, *uPtr,
                         *uVal, negMask, o->sem, o->scope);
  FailureOr<Value> ret = cg.where(*pos, posRet, negRet);
  if (failed(ret))
    return failure();
  return cg.bitcast(*ret, t.getElement());
}

static FailureOr<Value> atomicCas(FunctionCodegen &cg, CallArgs &args) {
  FailureOr<BoundArgs> a = cg.bindArgs(
      args, "atomic_cas", {"pointer", "cmp", "val", "sem", "scope"}, 3);
  if (failed(a))
    return failure();
  const Value &ptr = (*a)[0];
  if (!ptr.isTensor() || !ptr.getType().getElement().isPointer() ||
      ptr.getType().isBlockPointer())
    return cg.fail("the pointer argument of atomic_cas must be a pointer or a "
                   "tensor of pointers, got " +
                   ptr.typeStr());
  const TType &elem = ptr.getType().getElement().getPointee();
  unsigned bits = elem.getPrimitiveBitwidth();
  if (bits != 16 && bits != 32 && bits != 64)
    return cg.fail("atomic_cas only supports elements with width {16, 32, "
                   "64}, not " +
                   elem.str());
  FailureOr<Value> cmp = cg.requireTensor((*a)[1], "cmp", a->exprs[1]);
  FailureOr<Value> val = cg.requireTensor((*a)[2], "val", a->exprs[2]);
  FailureOr<tt::MemSemantic> sem = readSem(cg, (*a)[3], a->exprs[3]);
  FailureOr<tt::MemScope> scope = readScope(cg, (*a)[4], a->exprs[4]);
  if (failed(cmp) || failed(val) || failed(sem) || failed(scope))
    return failure();
  // Triton passes cmp and val through unconverted; converting them to the
  // pointee type (and the pointer's shape) keeps the operation well typed.
  Value c = *cmp, v = *val;
  for (Value *x : {&c, &v}) {
    FailureOr<Value> b = cg.broadcastTo(*x, ptr.getType().getShape());
    if (failed(b))
      return failure();
    FailureOr<Value> cv = cg.castTo(*b, elem);
    if (failed(cv))
      return failure();
    *x = *cv;
  }
  auto op = tt::AtomicCASOp::create(
      cg.b, cg.loc, v.getType().toMLIR(cg.getContext()), ptr.getHandle(),
      c.getHandle(), v.getHandle(), *sem, *scope);
  return Value::tensor(op, v.getType());
}

void tessera::frontend::codegen::registerAtomicBuiltins(BuiltinRegistry &r) {
  r.addWithMethod("atomic_cas", atomicCas);
  r.addWithMethod("atomic_add", [](FunctionCodegen &cg, CallArgs &a) {
    return simpleRMW(cg, a, "add");
  });
  r.addWithMethod("atomic_xchg", [](FunctionCodegen &cg, CallArgs &a) {
    return simpleRMW(cg, a, "xchg");
  });
  r.addWithMethod("atomic_and", [](FunctionCodegen &cg, CallArgs &a) {
    return simpleRMW(cg, a, "and");
  });
  r.addWithMethod("atomic_or", [](FunctionCodegen &cg, CallArgs &a) {
    return simpleRMW(cg, a, "or");
  });
  r.addWithMethod("atomic_xor", [](FunctionCodegen &cg, CallArgs &a) {
    return simpleRMW(cg, a, "xor");
  });
  r.addWithMethod("atomic_max", [](FunctionCodegen &cg, CallArgs &a) {
    return maxMinRMW(cg, a, true);
  });
  r.addWithMethod("atomic_min", [](FunctionCodegen &cg, CallArgs &a) {
    return maxMinRMW(cg, a, false);
  });
}
