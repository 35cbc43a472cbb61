// RUN: tessera-opt %s --verify-each --tessera-remove-layout-conversions | FileCheck %s
//
// Ops that relabel a layout without moving data (trans, reshape, join,
// split, cat, expand_dims) carry the loads' layouts through to the stores.

#d = #tessera_gpu.blocked<sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
#dt = #tessera_gpu.blocked<sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]>
#l = #tessera_gpu.blocked<sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
#lt = #tessera_gpu.blocked<sizePerThread = [4, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]>
#rows = #tessera_gpu.blocked<sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]>
#rowsd = #tessera_gpu.blocked<sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0]>
#flat = #tessera_gpu.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
#fl = #tessera_gpu.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
#j = #tessera_gpu.linear<register = [[0, 0, 1]], lane = [[0, 1, 0], [0, 2, 0], [0, 4, 0], [1, 0, 0], [2, 0, 0]], warp = [[4, 0, 0], [8, 0, 0]], block = []>
#pair = #tessera_gpu.blocked<sizePerThread = [1, 1, 2], threadsPerWarp = [4, 8, 1], warpsPerCTA = [4, 1, 1], order = [2, 1, 0]>
#s0 = #tessera_gpu.slice<dim = 0, parent = #rowsd>
#row = #tessera_gpu.blocked<sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0]>

// CHECK-DAG: #[[L:.*]] = #tessera_gpu.blocked<sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
// CHECK-DAG: #[[LT:.*]] = #tessera_gpu.blocked<sizePerThread = [4, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]>
// CHECK-DAG: #[[ROWS:.*]] = #tessera_gpu.blocked<sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]>
// CHECK-DAG: #[[ROW:.*]] = #tessera_gpu.blocked<sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0]>
// CHECK-DAG: #[[FL:.*]] = #tessera_gpu.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
module attributes {tessera_gpu.num_ctas = 1 : i32, tessera_gpu.num_warps = 4 : i32, tessera_gpu.threads_per_warp = 32 : i32} {

// The transpose of the load's layout is the transposed store's.
// CHECK-LABEL: func.func @trans
// CHECK-NOT: tessera_gpu.convert_layout
// CHECK: %[[X:.*]] = tessera.load %{{.*}} : tensor<16x32x!tessera.ptr<f32>, #[[L]]>
// CHECK-NEXT: %[[T:.*]] = tessera.trans %[[X]] {order = array<i32: 1, 0>} : tensor<16x32xf32, #[[L]]> -> tensor<32x16xf32, #[[LT]]>
// CHECK-NEXT: tessera.store %{{.*}}, %[[T]] : tensor<32x16x!tessera.ptr<f32>, #[[LT]]>
func.func @trans(%px: tensor<16x32x!tessera.ptr<f32>, #l>, %po: tensor<32x16x!tessera.ptr<f32>, #lt>) {
  %x = tessera.load %px : tensor<16x32x!tessera.ptr<f32>, #l>
  %xd = tessera_gpu.convert_layout %x : tensor<16x32xf32, #l> -> tensor<16x32xf32, #d>
  %t = tessera.trans %xd {order = array<i32: 1, 0>} : tensor<16x32xf32, #d> -> tensor<32x16xf32, #dt>
  %tl = tessera_gpu.convert_layout %t : tensor<32x16xf32, #dt> -> tensor<32x16xf32, #lt>
  tessera.store %po, %tl : tensor<32x16x!tessera.ptr<f32>, #lt>
  return
}

// Rows of 128 elements, four per thread, flattened: each thread keeps its
// registers, which is how the flat store is coalesced.
// CHECK-LABEL: func.func @reshape
// CHECK-NOT: tessera_gpu.convert_layout
// CHECK: %[[X:.*]] = tessera.load %{{.*}} : tensor<4x128x!tessera.ptr<f32>, #[[ROWS]]>
// CHECK-NEXT: %[[R:.*]] = tessera.reshape %[[X]] : tensor<4x128xf32, #[[ROWS]]> -> tensor<512xf32, #[[FL]]>
// CHECK-NEXT: tessera.store %{{.*}}, %[[R]] : tensor<512x!tessera.ptr<f32>, #[[FL]]>
func.func @reshape(%px: tensor<4x128x!tessera.ptr<f32>, #rows>, %po: tensor<512x!tessera.ptr<f32>, #fl>) {
  %x = tessera.load %px : tensor<4x128x!tessera.ptr<f32>, #rows>
  %xd = tessera_gpu.convert_layout %x : tensor<4x128xf32, #rows> -> tensor<4x128xf32, #rowsd>
  %r = tessera.reshape %xd : tensor<4x128xf32, #rowsd> -> tensor<512xf32, #flat>
  %rl = tessera_gpu.convert_layout %r : tensor<512xf32, #flat> -> tensor<512xf32, #fl>
  tessera.store %po, %rl : tensor<512x!tessera.ptr<f32>, #fl>
  return
}

// join puts the pair in a register, split takes it out again: with the pair
// in the highest register, split needs no gathering first.
// CHECK-LABEL: func.func @join_split
// CHECK-NOT: tessera_gpu.convert_layout
// CHECK: %[[X:.*]] = tessera.load %{{.*}} : tensor<16x8x!tessera.ptr<f32>, #[[L]]>
// CHECK-NEXT: %[[J:.*]] = tessera.join %[[X]], %[[X]] : tensor<16x8xf32, #[[L]]> -> tensor<16x8x2xf32, #[[JL:.*]]>
// CHECK-NEXT: %[[A:.*]], %[[B:.*]] = tessera.split %[[J]] : tensor<16x8x2xf32, #[[JL]]> -> tensor<16x8xf32, #[[L]]>
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[A]], %[[B]] : tensor<16x8xf32, #[[L]]>
// CHECK-NEXT: tessera.store %{{.*}}, %[[S]] : tensor<16x8x!tessera.ptr<f32>, #[[L]]>
func.func @join_split(%px: tensor<16x8x!tessera.ptr<f32>, #l>, %po: tensor<16x8x!tessera.ptr<f32>, #l>) {
  %x = tessera.load %px : tensor<16x8x!tessera.ptr<f32>, #l>
  %xd = tessera_gpu.convert_layout %x : tensor<16x8xf32, #l> -> tensor<16x8xf32, #d>
  %j = tessera.join %xd, %xd : tensor<16x8xf32, #d> -> tensor<16x8x2xf32, #j>
  %jp = tessera_gpu.convert_layout %j : tensor<16x8x2xf32, #j> -> tensor<16x8x2xf32, #pair>
  %s:2 = tessera.split %jp : tensor<16x8x2xf32, #pair> -> tensor<16x8xf32, #d>
  %a = arith.addf %s#0, %s#1 : tensor<16x8xf32, #d>
  %al = tessera_gpu.convert_layout %a : tensor<16x8xf32, #d> -> tensor<16x8xf32, #l>
  tessera.store %po, %al : tensor<16x8x!tessera.ptr<f32>, #l>
  return
}

// cat stacks the second operand in the registers above the first. The
// stacked layout is not the store's, so one conversion of the 32x32 result
// remains (before or after the exp, which costs the same), and none of the
// operands.
// CHECK-LABEL: func.func @cat
// CHECK: %[[X:.*]] = tessera.load %{{.*}} : tensor<16x32x!tessera.ptr<f32>, #[[L]]>
// CHECK-NEXT: %[[Y:.*]] = tessera.load %{{.*}} : tensor<16x32x!tessera.ptr<f32>, #[[L]]>
// CHECK-NEXT: tessera.cat %[[X]], %[[Y]] : tensor<16x32xf32, #[[L]]> -> tensor<32x32xf32, #[[CL:.*]]>
// CHECK-COUNT-1: tessera_gpu.convert_layout %{{.*}} : tensor<32x32xf32, #[[CL]]> -> tensor<32x32xf32, #[[L]]>
// CHECK-NOT: tessera_gpu.convert_layout
// CHECK: tessera.store %{{.*}} : tensor<32x32x!tessera.ptr<f32>, #[[L]]>
func.func @cat(%px: tensor<16x32x!tessera.ptr<f32>, #l>, %py: tensor<16x32x!tessera.ptr<f32>, #l>, %po: tensor<32x32x!tessera.ptr<f32>, #l>) {
  %x = tessera.load %px : tensor<16x32x!tessera.ptr<f32>, #l>
  %y = tessera.load %py : tensor<16x32x!tessera.ptr<f32>, #l>
  %xd = tessera_gpu.convert_layout %x : tensor<16x32xf32, #l> -> tensor<16x32xf32, #d>
  %yd = tessera_gpu.convert_layout %y : tensor<16x32xf32, #l> -> tensor<16x32xf32, #d>
  %c = tessera.cat %xd, %yd : tensor<16x32xf32, #d> -> tensor<32x32xf32, #d>
  %e = math.exp %c : tensor<32x32xf32, #d>
  %el = tessera_gpu.convert_layout %e : tensor<32x32xf32, #d> -> tensor<32x32xf32, #l>
  tessera.store %po, %el : tensor<32x32x!tessera.ptr<f32>, #l>
  return
}

// A 1-D load expanded into a row: expand_dims of a layout that is not a
// slice inserts a dimension of size 1 into its LinearLayout, here the
// blocked layout the 2-D store uses.
// CHECK-LABEL: func.func @expand_load
// CHECK-NOT: tessera_gpu.convert_layout
// CHECK: %[[X:.*]] = tessera.load %{{.*}} : tensor<512x!tessera.ptr<f32>, #[[FL]]>
// CHECK-NEXT: %[[E:.*]] = tessera.expand_dims %[[X]] {axis = 0 : i32} : tensor<512xf32, #[[FL]]> -> tensor<1x512xf32, #[[ROW]]>
// CHECK-NEXT: tessera.store %{{.*}}, %[[E]] : tensor<1x512x!tessera.ptr<f32>, #[[ROW]]>
func.func @expand_load(%px: tensor<512x!tessera.ptr<f32>, #fl>, %po: tensor<1x512x!tessera.ptr<f32>, #row>) {
  %x = tessera.load %px : tensor<512x!tessera.ptr<f32>, #fl>
  %xd = tessera_gpu.convert_layout %x : tensor<512xf32, #fl> -> tensor<512xf32, #s0>
  %e = tessera.expand_dims %xd {axis = 0 : i32} : tensor<512xf32, #s0> -> tensor<1x512xf32, #rowsd>
  %el = tessera_gpu.convert_layout %e : tensor<1x512xf32, #rowsd> -> tensor<1x512xf32, #row>
  tessera.store %po, %el : tensor<1x512x!tessera.ptr<f32>, #row>
  return
}
}
