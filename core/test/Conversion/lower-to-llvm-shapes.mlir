// RUN: tessera-opt %s --split-input-file --tessera-test-lower-to-llvm | FileCheck %s

// expand_dims and broadcast from a slice to its parent only pick registers:
// no barrier, no shared memory.
#blocked = #tessera_gpu.blocked<sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [2, 1], order = [1, 0]>
#slice = #tessera_gpu.slice<dim = 0, parent = #blocked>
// CHECK: tessera_gpu.shared_memory = 0 : i32
module attributes {tessera_gpu.num_ctas = 1 : i32, tessera_gpu.num_warps = 2 : i32, tessera_gpu.target = "test", tessera_gpu.threads_per_warp = 32 : i32} {
  // CHECK-LABEL: llvm.func @rows
  // CHECK-NOT: tessera_test_barrier
  // CHECK: llvm.return
  func.func @rows(%arg0: !tessera.ptr<i32> {tessera.divisibility = 16 : i32}) attributes {tessera.kernel} {
    %0 = tessera.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #slice>
    %1 = tessera.expand_dims %0 {axis = 0 : i32} : tensor<32xi32, #slice> -> tensor<1x32xi32, #blocked>
    %2 = tessera.broadcast %1 : tensor<1x32xi32, #blocked> -> tensor<8x32xi32, #blocked>
    %3 = tessera.splat %arg0 : tensor<8x32x!tessera.ptr<i32>, #blocked>
    %4 = tessera.addptr %3, %2 : tensor<8x32x!tessera.ptr<i32>, #blocked>, tensor<8x32xi32, #blocked>
    tessera.store %4, %2 : tensor<8x32x!tessera.ptr<i32>, #blocked>
    return
  }
}

// -----

// A conversion between layouts that place elements in other threads goes
// through shared memory: a barrier, each thread writes its 2 elements, a
// barrier, each reads its 2 consecutive ones as one 8-byte vector. 64 x i32
// = 256 bytes of scratch.
#a = #tessera_gpu.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]>
#b = #tessera_gpu.blocked<sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]>
// CHECK: tessera_gpu.shared_memory = 256 : i32
module attributes {tessera_gpu.num_ctas = 1 : i32, tessera_gpu.num_warps = 1 : i32, tessera_gpu.target = "test", tessera_gpu.threads_per_warp = 32 : i32} {
  // CHECK-LABEL: llvm.func internal @convert
  // CHECK: llvm.call @tessera_test_barrier()
  // CHECK-COUNT-2: llvm.store {{.*}} : i32, !llvm.ptr<3>
  // CHECK: llvm.call @tessera_test_barrier()
  // CHECK: llvm.load {{.*}} {alignment = 8 : i64} : !llvm.ptr<3> -> vector<2xi32>
  // CHECK-NOT: tessera_test_barrier
  // CHECK-NOT: llvm.load
  // CHECK: llvm.return
  func.func @convert(%arg0: tensor<64xi32, #a>) -> tensor<64xi32, #b> {
    %0 = tessera_gpu.convert_layout %arg0 : tensor<64xi32, #a> -> tensor<64xi32, #b>
    return %0 : tensor<64xi32, #b>
  }
}

// -----

// The same element placement spelled as a linear layout: no data moves.
#a = #tessera_gpu.blocked<sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]>
#l = #tessera_gpu.linear<register = [[1]], lane = [[2], [4], [8], [16], [32]], warp = [], block = []>
module attributes {tessera_gpu.num_ctas = 1 : i32, tessera_gpu.num_warps = 1 : i32, tessera_gpu.target = "test", tessera_gpu.threads_per_warp = 32 : i32} {
  // CHECK-LABEL: llvm.func internal @relabel
  // CHECK-SAME: (%[[ARG:.*]]: !llvm.struct<(i32, i32)>)
  // CHECK-NOT: tessera_test
  // CHECK-DAG: %[[R0:.*]] = llvm.extractvalue %[[ARG]][0]
  // CHECK-DAG: %[[R1:.*]] = llvm.extractvalue %[[ARG]][1]
  // CHECK: llvm.insertvalue %[[R0]], %{{.*}}[0]
  // CHECK: llvm.insertvalue %[[R1]], %{{.*}}[1]
  // CHECK-NOT: tessera_test
  // CHECK: llvm.return
  func.func @relabel(%arg0: tensor<64xi32, #a>) -> tensor<64xi32, #l> {
    %0 = tessera_gpu.convert_layout %arg0 : tensor<64xi32, #a> -> tensor<64xi32, #l>
    return %0 : tensor<64xi32, #l>
  }
}

// -----

// make_range: each register is its coordinate (register part XOR thread
// part) plus the start.
#blocked = #tessera_gpu.blocked<sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]>
module attributes {tessera_gpu.num_ctas = 1 : i32, tessera_gpu.num_warps = 1 : i32, tessera_gpu.target = "test", tessera_gpu.threads_per_warp = 32 : i32} {
  // CHECK-LABEL: llvm.func internal @range
  // CHECK-DAG: %[[C1:.*]] = llvm.mlir.constant(1 : i32)
  // CHECK-DAG: %[[C16:.*]] = llvm.mlir.constant(16 : i32)
  // CHECK: %[[TID:.*]] = llvm.call @tessera_test_thread_id()
  // CHECK: %[[LANE:.*]] = llvm.and %[[TID]]
  // CHECK: %[[B0:.*]] = llvm.and %[[LANE]], %[[C1]]
  // CHECK: llvm.shl %[[B0]], %[[C1]]
  // CHECK: %[[R1:.*]] = llvm.xor %[[T:.*]], %[[C1]]
  // CHECK: llvm.add %[[T]], %[[C16]]
  // CHECK: llvm.add %[[R1]], %[[C16]]
  func.func @range() -> tensor<64xi32, #blocked> {
    %0 = tessera.make_range {end = 80 : i32, start = 16 : i32} : tensor<64xi32, #blocked>
    return %0 : tensor<64xi32, #blocked>
  }
}

// -----

// split: each thread holds both halves (the last dimension is in its
// registers), so each half is every other register.
#p = #tessera_gpu.blocked<sizePerThread = [1, 2], threadsPerWarp = [32, 1], warpsPerCTA = [1, 1], order = [1, 0]>
#h = #tessera_gpu.slice<dim = 1, parent = #p>
module attributes {tessera_gpu.num_ctas = 1 : i32, tessera_gpu.num_warps = 1 : i32, tessera_gpu.target = "test", tessera_gpu.threads_per_warp = 32 : i32} {
  // CHECK-LABEL: llvm.func internal @split
  // CHECK-SAME: (%[[ARG:.*]]: !llvm.struct<(f32, f32)>)
  // CHECK-NOT: tessera_test
  // CHECK-DAG: llvm.extractvalue %[[ARG]][0]
  // CHECK-DAG: llvm.extractvalue %[[ARG]][1]
  // CHECK: llvm.return
  func.func @split(%x: tensor<32x2xf32, #p>) -> (tensor<32xf32, #h>, tensor<32xf32, #h>) {
    %a, %b = tessera.split %x : tensor<32x2xf32, #p> -> tensor<32xf32, #h>
    return %a, %b : tensor<32xf32, #h>, tensor<32xf32, #h>
  }
}

// -----

// join: the pair becomes the result's minor registers (operand 0 then 1),
// no thread exchange.
#p = #tessera_gpu.blocked<sizePerThread = [1, 2], threadsPerWarp = [32, 1], warpsPerCTA = [1, 1], order = [1, 0]>
#h = #tessera_gpu.slice<dim = 1, parent = #p>
module attributes {tessera_gpu.num_ctas = 1 : i32, tessera_gpu.num_warps = 1 : i32, tessera_gpu.target = "test", tessera_gpu.threads_per_warp = 32 : i32} {
  // CHECK-LABEL: llvm.func internal @join
  // CHECK-SAME: (%[[A:.*]]: !llvm.struct<(f32)>, %[[B:.*]]: !llvm.struct<(f32)>)
  // CHECK-NOT: tessera_test
  // CHECK: %[[U:.*]] = llvm.mlir.undef : !llvm.struct<(f32, f32)>
  // CHECK-DAG: %[[A0:.*]] = llvm.extractvalue %[[A]][0]
  // CHECK-DAG: %[[B0:.*]] = llvm.extractvalue %[[B]][0]
  // CHECK: %[[S0:.*]] = llvm.insertvalue %[[A0]], %[[U]][0]
  // CHECK: %[[S1:.*]] = llvm.insertvalue %[[B0]], %[[S0]][1]
  // CHECK: llvm.return %[[S1]]
  func.func @join(%a: tensor<32xf32, #h>, %b: tensor<32xf32, #h>) -> tensor<32x2xf32, #p> {
    %j = tessera.join %a, %b : tensor<32xf32, #h> -> tensor<32x2xf32, #p>
    return %j : tensor<32x2xf32, #p>
  }
}

// -----

// cat along dimension 0: the result's top register bit picks the operand
// (lhs rows first), each thread keeping the rows it held.
#src = #tessera_gpu.blocked<sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]>
#dst = #tessera_gpu.linear<register = [[1], [64]], lane = [[2], [4], [8], [16], [32]], warp = [], block = []>
module attributes {tessera_gpu.num_ctas = 1 : i32, tessera_gpu.num_warps = 1 : i32, tessera_gpu.target = "test", tessera_gpu.threads_per_warp = 32 : i32} {
  // CHECK-LABEL: llvm.func internal @cat
  // CHECK-SAME: (%[[A:.*]]: !llvm.struct<(i32, i32)>, %[[B:.*]]: !llvm.struct<(i32, i32)>)
  // CHECK-NOT: tessera_test
  // CHECK-DAG: %[[A0:.*]] = llvm.extractvalue %[[A]][0]
  // CHECK-DAG: %[[A1:.*]] = llvm.extractvalue %[[A]][1]
  // CHECK-DAG: %[[B0:.*]] = llvm.extractvalue %[[B]][0]
  // CHECK-DAG: %[[B1:.*]] = llvm.extractvalue %[[B]][1]
  // CHECK: llvm.insertvalue %[[A0]], %{{.*}}[0]
  // CHECK: llvm.insertvalue %[[A1]], %{{.*}}[1]
  // CHECK: llvm.insertvalue %[[B0]], %{{.*}}[2]
  // CHECK: llvm.insertvalue %[[B1]], %{{.*}}[3]
  func.func @cat(%a: tensor<64xi32, #src>, %b: tensor<64xi32, #src>) -> tensor<128xi32, #dst> {
    %c = tessera.cat %a, %b : tensor<64xi32, #src> -> tensor<128xi32, #dst>
    return %c : tensor<128xi32, #dst>
  }
}
