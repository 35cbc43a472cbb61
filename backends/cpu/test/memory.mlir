// RUN: tessera-cpu-opt %s --split-input-file --tessera-cpu-to-structured | FileCheck %s
// Loads, stores and atomics through blocks of pointers are loop nests over
// the elements (they keep their order with other memory operations), with
// LLVM memory operations on i64 addresses under each element's mask.

// CHECK-LABEL: func @masked_load
// CHECK-SAME: (%[[P:.*]]: tensor<4x8xi64>, %[[M:.*]]: tensor<4x8xi1>, %[[O:.*]]: tensor<4x8xf16>)
// CHECK: %[[E:.*]] = tensor.empty() : tensor<4x8xf16>
// CHECK: scf.for %[[I:.*]] = %c0 to %c4 step %c1 iter_args(%[[T0:.*]] = %[[E]])
// CHECK: scf.for %[[J:.*]] = %c0 to %c8 step %c1 iter_args(%[[T1:.*]] = %[[T0]])
// CHECK: %[[A:.*]] = tensor.extract %[[P]][%[[I]], %[[J]]]
// CHECK: %[[K:.*]] = tensor.extract %[[M]][%[[I]], %[[J]]]
// CHECK: %[[V:.*]] = scf.if %[[K]] -> (f16) {
// CHECK: %[[PTR:.*]] = llvm.inttoptr %[[A]] : i64 to !llvm.ptr
// CHECK: %[[L:.*]] = llvm.load %[[PTR]] {alignment = 2 : i64} : !llvm.ptr -> f16
// CHECK: scf.yield %[[L]]
// CHECK: } else {
// CHECK: %[[OT:.*]] = tensor.extract %[[O]][%[[I]], %[[J]]]
// CHECK: scf.yield %[[OT]]
// CHECK: tensor.insert %[[V]] into %[[T1]][%[[I]], %[[J]]]
func.func @masked_load(%p: tensor<4x8x!tessera.ptr<f16>>, %m: tensor<4x8xi1>, %o: tensor<4x8xf16>) -> tensor<4x8xf16> {
  %v = tessera.load %p, %m, %o : tensor<4x8x!tessera.ptr<f16>>
  return %v : tensor<4x8xf16>
}

// -----

// Without `other`, masked-off lanes read zero; volatile loads stay volatile;
// i1 is a byte in memory, fp8 an integer of its width.
// CHECK-LABEL: func @load_kinds
// CHECK: scf.if
// CHECK: llvm.load volatile %{{.*}} {alignment = 4 : i64} : !llvm.ptr -> f32
// CHECK: } else {
// CHECK: arith.constant 0.000000e+00 : f32
// CHECK: %[[B:.*]] = llvm.load %{{.*}} {alignment = 1 : i64} : !llvm.ptr -> i8
// CHECK: arith.cmpi ne, %[[B]], %{{.*}} : i8
// CHECK: %[[Q:.*]] = llvm.load %{{.*}} {alignment = 1 : i64} : !llvm.ptr -> i8
// CHECK: arith.bitcast %[[Q]] : i8 to f8E5M2
func.func @load_kinds(%p: tensor<4x!tessera.ptr<f32>>, %m: tensor<4xi1>, %b: !tessera.ptr<i1>, %f: !tessera.ptr<f8E5M2>) -> (tensor<4xf32>, i1, f8E5M2) {
  %v = tessera.load %p, %m {isVolatile} : tensor<4x!tessera.ptr<f32>>
  %x = tessera.load %b : !tessera.ptr<i1>
  %y = tessera.load %f : !tessera.ptr<f8E5M2>
  return %v, %x, %y : tensor<4xf32>, i1, f8E5M2
}

// -----

// CHECK-LABEL: func @stores
// CHECK-SAME: (%[[P:.*]]: tensor<4xi64>, %[[V:.*]]: tensor<4xi32>, %[[M:.*]]: tensor<4xi1>, %[[S:.*]]: i64, %[[X:.*]]: i1)
// CHECK: scf.for %[[I:.*]] =
// CHECK: %[[A:.*]] = tensor.extract %[[P]][%[[I]]]
// CHECK: %[[E:.*]] = tensor.extract %[[V]][%[[I]]]
// CHECK: %[[K:.*]] = tensor.extract %[[M]][%[[I]]]
// CHECK: scf.if %[[K]] {
// CHECK: %[[PTR:.*]] = llvm.inttoptr %[[A]]
// CHECK: llvm.store %[[E]], %[[PTR]] {alignment = 4 : i64} : i32, !llvm.ptr
// A scalar i1 is stored as a byte.
// CHECK: %[[Z:.*]] = arith.extui %[[X]] : i1 to i8
// CHECK: llvm.store %[[Z]], %{{.*}} {alignment = 1 : i64} : i8, !llvm.ptr
func.func @stores(%p: tensor<4x!tessera.ptr<i32>>, %v: tensor<4xi32>, %m: tensor<4xi1>, %s: !tessera.ptr<i1>, %x: i1) {
  tessera.store %p, %v, %m : tensor<4x!tessera.ptr<i32>>
  tessera.store %s, %x : !tessera.ptr<i1>
  return
}

// -----

// Atomics: LLVM atomicrmw / cmpxchg with the requested ordering, in small
// internal functions that LLVM inlines (the buffer deallocation pass cannot
// reason about LLVM's atomics).
// CHECK-LABEL: llvm.func internal @__tessera_cpu_cmpxchg_acquire_acquire_i32
// CHECK: %[[CAS:.*]] = llvm.cmpxchg %{{.*}}, %{{.*}}, %{{.*}} acquire acquire : !llvm.ptr, i32
// CHECK: llvm.extractvalue %[[CAS]][0]
// CHECK-LABEL: llvm.func internal @__tessera_cpu_cmpxchg_release_monotonic_i32
// CHECK: llvm.cmpxchg %{{.*}}, %{{.*}}, %{{.*}} release monotonic : !llvm.ptr, i32
// CHECK-LABEL: llvm.func internal @__tessera_cpu_atomicrmw_xchg_release_f32
// CHECK: llvm.atomicrmw xchg %{{.*}}, %{{.*}} release : !llvm.ptr, f32
// CHECK-LABEL: llvm.func internal @__tessera_cpu_atomicrmw_fadd_monotonic_f32
// CHECK: llvm.atomicrmw fadd %{{.*}}, %{{.*}} monotonic : !llvm.ptr, f32
// CHECK-LABEL: llvm.func internal @__tessera_cpu_atomicrmw_max_acq_rel_i32
// CHECK-SAME: attributes {always_inline}
// CHECK: llvm.atomicrmw max %{{.*}}, %{{.*}} acq_rel : !llvm.ptr, i32
// CHECK-LABEL: func @atomics
// CHECK: scf.for
// CHECK: scf.if
// CHECK: llvm.call @__tessera_cpu_atomicrmw_max_acq_rel_i32
// CHECK: } else {
// CHECK: arith.constant 0 : i32
// CHECK: llvm.call @__tessera_cpu_atomicrmw_fadd_monotonic_f32
// CHECK: llvm.call @__tessera_cpu_atomicrmw_xchg_release_f32
// Floats compare-and-swap through their bits.
// CHECK: %[[C:.*]] = arith.bitcast %{{.*}} : f32 to i32
// CHECK: %[[N:.*]] = arith.bitcast %{{.*}} : f32 to i32
// CHECK: llvm.call @__tessera_cpu_cmpxchg_release_monotonic_i32(%{{.*}}, %[[C]], %[[N]])
// CHECK: llvm.call @__tessera_cpu_cmpxchg_acquire_acquire_i32
func.func @atomics(%p: tensor<4x!tessera.ptr<i32>>, %v: tensor<4xi32>, %m: tensor<4xi1>, %f: !tessera.ptr<f32>, %x: f32, %s: !tessera.ptr<i32>, %i: i32) -> (tensor<4xi32>, f32, f32, f32, i32) {
  %0 = tessera.atomic_rmw max %p, %v, %m : tensor<4x!tessera.ptr<i32>>
  %1 = tessera.atomic_rmw fadd %f, %x {sem = #tessera<sem relaxed>, scope = #tessera<scope cta>} : !tessera.ptr<f32>
  %2 = tessera.atomic_rmw xchg %f, %x {sem = #tessera<sem release>} : !tessera.ptr<f32>
  %3 = tessera.atomic_cas %f, %x, %x {sem = #tessera<sem release>} : !tessera.ptr<f32>
  %4 = tessera.atomic_cas %s, %i, %i {sem = #tessera<sem acquire>} : !tessera.ptr<i32>
  return %0, %1, %2, %3, %4 : tensor<4xi32>, f32, f32, f32, i32
}

// -----

// A block of pointers the axis analysis proves contiguous along its last
// dimension: the loop over the run starts from the run's first address and
// steps with a GEP per element (LLVM's vectorizer follows pointers, not
// inttoptr); one address is extracted per run, not per element.
// CHECK-LABEL: func @contiguous_load
// CHECK: scf.for %[[R:.*]] = %c0 to %c1{{.*}} step %c1
// CHECK: %[[S:.*]] = arith.muli %[[R]], %c16
// CHECK: %[[A:.*]] = tensor.extract %{{.*}}[%[[S]]] : tensor<16xi64>
// CHECK: %[[BASE:.*]] = llvm.inttoptr %[[A]] : i64 to !llvm.ptr
// CHECK: scf.for %[[T:.*]] = %{{.*}} to %c16{{.*}} step
// CHECK: %[[I:.*]] = arith.addi %[[S]], %[[T]]
// CHECK: %[[O:.*]] = arith.index_cast %[[T]] : index to i64
// CHECK: %[[G:.*]] = llvm.getelementptr %[[BASE]][%[[O]]] : (!llvm.ptr, i64) -> !llvm.ptr, i32
// CHECK: llvm.load %[[G]] {alignment = 4 : i64} : !llvm.ptr -> i32
// CHECK: tensor.insert %{{.*}}[%[[I]]]
// CHECK-NOT: tensor.extract %{{.*}} : tensor<16xi64>
// CHECK: return
func.func @contiguous_load(%base: !tessera.ptr<i32> {tt.divisibility = 16 : i32}) -> tensor<16xi32> {
  %r = tessera.make_range {start = 0 : i32, end = 16 : i32} : tensor<16xi32>
  %b = tessera.splat %base : tensor<16x!tessera.ptr<i32>>
  %p = tessera.addptr %b, %r : tensor<16x!tessera.ptr<i32>>, tensor<16xi32>
  %v = tessera.load %p : tensor<16x!tessera.ptr<i32>>
  return %v : tensor<16xi32>
}

// -----

// A block contiguous along its first dimension only (the columns of a
// transposed matrix: offsets k + n * stride): the run walks that dimension
// innermost, from one address extracted per run, with the other dimension
// outside it; the result keeps its [k, n] indexing.
// CHECK-LABEL: func @contiguous_columns
// CHECK: scf.for %[[KB:.*]] = %c0 to %c1{{.*}} step %c1
// CHECK: scf.for %[[N:.*]] = %c0{{.*}} to %c4{{.*}} step %c1
// CHECK: %[[S:.*]] = arith.muli %[[KB]], %c8
// CHECK: %[[A:.*]] = tensor.extract %{{.*}}[%[[S]], %[[N]]] : tensor<8x4xi64>
// CHECK: %[[BASE:.*]] = llvm.inttoptr %[[A]] : i64 to !llvm.ptr
// CHECK: scf.for %[[T:.*]] = %{{.*}} to %c8{{.*}} step
// CHECK: %[[K:.*]] = arith.addi %[[S]], %[[T]]
// CHECK: %[[O:.*]] = arith.index_cast %[[T]] : index to i64
// CHECK: %[[G:.*]] = llvm.getelementptr %[[BASE]][%[[O]]] : (!llvm.ptr, i64) -> !llvm.ptr, i16
// CHECK: llvm.load %[[G]]
// CHECK: tensor.insert %{{.*}}[%[[K]], %[[N]]]
// CHECK-NOT: tensor.extract %{{.*}} : tensor<8x4xi64>
// CHECK: return
func.func @contiguous_columns(%base: !tessera.ptr<f16> {tt.divisibility = 16 : i32}, %stride: i32 {tt.divisibility = 16 : i32}) -> tensor<8x4xf16> {
  %k = tessera.make_range {start = 0 : i32, end = 8 : i32} : tensor<8xi32>
  %n = tessera.make_range {start = 0 : i32, end = 4 : i32} : tensor<4xi32>
  %k2 = tessera.expand_dims %k {axis = 1 : i32} : tensor<8xi32> -> tensor<8x1xi32>
  %n2 = tessera.expand_dims %n {axis = 0 : i32} : tensor<4xi32> -> tensor<1x4xi32>
  %s = tessera.splat %stride : tensor<1x4xi32>
  %ns = arith.muli %n2, %s : tensor<1x4xi32>
  %kb = tessera.broadcast %k2 : tensor<8x1xi32> -> tensor<8x4xi32>
  %nb = tessera.broadcast %ns : tensor<1x4xi32> -> tensor<8x4xi32>
  %off = arith.addi %kb, %nb : tensor<8x4xi32>
  %b = tessera.splat %base : tensor<8x4x!tessera.ptr<f16>>
  %p = tessera.addptr %b, %off : tensor<8x4x!tessera.ptr<f16>>, tensor<8x4xi32>
  %v = tessera.load %p : tensor<8x4x!tessera.ptr<f16>>
  return %v : tensor<8x4xf16>
}
