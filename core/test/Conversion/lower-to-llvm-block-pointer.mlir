// RUN: tessera-opt %s --tessera-test-lower-to-llvm | FileCheck %s

// A 16x64 block through a block pointer: the pointer is its base, shape,
// strides and offsets (a struct the clean-ups fold away here); advance moves
// the offsets; each register's address is base + (offset + coordinate) *
// stride summed over the dimensions, in 64 bits. Only the dimensions in
// boundaryCheck are compared with the shape: the load checks dimension 1
// and pads with NaN, the store checks both.
#blocked = #tessera_gpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
module attributes {tessera_gpu.num_ctas = 1 : i32, tessera_gpu.num_warps = 4 : i32, tessera_gpu.target = "test", tessera_gpu.threads_per_warp = 32 : i32} {
  // CHECK-LABEL: llvm.func @copy
  // CHECK-SAME: (%[[A:[^:]*]]: !llvm.ptr<1>, %[[B:[^:]*]]: !llvm.ptr<1>, %[[M:[^:]*]]: i64, %[[N:[^:]*]]: i64, %[[STRIDE:[^:]*]]: i64, %[[K:[^:]*]]: i32)
  // CHECK-DAG: %[[NAN:.*]] = llvm.mlir.constant(0x7FC00000 : f32) : f32
  // advance adds to the offsets (0 here); they widen to 64 bits.
  // CHECK: %[[OFF:.*]] = llvm.add %[[K]], %{{.*}} : i32
  // CHECK: %[[START:.*]] = llvm.sext %[[OFF]] : i32 to i64
  // The load: the row index is not compared with the shape, the column
  // index is; each goes times its stride into one offset.
  // CHECK: %[[ROW:.*]] = llvm.add %[[START]], %{{.*}} : i64
  // CHECK-NOT: llvm.icmp "ult" %[[ROW]]
  // CHECK: llvm.mul %[[ROW]], %[[STRIDE]] : i64
  // CHECK: %[[COL:.*]] = llvm.add %[[START]], %{{.*}} : i64
  // CHECK: %[[IN:.*]] = llvm.icmp "ult" %[[COL]], %[[N]] : i64
  // CHECK: %[[P:.*]] = llvm.getelementptr %[[A]][%{{.*}}] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
  // CHECK: llvm.call @tessera_test_load_global_f32(%[[P]], %[[IN]], %[[NAN]])
  // The store checks both dimensions.
  // CHECK: llvm.icmp "ult" %{{.*}}, %[[M]] : i64
  // CHECK: llvm.icmp "ult" %{{.*}}, %[[N]] : i64
  // CHECK: llvm.getelementptr %[[B]]
  // CHECK: llvm.call @tessera_test_store_global_f32(
  // CHECK: llvm.return
  func.func @copy(%a: !tessera.ptr<f32>, %b: !tessera.ptr<f32>, %m: i64, %n: i64, %stride: i64, %k: i32) attributes {tessera.kernel} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i64
    %pa = tessera.make_block_ptr %a, [%m, %n], [%stride, %c1], [%c0, %c0] {order = array<i32: 1, 0>} : !tessera.ptr<f32> -> !tessera.ptr<tensor<16x64xf32, #blocked>>
    %pa2 = tessera.advance %pa, [%k, %k] : !tessera.ptr<tensor<16x64xf32, #blocked>>
    %x = tessera.load %pa2 {boundaryCheck = array<i32: 1>, padding = #tessera<padding nan>} : !tessera.ptr<tensor<16x64xf32, #blocked>>
    %pb = tessera.make_block_ptr %b, [%m, %n], [%stride, %c1], [%c0, %c0] {order = array<i32: 1, 0>} : !tessera.ptr<f32> -> !tessera.ptr<tensor<16x64xf32, #blocked>>
    tessera.store %pb, %x {boundaryCheck = array<i32: 0, 1>} : !tessera.ptr<tensor<16x64xf32, #blocked>>
    return
  }
}
