//===- Random.cpp - Seeded inputs for conformance cases -------------------===//
#include "tessera/Conformance/Random.h"

#include <chrono>
#include <cmath>
#include <numbers>
#include <random>

using namespace mlir::tessera::conformance;

static uint64_t splitmix64(uint64_t &x) {
  uint64_t z = (x += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

Rng::Rng(uint64_t seed) {
  for (uint64_t &word : state)
    word = splitmix64(seed);
}

uint64_t Rng::next() {
  uint64_t result = rotl(state[1] * 5, 7) * 9;
  uint64_t t = state[1] << 17;
  state[2] ^= state[0];
  state[3] ^= state[1];
  state[1] ^= state[2];
  state[0] ^= state[3];
  state[2] ^= t;
  state[3] = rotl(state[3], 45);
  return result;
}

double Rng::uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

double Rng::normal() {
  // 1 - uniform() is in (0, 1], so the logarithm is finite.
  double u1 = 1.0 - uniform();
  double u2 = uniform();
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * u2);
}

uint64_t mlir::tessera::conformance::deriveSeed(uint64_t seed,
                                                llvm::StringRef id) {
  // FNV-1a over the id, mixed with the run's seed.
  uint64_t hash = 0xCBF29CE484222325ull;
  for (char c : id) {
    hash ^= static_cast<uint8_t>(c);
    hash *= 0x100000001B3ull;
  }
  uint64_t mixed = seed ^ hash;
  return splitmix64(mixed);
}

uint64_t mlir::tessera::conformance::makeRandomSeed() {
  std::random_device device;
  uint64_t seed = (static_cast<uint64_t>(device()) << 32) ^ device();
  seed ^= static_cast<uint64_t>(
      std::chrono::steady_clock::now().time_since_epoch().count());
  // Seeds are printed and typed back in: keep them short.
  return seed % 1000000000ull;
}

void mlir::tessera::conformance::fillNormal(HostTensor &tensor, Rng &rng,
                                            double scale, double shift) {
  for (int64_t i = 0, e = tensor.size(); i < e; ++i) {
    float value = static_cast<float>(rng.normal());
    tensor.set(i, static_cast<float>(value * static_cast<float>(scale) +
                                     static_cast<float>(shift)));
  }
}

void mlir::tessera::conformance::fillUniform(HostTensor &tensor, Rng &rng,
                                             double lo, double hi) {
  for (int64_t i = 0, e = tensor.size(); i < e; ++i)
    tensor.set(i, static_cast<float>(rng.uniform(lo, hi)));
}
