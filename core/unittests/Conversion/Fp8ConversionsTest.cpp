//===- Fp8ConversionsTest.cpp - fp8 conversions of the shared lowering ----===//
//
// The shared lowering spells fp8 conversions in integer operations. Here
// scalar conversions go through the whole lowering, the LLVM IR is compiled
// for the host with ORC's LLJIT, and the compiled code runs on every fp8
// code, every f16 and bf16 value and the rounding boundaries of f32 and f64.
// Two references judge it: LLVM's APFloat, and a decoder and a search for
// the nearest code written here from each format's definition.
//
//===----------------------------------------------------------------------===//
#include "tessera/Conversion/TesseraGPUToLLVM.h"
#include "tessera/InitAll.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ExecutionEngine/Orc/ExecutionUtils.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/TargetSelect.h"

#include <gtest/gtest.h>

#include <array>
#include <bit>
#include <cmath>
#include <limits>
#include <map>
#include <random>
#include <sstream>

using namespace mlir;
using namespace mlir::tessera;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

//===----------------------------------------------------------------------===//
// The formats, from their definitions
//===----------------------------------------------------------------------===//

/// How a format spends its codes beyond the finite values.
enum class Kind {
  IEEE,         // top exponent: infinity and NaNs
  FiniteAndNaN, // "fn": S.1111.111 only is NaN, no infinity
  NoNegZero,    // "fnuz": 1.0000.000 is NaN, no infinity, no -0
};

struct Format {
  const char *name;
  unsigned mantissaBits;
  int bias;
  Kind kind;
  /// True for the formats tessera.fp_to_fp takes; the others (which the
  /// frontend never makes) only reach the lowering through arith casts.
  bool tessera;
};

constexpr Format kFormats[] = {
    {"f8E4M3FN", 3, 7, Kind::FiniteAndNaN, true},
    {"f8E5M2", 2, 15, Kind::IEEE, true},
    {"f8E4M3FNUZ", 3, 8, Kind::NoNegZero, true},
    {"f8E5M2FNUZ", 2, 16, Kind::NoNegZero, true},
    {"f8E4M3B11FNUZ", 3, 11, Kind::NoNegZero, true},
    {"f8E4M3", 3, 7, Kind::IEEE, false},
    {"f8E3M4", 4, 3, Kind::IEEE, false},
};

struct Wide {
  const char *name;
  const char *intName;
  unsigned width;
};

constexpr Wide kF16{"f16", "i16", 16}, kBF16{"bf16", "i16", 16},
    kF32{"f32", "i32", 32}, kF64{"f64", "i64", 64};
constexpr Wide kWides[] = {kF16, kBF16, kF32, kF64};

/// The value of `code` in `f`; NaN for NaN codes.
double decode(const Format &f, uint8_t code) {
  unsigned m = f.mantissaBits;
  unsigned maxField = (1u << (7 - m)) - 1;
  unsigned field = (code >> m) & maxField;
  unsigned mantissa = code & ((1u << m) - 1);
  bool negative = code & 0x80;
  switch (f.kind) {
  case Kind::IEEE:
    if (field == maxField)
      return mantissa ? kNaN : (negative ? -kInf : kInf);
    break;
  case Kind::FiniteAndNaN:
    if ((code & 0x7f) == 0x7f)
      return kNaN;
    break;
  case Kind::NoNegZero:
    if (code == 0x80)
      return kNaN;
    break;
  }
  double magnitude = field == 0 ? std::ldexp(mantissa, 1 - f.bias - int(m))
                                : std::ldexp((1u << m) + mantissa,
                                             int(field) - f.bias - int(m));
  return negative ? -magnitude : magnitude;
}

/// The value of every code of `f`, computed once.
const std::array<double, 256> &getValues(const Format &f) {
  static std::map<std::string, std::array<double, 256>> tables;
  auto [it, inserted] = tables.try_emplace(f.name);
  if (inserted)
    for (unsigned c = 0; c < 256; ++c)
      it->second[c] = decode(f, c);
  return it->second;
}

/// The largest finite positive code of `f`.
uint8_t getMaxCode(const Format &f) {
  const std::array<double, 256> &values = getValues(f);
  uint8_t code = 0;
  for (unsigned c = 0; c < 0x80; ++c)
    if (std::isfinite(values[c]))
      code = c;
  return code;
}

/// `value` rounded to `f` by searching all codes: the nearest (ties to the
/// even code), or the nearest not larger in magnitude. Beyond the largest
/// finite value the exponent grid goes on by one more step, which stands for
/// overflow (infinity, or NaN without one) when rounding to nearest picks it.
/// NaN results are some NaN code.
uint8_t encode(const Format &f, double value, bool towardZero) {
  const std::array<double, 256> &values = getValues(f);
  uint8_t nan = f.kind == Kind::NoNegZero ? 0x80 : 0x7f;
  uint8_t maxCode = getMaxCode(f);
  // The grid point after the largest finite value.
  double beyond = 2 * values[maxCode] - values[maxCode - 1];
  if (std::isnan(value))
    return nan;
  uint8_t sign = std::signbit(value) ? 0x80 : 0;
  double magnitude = std::fabs(value);
  uint8_t code;
  if (std::isinf(magnitude)) {
    if (f.kind != Kind::IEEE)
      return nan;
    code = maxCode + 1;
  } else if (towardZero) {
    code = 0;
    for (unsigned c = 0; c <= maxCode; ++c)
      if (values[c] <= magnitude)
        code = c;
  } else if (magnitude >= beyond) {
    // (Searching would lose the distances of huge values to rounding.)
    code = maxCode + 1;
  } else {
    code = 0;
    double best = kInf;
    for (unsigned c = 0; c <= unsigned(maxCode) + 1; ++c) {
      double v = c <= maxCode ? values[c] : beyond;
      double d = std::fabs(v - magnitude);
      if (d < best || (d == best && c % 2 == 0)) {
        best = d;
        code = c;
      }
    }
  }
  if (code > maxCode && f.kind != Kind::IEEE)
    return nan;
  if (code == 0 && f.kind == Kind::NoNegZero)
    return 0;
  return code | sign;
}

/// True when `a` and `b` are the same value (zeros by sign) or both NaN.
bool sameValue(double a, double b) {
  if (std::isnan(a) || std::isnan(b))
    return std::isnan(a) && std::isnan(b);
  return a == b && std::signbit(a) == std::signbit(b);
}

//===----------------------------------------------------------------------===//
// The conversions, lowered and compiled
//===----------------------------------------------------------------------===//

/// Hooks that provide nothing: scalar conversions need no target operation.
class NoHooks : public LoweringHooks {
public:
  StringRef getName() const override { return "unittest"; }
};

std::string fnName(StringRef op, StringRef from, StringRef to) {
  return (op + "_" + from + "_" + to).str();
}

/// The names of the functions widening `f` to `w`.
std::vector<std::string> widenNames(const Format &f, const Wide &w) {
  std::vector<std::string> names = {fnName("extf", f.name, w.name)};
  if (f.tessera)
    names.push_back(fnName("widen", f.name, w.name));
  return names;
}

/// The names of the functions narrowing `w` to `f` with rounding `mode`.
std::vector<std::string> narrowNames(const Format &f, const Wide &w,
                                     StringRef mode) {
  std::vector<std::string> names = {
      fnName(("truncf_" + mode).str(), w.name, f.name)};
  if (f.tessera)
    names.push_back(fnName(("narrow_" + mode).str(), w.name, f.name));
  return names;
}

/// A function `name(i64) -> i64` that converts the low bits of its argument
/// (the bits of a `from`) with `op` to a `to` and returns its bits.
void addFunction(std::ostringstream &os, const std::string &name,
                 StringRef from, StringRef fromInt, StringRef to,
                 StringRef toInt, StringRef op) {
  os << "func.func @" << name.c_str() << "(%a: i64) -> i64 {\n";
  std::string in = "%a";
  if (fromInt != "i64") {
    os << "  %i = arith.trunci %a : i64 to " << fromInt.str() << "\n";
    in = "%i";
  }
  os << "  %x = arith.bitcast " << in << " : " << fromInt.str() << " to "
     << from.str() << "\n";
  os << "  %y = " << op.str() << "\n";
  os << "  %r = arith.bitcast %y : " << to.str() << " to " << toInt.str()
     << "\n";
  if (toInt == "i64")
    os << "  return %r : i64\n}\n";
  else
    os << "  %z = arith.extui %r : " << toInt.str()
       << " to i64\n  return %z : i64\n}\n";
}

/// The module of every conversion the tests call.
std::string buildSource() {
  std::ostringstream os;
  os << "module attributes {tessera_gpu.num_ctas = 1 : i32, "
        "tessera_gpu.num_warps = 1 : i32, tessera_gpu.target = \"test\", "
        "tessera_gpu.threads_per_warp = 32 : i32} {\n";
  for (const Format &f : kFormats) {
    std::string fp8 = f.name;
    for (const Wide &w : kWides) {
      std::string wide = w.name;
      addFunction(os, fnName("extf", fp8, wide), fp8, "i8", wide, w.intName,
                  "arith.extf %x : " + fp8 + " to " + wide);
      if (f.tessera) {
        addFunction(os, fnName("widen", fp8, wide), fp8, "i8", wide, w.intName,
                    "tessera.fp_to_fp %x : " + fp8 + " -> " + wide);
        for (StringRef mode : {"rtne", "rtz"})
          addFunction(os, fnName(("narrow_" + mode).str(), wide, fp8), wide,
                      w.intName, fp8, "i8",
                      "tessera.fp_to_fp %x {rounding = #tessera<rounding " +
                          mode.str() + ">} : " + wide + " -> " + fp8);
      }
      addFunction(os, fnName("truncf_rtne", wide, fp8), wide, w.intName, fp8,
                  "i8", "arith.truncf %x : " + wide + " to " + fp8);
      addFunction(os, fnName("truncf_rtz", wide, fp8), wide, w.intName, fp8,
                  "i8", "arith.truncf %x toward_zero : " + wide + " to " + fp8);
    }
    for (const Format &g : kFormats) {
      if (&f == &g || !f.tessera || !g.tessera)
        continue;
      for (StringRef mode : {"rtne", "rtz"})
        addFunction(os, fnName(("cast_" + mode).str(), fp8, g.name), fp8, "i8",
                    g.name, "i8",
                    "tessera.fp_to_fp %x {rounding = #tessera<rounding " +
                        mode.str() + ">} : " + fp8 + " -> " + g.name);
    }
  }
  os << "}\n";
  return os.str();
}

using Fn = uint64_t (*)(uint64_t);

/// The compiled conversions, built once for all tests.
class Compiled {
public:
  static Compiled &get() {
    static Compiled compiled;
    return compiled;
  }

  /// The compiled function `name`; fails the test when it is missing.
  Fn lookup(const std::string &name) {
    if (!jit)
      return nullptr;
    auto symbol = jit->lookup(name);
    if (!symbol) {
      ADD_FAILURE() << "no compiled function " << name << ": "
                    << llvm::toString(symbol.takeError());
      return nullptr;
    }
    return symbol->toPtr<Fn>();
  }

  const std::string &getError() const { return error; }
  MLIRContext &getContext() { return context; }

private:
  Compiled() : context(makeRegistry()) {
    std::string source = buildSource();
    OwningOpRef<ModuleOp> module =
        parseSourceString<ModuleOp>(source, ParserConfig(&context));
    if (!module) {
      error = "the test module does not parse";
      return;
    }
    PassManager pm(&context);
    buildLowerToLLVMPipeline(pm, std::make_shared<NoHooks>());
    if (failed(pm.run(*module))) {
      error = "the lowering failed";
      return;
    }
    // Functions other than kernels are internal; the test calls them.
    module->walk([](LLVM::LLVMFuncOp func) {
      func.setLinkage(LLVM::Linkage::External);
    });

    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    auto llvmContext = std::make_unique<llvm::LLVMContext>();
    std::unique_ptr<llvm::Module> llvmModule =
        translateModuleToLLVMIR(*module, *llvmContext, "fp8");
    if (!llvmModule) {
      error = "the translation to LLVM IR failed";
      return;
    }
    auto created = llvm::orc::LLJITBuilder().create();
    if (!created) {
      error = llvm::toString(created.takeError());
      return;
    }
    // Helpers the code generator may call (half-precision conversions on
    // hosts without them) come from the process.
    auto process =
        llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(
            (*created)->getDataLayout().getGlobalPrefix());
    if (!process) {
      error = llvm::toString(process.takeError());
      return;
    }
    (*created)->getMainJITDylib().addGenerator(std::move(*process));
    if (llvm::Error err = (*created)->addIRModule(llvm::orc::ThreadSafeModule(
            std::move(llvmModule), std::move(llvmContext)))) {
      error = llvm::toString(std::move(err));
      return;
    }
    jit = std::move(*created);
  }

  static DialectRegistry makeRegistry() {
    DialectRegistry registry;
    registerAllDialects(registry);
    registerBuiltinDialectTranslation(registry);
    registerLLVMDialectTranslation(registry);
    return registry;
  }

  MLIRContext context;
  std::unique_ptr<llvm::orc::LLJIT> jit;
  std::string error;
};

//===----------------------------------------------------------------------===//
// Helpers of the checks
//===----------------------------------------------------------------------===//

const llvm::fltSemantics &getSemantics(StringRef name) {
  MLIRContext &ctx = Compiled::get().getContext();
  return cast<FloatType>(parseType(name, &ctx)).getFloatSemantics();
}

llvm::APFloat makeAPFloat(StringRef type, unsigned width, uint64_t bits) {
  return llvm::APFloat(getSemantics(type), llvm::APInt(width, bits));
}

double toDouble(const Wide &w, uint64_t bits) {
  llvm::APFloat v = makeAPFloat(w.name, w.width, bits);
  bool losesInfo;
  v.convert(llvm::APFloat::IEEEdouble(), llvm::APFloat::rmNearestTiesToEven,
            &losesInfo);
  return v.convertToDouble();
}

/// What APFloat makes of `value` (bits of `from`) converted to `to`.
llvm::APFloat convertAP(StringRef from, unsigned width, uint64_t bits,
                        StringRef to, bool towardZero) {
  llvm::APFloat v = makeAPFloat(from, width, bits);
  bool losesInfo;
  v.convert(getSemantics(to),
            towardZero ? llvm::APFloat::rmTowardZero
                       : llvm::APFloat::rmNearestTiesToEven,
            &losesInfo);
  return v;
}

/// Counts mismatches and keeps the first few for the failure message.
class Mismatches {
public:
  template <typename... Args> void add(const Args &...args) {
    if (++count > 12)
      return;
    std::ostringstream os;
    (os << ... << args);
    text += "\n  " + os.str();
  }
  bool empty() const { return count == 0; }
  std::string str() const {
    return std::to_string(count) + " mismatches:" + text;
  }

private:
  unsigned count = 0;
  std::string text;
};

std::string hex(uint64_t value) {
  std::ostringstream os;
  os << "0x" << std::hex << value;
  return os.str();
}

/// Checks the narrowing functions from `w` to `f` on `inputs` (bits of `w`).
void checkNarrow(const Format &f, const Wide &w,
                 const std::vector<uint64_t> &inputs) {
  Compiled &compiled = Compiled::get();
  for (bool towardZero : {false, true}) {
    std::string mode = towardZero ? "rtz" : "rtne";
    std::vector<Fn> fns;
    for (const std::string &name : narrowNames(f, w, mode))
      fns.push_back(compiled.lookup(name));
    if (llvm::is_contained(fns, nullptr))
      return;
    Mismatches bad;
    for (uint64_t bits : inputs) {
      double value = toDouble(w, bits);
      uint8_t expected = encode(f, value, towardZero);
      llvm::APFloat ap = convertAP(w.name, w.width, bits, f.name, towardZero);
      for (Fn fn : fns) {
        uint8_t got = uint8_t(fn(bits));
        if (!sameValue(decode(f, got), decode(f, expected)))
          bad.add(w.name, " ", hex(bits), " (", value, "): got ", hex(got),
                  ", the definition gives ", hex(expected));
        uint64_t apBits = ap.bitcastToAPInt().getZExtValue();
        if (ap.isNaN() ? !std::isnan(decode(f, got)) : got != apBits)
          bad.add(w.name, " ", hex(bits), " (", value, "): got ", hex(got),
                  ", APFloat gives ", hex(apBits));
      }
    }
    EXPECT_TRUE(bad.empty())
        << w.name << " -> " << f.name << " " << mode << ": " << bad.str();
  }
}

/// Bits of `value` in `w` (f32 or f64), which must hold it exactly.
uint64_t bitsOf(const Wide &w, double value) {
  if (w.width == 32)
    return std::bit_cast<uint32_t>(float(value));
  return std::bit_cast<uint64_t>(value);
}

/// The neighbour of `value` in `w` (f32 or f64) towards `direction`.
double next(const Wide &w, double value, double direction) {
  if (w.width == 32)
    return std::nextafter(float(value), float(direction));
  return std::nextafter(value, direction);
}

class Fp8ConversionTest : public ::testing::TestWithParam<Format> {
protected:
  void SetUp() override { ASSERT_EQ(Compiled::get().getError(), ""); }
};

//===----------------------------------------------------------------------===//
// Tests
//===----------------------------------------------------------------------===//

TEST(Fp8Definitions, KnownValues) {
  const Format &e4m3fn = kFormats[0], &e5m2 = kFormats[1],
               &e4m3fnuz = kFormats[2];
  EXPECT_EQ(decode(e4m3fn, 0x7e), 448.0);
  EXPECT_TRUE(std::isnan(decode(e4m3fn, 0x7f)));
  EXPECT_TRUE(std::isnan(decode(e4m3fn, 0xff)));
  EXPECT_EQ(decode(e4m3fn, 0x78), 256.0);
  EXPECT_EQ(decode(e4m3fn, 0x01), std::ldexp(1.0, -9));
  EXPECT_EQ(decode(e4m3fn, 0x08), std::ldexp(1.0, -6));
  EXPECT_EQ(decode(e4m3fn, 0x38), 1.0);
  EXPECT_TRUE(sameValue(decode(e4m3fn, 0x80), -0.0));
  EXPECT_EQ(decode(e5m2, 0x7b), 57344.0);
  EXPECT_EQ(decode(e5m2, 0x7c), kInf);
  EXPECT_EQ(decode(e5m2, 0xfc), -kInf);
  EXPECT_EQ(decode(e5m2, 0x01), std::ldexp(1.0, -16));
  EXPECT_EQ(decode(e5m2, 0x3c), 1.0);
  EXPECT_EQ(decode(e4m3fnuz, 0x7f), 240.0);
  EXPECT_TRUE(std::isnan(decode(e4m3fnuz, 0x80)));
  // The conformance host reference (HostTensor.cpp) rounds to nearest even
  // and overflows e4m3fn to NaN past the 448/480 midpoint.
  EXPECT_EQ(encode(e4m3fn, 464.0, false), 0x7e);
  EXPECT_EQ(encode(e4m3fn, 465.0, false), 0x7f);
  EXPECT_EQ(encode(e4m3fn, 1e9, true), 0x7e);
  EXPECT_EQ(encode(e5m2, 61440.0, false), 0x7c);
  EXPECT_EQ(encode(e5m2, -1e9, true), 0xfb);
  EXPECT_EQ(encode(e4m3fn, std::ldexp(1.0, -10), false), 0x00);
  EXPECT_EQ(encode(e4m3fn, -std::ldexp(3.0, -10), false), 0x82);
  EXPECT_EQ(encode(e4m3fn, -std::ldexp(3.0, -11), false), 0x81);
  EXPECT_EQ(encode(e4m3fnuz, -0.0, false), 0x00);
}

TEST_P(Fp8ConversionTest, WidenEveryCode) {
  const Format &f = GetParam();
  Compiled &compiled = Compiled::get();
  for (const Wide &w : kWides) {
    std::vector<Fn> fns;
    for (const std::string &name : widenNames(f, w))
      fns.push_back(compiled.lookup(name));
    if (llvm::is_contained(fns, nullptr))
      return;
    Mismatches bad;
    for (unsigned code = 0; code < 256; ++code) {
      double expected = decode(f, code);
      llvm::APFloat ap = convertAP(f.name, 8, code, w.name, false);
      for (Fn fn : fns) {
        uint64_t got = fn(code);
        if (!sameValue(toDouble(w, got), expected))
          bad.add(hex(code), ": got ", hex(got), " (", toDouble(w, got),
                  "), the definition gives ", expected);
        if (ap.isNaN() ? !std::isnan(toDouble(w, got))
                       : got != ap.bitcastToAPInt().getZExtValue())
          bad.add(hex(code), ": got ", hex(got), ", APFloat gives ",
                  hex(ap.bitcastToAPInt().getZExtValue()));
      }
    }
    EXPECT_TRUE(bad.empty()) << f.name << " -> " << w.name << ": " << bad.str();
  }
}

TEST_P(Fp8ConversionTest, NarrowingRoundTripsEveryCode) {
  const Format &f = GetParam();
  Compiled &compiled = Compiled::get();
  for (const Wide &w : kWides) {
    Fn widen = compiled.lookup(widenNames(f, w).front());
    if (!widen)
      return;
    std::vector<std::string> names = narrowNames(f, w, "rtne");
    llvm::append_range(names, narrowNames(f, w, "rtz"));
    for (const std::string &name : names) {
      Fn narrow = compiled.lookup(name);
      if (!narrow)
        return;
      Mismatches bad;
      for (unsigned code = 0; code < 256; ++code) {
        uint8_t back = uint8_t(narrow(widen(code)));
        bool nan = std::isnan(decode(f, code));
        if (nan ? !std::isnan(decode(f, back)) : back != code)
          bad.add(hex(code), " comes back as ", hex(back));
      }
      EXPECT_TRUE(bad.empty()) << name << ": " << bad.str();
    }
  }
}

TEST_P(Fp8ConversionTest, NarrowEveryHalfAndBFloat) {
  std::vector<uint64_t> all(1 << 16);
  for (uint64_t i = 0; i < all.size(); ++i)
    all[i] = i;
  checkNarrow(GetParam(), kF16, all);
  checkNarrow(GetParam(), kBF16, all);
}

TEST_P(Fp8ConversionTest, NarrowSingleAndDoubleBoundaries) {
  const Format &f = GetParam();
  uint8_t maxCode = getMaxCode(f);
  for (const Wide &w : {kF32, kF64}) {
    std::vector<double> values;
    // Every fp8 value, the midpoints to its neighbours (ties), and the
    // values one unit of `w` around each (just past a tie or a code).
    double beyond = 2 * decode(f, maxCode) - decode(f, maxCode - 1);
    for (unsigned c = 0; c <= maxCode; ++c) {
      double lo = decode(f, c);
      double hi = c < maxCode ? decode(f, c + 1) : beyond;
      double mid = (lo + hi) / 2;
      for (double v : {lo, mid})
        for (double x : {v, next(w, v, kInf), next(w, v, -kInf)})
          values.push_back(x);
    }
    double wideMax = w.width == 32 ? std::numeric_limits<float>::max()
                                   : std::numeric_limits<double>::max();
    double wideMin = w.width == 32 ? std::numeric_limits<float>::denorm_min()
                                   : std::numeric_limits<double>::denorm_min();
    double wideNormal = w.width == 32 ? std::numeric_limits<float>::min()
                                      : std::numeric_limits<double>::min();
    for (double v : {0.0, kInf, kNaN, wideMax, wideMin, wideNormal,
                     next(w, wideNormal, 0.0), 1e10, beyond * 4})
      values.push_back(v);

    // Random values in and around the fp8 range, and random bits.
    std::mt19937_64 rng(42);
    std::uniform_int_distribution<int> exponent(-30, 20);
    std::uniform_real_distribution<double> fraction(1.0, 2.0);
    for (int i = 0; i < 20000; ++i) {
      double v = std::ldexp(fraction(rng), exponent(rng));
      values.push_back(w.width == 32 ? double(float(v)) : v);
    }
    std::vector<uint64_t> inputs;
    for (double v : values) {
      inputs.push_back(bitsOf(w, v));
      inputs.push_back(bitsOf(w, -v));
    }
    for (int i = 0; i < 20000; ++i)
      inputs.push_back(w.width == 32 ? uint32_t(rng()) : rng());
    checkNarrow(f, w, inputs);
  }
}

TEST_P(Fp8ConversionTest, BetweenFormats) {
  const Format &f = GetParam();
  if (!f.tessera)
    GTEST_SKIP() << "only tessera.fp_to_fp converts between fp8 formats";
  Compiled &compiled = Compiled::get();
  for (const Format &g : kFormats) {
    if (g.name == StringRef(f.name) || !g.tessera)
      continue;
    for (bool towardZero : {false, true}) {
      Fn fn = compiled.lookup(
          fnName(towardZero ? "cast_rtz" : "cast_rtne", f.name, g.name));
      if (!fn)
        return;
      Mismatches bad;
      for (unsigned code = 0; code < 256; ++code) {
        uint8_t got = uint8_t(fn(code));
        uint8_t expected = encode(g, decode(f, code), towardZero);
        llvm::APFloat ap = convertAP(f.name, 8, code, g.name, towardZero);
        if (!sameValue(decode(g, got), decode(g, expected)))
          bad.add(hex(code), ": got ", hex(got), ", the definition gives ",
                  hex(expected));
        if (ap.isNaN() ? !std::isnan(decode(g, got))
                       : got != ap.bitcastToAPInt().getZExtValue())
          bad.add(hex(code), ": got ", hex(got), ", APFloat gives ",
                  hex(ap.bitcastToAPInt().getZExtValue()));
      }
      EXPECT_TRUE(bad.empty())
          << f.name << " -> " << g.name << (towardZero ? " rtz" : " rtne")
          << ": " << bad.str();
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Formats, Fp8ConversionTest,
                         ::testing::ValuesIn(kFormats),
                         [](const ::testing::TestParamInfo<Format> &info) {
                           return std::string(info.param.name);
                         });

} // namespace
