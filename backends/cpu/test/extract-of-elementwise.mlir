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
