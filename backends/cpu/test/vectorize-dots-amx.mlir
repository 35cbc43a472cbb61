// RUN: tessera-cpu-opt %s --split-input-file --tessera-cpu-vectorize-dots="vector-bits=512 registers=32 amx-bf16=true" --cse | FileCheck %s
// RUN: tessera-cpu-opt %s --split-input-file --tessera-cpu-vectorize-dots="vector-bits=512 registers=32" --cse | FileCheck %s --check-prefix=NOAMX
// With AMX's bf16 tiles, a dot whose operands bf16 holds exactly (marked by
// the dot's lowering) narrows A to bf16 and B to bf16 row pairs in buffers
// at the function's entry, then runs each 16x16 tile of C as one tile load,
// one tile multiply per 32 steps of K and one tile store. Without the
// option, or without the mark, or with sizes that are not whole tiles, the
// SIMD micro-kernels run it.

#a = affine_map<(m, k, n) -> (m, k)>
#b = affine_map<(m, k, n) -> (k, n)>
#c = affine_map<(m, k, n) -> (m, n)>
// CHECK-LABEL: func @marked
// CHECK-SAME: (%[[A:.*]]: memref<32x64xf32>, %[[B:.*]]: memref<64x32xf32>, %[[C:.*]]: memref<32x32xf32>)
// CHECK-DAG: %[[AP:.*]] = memref.alloca() {alignment = 64 : i64} : memref<32x64xbf16>
// CHECK-DAG: %[[BP:.*]] = memref.alloca() {alignment = 64 : i64} : memref<32x64xbf16>
// CHECK: arith.truncf %{{.*}} : f32 to bf16
// CHECK: memref.store %{{.*}}, %[[AP]]
// CHECK: %[[EVEN:.*]] = memref.load %[[B]][%{{.*}}, %[[N:.*]]] : memref<64x32xf32>
// CHECK: arith.truncf %[[EVEN]]
// CHECK: memref.store %{{.*}}, %[[BP]]
// CHECK: %[[ODD:.*]] = memref.load %[[B]]
// CHECK: arith.truncf %[[ODD]]
// CHECK: memref.store %{{.*}}, %[[BP]]
// CHECK: scf.for %[[J:.*]] = %c0 to %c32 step %c16
// CHECK: %[[J2:.*]] = arith.muli %[[J]], %c2
// CHECK: scf.for %[[I:.*]] = %c0 to %c32 step %c16
// CHECK: %[[ACC:.*]] = amx.tile_load %[[C]][%[[I]], %[[J]]] : memref<32x32xf32> into !amx.tile<16x16xf32>
// CHECK: %[[L0:.*]] = amx.tile_load %[[AP]][%[[I]], %c0] : memref<32x64xbf16> into !amx.tile<16x32xbf16>
// CHECK: %[[R0:.*]] = amx.tile_load %[[BP]][%c0, %[[J2]]] : memref<32x64xbf16> into !amx.tile<16x32xbf16>
// CHECK: %[[M0:.*]] = amx.tile_mulf %[[L0]], %[[R0]], %[[ACC]]
// CHECK: %[[L1:.*]] = amx.tile_load %[[AP]][%[[I]], %c32]
// CHECK: %[[R1:.*]] = amx.tile_load %[[BP]][%c16, %[[J2]]]
// CHECK: %[[M1:.*]] = amx.tile_mulf %[[L1]], %[[R1]], %[[M0]]
// CHECK: amx.tile_store %[[C]][%[[I]], %[[J]]], %[[M1]]
// CHECK-NOT: linalg.generic
// CHECK-NOT: vector.fma
// NOAMX-LABEL: func @marked
// NOAMX-NOT: amx.
// NOAMX: vector.fma
func.func @marked(%a: memref<32x64xf32>, %b: memref<64x32xf32>, %c: memref<32x32xf32>) {
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "reduction", "parallel"]} ins(%a, %b : memref<32x64xf32>, memref<64x32xf32>) outs(%c : memref<32x32xf32>) attrs = {tessera_cpu.bf16_operands} {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %r = math.fma %x, %y, %acc : f32
    linalg.yield %r : f32
  }
  return
}

// -----

#a = affine_map<(m, k, n) -> (m, k)>
#b = affine_map<(m, k, n) -> (k, n)>
#c = affine_map<(m, k, n) -> (m, n)>
// Unmarked (fp16 or f32 operands), or K not a multiple of 32: SIMD.
// CHECK-LABEL: func @unmarked
// CHECK-NOT: amx.
// CHECK: vector.fma
// CHECK-LABEL: func @partial_depth
// CHECK-NOT: amx.
// CHECK: vector.fma
func.func @unmarked(%a: memref<32x64xf32>, %b: memref<64x32xf32>, %c: memref<32x32xf32>) {
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "reduction", "parallel"]} ins(%a, %b : memref<32x64xf32>, memref<64x32xf32>) outs(%c : memref<32x32xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %r = math.fma %x, %y, %acc : f32
    linalg.yield %r : f32
  }
  return
}
func.func @partial_depth(%a: memref<32x48xf32>, %b: memref<48x32xf32>, %c: memref<32x32xf32>) {
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "reduction", "parallel"]} ins(%a, %b : memref<32x48xf32>, memref<48x32xf32>) outs(%c : memref<32x32xf32>) attrs = {tessera_cpu.bf16_operands} {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %r = math.fma %x, %y, %acc : f32
    linalg.yield %r : f32
  }
  return
}
