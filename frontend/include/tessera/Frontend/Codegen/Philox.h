//===- Philox.h - The Philox-4x32 generator behind tl.rand ------*- C++ -*-===//
//
// Triton's tl.randint / tl.rand / tl.randn draw from Philox-4x32 (Salmon et
// al., "Parallel random numbers: as easy as 1, 2, 3", SC'11) with 10 rounds
// by default. For seed s and offset o (per element):
//   counter = (lo32(o), hi32(o) or 0, 0, 0),  key = (lo32(s), hi32(s))
// where s is first widened to 64 bits (sign-extended if signed). Each round
//   (c0, c1, c2, c3) <- (mulhi(B, c2) ^ c1 ^ k0, B * c2,
//                        mulhi(A, c0) ^ c3 ^ k1, A * c0)
//   (k0, k1)        <- (k0 + KEY_A, k1 + KEY_B)
// in 32-bit arithmetic. tl.rand maps the first word u to [0, 1) as
//   v = int32(u); v = v < 0 ? -v - 1 : v; float32(v) * 4.6566127342e-10f.
//
// The rounds are written once, generically over the arithmetic, so that the
// IR the frontend emits and the host reference the unit tests check are the
// same algorithm: `Ops` supplies mulhi, mullo, xor and add-constant on its
// word type (an IR value or a uint32_t).
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_FRONTEND_CODEGEN_PHILOX_H
#define TESSERA_FRONTEND_CODEGEN_PHILOX_H

#include <array>
#include <cstdint>

namespace tessera::frontend::philox {

/// Round multipliers and key increments (the Weyl sequence) of Philox-4x32.
constexpr uint32_t kRoundA = 0xD2511F53u;
constexpr uint32_t kRoundB = 0xCD9E8D57u;
constexpr uint32_t kKeyA = 0x9E3779B9u;
constexpr uint32_t kKeyB = 0xBB67AE85u;
/// Triton's default number of rounds.
constexpr unsigned kDefaultRounds = 10;
/// The largest float with (2^31 - 1) * scale < 1 in fp32 arithmetic.
constexpr float kUint32ToUniformScale = 4.6566127342e-10f;

/// Runs `rounds` Philox rounds on counter (c0..c3) with key (k0, k1).
template <typename Ops, typename Word>
std::array<Word, 4> rounds(Ops &ops, Word c0, Word c1, Word c2, Word c3,
                           Word k0, Word k1, unsigned numRounds) {
  for (unsigned r = 0; r < numRounds; ++r) {
    Word oldC0 = c0, oldC2 = c2;
    c0 = ops.xorOp(ops.xorOp(ops.mulhi(kRoundB, oldC2), c1), k0);
    c2 = ops.xorOp(ops.xorOp(ops.mulhi(kRoundA, oldC0), c3), k1);
    c1 = ops.mullo(kRoundB, oldC2);
    c3 = ops.mullo(kRoundA, oldC0);
    k0 = ops.addConst(k0, kKeyA);
    k1 = ops.addConst(k1, kKeyB);
  }
  return {c0, c1, c2, c3};
}

/// The host arithmetic on uint32_t words.
struct HostOps {
  uint32_t mulhi(uint32_t a, uint32_t b) {
    return uint32_t((uint64_t(a) * uint64_t(b)) >> 32);
  }
  uint32_t mullo(uint32_t a, uint32_t b) { return a * b; }
  uint32_t xorOp(uint32_t a, uint32_t b) { return a ^ b; }
  uint32_t addConst(uint32_t a, uint32_t b) { return a + b; }
};

/// tl.randint4x(seed, offset) on the host, for a seed and offset already
/// widened to 64 bits as Triton does.
inline std::array<uint32_t, 4> randint4x(uint64_t seed, uint64_t offset,
                                         bool offsetIs64Bit,
                                         unsigned numRounds = kDefaultRounds) {
  HostOps ops;
  uint32_t lo = uint32_t(offset);
  uint32_t hi = offsetIs64Bit ? uint32_t(offset >> 32) : 0u;
  return rounds(ops, lo, hi, 0u, 0u, uint32_t(seed), uint32_t(seed >> 32),
                numRounds);
}

/// tl.rand's mapping of a 32-bit random word to [0, 1).
inline float uintToUniformFloat(uint32_t u) {
  int32_t v = int32_t(u);
  // -v - 1 without the overflow of -INT32_MIN.
  if (v < 0)
    v = ~v;
  return float(v) * kUint32ToUniformScale;
}

} // namespace tessera::frontend::philox

#endif // TESSERA_FRONTEND_CODEGEN_PHILOX_H
