// RUN: tessera-opt %s | FileCheck %s
// RUN: tessera-opt %s | tessera-opt | FileCheck %s
// RUN: tessera-opt %s --mlir-print-op-generic | tessera-opt | FileCheck %s
// Round trip of every tessera_gpu attribute, type and op.

// CHECK-DAG: #[[B:.*]] = #tessera_gpu.blocked<sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
// CHECK-DAG: #[[BC:.*]] = #tessera_gpu.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0], CTAsPerCGA = [2]>
// CHECK-DAG: #tessera_gpu.slice<dim = 1, parent = #[[B]]>
// CHECK-DAG: #tessera_gpu.dot_op<opIdx = 0, parent = #[[B]]>
// CHECK-DAG: #tessera_gpu.dot_op<opIdx = 1, parent = #[[B]], kWidth = 2>
// CHECK-DAG: #tessera_gpu.linear<register = {{\[\[}}0, 1], [0, 2]], lane = {{\[\[}}0, 4], [0, 8], [0, 16], [1, 0], [2, 0]], warp = {{\[\[}}4, 0], [8, 0]], block = []>
// CHECK-DAG: #tessera_gpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]>
// CHECK-DAG: #tessera_gpu.shared_linear<offset = {{\[\[}}0, 1], [0, 2], [1, 0]], block = []>
#blocked = #tessera_gpu.blocked<sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
#cluster = #tessera_gpu.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0], CTAsPerCGA = [2]>
#slice = #tessera_gpu.slice<dim = 1, parent = #blocked>
#a = #tessera_gpu.dot_op<opIdx = 0, parent = #blocked>
#b = #tessera_gpu.dot_op<opIdx = 1, parent = #blocked, kWidth = 2>
#linear = #tessera_gpu.linear<register = [[0, 1], [0, 2]], lane = [[0, 4], [0, 8], [0, 16], [1, 0], [2, 0]], warp = [[4, 0], [8, 0]], block = []>
#shared = #tessera_gpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]>
#shared_linear = #tessera_gpu.shared_linear<offset = [[0, 1], [0, 2], [1, 0]], block = []>

module attributes {tessera_gpu.num_warps = 4 : i32, tessera_gpu.threads_per_warp = 32 : i32} {

// CHECK-LABEL: func @layouts
func.func @layouts(%x: tensor<32x16xf32, #blocked>, %c: tensor<1024xf32, #cluster>, %a: tensor<32x8xf16, #a>, %b: tensor<8x16xf16, #b>, %l: tensor<16x32xf32, #linear>) -> tensor<32xf32, #slice> {
  // CHECK: tessera_gpu.convert_layout %{{.*}} : tensor<32x16xf32, #[[B]]> -> tensor<32x16xf32, #{{.*}}>
  %0 = tessera_gpu.convert_layout %x : tensor<32x16xf32, #blocked> -> tensor<32x16xf32, #tessera_gpu.linear<register = [[0, 1], [0, 2]], lane = [[0, 4], [0, 8], [1, 0], [2, 0], [4, 0]], warp = [[8, 0], [16, 0]], block = []>>
  %1 = tessera.reduce(%x) {axis = 1 : i32} : (tensor<32x16xf32, #blocked>) -> tensor<32xf32, #slice> {
  ^bb0(%p: f32, %q: f32):
    %s = arith.addf %p, %q : f32
    tessera.reduce.return %s : f32
  }
  return %1 : tensor<32xf32, #slice>
}

// CHECK-LABEL: func @shared_memory
func.func @shared_memory(%x: tensor<64x64xf16, #blocked>, %i: i32) {
  // CHECK: %[[A:.*]] = tessera_gpu.local_alloc %{{.*}} : (tensor<64x64xf16, #[[B]]>) -> !tessera_gpu.memdesc<64x64xf16, #{{.*}}>
  %0 = tessera_gpu.local_alloc %x : (tensor<64x64xf16, #blocked>) -> !tessera_gpu.memdesc<64x64xf16, #shared>
  // CHECK: tessera_gpu.local_load %[[A]] : !tessera_gpu.memdesc<64x64xf16, #{{.*}}> -> tensor<64x64xf16, #[[B]]>
  %1 = tessera_gpu.local_load %0 : !tessera_gpu.memdesc<64x64xf16, #shared> -> tensor<64x64xf16, #blocked>
  // CHECK: %[[M:.*]] = tessera_gpu.local_alloc : () -> !tessera_gpu.memdesc<2x64x64xf16, #{{.*}}, mutable>
  %2 = tessera_gpu.local_alloc : () -> !tessera_gpu.memdesc<2x64x64xf16, #shared, mutable>
  // CHECK: %[[S:.*]] = tessera_gpu.memdesc_index %[[M]][%{{.*}}] : !tessera_gpu.memdesc<2x64x64xf16, #{{.*}}, mutable> -> !tessera_gpu.memdesc<64x64xf16, #{{.*}}, mutable>
  %3 = tessera_gpu.memdesc_index %2[%i] : !tessera_gpu.memdesc<2x64x64xf16, #shared, mutable> -> !tessera_gpu.memdesc<64x64xf16, #shared, mutable>
  // CHECK: tessera_gpu.local_store %{{.*}}, %[[S]] : tensor<64x64xf16, #[[B]]> -> !tessera_gpu.memdesc<64x64xf16, #{{.*}}, mutable>
  tessera_gpu.local_store %1, %3 : tensor<64x64xf16, #blocked> -> !tessera_gpu.memdesc<64x64xf16, #shared, mutable>
  // CHECK: tessera_gpu.memdesc_trans %[[S]] {order = array<i32: 1, 0>}
  %4 = tessera_gpu.memdesc_trans %3 {order = array<i32: 1, 0>} : !tessera_gpu.memdesc<64x64xf16, #shared, mutable> -> !tessera_gpu.memdesc<64x64xf16, #shared, mutable>
  %5 = tessera_gpu.local_alloc : () -> !tessera_gpu.memdesc<4x8xf32, #shared_linear, mutable>
  // CHECK: tessera_gpu.local_dealloc %[[M]]
  tessera_gpu.local_dealloc %2 : !tessera_gpu.memdesc<2x64x64xf16, #shared, mutable>
  return
}

// CHECK-LABEL: func @async
func.func @async(%p: tensor<64x64x!tessera.ptr<f16>, #blocked>, %m: tensor<64x64xi1, #blocked>, %o: tensor<64x64xf16, #blocked>) {
  %buf = tessera_gpu.local_alloc : () -> !tessera_gpu.memdesc<64x64xf16, #shared, mutable>
  // CHECK: %[[T:.*]] = tessera_gpu.async_copy_global_to_local %{{.*}}, %{{.*}} mask %{{.*}} : tensor<64x64xi1, #[[B]]> other %{{.*}} : tensor<64x64xf16, #[[B]]> {cache = #tessera<cache cg>} : tensor<64x64x!tessera.ptr<f16>, #[[B]]> -> !tessera_gpu.memdesc<64x64xf16, #{{.*}}, mutable>
  %t = tessera_gpu.async_copy_global_to_local %p, %buf mask %m : tensor<64x64xi1, #blocked> other %o : tensor<64x64xf16, #blocked> {cache = #tessera<cache cg>} : tensor<64x64x!tessera.ptr<f16>, #blocked> -> !tessera_gpu.memdesc<64x64xf16, #shared, mutable>
  // CHECK: %[[G:.*]] = tessera_gpu.async_commit_group %[[T]]
  %g = tessera_gpu.async_commit_group %t
  // CHECK: %[[W:.*]] = tessera_gpu.async_wait %[[G]] {num = 0 : i32}
  %w = tessera_gpu.async_wait %g {num = 0 : i32}
  // CHECK: tessera_gpu.local_load %{{.*}} token %[[W]]
  %v = tessera_gpu.local_load %buf token %w : !tessera_gpu.memdesc<64x64xf16, #shared, mutable> -> tensor<64x64xf16, #blocked>
  // CHECK: tessera_gpu.barrier
  tessera_gpu.barrier
  return
}

// CHECK-LABEL: func @warp_specialize
func.func @warp_specialize(%a: i32, %p: !tessera.ptr<i32>) -> i32 {
  // CHECK: %{{.*}} = tessera_gpu.warp_specialize(%{{.*}}, %{{.*}}) attributes {requestedRegisters = array<i32: 24, 232>}
  // CHECK-NEXT: default {
  // CHECK: tessera_gpu.warp_yield %{{.*}} : i32
  // CHECK: partition0(%{{.*}}: i32, %{{.*}}: !tessera.ptr<i32>) num_warps(1) {
  // CHECK: tessera_gpu.warp_return
  // CHECK: partition1(%{{.*}}: i32, %{{.*}}: !tessera.ptr<i32>) num_warps(4) {
  // CHECK: } : (i32, !tessera.ptr<i32>) -> i32
  %r = tessera_gpu.warp_specialize(%a, %p) attributes {requestedRegisters = array<i32: 24, 232>}
  default {
    %c = arith.addi %a, %a : i32
    tessera_gpu.warp_yield %c : i32
  }
  partition0(%x: i32, %q: !tessera.ptr<i32>) num_warps(1) {
    tessera.store %q, %x : !tessera.ptr<i32>
    tessera_gpu.warp_return
  }
  partition1(%x: i32, %q: !tessera.ptr<i32>) num_warps(4) {
    tessera_gpu.warp_return
  } : (i32, !tessera.ptr<i32>) -> i32
  return %r : i32
}

}

#word = #tessera_gpu.shared<vec = 1, perPhase = 1, maxPhase = 1, order = [0]>

// A tensor map the kernel writes: staged in 128 bytes of shared memory,
// copied to a global slot.
// CHECK-LABEL: func @kernel_made_map
// CHECK: %[[MAP:.*]] = tessera_gpu.make_tensor_map %{{.*}}, %{{.*}}, %{{.*}} {box = array<i32: 64, 32>, dataType = 1 : i32, nanFill = false, swizzle = 2 : i32} : !tessera.ptr<i8>, !tessera.tensordesc<tensor<64x32xf16>>, !tessera_gpu.memdesc<128xi8
// CHECK: tessera_gpu.async_tensor_store %[[MAP]]
func.func @kernel_made_map(%slot: !tessera.ptr<i8>, %desc: !tessera.tensordesc<tensor<64x32xf16>>, %i: i32) {
  %stage = tessera_gpu.local_alloc : () -> !tessera_gpu.memdesc<128xi8, #word, mutable>
  %buf = tessera_gpu.local_alloc : () -> !tessera_gpu.memdesc<64x32xf16, #shared, mutable>
  %map = tessera_gpu.make_tensor_map %slot, %desc, %stage {box = array<i32: 64, 32>, dataType = 1 : i32, nanFill = false, swizzle = 2 : i32} : !tessera.ptr<i8>, !tessera.tensordesc<tensor<64x32xf16>>, !tessera_gpu.memdesc<128xi8, #word, mutable>
  tessera_gpu.async_tensor_store %map[%i, %i], %buf : !tessera_gpu.memdesc<64x32xf16, #shared, mutable>
  return
}

// CHECK-LABEL: func @tensor_copies
// CHECK-SAME: %[[MAP:.*]]: !tessera_gpu.tensor_map
func.func @tensor_copies(%map: !tessera_gpu.tensor_map, %i: i32, %j: i32) {
  %buf = tessera_gpu.local_alloc : () -> !tessera_gpu.memdesc<64x64xf16, #shared, mutable>
  %bar = tessera_gpu.local_alloc : () -> !tessera_gpu.memdesc<1xi64, #word, mutable>
  // CHECK: tessera_gpu.init_barrier %[[BAR:.*]] {count = 128 : i32} : !tessera_gpu.memdesc<1xi64
  tessera_gpu.init_barrier %bar {count = 128 : i32} : !tessera_gpu.memdesc<1xi64, #word, mutable>
  // CHECK: %[[TOK:.*]] = tessera_gpu.async_tensor_load %[[MAP]][%{{.*}}, %{{.*}}], %[[BUF:.*]], %[[BAR]] : !tessera_gpu.memdesc<64x64xf16
  %t = tessera_gpu.async_tensor_load %map[%i, %j], %buf, %bar : !tessera_gpu.memdesc<64x64xf16, #shared, mutable>, !tessera_gpu.memdesc<1xi64, #word, mutable> -> i64
  // CHECK: tessera_gpu.wait_barrier %[[BAR]], %[[TOK]]
  tessera_gpu.wait_barrier %bar, %t : !tessera_gpu.memdesc<1xi64, #word, mutable>, i64
  // Without a token: waited for by the phase's parity, then invalidated.
  // CHECK: tessera_gpu.async_tensor_load %[[MAP]][%{{.*}}, %{{.*}}], %[[BUF]], %[[BAR]] : !tessera_gpu.memdesc<64x64xf16, #{{.*}}, mutable>, !tessera_gpu.memdesc<1xi64, #{{.*}}, mutable>{{$}}
  tessera_gpu.async_tensor_load %map[%i, %j], %buf, %bar : !tessera_gpu.memdesc<64x64xf16, #shared, mutable>, !tessera_gpu.memdesc<1xi64, #word, mutable>
  // CHECK: %[[P:.*]] = arith.cmpi
  // CHECK-NEXT: tessera_gpu.async_tensor_load %[[MAP]][%{{.*}}, %{{.*}}], %[[BUF]], %[[BAR]] if %[[P]] : !tessera_gpu.memdesc<64x64xf16
  %p = arith.cmpi slt, %i, %j : i32
  tessera_gpu.async_tensor_load %map[%i, %j], %buf, %bar if %p : !tessera_gpu.memdesc<64x64xf16, #shared, mutable>, !tessera_gpu.memdesc<1xi64, #word, mutable>
  // CHECK: tessera_gpu.wait_barrier %[[BAR]], %{{.*}} : !tessera_gpu.memdesc<1xi64, #{{.*}}, mutable>, i32
  tessera_gpu.wait_barrier %bar, %i : !tessera_gpu.memdesc<1xi64, #word, mutable>, i32
  // CHECK: tessera_gpu.inval_barrier %[[BAR]] : !tessera_gpu.memdesc<1xi64
  tessera_gpu.inval_barrier %bar : !tessera_gpu.memdesc<1xi64, #word, mutable>
  // CHECK: tessera_gpu.async_tensor_store %[[MAP]][%{{.*}}, %{{.*}}], %[[BUF]]
  tessera_gpu.async_tensor_store %map[%i, %j], %buf : !tessera_gpu.memdesc<64x64xf16, #shared, mutable>
  // CHECK: tessera_gpu.wait_tensor_stores %[[BUF]], %[[BUF]] : !tessera_gpu.memdesc<64x64xf16, #shared, mutable>, !tessera_gpu.memdesc<64x64xf16
  tessera_gpu.wait_tensor_stores %buf, %buf : !tessera_gpu.memdesc<64x64xf16, #shared, mutable>, !tessera_gpu.memdesc<64x64xf16, #shared, mutable>
  // CHECK: tessera_gpu.wait_tensor_stores %[[BUF]] : !tessera_gpu.memdesc<64x64xf16, #{{.*}}, mutable> {pending = 1 : i32}
  tessera_gpu.wait_tensor_stores %buf : !tessera_gpu.memdesc<64x64xf16, #shared, mutable> {pending = 1 : i32}
  // CHECK: tessera_gpu.wait_tensor_stores{{$}}
  tessera_gpu.wait_tensor_stores
  return
}
