//===- Philox.cpp - A host model of Triton's random numbers ---------------===//
#include "tessera/Conformance/Philox.h"

using namespace mlir::tessera::conformance;

// Multipliers and Weyl increments of Philox-4x32 (Salmon et al., 2011).
static constexpr uint64_t kMultiplierA = 0xD2511F53;
static constexpr uint64_t kMultiplierB = 0xCD9E8D57;
static constexpr uint32_t kKeyStepA = 0x9E3779B9;
static constexpr uint32_t kKeyStepB = 0xBB67AE85;

std::array<uint32_t, 4>
mlir::tessera::conformance::philox4x32(std::array<uint32_t, 4> counter,
                                       std::array<uint32_t, 2> key,
                                       unsigned rounds) {
  auto [c0, c1, c2, c3] = counter;
  auto [k0, k1] = key;
  for (unsigned round = 0; round < rounds; ++round) {
    // Full 64-bit products: the high words feed the next round's c0/c2,
    // the low words become c1/c3.
    uint64_t productB = kMultiplierB * c2;
    uint64_t productA = kMultiplierA * c0;
    uint32_t next0 = static_cast<uint32_t>(productB >> 32) ^ c1 ^ k0;
    uint32_t next2 = static_cast<uint32_t>(productA >> 32) ^ c3 ^ k1;
    c1 = static_cast<uint32_t>(productB);
    c3 = static_cast<uint32_t>(productA);
    c0 = next0;
    c2 = next2;
    k0 += kKeyStepA;
    k1 += kKeyStepB;
  }
  return {c0, c1, c2, c3};
}

uint32_t mlir::tessera::conformance::tritonRandInt(int64_t seed,
                                                   uint32_t offset) {
  uint64_t bits = static_cast<uint64_t>(seed);
  return philox4x32({offset, 0, 0, 0}, {static_cast<uint32_t>(bits),
                                        static_cast<uint32_t>(bits >> 32)})[0];
}

float mlir::tessera::conformance::uint32ToUniformFloat(uint32_t word) {
  int32_t value = static_cast<int32_t>(word);
  // ~v is -v - 1 without the overflow of -v at INT32_MIN.
  int32_t folded = value < 0 ? ~value : value;
  return static_cast<float>(folded) * 4.6566127342e-10f;
}

float mlir::tessera::conformance::tritonRand(int64_t seed, uint32_t offset) {
  return uint32ToUniformFloat(tritonRandInt(seed, offset));
}
