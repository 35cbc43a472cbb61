//===- Fp8CodecTest.cpp - fp8 conversions against APFloat and the runtime -===//
#include "Fp8Codec.h"

#include "llvm/ADT/APInt.h"
#include "llvm/ADT/bit.h"

#include "gtest/gtest.h"

#include <cmath>
#include <random>
#include <vector>

using namespace mlir::tessera::cpu;

namespace {

/// Every fp8 format the CPU backend reads, with its name for messages.
struct Format {
  const llvm::fltSemantics *semantics;
  Fp8Format format;
  const char *name;
};
const Format kFormats[] = {
    {&llvm::APFloat::Float8E4M3FN(), Fp8Format::E4M3FN, "E4M3FN"},
    {&llvm::APFloat::Float8E5M2(), Fp8Format::E5M2, "E5M2"},
    {&llvm::APFloat::Float8E4M3FNUZ(), Fp8Format::E4M3FNUZ, "E4M3FNUZ"},
    {&llvm::APFloat::Float8E5M2FNUZ(), Fp8Format::E5M2FNUZ, "E5M2FNUZ"},
    {&llvm::APFloat::Float8E4M3B11FNUZ(), Fp8Format::E4M3B11FNUZ,
     "E4M3B11FNUZ"},
};

/// f32 inputs that exercise every rounding case of every format: all f16
/// and bf16 values, every fp8 value of `decoding`'s format with the
/// midpoints to its neighbours and one f32 step either side of them, and a
/// million random bit patterns.
std::vector<float> encodingInputs(const Fp8Decoding &decoding) {
  std::vector<float> inputs;
  for (uint32_t h = 0; h < 0x10000; ++h) {
    llvm::APFloat half(llvm::APFloat::IEEEhalf(), llvm::APInt(16, h));
    bool lost = false;
    half.convert(llvm::APFloat::IEEEsingle(),
                 llvm::APFloat::rmNearestTiesToEven, &lost);
    inputs.push_back(half.convertToFloat());
    inputs.push_back(llvm::bit_cast<float>(h << 16)); // bf16
  }
  std::vector<float> values;
  for (unsigned bits = 0; bits < 256; ++bits)
    values.push_back(decodeFp8(decoding, bits));
  for (float v : values)
    for (float w : values) {
      if (!std::isfinite(v) || !std::isfinite(w) || v == w)
        continue;
      float mid = (v + w) / 2;
      inputs.insert(inputs.end(), {v, mid, std::nextafter(mid, INFINITY),
                                   std::nextafter(mid, -INFINITY)});
    }
  std::mt19937 random(7);
  for (int i = 0; i < 1000000; ++i)
    inputs.push_back(llvm::bit_cast<float>(static_cast<uint32_t>(random())));
  return inputs;
}

TEST(Fp8Decoding, EveryEncodingOfEveryFormatMatchesAPFloat) {
  for (auto [semantics, format, name] : kFormats) {
    std::optional<Fp8Decoding> decoding = getFp8Decoding(*semantics);
    ASSERT_TRUE(decoding) << name;
    for (unsigned bits = 0; bits < 256; ++bits) {
      llvm::APFloat exact(*semantics, llvm::APInt(8, bits));
      bool lost = false;
      exact.convert(llvm::APFloat::IEEEsingle(),
                    llvm::APFloat::rmNearestTiesToEven, &lost);
      float got = decodeFp8(*decoding, bits);
      if (exact.isNaN())
        EXPECT_TRUE(std::isnan(got)) << name << " " << bits;
      else
        EXPECT_EQ(llvm::bit_cast<uint32_t>(got),
                  llvm::bit_cast<uint32_t>(exact.convertToFloat()))
            << name << " encoding " << bits;
    }
  }
}

TEST(Fp8Decoding, SpecialEncodingsPerFormat) {
  std::optional<Fp8Decoding> e5m2 = getFp8Decoding(llvm::APFloat::Float8E5M2());
  ASSERT_TRUE(e5m2);
  EXPECT_EQ(e5m2->mantissaBits, 2u);
  EXPECT_EQ(e5m2->firstNonFinite, 0x7Cu);
  EXPECT_EQ(e5m2->infinity, 0x7Cu);
  EXPECT_FALSE(e5m2->negativeZeroIsNaN);

  std::optional<Fp8Decoding> e4m3 =
      getFp8Decoding(llvm::APFloat::Float8E4M3FN());
  ASSERT_TRUE(e4m3);
  EXPECT_EQ(e4m3->firstNonFinite, 0x7Fu);
  EXPECT_FALSE(e4m3->infinity);
  EXPECT_EQ(e4m3->subnormalUnit, std::ldexp(1.0f, -9));

  std::optional<Fp8Decoding> fnuz =
      getFp8Decoding(llvm::APFloat::Float8E4M3FNUZ());
  ASSERT_TRUE(fnuz);
  EXPECT_EQ(fnuz->firstNonFinite, 128u);
  EXPECT_TRUE(fnuz->negativeZeroIsNaN);
}

TEST(Fp8Encoding, EveryRoundingCaseMatchesTheRuntime) {
  for (auto [semantics, format, name] : kFormats) {
    std::optional<Fp8Decoding> decoding = getFp8Decoding(*semantics);
    ASSERT_TRUE(decoding) << name;
    std::vector<float> inputs = encodingInputs(*decoding);
    for (bool towardZero : {false, true}) {
      std::optional<Fp8Encoding> encoding =
          getFp8Encoding(*semantics, format, towardZero);
      ASSERT_TRUE(encoding) << name;
      unsigned mismatches = 0;
      for (float x : inputs) {
        uint8_t expected = convertToFp8(x, format, towardZero);
        uint8_t got = encodeFp8(*encoding, x);
        if (got != expected && ++mismatches <= 5)
          ADD_FAILURE() << name << (towardZero ? " rtz " : " rtne ")
                        << "f32 bits " << std::hex
                        << llvm::bit_cast<uint32_t>(x) << ": got " << int(got)
                        << ", runtime " << int(expected);
      }
      EXPECT_EQ(mismatches, 0u) << name;
    }
  }
}

TEST(Fp8Encoding, SpecialEncodings) {
  std::optional<Fp8Encoding> e4m3 =
      getFp8Encoding(llvm::APFloat::Float8E4M3FN(), Fp8Format::E4M3FN, false);
  ASSERT_TRUE(e4m3);
  EXPECT_EQ(e4m3->maxFinite, 0x7Eu);  // 448
  EXPECT_EQ(e4m3->overflow[0], 0x7F); // NaN: no infinity
  EXPECT_EQ(e4m3->zero[1], 0x80);     // -0
  std::optional<Fp8Encoding> e4m3Rtz =
      getFp8Encoding(llvm::APFloat::Float8E4M3FN(), Fp8Format::E4M3FN, true);
  ASSERT_TRUE(e4m3Rtz);
  EXPECT_EQ(e4m3Rtz->overflow[1], 0xFE); // saturates to -448
  std::optional<Fp8Encoding> fnuz = getFp8Encoding(
      llvm::APFloat::Float8E5M2FNUZ(), Fp8Format::E5M2FNUZ, false);
  ASSERT_TRUE(fnuz);
  EXPECT_EQ(fnuz->zero[1], 0x00); // no negative zero
  EXPECT_EQ(fnuz->nan[0], 0x80);
}

TEST(Fp8Decoding, OtherWidthsHaveNone) {
  EXPECT_FALSE(getFp8Decoding(llvm::APFloat::IEEEhalf()));
  EXPECT_FALSE(getFp8Decoding(llvm::APFloat::Float4E2M1FN()));
}

} // namespace
