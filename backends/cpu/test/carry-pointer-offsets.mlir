// RUN: tessera-cpu-opt %s --split-input-file --tessera-cpu-carry-pointer-offsets --canonicalize | FileCheck %s
// A loop that advances a block of pointers by the same offset every
// iteration carries the sum of the offsets (i64) instead of the block; the
// block is rebuilt from the initial one where it is used, and after the
// loop.

// A splat of a value defined before the loop (tutorial 03's B) and a splat
// constant (its A).
// CHECK-LABEL: func @advance
// CHECK-SAME: (%[[A:.*]]: tensor<4x8x!tessera.ptr<f16>>, %[[B:.*]]: tensor<4x8x!tessera.ptr<f16>>, %[[STEP:.*]]: i32, %[[N:.*]]: i32)
// CHECK-DAG: %[[C64:.*]] = arith.constant 64 : i64
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : i64
// CHECK: %[[LOOP:.*]]:3 = scf.for %{{.*}} = %{{.*}} to %[[N]] step %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}, %[[SA:.*]] = %[[C0]], %[[SB:.*]] = %[[C0]]) -> (tensor<4x8xf32>, i64, i64)
// CHECK-DAG: %[[OA:.*]] = tessera.splat %[[SA]] : tensor<4x8xi64>
// CHECK-DAG: %[[PA:.*]] = tessera.addptr %[[A]], %[[OA]]
// CHECK-DAG: %[[OB:.*]] = tessera.splat %[[SB]] : tensor<4x8xi64>
// CHECK-DAG: %[[PB:.*]] = tessera.addptr %[[B]], %[[OB]]
// CHECK: tessera.load %[[PA]]
// CHECK: tessera.load %[[PB]]
// CHECK: %[[NA:.*]] = arith.addi %[[SA]], %[[C64]] : i64
// CHECK: %[[WIDE:.*]] = arith.extsi %[[STEP]] : i32 to i64
// CHECK: %[[NB:.*]] = arith.addi %[[SB]], %[[WIDE]] : i64
// CHECK: scf.yield %{{.*}}, %[[NA]], %[[NB]]
// CHECK: %[[FA:.*]] = tessera.splat %[[LOOP]]#1 : tensor<4x8xi64>
// CHECK: %[[EA:.*]] = tessera.addptr %[[A]], %[[FA]]
// CHECK: return %[[EA]], %[[LOOP]]#0
func.func @advance(%a: tensor<4x8x!tessera.ptr<f16>>, %b: tensor<4x8x!tessera.ptr<f16>>, %step: i32, %n: i32) -> (tensor<4x8x!tessera.ptr<f16>>, tensor<4x8xf32>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %k = arith.constant dense<64> : tensor<4x8xi32>
  %zero = arith.constant dense<0.0> : tensor<4x8xf32>
  %s = tessera.splat %step : tensor<4x8xi32>
  %r:3 = scf.for %i = %c0 to %n step %c1 iter_args(%pa = %a, %pb = %b, %acc = %zero) -> (tensor<4x8x!tessera.ptr<f16>>, tensor<4x8x!tessera.ptr<f16>>, tensor<4x8xf32>) : i32 {
    %x = tessera.load %pa : tensor<4x8x!tessera.ptr<f16>>
    %y = tessera.load %pb : tensor<4x8x!tessera.ptr<f16>>
    %xy = arith.addf %x, %y : tensor<4x8xf16>
    %xf = arith.extf %xy : tensor<4x8xf16> to tensor<4x8xf32>
    %sum = arith.addf %acc, %xf : tensor<4x8xf32>
    %na = tessera.addptr %pa, %k : tensor<4x8x!tessera.ptr<f16>>, tensor<4x8xi32>
    %nb = tessera.addptr %pb, %s : tensor<4x8x!tessera.ptr<f16>>, tensor<4x8xi32>
    scf.yield %na, %nb, %sum : tensor<4x8x!tessera.ptr<f16>>, tensor<4x8x!tessera.ptr<f16>>, tensor<4x8xf32>
  }
  return %r#0, %r#2 : tensor<4x8x!tessera.ptr<f16>>, tensor<4x8xf32>
}

// -----

// Left alone: offsets that differ per element, an offset computed in the
// loop, and an advanced block used besides the yield.
// CHECK-LABEL: func @kept
// CHECK: scf.for {{.*}} iter_args({{.*}}) -> (tensor<4x!tessera.ptr<f32>>, tensor<4x!tessera.ptr<f32>>, tensor<4x!tessera.ptr<f32>>, tensor<4xf32>)
// CHECK-NOT: i64
// CHECK: return
func.func @kept(%p: tensor<4x!tessera.ptr<f32>>, %offs: tensor<4xi32>, %n: i32) -> (tensor<4xf32>, tensor<4xf32>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %sn = tessera.splat %n : tensor<4xi32>
  %zero = arith.constant dense<0.0> : tensor<4xf32>
  %r:4 = scf.for %i = %c0 to %n step %c1 iter_args(%a = %p, %b = %p, %c = %p, %acc = %zero) -> (tensor<4x!tessera.ptr<f32>>, tensor<4x!tessera.ptr<f32>>, tensor<4x!tessera.ptr<f32>>, tensor<4xf32>) : i32 {
    %na = tessera.addptr %a, %offs : tensor<4x!tessera.ptr<f32>>, tensor<4xi32>
    %si = tessera.splat %i : tensor<4xi32>
    %nb = tessera.addptr %b, %si : tensor<4x!tessera.ptr<f32>>, tensor<4xi32>
    %nc = tessera.addptr %c, %sn : tensor<4x!tessera.ptr<f32>>, tensor<4xi32>
    %x = tessera.load %nc : tensor<4x!tessera.ptr<f32>>
    %y = tessera.load %nb : tensor<4x!tessera.ptr<f32>>
    %xy = arith.addf %x, %y : tensor<4xf32>
    %s = arith.addf %acc, %xy : tensor<4xf32>
    scf.yield %na, %nb, %nc, %s : tensor<4x!tessera.ptr<f32>>, tensor<4x!tessera.ptr<f32>>, tensor<4x!tessera.ptr<f32>>, tensor<4xf32>
  }
  %v = tessera.load %r#0 : tensor<4x!tessera.ptr<f32>>
  return %v, %r#3 : tensor<4xf32>, tensor<4xf32>
}
