//===- BuiltinsRandom.cpp - tl.rand, tl.randint, tl.randn (Philox) --------===//
//
// Emits Triton's Philox-4x32 streams with the rounds of Philox.h, so the IR
// computes bit for bit what the host reference (and Triton) computes.
//
//===----------------------------------------------------------------------===//
#include "Builtins.h"

#include "tessera/Frontend/Codegen/Philox.h"

using namespace tessera::frontend;
using namespace tessera::frontend::codegen;
using llvm::failure;
using llvm::FailureOr;

namespace {
/// Philox arithmetic on uint32 tensors, with Triton's implicit conversions.
struct IROps {
  FunctionCodegen &cg;
  bool failed = false;

  Value check(FailureOr<Value> v) {
    if (llvm::failed(v)) {
      failed = true;
      return Value::none();
    }
    return *v;
  }
  Value constant(uint32_t c) {
    return Value::constant(HostValue::integer(int64_t(c)));
  }
  Value mulhi(uint32_t c, const Value &x) {
    if (failed)
      return x;
    CallArgs args;
    args.loc = cg.curLoc;
    args.add(constant(c));
    args.add(x);
    return check(*cg.callBuiltin("triton.language.umulhi", args));
  }
  Value mullo(uint32_t c, const Value &x) {
    return failed ? x : check(cg.mul(constant(c), x));
  }
  Value xorOp(const Value &a, const Value &b) {
    return failed ? a : check(cg.bitwise(BinaryOpKind::BitXor, a, b));
  }
  Value addConst(const Value &a, uint32_t c) {
    return failed ? a : check(cg.add(a, constant(c)));
  }
};
} // namespace

static FailureOr<unsigned> readRounds(FunctionCodegen &cg, const BoundArgs &a,
                                      size_t i) {
  if (!a.has(i))
    return philox::kDefaultRounds;
  FailureOr<int64_t> n = cg.requireInt(a[i], "n_rounds", a.exprs[i]);
  if (failed(n))
    return failure();
  if (*n < 0)
    return cg.fail("n_rounds must not be negative");
  return unsigned(*n);
}

/// Triton's philox(seed, c0, c1, c2, c3, n_rounds) for 32-bit counters.
static FailureOr<std::array<Value, 4>> philoxImpl(FunctionCodegen &cg,
                                                  const Value &seedIn,
                                                  std::array<Value, 4> c,
                                                  unsigned numRounds) {
  FailureOr<Value> seed = cg.requireTensor(seedIn, "the seed");
  if (failed(seed))
    return failure();
  if (!seed->getType().isInt())
    return cg.fail("the seed must be an integer, got " + seed->getType().str());
  TType u32 = TType::scalar(ScalarKind::UInt32);
  TType u64 = TType::scalar(ScalarKind::UInt64);
  seed = cg.castTo(*seed, u64);
  if (failed(seed))
    return failure();
  for (Value &x : c) {
    FailureOr<Value> t = cg.requireTensor(x, "a Philox counter");
    if (failed(t))
      return failure();
    if (t->getType().getPrimitiveBitwidth() != 32)
      return cg.fail("only 32-bit Philox counters are supported, got " +
                     t->getType().str());
    FailureOr<Value> u = cg.bitcast(*t, u32);
    if (failed(u))
      return failure();
    x = *u;
  }
  Value mask = Value::constant(HostValue::integer(0xffffffffLL));
  FailureOr<Value> hi = cg.shift(BinaryOpKind::RShift, *seed,
                                 Value::constant(HostValue::integer(32)));
  if (failed(hi))
    return failure();
  hi = cg.bitwise(BinaryOpKind::BitAnd, *hi, mask);
  if (failed(hi))
    return failure();
  hi = cg.castTo(*hi, u32);
  FailureOr<Value> lo = cg.bitwise(BinaryOpKind::BitAnd, *seed, mask);
  if (failed(hi) || failed(lo))
    return failure();
  lo = cg.castTo(*lo, u32);
  if (failed(lo))
    return failure();
  IROps ops{cg};
  std::array<Value, 4> out =
      philox::rounds(ops, c[0], c[1], c[2], c[3], *lo, *hi, numRounds);
  if (ops.failed)
    return failure();
  return out;
}

/// Triton's randint4x: counter (lo32(offset), hi32(offset) or 0, 0, 0).
static FailureOr<std::array<Value, 4>>
randint4x(FunctionCodegen &cg, const Value &seed, const Value &offsetIn,
          unsigned numRounds, const Expr *offsetAt) {
  FailureOr<Value> offset = cg.requireTensor(offsetIn, "the offset", offsetAt);
  if (failed(offset))
    return failure();
  if (!offset->getType().isInt())
    return cg.fail("the offset must be an integer tensor, got " +
                   offset->getType().str());
  TType u32 = TType::scalar(ScalarKind::UInt32);
  FailureOr<Value> lo = cg.castTo(*offset, u32);
  if (failed(lo))
    return failure();
  FailureOr<Value> zero = cg.mul(*lo, Value::constant(HostValue::integer(0)));
  if (failed(zero))
    return failure();
  Value hi = *zero;
  if (offset->getType().getPrimitiveBitwidth() > 32) {
    FailureOr<Value> h = cg.shift(BinaryOpKind::RShift, *offset,
                                  Value::constant(HostValue::integer(32)));
    if (failed(h))
      return failure();
    h = cg.castTo(*h, u32);
    if (failed(h))
      return failure();
    hi = *h;
  }
  return philoxImpl(cg, seed, {*lo, hi, *zero, *zero}, numRounds);
}

/// Triton's uint_to_uniform_float.
static FailureOr<Value> uintToUniform(FunctionCodegen &cg, const Value &x) {
  Value v = x;
  double scale;
  if (x.getType().is(ScalarKind::UInt32) || x.getType().is(ScalarKind::Int32)) {
    FailureOr<Value> b = cg.bitcast(x, TType::scalar(ScalarKind::Int32));
    if (failed(b))
      return failure();
    v = *b;
    // The literal Triton writes (a Python float: rounded to fp32 when it
    // meets the fp32 tensor).
    scale = 4.6566127342e-10;
  } else if (x.getType().is(ScalarKind::UInt64) ||
             x.getType().is(ScalarKind::Int64)) {
    FailureOr<Value> b = cg.bitcast(x, TType::scalar(ScalarKind::Int64));
    if (failed(b))
      return failure();
    v = *b;
    scale = 1.0842020432385337e-19;
  } else {
    return cg.fail("uint_to_uniform_float expects 32- or 64-bit integers, "
                   "got " +
                   x.getType().str());
  }
  Value zero = Value::constant(HostValue::integer(0));
  FailureOr<Value> negative = cg.compare(CmpOpKind::Lt, v, zero);
  FailureOr<Value> neg = cg.minus(v);
  if (failed(negative) || failed(neg))
    return failure();
  FailureOr<Value> flipped =
      cg.sub(*neg, Value::constant(HostValue::integer(1)));
  if (failed(flipped))
    return failure();
  FailureOr<Value> pos = cg.where(*negative, *flipped, v);
  if (failed(pos))
    return failure();
  return cg.mul(*pos, Value::constant(HostValue::floating(scale)));
}

static FailureOr<Value> callMath(FunctionCodegen &cg, llvm::StringRef name,
                                 const Value &x) {
  CallArgs args;
  args.loc = cg.curLoc;
  args.add(x);
  return *cg.callBuiltin(name, args);
}

/// Triton's pair_uniform_to_normal (Box-Muller).
static FailureOr<std::pair<Value, Value>>
uniformToNormal(FunctionCodegen &cg, const Value &u1In, const Value &u2) {
  FailureOr<Value> u1 = cg.minMax(
      true, Value::constant(HostValue::floating(1.0e-7)), u1In, false);
  if (failed(u1))
    return failure();
  FailureOr<Value> th =
      cg.mul(Value::constant(HostValue::floating(6.283185307179586)), u2);
  FailureOr<Value> lg = callMath(cg, "triton.language.log", *u1);
  if (failed(th) || failed(lg))
    return failure();
  FailureOr<Value> m = cg.mul(Value::constant(HostValue::floating(-2.0)), *lg);
  if (failed(m))
    return failure();
  FailureOr<Value> r = callMath(cg, "triton.language.sqrt", *m);
  FailureOr<Value> c = callMath(cg, "triton.language.cos", *th);
  FailureOr<Value> s = callMath(cg, "triton.language.sin", *th);
  if (failed(r) || failed(c) || failed(s))
    return failure();
  FailureOr<Value> n1 = cg.mul(*r, *c), n2 = cg.mul(*r, *s);
  if (failed(n1) || failed(n2))
    return failure();
  return std::make_pair(*n1, *n2);
}

namespace {
enum class RandKind { Int, Int4x, Uniform, Uniform4x, Normal, Normal4x };
} // namespace

static FailureOr<Value> randBuiltin(FunctionCodegen &cg, CallArgs &args,
                                    RandKind kind, llvm::StringRef name) {
  FailureOr<BoundArgs> a =
      cg.bindArgs(args, name, {"seed", "offset", "n_rounds"}, 2);
  if (failed(a))
    return failure();
  FailureOr<unsigned> rounds = readRounds(cg, *a, 2);
  if (failed(rounds))
    return failure();
  FailureOr<std::array<Value, 4>> words =
      randint4x(cg, (*a)[0], (*a)[1], *rounds, a->exprs[1]);
  if (failed(words))
    return failure();
  switch (kind) {
  case RandKind::Int:
    return (*words)[0];
  case RandKind::Int4x:
    return Value::tuple({(*words)[0], (*words)[1], (*words)[2], (*words)[3]});
  case RandKind::Uniform:
    return uintToUniform(cg, (*words)[0]);
  default:
    break;
  }
  std::vector<Value> u;
  for (const Value &w : *words) {
    FailureOr<Value> f = uintToUniform(cg, w);
    if (failed(f))
      return failure();
    u.push_back(*f);
  }
  if (kind == RandKind::Uniform4x)
    return Value::tuple(u);
  FailureOr<std::pair<Value, Value>> n12 = uniformToNormal(cg, u[0], u[1]);
  if (failed(n12))
    return failure();
  if (kind == RandKind::Normal)
    return n12->first;
  FailureOr<std::pair<Value, Value>> n34 = uniformToNormal(cg, u[2], u[3]);
  if (failed(n34))
    return failure();
  return Value::tuple({n12->first, n12->second, n34->first, n34->second});
}

static FailureOr<Value> philoxBuiltin(FunctionCodegen &cg, CallArgs &args) {
  FailureOr<BoundArgs> a = cg.bindArgs(
      args, "philox", {"seed", "c0", "c1", "c2", "c3", "n_rounds"}, 5);
  if (failed(a))
    return failure();
  FailureOr<unsigned> rounds = readRounds(cg, *a, 5);
  if (failed(rounds))
    return failure();
  std::array<Value, 4> c = {(*a)[1], (*a)[2], (*a)[3], (*a)[4]};
  // Counters of different shapes broadcast together first.
  for (Value &x : c) {
    FailureOr<Value> t = cg.requireTensor(x, "a Philox counter");
    if (failed(t))
      return failure();
    x = *t;
  }
  for (size_t i = 1; i < 4; ++i) {
    auto p = cg.broadcastPair(c[0], c[i]);
    if (failed(p))
      return failure();
    c[0] = p->first;
    c[i] = p->second;
  }
  for (size_t i = 1; i < 4; ++i) {
    FailureOr<Value> b = cg.broadcastTo(c[i], c[0].getType().getShape());
    if (failed(b))
      return failure();
    c[i] = *b;
  }
  FailureOr<std::array<Value, 4>> r = philoxImpl(cg, (*a)[0], c, *rounds);
  if (failed(r))
    return failure();
  return Value::tuple({(*r)[0], (*r)[1], (*r)[2], (*r)[3]});
}

static FailureOr<Value> uintToUniformBuiltin(FunctionCodegen &cg,
                                             CallArgs &args) {
  FailureOr<BoundArgs> a = cg.bindArgs(args, "uint_to_uniform_float", {"x"}, 1);
  if (failed(a))
    return failure();
  FailureOr<Value> x = cg.requireTensor((*a)[0], "x", a->exprs[0]);
  if (failed(x))
    return failure();
  return uintToUniform(cg, *x);
}

static FailureOr<Value> pairToNormalBuiltin(FunctionCodegen &cg,
                                            CallArgs &args) {
  FailureOr<BoundArgs> a =
      cg.bindArgs(args, "pair_uniform_to_normal", {"u1", "u2"}, 2);
  if (failed(a))
    return failure();
  FailureOr<std::pair<Value, Value>> n = uniformToNormal(cg, (*a)[0], (*a)[1]);
  if (failed(n))
    return failure();
  return Value::tuple({n->first, n->second});
}

void tessera::frontend::codegen::registerRandomBuiltins(BuiltinRegistry &r) {
  r.add("triton.language.randint", [](FunctionCodegen &cg, CallArgs &a) {
    return randBuiltin(cg, a, RandKind::Int, "randint");
  });
  r.add("triton.language.randint4x", [](FunctionCodegen &cg, CallArgs &a) {
    return randBuiltin(cg, a, RandKind::Int4x, "randint4x");
  });
  r.add("triton.language.rand", [](FunctionCodegen &cg, CallArgs &a) {
    return randBuiltin(cg, a, RandKind::Uniform, "rand");
  });
  r.add("triton.language.rand4x", [](FunctionCodegen &cg, CallArgs &a) {
    return randBuiltin(cg, a, RandKind::Uniform4x, "rand4x");
  });
  r.add("triton.language.randn", [](FunctionCodegen &cg, CallArgs &a) {
    return randBuiltin(cg, a, RandKind::Normal, "randn");
  });
  r.add("triton.language.randn4x", [](FunctionCodegen &cg, CallArgs &a) {
    return randBuiltin(cg, a, RandKind::Normal4x, "randn4x");
  });
  r.add("triton.language.philox", philoxBuiltin);
  r.add("triton.language.uint_to_uniform_float", uintToUniformBuiltin);
  r.add("triton.language.pair_uniform_to_normal", pairToNormalBuiltin);
}
