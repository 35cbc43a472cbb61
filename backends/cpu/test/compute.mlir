// RUN: tessera-cpu-opt %s --split-input-file --tessera-cpu-to-structured | FileCheck %s

// reduce: seeded with the first element along the axis, the rest folded by a
// linalg.generic running the combine region, its float arithmetic marked
// reassociable (comparisons and selects as they are).
// CHECK-DAG: #[[$ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[$ROW:.*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func @argmax
// CHECK-SAME: (%[[X:.*]]: tensor<4x8xf32>, %[[I:.*]]: tensor<4x8xi32>)
// CHECK-DAG: %[[X0:.*]] = tensor.extract_slice %[[X]][0, 0] [4, 1] [1, 1] : tensor<4x8xf32> to tensor<4xf32>
// CHECK-DAG: %[[XR:.*]] = tensor.extract_slice %[[X]][0, 1] [4, 7] [1, 1] : tensor<4x8xf32> to tensor<4x7xf32>
// CHECK-DAG: %[[I0:.*]] = tensor.extract_slice %[[I]][0, 0] [4, 1] [1, 1] : tensor<4x8xi32> to tensor<4xi32>
// CHECK-DAG: %[[IR:.*]] = tensor.extract_slice %[[I]][0, 1] [4, 7] [1, 1] : tensor<4x8xi32> to tensor<4x7xi32>
// CHECK: %[[G:.*]]:2 = linalg.generic {indexing_maps = [#[[$ID]], #[[$ID]], #[[$ROW]], #[[$ROW]]], iterator_types = ["parallel", "reduction"]} ins(%[[XR]], %[[IR]] : tensor<4x7xf32>, tensor<4x7xi32>) outs(%[[X0]], %[[I0]] : tensor<4xf32>, tensor<4xi32>)
// CHECK: ^bb0(%[[NV:.*]]: f32, %[[NI:.*]]: i32, %[[AV:.*]]: f32, %[[AI:.*]]: i32):
// CHECK: %[[GT:.*]] = arith.cmpf ogt, %[[NV]], %[[AV]] : f32
// CHECK: %[[V:.*]] = arith.select %[[GT]], %[[NV]], %[[AV]] : f32
// CHECK: %[[IX:.*]] = arith.select %[[GT]], %[[NI]], %[[AI]] : i32
// CHECK: linalg.yield %[[V]], %[[IX]] : f32, i32
// CHECK: return %[[G]]#0, %[[G]]#1
func.func @argmax(%x: tensor<4x8xf32>, %i: tensor<4x8xi32>) -> (tensor<4xf32>, tensor<4xi32>) {
  %r:2 = tessera.reduce(%x, %i) {axis = 1 : i32} : (tensor<4x8xf32>, tensor<4x8xi32>) -> (tensor<4xf32>, tensor<4xi32>) {
  ^bb0(%v0: f32, %i0: i32, %v1: f32, %i1: i32):
    %gt = arith.cmpf ogt, %v1, %v0 : f32
    %v = arith.select %gt, %v1, %v0 : f32
    %ix = arith.select %gt, %i1, %i0 : i32
    tessera.reduce.return %v, %ix : f32, i32
  }
  return %r#0, %r#1 : tensor<4xf32>, tensor<4xi32>
}

// -----

// A rank-1 reduction yields a scalar; axis 0 of a matrix folds columns.
// CHECK-LABEL: func @sums
// CHECK: linalg.generic {{.*}} iterator_types = ["reduction"]} ins(%{{.*}} : tensor<15xf32>) outs(%{{.*}} : tensor<f32>)
// CHECK: arith.addf %{{.*}}, %{{.*}} fastmath<reassoc> : f32
// CHECK: tensor.extract %{{.*}}[] : tensor<f32>
// CHECK: linalg.generic {{.*}} iterator_types = ["reduction", "parallel"]} ins(%{{.*}} : tensor<3x8xi32>) outs(%{{.*}} : tensor<8xi32>)
// CHECK: arith.maxsi
func.func @sums(%x: tensor<16xf32>, %y: tensor<4x8xi32>) -> (f32, tensor<8xi32>) {
  %s = tessera.reduce(%x) {axis = 0 : i32} : (tensor<16xf32>) -> f32 {
  ^bb0(%a: f32, %b: f32):
    %c = arith.addf %a, %b : f32
    tessera.reduce.return %c : f32
  }
  %m = tessera.reduce(%y) {axis = 0 : i32} : (tensor<4x8xi32>) -> tensor<8xi32> {
  ^bb0(%a: i32, %b: i32):
    %c = arith.maxsi %a, %b : i32
    tessera.reduce.return %c : i32
  }
  return %s, %m : f32, tensor<8xi32>
}

// -----

// scan: for every position off the axis, a sequential loop along it.
// CHECK-LABEL: func @cumsum
// CHECK: scf.for %[[I:.*]] = %c0 to %c4 step %c1 iter_args(%{{.*}} = %{{.*}}) -> (tensor<4x8xf32>)
// CHECK: scf.for %{{.*}} = %c0 to %{{.*}} step %c1 iter_args(%[[OUT:.*]] = %{{.*}})
// The first element of the scan order (the last one, reversed) seeds it.
// CHECK: %[[FIRST:.*]] = tensor.extract %{{.*}}[%[[I]], %[[LAST:.*]]]
// CHECK: %[[T0:.*]] = tensor.insert %[[FIRST]] into %[[OUT]][%[[I]], %[[LAST]]]
// CHECK: scf.for %[[J:.*]] = %{{.*}} to %c8 step %{{.*}} iter_args(%[[ACC:.*]] = %[[FIRST]], %[[T:.*]] = %[[T0]]) -> (f32, tensor<4x8xf32>)
// CHECK: %[[K:.*]] = arith.subi %{{.*}}, %[[J]] : index
// CHECK: %[[X:.*]] = tensor.extract %{{.*}}[%[[I]], %[[K]]]
// CHECK: %[[S:.*]] = arith.addf %[[ACC]], %[[X]] : f32
// CHECK: %[[U:.*]] = tensor.insert %[[S]] into %[[T]][%[[I]], %[[K]]]
// CHECK: scf.yield %[[S]], %[[U]] : f32, tensor<4x8xf32>
func.func @cumsum(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %s = tessera.scan(%x) {axis = 1 : i32, reverse} : (tensor<4x8xf32>) -> tensor<4x8xf32> {
  ^bb0(%a: f32, %b: f32):
    %c = arith.addf %a, %b : f32
    tessera.scan.return %c : f32
  }
  return %s : tensor<4x8xf32>
}

// -----

// histogram: counts unmasked values in [0, bins).
// CHECK-LABEL: func @histogram
// CHECK: %[[Z:.*]] = linalg.fill ins(%c0_i32 : i32) outs(%{{.*}} : tensor<8xi32>)
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %c16 step %{{.*}} iter_args(%[[H:.*]] = %[[Z]])
// CHECK: %[[V:.*]] = arith.extsi %{{.*}} : i32 to i64
// CHECK: arith.cmpi sge, %[[V]], %{{.*}} : i64
// CHECK: arith.cmpi slt, %[[V]], %{{.*}} : i64
// CHECK: arith.andi
// CHECK: %[[OK:.*]] = arith.andi %{{.*}}, %{{.*}} : i1
// CHECK: scf.if %[[OK]]
// CHECK: %[[B:.*]] = arith.index_cast %[[V]] : i64 to index
// CHECK: %[[C:.*]] = tensor.extract %[[H]][%[[B]]]
// CHECK: %[[N:.*]] = arith.addi %[[C]], %{{.*}} : i32
// CHECK: tensor.insert %[[N]] into %[[H]][%[[B]]]
func.func @histogram(%x: tensor<16xi32>, %m: tensor<16xi1>) -> tensor<8xi32> {
  %h = tessera.histogram %x, %m : tensor<16xi1> : tensor<16xi32> -> tensor<8xi32>
  return %h : tensor<8xi32>
}

// -----

// dot: operands widened to the accumulator's type, then one generic over
// (m, k, n) with n innermost, accumulating with fused multiply-adds.
// CHECK-DAG: #[[$A:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-DAG: #[[$B:.*]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-DAG: #[[$C:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-LABEL: func @dot_f16
// CHECK-SAME: (%[[A:.*]]: tensor<16x32xf16>, %[[B:.*]]: tensor<32x8xf16>, %[[C:.*]]: tensor<16x8xf32>)
// CHECK: %[[AW:.*]] = linalg.generic {{.*}} ins(%[[A]] : tensor<16x32xf16>) outs(%{{.*}} : tensor<16x32xf32>)
// CHECK: arith.extf %{{.*}} : f16 to f32
// CHECK: %[[BW:.*]] = linalg.generic {{.*}} ins(%[[B]] : tensor<32x8xf16>) outs(%{{.*}} : tensor<32x8xf32>)
// CHECK: linalg.generic {indexing_maps = [#[[$A]], #[[$B]], #[[$C]]], iterator_types = ["parallel", "reduction", "parallel"]} ins(%[[AW]], %[[BW]] : tensor<16x32xf32>, tensor<32x8xf32>) outs(%[[C]] : tensor<16x8xf32>)
// CHECK: ^bb0(%[[X:.*]]: f32, %[[Y:.*]]: f32, %[[ACC:.*]]: f32):
// CHECK: math.fma %[[X]], %[[Y]], %[[ACC]] : f32
func.func @dot_f16(%a: tensor<16x32xf16>, %b: tensor<32x8xf16>, %c: tensor<16x8xf32>) -> tensor<16x8xf32> {
  %d = tessera.dot %a, %b, %c : tensor<16x32xf16> * tensor<32x8xf16> -> tensor<16x8xf32>
  return %d : tensor<16x8xf32>
}

// -----

// Operands whose every value bf16 holds (bf16, the fp8 formats) mark the
// dot's generic, which lets VectorizeDots narrow them back to bf16 for AMX
// tiles; fp16 (more mantissa) and f32 do not.
// CHECK-LABEL: func @dot_fp8_marked
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "reduction", "parallel"]{{.*}}tessera_cpu.bf16_operands
// CHECK-LABEL: func @dot_fp8_e5m2_marked
// CHECK: tessera_cpu.bf16_operands
// CHECK-LABEL: func @dot_bf16_marked
// CHECK: tessera_cpu.bf16_operands
// CHECK-LABEL: func @dot_f16_unmarked
// CHECK-NOT: tessera_cpu.bf16_operands
// CHECK: return
func.func @dot_fp8_marked(%a: tensor<16x32xf8E4M3FN>, %b: tensor<32x16xf8E4M3FN>, %c: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %d = tessera.dot %a, %b, %c : tensor<16x32xf8E4M3FN> * tensor<32x16xf8E4M3FN> -> tensor<16x16xf32>
  return %d : tensor<16x16xf32>
}
func.func @dot_fp8_e5m2_marked(%a: tensor<16x32xf8E5M2>, %b: tensor<32x16xf8E4M3FN>, %c: tensor<16x16xf16>) -> tensor<16x16xf16> {
  %d = tessera.dot %a, %b, %c : tensor<16x32xf8E5M2> * tensor<32x16xf8E4M3FN> -> tensor<16x16xf16>
  return %d : tensor<16x16xf16>
}
func.func @dot_bf16_marked(%a: tensor<16x32xbf16>, %b: tensor<32x16xbf16>, %c: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %d = tessera.dot %a, %b, %c : tensor<16x32xbf16> * tensor<32x16xbf16> -> tensor<16x16xf32>
  return %d : tensor<16x16xf32>
}
func.func @dot_f16_unmarked(%a: tensor<16x32xf16>, %b: tensor<32x16xf16>, %c: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %d = tessera.dot %a, %b, %c : tensor<16x32xf16> * tensor<32x16xf16> -> tensor<16x16xf32>
  return %d : tensor<16x16xf32>
}

// -----

// int8 dots accumulate in int32; a leading batch dimension is the outer loop.
// CHECK-LABEL: func @dot_i8_batched
// CHECK: arith.extsi %{{.*}} : i8 to i32
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction", "parallel"]
// CHECK: %[[P:.*]] = arith.muli %{{.*}}, %{{.*}} : i32
// CHECK: arith.addi %{{.*}}, %[[P]] : i32
func.func @dot_i8_batched(%a: tensor<2x4x8xi8>, %b: tensor<2x8x4xi8>, %c: tensor<2x4x4xi32>) -> tensor<2x4x4xi32> {
  %d = tessera.dot %a, %b, %c : tensor<2x4x8xi8> * tensor<2x8x4xi8> -> tensor<2x4x4xi32>
  return %d : tensor<2x4x4xi32>
}

// -----

// An fp16 accumulator (out_dtype=tl.float16) is widened to fp32 with the
// operands, accumulates in fp32 and is rounded to fp16 once, after the last
// product, as matrix units do; never one fp16 rounding per product.
// CHECK-LABEL: func @dot_f16_accumulator
// CHECK-SAME: (%[[A:.*]]: tensor<16x32xf16>, %[[B:.*]]: tensor<32x8xf16>, %[[C:.*]]: tensor<16x8xf16>)
// CHECK: %[[CW:.*]] = linalg.generic {{.*}} ins(%[[C]] : tensor<16x8xf16>) outs(%{{.*}} : tensor<16x8xf32>)
// CHECK: %[[D:.*]] = linalg.generic {{.*}} outs(%[[CW]] : tensor<16x8xf32>)
// CHECK: math.fma %{{.*}}, %{{.*}}, %{{.*}} : f32
// CHECK-NEXT: linalg.yield %{{.*}} : f32
// CHECK-NEXT: } -> tensor<16x8xf32>
// CHECK: linalg.generic {{.*}} ins(%[[D]] : tensor<16x8xf32>) outs(%{{.*}} : tensor<16x8xf16>)
// CHECK: arith.truncf %{{.*}} : f32 to f16
func.func @dot_f16_accumulator(%a: tensor<16x32xf16>, %b: tensor<32x8xf16>, %c: tensor<16x8xf16>) -> tensor<16x8xf16> {
  %d = tessera.dot %a, %b, %c : tensor<16x32xf16> * tensor<32x8xf16> -> tensor<16x8xf16>
  return %d : tensor<16x8xf16>
}
