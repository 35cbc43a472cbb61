//===- Fp8DecodingTest.cpp - fp8 decoding against APFloat -----------------===//
#include "Fp8Decoding.h"

#include "llvm/ADT/APInt.h"
#include "llvm/ADT/bit.h"

#include "gtest/gtest.h"

#include <cmath>

using namespace mlir::tessera::cpu;

namespace {

/// Every fp8 format the CPU backend reads, with its name for messages.
const std::pair<const llvm::fltSemantics *, const char *> kFormats[] = {
    {&llvm::APFloat::Float8E4M3FN(), "E4M3FN"},
    {&llvm::APFloat::Float8E5M2(), "E5M2"},
    {&llvm::APFloat::Float8E4M3FNUZ(), "E4M3FNUZ"},
    {&llvm::APFloat::Float8E5M2FNUZ(), "E5M2FNUZ"},
    {&llvm::APFloat::Float8E4M3B11FNUZ(), "E4M3B11FNUZ"},
};

TEST(Fp8Decoding, EveryEncodingOfEveryFormatMatchesAPFloat) {
  for (auto [semantics, name] : kFormats) {
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

TEST(Fp8Decoding, OtherWidthsHaveNone) {
  EXPECT_FALSE(getFp8Decoding(llvm::APFloat::IEEEhalf()));
  EXPECT_FALSE(getFp8Decoding(llvm::APFloat::Float4E2M1FN()));
}

} // namespace
