// The CPU stages one after the other on a kernel with a loop-carried block,
// concatenation (a copy between non-contiguous buffers) and a reduction.
// RUN: tessera-cpu-opt %s --tessera-cpu="stop-after=cpu-bufferize" | FileCheck %s --check-prefix=BUF
// RUN: tessera-cpu-opt %s --tessera-cpu="stop-after=cpu-to-loops" | FileCheck %s --check-prefix=LOOPS
// RUN: tessera-cpu-opt %s --tessera-cpu | FileCheck %s --check-prefix=LLVM
// RUN: tessera-cpu-opt %s --tessera-cpu="stop-after=cpu-bufferize" -o %t.mlir
// RUN: tessera-cpu-opt %t.mlir --tessera-cpu="start-after=cpu-bufferize" | FileCheck %s --check-prefix=LLVM

// Small buffers of static size at the top level live on the stack; large
// ones come from the heap and are freed where their lifetime ends. No
// tensors are left.
// BUF-LABEL: func.func private @k(
// BUF: memref.alloca() {alignment = 64 : i64} : memref<8xf32>
// BUF-NOT: tensor<
// BUF-LABEL: func.func private @big(
// BUF: %[[BIG:.*]] = memref.alloc() {alignment = 64 : i64} : memref<524288xf32>
// BUF: memref.dealloc %[[BIG]]
// BUF-NOT: tensor<

// Every linalg op and copy is a loop nest; nothing calls a runtime library
// for copies.
// LOOPS-NOT: linalg.
// LOOPS-NOT: memref.copy
// LOOPS-NOT: bufferization.clone
// LOOPS: scf.for

// LLVM-DAG: llvm.func @malloc
// LLVM-DAG: llvm.func @free
// LLVM: llvm.func @k_cpu_entry
// LLVM-NOT: memrefCopy

func.func @k(%p: !tessera.ptr<f32>, %n: i32) attributes {tessera.kernel} {
  %r = tessera.make_range {start = 0 : i32, end = 8 : i32} : tensor<8xi32>
  %ps = tessera.splat %p : tensor<8x!tessera.ptr<f32>>
  %pa = tessera.addptr %ps, %r : tensor<8x!tessera.ptr<f32>>, tensor<8xi32>
  %x = tessera.load %pa : tensor<8x!tessera.ptr<f32>>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %acc = scf.for %i = %c0 to %n step %c1 iter_args(%a = %x) -> (tensor<8xf32>) : i32 {
    %y = arith.mulf %a, %x : tensor<8xf32>
    scf.yield %y : tensor<8xf32>
  }
  %a2 = tessera.reshape %acc : tensor<8xf32> -> tensor<2x4xf32>
  %c = tessera.cat %a2, %a2 : tensor<2x4xf32> -> tensor<4x4xf32>
  %t = tessera.trans %c {order = array<i32: 1, 0>} : tensor<4x4xf32> -> tensor<4x4xf32>
  %s = tessera.reduce(%t) {axis = 1 : i32} : (tensor<4x4xf32>) -> tensor<4xf32> {
  ^bb0(%u: f32, %v: f32):
    %w = arith.addf %u, %v : f32
    tessera.reduce.return %w : f32
  }
  %r4 = tessera.make_range {start = 0 : i32, end = 4 : i32} : tensor<4xi32>
  %q = tessera.splat %p : tensor<4x!tessera.ptr<f32>>
  %qa = tessera.addptr %q, %r4 : tensor<4x!tessera.ptr<f32>>, tensor<4xi32>
  tessera.store %qa, %s : tensor<4x!tessera.ptr<f32>>
  return
}

func.func @big(%p: !tessera.ptr<f32>) attributes {tessera.kernel} {
  %r = tessera.make_range {start = 0 : i32, end = 524288 : i32} : tensor<524288xi32>
  %ps = tessera.splat %p : tensor<524288x!tessera.ptr<f32>>
  %pa = tessera.addptr %ps, %r : tensor<524288x!tessera.ptr<f32>>, tensor<524288xi32>
  %x = tessera.load %pa : tensor<524288x!tessera.ptr<f32>>
  %y = arith.mulf %x, %x : tensor<524288xf32>
  tessera.store %pa, %y : tensor<524288x!tessera.ptr<f32>>
  return
}
