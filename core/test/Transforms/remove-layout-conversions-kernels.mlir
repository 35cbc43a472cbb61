// RUN: tessera-opt %s --tessera-convert-to-gpu="num-warps=4" --verify-each --tessera-remove-layout-conversions --canonicalize | FileCheck %s
//
// Kernel shapes straight from convert-to-gpu (every tensor in its shape's
// default layout, conversions around reductions, expand_dims, broadcasts,
// dots and relabelling ops): the pass keeps every op valid and leaves only
// the conversions that move data.

// An FMA dot: its operands' conversions to dot-operand layouts are real and
// stay (the transpose is absorbed into the loaded layout); the bias, a 1-D
// load broadcast over rows, needs none.
// CHECK-LABEL: func.func @fma_dot
// CHECK-COUNT-2: tessera_gpu.convert_layout %{{.*}} -> tensor<{{.*}}, #dot_op{{1?}}>
// CHECK-NOT: tessera_gpu.convert_layout
// CHECK: return
func.func @fma_dot(%a: tensor<32x16x!tessera.ptr<f32>>, %b: tensor<32x16x!tessera.ptr<f32>>, %bias: tensor<32x!tessera.ptr<f32>>, %o: tensor<32x32x!tessera.ptr<f32>>) {
  %av = tessera.load %a : tensor<32x16x!tessera.ptr<f32>>
  %bv = tessera.load %b : tensor<32x16x!tessera.ptr<f32>>
  %bt = tessera.trans %bv {order = array<i32: 1, 0>} : tensor<32x16xf32> -> tensor<16x32xf32>
  %z = arith.constant 0.0 : f32
  %zs = tessera.splat %z : tensor<32x32xf32>
  %d = tessera.dot %av, %bt, %zs : tensor<32x16xf32> * tensor<16x32xf32> -> tensor<32x32xf32>
  %bb = tessera.load %bias : tensor<32x!tessera.ptr<f32>>
  %be = tessera.expand_dims %bb {axis = 0 : i32} : tensor<32xf32> -> tensor<1x32xf32>
  %bbc = tessera.broadcast %be : tensor<1x32xf32> -> tensor<32x32xf32>
  %s = arith.addf %d, %bbc : tensor<32x32xf32>
  %r = arith.maximumf %s, %zs : tensor<32x32xf32>
  tessera.store %o, %r : tensor<32x32x!tessera.ptr<f32>>
  return
}

// A scan computes in its operand's layout.
// CHECK-LABEL: func.func @cumsum
// CHECK-NOT: tessera_gpu.convert_layout
// CHECK: return
func.func @cumsum(%x: tensor<8x64x!tessera.ptr<i32>>, %o: tensor<8x64x!tessera.ptr<i32>>) {
  %v = tessera.load %x : tensor<8x64x!tessera.ptr<i32>>
  %c = tessera.scan(%v) {axis = 1 : i32} : (tensor<8x64xi32>) -> tensor<8x64xi32> {
  ^bb0(%a: i32, %b: i32):
    %s = arith.addi %a, %b : i32
    tessera.scan.return %s : i32
  }
  tessera.store %o, %c : tensor<8x64x!tessera.ptr<i32>>
  return
}

// A histogram is an anchor: its result keeps its layout.
// CHECK-LABEL: func.func @hist
// CHECK-NOT: tessera_gpu.convert_layout
// CHECK: return
func.func @hist(%x: tensor<256x!tessera.ptr<i32>>, %o: tensor<16x!tessera.ptr<i32>>) {
  %v = tessera.load %x : tensor<256x!tessera.ptr<i32>>
  %h = tessera.histogram %v : tensor<256xi32> -> tensor<16xi32>
  tessera.store %o, %h : tensor<16x!tessera.ptr<i32>>
  return
}

// CHECK-LABEL: func.func @atomic
// CHECK-NOT: tessera_gpu.convert_layout
// CHECK: return
func.func @atomic(%p: !tessera.ptr<f32>, %x: tensor<128x!tessera.ptr<f32>>) {
  %v = tessera.load %x : tensor<128x!tessera.ptr<f32>>
  %r = tessera.make_range {start = 0 : i32, end = 128 : i32} : tensor<128xi32>
  %ps = tessera.splat %p : tensor<128x!tessera.ptr<f32>>
  %pa = tessera.addptr %ps, %r : tensor<128x!tessera.ptr<f32>>, tensor<128xi32>
  %old = tessera.atomic_rmw fadd %pa, %v : tensor<128x!tessera.ptr<f32>>
  return
}

// A loop carrying row sums through an scf.if and an inner loop: the sums
// stay in the reduction's slice layout throughout; one conversion after the
// loop feeds the 1-D store.
// CHECK-LABEL: func.func @nested
// CHECK: scf.for {{.*}} -> (tensor<16xf32, #[[S:.*]]>)
// CHECK-NOT: tessera_gpu.convert_layout
// CHECK: scf.yield %{{.*}} : tensor<16xf32, #[[S]]>
// CHECK-NOT: tessera_gpu.convert_layout
// CHECK: tessera_gpu.convert_layout %{{.*}} : tensor<16xf32, #[[S]]>
// CHECK-NEXT: tessera.store
// CHECK-NOT: tessera_gpu.convert_layout
// CHECK: return
func.func @nested(%x: tensor<16x32x!tessera.ptr<f32>>, %o: tensor<16x!tessera.ptr<f32>>, %n: index, %c: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0.0 : f32
  %zs = tessera.splat %z : tensor<16xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zs) -> (tensor<16xf32>) {
    %v = tessera.load %x : tensor<16x32x!tessera.ptr<f32>>
    %s = tessera.reduce(%v) {axis = 1 : i32} : (tensor<16x32xf32>) -> tensor<16xf32> {
    ^bb0(%a: f32, %b: f32):
      %t = arith.addf %a, %b : f32
      tessera.reduce.return %t : f32
    }
    %y = scf.if %c -> tensor<16xf32> {
      %q = arith.addf %acc, %s : tensor<16xf32>
      scf.yield %q : tensor<16xf32>
    } else {
      %inner = scf.for %j = %c0 to %n step %c1 iter_args(%a2 = %acc) -> (tensor<16xf32>) {
        %m = arith.mulf %a2, %s : tensor<16xf32>
        scf.yield %m : tensor<16xf32>
      }
      scf.yield %inner : tensor<16xf32>
    }
    scf.yield %y : tensor<16xf32>
  }
  tessera.store %o, %r : tensor<16x!tessera.ptr<f32>>
  return
}

// Rank 3, relabelling chains and tiny tensors: one conversion is real (the
// transposed and reshaped reduction is joined with the untransposed one).
// CHECK-LABEL: func.func @shapes3d
// CHECK-COUNT-1: tessera_gpu.convert_layout
// CHECK-NOT: tessera_gpu.convert_layout
// CHECK: return
func.func @shapes3d(%x: tensor<4x8x16x!tessera.ptr<f32>>, %o: tensor<8x16x!tessera.ptr<f32>>, %o2: tensor<2x1x!tessera.ptr<f32>>) {
  %v = tessera.load %x : tensor<4x8x16x!tessera.ptr<f32>>
  %s = tessera.reduce(%v) {axis = 0 : i32} : (tensor<4x8x16xf32>) -> tensor<8x16xf32> {
  ^bb0(%a: f32, %b: f32):
    %t = arith.maximumf %a, %b : f32
    tessera.reduce.return %t : f32
  }
  %t = tessera.trans %s {order = array<i32: 1, 0>} : tensor<8x16xf32> -> tensor<16x8xf32>
  %r = tessera.reshape %t : tensor<16x8xf32> -> tensor<8x16xf32>
  %j = tessera.join %r, %s : tensor<8x16xf32> -> tensor<8x16x2xf32>
  %p:2 = tessera.split %j : tensor<8x16x2xf32> -> tensor<8x16xf32>
  %cc = tessera.cat %p#0, %p#1 : tensor<8x16xf32> -> tensor<16x16xf32>
  %half = tessera.reshape %cc {allow_reorder} : tensor<16x16xf32> -> tensor<2x8x16xf32>
  %sum = tessera.reduce(%half) {axis = 0 : i32} : (tensor<2x8x16xf32>) -> tensor<8x16xf32> {
  ^bb0(%a: f32, %b: f32):
    %u = arith.addf %a, %b : f32
    tessera.reduce.return %u : f32
  }
  tessera.store %o, %sum : tensor<8x16x!tessera.ptr<f32>>
  %tiny = tessera.load %o2 : tensor<2x1x!tessera.ptr<f32>>
  %tt = math.exp %tiny : tensor<2x1xf32>
  tessera.store %o2, %tt : tensor<2x1x!tessera.ptr<f32>>
  return
}

// A reduction of two operands together (argmax).
// CHECK-LABEL: func.func @argmax
// CHECK: tessera.reduce(%{{.*}}, %{{.*}}) {axis = 1 : i32} : (tensor<16x32xf32, #[[B:.*]]>, tensor<16x32xi32, #[[B]]>)
// CHECK-COUNT-1: tessera_gpu.convert_layout
// CHECK-NOT: tessera_gpu.convert_layout
// CHECK: return
func.func @argmax(%x: tensor<16x32x!tessera.ptr<f32>>, %o: tensor<16x!tessera.ptr<i32>>) {
  %v = tessera.load %x : tensor<16x32x!tessera.ptr<f32>>
  %r = tessera.make_range {start = 0 : i32, end = 32 : i32} : tensor<32xi32>
  %re = tessera.expand_dims %r {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
  %rb = tessera.broadcast %re : tensor<1x32xi32> -> tensor<16x32xi32>
  %m:2 = tessera.reduce(%v, %rb) {axis = 1 : i32} : (tensor<16x32xf32>, tensor<16x32xi32>) -> (tensor<16xf32>, tensor<16xi32>) {
  ^bb0(%a: f32, %ai: i32, %b: f32, %bi: i32):
    %gt = arith.cmpf ogt, %a, %b : f32
    %mv = arith.select %gt, %a, %b : f32
    %mi = arith.select %gt, %ai, %bi : i32
    tessera.reduce.return %mv, %mi : f32, i32
  }
  tessera.store %o, %m#1 : tensor<16x!tessera.ptr<i32>>
  return
}

// CHECK-LABEL: func.func @whileloop
// CHECK-NOT: tessera_gpu.convert_layout
// CHECK: return
func.func @whileloop(%x: tensor<64x!tessera.ptr<f32>>, %n: i32) -> tensor<64xf32> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %v = tessera.load %x : tensor<64x!tessera.ptr<f32>>
  %r:2 = scf.while (%i = %c0, %a = %v) : (i32, tensor<64xf32>) -> (i32, tensor<64xf32>) {
    %cond = arith.cmpi slt, %i, %n : i32
    scf.condition(%cond) %i, %a : i32, tensor<64xf32>
  } do {
  ^bb0(%j: i32, %b: tensor<64xf32>):
    %e = math.exp %b : tensor<64xf32>
    %j1 = arith.addi %j, %c1 : i32
    scf.yield %j1, %e : i32, tensor<64xf32>
  }
  return %r#1 : tensor<64xf32>
}
