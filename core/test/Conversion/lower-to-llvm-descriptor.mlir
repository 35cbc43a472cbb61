// RUN: tessera-opt %s --tessera-test-lower-to-llvm | FileCheck %s

// A 16x64 fp16 block through a tensor descriptor: per register an address
// (base + row * stride + column) and an unsigned bounds check against the
// shape; a thread's 8 consecutive columns move as one 16-byte access since
// the base, the row stride, the column index and the row length are proven
// multiples of 8 elements.
#blocked = #tessera_gpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
module attributes {tessera_gpu.num_ctas = 1 : i32, tessera_gpu.num_warps = 4 : i32, tessera_gpu.target = "test", tessera_gpu.threads_per_warp = 32 : i32} {
  // CHECK-LABEL: llvm.func @copy
  // CHECK: llvm.icmp "ult"
  // CHECK: llvm.icmp "ult"
  // CHECK: llvm.getelementptr {{.*}} -> !llvm.ptr<1>, f16
  // CHECK: llvm.call @tessera_test_load_global_v8f16(
  // CHECK-NOT: llvm.call @tessera_test_load_global
  // CHECK: llvm.call @tessera_test_store_global_v8f16(
  // CHECK-NOT: llvm.call @tessera_test_store_global
  // CHECK: llvm.return
  func.func @copy(%a: !tessera.ptr<f16> {tessera.divisibility = 16 : i32}, %b: !tessera.ptr<f16> {tessera.divisibility = 16 : i32}, %m: i32, %n: i32 {tessera.divisibility = 16 : i32}, %stride: i64 {tessera.divisibility = 16 : i32}, %row: i32, %col: i32 {tessera.divisibility = 16 : i32}) attributes {tessera.kernel} {
    %c1 = arith.constant 1 : i64
    %da = tessera.make_tensor_descriptor %a, [%m, %n], [%stride, %c1] : !tessera.ptr<f16> -> !tessera.tensordesc<tensor<16x64xf16>>
    %db = tessera.make_tensor_descriptor %b, [%m, %n], [%stride, %c1] : !tessera.ptr<f16> -> !tessera.tensordesc<tensor<16x64xf16>>
    %x = tessera.descriptor_load %da[%row, %col] : !tessera.tensordesc<tensor<16x64xf16>> -> tensor<16x64xf16, #blocked>
    tessera.descriptor_store %db[%row, %col], %x : !tessera.tensordesc<tensor<16x64xf16>>, tensor<16x64xf16, #blocked>
    return
  }
}
