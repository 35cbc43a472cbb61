// RUN: tessera-opt %s --canonicalize --split-input-file | FileCheck %s
// Folders and canonicalization patterns of the tessera dialect.

// CHECK-LABEL: func @splat_constant
func.func @splat_constant() -> tensor<8xf32> {
  %c = arith.constant 2.0 : f32
  // CHECK: %[[C:.*]] = arith.constant dense<2.000000e+00> : tensor<8xf32>
  // CHECK-NOT: tessera.splat
  %0 = tessera.splat %c : tensor<8xf32>
  // CHECK: return %[[C]]
  return %0 : tensor<8xf32>
}

// -----

// CHECK-LABEL: func @broadcast_of_splat
func.func @broadcast_of_splat(%x: f32) -> tensor<4x8xf32> {
  // CHECK: %[[S:.*]] = tessera.splat %{{.*}} : tensor<4x8xf32>
  // CHECK-NOT: tessera.broadcast
  %0 = tessera.splat %x : tensor<1x8xf32>
  %1 = tessera.broadcast %0 : tensor<1x8xf32> -> tensor<4x8xf32>
  // CHECK: return %[[S]]
  return %1 : tensor<4x8xf32>
}

// -----

// CHECK-LABEL: func @broadcast_chain
func.func @broadcast_chain(%x: tensor<1x1xf32>) -> tensor<4x8xf32> {
  // CHECK: tessera.broadcast %{{.*}} : tensor<1x1xf32> -> tensor<4x8xf32>
  // CHECK-NOT: tessera.broadcast
  %0 = tessera.broadcast %x : tensor<1x1xf32> -> tensor<1x8xf32>
  %1 = tessera.broadcast %0 : tensor<1x8xf32> -> tensor<4x8xf32>
  return %1 : tensor<4x8xf32>
}

// -----

// CHECK-LABEL: func @broadcast_identity
func.func @broadcast_identity(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // CHECK-NOT: tessera.broadcast
  // CHECK: return %arg0
  %0 = tessera.broadcast %x : tensor<4x8xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// CHECK-LABEL: func @expand_dims_of_splat
func.func @expand_dims_of_splat(%x: i32) -> tensor<1x8xi32> {
  // CHECK: tessera.splat %{{.*}} : tensor<1x8xi32>
  // CHECK-NOT: tessera.expand_dims
  %0 = tessera.splat %x : tensor<8xi32>
  %1 = tessera.expand_dims %0 {axis = 0 : i32} : tensor<8xi32> -> tensor<1x8xi32>
  return %1 : tensor<1x8xi32>
}

// -----

// CHECK-LABEL: func @reshape_chain
func.func @reshape_chain(%x: tensor<4x8xf32>) -> tensor<2x16xf32> {
  // CHECK: tessera.reshape %arg0 {allow_reorder} : tensor<4x8xf32> -> tensor<2x16xf32>
  // CHECK-NOT: tessera.reshape
  %0 = tessera.reshape %x {allow_reorder} : tensor<4x8xf32> -> tensor<32xf32>
  %1 = tessera.reshape %0 : tensor<32xf32> -> tensor<2x16xf32>
  return %1 : tensor<2x16xf32>
}

// -----

// CHECK-LABEL: func @reshape_identity
func.func @reshape_identity(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // CHECK-NEXT: return %arg0
  %0 = tessera.reshape %x : tensor<4x8xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// CHECK-LABEL: func @trans_chain
func.func @trans_chain(%x: tensor<2x4x8xf32>) -> tensor<8x2x4xf32> {
  // CHECK: tessera.trans %arg0 {order = array<i32: 2, 0, 1>} : tensor<2x4x8xf32> -> tensor<8x2x4xf32>
  // CHECK-NOT: tessera.trans
  %0 = tessera.trans %x {order = array<i32: 1, 0, 2>} : tensor<2x4x8xf32> -> tensor<4x2x8xf32>
  %1 = tessera.trans %0 {order = array<i32: 2, 1, 0>} : tensor<4x2x8xf32> -> tensor<8x2x4xf32>
  return %1 : tensor<8x2x4xf32>
}

// -----

// CHECK-LABEL: func @trans_inverse
func.func @trans_inverse(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // CHECK-NEXT: return %arg0
  %0 = tessera.trans %x {order = array<i32: 1, 0>} : tensor<4x8xf32> -> tensor<8x4xf32>
  %1 = tessera.trans %0 {order = array<i32: 1, 0>} : tensor<8x4xf32> -> tensor<4x8xf32>
  return %1 : tensor<4x8xf32>
}

// -----

// CHECK-LABEL: func @addptr_zero
func.func @addptr_zero(%p: tensor<8x!tessera.ptr<f32>>) -> tensor<8x!tessera.ptr<f32>> {
  %z = arith.constant dense<0> : tensor<8xi32>
  // CHECK-NEXT: return %arg0
  %0 = tessera.addptr %p, %z : tensor<8x!tessera.ptr<f32>>, tensor<8xi32>
  return %0 : tensor<8x!tessera.ptr<f32>>
}

// -----

// CHECK-LABEL: func @addptr_chain
func.func @addptr_chain(%p: !tessera.ptr<f32>, %a: i32, %b: i32) -> !tessera.ptr<f32> {
  // CHECK: %[[S:.*]] = arith.addi %arg1, %arg2 : i32
  // CHECK: tessera.addptr %arg0, %[[S]] : !tessera.ptr<f32>, i32
  // CHECK-NOT: tessera.addptr
  %0 = tessera.addptr %p, %a : !tessera.ptr<f32>, i32
  %1 = tessera.addptr %0, %b : !tessera.ptr<f32>, i32
  return %1 : !tessera.ptr<f32>
}

// -----

// CHECK-LABEL: func @bitcast_identity
func.func @bitcast_identity(%p: !tessera.ptr<f32>) -> !tessera.ptr<f32> {
  // CHECK-NEXT: return %arg0
  %0 = tessera.bitcast %p : !tessera.ptr<f32> -> !tessera.ptr<f32>
  return %0 : !tessera.ptr<f32>
}

// -----

// CHECK-LABEL: func @advance_zero
func.func @advance_zero(%b: !tessera.ptr<tensor<4x4xf32>>) -> !tessera.ptr<tensor<4x4xf32>> {
  %z = arith.constant 0 : i32
  // CHECK-NEXT: return %arg0
  %0 = tessera.advance %b, [%z, %z] : !tessera.ptr<tensor<4x4xf32>>
  return %0 : !tessera.ptr<tensor<4x4xf32>>
}

// -----

// CHECK-LABEL: func @load_true_mask
func.func @load_true_mask(%p: tensor<8x!tessera.ptr<f32>>, %o: tensor<8xf32>) -> tensor<8xf32> {
  %t = arith.constant dense<true> : tensor<8xi1>
  // CHECK: tessera.load %arg0 : tensor<8x!tessera.ptr<f32>>
  %0 = tessera.load %p, %t, %o : tensor<8x!tessera.ptr<f32>>
  return %0 : tensor<8xf32>
}

// -----

// CHECK-LABEL: func @load_false_mask
func.func @load_false_mask(%p: tensor<8x!tessera.ptr<f32>>, %o: tensor<8xf32>) -> tensor<8xf32> {
  %f = arith.constant dense<false> : tensor<8xi1>
  // CHECK-NOT: tessera.load
  // CHECK: return %arg1
  %0 = tessera.load %p, %f, %o : tensor<8x!tessera.ptr<f32>>
  return %0 : tensor<8xf32>
}

// -----

// CHECK-LABEL: func @store_masks
func.func @store_masks(%p: tensor<8x!tessera.ptr<f32>>, %v: tensor<8xf32>) {
  %t = arith.constant dense<true> : tensor<8xi1>
  %f = arith.constant dense<false> : tensor<8xi1>
  // CHECK: tessera.store %arg0, %arg1 : tensor<8x!tessera.ptr<f32>>
  // CHECK-NOT: tessera.store
  tessera.store %p, %v, %t : tensor<8x!tessera.ptr<f32>>
  tessera.store %p, %v, %f : tensor<8x!tessera.ptr<f32>>
  return
}

// -----

// CHECK-LABEL: func @dot_add
func.func @dot_add(%a: tensor<16x16xf16>, %b: tensor<16x16xf16>, %c: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %z = arith.constant dense<0.0> : tensor<16x16xf32>
  // CHECK: %[[D:.*]] = tessera.dot %arg0, %arg1, %arg2
  // CHECK-NOT: arith.addf
  // CHECK: return %[[D]]
  %0 = tessera.dot %a, %b, %z : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
  %1 = arith.addf %c, %0 : tensor<16x16xf32>
  return %1 : tensor<16x16xf32>
}

// -----

// A dot with another use keeps its own result.
// CHECK-LABEL: func @dot_add_shared
func.func @dot_add_shared(%a: tensor<16x16xf16>, %b: tensor<16x16xf16>, %c: tensor<16x16xf32>) -> (tensor<16x16xf32>, tensor<16x16xf32>) {
  %z = arith.constant dense<0.0> : tensor<16x16xf32>
  // CHECK: tessera.dot
  // CHECK: arith.addf
  %0 = tessera.dot %a, %b, %z : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
  %1 = arith.addf %c, %0 : tensor<16x16xf32>
  return %0, %1 : tensor<16x16xf32>, tensor<16x16xf32>
}

// -----

// Volatile loads are never removed; plain unused loads are.
// CHECK-LABEL: func @dce
func.func @dce(%p: tensor<8x!tessera.ptr<f32>>) {
  // CHECK: tessera.load %arg0 {isVolatile}
  // CHECK-NOT: tessera.load
  %0 = tessera.load %p {isVolatile} : tensor<8x!tessera.ptr<f32>>
  %1 = tessera.load %p : tensor<8x!tessera.ptr<f32>>
  return
}

// -----

// Float conversions of finite constants fold when the result is finite:
// 0.0 and 1.5 to e4m3 are exact, 0.3 rounds to nearest (0.3125) or towards
// zero (0.28125), and to f16 too (0.2998 towards zero). 1000.0 overflows e4m3 (max 448),
// where formats and targets disagree, so it stays; so does a NaN.
// CHECK-LABEL: func @fp_to_fp_constants
func.func @fp_to_fp_constants() -> (tensor<4xf8E4M3FN>, f8E4M3FN, f8E4M3FN, f8E4M3FN, f16, f8E4M3FN, f8E4M3FN) {
  // CHECK-DAG: %[[ZEROS:.*]] = arith.constant dense<0.000000e+00> : tensor<4xf8E4M3FN>
  // CHECK-DAG: %[[EXACT:.*]] = arith.constant 1.500000e+00 : f8E4M3FN
  // CHECK-DAG: %[[NEAREST:.*]] = arith.constant 3.125000e-01 : f8E4M3FN
  // CHECK-DAG: %[[TOWARDZERO:.*]] = arith.constant 2.812500e-01 : f8E4M3FN
  // CHECK-DAG: %[[HALF:.*]] = arith.constant 2.998050e-01 : f16
  // CHECK-DAG: %[[C1000:.*]] = arith.constant 1.000000e+03 : f32
  // CHECK-DAG: %[[CNAN:.*]] = arith.constant 0x7FC00000 : f32
  // CHECK-DAG: %[[BIG:.*]] = tessera.fp_to_fp %[[C1000]] {rounding = #tessera<rounding rtne>} : f32 -> f8E4M3FN
  // CHECK-DAG: %[[NAN:.*]] = tessera.fp_to_fp %[[CNAN]] {rounding = #tessera<rounding rtne>} : f32 -> f8E4M3FN
  // CHECK: return %[[ZEROS]], %[[EXACT]], %[[NEAREST]], %[[TOWARDZERO]], %[[HALF]], %[[BIG]], %[[NAN]]
  %z = arith.constant dense<0.0> : tensor<4xf32>
  %c15 = arith.constant 1.5 : f32
  %c03 = arith.constant 0.3 : f32
  %big = arith.constant 1000.0 : f32
  %nan = arith.constant 0x7FC00000 : f32
  %0 = tessera.fp_to_fp %z {rounding = #tessera<rounding rtne>} : tensor<4xf32> -> tensor<4xf8E4M3FN>
  %1 = tessera.fp_to_fp %c15 {rounding = #tessera<rounding rtne>} : f32 -> f8E4M3FN
  %2 = tessera.fp_to_fp %c03 {rounding = #tessera<rounding rtne>} : f32 -> f8E4M3FN
  %3 = tessera.fp_to_fp %c03 {rounding = #tessera<rounding rtz>} : f32 -> f8E4M3FN
  %4 = tessera.fp_to_fp %c03 {rounding = #tessera<rounding rtz>} : f32 -> f16
  %5 = tessera.fp_to_fp %big {rounding = #tessera<rounding rtne>} : f32 -> f8E4M3FN
  %6 = tessera.fp_to_fp %nan {rounding = #tessera<rounding rtne>} : f32 -> f8E4M3FN
  return %0, %1, %2, %3, %4, %5, %6 : tensor<4xf8E4M3FN>, f8E4M3FN, f8E4M3FN, f8E4M3FN, f16, f8E4M3FN, f8E4M3FN
}
