//===- PhiloxTest.cpp - The Philox model against Triton's own stream ------===//
//
// Expected values were produced by Triton 3.6.0 under TRITON_INTERPRET=1:
// a kernel storing tl.randint(seed, off0 + tl.arange(0, 8)) and
// tl.rand(seed, off0 + tl.arange(0, 8)) for each (seed, off0) below.
//
//===----------------------------------------------------------------------===//
#include "tessera/Conformance/Philox.h"

#include "gtest/gtest.h"

using namespace mlir::tessera::conformance;

namespace {
struct Stream {
  int64_t seed;
  uint32_t offset;
  uint32_t words[8];
  float uniforms[8];
};

const Stream kStreams[] = {
    {0,
     0,
     {0x6627e8d5, 0xf8e4cca4, 0x04faa329, 0xc990ef29, 0xef3dc354, 0x734893fb,
      0xb6af4bf8, 0xa8b31d31},
     {0x1.989fa2p-1f, 0x1.c6ccd4p-5f, 0x1.3ea8c8p-5f, 0x1.b37884p-2f,
      0x1.0c23c8p-3f, 0x1.cd224ep-1f, 0x1.2542cep-1f, 0x1.5d338ap-1f}},
    {123,
     0,
     {0x11237cdc, 0xa3c0144e, 0x2c1b5aa5, 0x1e66d4d6, 0xc5529cea, 0x64f2adae,
      0x05b89ae2, 0x308f4a2f},
     {0x1.1237ccp-3f, 0x1.70ffacp-1f, 0x1.60dad4p-2f, 0x1.e66d4cp-3f,
      0x1.d56b16p-2f, 0x1.93cab4p-1f, 0x1.6e26b6p-5f, 0x1.847a50p-2f}},
    {7,
     1000,
     {0x17053bde, 0x5bcdd5c7, 0xf4453f33, 0xd8dec0b2, 0x0e0e2903, 0xfee9aded,
      0x376806c0, 0x480c3c39},
     {0x1.7053bcp-3f, 0x1.6f3756p-1f, 0x1.775818p-4f, 0x1.3909f8p-2f,
      0x1.c1c51ep-4f, 0x1.165210p-7f, 0x1.bb4034p-2f, 0x1.2030eep-1f}},
    {2147483647,
     4096,
     {0x02759b32, 0xeadb2a18, 0x8a8491e5, 0xb824d057, 0x2fb489ca, 0xf7df4eaf,
      0x33ce0615, 0xc56968bc},
     {0x1.3acd96p-6f, 0x1.524d5cp-3f, 0x1.d5edb6p-1f, 0x1.1f6cbcp-1f,
      0x1.7da44cp-2f, 0x1.041628p-4f, 0x1.9e702ep-2f, 0x1.d4b4b8p-2f}},
    {42,
     2147483640,
     {0xa2569622, 0xb5747044, 0x0a15ada5, 0x8e4111a5, 0xe0450fb8, 0x72828e69,
      0xd1d419eb, 0xd0f2743b},
     {0x1.76a5a6p-1f, 0x1.2a2e3cp-1f, 0x1.42b5b2p-4f, 0x1.c6fbb8p-1f,
      0x1.fbaf02p-3f, 0x1.ca0a38p-1f, 0x1.715f2ep-2f, 0x1.786c5cp-2f}},
};

TEST(PhiloxTest, MatchesTritonRandInt) {
  for (const Stream &s : kStreams)
    for (uint32_t i = 0; i < 8; ++i)
      EXPECT_EQ(tritonRandInt(s.seed, s.offset + i), s.words[i])
          << "seed " << s.seed << " offset " << s.offset + i;
}

TEST(PhiloxTest, MatchesTritonRand) {
  for (const Stream &s : kStreams)
    for (uint32_t i = 0; i < 8; ++i)
      EXPECT_EQ(tritonRand(s.seed, s.offset + i), s.uniforms[i])
          << "seed " << s.seed << " offset " << s.offset + i;
}

TEST(PhiloxTest, UniformConversionFoldsNegativeWords) {
  EXPECT_EQ(uint32ToUniformFloat(0), 0.0f);
  // INT32_MIN folds to INT32_MAX, the largest value; no overflow.
  EXPECT_EQ(uint32ToUniformFloat(0x80000000u),
            uint32ToUniformFloat(0x7fffffffu));
  EXPECT_EQ(uint32ToUniformFloat(0xffffffffu), 0.0f);
  EXPECT_LE(uint32ToUniformFloat(0x7fffffffu), 1.0f);
}

TEST(PhiloxTest, RoundsChangeTheStream) {
  std::array<uint32_t, 4> ten = philox4x32({1, 2, 3, 4}, {5, 6});
  std::array<uint32_t, 4> seven = philox4x32({1, 2, 3, 4}, {5, 6}, 7);
  EXPECT_NE(ten, seven);
  EXPECT_EQ(philox4x32({1, 2, 3, 4}, {5, 6}, 0),
            (std::array<uint32_t, 4>{1, 2, 3, 4}));
}
} // namespace
