// RUN: tessera-opt %s --split-input-file --tessera-test-lower-to-llvm | FileCheck %s
// RUN: tessera-opt %s --split-input-file --tessera-test-lower-to-llvm="decline=async-copy" | FileCheck %s --check-prefix=SYNC

// A 2-deep shared buffer of 32x32 fp16 (2 x 2 KiB at offset 0, so scratch
// would start at 4096): stage 1 is filled by async copies through the
// target's hook (or, declined, by loads and shared stores), committed,
// waited for, then read back in the same layout.
#blocked = #tessera_gpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
#shared = #tessera_gpu.shared<vec = 8, perPhase = 1, maxPhase = 4, order = [1, 0]>
// CHECK: tessera_gpu.shared_memory = 4096 : i32
module attributes {tessera_gpu.num_ctas = 1 : i32, tessera_gpu.num_warps = 4 : i32, tessera_gpu.target = "test", tessera_gpu.threads_per_warp = 32 : i32} {
  // CHECK-LABEL: llvm.func internal @stage
  // CHECK: %[[BASE:.*]] = llvm.call @tessera_test_shared_base()
  // CHECK: %[[STAGE:.*]] = llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f16
  // CHECK-COUNT-8: llvm.call @tessera_test_async_copy(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (!llvm.ptr<3>, !llvm.ptr<1>, i32, i1) -> ()
  // CHECK: llvm.call @tessera_test_async_commit_group()
  // CHECK: llvm.call @tessera_test_async_wait(
  // CHECK-COUNT-8: llvm.load %{{.*}} : !llvm.ptr<3> -> f16

  // SYNC-LABEL: llvm.func internal @stage
  // SYNC-NOT: tessera_test_async
  // SYNC: llvm.call @tessera_test_load_global_f16(
  // SYNC: llvm.store %{{.*}}, %{{.*}} : f16, !llvm.ptr<3>
  // SYNC-NOT: tessera_test_async
  // SYNC: llvm.load %{{.*}} : !llvm.ptr<3> -> f16
  func.func @stage(%ptrs: tensor<32x32x!tessera.ptr<f16>, #blocked>, %mask: tensor<32x32xi1, #blocked>) -> tensor<32x32xf16, #blocked> {
    %c1 = arith.constant 1 : i32
    %buf = tessera_gpu.local_alloc : () -> !tessera_gpu.memdesc<2x32x32xf16, #shared, mutable>
    %s = tessera_gpu.memdesc_index %buf[%c1] : !tessera_gpu.memdesc<2x32x32xf16, #shared, mutable> -> !tessera_gpu.memdesc<32x32xf16, #shared, mutable>
    %t = tessera_gpu.async_copy_global_to_local %ptrs, %s mask %mask : tensor<32x32xi1, #blocked> : tensor<32x32x!tessera.ptr<f16>, #blocked> -> !tessera_gpu.memdesc<32x32xf16, #shared, mutable>
    %g = tessera_gpu.async_commit_group %t
    %w = tessera_gpu.async_wait %g {num = 0 : i32}
    %x = tessera_gpu.local_load %s token %w : !tessera_gpu.memdesc<32x32xf16, #shared, mutable> -> tensor<32x32xf16, #blocked>
    tessera_gpu.local_dealloc %buf : !tessera_gpu.memdesc<2x32x32xf16, #shared, mutable>
    return %x : tensor<32x32xf16, #blocked>
  }
}
