// RUN: tessera-cpu-opt %s --split-input-file --tessera-cpu-to-structured --canonicalize --cse --tessera-cpu-fuse-elementwise | FileCheck %s
// A chain of elementwise block ops is one linalg.generic: splat operands
// become scalars, each op is fused into its only user. Before, each op was
// a loop and a buffer of its own, and a kernel of N ops took time
// quadratic in N to bufferize and to schedule (400 chained adds: 126 s).

// CHECK-LABEL: func @chain
// CHECK-SAME: (%[[X:.*]]: tensor<8xf32>)
// CHECK-DAG: %[[ONE:.*]] = arith.constant 1.0
// CHECK-DAG: %[[TWO:.*]] = arith.constant 2.0
// CHECK: linalg.generic {{.*}} outs(%[[X]] : tensor<8xf32>)
// CHECK: ^bb0(%[[OUT:.*]]: f32):
// CHECK: %[[A:.*]] = arith.addf %[[OUT]], %[[ONE]]
// CHECK: %[[M:.*]] = arith.mulf %[[A]], %[[TWO]]
// CHECK: %[[S:.*]] = arith.subf %[[M]], %[[ONE]]
// CHECK: linalg.yield %[[S]]
// CHECK-NOT: linalg.generic
// CHECK-NOT: linalg.fill
func.func @chain(%x: tensor<8xf32>) -> tensor<8xf32> {
  %c1 = arith.constant 1.0 : f32
  %c2 = arith.constant 2.0 : f32
  %one = tessera.splat %c1 : tensor<8xf32>
  %two = tessera.splat %c2 : tensor<8xf32>
  %a = arith.addf %x, %one : tensor<8xf32>
  %m = arith.mulf %a, %two : tensor<8xf32>
  %s = arith.subf %m, %one : tensor<8xf32>
  return %s : tensor<8xf32>
}

// -----

// A value read by two ops fuses once both are one op, and is computed once
// there.
// CHECK-LABEL: func @shared
// CHECK: linalg.generic
// CHECK: %[[Y:.*]] = arith.mulf
// CHECK: %[[U:.*]] = arith.addf %[[Y]]
// CHECK: arith.mulf %[[Y]], %[[U]]
// CHECK-NOT: linalg.generic
func.func @shared(%x: tensor<8xf32>, %z: tensor<8xf32>) -> tensor<8xf32> {
  %y = arith.mulf %x, %x : tensor<8xf32>
  %u = arith.addf %y, %z : tensor<8xf32>
  %v = arith.mulf %y, %u : tensor<8xf32>
  return %v : tensor<8xf32>
}

// -----

// Ops of another element type fuse too (a comparison into a select), and
// every op writing a fresh tensor gets its own tensor.empty.
// CHECK-LABEL: func @select
// CHECK: linalg.generic
// CHECK: arith.cmpf ogt
// CHECK: arith.select
// CHECK-NOT: linalg.generic
func.func @select(%x: tensor<8xf32>, %y: tensor<8xf32>) -> tensor<8xf32> {
  %c = arith.cmpf ogt, %x, %y : tensor<8xf32>
  %s = arith.select %c, %x, %y : tensor<8xi1>, tensor<8xf32>
  return %s : tensor<8xf32>
}

// -----

// CHECK-LABEL: func @empties
// CHECK-COUNT-2: tensor.empty() : tensor<8xi1>
func.func @empties(%x: tensor<8xf32>, %y: tensor<8xf32>) -> (tensor<8xi1>, tensor<8xi1>) {
  %a = arith.cmpf ogt, %x, %y : tensor<8xf32>
  %b = arith.cmpf olt, %x, %y : tensor<8xf32>
  return %a, %b : tensor<8xi1>, tensor<8xi1>
}
