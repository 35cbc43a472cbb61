//===- AtomicsTest.cpp - Atomics across program instances on the CPU ------===//
#include "CpuTestUtils.h"
#include "Kernels.h"

using namespace mlir::tessera::cpu::test;

namespace {

class CpuAtomics : public ::testing::TestWithParam<unsigned> {
protected:
  void SetUp() override { setLaunchThreads(GetParam()); }
  void TearDown() override { setLaunchThreads(0); }
};

TEST_P(CpuAtomics, HistogramWithAtomicAdd) {
  const int n = 1000;
  std::vector<int32_t> x(n), bins(16, 0);
  std::vector<float> fbins(16, 0.0f);
  for (int i = 0; i < n; ++i)
    x[i] = (i * 7) % 20 - 2; // some below 0 and above 15: not counted
  DeviceBuffer dx(x), db(bins), df(fbins);
  int32_t count = n;
  compileAndRun(kHistogram, "histogram_kernel", {(n + 63) / 64, 1, 1},
                {&dx.address(), &db.address(), &df.address(), &count});
  std::vector<int32_t> expected(16, 0);
  for (int v : x)
    if (v >= 0 && v < 16)
      ++expected[v];
  std::vector<int32_t> result = db.read<int32_t>();
  std::vector<float> fresult = df.read<float>();
  for (int b = 0; b < 16; ++b) {
    EXPECT_EQ(result[b], expected[b]) << b;
    // Sums of small integers are exact in any order.
    EXPECT_EQ(fresult[b], static_cast<float>(expected[b])) << b;
  }
}

TEST_P(CpuAtomics, SpinLockAcrossPrograms) {
  std::vector<int32_t> lock{0}, counter{0};
  DeviceBuffer dl(lock), dc(counter);
  int32_t iters = 200;
  const uint32_t programs = 64;
  compileAndRun(kLockedIncrement, "locked_increment", {programs, 1, 1},
                {&dl.address(), &dc.address(), &iters});
  EXPECT_EQ(dc.read<int32_t>()[0], static_cast<int32_t>(programs) * iters);
  EXPECT_EQ(dl.read<int32_t>()[0], 0);
}

INSTANTIATE_TEST_SUITE_P(Threads, CpuAtomics, ::testing::Values(1u, 4u));

} // namespace
