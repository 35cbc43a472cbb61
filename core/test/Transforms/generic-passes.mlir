// MLIR's generic passes in the core pipeline, on tessera ops: what their
// traits and effects let each pass do.
// RUN: tessera-opt %s --split-input-file --cse | FileCheck %s --check-prefix=CSE
// RUN: tessera-opt %s --split-input-file --loop-invariant-code-motion | FileCheck %s --check-prefix=LICM
// RUN: tessera-opt %s --split-input-file --inline --symbol-dce | FileCheck %s --check-prefix=INLINE

// Pure ops are merged; loads are merged only when no write intervenes;
// volatile loads never.
// CSE-LABEL: func @cse
// CSE-COUNT-1: tessera.make_range
// CSE-COUNT-1: tessera.splat
// CSE: tessera.load
// CSE-NEXT: tessera.store
// CSE-NEXT: tessera.load
// CSE-NEXT: tessera.load {{.*}} {isVolatile}
// CSE-NEXT: tessera.load {{.*}} {isVolatile}
func.func @cse(%p: !tessera.ptr<f32>, %v: f32) -> (tensor<8xi32>, tensor<8xi32>, tensor<8x!tessera.ptr<f32>>, tensor<8x!tessera.ptr<f32>>, f32, f32, f32, f32, f32) {
  %r0 = tessera.make_range {start = 0 : i32, end = 8 : i32} : tensor<8xi32>
  %r1 = tessera.make_range {start = 0 : i32, end = 8 : i32} : tensor<8xi32>
  %s0 = tessera.splat %p : tensor<8x!tessera.ptr<f32>>
  %s1 = tessera.splat %p : tensor<8x!tessera.ptr<f32>>
  %l0 = tessera.load %p : !tessera.ptr<f32>
  %l1 = tessera.load %p : !tessera.ptr<f32>
  tessera.store %p, %v : !tessera.ptr<f32>
  %l2 = tessera.load %p : !tessera.ptr<f32>
  %l3 = tessera.load %p {isVolatile} : !tessera.ptr<f32>
  %l4 = tessera.load %p {isVolatile} : !tessera.ptr<f32>
  return %r0, %r1, %s0, %s1, %l0, %l1, %l2, %l3, %l4 : tensor<8xi32>, tensor<8xi32>, tensor<8x!tessera.ptr<f32>>, tensor<8x!tessera.ptr<f32>>, f32, f32, f32, f32, f32
}

// -----

// Pure block ops leave the loop; a load stays when the loop writes memory.
// LICM-LABEL: func @licm
// LICM: tessera.splat
// LICM: tessera.make_range
// LICM: scf.for
// LICM: tessera.load
// LICM: tessera.store
func.func @licm(%p: !tessera.ptr<f32>, %q: tensor<8x!tessera.ptr<f32>>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %s = tessera.splat %p : tensor<8x!tessera.ptr<f32>>
    %r = tessera.make_range {start = 0 : i32, end = 8 : i32} : tensor<8xi32>
    %a = tessera.addptr %s, %r : tensor<8x!tessera.ptr<f32>>, tensor<8xi32>
    %v = tessera.load %a : tensor<8x!tessera.ptr<f32>>
    tessera.store %q, %v : tensor<8x!tessera.ptr<f32>>
  }
  return
}

// -----

// Device functions are inlined into kernels, then dropped.
// INLINE-NOT: func.func private @helper
// INLINE-LABEL: func @kernel
// INLINE-NOT: call
// INLINE: tessera.program_id
// INLINE: arith.muli
func.func private @helper(%x: i32) -> i32 {
  %pid = tessera.program_id x : i32
  %m = arith.muli %pid, %x : i32
  return %m : i32
}
func.func @kernel(%x: i32, %p: !tessera.ptr<i32>) attributes {tessera.kernel} {
  %r = func.call @helper(%x) : (i32) -> i32
  tessera.store %p, %r : !tessera.ptr<i32>
  return
}
