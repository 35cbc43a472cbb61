//===- EndToEndTest.cpp - Kernels compiled and run on the CPU plugin ------===//
//
// Each test compiles hand-written tessera IR through the core pipeline and
// the CPU stages, runs it on a grid and compares with a host computation.
//
//===----------------------------------------------------------------------===//
#include "CpuBackend.h"
#include "CpuTestUtils.h"
#include "Kernels.h"
#include "Runtime.h"

#include "llvm/ADT/APFloat.h"

#include <cmath>
#include <cstring>
#include <random>

using namespace mlir::tessera::cpu;
using namespace mlir::tessera::cpu::test;

namespace {

TEST(CpuEndToEnd, VectorAddWithMask) {
  const int n = 1000;
  std::vector<float> x(n), y(n), out(n + 24, -1.0f);
  for (int i = 0; i < n; ++i) {
    x[i] = 0.5f * i;
    y[i] = 1000.0f - i;
  }
  DeviceBuffer dx(x), dy(y), dout(out);
  int32_t count = n;
  compileAndRun(kVectorAdd, "add_kernel", {(n + 63) / 64, 1, 1},
                {&dx.address(), &dy.address(), &dout.address(), &count});
  std::vector<float> result = dout.read<float>();
  for (int i = 0; i < n; ++i)
    ASSERT_EQ(result[i], x[i] + y[i]) << "at " << i;
  // Masked-off lanes past n are not written.
  for (int i = n; i < n + 24; ++i)
    ASSERT_EQ(result[i], -1.0f) << "at " << i;
}

TEST(CpuEndToEnd, RowSoftmax) {
  const int rows = 5, cols = 50, stride = 64;
  std::mt19937 rng(1);
  std::uniform_real_distribution<float> dist(-4.0f, 4.0f);
  std::vector<float> in(rows * stride, 0.0f), out(rows * stride, 7.0f);
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c)
      in[r * stride + c] = dist(rng);
  DeviceBuffer din(in), dout(out);
  int32_t inStride = stride, outStride = stride, nCols = cols;
  compileAndRun(
      kSoftmax, "softmax_kernel", {rows, 1, 1},
      {&dout.address(), &din.address(), &inStride, &outStride, &nCols});
  std::vector<float> result = dout.read<float>();
  for (int r = 0; r < rows; ++r) {
    double mx = -INFINITY, sum = 0;
    for (int c = 0; c < cols; ++c)
      mx = std::max<double>(mx, in[r * stride + c]);
    for (int c = 0; c < cols; ++c)
      sum += std::exp(in[r * stride + c] - mx);
    for (int c = 0; c < cols; ++c)
      ASSERT_NEAR(result[r * stride + c],
                  std::exp(in[r * stride + c] - mx) / sum, 1e-6)
          << r << "," << c;
    for (int c = cols; c < stride; ++c)
      ASSERT_EQ(result[r * stride + c], 7.0f);
  }
}

TEST(CpuEndToEnd, MatmulFp16Fp32Accumulator) {
  // Values that are exact in fp16 with products and sums exact in fp32, so
  // the result must match exactly.
  const int M = 35, N = 20, K = 37;
  std::vector<uint16_t> a(M * K), b(K * N);
  std::vector<float> af(M * K), bf(K * N), c(M * N, -5.0f);
  for (int i = 0; i < M * K; ++i) {
    af[i] = static_cast<float>((i * 7) % 9 - 4) / 4.0f;
    a[i] = convertToHalf(af[i]);
  }
  for (int i = 0; i < K * N; ++i) {
    bf[i] = static_cast<float>((i * 5) % 11 - 5) / 8.0f;
    b[i] = convertToHalf(bf[i]);
  }
  DeviceBuffer da(a), db(b), dc(c);
  int32_t m = M, n = N, k = K, sa = K, sb = N, sc = N;
  uint32_t tiles = ((M + 15) / 16) * ((N + 15) / 16);
  compileAndRun(
      kMatmul, "matmul_kernel", {tiles, 1, 1},
      {&da.address(), &db.address(), &dc.address(), &m, &n, &k, &sa, &sb, &sc});
  std::vector<float> result = dc.read<float>();
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float expected = 0;
      for (int p = 0; p < K; ++p)
        expected += af[i * K + p] * bf[p * N + j];
      ASSERT_EQ(result[i * N + j], expected) << i << "," << j;
    }
}

TEST(CpuEndToEnd, ArgmaxTwoOperandReduce) {
  const int rows = 6;
  std::vector<float> x(rows * 32);
  std::mt19937 rng(2);
  std::uniform_int_distribution<int> dist(-50, 50);
  for (float &v : x)
    v = static_cast<float>(dist(rng));
  std::vector<float> vals(rows, 0);
  std::vector<int32_t> idxs(rows, -1);
  DeviceBuffer dx(x), dv(vals), di(idxs);
  compileAndRun(kArgmax, "argmax_kernel", {rows, 1, 1},
                {&dx.address(), &dv.address(), &di.address()});
  std::vector<float> rv = dv.read<float>();
  std::vector<int32_t> ri = di.read<int32_t>();
  for (int r = 0; r < rows; ++r) {
    auto begin = x.begin() + r * 32;
    auto it = std::max_element(begin, begin + 32);
    EXPECT_EQ(rv[r], *it) << r;
    EXPECT_EQ(ri[r], it - begin) << r;
  }
}

TEST(CpuEndToEnd, CumsumScans) {
  const int programs = 3, n = programs * 128;
  std::vector<int32_t> x(n), fwd(n), bwd(n);
  std::vector<float> rows(n);
  for (int i = 0; i < n; ++i)
    x[i] = (i * 13) % 17 - 8;
  DeviceBuffer dx(x), df(fwd), db(bwd), dr(rows);
  compileAndRun(kCumsum, "cumsum_kernel", {programs, 1, 1},
                {&dx.address(), &df.address(), &db.address(), &dr.address()});
  std::vector<int32_t> rf = df.read<int32_t>(), rb = db.read<int32_t>();
  std::vector<float> rr = dr.read<float>();
  for (int p = 0; p < programs; ++p) {
    int32_t run = 0;
    for (int i = 0; i < 128; ++i) {
      run += x[p * 128 + i];
      ASSERT_EQ(rf[p * 128 + i], run) << p << "," << i;
    }
    run = 0;
    for (int i = 127; i >= 0; --i) {
      run += x[p * 128 + i];
      ASSERT_EQ(rb[p * 128 + i], run) << p << "," << i;
    }
    for (int row = 0; row < 8; ++row) {
      float acc = 0;
      for (int col = 0; col < 16; ++col) {
        int i = p * 128 + row * 16 + col;
        acc += static_cast<float>(x[i]);
        ASSERT_EQ(rr[i], acc) << p << "," << row << "," << col;
      }
    }
  }
}

TEST(CpuEndToEnd, PhiloxMixWithMulhi) {
  const int programs = 2, n = programs * 256;
  std::vector<int32_t> out(n);
  DeviceBuffer dout(out);
  int32_t seed = 0x1234567;
  compileAndRun(kPhilox, "philox_kernel", {programs, 1, 1},
                {&dout.address(), &seed});
  std::vector<int32_t> result = dout.read<int32_t>();
  auto mulhi = [](uint32_t a, uint32_t b) {
    return static_cast<uint32_t>((uint64_t(a) * b) >> 32);
  };
  for (int i = 0; i < n; ++i) {
    uint32_t c0 = i, c1 = 0, c2 = 0, c3 = 0, k0 = seed, k1 = 7;
    for (int round = 0; round < 10; ++round) {
      uint32_t p0 = c0, p2 = c2;
      c0 = mulhi(0xCD9E8D57u, p2) ^ c1 ^ k0;
      c2 = mulhi(0xD2511F53u, p0) ^ c3 ^ k1;
      c1 = 0xCD9E8D57u * p2;
      c3 = 0xD2511F53u * p0;
      k0 += 0x9E3779B9u;
      k1 += 0xBB67AE85u;
    }
    ASSERT_EQ(static_cast<uint32_t>(result[i]), c0) << i;
  }
}

TEST(CpuEndToEnd, LibmCalls) {
  const int n = 200;
  std::vector<float> x(n), y(n, 0);
  std::vector<double> d(n, 0);
  for (int i = 0; i < n; ++i)
    x[i] = -1.0f + 2.0f * i / (n - 1);
  DeviceBuffer dx(x), dy(y), dd(d);
  int32_t count = n;
  compileAndRun(kLibm, "asin_kernel", {(n + 63) / 64, 1, 1},
                {&dx.address(), &dy.address(), &dd.address(), &count});
  std::vector<float> ry = dy.read<float>();
  std::vector<double> rd = dd.read<double>();
  for (int i = 0; i < n; ++i) {
    // The same libm: the same bits.
    ASSERT_EQ(ry[i], asinf(x[i])) << i;
    double v = x[i];
    ASSERT_EQ(rd[i], std::atan2(v, v) + std::erf(v)) << i;
  }
}

/// The bits of `x` rounded to `semantics` by APFloat.
uint16_t apfloatBits(float x, const llvm::fltSemantics &semantics,
                     llvm::RoundingMode mode) {
  llvm::APFloat value(x);
  bool lost;
  value.convert(semantics, mode, &lost);
  return static_cast<uint16_t>(value.bitcastToAPInt().getZExtValue());
}

TEST(CpuEndToEnd, FloatConversions) {
  const int n = 128;
  std::vector<float> x(n);
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> dist(-300.0f, 300.0f);
  for (int i = 0; i < n; ++i)
    x[i] = i < 8 ? std::ldexp(1.0f + i / 8.0f, -9 - i) : dist(rng);
  x[9] = 0.0f;
  x[10] = -0.0f;
  x[11] = 1000.0f; // out of range for e4m3fn: NaN
  x[12] = 60000.0f;
  x[13] = NAN;
  std::vector<uint8_t> e4(n), e5(n);
  std::vector<float> back(n);
  std::vector<uint16_t> h(n), bf(n), bz(n);
  DeviceBuffer dx(x), d4(e4), d5(e5), dback(back), dh(h), dbf(bf), dbz(bz);
  compileAndRun(kConversions, "convert_kernel", {n / 64, 1, 1},
                {&dx.address(), &d4.address(), &d5.address(), &dback.address(),
                 &dh.address(), &dbf.address(), &dbz.address()});
  std::vector<uint8_t> r4 = d4.read<uint8_t>(), r5 = d5.read<uint8_t>();
  std::vector<float> rback = dback.read<float>();
  std::vector<uint16_t> rh = dh.read<uint16_t>(), rbf = dbf.read<uint16_t>(),
                        rbz = dbz.read<uint16_t>();
  using llvm::APFloat;
  using llvm::RoundingMode;
  for (int i = 0; i < n; ++i) {
    SCOPED_TRACE("x = " + std::to_string(x[i]));
    ASSERT_EQ(r4[i], apfloatBits(x[i], APFloat::Float8E4M3FN(),
                                 RoundingMode::NearestTiesToEven));
    ASSERT_EQ(r5[i], apfloatBits(x[i], APFloat::Float8E5M2(),
                                 RoundingMode::TowardZero));
    ASSERT_EQ(rh[i], apfloatBits(x[i], APFloat::IEEEhalf(),
                                 RoundingMode::NearestTiesToEven));
    ASSERT_EQ(rbf[i], apfloatBits(x[i], APFloat::BFloat(),
                                  RoundingMode::NearestTiesToEven));
    if (!std::isnan(x[i])) {
      ASSERT_EQ(rbz[i],
                apfloatBits(x[i], APFloat::BFloat(), RoundingMode::TowardZero));
    }
    // fp8 squared in f32 and rounded back to e4m3fn, then widened.
    float q = convertFromFp8(r4[i], Fp8Format::E4M3FN);
    uint8_t sq = apfloatBits(q * q, APFloat::Float8E4M3FN(),
                             RoundingMode::NearestTiesToEven);
    float expected = convertFromFp8(sq, Fp8Format::E4M3FN);
    if (std::isnan(expected))
      ASSERT_TRUE(std::isnan(rback[i]));
    else
      ASSERT_EQ(rback[i], expected);
  }
}

TEST(CpuEndToEnd, DescriptorTilesWithBounds) {
  const int M = 13, N = 10;
  std::vector<float> src(M * N), dst(M * N, -1.0f);
  for (int i = 0; i < M * N; ++i)
    src[i] = static_cast<float>(i);
  DeviceBuffer dsrc(src), ddst(dst);
  int32_t m = M, n = N;
  compileAndRun(kDescriptorCopy, "tile_copy", {(M + 7) / 8, (N + 7) / 8, 1},
                {&dsrc.address(), &ddst.address(), &m, &n});
  std::vector<float> result = ddst.read<float>();
  // Every in-bounds element is written exactly once, doubled; nothing
  // outside the buffer was touched (the heap would be corrupted).
  for (int i = 0; i < M * N; ++i)
    ASSERT_EQ(result[i], 2.0f * src[i]) << i;
}

TEST(CpuEndToEnd, ShapesAndControlFlow) {
  std::vector<float> x(32);
  for (int i = 0; i < 32; ++i)
    x[i] = static_cast<float>(i);
  for (int32_t flag : {0, 1}) {
    std::vector<float> o16(16, -1.0f), o32(32, -1.0f);
    DeviceBuffer dx(x), d0(o16), d1(o16), d2(o32), d3(o32), d4(o16), d5(o32);
    int32_t f = flag;
    compileAndRun(kShapes, "shapes_kernel", {1, 1, 1},
                  {&dx.address(), &d0.address(), &d1.address(), &d2.address(),
                   &d3.address(), &d4.address(), &d5.address(), &f});
    std::vector<float> left = d0.read<float>(), right = d1.read<float>(),
                       joined = d2.read<float>(), cat = d3.read<float>(),
                       red = d4.read<float>(), bcast = d5.read<float>();
    auto at = [&](int i, int j) { return x[i * 8 + j]; };
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 4; ++j) {
        // (4, 8) -> (4, 2, 4) -> permute (0, 2, 1) -> split: the halves of
        // each row.
        EXPECT_EQ(left[i * 4 + j], at(i, j));
        EXPECT_EQ(right[i * 4 + j], at(i, 4 + j));
        EXPECT_EQ(joined[i * 8 + 2 * j], at(i, j));
        EXPECT_EQ(joined[i * 8 + 2 * j + 1], at(i, 4 + j));
        EXPECT_EQ(cat[i * 4 + j], at(i, j));
        EXPECT_EQ(cat[(4 + i) * 4 + j], at(i, 4 + j));
      }
    float scale = flag ? 2.0f : 1.0f;
    for (int a = 0; a < 2; ++a)
      for (int c = 0; c < 8; ++c)
        EXPECT_EQ(red[a * 8 + c], scale * (at(2 * a, c) + at(2 * a + 1, c)));
    for (int i = 0; i < 32; ++i)
      EXPECT_EQ(bcast[i], x[i] + static_cast<float>(i % 8));
  }
}

TEST(CpuEndToEnd, Fp8Dot) {
  // Small powers of two times 1.25 or 1.5: exact in e5m2, products and
  // 16-term sums exact in fp32 and in fp16.
  std::vector<uint8_t> a(256), b(256);
  std::vector<float> af(256), bf(256);
  for (int i = 0; i < 256; ++i) {
    af[i] =
        ((i % 3) - 1) * (i % 2 ? 1.25f : 1.5f) * ((i / 7) % 2 ? 0.5f : 1.0f);
    bf[i] = ((i % 5) - 2) * 0.25f;
    a[i] = convertToFp8(af[i], Fp8Format::E5M2, false);
    b[i] = convertToFp8(bf[i], Fp8Format::E5M2, false);
    ASSERT_EQ(convertFromFp8(a[i], Fp8Format::E5M2), af[i]);
    ASSERT_EQ(convertFromFp8(b[i], Fp8Format::E5M2), bf[i]);
  }
  std::vector<uint16_t> c(256, 0);
  DeviceBuffer da(a), db(b), dc(c);
  compileAndRun(kFp8Dot, "fp8_dot", {1, 1, 1},
                {&da.address(), &db.address(), &dc.address()});
  std::vector<uint16_t> result = dc.read<uint16_t>();
  for (int i = 0; i < 16; ++i)
    for (int j = 0; j < 16; ++j) {
      float expected = 0;
      for (int k = 0; k < 16; ++k)
        expected += af[i * 16 + k] * bf[k * 16 + j];
      EXPECT_EQ(convertFromHalf(result[i * 16 + j]), expected) << i << "," << j;
    }
}

TEST(CpuEndToEnd, TileDotsExactWhereverTheyRun) {
  // Whole AMX tiles (32x32, K=64) of fp8 and bf16 operands: on a host with
  // AMX's bf16 tiles they run there, elsewhere on the FMA kernels. Values
  // are multiples of 1/4 up to 1.5: exact in both formats, as are the
  // products and the 64-term sums in f32, so both paths give them exactly.
  if (getHostInfo().features.find("+amx-bf16") != std::string::npos)
    std::printf("[ INFO     ] this host runs these dots on AMX tiles\n");
  auto av = [](int i, int k) { return ((i * 3 + k) % 7 - 3) * 0.5f; };
  auto bv = [](int k, int j) { return ((k + 2 * j) % 5 - 2) * 0.25f; };
  std::vector<float> expected(32 * 32, 0.0f);
  for (int i = 0; i < 32; ++i)
    for (int j = 0; j < 32; ++j)
      for (int k = 0; k < 64; ++k)
        expected[i * 32 + j] += av(i, k) * bv(k, j);
  for (const char *elem : {"f8E4M3FN", "bf16"}) {
    bool isBf16 = llvm::StringRef(elem) == "bf16";
    auto encode = [&](float value) -> uint16_t {
      if (isBf16) {
        uint32_t bits;
        std::memcpy(&bits, &value, 4);
        return static_cast<uint16_t>(bits >> 16); // exact: 1/4 multiples
      }
      return convertToFp8(value, Fp8Format::E4M3FN, false);
    };
    std::vector<uint8_t> a8, b8;
    std::vector<uint16_t> a16, b16;
    for (int i = 0; i < 32; ++i)
      for (int k = 0; k < 64; ++k) {
        a8.push_back(static_cast<uint8_t>(encode(av(i, k))));
        a16.push_back(encode(av(i, k)));
      }
    for (int k = 0; k < 64; ++k)
      for (int j = 0; j < 32; ++j) {
        b8.push_back(static_cast<uint8_t>(encode(bv(k, j))));
        b16.push_back(encode(bv(k, j)));
      }
    std::string ir = kTileDot;
    for (size_t at; (at = ir.find("ELEM")) != std::string::npos;)
      ir.replace(at, 4, elem);
    std::unique_ptr<DeviceBuffer> da, db;
    if (isBf16) {
      da = std::make_unique<DeviceBuffer>(a16);
      db = std::make_unique<DeviceBuffer>(b16);
    } else {
      da = std::make_unique<DeviceBuffer>(a8);
      db = std::make_unique<DeviceBuffer>(b8);
    }
    DeviceBuffer dc(std::vector<float>(32 * 32, -1.0f));
    compileAndRun(ir, "tile_dot", {1, 1, 1},
                  {&da->address(), &db->address(), &dc.address()});
    std::vector<float> result = dc.read<float>();
    for (int i = 0; i < 32 * 32; ++i)
      ASSERT_EQ(result[i], expected[i]) << elem << " at " << i;
  }
}

} // namespace
