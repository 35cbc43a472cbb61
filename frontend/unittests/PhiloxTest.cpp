//===- PhiloxTest.cpp - tl.rand / tl.randint against Triton's streams -----===//
//
// The expected values were produced by Triton 3.6 itself (the interpreter,
// TRITON_INTERPRET=1, running tl.randint / tl.rand / tl.randint4x on the CPU)
// for the seeds and offsets below. Two things are checked against them:
//  1. the host reference of Philox.h (the rounds the IR builder also uses);
//  2. the IR the frontend emits for a kernel calling tl.randint and
//     tl.rand, run by a small evaluator of the ops that IR contains.
//
//===----------------------------------------------------------------------===//
#include "tessera/Frontend/Codegen/Philox.h"
#include "tessera/Frontend/Compile.h"

#include "TestUtils.h"

#include "tessera/Dialect/Tessera/IR/Dialect.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/DenseMap.h"
#include "gtest/gtest.h"

#include <cstring>

using namespace tessera::frontend;
using namespace tessera::frontend::test;

namespace {
struct Stream {
  uint64_t seed, base;
  bool offset64;
  std::array<uint32_t, 4> randint;
  std::array<float, 4> rand;
  std::array<uint32_t, 16> randint4x; // per offset: 4 words
};

// From Triton 3.6: offsets = base + tl.arange(0, 4) (int32 unless noted).
const Stream kStreams[] = {
    {0,
     0,
     false,
     {1713891541u, 4175744164u, 83534633u, 3381718825u},
     {0.7980929017066956f, 0.055517591536045074f, 0.03889884054660797f,
      0.4252644181251526f},
     {1713891541u, 3781805453u, 3159862348u, 2600524760u, 4175744164u,
      1555169499u, 2980410603u, 159317863u, 83534633u, 1372009126u, 605361069u,
      1167144420u, 3381718825u, 1782871206u, 2596868943u, 1832992260u}},
    {123,
     0,
     false,
     {287538396u, 2747274318u, 739990181u, 510055638u},
     {0.13389548659324646f, 0.7207006216049194f, 0.34458476305007935f,
      0.23751315474510193f},
     {287538396u, 1728003544u, 3216022928u, 819691090u, 2747274318u,
      2101354157u, 886462750u, 3725512111u, 739990181u, 1075717757u,
      3002037153u, 4170042697u, 510055638u, 536017450u, 3651011675u,
      3651667787u}},
    {123,
     1000000,
     false,
     {2098111054u, 4110995150u, 403813549u, 3824908897u},
     {0.9770090579986572f, 0.08566869795322418f, 0.18804031610488892f,
      0.21888798475265503f},
     {2098111054u, 2762940318u, 1770520894u, 187298172u, 4110995150u,
      3493618833u, 1023195918u, 3421031975u, 403813549u, 2513214579u,
      1454164456u, 1679707650u, 3824908897u, 3781151447u, 3453730624u,
      4200220993u}},
    {2147483647,
     7,
     false,
     {3461254930u, 3233100387u, 1019482165u, 1305784702u},
     {0.38822755217552185f, 0.4944702684879303f, 0.4747333526611328f,
      0.6080533266067505f},
     {3461254930u, 2974043125u, 447314143u, 1962702326u, 3233100387u,
      1630238673u, 2692664586u, 1128576060u, 1019482165u, 3964042366u,
      2415841606u, 1822210580u, 1305784702u, 1407216077u, 4152960724u,
      365207159u}},
    {42,
     2147483644,
     false,
     {3762622392u, 1921158761u, 3520338411u, 3505550395u},
     {0.24789239466190338f, 0.8946092128753662f, 0.3607146441936493f,
      0.36760085821151733f},
     {3762622392u, 835559907u, 3803609316u, 2085560367u, 1921158761u,
      1585247599u, 2476411022u, 2960836831u, 3520338411u, 3119803344u,
      1846727244u, 3926452987u, 3505550395u, 1439846885u, 1481640360u,
      3173488836u}},
};

// 64-bit offsets (offsets = base + tl.arange(0, 4).to(tl.int64)); the second
// seed is an int64 argument.
const std::pair<std::pair<uint64_t, uint64_t>, std::array<uint32_t, 4>>
    kStreams64[] = {
        {{5, 8589934595ull}, {2254156108u, 611249869u, 968151187u, 158729260u}},
        {{1099511627793ull, 9},
         {2086947920u, 2090441468u, 3657603048u, 3158613275u}},
};

uint32_t bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
} // namespace

TEST(PhiloxTest, HostReferenceMatchesTriton) {
  for (const Stream &s : kStreams) {
    for (unsigned i = 0; i < 4; ++i) {
      std::array<uint32_t, 4> w =
          philox::randint4x(s.seed, s.base + i, s.offset64);
      EXPECT_EQ(w[0], s.randint[i])
          << "seed " << s.seed << " offset " << s.base + i;
      for (unsigned k = 0; k < 4; ++k)
        EXPECT_EQ(w[k], s.randint4x[4 * i + k]);
      EXPECT_EQ(bits(philox::uintToUniformFloat(w[0])), bits(s.rand[i]))
          << "seed " << s.seed << " offset " << s.base + i;
    }
  }
  for (const auto &[key, expected] : kStreams64)
    for (unsigned i = 0; i < 4; ++i)
      EXPECT_EQ(philox::randint4x(key.first, key.second + i, true)[0],
                expected[i]);
}

TEST(PhiloxTest, UniformMappingEdges) {
  // int32(u) = INT32_MIN maps to INT32_MAX (-v - 1), the largest output.
  EXPECT_LT(philox::uintToUniformFloat(0x80000000u), 1.0f);
  EXPECT_EQ(philox::uintToUniformFloat(0x80000000u),
            philox::uintToUniformFloat(0x7fffffffu));
  EXPECT_EQ(philox::uintToUniformFloat(0u), 0.0f);
  EXPECT_EQ(philox::uintToUniformFloat(0xffffffffu), 0.0f);
}

//===----------------------------------------------------------------------===//
// Running the emitted IR
//===----------------------------------------------------------------------===//

namespace {
/// A value of the evaluated IR: one entry per element, integers as their
/// bits (zero-extended), floats as fp32.
struct EvalValue {
  std::vector<uint64_t> ints;
  std::vector<float> floats;
  unsigned width = 0;
  size_t size() const { return std::max(ints.size(), floats.size()); }
};

uint64_t maskTo(uint64_t v, unsigned width) {
  return width >= 64 ? v : v & ((uint64_t(1) << width) - 1);
}
int64_t signExtend(uint64_t v, unsigned width) {
  if (width >= 64)
    return int64_t(v);
  uint64_t sign = uint64_t(1) << (width - 1);
  return int64_t((v ^ sign) - sign);
}

/// Evaluates the straight-line kernel `fn` with scalar integer arguments
/// `args` (pointers get index 0) and returns what was stored, by index.
std::map<int64_t, EvalValue> evaluate(mlir::func::FuncOp fn,
                                      llvm::ArrayRef<uint64_t> args,
                                      std::string &error) {
  llvm::DenseMap<mlir::Value, EvalValue> env;
  std::map<int64_t, EvalValue> stored;
  auto widthOf = [](mlir::Type t) {
    t = mlir::getElementTypeOrSelf(t);
    if (auto i = llvm::dyn_cast<mlir::IntegerType>(t))
      return unsigned(i.getWidth());
    return 64u;
  };
  for (auto [i, arg] : llvm::enumerate(fn.getArguments())) {
    EvalValue v;
    v.width = widthOf(arg.getType());
    v.ints = {maskTo(args[i], v.width)};
    env[arg] = v;
  }
  auto lanes = [](const EvalValue &a, size_t i) {
    return a.size() == 1 ? 0 : i;
  };
  for (mlir::Operation &op : fn.getBody().front()) {
    llvm::StringRef name = op.getName().getStringRef();
    mlir::Type rt =
        op.getNumResults() ? op.getResult(0).getType() : mlir::Type();
    EvalValue out;
    out.width = rt ? widthOf(rt) : 0;
    size_t n = 1;
    if (auto t = llvm::dyn_cast_or_null<mlir::RankedTensorType>(rt))
      n = t.getNumElements();
    auto in = [&](unsigned k) -> const EvalValue & {
      return env[op.getOperand(k)];
    };
    auto intBinary = [&](auto f) {
      for (size_t i = 0; i < n; ++i)
        out.ints.push_back(
            maskTo(f(in(0).ints[lanes(in(0), i)], in(1).ints[lanes(in(1), i)]),
                   out.width));
    };
    if (name == "arith.constant") {
      auto attr = op.getAttr("value");
      if (auto ia = llvm::dyn_cast<mlir::IntegerAttr>(attr))
        out.ints = {maskTo(ia.getValue().getZExtValue(), out.width)};
      else if (auto fa = llvm::dyn_cast<mlir::FloatAttr>(attr))
        out.floats = {float(fa.getValueAsDouble())};
      else {
        error = "unsupported constant";
        return stored;
      }
    } else if (name == "tessera.make_range") {
      int64_t start =
          llvm::cast<mlir::IntegerAttr>(op.getAttr("start")).getInt();
      for (size_t i = 0; i < n; ++i)
        out.ints.push_back(uint64_t(start + int64_t(i)));
    } else if (name == "tessera.splat") {
      out = in(0);
      out.width = widthOf(rt);
    } else if (name == "arith.addi") {
      intBinary([](uint64_t a, uint64_t b) { return a + b; });
    } else if (name == "arith.subi") {
      intBinary([](uint64_t a, uint64_t b) { return a - b; });
    } else if (name == "arith.muli") {
      intBinary([](uint64_t a, uint64_t b) { return a * b; });
    } else if (name == "arith.xori") {
      intBinary([](uint64_t a, uint64_t b) { return a ^ b; });
    } else if (name == "arith.andi") {
      intBinary([](uint64_t a, uint64_t b) { return a & b; });
    } else if (name == "arith.shrui") {
      intBinary([](uint64_t a, uint64_t b) { return a >> b; });
    } else if (name == "arith.shrsi") {
      unsigned w = out.width;
      intBinary([w](uint64_t a, uint64_t b) {
        return uint64_t(signExtend(a, w) >> b);
      });
    } else if (name == "tessera.mulhiui") {
      unsigned w = out.width;
      intBinary([w](uint64_t a, uint64_t b) {
        return uint64_t((unsigned __int128)a * b >> w);
      });
    } else if (name == "arith.extsi" || name == "arith.extui" ||
               name == "arith.trunci" || name == "arith.bitcast") {
      unsigned from = widthOf(op.getOperand(0).getType());
      for (size_t i = 0; i < in(0).ints.size(); ++i) {
        uint64_t v = in(0).ints[i];
        if (name == "arith.extsi")
          v = uint64_t(signExtend(v, from));
        out.ints.push_back(maskTo(v, out.width));
      }
    } else if (name == "arith.cmpi") {
      auto pred = llvm::cast<mlir::arith::CmpIOp>(op).getPredicate();
      unsigned w = widthOf(op.getOperand(0).getType());
      for (size_t i = 0; i < n; ++i) {
        int64_t a = signExtend(in(0).ints[lanes(in(0), i)], w),
                b = signExtend(in(1).ints[lanes(in(1), i)], w);
        if (pred != mlir::arith::CmpIPredicate::slt) {
          error = "unsupported comparison";
          return stored;
        }
        out.ints.push_back(a < b);
      }
    } else if (name == "arith.select") {
      for (size_t i = 0; i < n; ++i) {
        bool c = in(0).ints[lanes(in(0), i)];
        const EvalValue &pick = c ? in(1) : in(2);
        if (pick.ints.empty())
          out.floats.push_back(pick.floats[lanes(pick, i)]);
        else
          out.ints.push_back(pick.ints[lanes(pick, i)]);
      }
    } else if (name == "arith.sitofp") {
      unsigned w = widthOf(op.getOperand(0).getType());
      for (uint64_t v : in(0).ints)
        out.floats.push_back(float(signExtend(v, w)));
    } else if (name == "arith.mulf") {
      for (size_t i = 0; i < n; ++i)
        out.floats.push_back(in(0).floats[lanes(in(0), i)] *
                             in(1).floats[lanes(in(1), i)]);
    } else if (name == "tessera.addptr") {
      for (size_t i = 0; i < n; ++i)
        out.ints.push_back(in(0).ints[lanes(in(0), i)] +
                           in(1).ints[lanes(in(1), i)]);
    } else if (name == "tessera.store") {
      const EvalValue &ptr = in(0), &val = in(1);
      for (size_t i = 0; i < ptr.size(); ++i) {
        EvalValue &slot = stored[int64_t(ptr.ints[i])];
        if (val.ints.empty())
          slot.floats.push_back(val.floats[lanes(val, i)]);
        else
          slot.ints.push_back(val.ints[lanes(val, i)]);
      }
      continue;
    } else if (name == "func.return") {
      break;
    } else {
      error = "unsupported op " + name.str();
      return stored;
    }
    env[op.getResult(0)] = out;
  }
  return stored;
}

const char *kKernel = R"(import triton
import triton.language as tl

@triton.jit
def k(out_i, out_f, seed, base, N: tl.constexpr, WIDE: tl.constexpr):
    offs = base + tl.arange(0, N)
    if WIDE:
        offs = base + tl.arange(0, N).to(tl.int64)
    tl.store(out_i + tl.arange(0, N), tl.randint(seed, offs))
    tl.store(out_f + 4 + tl.arange(0, N), tl.rand(seed, offs))
)";

/// Lowers kKernel with `sig` and evaluates it on (seed, base).
std::map<int64_t, EvalValue> runKernel(llvm::StringRef sig, uint64_t seed,
                                       uint64_t base, std::string &error) {
  Source src(kKernel, "philox.py");
  std::unique_ptr<KernelModule> m =
      KernelModule::scan(src.sm, src.id, src.diags);
  llvm::FailureOr<Specialization> spec =
      specializeKernel(*m, "k", sig, {}, std::nullopt, src.diags);
  if (failed(spec)) {
    error = src.rendered();
    return {};
  }
  mlir::MLIRContext ctx;
  mlir::OwningOpRef<mlir::ModuleOp> ir =
      lowerKernel(*m, "k", *spec, ctx, src.diags);
  if (!ir) {
    error = src.rendered();
    return {};
  }
  auto fn = ir->lookupSymbol<mlir::func::FuncOp>("k");
  return evaluate(fn, {0, 0, seed, base}, error);
}
} // namespace

TEST(PhiloxTest, EmittedIRMatchesTriton) {
  for (const Stream &s : kStreams) {
    std::string error;
    std::map<int64_t, EvalValue> out =
        runKernel("*u32,*fp32,i32,i32,4,False", s.seed, s.base, error);
    ASSERT_TRUE(error.empty()) << error;
    for (unsigned i = 0; i < 4; ++i) {
      ASSERT_EQ(out[i].ints.size(), 1u);
      EXPECT_EQ(out[i].ints[0], s.randint[i]) << "seed " << s.seed;
      ASSERT_EQ(out[4 + i].floats.size(), 1u);
      EXPECT_EQ(bits(out[4 + i].floats[0]), bits(s.rand[i]))
          << "seed " << s.seed;
    }
  }
}

TEST(PhiloxTest, EmittedIRMatchesTritonWith64BitOffsetsAndSeeds) {
  for (const auto &[key, expected] : kStreams64) {
    std::string error;
    std::map<int64_t, EvalValue> out =
        runKernel(key.first > 0xffffffffull ? "*u32,*fp32,i64,i64,4,True"
                                            : "*u32,*fp32,i32,i64,4,True",
                  key.first, key.second, error);
    ASSERT_TRUE(error.empty()) << error;
    for (unsigned i = 0; i < 4; ++i)
      EXPECT_EQ(out[i].ints[0], expected[i]);
  }
}
