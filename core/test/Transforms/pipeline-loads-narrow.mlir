// RUN: tessera-opt %s --tessera-pipeline-loads="num-stages=3 min-copy-bytes=4" --canonicalize | FileCheck %s
// RUN: tessera-opt %s --tessera-pipeline-loads="num-stages=3 min-copy-bytes=2" --canonicalize | FileCheck %s --check-prefix=ALL
// RUN: tessera-opt %s --tessera-pipeline-loads="num-stages=3" --canonicalize | FileCheck %s --check-prefix=ALL

// Loads whose accesses would move fewer bytes than min-copy-bytes stay in
// the loop. A's pointers are an argument nothing is known about: each
// thread reads its fp16 elements one at a time (2 bytes). B's are a
// 16-aligned base plus offsets contiguous along the rows, and each thread
// holds 8 consecutive elements: 16-byte accesses. With min-copy-bytes=4
// only B gets a ring; A's load stays where it was, before its conversion.
// With min-copy-bytes=2 (or no minimum) both are pipelined.
#ld = #tessera_gpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
#acc = #tessera_gpu.blocked<sizePerThread = [4, 4], threadsPerWarp = [8, 4], warpsPerCTA = [2, 2], order = [1, 0]>
#opa = #tessera_gpu.dot_op<opIdx = 0, parent = #acc>
#opb = #tessera_gpu.dot_op<opIdx = 1, parent = #acc>
#row = #tessera_gpu.slice<dim = 0, parent = #ld>
#col = #tessera_gpu.slice<dim = 1, parent = #ld>
module attributes {tessera_gpu.num_ctas = 1 : i32, tessera_gpu.num_warps = 4 : i32, tessera_gpu.target = "test", tessera_gpu.threads_per_warp = 32 : i32} {
  // CHECK-LABEL: func.func @narrow_a
  // CHECK-NOT: memdesc<3x64x32xf16
  // CHECK: tessera_gpu.local_alloc : () -> !tessera_gpu.memdesc<3x32x64xf16
  // CHECK-NOT: memdesc<3x64x32xf16
  // CHECK: scf.for
  // CHECK: %[[AV:.*]] = tessera.load %{{.*}} : tensor<64x32x!tessera.ptr<f16>, #{{.*}}>
  // CHECK: %[[AO:.*]] = tessera_gpu.convert_layout %[[AV]]
  // CHECK: %[[BO:.*]] = tessera_gpu.local_load
  // CHECK: tessera.dot %[[AO]], %[[BO]]
  // CHECK: tessera_gpu.async_copy_global_to_local
  // CHECK-NOT: tessera_gpu.async_copy_global_to_local
  // CHECK: scf.yield
  // ALL-LABEL: func.func @narrow_a
  // ALL: tessera_gpu.local_alloc : () -> !tessera_gpu.memdesc<3x64x32xf16
  // ALL: tessera_gpu.local_alloc : () -> !tessera_gpu.memdesc<3x32x64xf16
  // ALL: scf.for
  // ALL-NOT: tessera.load
  // ALL: scf.yield
  func.func @narrow_a(%a: tensor<64x32x!tessera.ptr<f16>, #ld>, %bbase: !tessera.ptr<f16> {tessera.divisibility = 16 : i32}, %n: i32) -> tensor<64x64xf32, #acc> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.0> : tensor<64x64xf32, #acc>
    %step_a = arith.constant dense<32> : tensor<64x32xi32, #ld>
    %step_b = arith.constant dense<2048> : tensor<32x64xi32, #ld>
    %rows = arith.constant dense<64> : tensor<32x1xi32, #ld>
    %ks = tessera.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #col>
    %ks2 = tessera.expand_dims %ks {axis = 1 : i32} : tensor<32xi32, #col> -> tensor<32x1xi32, #ld>
    %roff = arith.muli %ks2, %rows : tensor<32x1xi32, #ld>
    %ns = tessera.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #row>
    %ns2 = tessera.expand_dims %ns {axis = 0 : i32} : tensor<64xi32, #row> -> tensor<1x64xi32, #ld>
    %rb = tessera.broadcast %roff : tensor<32x1xi32, #ld> -> tensor<32x64xi32, #ld>
    %cb = tessera.broadcast %ns2 : tensor<1x64xi32, #ld> -> tensor<32x64xi32, #ld>
    %off = arith.addi %rb, %cb : tensor<32x64xi32, #ld>
    %bs = tessera.splat %bbase : tensor<32x64x!tessera.ptr<f16>, #ld>
    %b = tessera.addptr %bs, %off : tensor<32x64x!tessera.ptr<f16>, #ld>, tensor<32x64xi32, #ld>
    %res:3 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero, %ap = %a, %bp = %b) -> (tensor<64x64xf32, #acc>, tensor<64x32x!tessera.ptr<f16>, #ld>, tensor<32x64x!tessera.ptr<f16>, #ld>) : i32 {
      %av = tessera.load %ap : tensor<64x32x!tessera.ptr<f16>, #ld>
      %ao = tessera_gpu.convert_layout %av : tensor<64x32xf16, #ld> -> tensor<64x32xf16, #opa>
      %bv = tessera.load %bp : tensor<32x64x!tessera.ptr<f16>, #ld>
      %bo = tessera_gpu.convert_layout %bv : tensor<32x64xf16, #ld> -> tensor<32x64xf16, #opb>
      %d = tessera.dot %ao, %bo, %acc : tensor<64x32xf16, #opa> * tensor<32x64xf16, #opb> -> tensor<64x64xf32, #acc>
      %an = tessera.addptr %ap, %step_a : tensor<64x32x!tessera.ptr<f16>, #ld>, tensor<64x32xi32, #ld>
      %bn = tessera.addptr %bp, %step_b : tensor<32x64x!tessera.ptr<f16>, #ld>, tensor<32x64xi32, #ld>
      scf.yield %d, %an, %bn : tensor<64x64xf32, #acc>, tensor<64x32x!tessera.ptr<f16>, #ld>, tensor<32x64x!tessera.ptr<f16>, #ld>
    }
    return %res#0 : tensor<64x64xf32, #acc>
  }
}
