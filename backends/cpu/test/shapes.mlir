// RUN: tessera-cpu-opt %s --split-input-file --tessera-cpu-to-structured | FileCheck %s
// With one thread per program instance, reshaping ops are tensor-dialect
// ops on row-major data.

// CHECK-LABEL: func @expand_dims
// CHECK-SAME: (%[[X:.*]]: tensor<8xf32>, %[[Y:.*]]: tensor<4x8xf32>)
// CHECK: tensor.expand_shape %[[X]] {{\[\[}}0, 1]] output_shape [1, 8] : tensor<8xf32> into tensor<1x8xf32>
// CHECK: tensor.expand_shape %[[X]] {{\[\[}}0, 1]] output_shape [8, 1] : tensor<8xf32> into tensor<8x1xf32>
// CHECK: tensor.expand_shape %[[Y]] {{\[\[}}0, 1], [2]] output_shape [4, 1, 8] : tensor<4x8xf32> into tensor<4x1x8xf32>
func.func @expand_dims(%x: tensor<8xf32>, %y: tensor<4x8xf32>) -> (tensor<1x8xf32>, tensor<8x1xf32>, tensor<4x1x8xf32>) {
  %0 = tessera.expand_dims %x {axis = 0 : i32} : tensor<8xf32> -> tensor<1x8xf32>
  %1 = tessera.expand_dims %x {axis = 1 : i32} : tensor<8xf32> -> tensor<8x1xf32>
  %2 = tessera.expand_dims %y {axis = 1 : i32} : tensor<4x8xf32> -> tensor<4x1x8xf32>
  return %0, %1, %2 : tensor<1x8xf32>, tensor<8x1xf32>, tensor<4x1x8xf32>
}

// -----

// Reshapes go through rank 1 (row-major order, kept under allow_reorder).
// CHECK-LABEL: func @reshape
// CHECK: %[[F:.*]] = tensor.collapse_shape %{{.*}} {{\[\[}}0, 1]] : tensor<4x8xf32> into tensor<32xf32>
// CHECK: tensor.expand_shape %[[F]] {{\[\[}}0, 1, 2]] output_shape [4, 2, 4] : tensor<32xf32> into tensor<4x2x4xf32>
// CHECK: tensor.collapse_shape %{{.*}} {{\[\[}}0, 1]] : tensor<4x8xf32> into tensor<32xf32>
// CHECK-NOT: expand_shape
func.func @reshape(%x: tensor<4x8xf32>) -> (tensor<4x2x4xf32>, tensor<32xf32>) {
  %0 = tessera.reshape %x : tensor<4x8xf32> -> tensor<4x2x4xf32>
  %1 = tessera.reshape %x {allow_reorder} : tensor<4x8xf32> -> tensor<32xf32>
  return %0, %1 : tensor<4x2x4xf32>, tensor<32xf32>
}

// -----

// CHECK-LABEL: func @trans
// CHECK: %[[E:.*]] = tensor.empty() : tensor<8x2x4xf32>
// CHECK: linalg.transpose ins(%{{.*}} : tensor<4x8x2xf32>) outs(%[[E]] : tensor<8x2x4xf32>) permutation = [1, 2, 0]
func.func @trans(%x: tensor<4x8x2xf32>) -> tensor<8x2x4xf32> {
  %0 = tessera.trans %x {order = array<i32: 1, 2, 0>} : tensor<4x8x2xf32> -> tensor<8x2x4xf32>
  return %0 : tensor<8x2x4xf32>
}

// -----

// join: each operand fills one slice of the new minor dimension; split
// takes them back; cat stacks along dimension 0.
// CHECK-LABEL: func @join_split_cat
// CHECK-SAME: (%[[A:.*]]: tensor<4x8xf32>, %[[B:.*]]: tensor<4x8xf32>)
// CHECK: %[[E:.*]] = tensor.empty() : tensor<4x8x2xf32>
// CHECK: %[[J0:.*]] = tensor.insert_slice %[[A]] into %[[E]][0, 0, 0] [4, 8, 1] [1, 1, 1] : tensor<4x8xf32> into tensor<4x8x2xf32>
// CHECK: %[[J:.*]] = tensor.insert_slice %[[B]] into %[[J0]][0, 0, 1] [4, 8, 1] [1, 1, 1] : tensor<4x8xf32> into tensor<4x8x2xf32>
// CHECK: %[[L:.*]] = tensor.extract_slice %[[J]][0, 0, 0] [4, 8, 1] [1, 1, 1] : tensor<4x8x2xf32> to tensor<4x8xf32>
// CHECK: %[[R:.*]] = tensor.extract_slice %[[J]][0, 0, 1] [4, 8, 1] [1, 1, 1] : tensor<4x8x2xf32> to tensor<4x8xf32>
// CHECK: %[[C:.*]] = tensor.empty() : tensor<8x8xf32>
// CHECK: %[[C0:.*]] = tensor.insert_slice %[[L]] into %[[C]][0, 0] [4, 8] [1, 1]
// CHECK: tensor.insert_slice %[[R]] into %[[C0]][4, 0] [4, 8] [1, 1]
func.func @join_split_cat(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<8x8xf32> {
  %j = tessera.join %a, %b : tensor<4x8xf32> -> tensor<4x8x2xf32>
  %l, %r = tessera.split %j : tensor<4x8x2xf32> -> tensor<4x8xf32>
  %c = tessera.cat %l, %r : tensor<4x8xf32> -> tensor<8x8xf32>
  return %c : tensor<8x8xf32>
}
