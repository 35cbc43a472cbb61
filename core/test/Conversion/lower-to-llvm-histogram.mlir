// RUN: tessera-opt %s --split-input-file --tessera-test-lower-to-llvm | FileCheck %s

// A histogram of 128 elements into 64 bins over 2 warps: the counters are
// 64 i32 of scratch (256 bytes), zeroed by the 64 threads (one bin each,
// after a barrier), counted with shared-memory atomic adds where the value
// is in [0, 64) (unsigned compare: negative values too are out) and the
// element is not masked off, then read back by the result's registers.
// Copies are counted once: the result layout holds every bin in both
// warps; the source layout holds each element in one thread.
#src = #tessera_gpu.blocked<sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]>
#dst = #tessera_gpu.blocked<sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]>
// CHECK: module attributes {{{.*}}tessera_gpu.shared_memory = 256 : i32
module attributes {tessera_gpu.num_ctas = 1 : i32, tessera_gpu.num_warps = 2 : i32, tessera_gpu.target = "test", tessera_gpu.threads_per_warp = 32 : i32} {
  // CHECK-LABEL: llvm.func internal @histogram
  // CHECK: llvm.call @tessera_test_barrier()
  // CHECK: llvm.icmp "ult" %{{.*}}, %{{.*}} : i32
  // CHECK: llvm.store %{{.*}}, %{{.*}} : i32, !llvm.ptr<3>
  // CHECK: llvm.call @tessera_test_barrier()
  // CHECK-COUNT-2: llvm.atomicrmw add %{{.*}}, %{{.*}} monotonic : !llvm.ptr<3>, i32
  // CHECK: llvm.call @tessera_test_barrier()
  // CHECK-COUNT-2: llvm.load %{{.*}} : !llvm.ptr<3> -> i32
  // CHECK: llvm.return
  func.func @histogram(%x: tensor<128xi32, #src>, %m: tensor<128xi1, #src>) -> tensor<64xi32, #dst> {
    %0 = tessera.histogram %x, %m : tensor<128xi1, #src> : tensor<128xi32, #src> -> tensor<64xi32, #dst>
    return %0 : tensor<64xi32, #dst>
  }
}
