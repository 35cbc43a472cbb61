// RUN: tessera-opt %s --split-input-file --tessera-test-lower-to-llvm | FileCheck %s
// RUN: tessera-opt %s --split-input-file --tessera-test-lower-to-llvm="decline=load-global,store-global" | FileCheck %s --check-prefix=FALLBACK

// Vector add: each thread holds 2 runs of 4 consecutive fp32, proven
// 16-byte aligned, so it moves them with two 128-bit accesses per operand.
#blocked = #tessera_gpu.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
module attributes {tessera_gpu.num_ctas = 1 : i32, tessera_gpu.num_warps = 4 : i32, tessera_gpu.target = "test", tessera_gpu.threads_per_warp = 32 : i32} {
  // CHECK-LABEL: llvm.func @add_kernel
  // CHECK-SAME: %[[X:[^:]*]]: !llvm.ptr<1> {llvm.align = 16 : i64}
  // CHECK-SAME: attributes {tessera.kernel, tessera_test.threads = 128 : i32}
  // CHECK: %[[PID:.*]] = llvm.call @tessera_test_program_id
  // CHECK: %[[TID:.*]] = llvm.call @tessera_test_thread_id()
  // CHECK: %[[LANE:.*]] = llvm.and %[[TID]]
  // CHECK: %[[WARP:.*]] = llvm.lshr %[[TID]]
  // CHECK-COUNT-2: llvm.call @tessera_test_load_global_v4f32(
  // CHECK-NOT: llvm.call @tessera_test_load_global
  // CHECK-COUNT-2: llvm.call @tessera_test_load_global_v4f32(
  // CHECK: llvm.fadd {{.*}} : f32
  // CHECK-COUNT-2: llvm.call @tessera_test_store_global_v4f32(
  // CHECK-NOT: llvm.call @tessera_test_store_global
  // CHECK: llvm.return

  // FALLBACK-LABEL: llvm.func @add_kernel
  // FALLBACK: llvm.cond_br %{{.*}}, ^[[LOAD:bb[0-9]+]], ^[[JOIN:bb[0-9]+]](%{{.*}} : vector<4xf32>)
  // FALLBACK: ^[[LOAD]]:
  // FALLBACK-NEXT: %[[V:.*]] = llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>
  // FALLBACK-NEXT: llvm.br ^[[JOIN]](%[[V]] : vector<4xf32>)
  // FALLBACK: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<1>
  func.func @add_kernel(%arg0: !tessera.ptr<f32> {tessera.divisibility = 16 : i32}, %arg1: !tessera.ptr<f32> {tessera.divisibility = 16 : i32}, %arg2: !tessera.ptr<f32> {tessera.divisibility = 16 : i32}, %arg3: i32 {tessera.divisibility = 16 : i32}) attributes {tessera.kernel} {
    %c1024_i32 = arith.constant 1024 : i32
    %0 = tessera.program_id  x : i32
    %1 = arith.muli %0, %c1024_i32 : i32
    %2 = tessera.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #blocked>
    %3 = tessera.splat %1 : tensor<1024xi32, #blocked>
    %4 = arith.addi %3, %2 : tensor<1024xi32, #blocked>
    %5 = tessera.splat %arg3 : tensor<1024xi32, #blocked>
    %6 = arith.cmpi slt, %4, %5 : tensor<1024xi32, #blocked>
    %7 = tessera.splat %arg0 : tensor<1024x!tessera.ptr<f32>, #blocked>
    %8 = tessera.addptr %7, %4 : tensor<1024x!tessera.ptr<f32>, #blocked>, tensor<1024xi32, #blocked>
    %9 = tessera.load %8, %6 : tensor<1024x!tessera.ptr<f32>, #blocked>
    %10 = tessera.splat %arg1 : tensor<1024x!tessera.ptr<f32>, #blocked>
    %11 = tessera.addptr %10, %4 : tensor<1024x!tessera.ptr<f32>, #blocked>, tensor<1024xi32, #blocked>
    %12 = tessera.load %11, %6 : tensor<1024x!tessera.ptr<f32>, #blocked>
    %13 = tessera.splat %arg2 : tensor<1024x!tessera.ptr<f32>, #blocked>
    %14 = tessera.addptr %13, %4 : tensor<1024x!tessera.ptr<f32>, #blocked>, tensor<1024xi32, #blocked>
    %15 = arith.addf %9, %12 : tensor<1024xf32, #blocked>
    tessera.store %14, %15, %6 : tensor<1024x!tessera.ptr<f32>, #blocked>
    return
  }
}

// -----

// Unaligned pointers (no divisibility): one element per access.
#blocked = #tessera_gpu.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]>
module attributes {tessera_gpu.num_ctas = 1 : i32, tessera_gpu.num_warps = 1 : i32, tessera_gpu.target = "test", tessera_gpu.threads_per_warp = 32 : i32} {
  // CHECK-LABEL: llvm.func @unaligned
  // CHECK-COUNT-4: llvm.call @tessera_test_load_global_f32(
  // CHECK-NOT: llvm.call @tessera_test_load_global
  func.func @unaligned(%arg0: !tessera.ptr<f32>) attributes {tessera.kernel} {
    %0 = tessera.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked>
    %1 = tessera.splat %arg0 : tensor<128x!tessera.ptr<f32>, #blocked>
    %2 = tessera.addptr %1, %0 : tensor<128x!tessera.ptr<f32>, #blocked>, tensor<128xi32, #blocked>
    %3 = tessera.load %2 : tensor<128x!tessera.ptr<f32>, #blocked>
    tessera.store %2, %3 : tensor<128x!tessera.ptr<f32>, #blocked>
    return
  }
}

// -----

// A volatile load (a spin on a flag) is a volatile LLVM load, never the
// target's hook, which could let it be hoisted out of the loop.
module attributes {tessera_gpu.num_ctas = 1 : i32, tessera_gpu.num_warps = 1 : i32, tessera_gpu.target = "test", tessera_gpu.threads_per_warp = 32 : i32} {
  // CHECK-LABEL: llvm.func @spin
  // CHECK-NOT: tessera_test_load_global
  // CHECK: llvm.load volatile %{{.*}} {alignment = 4 : i64} : !llvm.ptr<1> -> i32
  // FALLBACK-LABEL: llvm.func @spin
  // FALLBACK: llvm.load volatile
  func.func @spin(%flag: !tessera.ptr<i32>) attributes {tessera.kernel} {
    %c0 = arith.constant 0 : i32
    scf.while : () -> () {
      %v = tessera.load %flag {isVolatile} : !tessera.ptr<i32>
      %busy = arith.cmpi eq, %v, %c0 : i32
      scf.condition(%busy)
    } do {
      scf.yield
    }
    return
  }
}
