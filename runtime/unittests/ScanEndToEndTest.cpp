//===- ScanEndToEndTest.cpp - Scans on every backend of the build ---------===//
//
// The kernels of Inputs/scans.py against host references, on each backend
// the build has: run where it has a device (the cpu always), compiled only
// (to catch lowering failures) for a GPU backend without one. Every value is
// an integer or exactly representable, so results must match bit for bit;
// the shapes and warp counts put the scanned axis in registers, lanes and
// warps, and registers again above the warps.
//
//===----------------------------------------------------------------------===//
#include "EndToEndFixture.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <limits>

using namespace mlir::tessera;
using namespace mlir::tessera::runtime;
using namespace mlir::tessera::runtime::testing;

namespace {

/// An inclusive scan of a row-major [rows, cols] array along `axis` with
/// `combine(acc, cur)`, in the order the scan visits the elements.
template <typename T>
std::vector<T> scanReference(const std::vector<T> &x, int64_t rows,
                             int64_t cols, int axis, bool reverse,
                             std::function<T(T, T)> combine) {
  std::vector<T> y(x.size());
  int64_t lines = axis == 0 ? cols : rows, length = axis == 0 ? rows : cols;
  for (int64_t line = 0; line < lines; ++line) {
    std::optional<T> acc;
    for (int64_t step = 0; step < length; ++step) {
      int64_t k = reverse ? length - 1 - step : step;
      int64_t i = axis == 0 ? k * cols + line : line * cols + k;
      acc = acc ? combine(*acc, x[i]) : x[i];
      y[i] = *acc;
    }
  }
  return y;
}

/// Deterministic small integers in [lo, hi].
std::vector<int64_t> smallInts(size_t n, int64_t lo, int64_t hi,
                               uint32_t seed) {
  std::vector<int64_t> values(n);
  uint32_t state = seed * 2654435761u + 1;
  for (int64_t &v : values) {
    state = state * 1664525u + 1013904223u;
    v = lo + int64_t((state >> 8) % uint32_t(hi - lo + 1));
  }
  return values;
}

template <typename T> std::vector<T> cast(const std::vector<int64_t> &values) {
  return std::vector<T>(values.begin(), values.end());
}

/// IEEE half bits of a float that half represents exactly.
uint16_t toHalf(float value) {
  llvm::APFloat f(value);
  bool lost = false;
  f.convert(llvm::APFloat::IEEEhalf(), llvm::APFloat::rmNearestTiesToEven,
            &lost);
  return uint16_t(f.bitcastToAPInt().getZExtValue());
}

class ScanEndToEnd : public EndToEndTest {
protected:
  std::string inputFile() const override { return "scans.py"; }
};

/// "N=1024 warps=4 reverse" for failure messages.
std::string describe(llvm::StringRef what, int64_t rows, int64_t cols,
                     int warps, bool reverse) {
  return (what + " " + std::to_string(rows) + "x" + std::to_string(cols) +
          " warps=" + std::to_string(warps) + (reverse ? " reverse" : ""))
      .str();
}

template <typename T>
void expectEqual(const std::vector<T> &got, const std::vector<T> &want,
                 const std::string &what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (size_t i = 0; i < want.size(); ++i)
    ASSERT_EQ(got[i], want[i]) << what << ": element " << i;
}

TEST_P(ScanEndToEnd, Cumsum1DFp32) {
  for (int64_t n : {16, 128, 1024, 4096})
    for (int warps : {1, 4, 8})
      for (bool reverse : {false, true}) {
        auto x = cast<float>(smallInts(n, -8, 8, n + warps));
        auto got = run("cumsum_1d", 1, {HostArray::of(x, "fp32")},
                       {HostArray::of(std::vector<float>(n), "fp32")}, {},
                       {{"N", n}, {"REVERSE", reverse}}, warps);
        if (!got)
          continue;
        expectEqual(
            (*got)[0].as<float>(),
            scanReference<float>(x, 1, n, 1, reverse, std::plus<float>()),
            describe("cumsum fp32", 1, n, warps, reverse));
      }
}

TEST_P(ScanEndToEnd, Cumsum1DOtherTypes) {
  const int64_t n = 1024;
  for (bool reverse : {false, true}) {
    auto ints = smallInts(n, -100, 100, 7);
    std::string what = describe("cumsum", 1, n, 4, reverse);
    // 64-bit values cross lanes in two halves.
    std::vector<int64_t> wide(ints);
    for (int64_t &v : wide)
      v <<= 33;
    if (auto got = run("cumsum_1d", 1, {HostArray::of(wide, "i64")},
                       {HostArray::of(std::vector<int64_t>(n), "i64")}, {},
                       {{"N", n}, {"REVERSE", reverse}}, 4))
      expectEqual(
          (*got)[0].as<int64_t>(),
          scanReference<int64_t>(wide, 1, n, 1, reverse, std::plus<int64_t>()),
          what + " int64");
    // int8 sums in int32 (tl.cumsum's promotion).
    auto narrow = cast<int8_t>(ints);
    if (auto got = run("cumsum_1d", 1, {HostArray::of(narrow, "i8")},
                       {HostArray::of(std::vector<int32_t>(n), "i32")}, {},
                       {{"N", n}, {"REVERSE", reverse}}, 4))
      expectEqual((*got)[0].as<int32_t>(),
                  scanReference<int32_t>(cast<int32_t>(ints), 1, n, 1, reverse,
                                         std::plus<int32_t>()),
                  what + " int8");
    // fp16: 16-bit values cross lanes in an i32; sums stay below 2048.
    auto small = smallInts(n, 0, 1, 11);
    std::vector<uint16_t> half;
    for (int64_t v : small)
      half.push_back(toHalf(float(v)));
    if (auto got = run("cumsum_1d", 1, {HostArray::of(half, "fp16")},
                       {HostArray::of(std::vector<uint16_t>(n), "fp16")}, {},
                       {{"N", n}, {"REVERSE", reverse}}, 4)) {
      std::vector<uint16_t> want;
      for (int64_t v : scanReference<int64_t>(small, 1, n, 1, reverse,
                                              std::plus<int64_t>()))
        want.push_back(toHalf(float(v)));
      expectEqual((*got)[0].as<uint16_t>(), want, what + " fp16");
    }
  }
}

TEST_P(ScanEndToEnd, Cumsum2DBothAxes) {
  struct Shape {
    int64_t m, n;
    int warps;
  };
  for (Shape s : {Shape{16, 64, 4}, Shape{64, 16, 4}, Shape{32, 32, 4},
                  Shape{128, 64, 8}, Shape{8, 8, 2}})
    for (int axis : {0, 1})
      for (bool reverse : {false, true}) {
        auto x = cast<int32_t>(smallInts(s.m * s.n, -1000, 1000, s.m + axis));
        auto got =
            run("cumsum_2d", 1, {HostArray::of(x, "i32")},
                {HostArray::of(std::vector<int32_t>(x.size()), "i32")}, {},
                {{"M", s.m}, {"N", s.n}, {"AXIS", axis}, {"REVERSE", reverse}},
                s.warps);
        if (!got)
          continue;
        expectEqual((*got)[0].as<int32_t>(),
                    scanReference<int32_t>(x, s.m, s.n, axis, reverse,
                                           std::plus<int32_t>()),
                    describe("cumsum axis " + std::to_string(axis), s.m, s.n,
                             s.warps, reverse));
      }
}

TEST_P(ScanEndToEnd, NonCommutativeTupleCombine) {
  struct Shape {
    int64_t m, n;
    int warps;
  };
  // Composing affine maps: the order of every combine shows in the result.
  // Arithmetic wraps (uint32_t on the host, i32 on the device).
  using Affine = std::pair<uint32_t, uint32_t>;
  auto compose = [](Affine first, Affine second) {
    return Affine{first.first * second.first,
                  first.second * second.first + second.second};
  };
  for (Shape s :
       {Shape{4, 256, 4}, Shape{32, 32, 4}, Shape{2, 1024, 8}, Shape{16, 8, 1}})
    for (bool reverse : {false, true}) {
      auto a = cast<int32_t>(smallInts(s.m * s.n, -3, 3, s.n));
      auto b = cast<int32_t>(smallInts(s.m * s.n, -50, 50, s.n + 1));
      auto got = run("linear_recurrence", 1,
                     {HostArray::of(a, "i32"), HostArray::of(b, "i32")},
                     {HostArray::of(std::vector<int32_t>(a.size()), "i32")}, {},
                     {{"M", s.m}, {"N", s.n}, {"REVERSE", reverse}}, s.warps);
      if (!got)
        continue;
      std::vector<Affine> steps;
      for (size_t i = 0; i < a.size(); ++i)
        steps.push_back({uint32_t(a[i]), uint32_t(b[i])});
      std::vector<int32_t> want;
      for (Affine f :
           scanReference<Affine>(steps, s.m, s.n, 1, reverse, compose))
        want.push_back(int32_t(f.second));
      expectEqual((*got)[0].as<int32_t>(), want,
                  describe("linear recurrence", s.m, s.n, s.warps, reverse));
    }
}

TEST_P(ScanEndToEnd, MaskedCumulativeMaximum) {
  struct Shape {
    int64_t rows, cols, block;
    int warps;
  };
  for (Shape s : {Shape{3, 1000, 1024, 4}, Shape{5, 37, 64, 1}}) {
    auto x = cast<float>(smallInts(s.rows * s.cols, -500, 500, s.cols));
    auto got = run("cummax_rows", s.rows, {HostArray::of(x, "fp32")},
                   {HostArray::of(std::vector<float>(x.size()), "fp32")},
                   {KernelArg(s.cols)}, {{"BLOCK", s.block}}, s.warps);
    if (!got)
      continue;
    expectEqual(
        (*got)[0].as<float>(),
        scanReference<float>(x, s.rows, s.cols, 1, false,
                             [](float p, float q) { return std::max(p, q); }),
        describe("cummax", s.rows, s.cols, s.warps, false));
  }
}

INSTANTIATE_TEST_SUITE_P(Backends, ScanEndToEnd,
                         ::testing::ValuesIn(getBackendCases(
                             {{"nvptx", "sm_90"}, {"amdgpu", "gfx942"}})),
                         getBackendCaseName);

} // namespace
