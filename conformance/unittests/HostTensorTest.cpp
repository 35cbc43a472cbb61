//===- HostTensorTest.cpp - Element types and their rounding --------------===//
#include "tessera/Conformance/HostTensor.h"

#include "gtest/gtest.h"

#include <cmath>
#include <limits>

using namespace mlir::tessera::conformance;

namespace {
TEST(HostTensorTest, DTypeNames) {
  for (DType t : {DType::I8, DType::I32, DType::I64, DType::F16, DType::BF16,
                  DType::F32, DType::F64, DType::F8E4M3, DType::F8E5M2})
    EXPECT_EQ(parseDType(getDTypeName(t)), t);
  EXPECT_EQ(getDTypeName(DType::F8E4M3), "fp8e4nv");
  EXPECT_FALSE(parseDType("float16"));
}

TEST(HostTensorTest, Fp16Encoding) {
  EXPECT_EQ(encodeElement(1.0, DType::F16), 0x3C00u);
  EXPECT_EQ(encodeElement(-2.0, DType::F16), 0xC000u);
  EXPECT_EQ(encodeElement(65504.0, DType::F16), 0x7BFFu);
  EXPECT_EQ(encodeElement(65520.0, DType::F16), 0x7C00u);   // rounds to inf
  EXPECT_EQ(encodeElement(0x1.0p-24, DType::F16), 0x0001u); // subnormal
  EXPECT_EQ(encodeElement(-0.0, DType::F16), 0x8000u);
  // 1 + 2^-11 is a tie between 1 and 1 + 2^-10: even wins.
  EXPECT_EQ(encodeElement(1.0 + 0x1.0p-11, DType::F16), 0x3C00u);
  EXPECT_EQ(encodeElement(1.0 + 3 * 0x1.0p-11, DType::F16), 0x3C02u);
  EXPECT_EQ(decodeElement(0x3555, DType::F16), 0x1.554p-2);
  EXPECT_TRUE(std::isnan(decodeElement(0xFFFF, DType::F16)));
  EXPECT_EQ(decodeElement(0xFC00, DType::F16),
            -std::numeric_limits<double>::infinity());
}

TEST(HostTensorTest, Fp8E4M3Encoding) {
  EXPECT_EQ(encodeElement(1.0, DType::F8E4M3), 0x38u);
  EXPECT_EQ(encodeElement(448.0, DType::F8E4M3), 0x7Eu);
  EXPECT_EQ(encodeElement(464.0, DType::F8E4M3), 0x7Eu); // tie to even
  EXPECT_EQ(encodeElement(470.0, DType::F8E4M3), 0x7Fu); // no inf: NaN
  EXPECT_EQ(encodeElement(0x1.0p-9, DType::F8E4M3), 0x01u);
  EXPECT_EQ(encodeElement(-1.75, DType::F8E4M3), 0xBEu);
  EXPECT_EQ(decodeElement(0x7E, DType::F8E4M3), 448.0);
  EXPECT_TRUE(std::isnan(decodeElement(0x7F, DType::F8E4M3)));
  EXPECT_TRUE(std::isnan(decodeElement(0xFF, DType::F8E4M3)));
  // The top binade holds finite values except S.1111.111.
  EXPECT_EQ(decodeElement(0x78, DType::F8E4M3), 256.0);
  // 7.99 rounds up into the next binade: 8, not 4 (the interpreter's bug).
  EXPECT_EQ(roundToDType(7.99, DType::F8E4M3), 8.0);
}

TEST(HostTensorTest, EveryFp8AndFp16PatternRoundTrips) {
  for (uint64_t bits = 0; bits < 256; ++bits) {
    double v = decodeElement(bits, DType::F8E4M3);
    if (!std::isnan(v)) {
      EXPECT_EQ(encodeElement(v, DType::F8E4M3), bits) << bits;
    }
  }
  for (uint64_t bits = 0; bits < 65536; ++bits) {
    double v = decodeElement(bits, DType::F16);
    if (!std::isnan(v)) {
      EXPECT_EQ(encodeElement(v, DType::F16), bits) << bits;
    }
  }
}

TEST(HostTensorTest, Bf16AndE5M2) {
  EXPECT_EQ(encodeElement(1.0, DType::BF16), 0x3F80u);
  EXPECT_EQ(encodeElement(1.0, DType::F8E5M2), 0x3Cu);
  EXPECT_EQ(encodeElement(1e6, DType::F8E5M2), 0x7Cu);
}

TEST(HostTensorTest, ElementsAndPoison) {
  HostTensor t(DType::F16, {2, 3});
  EXPECT_EQ(t.size(), 6);
  EXPECT_EQ(t.getSizeBytes(), 12u);
  t.set(4, 0.1);
  EXPECT_EQ(t.get(4), roundToDType(0.1, DType::F16));
  EXPECT_NE(t.get(4), 0.1);
  t.fillBytes(0xFF);
  for (double v : t.toDoubles())
    EXPECT_TRUE(std::isnan(v));

  HostTensor p(DType::F32, {4});
  p.fillBytes(0xFF);
  EXPECT_TRUE(std::isnan(p.get(3)));

  HostTensor addresses(DType::I64, {2});
  addresses.setInt(1, 0x7FFF12345678ABCDll);
  EXPECT_EQ(addresses.getInt(1), 0x7FFF12345678ABCDll);
  HostTensor bytes(DType::I8, {1});
  bytes.set(0, 300);
  EXPECT_EQ(bytes.getInt(0), 44); // wraps as a store would
}
} // namespace
