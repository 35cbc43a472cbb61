//===- EndToEndTest.cpp - Kernels compiled and run on the CPU plugin ------===//
#include "CpuTestUtils.h"

#include <cmath>

using namespace mlir::tessera::cpu::test;

namespace {

constexpr const char *kVectorAdd = R"mlir(
func.func @add_kernel(%x: !tessera.ptr<f32>, %y: !tessera.ptr<f32>, %o: !tessera.ptr<f32>, %n: i32) attributes {tessera.kernel} {
  %pid = tessera.program_id x : i32
  %c64 = arith.constant 64 : i32
  %start = arith.muli %pid, %c64 : i32
  %r = tessera.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  %s = tessera.splat %start : tensor<64xi32>
  %off = arith.addi %s, %r : tensor<64xi32>
  %ns = tessera.splat %n : tensor<64xi32>
  %mask = arith.cmpi slt, %off, %ns : tensor<64xi32>
  %xp = tessera.splat %x : tensor<64x!tessera.ptr<f32>>
  %xa = tessera.addptr %xp, %off : tensor<64x!tessera.ptr<f32>>, tensor<64xi32>
  %xv = tessera.load %xa, %mask : tensor<64x!tessera.ptr<f32>>
  %yp = tessera.splat %y : tensor<64x!tessera.ptr<f32>>
  %ya = tessera.addptr %yp, %off : tensor<64x!tessera.ptr<f32>>, tensor<64xi32>
  %yv = tessera.load %ya, %mask : tensor<64x!tessera.ptr<f32>>
  %sum = arith.addf %xv, %yv : tensor<64xf32>
  %op = tessera.splat %o : tensor<64x!tessera.ptr<f32>>
  %oa = tessera.addptr %op, %off : tensor<64x!tessera.ptr<f32>>, tensor<64xi32>
  tessera.store %oa, %sum, %mask : tensor<64x!tessera.ptr<f32>>
  return
}
)mlir";

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

} // namespace
