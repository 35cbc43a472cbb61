// RUN: tessera-opt %s --split-input-file --verify-diagnostics --tessera-test-lower-to-llvm | FileCheck %s

// An inclusive scan of 256 elements with a combine that does not commute
// (a - b): each thread holds 4 consecutive elements, the 32 lanes the next 5
// bits of the position, the 2 warps the last. The registers scan in order;
// each lane bit exchanges the block totals with one xor-shuffle and the
// upper half puts the lower half's total first; the warps meet in 2 x 4
// bytes of shared memory between two barriers.
#blocked = #tessera_gpu.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]>
// CHECK: module attributes {{{.*}}tessera_gpu.shared_memory = 8 : i32
module attributes {tessera_gpu.num_ctas = 1 : i32, tessera_gpu.num_warps = 2 : i32, tessera_gpu.target = "test", tessera_gpu.threads_per_warp = 32 : i32} {
  // CHECK-LABEL: llvm.func @scan_sub
  // CHECK-DAG: %[[C0:.*]] = llvm.mlir.constant(0 : i32)
  // CHECK-DAG: %[[C1:.*]] = llvm.mlir.constant(1 : i32)
  // CHECK-DAG: %[[C16:.*]] = llvm.mlir.constant(16 : i32)
  // CHECK: %[[V0:.*]] = llvm.extractvalue %arg1[0]
  // CHECK: %[[V1:.*]] = llvm.extractvalue %arg1[1]
  // CHECK: %[[V2:.*]] = llvm.extractvalue %arg1[2]
  // CHECK: %[[V3:.*]] = llvm.extractvalue %arg1[3]
  // CHECK: %[[P1:.*]] = llvm.sub %[[V0]], %[[V1]]
  // CHECK: %[[P2:.*]] = llvm.sub %[[P1]], %[[V2]]
  // CHECK: %[[T:.*]] = llvm.sub %[[P2]], %[[V3]]
  // The lane bit 0 step: lanes with the bit set are the upper half.
  // CHECK: %[[BIT:.*]] = llvm.and %{{.*}}, %[[C1]]
  // CHECK: %[[UPPER:.*]] = llvm.icmp "eq" %[[BIT]], %[[C1]]
  // CHECK: %[[PT:.*]] = llvm.call @tessera_test_shuffle_xor_i32(%[[T]], %[[C1]])
  // CHECK: %[[LO:.*]] = llvm.select %[[UPPER]], %[[PT]], %[[T]]
  // CHECK: %[[HI:.*]] = llvm.select %[[UPPER]], %[[T]], %[[PT]]
  // CHECK: llvm.sub %[[LO]], %[[HI]]
  // CHECK: %[[Q0:.*]] = llvm.sub %[[PT]], %[[V0]]
  // CHECK: llvm.select %[[UPPER]], %[[Q0]], %[[V0]]
  // CHECK-COUNT-3: llvm.select %[[UPPER]]
  // CHECK: llvm.call @tessera_test_shuffle_xor_i32(%{{.*}}, %{{.*}})
  // CHECK: llvm.call @tessera_test_shuffle_xor_i32(%{{.*}}, %{{.*}})
  // CHECK: llvm.call @tessera_test_shuffle_xor_i32(%{{.*}}, %{{.*}})
  // CHECK: llvm.call @tessera_test_shuffle_xor_i32(%{{.*}}, %[[C16]])
  // CHECK-NOT: shuffle_xor
  // CHECK: llvm.call @tessera_test_barrier()
  // CHECK: llvm.store %{{.*}} : i32, !llvm.ptr<3>
  // CHECK-NEXT: llvm.call @tessera_test_barrier()
  // Warp 1 puts warp 0's total first; the joined total is not needed.
  // CHECK: %[[W0T:.*]] = llvm.load %{{.*}} : !llvm.ptr<3> -> i32
  // CHECK-NOT: llvm.load
  // CHECK: llvm.sub %[[W0T]], %{{.*}}
  // CHECK: llvm.call @tessera_test_store_global_v4i32
  func.func @scan_sub(%arg0: !tessera.ptr<i32> {tessera.divisibility = 16 : i32}, %arg1: tensor<256xi32, #blocked>) attributes {tessera.kernel} {
    %0 = tessera.scan(%arg1) {axis = 0 : i32} : (tensor<256xi32, #blocked>) -> tensor<256xi32, #blocked> {
    ^bb0(%a: i32, %b: i32):
      %s = arith.subi %a, %b : i32
      tessera.scan.return %s : i32
    }
    %1 = tessera.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32, #blocked>
    %2 = tessera.splat %arg0 : tensor<256x!tessera.ptr<i32>, #blocked>
    %3 = tessera.addptr %2, %1 : tensor<256x!tessera.ptr<i32>, #blocked>, tensor<256xi32, #blocked>
    tessera.store %3, %0 : tensor<256x!tessera.ptr<i32>, #blocked>
    return
  }

  // Reversed, the walk runs from the last position: the registers combine
  // from the fourth down, and lanes with the bit clear are the upper half.
  // CHECK-LABEL: llvm.func @scan_sub_reverse
  // CHECK-DAG: %[[R0:.*]] = llvm.mlir.constant(0 : i32)
  // CHECK-DAG: %[[R1:.*]] = llvm.mlir.constant(1 : i32)
  // CHECK: %[[W0:.*]] = llvm.extractvalue %arg1[0]
  // CHECK: %[[W1:.*]] = llvm.extractvalue %arg1[1]
  // CHECK: %[[W2:.*]] = llvm.extractvalue %arg1[2]
  // CHECK: %[[W3:.*]] = llvm.extractvalue %arg1[3]
  // CHECK: %[[S1:.*]] = llvm.sub %[[W3]], %[[W2]]
  // CHECK: %[[S2:.*]] = llvm.sub %[[S1]], %[[W1]]
  // CHECK: llvm.sub %[[S2]], %[[W0]]
  // CHECK: %[[RBIT:.*]] = llvm.and %{{.*}}, %[[R1]]
  // CHECK: llvm.icmp "eq" %[[RBIT]], %[[R0]]
  func.func @scan_sub_reverse(%arg0: !tessera.ptr<i32> {tessera.divisibility = 16 : i32}, %arg1: tensor<256xi32, #blocked>) attributes {tessera.kernel} {
    %0 = tessera.scan(%arg1) {axis = 0 : i32, reverse} : (tensor<256xi32, #blocked>) -> tensor<256xi32, #blocked> {
    ^bb0(%a: i32, %b: i32):
      %s = arith.subi %a, %b : i32
      tessera.scan.return %s : i32
    }
    %1 = tessera.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32, #blocked>
    %2 = tessera.splat %arg0 : tensor<256x!tessera.ptr<i32>, #blocked>
    %3 = tessera.addptr %2, %1 : tensor<256x!tessera.ptr<i32>, #blocked>, tensor<256xi32, #blocked>
    tessera.store %3, %0 : tensor<256x!tessera.ptr<i32>, #blocked>
    return
  }
}

// -----

// A register bit above the lanes and warps (positions 0-31 in lanes, 32-63
// in warps, 64-127 in the second register; the other register bit picks
// the row): 4 blocks per thread, so 4 shuffles per lane bit; the warps
// exchange the 4 totals (2 slots x 4 blocks x 4 bytes of scratch); the
// register step that follows needs no exchange, and the upper half's
// totals, which nothing reads, are left out.
#linear = #tessera_gpu.linear<register = [[0, 64], [1, 0]], lane = [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16]], warp = [[0, 32]], block = []>
// CHECK: module attributes {{{.*}}tessera_gpu.shared_memory = 32 : i32
module attributes {tessera_gpu.num_ctas = 1 : i32, tessera_gpu.num_warps = 2 : i32, tessera_gpu.target = "test", tessera_gpu.threads_per_warp = 32 : i32} {
  // CHECK-LABEL: llvm.func internal @register_above_warps
  // CHECK-COUNT-20: llvm.call @tessera_test_shuffle_xor_f32
  // CHECK-NOT: shuffle_xor
  // CHECK: llvm.call @tessera_test_barrier()
  // CHECK-COUNT-4: llvm.store %{{.*}} : f32, !llvm.ptr<3>
  // CHECK-NEXT: llvm.call @tessera_test_barrier()
  // CHECK: llvm.load %{{.*}} : !llvm.ptr<3> -> f32
  // CHECK-NOT: shuffle_xor
  // CHECK-NOT: barrier
  // CHECK: llvm.return
  func.func @register_above_warps(%arg0: tensor<2x128xf32, #linear>) -> tensor<2x128xf32, #linear> {
    %0 = tessera.scan(%arg0) {axis = 1 : i32} : (tensor<2x128xf32, #linear>) -> tensor<2x128xf32, #linear> {
    ^bb0(%a: f32, %b: f32):
      %s = arith.addf %a, %b : f32
      tessera.scan.return %s : f32
    }
    return %0 : tensor<2x128xf32, #linear>
  }
}

// -----

#mixed = #tessera_gpu.linear<register = [[0, 1], [0, 2]], lane = [[1, 2], [0, 4], [0, 8], [0, 16], [2, 0]], warp = [], block = []>
module attributes {tessera_gpu.num_ctas = 1 : i32, tessera_gpu.num_warps = 1 : i32, tessera_gpu.target = "test", tessera_gpu.threads_per_warp = 32 : i32} {
  func.func @lane_moves_two_ways(%arg0: tensor<4x32xf32, #mixed>) -> tensor<4x32xf32, #mixed> {
    // expected-error @below {{cannot scan along axis 1 a layout whose lane bit 0 moves along dimension 0 too}}
    %0 = tessera.scan(%arg0) {axis = 1 : i32} : (tensor<4x32xf32, #mixed>) -> tensor<4x32xf32, #mixed> {
    ^bb0(%a: f32, %b: f32):
      %s = arith.addf %a, %b : f32
      tessera.scan.return %s : f32
    }
    return %0 : tensor<4x32xf32, #mixed>
  }
}

// -----

#odd = #tessera_gpu.linear<register = [[1], [3]], lane = [[4], [8], [16], [32], [64]], warp = [], block = []>
module attributes {tessera_gpu.num_ctas = 1 : i32, tessera_gpu.num_warps = 1 : i32, tessera_gpu.target = "test", tessera_gpu.threads_per_warp = 32 : i32} {
  func.func @odd_basis(%arg0: tensor<128xi32, #odd>) -> tensor<128xi32, #odd> {
    // expected-error @below {{cannot scan along axis 0: the layout's bases along the axis are not distinct powers of two (register bit 1 moves 3)}}
    %0 = tessera.scan(%arg0) {axis = 0 : i32} : (tensor<128xi32, #odd>) -> tensor<128xi32, #odd> {
    ^bb0(%a: i32, %b: i32):
      %s = arith.addi %a, %b : i32
      tessera.scan.return %s : i32
    }
    return %0 : tensor<128xi32, #odd>
  }
}
