// RUN: tessera-cpu-opt %s --split-input-file --tessera-cpu-vectorize-dots="vector-bits=512 registers=32" --cse | FileCheck %s
// RUN: tessera-cpu-opt %s --split-input-file --tessera-cpu-vectorize-dots="vector-bits=256 registers=16" --cse | FileCheck %s --check-prefix=AVX2
// A dot on buffers (the generic tessera.dot lowers to) becomes
// register-blocked micro-kernels: per tile of MR rows by NV vectors, the
// accumulators are loaded once, the K loop carries them (one row of B as NV
// vector loads, one broadcast of A per row, MR * NV FMAs per k) and they
// are stored once. Rows and columns the tiles leave over run as the
// original generic on subviews.

#a = affine_map<(m, k, n) -> (m, k)>
#b = affine_map<(m, k, n) -> (k, n)>
#c = affine_map<(m, k, n) -> (m, n)>
// 20x48 with 16-lane vectors and 32 registers: tiles of 8 rows by 2
// vectors (16 accumulators), 16 of the rows and 32 of the columns; then the
// generic on the 16 rows' last 16 columns and on the last 4 rows.
// CHECK-LABEL: func @dot
// CHECK-SAME: (%[[A:.*]]: memref<20x8xf32>, %[[B:.*]]: memref<8x48xf32>, %[[C:.*]]: memref<20x48xf32>)
// CHECK: scf.for %[[J:.*]] = %c0 to %c32 step %c32
// CHECK: scf.for %[[I:.*]] = %c0 to %c16 step %c8
// CHECK-COUNT-16: vector.load %[[C]]
// CHECK: scf.for %[[K:.*]] = %c0 to %c8 step %c1 iter_args(
// CHECK: %[[B0:.*]] = vector.load %[[B]][%[[K]], %[[J]]] : memref<8x48xf32>, vector<16xf32>
// CHECK: %[[B1:.*]] = vector.load %[[B]][%[[K]], %{{.*}}] : memref<8x48xf32>, vector<16xf32>
// CHECK: %[[A0:.*]] = memref.load %[[A]][%[[I]], %[[K]]]
// CHECK: %[[S0:.*]] = vector.broadcast %[[A0]] : f32 to vector<16xf32>
// CHECK: vector.fma %[[S0]], %[[B0]]
// CHECK: vector.fma %[[S0]], %[[B1]]
// CHECK-COUNT-14: vector.fma
// CHECK: scf.yield
// CHECK-COUNT-16: vector.store %{{.*}}, %[[C]]
// CHECK: %[[RA:.*]] = memref.subview %[[A]][0, 0] [16, 8] [1, 1]
// CHECK: %[[RB:.*]] = memref.subview %[[B]][0, 32] [8, 16] [1, 1]
// CHECK: %[[RC:.*]] = memref.subview %[[C]][0, 32] [16, 16] [1, 1]
// CHECK: linalg.generic {{.*}} ins(%[[RA]], %[[RB]] : {{.*}}) outs(%[[RC]] :
// CHECK: %[[BA:.*]] = memref.subview %[[A]][16, 0] [4, 8] [1, 1]
// CHECK: %[[BB:.*]] = memref.subview %[[B]][0, 0] [8, 48] [1, 1]
// CHECK: %[[BC:.*]] = memref.subview %[[C]][16, 0] [4, 48] [1, 1]
// CHECK: linalg.generic {{.*}} ins(%[[BA]], %[[BB]] : {{.*}}) outs(%[[BC]] :
// CHECK-NOT: linalg.generic
// With 8-lane vectors and 16 registers: tiles of 4 rows by 2 vectors,
// which cover the 20x48 block exactly.
// AVX2-LABEL: func @dot
// AVX2: scf.for %{{.*}} = %c0 to %c48 step %c16
// AVX2: scf.for %{{.*}} = %c0 to %c20 step %c4
// AVX2-COUNT-8: vector.load {{.*}} vector<8xf32>
// AVX2-NOT: memref.subview
// AVX2-NOT: linalg.generic
// AVX2-LABEL: func @batched
func.func @dot(%a: memref<20x8xf32>, %b: memref<8x48xf32>, %c: memref<20x48xf32>) {
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "reduction", "parallel"]} ins(%a, %b : memref<20x8xf32>, memref<8x48xf32>) outs(%c : memref<20x48xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %r = math.fma %x, %y, %acc : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// A batched dot (3-D) loops over the batch around the same tiles.
#a3 = affine_map<(b, m, k, n) -> (b, m, k)>
#b3 = affine_map<(b, m, k, n) -> (b, k, n)>
#c3 = affine_map<(b, m, k, n) -> (b, m, n)>
// CHECK-LABEL: func @batched
// CHECK: scf.for %[[Z:.*]] = %c0 to %c2 step %c1
// CHECK: scf.for %[[J:.*]] = %c0 to %c16 step %c16
// CHECK: scf.for %[[I:.*]] = %c0 to %c8 step %c8
// CHECK: vector.load %{{.*}}[%[[Z]], %[[I]], %[[J]]] : memref<2x8x16xf64>, vector<8xf64>
// CHECK-NOT: linalg.generic
func.func @batched(%a: memref<2x8x4xf64>, %b: memref<2x4x16xf64>, %c: memref<2x8x16xf64>) {
  linalg.generic {indexing_maps = [#a3, #b3, #c3], iterator_types = ["parallel", "parallel", "reduction", "parallel"]} ins(%a, %b : memref<2x8x4xf64>, memref<2x4x16xf64>) outs(%c : memref<2x8x16xf64>) {
  ^bb0(%x: f64, %y: f64, %acc: f64):
    %r = math.fma %x, %y, %acc : f64
    linalg.yield %r : f64
  }
  return
}

// -----

// Left to the loops: B's rows not contiguous, an integer dot, and N below
// four lanes.
#a = affine_map<(m, k, n) -> (m, k)>
#b = affine_map<(m, k, n) -> (k, n)>
#c = affine_map<(m, k, n) -> (m, n)>
// CHECK-LABEL: func @kept
// CHECK-NOT: vector.
// CHECK-COUNT-3: linalg.generic
// CHECK-NOT: vector.
func.func @kept(%a: memref<8x8xf32>, %bt: memref<8x32xf32, strided<[1, 8]>>,
                %c: memref<8x32xf32>, %ia: memref<8x8xi32>, %ib: memref<8x32xi32>,
                %ic: memref<8x32xi32>, %nb: memref<8x2xf32>, %nc: memref<8x2xf32>) {
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "reduction", "parallel"]} ins(%a, %bt : memref<8x8xf32>, memref<8x32xf32, strided<[1, 8]>>) outs(%c : memref<8x32xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %r = math.fma %x, %y, %acc : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "reduction", "parallel"]} ins(%ia, %ib : memref<8x8xi32>, memref<8x32xi32>) outs(%ic : memref<8x32xi32>) {
  ^bb0(%x: i32, %y: i32, %acc: i32):
    %p = arith.muli %x, %y : i32
    %r = arith.addi %acc, %p : i32
    linalg.yield %r : i32
  }
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "reduction", "parallel"]} ins(%a, %nb : memref<8x8xf32>, memref<8x2xf32>) outs(%nc : memref<8x2xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %r = math.fma %x, %y, %acc : f32
    linalg.yield %r : f32
  }
  return
}
