// RUN: tessera-opt %s --tessera-test-lower-to-llvm | FileCheck %s
// RUN: tessera-opt %s --tessera-test-lower-to-llvm="accept=shared-tile" | FileCheck %s --check-prefix=TILE
//
// A conversion through shared memory of a 16 x 64 f16 tile: rows of 128
// bytes are eight 16-byte groups, XOR-permuted by the row (the swizzle),
// each thread stores its 8 contiguous elements as one 16-byte vector, and
// reads its column elements one by one, or, when the target takes the tile
// (loadSharedTile), through the target with the same addressing.
#src = #tessera_gpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [1, 0]>
#dst = #tessera_gpu.blocked<sizePerThread = [8, 1], threadsPerWarp = [2, 16], warpsPerCTA = [1, 1], order = [0, 1]>
// CHECK: tessera_gpu.shared_memory = 2048 : i32
// TILE: tessera_gpu.shared_memory = 2048 : i32
module attributes {tessera_gpu.num_ctas = 1 : i32, tessera_gpu.num_warps = 1 : i32, tessera_gpu.target = "test", tessera_gpu.threads_per_warp = 32 : i32} {
  // CHECK-LABEL: llvm.func internal @convert
  // CHECK: llvm.call @tessera_test_barrier()
  // CHECK: llvm.xor
  // CHECK-COUNT-4: llvm.store {{.*}} {alignment = 16 : i64} : vector<8xf16>, !llvm.ptr<3>
  // CHECK-NOT: llvm.store
  // CHECK: llvm.call @tessera_test_barrier()
  // CHECK-COUNT-32: llvm.load {{.*}} {alignment = 2 : i64} : !llvm.ptr<3> -> f16
  // CHECK-NOT: llvm.load
  // CHECK: llvm.return
  // TILE-LABEL: llvm.func internal @convert
  // TILE-COUNT-4: llvm.store {{.*}} : vector<8xf16>, !llvm.ptr<3>
  // TILE: llvm.call @tessera_test_barrier()
  // TILE-NOT: llvm.load
  // TILE-COUNT-32: llvm.call @tessera_test_load_shared_tile({{.*}}) : (!llvm.ptr<3>) -> f16
  // TILE-NOT: llvm.load
  // TILE: llvm.return
  func.func @convert(%arg0: tensor<16x64xf16, #src>) -> tensor<16x64xf16, #dst> {
    %0 = tessera_gpu.convert_layout %arg0 : tensor<16x64xf16, #src> -> tensor<16x64xf16, #dst>
    return %0 : tensor<16x64xf16, #dst>
  }
}
