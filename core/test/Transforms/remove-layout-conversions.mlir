// RUN: tessera-opt %s --split-input-file --verify-each --tessera-remove-layout-conversions | FileCheck %s
// The pass is idempotent: a second run changes nothing.
// RUN: tessera-opt %s --split-input-file --tessera-remove-layout-conversions -o %t.once
// RUN: tessera-opt %t.once --split-input-file --tessera-remove-layout-conversions | diff %t.once -
// RUN: tessera-opt %S/Inputs/vector-add-coalesced.mlir --verify-each --tessera-remove-layout-conversions | FileCheck %s --check-prefix=VADD
//
// The inputs are what convert-to-gpu and coalescing leave: memory accesses in
// the layouts coalescing chose, everything else in the default blocked layout
// of its shape, conversions in between.

// Vector add: the loads' layout flows forward through the add into the store,
// which wants the same layout, and the pointer arithmetic is computed in that
// layout from the start. No conversion is left.
// VADD-DAG: #[[L:.*]] = #tessera_gpu.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
// VADD-LABEL: func.func @add_kernel
// VADD-NOT: tessera_gpu.convert_layout
// VADD: %[[R:.*]] = tessera.make_range {{.*}} : tensor<1024xi32, #[[L]]>
// VADD: %[[OFF:.*]] = arith.addi %{{.*}}, %[[R]] : tensor<1024xi32, #[[L]]>
// VADD: %[[MASK:.*]] = arith.cmpi slt, %[[OFF]], %{{.*}} : tensor<1024xi32, #[[L]]>
// VADD: %[[XA:.*]] = tessera.addptr %{{.*}}, %[[OFF]] : tensor<1024x!tessera.ptr<f32>, #[[L]]>
// VADD: %[[X:.*]] = tessera.load %[[XA]], %[[MASK]] : tensor<1024x!tessera.ptr<f32>, #[[L]]>
// VADD: %[[Y:.*]] = tessera.load
// VADD: %[[SUM:.*]] = arith.addf %[[X]], %[[Y]] : tensor<1024xf32, #[[L]]>
// VADD: tessera.store %{{.*}}, %[[SUM]], %[[MASK]] : tensor<1024x!tessera.ptr<f32>, #[[L]]>
// VADD-NOT: tessera_gpu.convert_layout

// Softmax over rows: the row is loaded in L; the max, the subtraction of the
// broadcast max, exp, the sum and the division all run in L (reductions in
// its slice) and the store takes L. Nothing on the row's path is converted.
// CHECK-DAG: #[[L:.*]] = #tessera_gpu.blocked<sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]>
// CHECK-DAG: #[[RED:.*]] = #tessera_gpu.slice<dim = 1, parent = #[[L]]>
// CHECK-LABEL: func.func @softmax
// CHECK-NOT: tessera_gpu.convert_layout
// CHECK: %[[X:.*]] = tessera.load %{{.*}} : tensor<16x256x!tessera.ptr<f32>, #[[L]]>
// CHECK: %[[MAX:.*]] = tessera.reduce(%[[X]]) {axis = 1 : i32} : (tensor<16x256xf32, #[[L]]>) -> tensor<16xf32, #[[RED]]>
// CHECK: %[[ME:.*]] = tessera.expand_dims %[[MAX]] {axis = 1 : i32} : tensor<16xf32, #[[RED]]> -> tensor<16x1xf32, #[[L]]>
// CHECK: %[[MB:.*]] = tessera.broadcast %[[ME]] : tensor<16x1xf32, #[[L]]> -> tensor<16x256xf32, #[[L]]>
// CHECK: %[[XS:.*]] = arith.subf %[[X]], %[[MB]] : tensor<16x256xf32, #[[L]]>
// CHECK: %[[E:.*]] = math.exp %[[XS]] : tensor<16x256xf32, #[[L]]>
// CHECK: tessera.reduce(%[[E]]) {axis = 1 : i32} : (tensor<16x256xf32, #[[L]]>) -> tensor<16xf32, #[[RED]]>
// CHECK: %[[Y:.*]] = arith.divf %[[E]], %{{.*}} : tensor<16x256xf32, #[[L]]>
// CHECK: tessera.store %{{.*}}, %[[Y]] : tensor<16x256x!tessera.ptr<f32>, #[[L]]>
// CHECK-NOT: tessera_gpu.convert_layout
#d1 = #tessera_gpu.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
#col = #tessera_gpu.blocked<sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]>
#d = #tessera_gpu.blocked<sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0]>
#colslice = #tessera_gpu.slice<dim = 1, parent = #col>
#l = #tessera_gpu.blocked<sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]>
#rows = #tessera_gpu.slice<dim = 0, parent = #d>
#red = #tessera_gpu.slice<dim = 1, parent = #d>
module attributes {tessera_gpu.num_ctas = 1 : i32, tessera_gpu.num_warps = 4 : i32, tessera_gpu.threads_per_warp = 32 : i32} {
  func.func @softmax(%arg0: !tessera.ptr<f32>, %arg1: !tessera.ptr<f32>) {
    %0 = tessera.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32, #d1>
    %1 = tessera.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32, #d1>
    %2 = tessera_gpu.convert_layout %0 : tensor<16xi32, #d1> -> tensor<16xi32, #colslice>
    %3 = tessera.expand_dims %2 {axis = 1 : i32} : tensor<16xi32, #colslice> -> tensor<16x1xi32, #col>
    %c256_i32 = arith.constant 256 : i32
    %cst = arith.constant dense<256> : tensor<16x1xi32, #col>
    %4 = arith.muli %3, %cst : tensor<16x1xi32, #col>
    %5 = tessera_gpu.convert_layout %4 : tensor<16x1xi32, #col> -> tensor<16x1xi32, #d>
    %6 = tessera.broadcast %5 : tensor<16x1xi32, #d> -> tensor<16x256xi32, #d>
    %7 = tessera_gpu.convert_layout %1 : tensor<256xi32, #d1> -> tensor<256xi32, #rows>
    %8 = tessera.expand_dims %7 {axis = 0 : i32} : tensor<256xi32, #rows> -> tensor<1x256xi32, #d>
    %9 = tessera.broadcast %8 : tensor<1x256xi32, #d> -> tensor<16x256xi32, #d>
    %10 = arith.addi %6, %9 : tensor<16x256xi32, #d>
    %11 = tessera.splat %arg0 : tensor<16x256x!tessera.ptr<f32>, #d>
    %12 = tessera.addptr %11, %10 : tensor<16x256x!tessera.ptr<f32>, #d>, tensor<16x256xi32, #d>
    %p_l = tessera_gpu.convert_layout %12 : tensor<16x256x!tessera.ptr<f32>, #d> -> tensor<16x256x!tessera.ptr<f32>, #l>
    %x_l = tessera.load %p_l : tensor<16x256x!tessera.ptr<f32>, #l>
    %13 = tessera_gpu.convert_layout %x_l : tensor<16x256xf32, #l> -> tensor<16x256xf32, #d>
    %14 = tessera.reduce(%13) {axis = 1 : i32} : (tensor<16x256xf32, #d>) -> tensor<16xf32, #red> {
    ^bb0(%arg2: f32, %arg3: f32):
      %31 = arith.maximumf %arg2, %arg3 : f32
      tessera.reduce.return %31 : f32
    }
    %15 = tessera_gpu.convert_layout %14 : tensor<16xf32, #red> -> tensor<16xf32, #d1>
    %16 = tessera_gpu.convert_layout %15 : tensor<16xf32, #d1> -> tensor<16xf32, #colslice>
    %17 = tessera.expand_dims %16 {axis = 1 : i32} : tensor<16xf32, #colslice> -> tensor<16x1xf32, #col>
    %18 = tessera_gpu.convert_layout %17 : tensor<16x1xf32, #col> -> tensor<16x1xf32, #d>
    %19 = tessera.broadcast %18 : tensor<16x1xf32, #d> -> tensor<16x256xf32, #d>
    %20 = arith.subf %13, %19 : tensor<16x256xf32, #d>
    %21 = math.exp %20 : tensor<16x256xf32, #d>
    %22 = tessera.reduce(%21) {axis = 1 : i32} : (tensor<16x256xf32, #d>) -> tensor<16xf32, #red> {
    ^bb0(%arg2: f32, %arg3: f32):
      %31 = arith.addf %arg2, %arg3 : f32
      tessera.reduce.return %31 : f32
    }
    %23 = tessera_gpu.convert_layout %22 : tensor<16xf32, #red> -> tensor<16xf32, #d1>
    %24 = tessera_gpu.convert_layout %23 : tensor<16xf32, #d1> -> tensor<16xf32, #colslice>
    %25 = tessera.expand_dims %24 {axis = 1 : i32} : tensor<16xf32, #colslice> -> tensor<16x1xf32, #col>
    %26 = tessera_gpu.convert_layout %25 : tensor<16x1xf32, #col> -> tensor<16x1xf32, #d>
    %27 = tessera.broadcast %26 : tensor<16x1xf32, #d> -> tensor<16x256xf32, #d>
    %28 = arith.divf %21, %27 : tensor<16x256xf32, #d>
    %29 = tessera.splat %arg1 : tensor<16x256x!tessera.ptr<f32>, #d>
    %30 = tessera.addptr %29, %10 : tensor<16x256x!tessera.ptr<f32>, #d>, tensor<16x256xi32, #d>
    %q_l = tessera_gpu.convert_layout %30 : tensor<16x256x!tessera.ptr<f32>, #d> -> tensor<16x256x!tessera.ptr<f32>, #l>
    %y_l = tessera_gpu.convert_layout %28 : tensor<16x256xf32, #d> -> tensor<16x256xf32, #l>
    tessera.store %q_l, %y_l : tensor<16x256x!tessera.ptr<f32>, #l>
    return
  }
}

// -----

// Layer norm: two reductions, the centred row reused after the second, and
// two 1-D parameters broadcast over the rows. The 2-D computation stays in
// the row's layout L; the only conversions left are the parameters' (loaded
// 1-D in their own layout, needed in the slice of L): real data movement,
// done before the parameters widen to f32, when they are half the bytes.
// CHECK-DAG: #[[L:.*]] = #tessera_gpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]>
// CHECK-DAG: #[[L1:.*]] = #tessera_gpu.blocked<sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
// CHECK-DAG: #[[RED:.*]] = #tessera_gpu.slice<dim = 1, parent = #[[L]]>
// CHECK-DAG: #[[ROWS:.*]] = #tessera_gpu.slice<dim = 0, parent = #[[L]]>
// CHECK-LABEL: func.func @layer_norm
// CHECK: %[[X:.*]] = tessera.load %{{.*}} : tensor<16x256x!tessera.ptr<f16>, #[[L]]>
// CHECK: %[[XF:.*]] = arith.extf %[[X]] : tensor<16x256xf16, #[[L]]> to tensor<16x256xf32, #[[L]]>
// CHECK: tessera.reduce(%[[XF]]) {axis = 1 : i32} : (tensor<16x256xf32, #[[L]]>) -> tensor<16xf32, #[[RED]]>
// CHECK: %[[XC:.*]] = arith.subf %[[XF]], %{{.*}} : tensor<16x256xf32, #[[L]]>
// CHECK: tessera.reduce(%{{.*}}) {axis = 1 : i32} : (tensor<16x256xf32, #[[L]]>) -> tensor<16xf32, #[[RED]]>
// CHECK: math.rsqrt %{{.*}} : tensor<16xf32, #[[RED]]>
// CHECK: arith.mulf %[[XC]], %{{.*}} : tensor<16x256xf32, #[[L]]>
// CHECK: tessera_gpu.convert_layout %{{.*}} : tensor<256xf16, #[[L1]]> -> tensor<256xf16, #[[ROWS]]>
// CHECK: arith.extf %{{.*}} : tensor<256xf16, #[[ROWS]]> to tensor<256xf32, #[[ROWS]]>
// CHECK: tessera_gpu.convert_layout %{{.*}} : tensor<256xf16, #[[L1]]> -> tensor<256xf16, #[[ROWS]]>
// CHECK: arith.extf %{{.*}} : tensor<256xf16, #[[ROWS]]> to tensor<256xf32, #[[ROWS]]>
// CHECK-NOT: tessera_gpu.convert_layout
// CHECK: tessera.store %{{.*}}, %{{.*}} : tensor<16x256x!tessera.ptr<f16>, #[[L]]>
#d = #tessera_gpu.blocked<sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0]>
#d1 = #tessera_gpu.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
#col = #tessera_gpu.blocked<sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]>
#red = #tessera_gpu.slice<dim = 1, parent = #d>
#colslice = #tessera_gpu.slice<dim = 1, parent = #col>
#rows = #tessera_gpu.slice<dim = 0, parent = #d>
#l = #tessera_gpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]>
#l1 = #tessera_gpu.blocked<sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
module attributes {tessera_gpu.num_ctas = 1 : i32, tessera_gpu.num_warps = 4 : i32, tessera_gpu.threads_per_warp = 32 : i32} {
  func.func @layer_norm(%arg0: tensor<16x256x!tessera.ptr<f16>, #l>, %arg1: tensor<256x!tessera.ptr<f16>, #l1>, %arg2: tensor<256x!tessera.ptr<f16>, #l1>, %arg3: tensor<16x256x!tessera.ptr<f16>, #l>) {
    %x_c = tessera.load %arg0 : tensor<16x256x!tessera.ptr<f16>, #l>
    %0 = tessera_gpu.convert_layout %x_c : tensor<16x256xf16, #l> -> tensor<16x256xf16, #d>
    %1 = arith.extf %0 : tensor<16x256xf16, #d> to tensor<16x256xf32, #d>
    %2 = tessera.reduce(%1) {axis = 1 : i32} : (tensor<16x256xf32, #d>) -> tensor<16xf32, #red> {
    ^bb0(%arg4: f32, %arg5: f32):
      %34 = arith.addf %arg4, %arg5 : f32
      tessera.reduce.return %34 : f32
    }
    %3 = tessera_gpu.convert_layout %2 : tensor<16xf32, #red> -> tensor<16xf32, #d1>
    %cst = arith.constant 3.906250e-03 : f32
    %cst_0 = arith.constant dense<3.906250e-03> : tensor<16xf32, #d1>
    %4 = arith.mulf %3, %cst_0 : tensor<16xf32, #d1>
    %5 = tessera_gpu.convert_layout %4 : tensor<16xf32, #d1> -> tensor<16xf32, #colslice>
    %6 = tessera.expand_dims %5 {axis = 1 : i32} : tensor<16xf32, #colslice> -> tensor<16x1xf32, #col>
    %7 = tessera_gpu.convert_layout %6 : tensor<16x1xf32, #col> -> tensor<16x1xf32, #d>
    %8 = tessera.broadcast %7 : tensor<16x1xf32, #d> -> tensor<16x256xf32, #d>
    %9 = arith.subf %1, %8 : tensor<16x256xf32, #d>
    %10 = arith.mulf %9, %9 : tensor<16x256xf32, #d>
    %11 = tessera.reduce(%10) {axis = 1 : i32} : (tensor<16x256xf32, #d>) -> tensor<16xf32, #red> {
    ^bb0(%arg4: f32, %arg5: f32):
      %34 = arith.addf %arg4, %arg5 : f32
      tessera.reduce.return %34 : f32
    }
    %12 = tessera_gpu.convert_layout %11 : tensor<16xf32, #red> -> tensor<16xf32, #d1>
    %13 = arith.mulf %12, %cst_0 : tensor<16xf32, #d1>
    %cst_1 = arith.constant 9.99999974E-6 : f32
    %cst_2 = arith.constant dense<9.99999974E-6> : tensor<16xf32, #d1>
    %14 = arith.addf %13, %cst_2 : tensor<16xf32, #d1>
    %15 = math.rsqrt %14 : tensor<16xf32, #d1>
    %16 = tessera_gpu.convert_layout %15 : tensor<16xf32, #d1> -> tensor<16xf32, #colslice>
    %17 = tessera.expand_dims %16 {axis = 1 : i32} : tensor<16xf32, #colslice> -> tensor<16x1xf32, #col>
    %18 = tessera_gpu.convert_layout %17 : tensor<16x1xf32, #col> -> tensor<16x1xf32, #d>
    %19 = tessera.broadcast %18 : tensor<16x1xf32, #d> -> tensor<16x256xf32, #d>
    %20 = arith.mulf %9, %19 : tensor<16x256xf32, #d>
    %arg1_c = tessera.load %arg1 : tensor<256x!tessera.ptr<f16>, #l1>
    %21 = tessera_gpu.convert_layout %arg1_c : tensor<256xf16, #l1> -> tensor<256xf16, #d1>
    %22 = arith.extf %21 : tensor<256xf16, #d1> to tensor<256xf32, #d1>
    %23 = tessera_gpu.convert_layout %22 : tensor<256xf32, #d1> -> tensor<256xf32, #rows>
    %24 = tessera.expand_dims %23 {axis = 0 : i32} : tensor<256xf32, #rows> -> tensor<1x256xf32, #d>
    %25 = tessera.broadcast %24 : tensor<1x256xf32, #d> -> tensor<16x256xf32, #d>
    %arg2_c = tessera.load %arg2 : tensor<256x!tessera.ptr<f16>, #l1>
    %26 = tessera_gpu.convert_layout %arg2_c : tensor<256xf16, #l1> -> tensor<256xf16, #d1>
    %27 = arith.extf %26 : tensor<256xf16, #d1> to tensor<256xf32, #d1>
    %28 = tessera_gpu.convert_layout %27 : tensor<256xf32, #d1> -> tensor<256xf32, #rows>
    %29 = tessera.expand_dims %28 {axis = 0 : i32} : tensor<256xf32, #rows> -> tensor<1x256xf32, #d>
    %30 = tessera.broadcast %29 : tensor<1x256xf32, #d> -> tensor<16x256xf32, #d>
    %31 = arith.mulf %20, %25 : tensor<16x256xf32, #d>
    %32 = arith.addf %31, %30 : tensor<16x256xf32, #d>
    %33 = arith.truncf %32 : tensor<16x256xf32, #d> to tensor<16x256xf16, #d>
    %y_c = tessera_gpu.convert_layout %33 : tensor<16x256xf16, #d> -> tensor<16x256xf16, #l>
    tessera.store %arg3, %y_c : tensor<16x256x!tessera.ptr<f16>, #l>
    return
  }
}

// -----

// The offsets feed a load coalesced one way and a store coalesced another.
// They are cheap to compute from a splat and a range, so each pointer is
// computed in its access's layout (the sum twice) rather than converted. The
// loaded data must move to the store's layout: that conversion stays.
// CHECK-DAG: #[[L:.*]] = #tessera_gpu.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
// CHECK-DAG: #[[L2:.*]] = #tessera_gpu.blocked<sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
// CHECK-LABEL: func.func @copy
// CHECK-DAG: %[[RL:.*]] = tessera.make_range {{.*}} : tensor<1024xi32, #[[L]]>
// CHECK-DAG: %[[RL2:.*]] = tessera.make_range {{.*}} : tensor<1024xi32, #[[L2]]>
// CHECK-DAG: %[[OFFL:.*]] = arith.addi %{{.*}}, %[[RL]] : tensor<1024xi32, #[[L]]>
// CHECK-DAG: %[[OFFL2:.*]] = arith.addi %{{.*}}, %[[RL2]] : tensor<1024xi32, #[[L2]]>
// CHECK: %[[XA:.*]] = tessera.addptr %{{.*}}, %[[OFFL]] : tensor<1024x!tessera.ptr<f32>, #[[L]]>
// CHECK: %[[X:.*]] = tessera.load %[[XA]] : tensor<1024x!tessera.ptr<f32>, #[[L]]>
// CHECK: %[[XC:.*]] = tessera_gpu.convert_layout %[[X]] : tensor<1024xf32, #[[L]]> -> tensor<1024xf32, #[[L2]]>
// CHECK: %[[OA:.*]] = tessera.addptr %{{.*}}, %[[OFFL2]] : tensor<1024x!tessera.ptr<f32>, #[[L2]]>
// CHECK: tessera.store %[[OA]], %[[XC]] : tensor<1024x!tessera.ptr<f32>, #[[L2]]>
// CHECK-NOT: tessera_gpu.convert_layout
#d = #tessera_gpu.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
#l = #tessera_gpu.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
#l2 = #tessera_gpu.blocked<sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
module attributes {tessera_gpu.num_ctas = 1 : i32, tessera_gpu.num_warps = 4 : i32, tessera_gpu.threads_per_warp = 32 : i32} {
func.func @copy(%x: !tessera.ptr<f32>, %o: !tessera.ptr<f32>, %pid: i32) {
  %c1024 = arith.constant 1024 : i32
  %start = arith.muli %pid, %c1024 : i32
  %r = tessera.make_range {start = 0 : i32, end = 1024 : i32} : tensor<1024xi32, #d>
  %s = tessera.splat %start : tensor<1024xi32, #d>
  %off = arith.addi %s, %r : tensor<1024xi32, #d>
  %xp = tessera.splat %x : tensor<1024x!tessera.ptr<f32>, #d>
  %xa = tessera.addptr %xp, %off : tensor<1024x!tessera.ptr<f32>, #d>, tensor<1024xi32, #d>
  %xa_l = tessera_gpu.convert_layout %xa : tensor<1024x!tessera.ptr<f32>, #d> -> tensor<1024x!tessera.ptr<f32>, #l>
  %xv_l = tessera.load %xa_l : tensor<1024x!tessera.ptr<f32>, #l>
  %xv = tessera_gpu.convert_layout %xv_l : tensor<1024xf32, #l> -> tensor<1024xf32, #d>
  %op = tessera.splat %o : tensor<1024x!tessera.ptr<f32>, #d>
  %oa = tessera.addptr %op, %off : tensor<1024x!tessera.ptr<f32>, #d>, tensor<1024xi32, #d>
  %oa_l = tessera_gpu.convert_layout %oa : tensor<1024x!tessera.ptr<f32>, #d> -> tensor<1024x!tessera.ptr<f32>, #l2>
  %v_l = tessera_gpu.convert_layout %xv : tensor<1024xf32, #d> -> tensor<1024xf32, #l2>
  tessera.store %oa_l, %v_l : tensor<1024x!tessera.ptr<f32>, #l2>
  return
}
}

// -----

// A value two anchors need in two layouts: it is computed once, in the first
// store's layout, and converted exactly once for the second.
#d = #tessera_gpu.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
#l = #tessera_gpu.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
#l2 = #tessera_gpu.blocked<sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
module attributes {tessera_gpu.num_ctas = 1 : i32, tessera_gpu.num_warps = 4 : i32, tessera_gpu.threads_per_warp = 32 : i32} {
// CHECK-DAG: #[[L:.*]] = #tessera_gpu.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
// CHECK-DAG: #[[L2:.*]] = #tessera_gpu.blocked<sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
// CHECK-LABEL: func.func @two_anchors
// CHECK: %[[X:.*]] = tessera.load %{{.*}} : tensor<1024x!tessera.ptr<f32>, #[[L]]>
// CHECK: %[[E:.*]] = math.exp %[[X]] : tensor<1024xf32, #[[L]]>
// CHECK: %[[C:.*]] = tessera_gpu.convert_layout %[[E]] : tensor<1024xf32, #[[L]]> -> tensor<1024xf32, #[[L2]]>
// CHECK-NOT: tessera_gpu.convert_layout
// CHECK: tessera.store %{{.*}}, %[[E]] : tensor<1024x!tessera.ptr<f32>, #[[L]]>
// CHECK: tessera.store %{{.*}}, %[[C]] : tensor<1024x!tessera.ptr<f32>, #[[L2]]>
func.func @two_anchors(%px: tensor<1024x!tessera.ptr<f32>, #l>, %po: tensor<1024x!tessera.ptr<f32>, #l>, %pq: tensor<1024x!tessera.ptr<f32>, #l2>) {
  %x = tessera.load %px : tensor<1024x!tessera.ptr<f32>, #l>
  %xd = tessera_gpu.convert_layout %x : tensor<1024xf32, #l> -> tensor<1024xf32, #d>
  %e = math.exp %xd : tensor<1024xf32, #d>
  %e1 = tessera_gpu.convert_layout %e : tensor<1024xf32, #d> -> tensor<1024xf32, #l>
  tessera.store %po, %e1 : tensor<1024x!tessera.ptr<f32>, #l>
  %e2 = tessera_gpu.convert_layout %e : tensor<1024xf32, #d> -> tensor<1024xf32, #l2>
  tessera.store %pq, %e2 : tensor<1024x!tessera.ptr<f32>, #l2>
  return
}

// Values computed from a range are rebuilt in a second layout rather than
// converted, but not when that means running an impure call twice...
// CHECK-LABEL: func.func @impure
// CHECK: %[[V:.*]] = tessera.extern_elementwise %{{.*}} {{.*}} : (tensor<1024xi32, #[[L]]>) -> tensor<1024xi32, #[[L]]>
// CHECK: tessera_gpu.convert_layout %[[V]] : tensor<1024xi32, #[[L]]> -> tensor<1024xi32, #[[L2]]>
// CHECK-NOT: tessera_gpu.convert_layout
func.func @impure(%po: tensor<1024x!tessera.ptr<i32>, #l>, %pq: tensor<1024x!tessera.ptr<i32>, #l2>) {
  %r = tessera.make_range {start = 0 : i32, end = 1024 : i32} : tensor<1024xi32, #d>
  %v = tessera.extern_elementwise %r {libname = "", libpath = "", symbol = "counter", pure = false} : (tensor<1024xi32, #d>) -> tensor<1024xi32, #d>
  %v1 = tessera_gpu.convert_layout %v : tensor<1024xi32, #d> -> tensor<1024xi32, #l>
  tessera.store %po, %v1 : tensor<1024x!tessera.ptr<i32>, #l>
  %v2 = tessera_gpu.convert_layout %v : tensor<1024xi32, #d> -> tensor<1024xi32, #l2>
  tessera.store %pq, %v2 : tensor<1024x!tessera.ptr<i32>, #l2>
  return
}

// ... or more than 32 ops (here 33 additions).
// CHECK-LABEL: func.func @long_chain
// CHECK-COUNT-1: tessera_gpu.convert_layout
// CHECK-NOT: tessera_gpu.convert_layout
func.func @long_chain(%po: tensor<1024x!tessera.ptr<i32>, #l>, %pq: tensor<1024x!tessera.ptr<i32>, #l2>) {
  %r = tessera.make_range {start = 0 : i32, end = 1024 : i32} : tensor<1024xi32, #d>
  %v0 = arith.addi %r, %r : tensor<1024xi32, #d>
  %v1 = arith.addi %v0, %r : tensor<1024xi32, #d>
  %v2 = arith.addi %v1, %r : tensor<1024xi32, #d>
  %v3 = arith.addi %v2, %r : tensor<1024xi32, #d>
  %v4 = arith.addi %v3, %r : tensor<1024xi32, #d>
  %v5 = arith.addi %v4, %r : tensor<1024xi32, #d>
  %v6 = arith.addi %v5, %r : tensor<1024xi32, #d>
  %v7 = arith.addi %v6, %r : tensor<1024xi32, #d>
  %v8 = arith.addi %v7, %r : tensor<1024xi32, #d>
  %v9 = arith.addi %v8, %r : tensor<1024xi32, #d>
  %v10 = arith.addi %v9, %r : tensor<1024xi32, #d>
  %v11 = arith.addi %v10, %r : tensor<1024xi32, #d>
  %v12 = arith.addi %v11, %r : tensor<1024xi32, #d>
  %v13 = arith.addi %v12, %r : tensor<1024xi32, #d>
  %v14 = arith.addi %v13, %r : tensor<1024xi32, #d>
  %v15 = arith.addi %v14, %r : tensor<1024xi32, #d>
  %v16 = arith.addi %v15, %r : tensor<1024xi32, #d>
  %v17 = arith.addi %v16, %r : tensor<1024xi32, #d>
  %v18 = arith.addi %v17, %r : tensor<1024xi32, #d>
  %v19 = arith.addi %v18, %r : tensor<1024xi32, #d>
  %v20 = arith.addi %v19, %r : tensor<1024xi32, #d>
  %v21 = arith.addi %v20, %r : tensor<1024xi32, #d>
  %v22 = arith.addi %v21, %r : tensor<1024xi32, #d>
  %v23 = arith.addi %v22, %r : tensor<1024xi32, #d>
  %v24 = arith.addi %v23, %r : tensor<1024xi32, #d>
  %v25 = arith.addi %v24, %r : tensor<1024xi32, #d>
  %v26 = arith.addi %v25, %r : tensor<1024xi32, #d>
  %v27 = arith.addi %v26, %r : tensor<1024xi32, #d>
  %v28 = arith.addi %v27, %r : tensor<1024xi32, #d>
  %v29 = arith.addi %v28, %r : tensor<1024xi32, #d>
  %v30 = arith.addi %v29, %r : tensor<1024xi32, #d>
  %v31 = arith.addi %v30, %r : tensor<1024xi32, #d>
  %v32 = arith.addi %v31, %r : tensor<1024xi32, #d>
  %w1 = tessera_gpu.convert_layout %v32 : tensor<1024xi32, #d> -> tensor<1024xi32, #l>
  tessera.store %po, %w1 : tensor<1024x!tessera.ptr<i32>, #l>
  %w2 = tessera_gpu.convert_layout %v32 : tensor<1024xi32, #d> -> tensor<1024xi32, #l2>
  tessera.store %pq, %w2 : tensor<1024x!tessera.ptr<i32>, #l2>
  return
}

// ... whereas a short chain is rebuilt.
// CHECK-LABEL: func.func @short_chain
// CHECK-DAG: %[[A:.*]] = arith.muli %{{.*}}, %{{.*}} : tensor<1024xi32, #[[L]]>
// CHECK-DAG: %[[B:.*]] = arith.muli %{{.*}}, %{{.*}} : tensor<1024xi32, #[[L2]]>
// CHECK-NOT: tessera_gpu.convert_layout
// CHECK: return
func.func @short_chain(%po: tensor<1024x!tessera.ptr<i32>, #l>, %pq: tensor<1024x!tessera.ptr<i32>, #l2>) {
  %r = tessera.make_range {start = 0 : i32, end = 1024 : i32} : tensor<1024xi32, #d>
  %v = arith.muli %r, %r : tensor<1024xi32, #d>
  %v1 = tessera_gpu.convert_layout %v : tensor<1024xi32, #d> -> tensor<1024xi32, #l>
  tessera.store %po, %v1 : tensor<1024x!tessera.ptr<i32>, #l>
  %v2 = tessera_gpu.convert_layout %v : tensor<1024xi32, #d> -> tensor<1024xi32, #l2>
  tessera.store %pq, %v2 : tensor<1024x!tessera.ptr<i32>, #l2>
  return
}
}

// -----

// Control flow carries layouts through its block arguments and results.
#d = #tessera_gpu.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
#l = #tessera_gpu.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
#l2 = #tessera_gpu.blocked<sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
module attributes {tessera_gpu.num_ctas = 1 : i32, tessera_gpu.num_warps = 4 : i32, tessera_gpu.threads_per_warp = 32 : i32} {
// CHECK-DAG: #[[L:.*]] = #tessera_gpu.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
// CHECK-DAG: #[[L2:.*]] = #tessera_gpu.blocked<sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
// CHECK-DAG: #[[D:.*]] = #tessera_gpu.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>

// scf.if merging two layouts: the result takes the layout the store wants;
// the branch yielding the other one converts, inside the branch.
// CHECK-LABEL: func.func @if_merge
// CHECK: %[[X:.*]] = tessera.load %{{.*}} : tensor<1024x!tessera.ptr<f32>, #[[L]]>
// CHECK: %[[Y:.*]] = tessera.load %{{.*}} : tensor<1024x!tessera.ptr<f32>, #[[L2]]>
// CHECK-NOT: tessera_gpu.convert_layout
// CHECK: %[[R:.*]] = scf.if %{{.*}} -> (tensor<1024xf32, #[[L]]>) {
// CHECK-NEXT: scf.yield %[[X]] : tensor<1024xf32, #[[L]]>
// CHECK-NEXT: } else {
// CHECK-NEXT: %[[YC:.*]] = tessera_gpu.convert_layout %[[Y]] : tensor<1024xf32, #[[L2]]> -> tensor<1024xf32, #[[L]]>
// CHECK-NEXT: scf.yield %[[YC]] : tensor<1024xf32, #[[L]]>
// CHECK: %[[E:.*]] = math.exp %[[R]] : tensor<1024xf32, #[[L]]>
// CHECK-NOT: tessera_gpu.convert_layout
// CHECK: tessera.store %{{.*}}, %[[E]] : tensor<1024x!tessera.ptr<f32>, #[[L]]>
func.func @if_merge(%px: tensor<1024x!tessera.ptr<f32>, #l>, %py: tensor<1024x!tessera.ptr<f32>, #l2>, %po: tensor<1024x!tessera.ptr<f32>, #l>, %c: i1) {
  %x = tessera.load %px : tensor<1024x!tessera.ptr<f32>, #l>
  %y = tessera.load %py : tensor<1024x!tessera.ptr<f32>, #l2>
  %r = scf.if %c -> tensor<1024xf32, #d> {
    %a = tessera_gpu.convert_layout %x : tensor<1024xf32, #l> -> tensor<1024xf32, #d>
    scf.yield %a : tensor<1024xf32, #d>
  } else {
    %b = tessera_gpu.convert_layout %y : tensor<1024xf32, #l2> -> tensor<1024xf32, #d>
    scf.yield %b : tensor<1024xf32, #d>
  }
  %e = math.exp %r : tensor<1024xf32, #d>
  %el = tessera_gpu.convert_layout %e : tensor<1024xf32, #d> -> tensor<1024xf32, #l>
  tessera.store %po, %el : tensor<1024x!tessera.ptr<f32>, #l>
  return
}

// A loop-carried sum of loads: the loop body runs in the load's layout, so
// the iteration variable takes it (its zero init is rebuilt in it) and the
// conversions inside the loop and after it vanish.
// CHECK-LABEL: func.func @loop_carried
// CHECK-NOT: tessera_gpu.convert_layout
// CHECK: %[[Z:.*]] = arith.constant dense<0.000000e+00> : tensor<1024xf32, #[[L]]>
// CHECK: %[[R:.*]] = scf.for {{.*}} iter_args(%[[ACC:.*]] = %[[Z]]) -> (tensor<1024xf32, #[[L]]>)
// CHECK: %[[X:.*]] = tessera.load %{{.*}} : tensor<1024x!tessera.ptr<f32>, #[[L]]>
// CHECK: %[[S:.*]] = arith.addf %[[ACC]], %[[X]] : tensor<1024xf32, #[[L]]>
// CHECK: scf.yield %[[S]] : tensor<1024xf32, #[[L]]>
// CHECK: tessera.store %{{.*}}, %[[R]] : tensor<1024x!tessera.ptr<f32>, #[[L]]>
// CHECK-NOT: tessera_gpu.convert_layout
func.func @loop_carried(%px: tensor<1024x!tessera.ptr<f32>, #l>, %po: tensor<1024x!tessera.ptr<f32>, #l>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %z = arith.constant dense<0.0> : tensor<1024xf32, #d>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> (tensor<1024xf32, #d>) : i32 {
    %x = tessera.load %px : tensor<1024x!tessera.ptr<f32>, #l>
    %xd = tessera_gpu.convert_layout %x : tensor<1024xf32, #l> -> tensor<1024xf32, #d>
    %s = arith.addf %acc, %xd : tensor<1024xf32, #d>
    scf.yield %s : tensor<1024xf32, #d>
  }
  %rl = tessera_gpu.convert_layout %r : tensor<1024xf32, #d> -> tensor<1024xf32, #l>
  tessera.store %po, %rl : tensor<1024x!tessera.ptr<f32>, #l>
  return
}

// The same through scf.while.
// CHECK-LABEL: func.func @while_loop
// CHECK-NOT: tessera_gpu.convert_layout
// CHECK: scf.while (%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) : (i32, tensor<1024xf32, #[[L]]>) -> (i32, tensor<1024xf32, #[[L]]>)
// CHECK: scf.condition(%{{.*}}) %{{.*}}, %{{.*}} : i32, tensor<1024xf32, #[[L]]>
// CHECK: ^bb0(%{{.*}}: i32, %[[A:.*]]: tensor<1024xf32, #[[L]]>):
// CHECK: arith.addf %[[A]], %{{.*}} : tensor<1024xf32, #[[L]]>
// CHECK-NOT: tessera_gpu.convert_layout
// CHECK: return
func.func @while_loop(%px: tensor<1024x!tessera.ptr<f32>, #l>, %po: tensor<1024x!tessera.ptr<f32>, #l>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %z = arith.constant dense<0.0> : tensor<1024xf32, #d>
  %r:2 = scf.while (%i = %c0, %acc = %z) : (i32, tensor<1024xf32, #d>) -> (i32, tensor<1024xf32, #d>) {
    %cond = arith.cmpi slt, %i, %n : i32
    scf.condition(%cond) %i, %acc : i32, tensor<1024xf32, #d>
  } do {
  ^bb0(%j: i32, %a: tensor<1024xf32, #d>):
    %x = tessera.load %px : tensor<1024x!tessera.ptr<f32>, #l>
    %xd = tessera_gpu.convert_layout %x : tensor<1024xf32, #l> -> tensor<1024xf32, #d>
    %s = arith.addf %a, %xd : tensor<1024xf32, #d>
    %j1 = arith.addi %j, %c1 : i32
    scf.yield %j1, %s : i32, tensor<1024xf32, #d>
  }
  %rl = tessera_gpu.convert_layout %r#1 : tensor<1024xf32, #d> -> tensor<1024xf32, #l>
  tessera.store %po, %rl : tensor<1024x!tessera.ptr<f32>, #l>
  return
}

// A conversion of a loop-invariant value needed inside a loop is made once,
// before the loop.
// CHECK-LABEL: func.func @invariant
// CHECK: %[[X:.*]] = tessera.load %{{.*}} : tensor<1024x!tessera.ptr<f32>, #[[D]]>
// CHECK-NEXT: %[[XC:.*]] = tessera_gpu.convert_layout %[[X]] : tensor<1024xf32, #[[D]]> -> tensor<1024xf32, #[[L]]>
// CHECK-NEXT: scf.for
// CHECK-NEXT: tessera.store %{{.*}}, %[[XC]] : tensor<1024x!tessera.ptr<f32>, #[[L]]>
func.func @invariant(%px: tensor<1024x!tessera.ptr<f32>, #d>, %po: tensor<1024x!tessera.ptr<f32>, #l>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %x = tessera.load %px : tensor<1024x!tessera.ptr<f32>, #d>
  scf.for %i = %c0 to %n step %c1 : i32 {
    %xl = tessera_gpu.convert_layout %x : tensor<1024xf32, #d> -> tensor<1024xf32, #l>
    tessera.store %po, %xl : tensor<1024x!tessera.ptr<f32>, #l>
  }
  return
}
}

// -----

// A select between a joined pair (reshaped from its linear layout) and a
// cat whose sum picks the select's condition: propagating the pair's layout
// reaches the rank-1 reduction, whose scalar result has no layout (this
// once asked for the blocked form of a rank-0 slice and crashed).
#b = #tessera_gpu.blocked<sizePerThread = [1], threadsPerWarp = [1], warpsPerCTA = [1], order = [0]>
#b2 = #tessera_gpu.blocked<sizePerThread = [1, 1], threadsPerWarp = [1, 1], warpsPerCTA = [1, 1], order = [1, 0]>
#pair = #tessera_gpu.linear<register = [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0], [32, 0], [0, 1]], lane = [], warp = [], block = []>
module attributes {tessera_gpu.num_ctas = 1 : i32, tessera_gpu.num_warps = 1 : i32, tessera_gpu.target = "test", tessera_gpu.threads_per_warp = 1 : i32} {
  // CHECK-LABEL: func.func @join_or_cat
  // CHECK: tessera.cat
  // CHECK: tessera.reduce(%{{.*}}) {axis = 0 : i32} : (tensor<128xf32, #{{.*}}>) -> f32
  // CHECK: arith.select
  func.func @join_or_cat(%a: tensor<64xf32, #b>, %b: tensor<64xf32, #b>, %bound: f32) -> tensor<128xf32, #b> {
    %j = tessera.join %a, %b : tensor<64xf32, #b> -> tensor<64x2xf32, #pair>
    %jc = tessera_gpu.convert_layout %j : tensor<64x2xf32, #pair> -> tensor<64x2xf32, #b2>
    %pairs = tessera.reshape %jc : tensor<64x2xf32, #b2> -> tensor<128xf32, #b>
    %c = tessera.cat %a, %b : tensor<64xf32, #b> -> tensor<128xf32, #b>
    %s = tessera.reduce(%c) {axis = 0 : i32} : (tensor<128xf32, #b>) -> f32 {
    ^bb0(%x: f32, %y: f32):
      %r = arith.addf %x, %y : f32
      tessera.reduce.return %r : f32
    }
    %keep = arith.cmpf ogt, %s, %bound : f32
    %k = tessera.splat %keep : tensor<128xi1, #b>
    %out = arith.select %k, %pairs, %c : tensor<128xi1, #b>, tensor<128xf32, #b>
    return %out : tensor<128xf32, #b>
  }
}

// -----

// An accumulator split in two halves (tutorial 09's EPILOGUE_SUBTILE):
// (128, 256) -> (128, 2, 128) -> (128, 128, 2) -> two (128, 128). The split
// axis is a register bit of the accumulator's layout, so its layout flows
// through the reshape, the transposition and the split, and each half is
// converted for its store once narrowed to f16: half the bytes of one f32
// conversion of the whole tile, which needed 128 KB of scratch.
// CHECK-DAG: #[[ST:.*]] = #tessera_gpu.blocked<sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0]>
// CHECK-LABEL: func.func @epilogue_subtile
// CHECK-NOT: tessera_gpu.convert_layout
// CHECK: %[[L:.*]], %[[R:.*]] = tessera.split %{{.*}} : tensor<128x128x2xf32, #[[S:.*]]> -> tensor<128x128xf32, #[[H:.*]]>
// CHECK: %[[LH:.*]] = arith.truncf %[[L]] : tensor<128x128xf32, #[[H]]> to tensor<128x128xf16, #[[H]]>
// CHECK: %[[LC:.*]] = tessera_gpu.convert_layout %[[LH]] : tensor<128x128xf16, #[[H]]> -> tensor<128x128xf16, #[[ST]]>
// CHECK: tessera.descriptor_store %{{.*}}[%{{.*}}, %{{.*}}], %[[LC]]
// CHECK: %[[RH:.*]] = arith.truncf %[[R]] : tensor<128x128xf32, #[[H]]> to tensor<128x128xf16, #[[H]]>
// CHECK: %[[RC:.*]] = tessera_gpu.convert_layout %[[RH]] : tensor<128x128xf16, #[[H]]> -> tensor<128x128xf16, #[[ST]]>
// CHECK: tessera.descriptor_store %{{.*}}[%{{.*}}, %{{.*}}], %[[RC]]
#acc = #tessera_gpu.linear<register = [[0, 1], [8, 0], [0, 8], [0, 16], [0, 32], [0, 64], [0, 128], [64, 0]], lane = [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp = [[16, 0], [32, 0]], block = []>
#st = #tessera_gpu.blocked<sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0]>
#b3 = #tessera_gpu.blocked<sizePerThread = [1, 1, 1], threadsPerWarp = [1, 1, 32], warpsPerCTA = [1, 1, 4], order = [2, 1, 0]>
#b4 = #tessera_gpu.blocked<sizePerThread = [1, 1, 1], threadsPerWarp = [1, 32, 1], warpsPerCTA = [1, 4, 1], order = [1, 2, 0]>
#b6 = #tessera_gpu.blocked<sizePerThread = [1, 1, 2], threadsPerWarp = [1, 32, 1], warpsPerCTA = [1, 4, 1], order = [2, 1, 0]>
module attributes {tessera_gpu.num_ctas = 1 : i32, tessera_gpu.num_warps = 4 : i32, tessera_gpu.threads_per_warp = 32 : i32} {
  func.func @epilogue_subtile(%acc: tensor<128x256xf32, #acc>, %c: !tessera.tensordesc<tensor<128x128xf16>>, %m: i32, %n: i32, %n2: i32) {
    %accb = tessera_gpu.convert_layout %acc : tensor<128x256xf32, #acc> -> tensor<128x256xf32, #st>
    %r = tessera.reshape %accb : tensor<128x256xf32, #st> -> tensor<128x2x128xf32, #b3>
    %t = tessera.trans %r {order = array<i32: 0, 2, 1>} : tensor<128x2x128xf32, #b3> -> tensor<128x128x2xf32, #b4>
    %tc = tessera_gpu.convert_layout %t : tensor<128x128x2xf32, #b4> -> tensor<128x128x2xf32, #b6>
    %left, %right = tessera.split %tc : tensor<128x128x2xf32, #b6> -> tensor<128x128xf32, #st>
    %lh = arith.truncf %left : tensor<128x128xf32, #st> to tensor<128x128xf16, #st>
    tessera.descriptor_store %c[%m, %n], %lh : !tessera.tensordesc<tensor<128x128xf16>>, tensor<128x128xf16, #st>
    %rh = arith.truncf %right : tensor<128x128xf32, #st> to tensor<128x128xf16, #st>
    tessera.descriptor_store %c[%m, %n2], %rh : !tessera.tensordesc<tensor<128x128xf16>>, tensor<128x128xf16, #st>
    return
  }
}
