// RUN: tessera-opt %s --tessera-test-lower-to-llvm="decline=warp-reduce" | FileCheck %s
// RUN: tessera-opt %s --tessera-test-lower-to-llvm | FileCheck %s --check-prefix=HOOK

// A row sum of 4x64 fp32. Each thread holds 2 columns of 2 rows; lanes 0-15
// and the 2 warps split the columns, lane bit 4 the rows. So: 1 add per row
// in the thread, xor-shuffles over lane masks 1, 2, 4, 8 (not 16, which
// moves along rows), then the 2 warps' partials through 2x4 fp32 of shared
// memory between two barriers, combined in slot order by every thread.
#blocked = #tessera_gpu.blocked<sizePerThread = [1, 2], threadsPerWarp = [2, 16], warpsPerCTA = [1, 2], order = [1, 0]>
#slice = #tessera_gpu.slice<dim = 1, parent = #blocked>
// CHECK: module attributes {{{.*}}tessera_gpu.shared_memory = 32 : i32
module attributes {tessera_gpu.num_ctas = 1 : i32, tessera_gpu.num_warps = 2 : i32, tessera_gpu.target = "test", tessera_gpu.threads_per_warp = 32 : i32} {
  // CHECK-LABEL: llvm.func @row_sum
  // CHECK-DAG: %[[C1:.*]] = llvm.mlir.constant(1 : i32)
  // CHECK-DAG: %[[C2:.*]] = llvm.mlir.constant(2 : i32)
  // CHECK-DAG: %[[C4:.*]] = llvm.mlir.constant(4 : i32)
  // CHECK-DAG: %[[C8:.*]] = llvm.mlir.constant(8 : i32)
  // CHECK: llvm.fadd
  // CHECK: llvm.call @tessera_test_shuffle_xor_f32(%{{.*}}, %[[C1]])
  // CHECK: llvm.call @tessera_test_shuffle_xor_f32(%{{.*}}, %[[C2]])
  // CHECK: llvm.call @tessera_test_shuffle_xor_f32(%{{.*}}, %[[C4]])
  // CHECK: llvm.call @tessera_test_shuffle_xor_f32(%{{.*}}, %[[C8]])
  // CHECK-NOT: llvm.call @tessera_test_shuffle_xor_f32(%{{.*}}, %{{.*}}16
  // CHECK: llvm.call @tessera_test_barrier()
  // CHECK-COUNT-2: llvm.store %{{.*}} : f32, !llvm.ptr<3>
  // CHECK: llvm.call @tessera_test_barrier()
  // CHECK-COUNT-4: llvm.load %{{.*}} : !llvm.ptr<3> -> f32
  // CHECK: llvm.call @tessera_test_store_global_f32

  // HOOK-LABEL: llvm.func @row_sum
  // HOOK-NOT: shuffle_xor
  // HOOK: llvm.call @tessera_test_warp_reduce_1_f32(%{{.*}}, %{{.*}}) : (f32, i32) -> f32
  func.func @row_sum(%arg0: !tessera.ptr<f32> {tessera.divisibility = 16 : i32}, %arg1: tensor<4x64xf32, #blocked>) attributes {tessera.kernel} {
    %0 = tessera.reduce(%arg1) {axis = 1 : i32} : (tensor<4x64xf32, #blocked>) -> tensor<4xf32, #slice> {
    ^bb0(%a: f32, %b: f32):
      %s = arith.addf %a, %b : f32
      tessera.reduce.return %s : f32
    }
    %1 = tessera.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32, #slice>
    %2 = tessera.splat %arg0 : tensor<4x!tessera.ptr<f32>, #slice>
    %3 = tessera.addptr %2, %1 : tensor<4x!tessera.ptr<f32>, #slice>, tensor<4xi32, #slice>
    tessera.store %3, %0 : tensor<4x!tessera.ptr<f32>, #slice>
    return
  }

  // tl.max's combine (arith.maxnumf) is offered to the hook too, as kind
  // MaxNumF (14).
  // HOOK-LABEL: llvm.func @row_max
  // HOOK-NOT: shuffle_xor
  // HOOK: llvm.call @tessera_test_warp_reduce_14_f32(%{{.*}}, %{{.*}}) : (f32, i32) -> f32
  func.func @row_max(%arg0: !tessera.ptr<f32> {tessera.divisibility = 16 : i32}, %arg1: tensor<4x64xf32, #blocked>) attributes {tessera.kernel} {
    %0 = tessera.reduce(%arg1) {axis = 1 : i32} : (tensor<4x64xf32, #blocked>) -> tensor<4xf32, #slice> {
    ^bb0(%a: f32, %b: f32):
      %s = arith.maxnumf %a, %b : f32
      tessera.reduce.return %s : f32
    }
    %1 = tessera.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32, #slice>
    %2 = tessera.splat %arg0 : tensor<4x!tessera.ptr<f32>, #slice>
    %3 = tessera.addptr %2, %1 : tensor<4x!tessera.ptr<f32>, #slice>, tensor<4xi32, #slice>
    tessera.store %3, %0 : tensor<4x!tessera.ptr<f32>, #slice>
    return
  }
}
