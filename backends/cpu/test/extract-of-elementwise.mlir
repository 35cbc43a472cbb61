// RUN: tessera-cpu-opt %s --tessera-cpu-fuse-elementwise --canonicalize | FileCheck %s
// One element of an elementwise generic is its body computed for that
// element (linalg.index becomes the index): a contiguous load reads only
// its first address, which no longer needs the block of addresses.

#map = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func @first_address
// CHECK-SAME: (%[[BASE:.*]]: i64, %[[PID:.*]]: i32)
// CHECK-NOT: linalg.generic
// CHECK: %[[START:.*]] = arith.muli %[[PID]], %{{.*}} : i32
// CHECK: %[[WIDE:.*]] = arith.extsi %[[START]] : i32 to i64
// CHECK: %[[BYTES:.*]] = arith.muli %[[WIDE]], %{{.*}} : i64
// CHECK: %[[ADDR:.*]] = arith.addi %[[BASE]], %[[BYTES]] : i64
// CHECK: return %[[ADDR]]
func.func @first_address(%base: i64, %pid: i32) -> i64 {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : i64
  %c1024 = arith.constant 1024 : i32
  %start = arith.muli %pid, %c1024 : i32
  %e0 = tensor.empty() : tensor<1024xi32>
  %offs = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel"]} outs(%e0 : tensor<1024xi32>) {
  ^bb0(%out: i32):
    %i = linalg.index 0 : index
    %ii = arith.index_cast %i : index to i32
    %o = arith.addi %start, %ii : i32
    linalg.yield %o : i32
  } -> tensor<1024xi32>
  %e1 = tensor.empty() : tensor<1024xi64>
  %ptrs = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%offs : tensor<1024xi32>) outs(%e1 : tensor<1024xi64>) {
  ^bb0(%in: i32, %out: i64):
    %w = arith.extsi %in : i32 to i64
    %b = arith.muli %w, %c4 : i64
    %a = arith.addi %base, %b : i64
    linalg.yield %a : i64
  } -> tensor<1024xi64>
  %first = tensor.extract %ptrs[%c0] : tensor<1024xi64>
  return %first : i64
}

// A broadcast reads its source at 0 along the repeated dimension: one
// element of a mask broadcast over a 64x256 block is one comparison of the
// 64x1 column's element, and neither block is built.
#col = affine_map<(d0, d1) -> (d0, 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func @broadcast_mask
// CHECK-SAME: (%[[KS:.*]]: tensor<64x1xi32>, %[[LEFT:.*]]: i32, %[[I:.*]]: index, %[[J:.*]]: index)
// CHECK-NOT: linalg.generic
// CHECK: %[[K:.*]] = tensor.extract %[[KS]][%[[I]], %c0] : tensor<64x1xi32>
// CHECK: %[[M:.*]] = arith.cmpi slt, %[[K]], %[[LEFT]] : i32
// CHECK: return %[[M]]
func.func @broadcast_mask(%ks: tensor<64x1xi32>, %left: i32, %i: index, %j: index) -> i1 {
  %e0 = tensor.empty() : tensor<64x1xi1>
  %m = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%ks : tensor<64x1xi32>) outs(%e0 : tensor<64x1xi1>) {
  ^bb0(%in: i32, %out: i1):
    %c = arith.cmpi slt, %in, %left : i32
    linalg.yield %c : i1
  } -> tensor<64x1xi1>
  %e1 = tensor.empty() : tensor<64x256xi1>
  %b = linalg.generic {indexing_maps = [#col, #id2], iterator_types = ["parallel", "parallel"]} ins(%m : tensor<64x1xi1>) outs(%e1 : tensor<64x256xi1>) {
  ^bb0(%in: i1, %out: i1):
    linalg.yield %in : i1
  } -> tensor<64x256xi1>
  %x = tensor.extract %b[%i, %j] : tensor<64x256xi1>
  return %x : i1
}
