// RUN: tessera-cpu-opt %s --split-input-file --tessera-cpu-to-structured | FileCheck %s
// Block pointers and tensor descriptors become their scalars; accesses
// through them are loop nests computing each element's address, with the
// checked dimensions' bounds tested.

// CHECK-LABEL: func @block_pointer
// CHECK-SAME: (%[[BASE:[^:]*]]: i64, %[[M:[^:]*]]: i64, %[[N:[^:]*]]: i64, %[[S:[^:]*]]: i64, %[[OFF:[^:]*]]: i32
// Loops carry the block pointer as its scalars; advance adds to the offsets.
// CHECK: %[[R:.*]]:7 = scf.for {{.*}} iter_args({{.*}}, %[[O0:.*]] = %[[OFF]], %[[O1:.*]] = %[[OFF]]) -> (i64, i64, i64, i64, i64, i32, i32)
// CHECK: %[[A0:.*]] = arith.addi %[[O0]], %{{.*}} : i32
// CHECK: %[[A1:.*]] = arith.addi %[[O1]], %{{.*}} : i32
// CHECK: scf.yield {{.*}}, %[[A0]], %[[A1]] : i64, i64, i64, i64, i64, i32, i32
// The load: dimension 1 is checked, dimension 0 is not.
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %c4
// CHECK: scf.for %[[J:.*]] = %{{.*}} to %c8
// CHECK: %[[R0:.*]] = arith.extsi %[[R]]#5 : i32 to i64
// CHECK: %[[I0:.*]] = arith.index_cast %[[I]] : index to i64
// CHECK: %[[C0:.*]] = arith.addi %[[R0]], %[[I0]] : i64
// CHECK: arith.muli %[[C0]], %[[R]]#3 : i64
// CHECK-NOT: arith.cmpi slt, %[[C0]]
// CHECK: %[[R1:.*]] = arith.extsi %[[R]]#6 : i32 to i64
// CHECK: %[[C1:.*]] = arith.addi %[[R1]], %{{.*}} : i64
// CHECK: %[[GE:.*]] = arith.cmpi sge, %[[C1]], %{{.*}} : i64
// CHECK: %[[LT:.*]] = arith.cmpi slt, %[[C1]], %[[R]]#2
// CHECK: %[[IN:.*]] = arith.andi %[[GE]], %[[LT]]
// CHECK: scf.if %[[IN]] -> (f32)
// CHECK: llvm.load
// NaN padding.
// CHECK: arith.constant 0x7FC00000 : f32
// The store checks both dimensions.
// CHECK: scf.for
// CHECK: scf.for
// CHECK: arith.cmpi slt, %{{.*}}, %[[R]]#1
// CHECK: arith.cmpi slt, %{{.*}}, %[[R]]#2
// CHECK: scf.if
// CHECK: llvm.store
func.func @block_pointer(%p: !tessera.ptr<f32>, %m: i64, %n: i64, %s: i64, %off: i32, %k: i32) -> tensor<4x8xf32> {
  %c1 = arith.constant 1 : i64
  %b = tessera.make_block_ptr %p, [%m, %n], [%s, %c1], [%off, %off] {order = array<i32: 1, 0>} : !tessera.ptr<f32> -> !tessera.ptr<tensor<4x8xf32>>
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c1i = arith.constant 1 : index
  %b2 = scf.for %i = %c0 to %c2 step %c1i iter_args(%it = %b) -> (!tessera.ptr<tensor<4x8xf32>>) {
    %adv = tessera.advance %it, [%k, %k] : !tessera.ptr<tensor<4x8xf32>>
    scf.yield %adv : !tessera.ptr<tensor<4x8xf32>>
  }
  %v = tessera.load %b2 {boundaryCheck = array<i32: 1>, padding = #tessera<padding nan>} : !tessera.ptr<tensor<4x8xf32>>
  tessera.store %b2, %v {boundaryCheck = array<i32: 0, 1>} : !tessera.ptr<tensor<4x8xf32>>
  return %v : tensor<4x8xf32>
}

// -----

// Descriptors check every dimension; their padding travels with them.
// CHECK-LABEL: func @descriptor
// CHECK-SAME: (%[[BASE:[^:]*]]: i64, %[[M:[^:]*]]: i32, %[[N:[^:]*]]: i32, %[[S:[^:]*]]: i64, %[[I:[^:]*]]: i32, %[[T:[^:]*]]: tensor<4x8xf16>)
// CHECK: %[[NAN:.*]] = arith.cmpi ne, %c1_i32, %c0_i32 : i32
// CHECK: scf.for
// CHECK: scf.for
// CHECK: arith.extsi %[[M]] : i32 to i64
// CHECK: arith.extsi %[[N]] : i32 to i64
// CHECK: scf.if %{{.*}} -> (f16)
// CHECK: llvm.load %{{.*}} {alignment = 2 : i64} : !llvm.ptr -> f16
// CHECK: } else {
// CHECK: arith.select %[[NAN]], %{{.*}}, %{{.*}} : f16
// CHECK: scf.for
// CHECK: scf.for
// CHECK: scf.if
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 2 : i64} : f16, !llvm.ptr
func.func @descriptor(%p: !tessera.ptr<f16>, %m: i32, %n: i32, %s: i64, %i: i32, %t: tensor<4x8xf16>) -> tensor<4x8xf16> {
  %c1 = arith.constant 1 : i64
  %d = tessera.make_tensor_descriptor %p, [%m, %n], [%s, %c1] {padding = #tessera<padding nan>} : !tessera.ptr<f16> -> !tessera.tensordesc<tensor<4x8xf16>>
  %v = tessera.descriptor_load %d[%i, %i] : !tessera.tensordesc<tensor<4x8xf16>> -> tensor<4x8xf16>
  tessera.descriptor_store %d[%i, %i], %t : !tessera.tensordesc<tensor<4x8xf16>>, tensor<4x8xf16>
  return %v : tensor<4x8xf16>
}
