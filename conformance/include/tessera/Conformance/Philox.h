//===- Philox.h - A host model of Triton's random numbers -------*- C++ -*-===//
//
// tl.randint(seed, offset) is Philox-4x32 with 10 rounds over the counter
// (offset, 0, 0, 0) and the key (seed low word, seed high word); tl.rand
// maps the first output word to [0, 1). This model follows the same
// constants, rounds and conversion, so that a seeded dropout can be checked
// bit for bit instead of statistically.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_CONFORMANCE_PHILOX_H
#define TESSERA_CONFORMANCE_PHILOX_H

#include <array>
#include <cstdint>

namespace mlir::tessera::conformance {

/// Philox-4x32 with `rounds` rounds (Triton uses 10).
std::array<uint32_t, 4> philox4x32(std::array<uint32_t, 4> counter,
                                   std::array<uint32_t, 2> key,
                                   unsigned rounds = 10);

/// tl.randint(seed, offset) for a 32-bit offset: the first word of the
/// block for counter (offset, 0, 0, 0).
uint32_t tritonRandInt(int64_t seed, uint32_t offset);

/// tl.rand's map from a random word to [0, 1): the word read as int32,
/// negative values folded to -v - 1, times 4.6566127342e-10 in fp32.
float uint32ToUniformFloat(uint32_t word);

/// tl.rand(seed, offset).
float tritonRand(int64_t seed, uint32_t offset);

} // namespace mlir::tessera::conformance

#endif // TESSERA_CONFORMANCE_PHILOX_H
