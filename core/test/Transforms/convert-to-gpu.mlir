// RUN: tessera-opt %s --split-input-file --tessera-convert-to-gpu="num-warps=4 threads-per-warp=32 target=test" | FileCheck %s
// RUN: tessera-opt %s --split-input-file --tessera-convert-to-gpu="num-warps=2 threads-per-warp=8" | FileCheck %s --check-prefix=SMALL

// Every tensor gets the default blocked layout of its shape; the launch shape
// becomes module attributes.
// CHECK: #[[B1:.*]] = #tessera_gpu.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
// CHECK: module attributes {tessera_gpu.num_ctas = 1 : i32, tessera_gpu.num_warps = 4 : i32, tessera_gpu.target = "test", tessera_gpu.threads_per_warp = 32 : i32}
// CHECK-LABEL: func @vector_add
// CHECK: tessera.make_range {{.*}} : tensor<1024xi32, #[[B1]]>
// CHECK: tessera.load {{.*}} : tensor<1024x!tessera.ptr<f32>, #[[B1]]>
// CHECK: arith.addf {{.*}} : tensor<1024xf32, #[[B1]]>
// CHECK: tessera.store
// CHECK-NOT: tessera_gpu.convert_layout
// SMALL: #tessera_gpu.blocked<sizePerThread = [1], threadsPerWarp = [8], warpsPerCTA = [2], order = [0]>
// SMALL: tessera_gpu.num_warps = 2 : i32, tessera_gpu.threads_per_warp = 8 : i32
func.func @vector_add(%x: !tessera.ptr<f32>, %o: !tessera.ptr<f32>, %n: i32) {
  %pid = tessera.program_id x : i32
  %r = tessera.make_range {start = 0 : i32, end = 1024 : i32} : tensor<1024xi32>
  %ns = tessera.splat %n : tensor<1024xi32>
  %mask = arith.cmpi slt, %r, %ns : tensor<1024xi32>
  %xp = tessera.splat %x : tensor<1024x!tessera.ptr<f32>>
  %xa = tessera.addptr %xp, %r : tensor<1024x!tessera.ptr<f32>>, tensor<1024xi32>
  %xv = tessera.load %xa, %mask : tensor<1024x!tessera.ptr<f32>>
  %sum = arith.addf %xv, %xv : tensor<1024xf32>
  %op = tessera.splat %o : tensor<1024x!tessera.ptr<f32>>
  %oa = tessera.addptr %op, %r : tensor<1024x!tessera.ptr<f32>>, tensor<1024xi32>
  tessera.store %oa, %sum, %mask : tensor<1024x!tessera.ptr<f32>>
  return
}

// -----

// A reduction's result is the slice of its operand's layout; expand_dims
// takes its operand in the slice of its result's layout.
// CHECK-DAG: #[[P:.*]] = #tessera_gpu.blocked<sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
// CHECK-DAG: #[[COL:.*]] = #tessera_gpu.blocked<sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]>
// CHECK-DAG: #[[S:.*]] = #tessera_gpu.slice<dim = 1, parent = #[[P]]>
// CHECK-DAG: #[[S2:.*]] = #tessera_gpu.slice<dim = 1, parent = #[[COL]]>
// CHECK-LABEL: func @reduce_expand
// CHECK: %[[R:.*]] = tessera.reduce(%{{.*}}) {axis = 1 : i32} : (tensor<16x8xf32, #[[P]]>) -> tensor<16xf32, #[[S]]>
// CHECK: %[[C:.*]] = tessera_gpu.convert_layout %{{.*}} -> tensor<16xf32, #[[S2]]>
// CHECK: tessera.expand_dims %[[C]] {axis = 1 : i32} : tensor<16xf32, #[[S2]]> -> tensor<16x1xf32, #[[COL]]>
func.func @reduce_expand(%x: tensor<16x8xf32>) -> tensor<16x1xf32> {
  %r = tessera.reduce(%x) {axis = 1 : i32} : (tensor<16x8xf32>) -> tensor<16xf32> {
  ^bb0(%a: f32, %b: f32):
    %m = arith.maximumf %a, %b : f32
    tessera.reduce.return %m : f32
  }
  %e = tessera.expand_dims %r {axis = 1 : i32} : tensor<16xf32> -> tensor<16x1xf32>
  return %e : tensor<16x1xf32>
}

// -----

// Broadcast keeps the layout; the operand is converted to the result's
// layout applied to its own shape.
// CHECK-DAG: #[[B:.*]] = #tessera_gpu.blocked<sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
// CHECK-LABEL: func @broadcast
// CHECK: %[[C:.*]] = tessera_gpu.convert_layout %{{.*}} -> tensor<16x1xf32, #[[B]]>
// CHECK: tessera.broadcast %[[C]] : tensor<16x1xf32, #[[B]]> -> tensor<16x8xf32, #[[B]]>
func.func @broadcast(%x: tensor<16x1xf32>) -> tensor<16x8xf32> {
  %b = tessera.broadcast %x : tensor<16x1xf32> -> tensor<16x8xf32>
  return %b : tensor<16x8xf32>
}

// -----

// An FMA dot: operands take dot-operand layouts of the result's.
// CHECK-DAG: #[[C:.*]] = #tessera_gpu.blocked<sizePerThread = [1, 1], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]>
// CHECK-DAG: #[[A:.*]] = #tessera_gpu.dot_op<opIdx = 0, parent = #[[C]]>
// CHECK-DAG: #[[B:.*]] = #tessera_gpu.dot_op<opIdx = 1, parent = #[[C]]>
// CHECK-LABEL: func @dot
// CHECK: tessera.dot %{{.*}}, %{{.*}}, %{{.*}} : tensor<16x32xf16, #[[A]]> * tensor<32x16xf16, #[[B]]> -> tensor<16x16xf32, #[[C]]>
func.func @dot(%a: tensor<16x32xf16>, %b: tensor<32x16xf16>, %c: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %d = tessera.dot %a, %b, %c : tensor<16x32xf16> * tensor<32x16xf16> -> tensor<16x16xf32>
  return %d : tensor<16x16xf32>
}

// -----

// Transposes, reshapes, joins and concatenations relabel the operand's
// layout without moving data; split first gathers the pair in registers.
// CHECK-DAG: #[[B:.*]] = #tessera_gpu.blocked<sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
// CHECK-DAG: #[[T:.*]] = #tessera_gpu.blocked<sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]>
// CHECK-DAG: #[[J:.*]] = #tessera_gpu.linear<register = {{\[\[}}0, 0, 1]], lane = {{\[\[}}0, 1, 0], [0, 2, 0], [0, 4, 0], [1, 0, 0], [2, 0, 0]], warp = {{\[\[}}4, 0, 0], [8, 0, 0]], block = []>
// CHECK-DAG: #[[PAIR:.*]] = #tessera_gpu.blocked<sizePerThread = [1, 1, 2], threadsPerWarp = [4, 8, 1], warpsPerCTA = [4, 1, 1], order = [2, 1, 0]>
// CHECK-DAG: #[[FLAT:.*]] = #tessera_gpu.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
// CHECK-LABEL: func @relabel
// CHECK: tessera.trans %{{.*}} {order = array<i32: 1, 0>} : tensor<16x8xf32, #[[B]]> -> tensor<8x16xf32, #[[T]]>
// CHECK: tessera.join %{{.*}}, %{{.*}} : tensor<16x8xf32, #[[B]]> -> tensor<16x8x2xf32, #[[J]]>
// CHECK: tessera.split %{{.*}} : tensor<16x8x2xf32, #[[PAIR]]> -> tensor<16x8xf32, #[[B]]>
// CHECK: tessera.cat %{{.*}}, %{{.*}} : tensor<16x8xf32, #[[B]]> -> tensor<32x8xf32, #[[B]]>
// CHECK: tessera.reshape %{{.*}} : tensor<16x8xf32, #[[B]]> -> tensor<128xf32, #[[FLAT]]>
func.func @relabel(%x: tensor<16x8xf32>) -> (tensor<8x16xf32>, tensor<16x8xf32>, tensor<32x8xf32>, tensor<128xf32>) {
  %t = tessera.trans %x {order = array<i32: 1, 0>} : tensor<16x8xf32> -> tensor<8x16xf32>
  %j = tessera.join %x, %x : tensor<16x8xf32> -> tensor<16x8x2xf32>
  %s:2 = tessera.split %j : tensor<16x8x2xf32> -> tensor<16x8xf32>
  %c = tessera.cat %x, %x : tensor<16x8xf32> -> tensor<32x8xf32>
  %r = tessera.reshape %x : tensor<16x8xf32> -> tensor<128xf32>
  return %t, %s#0, %c, %r : tensor<8x16xf32>, tensor<16x8xf32>, tensor<32x8xf32>, tensor<128xf32>
}

// -----

// Loop-carried tensors take the default layout too.
// CHECK-DAG: #[[B:.*]] = #tessera_gpu.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
// CHECK-LABEL: func @loop
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}) -> (tensor<64xf32, #[[B]]>)
// CHECK: scf.yield %{{.*}} : tensor<64xf32, #[[B]]>
func.func @loop(%x: tensor<64xf32>, %n: index) -> tensor<64xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> (tensor<64xf32>) {
    %s = arith.addf %acc, %x : tensor<64xf32>
    scf.yield %s : tensor<64xf32>
  }
  return %r : tensor<64xf32>
}

// -----

// A tensor constant's value takes the layout of its type too (splats of
// constants fold into them before conversion).
// CHECK-DAG: #[[B:.*]] = #tessera_gpu.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
// CHECK-LABEL: func @constants
// CHECK: arith.constant dense<2.000000e+00> : tensor<64xf32, #[[B]]>
// CHECK: arith.constant dense<[0, 1, 2, 3]> : tensor<4xi32, #{{.*}}>
func.func @constants(%x: tensor<64xf32>) -> (tensor<64xf32>, tensor<4xi32>) {
  %c = arith.constant 2.0 : f32
  %s = tessera.splat %c : tensor<64xf32>
  %y = arith.mulf %x, %s : tensor<64xf32>
  %r = arith.constant dense<[0, 1, 2, 3]> : tensor<4xi32>
  return %y, %r : tensor<64xf32>, tensor<4xi32>
}

// -----

// A block pointer's tile takes the layout its loads yield, through loops
// that advance it, so that every load still yields what its pointer points
// to.
// CHECK: #[[BP:.*]] = #tessera_gpu.blocked<sizePerThread = [1, 1], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]>
// CHECK-LABEL: func @block_pointer
// CHECK: tessera.make_block_ptr {{.*}} -> !tessera.ptr<tensor<8x16xf32, #[[BP]]>>
// CHECK: scf.for {{.*}} -> (!tessera.ptr<tensor<8x16xf32, #[[BP]]>>)
// CHECK: tessera.advance {{.*}} : !tessera.ptr<tensor<8x16xf32, #[[BP]]>>
// CHECK: tessera.load {{.*}} : !tessera.ptr<tensor<8x16xf32, #[[BP]]>>
// CHECK: tessera.store {{.*}} : !tessera.ptr<tensor<8x16xf32, #[[BP]]>>
func.func @block_pointer(%p: !tessera.ptr<f32>, %m: i64, %k: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i64
  %b = tessera.make_block_ptr %p, [%m, %m], [%m, %c1], [%c0, %c0] {order = array<i32: 1, 0>} : !tessera.ptr<f32> -> !tessera.ptr<tensor<8x16xf32>>
  %lb = arith.constant 0 : index
  %ub = arith.constant 4 : index
  %st = arith.constant 1 : index
  %r = scf.for %i = %lb to %ub step %st iter_args(%it = %b) -> (!tessera.ptr<tensor<8x16xf32>>) {
    %a = tessera.advance %it, [%k, %c0] : !tessera.ptr<tensor<8x16xf32>>
    scf.yield %a : !tessera.ptr<tensor<8x16xf32>>
  }
  %v = tessera.load %r {boundaryCheck = array<i32: 0>} : !tessera.ptr<tensor<8x16xf32>>
  %w = arith.addf %v, %v : tensor<8x16xf32>
  tessera.store %r, %w : !tessera.ptr<tensor<8x16xf32>>
  return
}
