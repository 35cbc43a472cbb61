//===- RuntimeTest.cpp - Conversion helpers and libm names of the CPU runtime
//-===//
#include "Runtime.h"
#include "Lowering.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/APFloat.h"

#include "gtest/gtest.h"

#include <bit>
#include <cmath>
#include <random>

using namespace mlir;
using namespace mlir::tessera::cpu;
using llvm::APFloat;
using llvm::RoundingMode;

namespace {

struct Format {
  Fp8Format format;
  const llvm::fltSemantics &(*semantics)();
};

const Format kFormats[] = {
    {Fp8Format::E4M3FN, &APFloat::Float8E4M3FN},
    {Fp8Format::E5M2, &APFloat::Float8E5M2},
    {Fp8Format::E4M3FNUZ, &APFloat::Float8E4M3FNUZ},
    {Fp8Format::E5M2FNUZ, &APFloat::Float8E5M2FNUZ},
    {Fp8Format::E4M3B11FNUZ, &APFloat::Float8E4M3B11FNUZ},
};

uint64_t apBits(double x, const llvm::fltSemantics &semantics,
                RoundingMode mode) {
  APFloat value(x);
  bool lost;
  value.convert(semantics, mode, &lost);
  return value.bitcastToAPInt().getZExtValue();
}

TEST(CpuRuntime, Fp8DecodesEveryValueLikeAPFloat) {
  for (const Format &f : kFormats)
    for (unsigned bits = 0; bits < 256; ++bits) {
      APFloat expected(f.semantics(), llvm::APInt(8, bits));
      float value = convertFromFp8(static_cast<uint8_t>(bits), f.format);
      if (expected.isNaN()) {
        EXPECT_TRUE(std::isnan(value)) << bits;
      } else {
        EXPECT_EQ(value, expected.convertToFloat())
            << "format " << static_cast<int>(f.format) << " bits " << bits;
      }
    }
}

TEST(CpuRuntime, Fp8RoundsLikeAPFloat) {
  // Every fp8 value, the midpoints around it and their neighbours, plus
  // random doubles over the formats' ranges, in both rounding modes.
  std::vector<double> inputs{0.0, -0.0,  INFINITY, -INFINITY,
                             NAN, 1e-30, -1e-30,   1e30};
  for (const Format &f : kFormats)
    for (unsigned bits = 0; bits < 256; ++bits) {
      double v = convertFromFp8(static_cast<uint8_t>(bits), f.format);
      if (std::isnan(v))
        continue;
      for (double scale : {1.0, 1.0625, 1.125, 1.1875, 0.9375, 0.96875})
        inputs.push_back(v * scale);
      inputs.push_back(std::nextafter(v, INFINITY));
      inputs.push_back(std::nextafter(v, -INFINITY));
    }
  std::mt19937_64 rng(11);
  for (int i = 0; i < 20000; ++i)
    inputs.push_back(
        std::ldexp(std::uniform_real_distribution<double>(-1, 1)(rng),
                   static_cast<int>(rng() % 40) - 20));
  for (const Format &f : kFormats)
    for (double x : inputs)
      for (bool towardZero : {false, true}) {
        uint64_t expected =
            apBits(x, f.semantics(),
                   towardZero ? RoundingMode::TowardZero
                              : RoundingMode::NearestTiesToEven);
        uint8_t got = convertToFp8(x, f.format, towardZero);
        if (std::isnan(x)) {
          // Any NaN encoding will do.
          EXPECT_TRUE(std::isnan(convertFromFp8(got, f.format)));
          continue;
        }
        ASSERT_EQ(got, expected)
            << "format " << static_cast<int>(f.format) << " x " << x
            << (towardZero ? " rtz" : " rtne");
      }
}

TEST(CpuRuntime, HalfAndBFloatRoundLikeAPFloat) {
  std::mt19937 rng(12);
  for (int i = 0; i < 200000; ++i) {
    float x = std::bit_cast<float>(static_cast<uint32_t>(rng()));
    if (std::isnan(x))
      continue;
    ASSERT_EQ(convertToHalf(x),
              apBits(x, APFloat::IEEEhalf(), RoundingMode::NearestTiesToEven))
        << x;
    ASSERT_EQ(convertToBFloat(x),
              apBits(x, APFloat::BFloat(), RoundingMode::NearestTiesToEven))
        << x;
  }
  for (uint32_t bits = 0; bits < 65536; ++bits) {
    APFloat h(APFloat::IEEEhalf(), llvm::APInt(16, bits));
    if (!h.isNaN()) {
      ASSERT_EQ(convertFromHalf(static_cast<uint16_t>(bits)),
                h.convertToFloat());
    }
  }
}

TEST(CpuRuntime, LibmNamesFollowTheElementType) {
  MLIRContext ctx;
  Builder b(&ctx);
  Type compute;
  EXPECT_EQ(resolveLibmSymbol("asin", b.getF32Type(), 1, compute), "asinf");
  EXPECT_EQ(compute, b.getF32Type());
  EXPECT_EQ(resolveLibmSymbol("asinf", b.getF64Type(), 1, compute), "asin");
  EXPECT_EQ(compute, b.getF64Type());
  EXPECT_EQ(resolveLibmSymbol("__tessera_erff", b.getF16Type(), 1, compute),
            "erff");
  EXPECT_EQ(compute, b.getF32Type());
  EXPECT_EQ(resolveLibmSymbol("pow_f32", b.getBF16Type(), 2, compute), "powf");
  EXPECT_EQ(resolveLibmSymbol("fma", b.getF64Type(), 3, compute), "fma");
  // The frontend's spelling: operand types after the name.
  EXPECT_EQ(resolveLibmSymbol("__tessera_asin_fp32", b.getF32Type(), 1,
                              compute),
            "asinf");
  EXPECT_EQ(resolveLibmSymbol("__tessera_atan2_fp64_fp64", b.getF64Type(), 2,
                              compute),
            "atan2");
  EXPECT_EQ(resolveLibmSymbol("__tessera_erf_fp16", b.getF16Type(), 1,
                              compute),
            "erff");
  // Unknown names, wrong arities and integers have no libm function.
  EXPECT_EQ(resolveLibmSymbol("frobnicate", b.getF32Type(), 1, compute), "");
  EXPECT_EQ(resolveLibmSymbol("pow", b.getF32Type(), 1, compute), "");
  EXPECT_EQ(resolveLibmSymbol("asin", b.getI32Type(), 1, compute), "");
}

} // namespace
