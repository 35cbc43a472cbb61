//===- AxisInfoTest.cpp - Units of the axis-info lattice and analysis -----===//
//
// The lattice's join rules, and a randomized soundness check of the whole
// analysis: random programs of the ops it models are analysed, then run by a
// small interpreter on random inputs that honour the argument attributes;
// every fact stated about every value must hold on every run. A run whose
// index arithmetic overflows, or that divides by zero, is discarded: the
// analysis documents that it assumes neither happens.
//
//===----------------------------------------------------------------------===//
#include "tessera/Analysis/AxisInfo.h"
#include "tessera/Dialect/Tessera/IR/Dialect.h"
#include "tessera/InitAll.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <random>

using namespace mlir;
using namespace mlir::tessera;

namespace {

constexpr int64_t kMax = AxisInfo::kMaxDivisibility;

//===----------------------------------------------------------------------===//
// Lattice
//===----------------------------------------------------------------------===//

TEST(AxisInfoLattice, DivisibilityOf) {
  EXPECT_EQ(AxisInfo::getDivisibilityOf(0), kMax);
  EXPECT_EQ(AxisInfo::getDivisibilityOf(24), 8);
  EXPECT_EQ(AxisInfo::getDivisibilityOf(-64), 64);
  EXPECT_EQ(AxisInfo::getDivisibilityOf(7), 1);
  EXPECT_EQ(AxisInfo::getDivisibilityOf(std::numeric_limits<int64_t>::min()),
            kMax);
}

TEST(AxisInfoLattice, JoinWithUninitializedIsIdentity) {
  AxisInfo fact({128}, {16}, {1}, std::nullopt, true);
  EXPECT_FALSE(AxisInfo().isInitialized());
  EXPECT_EQ(AxisInfo::join(AxisInfo(), fact), fact);
  EXPECT_EQ(AxisInfo::join(fact, AxisInfo()), fact);
}

TEST(AxisInfoLattice, JoinTakesGcdOfRuns) {
  AxisInfo a({128, 1}, {128, 16}, {1, 4});
  AxisInfo b({64, 1}, {64, 32}, {1, 8});
  AxisInfo j = AxisInfo::join(a, b);
  EXPECT_EQ(j.getContiguity(), ArrayRef<int64_t>({64, 1}));
  EXPECT_EQ(j.getDivisibility(), ArrayRef<int64_t>({64, 16}));
  EXPECT_EQ(j.getConstancy(), ArrayRef<int64_t>({1, 4}));
}

TEST(AxisInfoLattice, JoinRereadsDivisibilityAtShorterRuns) {
  // 0, 1, ..., 127 joined with a splat of 16: no runs survive, and not
  // every element of the first is a multiple of anything.
  AxisInfo range({128}, {kMax}, {1}, std::nullopt, true);
  AxisInfo splat = AxisInfo::getConstant({128}, 16);
  AxisInfo j = AxisInfo::join(range, splat);
  EXPECT_EQ(j.getContiguity(0), 1);
  EXPECT_EQ(j.getDivisibility(0), 1);
  EXPECT_EQ(j.getConstancy(0), 1);
  EXPECT_TRUE(j.isNonNegative());
  EXPECT_EQ(j.getConstantValue(), std::nullopt);
  // Runs of 128 from a multiple of 256 joined with runs of 64: runs of 64
  // start at multiples of 64.
  AxisInfo longer({128}, {256}, {1});
  AxisInfo shorter({64}, {kMax}, {1});
  EXPECT_EQ(AxisInfo::join(longer, shorter).getDivisibility(0), 64);
}

TEST(AxisInfoLattice, JoinKeepsEqualConstantsOnly) {
  AxisInfo four = AxisInfo::getConstant({}, 4);
  AxisInfo twelve = AxisInfo::getConstant({}, 12);
  EXPECT_EQ(AxisInfo::join(four, four).getConstantValue(), 4);
  AxisInfo j = AxisInfo::join(four, twelve);
  EXPECT_EQ(j.getConstantValue(), std::nullopt);
  EXPECT_EQ(j.getDivisibility(0), 4);
  EXPECT_TRUE(j.isNonNegative());
  EXPECT_FALSE(
      AxisInfo::join(four, AxisInfo::getConstant({}, -4)).isNonNegative());
}

TEST(AxisInfoLattice, DivisibilityAt) {
  // Runs of 8 f32 pointers starting at multiples of 64 bytes.
  AxisInfo ptrs({8}, {64}, {1});
  EXPECT_EQ(ptrs.getDivisibilityAt(0, 8, 4), 64);
  EXPECT_EQ(ptrs.getDivisibilityAt(0, 16, 4), 64);
  EXPECT_EQ(ptrs.getDivisibilityAt(0, 4, 4), 16);
  EXPECT_EQ(ptrs.getDivisibilityAt(0, 1, 4), 4);
  // The same as integers: every element only odd or even.
  EXPECT_EQ(ptrs.getDivisibilityAt(0, 1), 1);
  EXPECT_EQ(ptrs.getElementDivisibility(4), 4);
  // A dimension without runs bounds every element.
  AxisInfo rows({8, 1}, {kMax, 16}, {1, 4});
  EXPECT_EQ(rows.getElementDivisibility(), 16);
}

TEST(AxisInfoLattice, JoinIsALatticeJoin) {
  std::mt19937 rng(7);
  auto pick = [&](ArrayRef<int64_t> from) {
    return from[std::uniform_int_distribution<size_t>(0, from.size() - 1)(rng)];
  };
  auto random = [&]() {
    AxisInfo::DimVector c, d, k;
    for (int i = 0; i < 2; ++i) {
      c.push_back(pick({1, 2, 4, 8}));
      d.push_back(pick({1, 2, 4, 16, 64, kMax}));
      k.push_back(pick({1, 2, 4, 8}));
    }
    std::optional<int64_t> constant;
    if (int64_t v = pick({-1, 0, 4, 12}); v >= 0)
      constant = v;
    return AxisInfo(c, d, k, constant, pick({0, 1}));
  };
  for (int i = 0; i < 2000; ++i) {
    AxisInfo a = random(), b = random(), c = random();
    AxisInfo ab = AxisInfo::join(a, b);
    EXPECT_EQ(ab, AxisInfo::join(b, a));
    EXPECT_EQ(AxisInfo::join(a, a), a);
    EXPECT_EQ(AxisInfo::join(ab, a), ab);
    EXPECT_EQ(AxisInfo::join(ab, c), AxisInfo::join(a, AxisInfo::join(b, c)));
  }
}

//===----------------------------------------------------------------------===//
// Randomized soundness
//===----------------------------------------------------------------------===//

/// The value of a block (or scalar) on one run: integers sign-extended from
/// their width (i1 as 0 or 1), pointers as byte addresses.
struct Concrete {
  SmallVector<int64_t> shape; // [1] for scalars
  std::vector<int64_t> values;
};

SmallVector<int64_t> shapeOf(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return SmallVector<int64_t>(tensor.getShape());
  return {1};
}

unsigned widthOf(Type type) {
  Type elem = getElementTypeOrSelf(type);
  if (isa<IndexType>(elem))
    return 64;
  return elem.isInteger() ? elem.getIntOrFloatBitWidth() : 64;
}

/// Bytes per element step of a pointer type; 1 otherwise.
int64_t unitOf(Type type) {
  if (auto ptr = dyn_cast<PointerType>(getElementTypeOrSelf(type))) {
    Type pointee = ptr.getPointeeType();
    return std::max<int64_t>(1, pointee.getIntOrFloatBitWidth() / 8);
  }
  return 1;
}

bool fitsSigned(__int128 value, unsigned width) {
  if (width == 1)
    return value == 0 || value == 1;
  __int128 lo = -(__int128(1) << (width - 1));
  __int128 hi = (__int128(1) << (width - 1)) - 1;
  return value >= lo && value <= hi;
}

uint64_t toUnsigned(int64_t value, unsigned width) {
  if (width >= 64)
    return static_cast<uint64_t>(value);
  return static_cast<uint64_t>(value) & ((uint64_t(1) << width) - 1);
}

int64_t fromUnsigned(uint64_t value, unsigned width) {
  if (width == 1)
    return value & 1;
  if (width >= 64)
    return static_cast<int64_t>(value);
  uint64_t sign = uint64_t(1) << (width - 1);
  value &= (uint64_t(1) << width) - 1;
  return static_cast<int64_t>((value ^ sign) - sign);
}

/// One binary integer op on one element; nullopt when the run must be
/// discarded (overflow of index arithmetic, division by zero, shift out of
/// range).
std::optional<int64_t> evalBinary(Operation *op, int64_t a, int64_t b,
                                  unsigned w) {
  using R = std::optional<int64_t>;
  auto checked = [&](__int128 v) -> R {
    if (!fitsSigned(v, w))
      return std::nullopt;
    return static_cast<int64_t>(v);
  };
  uint64_t ua = toUnsigned(a, w), ub = toUnsigned(b, w);
  return llvm::TypeSwitch<Operation *, R>(op)
      .Case([&](arith::AddIOp) { return checked(__int128(a) + b); })
      .Case([&](arith::SubIOp) { return checked(__int128(a) - b); })
      .Case([&](arith::MulIOp) { return checked(__int128(a) * b); })
      .Case([&](arith::DivSIOp) -> R {
        if (b == 0 || !fitsSigned(__int128(a) / b, w))
          return std::nullopt;
        return a / b;
      })
      .Case([&](arith::RemSIOp) -> R {
        // Like Triton, the analysis takes `%` dividends to be non-negative
        // (AxisInfoArith.cpp): runs that break that are not the program's.
        if (b == 0 || a < 0 || !fitsSigned(__int128(a) / b, w))
          return std::nullopt;
        return a % b;
      })
      .Case([&](arith::DivUIOp) -> R {
        if (ub == 0)
          return std::nullopt;
        return fromUnsigned(ua / ub, w);
      })
      .Case([&](arith::RemUIOp) -> R {
        if (ub == 0)
          return std::nullopt;
        return fromUnsigned(ua % ub, w);
      })
      .Case([&](arith::AndIOp) { return fromUnsigned(ua & ub, w); })
      .Case([&](arith::OrIOp) { return fromUnsigned(ua | ub, w); })
      .Case([&](arith::XOrIOp) { return fromUnsigned(ua ^ ub, w); })
      .Case([&](arith::ShLIOp) -> R {
        if (b < 0 || b >= w)
          return std::nullopt;
        return checked(__int128(a) * (__int128(1) << b));
      })
      .Case([&](arith::ShRUIOp) -> R {
        if (b < 0 || b >= w)
          return std::nullopt;
        return fromUnsigned(ua >> b, w);
      })
      .Case([&](arith::ShRSIOp) -> R {
        if (b < 0 || b >= w)
          return std::nullopt;
        return a >> b;
      })
      .Case([&](arith::MaxSIOp) { return std::max(a, b); })
      .Case([&](arith::MinSIOp) { return std::min(a, b); })
      .Case([&](arith::MaxUIOp) { return ua >= ub ? a : b; })
      .Case([&](arith::MinUIOp) { return ua <= ub ? a : b; })
      .Case([&](arith::CmpIOp cmp) -> R {
        using P = arith::CmpIPredicate;
        switch (cmp.getPredicate()) {
        case P::eq:
          return a == b;
        case P::ne:
          return a != b;
        case P::slt:
          return a < b;
        case P::sle:
          return a <= b;
        case P::sgt:
          return a > b;
        case P::sge:
          return a >= b;
        case P::ult:
          return ua < ub;
        case P::ule:
          return ua <= ub;
        case P::ugt:
          return ua > ub;
        case P::uge:
          return ua >= ub;
        }
        return std::nullopt;
      })
      .Default([](Operation *) { return std::nullopt; });
}

/// Row-major strides of `shape`.
SmallVector<int64_t> stridesOf(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> strides(shape.size(), 1);
  for (int i = (int)shape.size() - 2; i >= 0; --i)
    strides[i] = strides[i + 1] * shape[i + 1];
  return strides;
}

/// Interprets the body of the generated function.
class Interpreter {
public:
  llvm::DenseMap<Value, Concrete> values;

  /// False when the run must be discarded.
  bool run(func::FuncOp func, ArrayRef<int64_t> args, int64_t programId) {
    values.clear();
    for (auto [arg, v] : llvm::zip(func.getArguments(), args))
      values[arg] = Concrete{{1}, {v}};
    for (Operation &op : func.getBody().front()) {
      if (op.getNumResults() == 0)
        continue;
      if (!eval(&op, programId))
        return false;
    }
    return true;
  }

private:
  const Concrete &at(Value v) { return values.find(v)->second; }

  bool eval(Operation *op, int64_t programId) {
    Value result = op->getResult(0);
    Concrete out{shapeOf(result.getType()), {}};
    int64_t n = 1;
    for (int64_t s : out.shape)
      n *= s;
    unsigned w = widthOf(result.getType());
    bool ok = true;
    llvm::TypeSwitch<Operation *>(op)
        .Case([&](arith::ConstantOp c) {
          if (auto i = dyn_cast<IntegerAttr>(c.getValue())) {
            out.values = {fromUnsigned(i.getValue().getZExtValue(), w)};
            return;
          }
          for (const APInt &v :
               cast<DenseElementsAttr>(c.getValue()).getValues<APInt>())
            out.values.push_back(fromUnsigned(v.getZExtValue(), w));
          if ((int64_t)out.values.size() == 1 && n > 1)
            out.values.assign(n, out.values[0]);
        })
        .Case([&](ProgramIdOp) { out.values = {programId}; })
        .Case([&](MakeRangeOp r) {
          for (int64_t i = 0; i < n; ++i)
            out.values.push_back(int64_t(r.getStart()) + i);
        })
        .Case(
            [&](SplatOp s) { out.values.assign(n, at(s.getSrc()).values[0]); })
        .Case([&](BroadcastOp b) {
          const Concrete &src = at(b.getSrc());
          SmallVector<int64_t> ss = stridesOf(src.shape),
                               ds = stridesOf(out.shape);
          for (int64_t i = 0; i < n; ++i) {
            int64_t from = 0;
            for (size_t d = 0; d < out.shape.size(); ++d) {
              int64_t coord = (i / ds[d]) % out.shape[d];
              if (src.shape[d] != 1)
                from += coord * ss[d];
            }
            out.values.push_back(src.values[from]);
          }
        })
        .Case<ExpandDimsOp, ReshapeOp>([&](Operation *o) {
          // Row-major order is kept (a valid order under allow_reorder).
          out.values = at(o->getOperand(0)).values;
        })
        .Case([&](TransOp t) {
          const Concrete &src = at(t.getSrc());
          SmallVector<int64_t> ss = stridesOf(src.shape),
                               ds = stridesOf(out.shape);
          ArrayRef<int32_t> order = t.getOrder();
          for (int64_t i = 0; i < n; ++i) {
            int64_t from = 0;
            for (size_t d = 0; d < out.shape.size(); ++d)
              from += ((i / ds[d]) % out.shape[d]) * ss[order[d]];
            out.values.push_back(src.values[from]);
          }
        })
        .Case([&](AddPtrOp a) {
          const Concrete &p = at(a.getPtr()), &o = at(a.getOffset());
          int64_t unit = unitOf(a.getType());
          for (int64_t i = 0; i < n; ++i)
            // Addresses wrap modulo 2^64 as the hardware's do.
            out.values.push_back(int64_t(uint64_t(p.values[i]) +
                                         uint64_t(o.values[i]) * unit));
        })
        .Case<IntToPtrOp, PtrToIntOp, BitcastOp>(
            [&](Operation *o) { out.values = at(o->getOperand(0)).values; })
        .Case<arith::ExtSIOp, arith::ExtUIOp, arith::TruncIOp>(
            [&](Operation *o) {
              const Concrete &src = at(o->getOperand(0));
              unsigned from = widthOf(o->getOperand(0).getType());
              for (int64_t v : src.values) {
                if (isa<arith::ExtUIOp>(o))
                  v = static_cast<int64_t>(toUnsigned(v, from));
                else if (isa<arith::ExtSIOp>(o) && from == 1)
                  v = -v;
                // Truncation is assumed not to lose bits.
                if (!fitsSigned(v, w))
                  ok = false;
                out.values.push_back(v);
              }
            })
        .Case([&](arith::SelectOp s) {
          const Concrete &c = at(s.getCondition()), &t = at(s.getTrueValue()),
                         &f = at(s.getFalseValue());
          for (int64_t i = 0; i < n; ++i) {
            int64_t cond = c.values.size() == 1 ? c.values[0] : c.values[i];
            out.values.push_back(cond ? t.values[i] : f.values[i]);
          }
        })
        .Default([&](Operation *o) {
          const Concrete &a = at(o->getOperand(0)), &b = at(o->getOperand(1));
          unsigned ow = widthOf(o->getOperand(0).getType());
          for (int64_t i = 0; i < n; ++i) {
            std::optional<int64_t> v =
                evalBinary(o, a.values[i], b.values[i], ow);
            if (!v) {
              ok = false;
              return;
            }
            out.values.push_back(*v);
          }
        });
    values[result] = std::move(out);
    return ok;
  }
};

/// Empty when `info` holds for `value`; what is violated otherwise.
std::string checkFact(const AxisInfo &info, const Concrete &value, Type type) {
  std::string error;
  llvm::raw_string_ostream os(error);
  ArrayRef<int64_t> shape = value.shape;
  if (info.getRank() != shape.size())
    return "rank mismatch";
  SmallVector<int64_t> strides = stridesOf(shape);
  int64_t unit = unitOf(type);
  int64_t n = value.values.size();
  const std::vector<int64_t> &v = value.values;
  for (unsigned d = 0; d < shape.size(); ++d) {
    int64_t c = info.getContiguity(d), k = info.getConstancy(d),
            div = info.getDivisibility(d);
    if (shape[d] % c != 0 || shape[d] % k != 0)
      os << "run length does not divide dimension " << d << "; ";
    for (int64_t i = 0; i < n; ++i) {
      int64_t coord = (i / strides[d]) % shape[d];
      if (coord % c == 0) {
        if (v[i] % div != 0)
          os << "element " << i << " = " << v[i] << " is not a multiple of "
             << div << " (dim " << d << "); ";
        for (int64_t t = 1; t < c && coord + t < shape[d]; ++t)
          if (v[i + t * strides[d]] != v[i] + t * unit)
            os << "run broken at element " << i + t * strides[d] << " (dim "
               << d << "); ";
      }
      if (coord % k == 0)
        for (int64_t t = 1; t < k && coord + t < shape[d]; ++t)
          if (v[i + t * strides[d]] != v[i])
            os << "constancy broken at element " << i + t * strides[d]
               << " (dim " << d << "); ";
    }
  }
  for (int64_t x : v) {
    if (info.getConstantValue() && x != *info.getConstantValue()) {
      os << "element " << x << " differs from the constant; ";
      break;
    }
    if (info.isNonNegative() && x < 0) {
      os << "element " << x << " is negative; ";
      break;
    }
  }
  return error;
}

/// Builds random programs over the ops the analysis models.
class ProgramGenerator {
public:
  ProgramGenerator(MLIRContext &ctx, std::mt19937 &rng)
      : ctx(ctx), rng(rng), b(&ctx), loc(UnknownLoc::get(&ctx)) {}

  /// Argument divisibilities of the generated function, in order (0: none).
  static constexpr int64_t kArgDivisibility[] = {16, 0, 4, 8, 16, 4, 0};

  OwningOpRef<ModuleOp> generate(int numOps) {
    OwningOpRef<ModuleOp> module = ModuleOp::create(loc);
    b.setInsertionPointToEnd(module->getBody());
    Type i32 = b.getI32Type(), i64 = b.getI64Type(), i1 = b.getI1Type();
    SmallVector<Type> argTypes = {i32,
                                  i32,
                                  i32,
                                  i64,
                                  PointerType::get(b.getF32Type()),
                                  PointerType::get(b.getF16Type()),
                                  i1};
    auto func =
        func::FuncOp::create(b, loc, "fuzz", b.getFunctionType(argTypes, {}));
    for (auto [i, div] : llvm::enumerate(kArgDivisibility))
      if (div)
        func.setArgAttr(i, kDivisibilityAttrName, b.getI32IntegerAttr(div));
    Block *body = func.addEntryBlock();
    b.setInsertionPointToEnd(body);
    pool.assign(body->args_begin(), body->args_end());
    for (int i = 0; i < numOps; ++i)
      step();
    func::ReturnOp::create(b, loc);
    return module;
  }

private:
  MLIRContext &ctx;
  std::mt19937 &rng;
  OpBuilder b;
  Location loc;
  std::vector<Value> pool;

  int pick(int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng); }
  template <typename T> T pickFrom(ArrayRef<T> from) {
    return from[pick(from.size())];
  }

  Value pickValue(llvm::function_ref<bool(Type)> pred) {
    std::vector<Value> candidates;
    for (Value v : pool)
      if (pred(v.getType()))
        candidates.push_back(v);
    if (candidates.empty())
      return {};
    // Favour recent values, so that chains of ops (the patterns whose
    // rules interact) are common.
    if (pick(2))
      return candidates[candidates.size() - 1 -
                        pick(std::min<size_t>(candidates.size(), 4))];
    return candidates[pick(candidates.size())];
  }

  static bool isIntNotBool(Type t) {
    Type e = getElementTypeOrSelf(t);
    return e.isInteger() && !e.isInteger(1);
  }

  Type tensorOf(ArrayRef<int64_t> shape, Type elem) {
    if (shape.empty())
      return elem;
    return RankedTensorType::get(shape, elem);
  }

  SmallVector<int64_t> randomShape() {
    static const SmallVector<int64_t> shapes[] = {{}, {4}, {8}, {16}, {4, 8}};
    return shapes[pick(5)];
  }

  /// A constant of `type` (scalar or splat) from values kernels use.
  Value constant(Type type, bool nonZero = false) {
    static const int64_t interesting[] = {0,  1,  2,  3,  4,  7,  8,   12,
                                          16, 48, 63, 64, -1, -4, -16, 100};
    int64_t v = interesting[pick(16)];
    if (nonZero && v == 0)
      v = 4;
    Type elem = getElementTypeOrSelf(type);
    TypedAttr attr = b.getIntegerAttr(elem, v);
    if (auto tensor = dyn_cast<RankedTensorType>(type))
      attr = DenseElementsAttr::get(tensor, attr);
    return arith::ConstantOp::create(b, loc, attr);
  }

  /// A shift amount in range (a shift out of range is poison).
  Value shiftAmount(Type type) {
    Type elem = getElementTypeOrSelf(type);
    TypedAttr attr = b.getIntegerAttr(elem, pick(6));
    if (auto tensor = dyn_cast<RankedTensorType>(type))
      attr = DenseElementsAttr::get(tensor, attr);
    return arith::ConstantOp::create(b, loc, attr);
  }

  Value denseConstant() {
    SmallVector<int64_t> shape =
        pick(2) ? SmallVector<int64_t>{8} : SmallVector<int64_t>{4, 8};
    auto type = RankedTensorType::get(shape, b.getI32Type());
    SmallVector<APInt> values;
    int64_t base = pick(3) * 8 - 4, run = 1 << pick(4), repeat = 1 << pick(3);
    for (int64_t i = 0, e = type.getNumElements(); i < e; ++i) {
      int64_t v = pick(4) == 0 ? pick(9) - 4 : base + (i / repeat) % run;
      values.push_back(APInt(32, v, /*isSigned=*/true));
    }
    return arith::ConstantOp::create(b, loc,
                                     DenseElementsAttr::get(type, values));
  }

  /// The offsets of a kernel: a scalar (of either sign) splat and added to,
  /// or subtracted from, an arange.
  Value offsets(int64_t size = 0) {
    Value scalar = pickValue([](Type t) { return t.isInteger(32); });
    if (pick(2))
      scalar =
          arith::MulIOp::create(b, loc, scalar, constant(scalar.getType()));
    if (!size)
      size = pickFrom<int64_t>({8, 16});
    Type type = RankedTensorType::get({size}, b.getI32Type());
    Value range = MakeRangeOp::create(b, loc, type, b.getI32IntegerAttr(0),
                                      b.getI32IntegerAttr(size));
    Value splat = SplatOp::create(b, loc, type, scalar);
    pool.push_back(range);
    pool.push_back(splat);
    if (pick(3) == 0)
      return arith::SubIOp::create(b, loc, range, splat);
    return arith::AddIOp::create(b, loc, splat, range);
  }

  void step() {
    Value made;
    switch (pick(18)) {
    case 16:
    case 17:
      made = offsets();
      break;
    case 0: {
      int64_t size = pickFrom<int64_t>({4, 8, 16});
      int64_t start = pickFrom<int64_t>({0, 1, 3, 4, 8, 16, 64});
      made = MakeRangeOp::create(
          b, loc, RankedTensorType::get({size}, b.getI32Type()),
          b.getI32IntegerAttr(start), b.getI32IntegerAttr(start + size));
      break;
    }
    case 1:
      made = pick(2)
                 ? constant(pickFrom<Type>({b.getI32Type(), b.getI64Type()}))
                 : denseConstant();
      break;
    case 2: {
      Value src = pickValue([](Type t) { return !isa<ShapedType>(t); });
      SmallVector<int64_t> shape = randomShape();
      if (shape.empty())
        shape = {8};
      made = SplatOp::create(b, loc, tensorOf(shape, src.getType()), src);
      break;
    }
    case 3: {
      // expand_dims, then broadcast to a 2-D block.
      Value src = pickValue([](Type t) {
        auto r = dyn_cast<RankedTensorType>(t);
        return r && r.getRank() == 1 && r.getDimSize(0) <= 8;
      });
      if (!src)
        return;
      auto type = cast<RankedTensorType>(src.getType());
      int64_t size = type.getDimSize(0), other = size == 8 ? 4 : 8;
      unsigned axis = pick(2);
      SmallVector<int64_t> expanded = {size}, wide = {size};
      expanded.insert(expanded.begin() + axis, 1);
      wide.insert(wide.begin() + axis, other);
      Value e = ExpandDimsOp::create(
          b, loc, RankedTensorType::get(expanded, type.getElementType()), src,
          b.getI32IntegerAttr(axis));
      pool.push_back(e);
      made = BroadcastOp::create(
          b, loc, RankedTensorType::get(wide, type.getElementType()), e);
      break;
    }
    case 4: {
      Value src = pickValue([](Type t) {
        auto r = dyn_cast<RankedTensorType>(t);
        return r && r.getRank() == 2;
      });
      if (!src)
        return;
      auto type = cast<RankedTensorType>(src.getType());
      if (pick(2)) {
        made = TransOp::create(
            b, loc,
            RankedTensorType::get({type.getDimSize(1), type.getDimSize(0)},
                                  type.getElementType()),
            src, b.getDenseI32ArrayAttr({1, 0}));
      } else {
        made = ReshapeOp::create(b, loc,
                                 RankedTensorType::get({type.getNumElements()},
                                                       type.getElementType()),
                                 src, pick(2) ? b.getUnitAttr() : UnitAttr());
      }
      break;
    }
    case 5: {
      Value src = pickValue([](Type t) {
        auto r = dyn_cast<RankedTensorType>(t);
        return r && r.getRank() == 1 && r.getDimSize(0) == 16;
      });
      if (!src)
        return;
      auto type = cast<RankedTensorType>(src.getType());
      SmallVector<int64_t> shape =
          pick(2) ? SmallVector<int64_t>{4, 4} : SmallVector<int64_t>{2, 8};
      made = ReshapeOp::create(
          b, loc, RankedTensorType::get(shape, type.getElementType()), src,
          pick(2) ? b.getUnitAttr() : UnitAttr());
      break;
    }
    case 6:
    case 7:
    case 8: {
      Value lhs = pickValue(isIntNotBool);
      if (!lhs)
        return;
      int kind = pick(17);
      bool isDivision = kind >= 3 && kind <= 6;
      bool isShift = kind >= 10 && kind <= 12;
      Value rhs;
      if (isShift) {
        rhs = shiftAmount(lhs.getType());
      } else if (pick(2) || isDivision) {
        rhs = constant(lhs.getType(), isDivision);
      } else {
        rhs = pickValue([&](Type t) { return t == lhs.getType(); });
      }
      if (pick(2))
        std::swap(lhs, rhs);
      if (isDivision || isShift)
        if (!rhs.getDefiningOp<arith::ConstantOp>())
          std::swap(lhs, rhs);
      switch (kind) {
      case 0:
        made = arith::AddIOp::create(b, loc, lhs, rhs);
        break;
      case 1:
        made = arith::SubIOp::create(b, loc, lhs, rhs);
        break;
      case 2:
        made = arith::MulIOp::create(b, loc, lhs, rhs);
        break;
      case 3:
        made = arith::DivSIOp::create(b, loc, lhs, rhs);
        break;
      case 4:
        made = arith::DivUIOp::create(b, loc, lhs, rhs);
        break;
      case 5:
        made = arith::RemSIOp::create(b, loc, lhs, rhs);
        break;
      case 6:
        made = arith::RemUIOp::create(b, loc, lhs, rhs);
        break;
      case 7:
        made = arith::AndIOp::create(b, loc, lhs, rhs);
        break;
      case 8:
        made = arith::OrIOp::create(b, loc, lhs, rhs);
        break;
      case 9:
        made = arith::XOrIOp::create(b, loc, lhs, rhs);
        break;
      case 10:
        made = arith::ShLIOp::create(b, loc, lhs, rhs);
        break;
      case 11:
        made = arith::ShRUIOp::create(b, loc, lhs, rhs);
        break;
      case 12:
        made = arith::ShRSIOp::create(b, loc, lhs, rhs);
        break;
      case 13:
        made = arith::MaxSIOp::create(b, loc, lhs, rhs);
        break;
      case 14:
        made = arith::MinSIOp::create(b, loc, lhs, rhs);
        break;
      case 15:
        made = arith::MaxUIOp::create(b, loc, lhs, rhs);
        break;
      default:
        made = arith::MinUIOp::create(b, loc, lhs, rhs);
        break;
      }
      break;
    }
    case 9: {
      Value lhs = pickValue(isIntNotBool);
      Value rhs = pickValue([&](Type t) { return t == lhs.getType(); });
      if (pick(2))
        rhs = constant(lhs.getType());
      if (pick(2))
        std::swap(lhs, rhs);
      made = arith::CmpIOp::create(
          b, loc, static_cast<arith::CmpIPredicate>(pick(10)), lhs, rhs);
      break;
    }
    case 10: {
      if (pick(2)) {
        // Two runs mixed under a mask that compares one of them.
        int64_t size = pickFrom<int64_t>({8, 16});
        Value a = offsets(size), other = offsets(size);
        pool.push_back(a);
        pool.push_back(other);
        Value mask = arith::CmpIOp::create(
            b, loc, static_cast<arith::CmpIPredicate>(pick(10)),
            pick(2) ? a : other, constant(a.getType()));
        pool.push_back(mask);
        made = arith::SelectOp::create(b, loc, mask, a, other);
        break;
      }
      Value a = pickValue(
          [](Type t) { return !getElementTypeOrSelf(t).isInteger(1); });
      Value c = pickValue([&](Type t) {
        return getElementTypeOrSelf(t).isInteger(1) &&
               (!isa<ShapedType>(t) ||
                cast<ShapedType>(t).getShape() ==
                    ArrayRef<int64_t>(shapeOf(a.getType())));
      });
      if (!c)
        return;
      Value other = pickValue([&](Type t) { return t == a.getType(); });
      if (other == a)
        other = pickValue([&](Type t) { return t == a.getType(); });
      made = arith::SelectOp::create(b, loc, c, a, other);
      break;
    }
    case 11: {
      Value lhs = pickValue(
          [](Type t) { return getElementTypeOrSelf(t).isInteger(1); });
      Value rhs = pickValue([&](Type t) { return t == lhs.getType(); });
      made = pick(2) ? Value(arith::AndIOp::create(b, loc, lhs, rhs))
                     : Value(arith::OrIOp::create(b, loc, lhs, rhs));
      break;
    }
    case 12: {
      Value src =
          pickValue([](Type t) { return getElementTypeOrSelf(t).isInteger(); });
      unsigned w = widthOf(src.getType());
      SmallVector<int64_t> shape = shapeOf(src.getType());
      if (!isa<ShapedType>(src.getType()))
        shape.clear();
      if (w == 64) {
        made = arith::TruncIOp::create(b, loc, tensorOf(shape, b.getI32Type()),
                                       src);
      } else {
        Type to = tensorOf(shape, w == 1 ? b.getI32Type() : b.getI64Type());
        made = pick(2) ? Value(arith::ExtSIOp::create(b, loc, to, src))
                       : Value(arith::ExtUIOp::create(b, loc, to, src));
      }
      break;
    }
    case 13: {
      // Blocks of pointers and offsets into them.
      Value ptr = pickValue(
          [](Type t) { return isa<PointerType>(getElementTypeOrSelf(t)); });
      Value off = pickValue([&](Type t) {
        if (!isIntNotBool(t))
          return false;
        if (!isa<ShapedType>(ptr.getType()))
          return !isa<ShapedType>(t);
        return isa<ShapedType>(t) &&
               cast<ShapedType>(t).getShape() ==
                   ArrayRef<int64_t>(shapeOf(ptr.getType()));
      });
      if (!off) {
        if (isa<ShapedType>(ptr.getType()))
          return;
        SmallVector<int64_t> shape = randomShape();
        if (shape.empty())
          return;
        made = SplatOp::create(b, loc, tensorOf(shape, ptr.getType()), ptr);
        break;
      }
      made = AddPtrOp::create(b, loc, ptr.getType(), ptr, off);
      break;
    }
    case 14: {
      Value src = pickValue([](Type t) {
        return isa<ShapedType>(t) &&
               (isa<PointerType>(getElementTypeOrSelf(t)) ||
                getElementTypeOrSelf(t).isInteger(64));
      });
      if (!src)
        return;
      auto type = cast<RankedTensorType>(src.getType());
      Type elem = type.getElementType();
      if (isa<PointerType>(elem)) {
        switch (pick(2)) {
        case 0:
          made = PtrToIntOp::create(b, loc, type.clone(b.getI64Type()), src);
          break;
        default:
          made = BitcastOp::create(b, loc,
                                   type.clone(PointerType::get(pickFrom<Type>(
                                       {b.getF16Type(), b.getF32Type(),
                                        b.getI8Type(), b.getF64Type()}))),
                                   src);
          break;
        }
      } else {
        made = IntToPtrOp::create(b, loc,
                                  type.clone(PointerType::get(pickFrom<Type>(
                                      {b.getI8Type(), b.getF32Type()}))),
                                  src);
      }
      break;
    }
    default:
      made = ProgramIdOp::create(b, loc,
                                 ProgramAxisAttr::get(&ctx, ProgramAxis::x));
      break;
    }
    if (made)
      pool.push_back(made);
  }
};

class AxisInfoSoundness : public ::testing::Test {
protected:
  AxisInfoSoundness() : ctx(makeRegistry()) { ctx.loadAllAvailableDialects(); }

  static DialectRegistry makeRegistry() {
    DialectRegistry registry;
    registerAllDialects(registry);
    return registry;
  }

  MLIRContext ctx;
};

TEST_F(AxisInfoSoundness, RandomProgramsOnRandomInputs) {
  std::mt19937 rng(20250101);
  constexpr int kPrograms = 400, kRuns = 40, kOps = 40;
  int validRuns = 0, checkedFacts = 0;
  for (int p = 0; p < kPrograms; ++p) {
    ProgramGenerator generator(ctx, rng);
    OwningOpRef<ModuleOp> module = generator.generate(kOps);
    ASSERT_TRUE(succeeded(verify(*module))) << "generator made invalid IR";
    ModuleAxisInfoAnalysis analysis(*module);
    auto func = cast<func::FuncOp>(module->getBody()->front());

    Interpreter interpreter;
    for (int r = 0; r < kRuns; ++r) {
      // Arguments that honour their divisibility attribute, of either sign
      // for integers; positive addresses for pointers.
      SmallVector<int64_t> args;
      for (auto [i, arg] : llvm::enumerate(func.getArguments())) {
        int64_t div = ProgramGenerator::kArgDivisibility[i];
        int64_t mult = std::max<int64_t>(div, 1);
        Type type = arg.getType();
        if (type.isInteger(1)) {
          args.push_back(rng() & 1);
        } else if (isa<PointerType>(type)) {
          args.push_back(mult * (1 + (int64_t)(rng() % (1 << 20))));
        } else {
          int64_t magnitude = (rng() % 4 == 0) ? (1 << 20) : 64;
          int64_t k = (int64_t)(rng() % (2 * magnitude + 1)) - magnitude;
          args.push_back(mult * k);
        }
      }
      if (!interpreter.run(func, args, rng() % 64))
        continue;
      ++validRuns;
      auto check = [&](Value v) {
        std::string error = checkFact(analysis.getAxisInfo(v),
                                      interpreter.values[v], v.getType());
        ++checkedFacts;
        if (error.empty())
          return true;
        std::string text;
        llvm::raw_string_ostream os(text);
        os << "fact " << analysis.getAxisInfo(v) << " of ";
        v.print(os);
        os << " does not hold: " << error << "\nin:\n" << *module;
        ADD_FAILURE() << text;
        return false;
      };
      for (Value arg : func.getArguments())
        if (!check(arg))
          return;
      for (Operation &op : func.getBody().front())
        for (Value v : op.getResults())
          if (!check(v))
            return;
    }
  }
  // Enough runs survive the overflow and division-by-zero filter to mean
  // something.
  EXPECT_GT(validRuns, kPrograms * kRuns / 4);
  EXPECT_GT(checkedFacts, 100000);
}

} // namespace
