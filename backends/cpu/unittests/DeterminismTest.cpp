//===- DeterminismTest.cpp - Results do not depend on the thread count ----===//
//
// Every program instance runs from start to end on one thread, so a kernel
// whose instances do not race through atomics gives the same bits with any
// number of launch threads.
//
//===----------------------------------------------------------------------===//
#include "CpuTestUtils.h"
#include "Kernels.h"
#include "Runtime.h"

#include <cstring>
#include <functional>
#include <random>

using namespace mlir::tessera::cpu;
using namespace mlir::tessera::cpu::test;

namespace {

/// Runs `kernel` with 1, 2 and 7 threads on fresh copies of `inputs` and
/// expects the outputs (buffers `outputs` of `inputs`) to be bit-identical.
void expectSameBitsForAnyThreadCount(
    llvm::StringRef ir, llvm::StringRef name, std::array<uint32_t, 3> grid,
    const std::vector<std::vector<uint8_t>> &inputs,
    std::vector<size_t> outputs,
    const std::function<std::vector<void *>(std::vector<uint64_t> &)>
        &scalars) {
  llvm::Expected<mlir::tessera::CompiledKernel> kernel =
      compileKernel(ir, name);
  ASSERT_TRUE(static_cast<bool>(kernel)) << llvm::toString(kernel.takeError());
  LoadedKernel loaded(*kernel);
  std::vector<std::vector<uint8_t>> reference;
  for (unsigned threads : {1u, 2u, 7u}) {
    setLaunchThreads(threads);
    std::vector<std::unique_ptr<DeviceBuffer>> buffers;
    std::vector<uint64_t> addresses;
    for (const std::vector<uint8_t> &input : inputs) {
      buffers.push_back(
          std::make_unique<DeviceBuffer>(input.data(), input.size()));
      addresses.push_back(buffers.back()->address());
    }
    llvm::Error err = loaded.run(grid, scalars(addresses));
    setLaunchThreads(0);
    ASSERT_FALSE(static_cast<bool>(err)) << llvm::toString(std::move(err));
    std::vector<std::vector<uint8_t>> results;
    for (size_t index : outputs)
      results.push_back(buffers[index]->read<uint8_t>());
    if (reference.empty())
      reference = std::move(results);
    else
      for (size_t i = 0; i < results.size(); ++i)
        EXPECT_TRUE(results[i] == reference[i])
            << "output " << outputs[i] << " differs with " << threads
            << " threads";
  }
}

template <typename T> std::vector<uint8_t> bytes(const std::vector<T> &v) {
  std::vector<uint8_t> b(v.size() * sizeof(T));
  std::memcpy(b.data(), v.data(), b.size());
  return b;
}

std::vector<float> randomFloats(size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(-3.0f, 3.0f);
  std::vector<float> v(n);
  for (float &x : v)
    x = dist(rng);
  return v;
}

TEST(CpuDeterminism, Softmax) {
  const int rows = 37, stride = 64;
  std::vector<float> in = randomFloats(rows * stride, 5);
  static int32_t inStride = stride, outStride = stride, cols = 61;
  expectSameBitsForAnyThreadCount(
      kSoftmax, "softmax_kernel", {rows, 1, 1},
      {bytes(std::vector<float>(rows * stride)), bytes(in)}, {0},
      [](std::vector<uint64_t> &a) -> std::vector<void *> {
        return {&a[0], &a[1], &inStride, &outStride, &cols};
      });
}

TEST(CpuDeterminism, Matmul) {
  // Random fp16 values: the fp32 sums round, in one fixed order.
  const int M = 40, N = 48, K = 70;
  std::vector<float> af = randomFloats(M * K, 6), bf = randomFloats(K * N, 7);
  std::vector<uint16_t> a, b;
  for (float x : af)
    a.push_back(convertToHalf(x));
  for (float x : bf)
    b.push_back(convertToHalf(x));
  static int32_t m = M, n = N, k = K, sa = K, sb = N, sc = N;
  uint32_t tiles = ((M + 15) / 16) * ((N + 15) / 16);
  expectSameBitsForAnyThreadCount(
      kMatmul, "matmul_kernel", {tiles, 1, 1},
      {bytes(a), bytes(b), bytes(std::vector<float>(M * N))}, {2},
      [](std::vector<uint64_t> &p) -> std::vector<void *> {
        return {&p[0], &p[1], &p[2], &m, &n, &k, &sa, &sb, &sc};
      });
}

TEST(CpuDeterminism, ScansPhiloxAndConversions) {
  std::vector<int32_t> x(5 * 128);
  for (size_t i = 0; i < x.size(); ++i)
    x[i] = static_cast<int32_t>(i * 2654435761u);
  expectSameBitsForAnyThreadCount(
      kCumsum, "cumsum_kernel", {5, 1, 1},
      {bytes(x), bytes(x), bytes(x), bytes(std::vector<float>(x.size()))},
      {1, 2, 3}, [](std::vector<uint64_t> &p) -> std::vector<void *> {
        return {&p[0], &p[1], &p[2], &p[3]};
      });

  static int32_t seed = 99;
  expectSameBitsForAnyThreadCount(
      kPhilox, "philox_kernel", {9, 1, 1},
      {bytes(std::vector<int32_t>(9 * 256))}, {0},
      [](std::vector<uint64_t> &p) -> std::vector<void *> {
        return {&p[0], &seed};
      });

  std::vector<float> v = randomFloats(6 * 64, 8);
  expectSameBitsForAnyThreadCount(
      kConversions, "convert_kernel", {6, 1, 1},
      {bytes(v), bytes(std::vector<uint8_t>(v.size())),
       bytes(std::vector<uint8_t>(v.size())),
       bytes(std::vector<float>(v.size())),
       bytes(std::vector<uint16_t>(v.size())),
       bytes(std::vector<uint16_t>(v.size())),
       bytes(std::vector<uint16_t>(v.size()))},
      {1, 2, 3, 4, 5, 6}, [](std::vector<uint64_t> &p) -> std::vector<void *> {
        return {&p[0], &p[1], &p[2], &p[3], &p[4], &p[5], &p[6]};
      });
}

TEST(CpuDeterminism, IntegerAtomicsCommute) {
  // Integer atomic adds give the same totals in any order (the float sums of
  // this kernel are excluded: their order may differ).
  std::vector<int32_t> x(3000);
  for (size_t i = 0; i < x.size(); ++i)
    x[i] = static_cast<int32_t>((i * 31) % 19);
  static int32_t n = 3000;
  expectSameBitsForAnyThreadCount(
      kHistogram, "histogram_kernel", {(3000 + 63) / 64, 1, 1},
      {bytes(x), bytes(std::vector<int32_t>(16)),
       bytes(std::vector<float>(16))},
      {1}, [](std::vector<uint64_t> &p) -> std::vector<void *> {
        return {&p[0], &p[1], &p[2], &n};
      });
}

} // namespace
