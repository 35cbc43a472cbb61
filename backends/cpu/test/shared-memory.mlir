// RUN: tessera-cpu-opt %s --split-input-file --tessera-cpu-to-structured | FileCheck %s
// A program instance is one thread: shared memory is a private buffer,
// copies are synchronous, waits and barriers have nothing to wait for.

#blocked = #tessera_gpu.blocked<sizePerThread = [4, 8], threadsPerWarp = [1, 1], warpsPerCTA = [1, 1], order = [1, 0]>
#shared = #tessera_gpu.shared<vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]>
module attributes {tessera_gpu.num_warps = 1 : i32, tessera_gpu.threads_per_warp = 1 : i32} {
// CHECK-LABEL: func @shared
// CHECK-SAME: (%[[X:.*]]: tensor<4x8xf16>, %[[I:.*]]: i32)
// local_alloc with a value: a buffer and a copy in.
// CHECK: %[[A:.*]] = memref.alloc() : memref<4x8xf16>
// CHECK: scf.for
// CHECK: scf.for
// CHECK: %[[E:.*]] = tensor.extract %[[X]]
// CHECK: memref.store %[[E]], %[[A]]
// CHECK: %[[AV:.*]] = memref.cast %[[A]] : memref<4x8xf16> to memref<4x8xf16, strided<[?, ?], offset: ?>>
// Multi-buffering: memdesc_index is a rank-reducing subview.
// CHECK: %[[M:.*]] = memref.alloc() : memref<2x4x8xf16>
// CHECK: %[[MV:.*]] = memref.cast %[[M]]
// CHECK: %[[IX:.*]] = arith.index_cast %[[I]] : i32 to index
// CHECK: %[[SV:.*]] = memref.subview %[[MV]][%[[IX]], 0, 0] [1, 4, 8] [1, 1, 1] : memref<2x4x8xf16, strided<[?, ?, ?], offset: ?>> to memref<4x8xf16, strided<[?, ?], offset: ?>>
// local_load / local_store: copies out and in.
// CHECK: scf.for
// CHECK: scf.for
// CHECK: memref.load %[[AV]]
// CHECK: tensor.insert
// CHECK: scf.for
// CHECK: scf.for
// CHECK: memref.store %{{.*}}, %[[SV]]
// memdesc_trans: a transposed view.
// CHECK: memref.transpose %[[SV]] (d0, d1) -> (d1, d0)
// CHECK-NOT: tessera_gpu
// CHECK-NOT: memref.dealloc
func.func @shared(%x: tensor<4x8xf16, #blocked>, %i: i32) -> tensor<4x8xf16, #blocked> {
  %a = tessera_gpu.local_alloc %x : (tensor<4x8xf16, #blocked>) -> !tessera_gpu.memdesc<4x8xf16, #shared>
  %m = tessera_gpu.local_alloc : () -> !tessera_gpu.memdesc<2x4x8xf16, #shared, mutable>
  %s = tessera_gpu.memdesc_index %m[%i] : !tessera_gpu.memdesc<2x4x8xf16, #shared, mutable> -> !tessera_gpu.memdesc<4x8xf16, #shared, mutable>
  %v = tessera_gpu.local_load %a : !tessera_gpu.memdesc<4x8xf16, #shared> -> tensor<4x8xf16, #blocked>
  tessera_gpu.local_store %v, %s : tensor<4x8xf16, #blocked> -> !tessera_gpu.memdesc<4x8xf16, #shared, mutable>
  %t = tessera_gpu.memdesc_trans %s {order = array<i32: 1, 0>} : !tessera_gpu.memdesc<4x8xf16, #shared, mutable> -> !tessera_gpu.memdesc<8x4xf16, #shared, mutable>
  tessera_gpu.barrier
  tessera_gpu.local_dealloc %m : !tessera_gpu.memdesc<2x4x8xf16, #shared, mutable>
  return %v : tensor<4x8xf16, #blocked>
}

// Asynchronous copies happen at once, under the mask; tokens are dummies.
// CHECK-LABEL: func @async_copy
// CHECK: %[[BUF:.*]] = memref.alloc() : memref<4x8xf16>
// CHECK: scf.for
// CHECK: scf.for
// CHECK: %[[V:.*]] = scf.if %{{.*}} -> (f16) {
// CHECK: llvm.load
// CHECK: } else {
// CHECK: tensor.extract
// CHECK: memref.store %[[V]]
// CHECK-NOT: async
// CHECK: memref.load
func.func @async_copy(%p: tensor<4x8x!tessera.ptr<f16>, #blocked>, %m: tensor<4x8xi1, #blocked>, %o: tensor<4x8xf16, #blocked>) -> tensor<4x8xf16, #blocked> {
  %buf = tessera_gpu.local_alloc : () -> !tessera_gpu.memdesc<4x8xf16, #shared, mutable>
  %t = tessera_gpu.async_copy_global_to_local %p, %buf mask %m : tensor<4x8xi1, #blocked> other %o : tensor<4x8xf16, #blocked> : tensor<4x8x!tessera.ptr<f16>, #blocked> -> !tessera_gpu.memdesc<4x8xf16, #shared, mutable>
  %g = tessera_gpu.async_commit_group %t
  %w = tessera_gpu.async_wait %g {num = 0 : i32}
  %v = tessera_gpu.local_load %buf token %w : !tessera_gpu.memdesc<4x8xf16, #shared, mutable> -> tensor<4x8xf16, #blocked>
  return %v : tensor<4x8xf16, #blocked>
}
}
