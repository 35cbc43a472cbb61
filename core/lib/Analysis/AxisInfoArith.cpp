//===- AxisInfoArith.cpp - Axis-info rules of integer arithmetic ----------===//
//
// The transfer functions of the `arith` integer ops. See AxisInfoRules.cpp
// for the notation and the principle: state only what holds on every
// execution.
//
//===----------------------------------------------------------------------===//
#include "AxisInfoImpl.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "llvm/ADT/TypeSwitch.h"

#include <limits>

using namespace mlir;
using namespace mlir::tessera;
using namespace mlir::tessera::axisinfo;

namespace {

std::optional<int64_t> foldBinary(Operation *op, std::optional<int64_t> lhs,
                                  std::optional<int64_t> rhs, unsigned width) {
  if (!lhs || !rhs || width == 0 || width > 64)
    return std::nullopt;
  APInt a = toAP(*lhs, width), b = toAP(*rhs, width);
  std::optional<APInt> r =
      llvm::TypeSwitch<Operation *, std::optional<APInt>>(op)
          .Case([&](arith::AddIOp) { return a + b; })
          .Case([&](arith::SubIOp) { return a - b; })
          .Case([&](arith::MulIOp) { return a * b; })
          .Case([&](arith::DivSIOp) -> std::optional<APInt> {
            if (b.isZero() || (a.isMinSignedValue() && b.isAllOnes()))
              return std::nullopt;
            return a.sdiv(b);
          })
          .Case([&](arith::DivUIOp) -> std::optional<APInt> {
            if (b.isZero())
              return std::nullopt;
            return a.udiv(b);
          })
          .Case([&](arith::RemSIOp) -> std::optional<APInt> {
            if (b.isZero() || (a.isMinSignedValue() && b.isAllOnes()))
              return std::nullopt;
            return a.srem(b);
          })
          .Case([&](arith::RemUIOp) -> std::optional<APInt> {
            if (b.isZero())
              return std::nullopt;
            return a.urem(b);
          })
          .Case([&](arith::AndIOp) { return a & b; })
          .Case([&](arith::OrIOp) { return a | b; })
          .Case([&](arith::XOrIOp) { return a ^ b; })
          .Case([&](arith::ShLIOp) -> std::optional<APInt> {
            if (b.uge(width))
              return std::nullopt;
            return a.shl(b);
          })
          .Case([&](arith::ShRUIOp) -> std::optional<APInt> {
            if (b.uge(width))
              return std::nullopt;
            return a.lshr(b);
          })
          .Case([&](arith::ShRSIOp) -> std::optional<APInt> {
            if (b.uge(width))
              return std::nullopt;
            return a.ashr(b);
          })
          .Case([&](arith::MaxSIOp) { return llvm::APIntOps::smax(a, b); })
          .Case([&](arith::MinSIOp) { return llvm::APIntOps::smin(a, b); })
          .Case([&](arith::MaxUIOp) { return llvm::APIntOps::umax(a, b); })
          .Case([&](arith::MinUIOp) { return llvm::APIntOps::umin(a, b); })
          .Case([&](arith::CmpIOp cmp) {
            return APInt(1, arith::applyCmpPredicate(cmp.getPredicate(), a, b));
          })
          .Default([](Operation *) { return std::nullopt; });
  if (!r)
    return std::nullopt;
  return fromAP(*r);
}

} // namespace

/// Binary integer ops (both operands of the result's shape).
AxisInfo axisinfo::inferIntBinary(Operation *op, const AxisInfo &a,
                                  const AxisInfo &b, const TypeFacts &facts) {
  unsigned rank = facts.rank();
  unsigned width = facts.bitWidth;
  std::optional<int64_t> constant =
      foldBinary(op, a.getConstantValue(), b.getConstantValue(), width);
  DimVector c(rank, 1), d(rank, 1), k(rank, 1);
  bool nonNegative = false;
  auto elemDiv = [](const AxisInfo &x, unsigned i) {
    return x.getDivisibilityAt(i, 1);
  };
  // The constant run length of a value that is `x` rounded down to a
  // multiple of `m` (x / m, x >> log2(m), ...): aligned chunks of
  // gcd(C, D, m) consecutive values never straddle a multiple of m.
  auto roundedRuns = [](const AxisInfo &x, unsigned i, int64_t m) {
    if (x.getContiguity(i) == 1)
      return int64_t(1);
    return gcd(x.getContiguity(i), x.getDivisibility(i), m);
  };
  std::optional<int64_t> ca = a.getConstantValue(), cb = b.getConstantValue();
  // Identities.
  auto copyOf = [&](const AxisInfo &x) { return retarget(x, facts); };

  if (isa<arith::AddIOp>(op)) {
    if (isConstant(a, 0))
      return copyOf(b);
    if (isConstant(b, 0))
      return copyOf(a);
    for (unsigned i = 0; i < rank; ++i) {
      c[i] = std::max(gcd(a.getContiguity(i), b.getConstancy(i)),
                      gcd(a.getConstancy(i), b.getContiguity(i)));
      k[i] = gcd(a.getConstancy(i), b.getConstancy(i));
      d[i] =
          std::min(a.getDivisibilityAt(i, c[i]), b.getDivisibilityAt(i, c[i]));
    }
    nonNegative = a.isNonNegative() && b.isNonNegative();
  } else if (isa<arith::SubIOp>(op)) {
    if (isConstant(b, 0))
      return copyOf(a);
    for (unsigned i = 0; i < rank; ++i) {
      c[i] = gcd(a.getContiguity(i), b.getConstancy(i));
      k[i] = gcd(a.getConstancy(i), b.getConstancy(i));
      d[i] =
          std::min(a.getDivisibilityAt(i, c[i]), b.getDivisibilityAt(i, c[i]));
      // Two runs that advance together differ by a constant: the
      // difference of the runs' first elements.
      int64_t both = gcd(a.getContiguity(i), b.getContiguity(i));
      if (both > k[i]) {
        k[i] = both;
        d[i] = std::min(a.getDivisibilityAt(i, both),
                        b.getDivisibilityAt(i, both));
      }
    }
  } else if (isa<arith::MulIOp>(op)) {
    if (isConstant(a, 1))
      return copyOf(b);
    if (isConstant(b, 1))
      return copyOf(a);
    if (isConstant(a, 0) || isConstant(b, 0))
      constant = 0;
    int64_t div =
        mulDiv(a.getElementDivisibility(), b.getElementDivisibility());
    for (unsigned i = 0; i < rank; ++i) {
      k[i] = gcd(a.getConstancy(i), b.getConstancy(i));
      d[i] = div;
    }
    nonNegative = a.isNonNegative() && b.isNonNegative();
  } else if (isa<arith::DivSIOp, arith::DivUIOp>(op)) {
    if (isConstant(b, 1))
      return copyOf(a);
    bool isSigned = isa<arith::DivSIOp>(op);
    // |divisor| when it is a known constant (unsigned: read as unsigned).
    std::optional<int64_t> m;
    if (cb && *cb != 0 && *cb != std::numeric_limits<int64_t>::min() &&
        (isSigned || *cb > 0))
      m = std::abs(*cb);
    // x / m is constant over aligned chunks of a run when the division is
    // unsigned (aligned chunks never wrap around) or x >= 0 (signed division
    // truncates towards zero, which breaks chunks below zero).
    bool runsSurvive = m && (!isSigned || a.isNonNegative());
    int64_t aDiv = a.getElementDivisibility();
    for (unsigned i = 0; i < rank; ++i) {
      k[i] = gcd(a.getConstancy(i), b.getConstancy(i));
      if (runsSurvive)
        k[i] = std::max(k[i], roundedRuns(a, i, *m));
      // Exact division by a power of two that divides every element.
      if (m && llvm::isPowerOf2_64(*m) && *m <= aDiv)
        d[i] = aDiv / *m;
    }
    nonNegative = a.isNonNegative() && b.isNonNegative();
  } else if (isa<arith::RemSIOp, arith::RemUIOp>(op)) {
    if (isConstant(b, 1))
      constant = 0;
    bool isSigned = isa<arith::RemSIOp>(op);
    // Aligned chunks of a run of x stay consecutive in x % m when m is a
    // multiple of the chunk length and x >= 0 (remsi of negatives restarts
    // from zero just above each multiple of -m). Like Triton, a signed
    // dividend is taken to be non-negative even where this analysis cannot
    // prove it: offsets wrapped with `%` are indices (tutorial 03's
    // `(tile_n * BLOCK + arange) % N` depends on a min() of a difference),
    // and a negative one addresses memory before the tensor under either
    // compiler.
    for (unsigned i = 0; i < rank; ++i) {
      k[i] = gcd(a.getConstancy(i), b.getConstancy(i));
      if (a.getContiguity(i) > 1)
        c[i] = gcd(gcd(a.getContiguity(i), a.getDivisibility(i)),
                   gcd(b.getConstancy(i), elemDiv(b, i)));
      // x - q * m: a multiple of what divides both.
      d[i] =
          std::min(a.getDivisibilityAt(i, c[i]), b.getDivisibilityAt(i, c[i]));
    }
    nonNegative =
        isSigned ? a.isNonNegative() : a.isNonNegative() || b.isNonNegative();
  } else if (isa<arith::AndIOp>(op)) {
    int64_t allOnes = width == 1 ? 1 : -1;
    if (isConstant(a, allOnes))
      return copyOf(b);
    if (isConstant(b, allOnes))
      return copyOf(a);
    if (isConstant(a, 0) || isConstant(b, 0))
      constant = 0;
    // x & (2^n - 1) is x modulo 2^n, whatever the sign of x.
    auto lowMask = [&](std::optional<int64_t> v) -> std::optional<int64_t> {
      if (width > 1 && v && *v > 0 && *v < (int64_t(1) << 62) &&
          llvm::isPowerOf2_64(*v + 1))
        return *v + 1;
      return std::nullopt;
    };
    const AxisInfo *x = nullptr;
    std::optional<int64_t> modulus;
    if ((modulus = lowMask(cb)))
      x = &a;
    else if ((modulus = lowMask(ca)))
      x = &b;
    for (unsigned i = 0; i < rank; ++i) {
      k[i] = gcd(a.getConstancy(i), b.getConstancy(i));
      if (x) {
        c[i] = roundedRuns(*x, i, *modulus);
        d[i] = std::min(x->getDivisibilityAt(i, c[i]), *modulus);
      } else {
        // The result's zero bits include each operand's.
        d[i] = std::max(elemDiv(a, i), elemDiv(b, i));
      }
    }
    nonNegative = a.isNonNegative() || b.isNonNegative();
  } else if (isa<arith::OrIOp, arith::XOrIOp>(op)) {
    if (isConstant(a, 0))
      return copyOf(b);
    if (isConstant(b, 0))
      return copyOf(a);
    for (unsigned i = 0; i < rank; ++i) {
      k[i] = gcd(a.getConstancy(i), b.getConstancy(i));
      d[i] = std::min(elemDiv(a, i), elemDiv(b, i));
    }
    nonNegative = a.isNonNegative() && b.isNonNegative();
  } else if (isa<arith::ShLIOp, arith::ShRUIOp, arith::ShRSIOp>(op)) {
    if (isConstant(b, 0))
      return copyOf(a);
    std::optional<int64_t> shift;
    if (cb && *cb > 0 && *cb < width)
      shift = *cb;
    int64_t aDiv = a.getElementDivisibility();
    bool left = isa<arith::ShLIOp>(op);
    for (unsigned i = 0; i < rank; ++i) {
      k[i] = gcd(a.getConstancy(i), b.getConstancy(i));
      if (left) {
        // Shifting left only adds low zero bits.
        d[i] = shift ? mulDiv(aDiv, int64_t(1) << std::min<int64_t>(*shift, 62))
                     : aDiv;
        continue;
      }
      if (!shift)
        continue;
      // Both right shifts round down (as unsigned or as signed) to a
      // multiple of 2^shift before dividing exactly.
      if (*shift < 62) {
        int64_t pow = int64_t(1) << *shift;
        k[i] = std::max(k[i], roundedRuns(a, i, pow));
        if (aDiv >= pow)
          d[i] = aDiv / pow;
      }
    }
    if (left)
      nonNegative = a.isNonNegative() && cb.has_value();
    else if (isa<arith::ShRUIOp>(op))
      nonNegative = shift.has_value() || a.isNonNegative();
    else
      nonNegative = a.isNonNegative();
  } else if (isa<arith::MaxSIOp, arith::MinSIOp>(op)) {
    // Each element is one of the operands'; two runs advancing together
    // keep advancing together.
    for (unsigned i = 0; i < rank; ++i) {
      c[i] = gcd(a.getContiguity(i), b.getContiguity(i));
      k[i] = gcd(a.getConstancy(i), b.getConstancy(i));
      d[i] =
          std::min(a.getDivisibilityAt(i, c[i]), b.getDivisibilityAt(i, c[i]));
    }
    nonNegative = isa<arith::MaxSIOp>(op)
                      ? a.isNonNegative() || b.isNonNegative()
                      : a.isNonNegative() && b.isNonNegative();
  } else if (isa<arith::MaxUIOp, arith::MinUIOp>(op)) {
    for (unsigned i = 0; i < rank; ++i) {
      k[i] = gcd(a.getConstancy(i), b.getConstancy(i));
      d[i] = std::min(elemDiv(a, i), elemDiv(b, i));
    }
    nonNegative = isa<arith::MaxUIOp>(op)
                      ? a.isNonNegative() && b.isNonNegative()
                      : a.isNonNegative() || b.isNonNegative();
  } else {
    return AxisInfo::getPessimistic(rank);
  }
  return makeFact(facts, c, d, k, constant, nonNegative);
}

/// The comparison of two blocks. Its result changes value only where the
/// difference of the operands crosses the predicate's boundary.
AxisInfo axisinfo::inferCmpI(Operation *cmpOp, const AxisInfo &a,
                             const AxisInfo &b, const TypeFacts &facts,
                             unsigned width) {
  using Pred = arith::CmpIPredicate;
  auto op = cast<arith::CmpIOp>(cmpOp);
  Pred pred = op.getPredicate();
  std::optional<int64_t> constant =
      foldBinary(op, a.getConstantValue(), b.getConstantValue(), width);
  bool isUnsigned = pred == Pred::ult || pred == Pred::ule ||
                    pred == Pred::ugt || pred == Pred::uge;
  // Divisibility of the boundary value when comparing a run against the
  // constant-over-the-run `n`: for x < n and x >= n the boundary is n, for
  // x <= n and x > n it is n + 1 (known only for a known constant).
  auto boundaryDiv = [&](const AxisInfo &n, unsigned i,
                         bool plusOne) -> int64_t {
    if (!plusOne)
      return n.getDivisibilityAt(i, 1);
    if (auto v = n.getConstantValue(); v && width > 1 && width <= 64)
      return divOf(fromAP(toAP(*v, width) + 1));
    return 1;
  };
  // Predicates `run OP n` whose boundary is n itself.
  bool lhsRunAtN = pred == Pred::slt || pred == Pred::sge ||
                   pred == Pred::ult || pred == Pred::uge;
  bool lhsRunAtNPlusOne = pred == Pred::sle || pred == Pred::sgt ||
                          pred == Pred::ule || pred == Pred::ugt;
  DimVector c(facts.rank(), 1), d(facts.rank(), 1), k(facts.rank(), 1);
  for (unsigned i = 0, e = facts.rank(); i < e; ++i) {
    k[i] = gcd(a.getConstancy(i), b.getConstancy(i));
    // A run compared with a value constant over it: aligned chunks of
    // length g (g divides the chunk's first value and the boundary) lie on
    // one side of the boundary.
    auto runVsValue = [&](const AxisInfo &run, const AxisInfo &n,
                          bool plusOne) {
      if (run.getContiguity(i) == 1)
        return int64_t(1);
      return gcd(gcd(run.getContiguity(i), run.getDivisibility(i)),
                 gcd(n.getConstancy(i), boundaryDiv(n, i, plusOne)));
    };
    if (pred != Pred::eq && pred != Pred::ne) {
      // a OP b with a running: boundary n for <, >=; n + 1 for <=, >.
      k[i] = std::max(k[i], runVsValue(a, b, lhsRunAtNPlusOne));
      // b running: `n < y` is `y > n` (boundary n + 1), `n <= y` is
      // `y >= n` (boundary n), and so on.
      k[i] = std::max(k[i], runVsValue(b, a, lhsRunAtN));
    }
    // Two runs advancing together keep their difference, hence the
    // comparison. Unsigned comparisons need chunks that do not wrap.
    int64_t both = gcd(a.getContiguity(i), b.getContiguity(i));
    if (isUnsigned)
      both = gcd(both, gcd(a.getDivisibility(i), b.getDivisibility(i)));
    k[i] = std::max(k[i], both);
  }
  return makeFact(facts, c, d, k, constant, false);
}

/// extsi, extui, trunci, index_cast, index_castui.
AxisInfo axisinfo::inferIntCast(Operation *op, const AxisInfo &src,
                                const TypeFacts &srcFacts,
                                const TypeFacts &facts) {
  unsigned from = srcFacts.bitWidth, to = facts.bitWidth;
  if (from == 0 || to == 0)
    return AxisInfo::getPessimistic(facts.rank());
  bool zeroExtend = isa<arith::ExtUIOp, arith::IndexCastUIOp>(op);
  std::optional<int64_t> constant;
  if (auto v = src.getConstantValue()) {
    APInt value = toAP(*v, from);
    constant =
        fromAP(zeroExtend ? value.zextOrTrunc(to) : value.sextOrTrunc(to));
  }
  if (to <= from) {
    // Truncation: the low bits keep their zeros; values are assumed to fit.
    return makeFact(facts, DimVector(src.getContiguity()),
                    DimVector(src.getDivisibility()),
                    DimVector(src.getConstancy()), constant, false);
  }
  if (!zeroExtend)
    return makeFact(facts, DimVector(src.getContiguity()),
                    DimVector(src.getDivisibility()),
                    DimVector(src.getConstancy()), constant,
                    src.isNonNegative() && from > 1);
  // Zero extension: a run crossing from -1 to 0 would jump; aligned chunks
  // of gcd(C, D) never contain that crossing except at their start.
  DimVector c, d;
  for (unsigned i = 0, e = facts.rank(); i < e; ++i) {
    int64_t ci = src.getContiguity(i);
    if (!src.isNonNegative())
      ci = gcd(ci, src.getDivisibility(i));
    c.push_back(ci);
    d.push_back(src.getDivisibilityAt(i, ci));
  }
  return makeFact(facts, c, d, DimVector(src.getConstancy()), constant, true);
}

/// select(cond, a, b). Within a run over which `cond` is constant, the
/// result is a's run or b's run.
AxisInfo axisinfo::inferSelect(const AxisInfo &cond, const AxisInfo &a,
                               const AxisInfo &b, bool scalarCond,
                               const TypeFacts &facts) {
  if (auto v = cond.getConstantValue())
    return retarget(*v ? a : b, facts);
  std::optional<int64_t> constant;
  if (a.getConstantValue() && a.getConstantValue() == b.getConstantValue())
    constant = a.getConstantValue();
  int64_t unit = std::max<int64_t>(facts.unit, 1);
  DimVector c, d, k;
  for (unsigned i = 0, e = facts.rank(); i < e; ++i) {
    int64_t condRun = scalarCond ? facts.shape[i] : cond.getConstancy(i);
    int64_t ci = gcd(condRun, a.getContiguity(i), b.getContiguity(i));
    c.push_back(ci);
    k.push_back(gcd(condRun, a.getConstancy(i), b.getConstancy(i)));
    d.push_back(std::min(a.getDivisibilityAt(i, ci, unit),
                         b.getDivisibilityAt(i, ci, unit)));
  }
  return makeFact(facts, c, d, k, constant,
                  a.isNonNegative() && b.isNonNegative());
}
