// RUN: tessera-cpu-opt %s --split-input-file --tessera-cpu-fuse-loops | FileCheck %s
// Consecutive loops over a block's elements become one where legal; an
// element stored to a buffer reaches the later loads of that element
// directly, and a buffer nothing reads any more goes.

// Two masked loads, an add and a masked store (vector add's loops): one
// loop, no buffer; the address computation between the loops moves above.
// CHECK-LABEL: func @vector_add
// CHECK-NOT: memref.alloca
// CHECK: %[[Q:.*]] = llvm.inttoptr
// CHECK: scf.for %[[I:.*]] =
// CHECK: %[[X:.*]] = scf.if
// CHECK: llvm.load
// CHECK: %[[Y:.*]] = scf.if
// CHECK: llvm.load
// CHECK: %[[S:.*]] = arith.addf %[[X]], %[[Y]]
// CHECK: scf.if
// CHECK-NEXT: llvm.store %[[S]]
// CHECK-NOT: scf.for
// CHECK-NOT: memref
func.func @vector_add(%x: !llvm.ptr, %y: !llvm.ptr, %out: i64, %mask: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0.0 : f32
  %a = memref.alloca() : memref<8xf32>
  %b = memref.alloca() : memref<8xf32>
  scf.for %i = %c0 to %c8 step %c1 {
    %v = scf.if %mask -> (f32) {
      %l = llvm.load %x : !llvm.ptr -> f32
      scf.yield %l : f32
    } else {
      scf.yield %zero : f32
    }
    memref.store %v, %a[%i] : memref<8xf32>
  }
  scf.for %i = %c0 to %c8 step %c1 {
    %v = scf.if %mask -> (f32) {
      %l = llvm.load %y : !llvm.ptr -> f32
      scf.yield %l : f32
    } else {
      scf.yield %zero : f32
    }
    memref.store %v, %b[%i] : memref<8xf32>
  }
  %q = llvm.inttoptr %out : i64 to !llvm.ptr
  scf.for %i = %c0 to %c8 step %c1 {
    %u = memref.load %a[%i] : memref<8xf32>
    %v = memref.load %b[%i] : memref<8xf32>
    %s = arith.addf %u, %v : f32
    scf.if %mask {
      llvm.store %s, %q : f32, !llvm.ptr
    }
  }
  return
}

// -----

// A store to global memory before a load from it: the loads of the second
// loop must see every store of the first (a barrier's job on a GPU), so the
// loops stay apart.
// CHECK-LABEL: func @store_then_load
// CHECK-COUNT-2: scf.for
func.func @store_then_load(%p: !llvm.ptr, %q: !llvm.ptr) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %one = arith.constant 1.0 : f32
  %a = memref.alloca() : memref<8xf32>
  scf.for %i = %c0 to %c8 step %c1 {
    llvm.store %one, %p : f32, !llvm.ptr
  }
  scf.for %i = %c0 to %c8 step %c1 {
    %l = llvm.load %q : !llvm.ptr -> f32
    memref.store %l, %a[%i] : memref<8xf32>
  }
  %r = memref.load %a[%c0] : memref<8xf32>
  llvm.store %r, %q : f32, !llvm.ptr
  return
}

// -----

// The second loop reads another element of the buffer the first writes
// (element 0 in every iteration): not elementwise, not fused; the buffer
// stays.
// CHECK-LABEL: func @other_element
// CHECK: memref.alloca
// CHECK-COUNT-2: scf.for
func.func @other_element(%p: !llvm.ptr, %q: !llvm.ptr) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %a = memref.alloca() : memref<8xf32>
  scf.for %i = %c0 to %c8 step %c1 {
    %l = llvm.load %p : !llvm.ptr -> f32
    memref.store %l, %a[%i] : memref<8xf32>
  }
  scf.for %i = %c0 to %c8 step %c1 {
    %v = memref.load %a[%c0] : memref<8xf32>
    llvm.store %v, %q : f32, !llvm.ptr
  }
  return
}

// -----

// Loops of different trip counts, and an operation with effects between
// two loops (a call), keep them apart.
// CHECK-LABEL: func @not_fusable
// CHECK-COUNT-3: scf.for
func.func private @effect()
func.func @not_fusable(%p: !llvm.ptr) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %one = arith.constant 1.0 : f32
  %a = memref.alloca() : memref<8xf32>
  scf.for %i = %c0 to %c8 step %c1 {
    memref.store %one, %a[%i] : memref<8xf32>
  }
  scf.for %i = %c0 to %c4 step %c1 {
    %v = memref.load %a[%i] : memref<8xf32>
    llvm.store %v, %p : f32, !llvm.ptr
  }
  func.call @effect() : () -> ()
  scf.for %i = %c0 to %c4 step %c1 {
    %v = memref.load %a[%i] : memref<8xf32>
    llvm.store %v, %p : f32, !llvm.ptr
  }
  return
}

// -----

// A store under a mask may not happen: a later load of that element reads
// the buffer, which stays.
// CHECK-LABEL: func @masked_store
// CHECK: memref.alloca
// CHECK: scf.for
// CHECK: scf.if
// CHECK: memref.store
// CHECK: memref.load
// CHECK-NOT: scf.for
func.func @masked_store(%p: !llvm.ptr, %m: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %one = arith.constant 1.0 : f32
  %a = memref.alloca() : memref<8xf32>
  scf.for %i = %c0 to %c8 step %c1 {
    scf.if %m {
      memref.store %one, %a[%i] : memref<8xf32>
    }
  }
  scf.for %i = %c0 to %c8 step %c1 {
    %v = memref.load %a[%i] : memref<8xf32>
    llvm.store %v, %p : f32, !llvm.ptr
  }
  return
}

// -----

// Loops over a block inside a loop of the kernel's own (a row's columns in
// steps, a persistent loop) fuse as well.
// CHECK-LABEL: func @nested
// CHECK: scf.for
// CHECK-NOT: memref.alloca
// CHECK: scf.for
// CHECK: llvm.load
// CHECK: llvm.store
// CHECK-NOT: scf.for
func.func @nested(%p: !llvm.ptr, %q: !llvm.ptr, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %a = memref.alloca() : memref<8xf32>
  scf.for %row = %c0 to %n step %c1 {
    scf.for %i = %c0 to %c8 step %c1 {
      %l = llvm.load %p : !llvm.ptr -> f32
      memref.store %l, %a[%i] : memref<8xf32>
    }
    scf.for %i = %c0 to %c8 step %c1 {
      %v = memref.load %a[%i] : memref<8xf32>
      llvm.store %v, %q : f32, !llvm.ptr
    }
  }
  return
}

// -----

// A view of a buffer aliases it: the second loop reads element i + 1 of the
// buffer the first writes (a reduction's loop over all elements but the
// first), so the loops stay apart even with equal bounds.
// CHECK-LABEL: func @through_a_view
// CHECK-COUNT-2: scf.for
func.func @through_a_view(%p: !llvm.ptr, %q: !llvm.ptr) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c7 = arith.constant 7 : index
  %a = memref.alloca() : memref<8xf32>
  %tail = memref.subview %a[1] [7] [1] : memref<8xf32> to memref<7xf32, strided<[1], offset: 1>>
  scf.for %i = %c0 to %c7 step %c1 {
    %l = llvm.load %p : !llvm.ptr -> f32
    memref.store %l, %a[%i] : memref<8xf32>
  }
  scf.for %i = %c0 to %c7 step %c1 {
    %v = memref.load %tail[%i] : memref<7xf32, strided<[1], offset: 1>>
    llvm.store %v, %q : f32, !llvm.ptr
  }
  return
}

// -----

// A buffer whose address escapes (to a call here) may be read through it
// at any element: its stores order like global stores, and a later loop
// that reads global memory stays apart.
// CHECK-LABEL: func @escaping_buffer
// CHECK-COUNT-2: scf.for
func.func private @use(memref<8xf32>)
func.func @escaping_buffer(%p: !llvm.ptr, %q: !llvm.ptr) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %one = arith.constant 1.0 : f32
  %a = memref.alloca() : memref<8xf32>
  func.call @use(%a) : (memref<8xf32>) -> ()
  scf.for %i = %c0 to %c8 step %c1 {
    memref.store %one, %a[%i] : memref<8xf32>
  }
  scf.for %i = %c0 to %c8 step %c1 {
    %l = llvm.load %p : !llvm.ptr -> f32
    llvm.store %l, %q : f32, !llvm.ptr
  }
  return
}
