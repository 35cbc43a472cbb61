//===- CpuLanguageTest.cpp - test_core constructs run on the cpu plugin ---===//
//
// Kernels of Inputs/core_language.py launched as Triton's language tests
// launch them, with results checked on the host: unsigned arrays and u64
// scalars, block pointers, conditional expressions of calls, selects of
// pointers, constexpr-only kernels, indexing past a tensor's rank, stores
// that broadcast their value, and dots with fp16 accumulators. Skipped
// where the build has no cpu plugin.
//
//===----------------------------------------------------------------------===//
#include "CpuRuntime.h"
#include "FakeBackend.h"
#include "TestSupport.h"

#include "tessera/Runtime/JitKernel.h"
#include "tessera/Runtime/Runtime.h"
#include "tessera/Runtime/TunedKernel.h"

#include "llvm/ADT/APFloat.h"

#include <cmath>
#include <limits>
#include <random>

using namespace mlir::tessera;
using namespace mlir::tessera::runtime;
using namespace mlir::tessera::runtime::testing;

namespace {

std::string kernelFile() {
  return std::string(TESSERA_SOURCE_DIR) +
         "/runtime/unittests/Inputs/core_language.py";
}

class CpuLanguageTest : public ::testing::Test {
protected:
  void SetUp() override {
    rt = openCPU(cache.path());
    if (!rt)
      GTEST_SKIP() << "no cpu plugin in this build";
  }

  TunedKernel &kernel(llvm::StringRef name) {
    llvm::Expected<TunedKernel &> k = rt->getKernel(kernelFile(), name);
    if (!k)
      llvm::report_fatal_error(k.takeError());
    return *k;
  }

  /// The plain jit function, for what TunedKernel does not expose
  /// (statistics, prepare()).
  JitKernel &jit(llvm::StringRef name) {
    llvm::Expected<JitKernel &> k = rt->getJitKernel(kernelFile(), name);
    if (!k)
      llvm::report_fatal_error(k.takeError());
    return *k;
  }

  /// A buffer of `type` holding `values`.
  template <typename T>
  Buffer upload(const std::vector<T> &values, llvm::StringRef type) {
    Buffer b = llvm::cantFail(rt->allocate(values.size() * sizeof(T), type));
    llvm::cantFail(b.copyFromHost(values.data(), values.size() * sizeof(T)));
    return b;
  }

  template <typename T> std::vector<T> download(Buffer &b, size_t n) {
    std::vector<T> values(n);
    llvm::cantFail(rt->getDevice()->synchronize());
    llvm::cantFail(b.copyToHost(values.data(), n * sizeof(T)));
    return values;
  }

  ScratchDirectory cache;
  std::unique_ptr<Runtime> rt;
};

} // namespace

// Every unsigned element type specializes as `*uN`, and the compiled kernel
// records the same type, so the launch that compiled it can run it.
TEST_F(CpuLanguageTest, UnsignedArrays) {
  auto check = [&](auto zero, llvm::StringRef type) {
    using T = decltype(zero);
    std::vector<T> src(8);
    for (size_t i = 0; i < src.size(); ++i)
      src[i] = static_cast<T>(std::numeric_limits<T>::max() - 3 * i);
    Buffer bs = upload(src, type);
    Buffer bd = upload(std::vector<T>(8, T(0)), type);
    ASSERT_NO_ERROR(kernel("copy").launch(1, {bd, bs}, {{"N", 8}}));
    EXPECT_EQ(download<T>(bd, 8), src) << type.str();
  };
  check(uint8_t(), "u8");
  check(uint16_t(), "u16");
  check(uint32_t(), "u32");
  check(uint64_t(), "u64");
}

// Integers in [2^63, 2^64) are u64 arguments, as Triton passes them.
TEST_F(CpuLanguageTest, U64ScalarBeyondInt64) {
  for (uint64_t value : {std::numeric_limits<uint64_t>::max(),
                         uint64_t(1) << 63, (uint64_t(1) << 63) + 48}) {
    Buffer out = upload(std::vector<uint64_t>{0}, "u64");
    ASSERT_NO_ERROR(kernel("store_scalar").launch(1, {out, value}));
    EXPECT_EQ(download<uint64_t>(out, 1)[0], value);
    // Arithmetic in the kernel treats it as unsigned.
    ASSERT_NO_ERROR(kernel("halve").launch(1, {out, value}));
    EXPECT_EQ(download<uint64_t>(out, 1)[0], value / 2);
  }
  // A signed parameter cannot hold one: the kernel specialized for it has
  // an i64 parameter only when the value fits.
  Buffer out = upload(std::vector<int64_t>{0}, "i64");
  ASSERT_NO_ERROR(kernel("store_scalar").launch(1, {out, int64_t(-5)}));
  EXPECT_EQ(download<int64_t>(out, 1)[0], -5);
}

// Loads through tl.make_block_ptr, moved by tl.advance in a loop, with the
// rows past the shape padded with zeros.
TEST_F(CpuLanguageTest, BlockPointerLoads) {
  const int64_t m = 6, n = 20, stride = 24, bm = 8, bn = 8, steps = 3;
  std::vector<int32_t> src(m * stride);
  for (size_t i = 0; i < src.size(); ++i)
    src[i] = int32_t(i) * 7 - 100;
  Buffer bs = upload(src, "i32");
  Buffer bd = upload(std::vector<int32_t>(bm * bn, -1), "i32");
  ASSERT_NO_ERROR(kernel("block_copy")
                      .launch(1, {bs, bd, m, n, stride},
                              {{"BM", bm}, {"BN", bn}, {"STEPS", steps}}));
  std::vector<int32_t> got = download<int32_t>(bd, bm * bn);
  for (int64_t i = 0; i < bm; ++i)
    for (int64_t j = 0; j < bn; ++j) {
      int64_t row = 1 + i, col = 1 + steps + j;
      int32_t want = row < m ? src[row * stride + col] : 0;
      EXPECT_EQ(got[i * bn + j], want) << i << "," << j;
    }
}

// `a() if c else b()` with calls that return nothing runs one of them.
TEST_F(CpuLanguageTest, ConditionalExpressionOfVoidCalls) {
  Buffer ret = upload(std::vector<float>(4, 0.0f), "fp32");
  Buffer t = upload(std::vector<float>{3.0f}, "fp32");
  Buffer f = upload(std::vector<float>{1.0f}, "fp32");
  ASSERT_NO_ERROR(kernel("pick").launch(4, {ret, t, f}));
  EXPECT_EQ(download<float>(ret, 4), (std::vector<float>{3, 1, 3, 1}));
}

// tl.where over two scalar pointers picks the pointer.
TEST_F(CpuLanguageTest, SelectOfScalarPointers) {
  std::vector<int64_t> a(8), b(8);
  for (int i = 0; i < 8; ++i) {
    a[i] = i;
    b[i] = -i - 10;
  }
  Buffer ba = upload(a, "i64"), bb = upload(b, "i64");
  for (int32_t cond : {1, 0}) {
    Buffer bc = upload(std::vector<int32_t>{cond}, "i32");
    Buffer out = upload(std::vector<int64_t>(8, 99), "i64");
    ASSERT_NO_ERROR(kernel("choose").launch(1, {bc, ba, bb, out}, {{"N", 8}}));
    EXPECT_EQ(download<int64_t>(out, 8), cond ? a : b);
  }
}

// A kernel whose only parameter is a constexpr given by name takes no
// runtime argument.
TEST_F(CpuLanguageTest, ConstexprOnlyKernelByKeyword) {
  JitKernel &k = jit("fill_only_constexpr");
  ASSERT_NO_ERROR(k.launch(1, {}, {{"XBLOCK", 32}}));
  ASSERT_NO_ERROR(rt->getDevice()->synchronize());
  EXPECT_EQ(k.getStatistics().loads, 1u);
}

// As Triton, num_warps must be a power of two, on every backend.
TEST_F(CpuLanguageTest, NumWarpsMustBeAPowerOfTwo) {
  Buffer out = upload(std::vector<int32_t>{0}, "i32");
  auto withWarps = [](int numWarps) {
    LaunchOptions options;
    options.numWarps = numWarps;
    return options;
  };
  JitKernel &k = jit("store_scalar");
  for (int numWarps : {3, 0, -4}) {
    // checkCompileOptions refuses it before anything compiles, for every
    // caller and target (a cpu program ignores the count, but the same
    // launch must fail there as on a GPU).
    std::string error = errorOf(k.launch(1, {out, 7}, {}, withWarps(numWarps)));
    EXPECT_NE(error.find("num_warps must be a power of 2"), std::string::npos)
        << error;
    EXPECT_NE(error.find("got " + std::to_string(numWarps)), std::string::npos)
        << error;
    error = errorOf(k.prepare({out, 7}, {}, withWarps(numWarps)).takeError());
    EXPECT_NE(error.find("num_warps must be a power of 2"), std::string::npos)
        << error;
  }
  EXPECT_EQ(k.getStatistics().loads, 0u);
  ASSERT_NO_ERROR(k.launch(1, {out, 7}, {}, withWarps(8)));
  EXPECT_EQ(download<int32_t>(out, 1)[0], 7);
}

// `scalar_ptr[None, None, :]`: the ':' past the rank is ignored.
TEST_F(CpuLanguageTest, IndexPastTheRank) {
  Buffer z = upload(std::vector<float>{0.0f, -1.0f}, "fp32");
  Buffer x = upload(std::vector<float>{2.5f}, "fp32");
  ASSERT_NO_ERROR(kernel("scalar_index").launch(1, {z, x}));
  EXPECT_EQ(download<float>(z, 2), (std::vector<float>{2.5f, -1.0f}));
}

// A value of lower rank than its pointers broadcasts over them (Triton
// 3.6's rule), writing exactly the pointers' elements.
TEST_F(CpuLanguageTest, StoreBroadcastsToThePointers) {
  std::vector<int32_t> x(32);
  for (int i = 0; i < 32; ++i)
    x[i] = 3 * i + 1;
  Buffer bx = upload(x, "i32");
  // One element past the pointers' block guards against stray writes.
  Buffer z = upload(std::vector<int32_t>(4 * 32 * 32 + 1, -7), "i32");
  ASSERT_NO_ERROR(kernel("store_broadcast").launch(1, {z, bx}));
  std::vector<int32_t> got = download<int32_t>(z, 4 * 32 * 32 + 1);
  for (int i = 0; i < 4 * 32 * 32; ++i)
    ASSERT_EQ(got[i], x[i % 32]) << i;
  EXPECT_EQ(got.back(), -7);
}

// An fp16 accumulator rounds once, as matrix units do: every element is
// within one fp16 ulp of the exact product (rounding after each of the K
// products strays several ulps where partial sums are larger than the
// result).
TEST_F(CpuLanguageTest, Fp16AccumulatorRoundsOnce) {
  const int64_t b = 2, m = 32, n = 32, k = 64;
  std::mt19937 gen(17);
  std::normal_distribution<float> normal;
  auto toHalf = [](float v) {
    llvm::APFloat f(v);
    bool lost;
    f.convert(llvm::APFloat::IEEEhalf(), llvm::APFloat::rmNearestTiesToEven,
              &lost);
    return uint16_t(f.bitcastToAPInt().getZExtValue());
  };
  auto fromHalf = [](uint16_t bits) {
    llvm::APFloat f(llvm::APFloat::IEEEhalf(), llvm::APInt(16, bits));
    return double(f.convertToFloat());
  };
  std::vector<uint16_t> q(b * m * k), kk(b * k * n);
  for (uint16_t &v : q)
    v = toHalf(normal(gen));
  for (uint16_t &v : kk)
    v = toHalf(normal(gen));
  Buffer bq = upload(q, "fp16"), bk = upload(kk, "fp16");
  Buffer bo = upload(std::vector<uint16_t>(b * m * n, 0x7e00), "fp16");
  ASSERT_NO_ERROR(kernel("dot3d").launch(1, {bq, bk, bo},
                                         {{"B", b},
                                          {"M", m},
                                          {"N", n},
                                          {"K", k},
                                          {"OUT", KernelArg::dtype("fp16")}}));
  std::vector<uint16_t> got = download<uint16_t>(bo, b * m * n);
  unsigned beyondOneUlp = 0;
  for (int64_t bi = 0; bi < b; ++bi)
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        double exact = 0;
        for (int64_t l = 0; l < k; ++l)
          exact += fromHalf(q[(bi * m + i) * k + l]) *
                   fromHalf(kk[(bi * k + l) * n + j]);
        // One ulp of fp16 at `exact` (subnormals: 2^-24).
        int exponent = std::max(std::ilogb(exact), -14);
        double ulp = std::ldexp(1.0, exponent - 10);
        double value = fromHalf(got[(bi * m + i) * n + j]);
        beyondOneUlp += !(std::abs(value - exact) <= ulp);
      }
  EXPECT_EQ(beyondOneUlp, 0u);
}
