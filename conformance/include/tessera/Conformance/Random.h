//===- Random.h - Seeded inputs for conformance cases -----------*- C++ -*-===//
//
// Every run draws fresh inputs from one seed (printed, and settable with
// --seed); each case derives its own generator from that seed and its id,
// so that rerunning one case with the same seed reproduces its inputs
// whatever else runs. The generator is our own (xoshiro256**, seeded through
// splitmix64) rather than <random>'s distributions, whose output differs
// between standard libraries.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_CONFORMANCE_RANDOM_H
#define TESSERA_CONFORMANCE_RANDOM_H

#include "tessera/Conformance/HostTensor.h"

#include "llvm/ADT/StringRef.h"

#include <cstdint>

namespace mlir::tessera::conformance {

class Rng {
public:
  explicit Rng(uint64_t seed);

  /// 64 uniformly random bits.
  uint64_t next();
  /// Uniform in [0, 1), 53 random bits.
  double uniform();
  /// Uniform in [lo, hi).
  double uniform(double lo, double hi) { return lo + (hi - lo) * uniform(); }
  /// Standard normal (Box-Muller).
  double normal();

private:
  uint64_t state[4];
};

/// The seed of the generator of case `id` in a run seeded with `seed`.
uint64_t deriveSeed(uint64_t seed, llvm::StringRef id);

/// A seed from the system's entropy source (for runs without --seed).
uint64_t makeRandomSeed();

/// Fills `tensor` like `(torch.randn(...) * scale + shift).to(dtype)`: each
/// value is drawn in double, rounded to fp32, then stored in the tensor's
/// type.
void fillNormal(HostTensor &tensor, Rng &rng, double scale = 1.0,
                double shift = 0.0);

/// Fills `tensor` with fp32 values uniform in [lo, hi), stored in its type.
void fillUniform(HostTensor &tensor, Rng &rng, double lo = 0.0,
                 double hi = 1.0);

} // namespace mlir::tessera::conformance

#endif // TESSERA_CONFORMANCE_RANDOM_H
