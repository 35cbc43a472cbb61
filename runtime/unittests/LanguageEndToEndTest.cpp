//===- LanguageEndToEndTest.cpp - Sorts, gathers, look-back on every backend =//
//
// The kernels of Inputs/language.py against host references, on each
// backend of the build (run on the cpu, compiled for GPU architectures
// without a device). Values are integers or exactly representable floats,
// so results must match bit for bit. Shapes and warp counts put the sorted
// axis in registers, lanes and warps.
//
//===----------------------------------------------------------------------===//
#include "EndToEndFixture.h"

#include "llvm/ADT/APFloat.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>

using namespace mlir::tessera;
using namespace mlir::tessera::runtime;
using namespace mlir::tessera::runtime::testing;

namespace {

/// Deterministic integers in [lo, hi].
std::vector<int64_t> randomInts(size_t n, int64_t lo, int64_t hi,
                                uint32_t seed) {
  std::vector<int64_t> values(n);
  uint32_t state = seed * 2654435761u + 7;
  for (int64_t &v : values) {
    state = state * 1664525u + 1013904223u;
    v = lo + int64_t((state >> 8) % uint32_t(hi - lo + 1));
  }
  return values;
}

/// Each row of a [rows, n] array a deterministic permutation of
/// [lo, lo + n): distinct keys, so any correct sort gives one answer.
std::vector<int32_t> permutedRows(int64_t rows, int64_t n, int32_t lo,
                                  uint32_t seed) {
  std::vector<int32_t> out;
  for (int64_t r = 0; r < rows; ++r) {
    std::vector<int32_t> row(n);
    std::iota(row.begin(), row.end(), lo);
    std::vector<int64_t> swaps = randomInts(n, 0, n - 1, seed + uint32_t(r));
    for (int64_t i = n - 1; i > 0; --i)
      std::swap(row[i], row[swaps[i] % (i + 1)]);
    out.insert(out.end(), row.begin(), row.end());
  }
  return out;
}

template <typename T, typename U>
std::vector<T> cast(const std::vector<U> &values) {
  return std::vector<T>(values.begin(), values.end());
}

template <typename T>
void expectEqual(const std::vector<T> &got, const std::vector<T> &want,
                 const std::string &what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (size_t i = 0; i < want.size(); ++i)
    ASSERT_EQ(got[i], want[i]) << what << ": element " << i;
}

/// Sorts each row of a row-major [rows, n] array.
template <typename T>
std::vector<T> sortRows(std::vector<T> x, int64_t n, bool descending) {
  for (size_t r = 0; r < x.size(); r += n) {
    auto first = x.begin() + r, last = first + n;
    if (descending)
      std::sort(first, last, std::greater<T>());
    else
      std::sort(first, last);
  }
  return x;
}

std::string shapeName(llvm::StringRef what, int64_t m, int64_t n, int warps) {
  return (what + " " + std::to_string(m) + "x" + std::to_string(n) +
          " warps=" + std::to_string(warps))
      .str();
}

class LanguageEndToEnd : public EndToEndTest {
protected:
  std::string inputFile() const override { return "language.py"; }
};

struct Shape {
  int64_t m, n;
  int warps;
};

TEST_P(LanguageEndToEnd, SortRows) {
  // 512 elements on 4 warps: 4 per thread, so the sorted axis spans
  // registers, lanes and warps (1024 took minutes to compile on the cpu).
  for (Shape s : {Shape{1, 16, 1}, Shape{4, 64, 4}, Shape{2, 512, 4},
                  Shape{32, 32, 4}, Shape{8, 2, 1}})
    for (bool descending : {false, true}) {
      // Duplicates and negative values, as floats and as integers.
      auto ints = randomInts(s.m * s.n, -40, 40, uint32_t(s.n + descending));
      std::string what =
          shapeName(descending ? "sort desc" : "sort", s.m, s.n, s.warps);
      auto fx = cast<float>(ints);
      if (auto got = run(
              "sort_rows", 1, {HostArray::of(fx, "fp32")},
              {HostArray::of(std::vector<float>(fx.size()), "fp32")}, {},
              {{"M", s.m}, {"N", s.n}, {"DESCENDING", descending}}, s.warps))
        expectEqual((*got)[0].as<float>(), sortRows(fx, s.n, descending),
                    what + " fp32");
      // Integers on the smaller shapes (each large sort compiles for
      // seconds on the cpu).
      if (s.n > 64)
        continue;
      auto ix = cast<int16_t>(ints);
      if (auto got = run(
              "sort_rows", 1, {HostArray::of(ix, "i16")},
              {HostArray::of(std::vector<int16_t>(ix.size()), "i16")}, {},
              {{"M", s.m}, {"N", s.n}, {"DESCENDING", descending}}, s.warps))
        expectEqual((*got)[0].as<int16_t>(), sortRows(ix, s.n, descending),
                    what + " i16");
    }
  // Unsigned integers compare unsigned.
  std::vector<uint32_t> ux = {0u, 0xFFFFFFFFu, 1u, 0x80000000u,
                              7u, 0x7FFFFFFFu, 3u, 2u};
  if (auto got = run("sort_rows", 1, {HostArray::of(ux, "u32")},
                     {HostArray::of(std::vector<uint32_t>(8), "u32")}, {},
                     {{"M", 1}, {"N", 8}, {"DESCENDING", false}}, 1))
    expectEqual((*got)[0].as<uint32_t>(), sortRows(ux, 8, false), "sort u32");
  auto x = cast<int64_t>(randomInts(256, -1000, 1000, 5));
  if (auto got = run("sort_method", 1, {HostArray::of(x, "i64")},
                     {HostArray::of(std::vector<int64_t>(256), "i64")}, {},
                     {{"N", 256}}, 4))
    expectEqual((*got)[0].as<int64_t>(), sortRows(x, 256, true),
                "x.sort(descending=True) i64");
}

TEST_P(LanguageEndToEnd, TopK) {
  struct Case {
    int64_t m, n, k;
    int warps;
  };
  for (Case c : {Case{1, 16, 4, 1}, Case{4, 128, 8, 4}, Case{2, 1024, 16, 8},
                 Case{8, 32, 32, 4}, Case{4, 64, 1, 2}}) {
    auto x = cast<float>(randomInts(c.m * c.n, -500, 500, uint32_t(c.k)));
    auto got = run("topk_rows", 1, {HostArray::of(x, "fp32")},
                   {HostArray::of(std::vector<float>(c.m * c.k), "fp32")}, {},
                   {{"M", c.m}, {"N", c.n}, {"K", c.k}}, c.warps);
    if (!got)
      continue;
    std::vector<float> want;
    std::vector<float> sorted = sortRows(x, c.n, /*descending=*/true);
    for (int64_t r = 0; r < c.m; ++r)
      want.insert(want.end(), sorted.begin() + r * c.n,
                  sorted.begin() + r * c.n + c.k);
    expectEqual((*got)[0].as<float>(), want,
                shapeName("topk k=" + std::to_string(c.k), c.m, c.n, c.warps));
  }
  // fp16 top-k reduces in fp32 (tl.max's promotion), so it returns fp32.
  std::vector<uint16_t> half = {0x3C00, 0x4000, 0xBC00, 0x4200,
                                0x0000, 0x4400, 0xC000, 0x3800};
  if (auto got = run("topk_rows", 1, {HostArray::of(half, "fp16")},
                     {HostArray::of(std::vector<float>(2), "fp32")}, {},
                     {{"M", 1}, {"N", 8}, {"K", 2}}, 1))
    expectEqual((*got)[0].as<float>(), std::vector<float>{4.0f, 3.0f},
                "topk fp16");
}

TEST_P(LanguageEndToEnd, Flip) {
  for (Shape s : {Shape{4, 8, 1}, Shape{16, 64, 4}, Shape{1, 512, 4}})
    for (int dim : {0, 1, -1}) {
      auto x = cast<int32_t>(randomInts(s.m * s.n, -1000, 1000, s.n + dim));
      auto got = run("flip_2d", 1, {HostArray::of(x, "i32")},
                     {HostArray::of(std::vector<int32_t>(x.size()), "i32")}, {},
                     {{"M", s.m}, {"N", s.n}, {"DIM", dim}}, s.warps);
      if (!got)
        continue;
      std::vector<int32_t> want(x.size());
      for (int64_t i = 0; i < s.m; ++i)
        for (int64_t j = 0; j < s.n; ++j)
          want[i * s.n + j] = dim == 0 ? x[(s.m - 1 - i) * s.n + j]
                                       : x[i * s.n + (s.n - 1 - j)];
      expectEqual(
          (*got)[0].as<int32_t>(), want,
          shapeName("flip dim=" + std::to_string(dim), s.m, s.n, s.warps));
    }
}

TEST_P(LanguageEndToEnd, BitonicMerge) {
  for (Shape s : {Shape{2, 16, 1}, Shape{4, 256, 4}})
    for (bool descending : {false, true}) {
      // Each row: its first half ascending, its second half descending.
      std::vector<float> x;
      auto values = randomInts(s.m * s.n, -300, 300, uint32_t(s.n));
      for (int64_t r = 0; r < s.m; ++r) {
        std::vector<float> row(values.begin() + r * s.n,
                               values.begin() + (r + 1) * s.n);
        std::sort(row.begin(), row.begin() + s.n / 2);
        std::sort(row.begin() + s.n / 2, row.end(), std::greater<float>());
        x.insert(x.end(), row.begin(), row.end());
      }
      auto got =
          run("merge_rows", 1, {HostArray::of(x, "fp32")},
              {HostArray::of(std::vector<float>(x.size()), "fp32")}, {},
              {{"M", s.m}, {"N", s.n}, {"DESCENDING", descending}}, s.warps);
      if (got)
        expectEqual((*got)[0].as<float>(), sortRows(x, s.n, descending),
                    shapeName("bitonic_merge", s.m, s.n, s.warps));
    }
}

TEST_P(LanguageEndToEnd, Gather) {
  struct Case {
    int64_t m, n, im, in;
    int axis, warps;
  };
  for (Case c : {Case{16, 8, 32, 8, 0, 4}, Case{8, 16, 8, 4, 1, 1},
                 Case{4, 64, 4, 64, -1, 4}, Case{1, 128, 1, 256, 1, 4}}) {
    int axis = c.axis < 0 ? c.axis + 2 : c.axis;
    int64_t range = axis == 0 ? c.m : c.n;
    // fp16 values (as bits) so that gathering must move whole elements.
    auto src = cast<uint16_t>(randomInts(c.m * c.n, 0, 0xFBFF, 3));
    auto idx = cast<int32_t>(randomInts(c.im * c.in, 0, range - 1, 4));
    auto got = run(
        "gather_2d", 1, {HostArray::of(src, "fp16"), HostArray::of(idx, "i32")},
        {HostArray::of(std::vector<uint16_t>(idx.size()), "fp16")}, {},
        {{"M", c.m}, {"N", c.n}, {"IM", c.im}, {"IN", c.in}, {"AXIS", c.axis}},
        c.warps);
    if (!got)
      continue;
    std::vector<uint16_t> want(idx.size());
    for (int64_t i = 0; i < c.im; ++i)
      for (int64_t j = 0; j < c.in; ++j) {
        int64_t k = idx[i * c.in + j];
        want[i * c.in + j] = axis == 0 ? src[k * c.n + j] : src[i * c.n + k];
      }
    expectEqual((*got)[0].as<uint16_t>(), want,
                "gather axis " + std::to_string(c.axis) + " " +
                    std::to_string(c.im) + "x" + std::to_string(c.in));
  }
}

TEST_P(LanguageEndToEnd, ArgsortPackedKeys) {
  const int64_t n = 512;
  // Repeated keys: equal keys keep their index order (the packed index).
  auto x = cast<float>(randomInts(n, -20, 20, 9));
  x[3] = -0.5f;
  x[4] = 0.25f;
  auto got = run("argsort_packed", 1, {HostArray::of(x, "fp32")},
                 {HostArray::of(std::vector<int32_t>(n), "i32"),
                  HostArray::of(std::vector<float>(n), "fp32")},
                 {}, {{"N", n}}, 4);
  if (!got)
    return;
  std::vector<int32_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](int32_t a, int32_t b) { return x[a] < x[b]; });
  std::vector<float> values;
  for (int32_t i : order)
    values.push_back(x[i]);
  expectEqual((*got)[0].as<int32_t>(), order, "argsort indices");
  expectEqual((*got)[1].as<float>(), values, "argsort values");
}

TEST_P(LanguageEndToEnd, HandWrittenBitonicArgsort) {
  // 128 elements on 2 warps: 2 per thread (registers, lanes and warps).
  for (Shape s : {Shape{1, 8, 1}, Shape{4, 64, 4}, Shape{2, 128, 2}})
    for (bool descending : {false, true}) {
      int64_t log = 0;
      while ((int64_t(1) << log) < s.n)
        ++log;
      auto keys = permutedRows(s.m, s.n, -int32_t(s.n / 2), uint32_t(s.n));
      auto got = run(
          "bitonic_argsort_rows", 1, {HostArray::of(keys, "i32")},
          {HostArray::of(std::vector<int32_t>(keys.size()), "i32"),
           HostArray::of(std::vector<int32_t>(keys.size()), "i32")},
          {},
          {{"M", s.m}, {"N", s.n}, {"LOG", log}, {"DESCENDING", descending}},
          s.warps);
      if (!got)
        continue;
      std::vector<int32_t> sorted = sortRows(keys, s.n, descending);
      std::vector<int32_t> ids;
      for (int64_t r = 0; r < s.m; ++r)
        for (int64_t j = 0; j < s.n; ++j) {
          auto row = keys.begin() + r * s.n;
          ids.push_back(
              int32_t(std::find(row, row + s.n, sorted[r * s.n + j]) - row));
        }
      std::string what = shapeName("hand-written argsort", s.m, s.n, s.warps);
      expectEqual((*got)[0].as<int32_t>(), sorted, what + " keys");
      expectEqual((*got)[1].as<int32_t>(), ids, what + " ids");
    }
}

TEST_P(LanguageEndToEnd, PairMax) {
  auto x = cast<int32_t>(randomInts(128, -99, 99, 2));
  auto got =
      run("pair_max", 1, {HostArray::of(x, "i32")},
          {HostArray::of(std::vector<int32_t>(64), "i32")}, {}, {{"N", 64}}, 4);
  if (!got)
    return;
  std::vector<int32_t> want;
  for (size_t i = 0; i < x.size(); i += 2)
    want.push_back(std::max(x[i], x[i + 1]));
  expectEqual((*got)[0].as<int32_t>(), want, "max over pairs");
}

/// The fp8 code of `x` rounded to nearest even, by LLVM's APFloat (past
/// the largest finite: infinity, or NaN where the format has none).
uint8_t toFp8(float x, const llvm::fltSemantics &sem) {
  llvm::APFloat value(x);
  bool lost = false;
  value.convert(sem, llvm::APFloat::rmNearestTiesToEven, &lost);
  return uint8_t(value.bitcastToAPInt().getZExtValue());
}

TEST_P(LanguageEndToEnd, NarrowToFp8) {
  // Every rounding case of both formats: ties to even and odd, subnormals
  // and the values that underflow, the edges of the finite range (e4m3fn:
  // 448 is the largest, 464 rounds to it, above is NaN; e5m2: 57344, and
  // from 61440 infinity), infinities and NaNs of both signs, and a sweep
  // of magnitudes with random mantissas.
  std::vector<float> x = {
      0.0f,           -0.0f,     1.0f,    1.0625f,        1.1875f,
      1.125f,         1.375f,    -2.5f,   0.001953125f,   0.0009765625f,
      0.00146484375f, 1e-30f,    -1e-30f, 448.0f,         464.0f,
      464.0001f,      -465.0f,   480.0f,  57344.0f,       61439.99f,
      61440.0f,       -61440.0f, 1e30f,   -1e30f,         INFINITY,
      -INFINITY,      NAN,       -NAN,    1.5258789e-05f, 2.2888184e-05f,
      7.6293945e-06f};
  auto mantissas = randomInts(224, 0, (1 << 23) - 1, 17);
  for (size_t i = 0; i < mantissas.size(); ++i) {
    // Exponents from 2^-20 to 2^17, both signs.
    uint32_t exponent = uint32_t(127 - 20 + i % 38);
    uint32_t bits =
        (i % 2 ? 0x80000000u : 0u) | exponent << 23 | uint32_t(mantissas[i]);
    float f;
    std::memcpy(&f, &bits, sizeof f);
    x.push_back(f);
  }
  x.resize(256, 3.0f);
  auto got = run("narrow_to_fp8", 1, {HostArray::of(x, "fp32")},
                 {HostArray::of(std::vector<uint8_t>(256), "fp8e4nv"),
                  HostArray::of(std::vector<uint8_t>(256), "fp8e5")},
                 {}, {{"N", 256}}, 4);
  if (!got)
    return;
  std::vector<uint8_t> e4m3, e5m2;
  for (float v : x) {
    e4m3.push_back(toFp8(v, llvm::APFloat::Float8E4M3FN()));
    e5m2.push_back(toFp8(v, llvm::APFloat::Float8E5M2()));
  }
  expectEqual((*got)[0].as<uint8_t>(), e4m3, "fp32 to fp8e4nv");
  expectEqual((*got)[1].as<uint8_t>(), e5m2, "fp32 to fp8e5");
}

/// Restores TESSERA_CPU_THREADS when the test ends.
class ThreadCountScope {
public:
  ThreadCountScope() {
    if (const char *v = std::getenv("TESSERA_CPU_THREADS"))
      saved = v;
  }
  ~ThreadCountScope() {
    if (saved)
      setenv("TESSERA_CPU_THREADS", saved->c_str(), 1);
    else
      unsetenv("TESSERA_CPU_THREADS");
  }

private:
  std::optional<std::string> saved;
};

TEST_P(LanguageEndToEnd, DecoupledLookBackScan) {
  // Program i spins until program i - 1 has published; the cpu must start
  // programs in increasing order for that to terminate, whatever the number
  // of threads (more threads than cores included).
  ThreadCountScope restore;
  const int64_t block = 64, n = 64 * 37 - 5;
  auto x = cast<int32_t>(randomInts(n, -50, 50, 12));
  std::vector<int32_t> want(n);
  std::partial_sum(x.begin(), x.end(), want.begin());
  int64_t programs = (n + block - 1) / block;
  for (const char *threads : {"1", "3", "16"})
    for (bool spinAtomic : {true, false}) {
      setenv("TESSERA_CPU_THREADS", threads, 1);
      auto got = run(
          "lookback_cumsum", uint64_t(programs), {HostArray::of(x, "i32")},
          {HostArray::of(std::vector<int32_t>(n), "i32"),
           HostArray::of(std::vector<int32_t>(programs), "i32"),
           HostArray::of(std::vector<int32_t>(programs), "i32")},
          {KernelArg(n)}, {{"BLOCK", block}, {"SPIN_ATOMIC", spinAtomic}}, 4);
      if (!got)
        continue;
      std::string what = std::string("look-back threads=") + threads +
                         (spinAtomic ? " atomic spin" : " volatile spin");
      expectEqual((*got)[0].as<int32_t>(), want, what);
      expectEqual((*got)[1].as<int32_t>(), std::vector<int32_t>(programs, 1),
                  what + " flags");
    }
}

TEST_P(LanguageEndToEnd, Concatenation) {
  const int64_t n = 64;
  auto a = cast<float>(randomInts(n, -100, 100, 20));
  auto b = cast<float>(randomInts(n, -100, 100, 21));
  std::vector<float> ab(a);
  ab.insert(ab.end(), b.begin(), b.end());
  float total = std::accumulate(ab.begin(), ab.end(), 0.0f);
  if (auto got = run("cat_halves", 1,
                     {HostArray::of(a, "fp32"), HostArray::of(b, "fp32")},
                     {HostArray::of(std::vector<float>(2 * n), "fp32"),
                      HostArray::of(std::vector<float>(1), "fp32")},
                     {}, {{"N", n}}, 4)) {
    // The cpu keeps operand order; other backends only the multiset.
    expectEqual((*got)[0].as<float>(), ab, "tl.cat order (cpu)");
    expectEqual((*got)[1].as<float>(), std::vector<float>{total}, "cat sum");
  }
  for (bool firstA : {false, true}) {
    auto got = run("where_join", 2,
                   {HostArray::of(a, "fp32"), HostArray::of(b, "fp32")},
                   {HostArray::of(std::vector<float>(4 * n), "fp32")}, {},
                   {{"N", n}, {"FIRST_A", firstA}}, 4);
    if (!got)
      continue;
    // Program 0 stores a then b when FIRST_A, program 1 otherwise; the
    // other stores the swapped join, which its masks leave all zeros.
    std::vector<float> want(4 * n, 0.0f);
    int64_t row = firstA ? 0 : 1;
    std::copy(ab.begin(), ab.end(), want.begin() + row * 2 * n);
    expectEqual((*got)[0].as<float>(), want,
                std::string("where join, FIRST_A=") + (firstA ? "1" : "0"));
  }
  if (auto got = run("cat_join_pairs", 1,
                     {HostArray::of(a, "fp32"), HostArray::of(b, "fp32")},
                     {HostArray::of(std::vector<float>(2 * n), "fp32")}, {},
                     {{"N", n}}, 4)) {
    std::vector<float> want;
    for (int64_t i = 0; i < n; ++i) {
      want.push_back(a[i]);
      want.push_back(b[i]);
    }
    expectEqual((*got)[0].as<float>(), want, "join then where");
  }
}

INSTANTIATE_TEST_SUITE_P(Backends, LanguageEndToEnd,
                         ::testing::ValuesIn(getBackendCases(
                             {{"nvptx", "sm_90a"}, {"amdgpu", "gfx942"}})),
                         getBackendCaseName);

} // namespace
