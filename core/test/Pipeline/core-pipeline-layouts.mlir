// End to end through the core pipeline: convert-to-gpu gives every tensor
// its shape's default layout and converts between them around reductions,
// expand_dims and broadcasts; remove-layout-conversions leaves none.
// RUN: tessera-opt %s --split-input-file --tessera-core="num-warps=4" | FileCheck %s
//
// Coalesced accesses (written as coalescing leaves them, resuming after
// coalesce) keep their layouts and the rest follows.
// RUN: tessera-opt %S/../Transforms/Inputs/vector-add-coalesced.mlir --tessera-core="num-warps=4 start-after=coalesce" | FileCheck %s --check-prefix=COALESCED

// COALESCED: #[[L:.*]] = #tessera_gpu.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
// COALESCED-NOT: #tessera_gpu.blocked
// COALESCED-LABEL: func.func @add_kernel
// COALESCED-NOT: tessera_gpu.convert_layout
// COALESCED: tessera.load %{{.*}} : tensor<1024x!tessera.ptr<f32>, #[[L]]>
// COALESCED: tessera.load %{{.*}} : tensor<1024x!tessera.ptr<f32>, #[[L]]>
// COALESCED: tessera.store %{{.*}} : tensor<1024x!tessera.ptr<f32>, #[[L]]>
// COALESCED-NOT: tessera_gpu.convert_layout

// CHECK-DAG: #[[B:.*]] = #tessera_gpu.blocked<sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0]>
// CHECK-DAG: #[[RED:.*]] = #tessera_gpu.slice<dim = 1, parent = #[[B]]>
// CHECK-LABEL: func.func @softmax
// CHECK-NOT: tessera_gpu.convert_layout
// CHECK: tessera.load %{{.*}} : tensor<16x256x!tessera.ptr<f32>, #[[B]]>
// CHECK: tessera.reduce(%{{.*}}) {axis = 1 : i32} : (tensor<16x256xf32, #[[B]]>) -> tensor<16xf32, #[[RED]]>
// CHECK: tessera.expand_dims %{{.*}} {axis = 1 : i32} : tensor<16xf32, #[[RED]]> -> tensor<16x1xf32, #[[B]]>
// CHECK: tessera.store %{{.*}} : tensor<16x256x!tessera.ptr<f32>, #[[B]]>
// CHECK-NOT: tessera_gpu.convert_layout
func.func @softmax(%in: !tessera.ptr<f32>, %out: !tessera.ptr<f32>) {
  %r = tessera.make_range {start = 0 : i32, end = 16 : i32} : tensor<16xi32>
  %c = tessera.make_range {start = 0 : i32, end = 256 : i32} : tensor<256xi32>
  %re = tessera.expand_dims %r {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
  %c256s = arith.constant 256 : i32
  %c256 = tessera.splat %c256s : tensor<16x1xi32>
  %rs = arith.muli %re, %c256 : tensor<16x1xi32>
  %rb = tessera.broadcast %rs : tensor<16x1xi32> -> tensor<16x256xi32>
  %ce = tessera.expand_dims %c {axis = 0 : i32} : tensor<256xi32> -> tensor<1x256xi32>
  %cb = tessera.broadcast %ce : tensor<1x256xi32> -> tensor<16x256xi32>
  %off = arith.addi %rb, %cb : tensor<16x256xi32>
  %ip = tessera.splat %in : tensor<16x256x!tessera.ptr<f32>>
  %ia = tessera.addptr %ip, %off : tensor<16x256x!tessera.ptr<f32>>, tensor<16x256xi32>
  %x = tessera.load %ia : tensor<16x256x!tessera.ptr<f32>>
  %m = tessera.reduce(%x) {axis = 1 : i32} : (tensor<16x256xf32>) -> tensor<16xf32> {
  ^bb0(%a: f32, %b: f32):
    %mx = arith.maximumf %a, %b : f32
    tessera.reduce.return %mx : f32
  }
  %me = tessera.expand_dims %m {axis = 1 : i32} : tensor<16xf32> -> tensor<16x1xf32>
  %mb = tessera.broadcast %me : tensor<16x1xf32> -> tensor<16x256xf32>
  %xs = arith.subf %x, %mb : tensor<16x256xf32>
  %e = math.exp %xs : tensor<16x256xf32>
  %s = tessera.reduce(%e) {axis = 1 : i32} : (tensor<16x256xf32>) -> tensor<16xf32> {
  ^bb0(%a: f32, %b: f32):
    %sm = arith.addf %a, %b : f32
    tessera.reduce.return %sm : f32
  }
  %se = tessera.expand_dims %s {axis = 1 : i32} : tensor<16xf32> -> tensor<16x1xf32>
  %sb = tessera.broadcast %se : tensor<16x1xf32> -> tensor<16x256xf32>
  %y = arith.divf %e, %sb : tensor<16x256xf32>
  %op = tessera.splat %out : tensor<16x256x!tessera.ptr<f32>>
  %oa = tessera.addptr %op, %off : tensor<16x256x!tessera.ptr<f32>>, tensor<16x256xi32>
  tessera.store %oa, %y : tensor<16x256x!tessera.ptr<f32>>
  return
}

// -----

// CHECK-LABEL: func.func @layer_norm
// CHECK-NOT: tessera_gpu.convert_layout
// CHECK: return
func.func @layer_norm(%x: tensor<16x256x!tessera.ptr<f16>>, %w: tensor<256x!tessera.ptr<f16>>, %b: tensor<256x!tessera.ptr<f16>>, %y: tensor<16x256x!tessera.ptr<f16>>) {
  %xv = tessera.load %x : tensor<16x256x!tessera.ptr<f16>>
  %xf = arith.extf %xv : tensor<16x256xf16> to tensor<16x256xf32>
  %sum = tessera.reduce(%xf) {axis = 1 : i32} : (tensor<16x256xf32>) -> tensor<16xf32> {
  ^bb0(%p: f32, %q: f32):
    %t = arith.addf %p, %q : f32
    tessera.reduce.return %t : f32
  }
  %ns = arith.constant 3.906250e-03 : f32
  %nsv = tessera.splat %ns : tensor<16xf32>
  %mean = arith.mulf %sum, %nsv : tensor<16xf32>
  %me = tessera.expand_dims %mean {axis = 1 : i32} : tensor<16xf32> -> tensor<16x1xf32>
  %mb = tessera.broadcast %me : tensor<16x1xf32> -> tensor<16x256xf32>
  %xc = arith.subf %xf, %mb : tensor<16x256xf32>
  %sq = arith.mulf %xc, %xc : tensor<16x256xf32>
  %ss = tessera.reduce(%sq) {axis = 1 : i32} : (tensor<16x256xf32>) -> tensor<16xf32> {
  ^bb0(%p: f32, %q: f32):
    %t = arith.addf %p, %q : f32
    tessera.reduce.return %t : f32
  }
  %var = arith.mulf %ss, %nsv : tensor<16xf32>
  %eps = arith.constant 1.0e-05 : f32
  %epsv = tessera.splat %eps : tensor<16xf32>
  %ve = arith.addf %var, %epsv : tensor<16xf32>
  %rstd = math.rsqrt %ve : tensor<16xf32>
  %re = tessera.expand_dims %rstd {axis = 1 : i32} : tensor<16xf32> -> tensor<16x1xf32>
  %rb = tessera.broadcast %re : tensor<16x1xf32> -> tensor<16x256xf32>
  %xn = arith.mulf %xc, %rb : tensor<16x256xf32>
  %wv = tessera.load %w : tensor<256x!tessera.ptr<f16>>
  %wf = arith.extf %wv : tensor<256xf16> to tensor<256xf32>
  %we = tessera.expand_dims %wf {axis = 0 : i32} : tensor<256xf32> -> tensor<1x256xf32>
  %wb = tessera.broadcast %we : tensor<1x256xf32> -> tensor<16x256xf32>
  %bv = tessera.load %b : tensor<256x!tessera.ptr<f16>>
  %bf = arith.extf %bv : tensor<256xf16> to tensor<256xf32>
  %be = tessera.expand_dims %bf {axis = 0 : i32} : tensor<256xf32> -> tensor<1x256xf32>
  %bb = tessera.broadcast %be : tensor<1x256xf32> -> tensor<16x256xf32>
  %xw = arith.mulf %xn, %wb : tensor<16x256xf32>
  %out = arith.addf %xw, %bb : tensor<16x256xf32>
  %oh = arith.truncf %out : tensor<16x256xf32> to tensor<16x256xf16>
  tessera.store %y, %oh : tensor<16x256x!tessera.ptr<f16>>
  return
}
