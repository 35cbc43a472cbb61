// RUN: tessera-opt %s --split-input-file --tessera-pipeline-loads="num-stages=3" --canonicalize | FileCheck %s
// RUN: tessera-opt %s --split-input-file --tessera-pipeline-loads="num-stages=3 shared-memory=20000" --canonicalize | FileCheck %s --check-prefix=TWO
// RUN: tessera-opt %s --split-input-file --tessera-pipeline-loads="num-stages=3 shared-memory=12000" --canonicalize | FileCheck %s --check-prefix=NONE

// A loop whose block arrives by a tensor-map copy (as a target with tensor
// memory copies leaves it: block barrier, copy, wait, read): the buffer and
// its barrier become rings of three, the copies of iterations 0 and 1 start
// before the loop, each iteration waits for its slot's token, synchronizes
// the block, starts iteration i + 2 into the slot of i - 1 and reads slot
// i % 3; the two copies past the end are waited for after the loop, then
// the block synchronizes. With 20000 bytes of shared memory two stages fit
// (one copy ahead); with 12000 not even two: the loop stays.
#ld = #tessera_gpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
#sw = #tessera_gpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]>
#word = #tessera_gpu.shared<vec = 1, perPhase = 1, maxPhase = 1, order = [0]>
module attributes {tessera_gpu.num_ctas = 1 : i32, tessera_gpu.num_warps = 4 : i32, tessera_gpu.target = "test", tessera_gpu.threads_per_warp = 32 : i32} {
  // CHECK-LABEL: func.func @tensor_loop
  // CHECK-DAG: %[[C0:.*]] = arith.constant 0 : i32
  // CHECK-DAG: %[[C1:.*]] = arith.constant 1 : i32
  // CHECK-DAG: %[[C2:.*]] = arith.constant 2 : i32
  // CHECK-DAG: %[[C64:.*]] = arith.constant 64 : i32
  // CHECK: %[[RING:.*]] = tessera_gpu.local_alloc : () -> !tessera_gpu.memdesc<3x64x64xf16, #{{.*}}, mutable>
  // CHECK-NEXT: %[[BARS:.*]] = tessera_gpu.local_alloc : () -> !tessera_gpu.memdesc<3x1xi64, #{{.*}}, mutable>
  // CHECK-NEXT: %[[B0:.*]] = tessera_gpu.memdesc_index %[[BARS]][%[[C0]]]
  // CHECK-NEXT: tessera_gpu.init_barrier %[[B0]] {count = 128 : i32}
  // CHECK-NEXT: %[[B1:.*]] = tessera_gpu.memdesc_index %[[BARS]][%[[C1]]]
  // CHECK-NEXT: tessera_gpu.init_barrier %[[B1]] {count = 128 : i32}
  // CHECK-NEXT: %[[B2:.*]] = tessera_gpu.memdesc_index %[[BARS]][%[[C2]]]
  // CHECK-NEXT: tessera_gpu.init_barrier %[[B2]] {count = 128 : i32}
  // CHECK-NEXT: tessera_gpu.barrier
  // Iterations 0 and 1, into slots 0 and 1.
  // CHECK: %[[S0:.*]] = tessera_gpu.memdesc_index %[[RING]][%[[C0]]]
  // CHECK-NEXT: %[[P0:.*]] = tessera_gpu.async_tensor_load %arg0[%[[C0]], %{{.*}}], %[[S0]], %{{.*}}
  // CHECK: %[[S1:.*]] = tessera_gpu.memdesc_index %[[RING]][%[[C1]]]
  // CHECK-NEXT: %[[P1:.*]] = tessera_gpu.async_tensor_load %arg0[%[[C0]], %{{.*}}], %[[S1]], %{{.*}}
  // CHECK: %[[LOOP:.*]]:5 = scf.for %[[IV:.*]] = %[[C0]] to %arg1 step %[[C1]] iter_args(%[[ACC:.*]] = %{{.*}}, %[[T0:.*]] = %[[P0]], %[[T1:.*]] = %[[P1]], %[[READ:.*]] = %[[C0]], %[[WRITE:.*]] = %[[C2]])
  // CHECK: %[[RB:.*]] = tessera_gpu.memdesc_index %[[BARS]][%[[READ]]]
  // CHECK-NEXT: tessera_gpu.wait_barrier %[[RB]], %[[T0]]
  // CHECK-NEXT: tessera_gpu.barrier
  // CHECK-NEXT: %[[AHEAD:.*]] = arith.addi %[[IV]], %{{.*}}
  // CHECK-NEXT: %[[COL:.*]] = arith.muli %[[AHEAD]], %[[C64]]
  // CHECK-NEXT: %[[WB:.*]] = tessera_gpu.memdesc_index %[[BARS]][%[[WRITE]]]
  // CHECK-NEXT: %[[WS:.*]] = tessera_gpu.memdesc_index %[[RING]][%[[WRITE]]]
  // CHECK-NEXT: %[[NEXT:.*]] = tessera_gpu.async_tensor_load %arg0[%[[C0]], %[[COL]]], %[[WS]], %[[WB]]
  // CHECK-NOT: tessera_gpu.wait_barrier
  // CHECK: %[[RS:.*]] = tessera_gpu.memdesc_index %[[RING]][%[[READ]]]
  // CHECK-NEXT: %[[TILE:.*]] = tessera_gpu.local_load %[[RS]]
  // CHECK-NEXT: %[[SUM:.*]] = arith.addf %[[ACC]], %[[TILE]]
  // CHECK: scf.yield %[[SUM]], %[[T1]], %[[NEXT]], %{{.*}}, %{{.*}}
  // CHECK: %[[D0:.*]] = tessera_gpu.memdesc_index %[[BARS]][%[[LOOP]]#3]
  // CHECK-NEXT: tessera_gpu.wait_barrier %[[D0]], %[[LOOP]]#1
  // CHECK: tessera_gpu.wait_barrier %{{.*}}, %[[LOOP]]#2
  // CHECK-NEXT: tessera_gpu.barrier
  // CHECK-NEXT: return %[[LOOP]]#0
  // TWO-LABEL: func.func @tensor_loop
  // TWO: tessera_gpu.local_alloc : () -> !tessera_gpu.memdesc<2x64x64xf16
  // TWO-COUNT-2: tessera_gpu.init_barrier
  // TWO: scf.for {{.*}} -> (tensor<64x64xf16, #{{.*}}>, i64, i32, i32)
  // NONE-LABEL: func.func @tensor_loop
  // NONE: tessera_gpu.local_alloc : () -> !tessera_gpu.memdesc<64x64xf16
  // NONE: scf.for {{.*}} -> (tensor<64x64xf16, #{{.*}}>)
  // NONE: tessera_gpu.async_tensor_load
  // NONE-NEXT: tessera_gpu.wait_barrier
  func.func @tensor_loop(%map: !tessera_gpu.tensor_map, %n: i32) -> tensor<64x64xf16, #ld> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c64 = arith.constant 64 : i32
    %zero = arith.constant dense<0.0> : tensor<64x64xf16, #ld>
    %buf = tessera_gpu.local_alloc : () -> !tessera_gpu.memdesc<64x64xf16, #sw, mutable>
    %bar = tessera_gpu.local_alloc : () -> !tessera_gpu.memdesc<1xi64, #word, mutable>
    tessera_gpu.init_barrier %bar {count = 128 : i32} : !tessera_gpu.memdesc<1xi64, #word, mutable>
    tessera_gpu.barrier
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<64x64xf16, #ld>) : i32 {
      %col = arith.muli %i, %c64 : i32
      tessera_gpu.barrier
      %t = tessera_gpu.async_tensor_load %map[%c0, %col], %buf, %bar : !tessera_gpu.memdesc<64x64xf16, #sw, mutable>, !tessera_gpu.memdesc<1xi64, #word, mutable>
      tessera_gpu.wait_barrier %bar, %t : !tessera_gpu.memdesc<1xi64, #word, mutable>
      %tile = tessera_gpu.local_load %buf : !tessera_gpu.memdesc<64x64xf16, #sw, mutable> -> tensor<64x64xf16, #ld>
      %sum = arith.addf %acc, %tile : tensor<64x64xf16, #ld>
      scf.yield %sum : tensor<64x64xf16, #ld>
    }
    return %r : tensor<64x64xf16, #ld>
  }
}

// -----

// Loops the rings would make wrong or that cannot have them stay as they
// are: one that also writes memory (the early copies might read it), a block
// of 512 bytes (ring slots would lose the 1024-byte alignment of the
// swizzle), a buffer something else reads after the loop.
#ld = #tessera_gpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
#sw = #tessera_gpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]>
#word = #tessera_gpu.shared<vec = 1, perPhase = 1, maxPhase = 1, order = [0]>
module attributes {tessera_gpu.num_ctas = 1 : i32, tessera_gpu.num_warps = 4 : i32, tessera_gpu.target = "test", tessera_gpu.threads_per_warp = 32 : i32} {
  // CHECK-LABEL: func.func @stores
  // CHECK-NOT: memdesc<3x
  // CHECK: scf.for {{.*}} -> (tensor<64x64xf16, #{{.*}}>)
  func.func @stores(%map: !tessera_gpu.tensor_map, %out: tensor<64x64x!tessera.ptr<f16>, #ld>, %n: i32) -> tensor<64x64xf16, #ld> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c64 = arith.constant 64 : i32
    %zero = arith.constant dense<0.0> : tensor<64x64xf16, #ld>
    %buf = tessera_gpu.local_alloc : () -> !tessera_gpu.memdesc<64x64xf16, #sw, mutable>
    %bar = tessera_gpu.local_alloc : () -> !tessera_gpu.memdesc<1xi64, #word, mutable>
    tessera_gpu.init_barrier %bar {count = 128 : i32} : !tessera_gpu.memdesc<1xi64, #word, mutable>
    tessera_gpu.barrier
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<64x64xf16, #ld>) : i32 {
      %col = arith.muli %i, %c64 : i32
      tessera_gpu.barrier
      %t = tessera_gpu.async_tensor_load %map[%c0, %col], %buf, %bar : !tessera_gpu.memdesc<64x64xf16, #sw, mutable>, !tessera_gpu.memdesc<1xi64, #word, mutable>
      tessera_gpu.wait_barrier %bar, %t : !tessera_gpu.memdesc<1xi64, #word, mutable>
      %tile = tessera_gpu.local_load %buf : !tessera_gpu.memdesc<64x64xf16, #sw, mutable> -> tensor<64x64xf16, #ld>
      tessera.store %out, %tile : tensor<64x64x!tessera.ptr<f16>, #ld>
      %sum = arith.addf %acc, %tile : tensor<64x64xf16, #ld>
      scf.yield %sum : tensor<64x64xf16, #ld>
    }
    return %r : tensor<64x64xf16, #ld>
  }

  // CHECK-LABEL: func.func @small_block
  // CHECK-NOT: memdesc<3x
  // CHECK: scf.for {{.*}} -> (tensor<16x16xf16, #{{.*}}>)
  func.func @small_block(%map: !tessera_gpu.tensor_map, %n: i32) -> tensor<16x16xf16, #ld> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c16 = arith.constant 16 : i32
    %zero = arith.constant dense<0.0> : tensor<16x16xf16, #ld>
    %buf = tessera_gpu.local_alloc : () -> !tessera_gpu.memdesc<16x16xf16, #sw, mutable>
    %bar = tessera_gpu.local_alloc : () -> !tessera_gpu.memdesc<1xi64, #word, mutable>
    tessera_gpu.init_barrier %bar {count = 128 : i32} : !tessera_gpu.memdesc<1xi64, #word, mutable>
    tessera_gpu.barrier
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<16x16xf16, #ld>) : i32 {
      %col = arith.muli %i, %c16 : i32
      tessera_gpu.barrier
      %t = tessera_gpu.async_tensor_load %map[%c0, %col], %buf, %bar : !tessera_gpu.memdesc<16x16xf16, #sw, mutable>, !tessera_gpu.memdesc<1xi64, #word, mutable>
      tessera_gpu.wait_barrier %bar, %t : !tessera_gpu.memdesc<1xi64, #word, mutable>
      %tile = tessera_gpu.local_load %buf : !tessera_gpu.memdesc<16x16xf16, #sw, mutable> -> tensor<16x16xf16, #ld>
      %sum = arith.addf %acc, %tile : tensor<16x16xf16, #ld>
      scf.yield %sum : tensor<16x16xf16, #ld>
    }
    return %r : tensor<16x16xf16, #ld>
  }

  // CHECK-LABEL: func.func @read_after
  // CHECK-NOT: memdesc<3x
  // CHECK: scf.for {{.*}} -> (tensor<64x64xf16, #{{.*}}>)
  func.func @read_after(%map: !tessera_gpu.tensor_map, %n: i32) -> tensor<64x64xf16, #ld> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c64 = arith.constant 64 : i32
    %zero = arith.constant dense<0.0> : tensor<64x64xf16, #ld>
    %buf = tessera_gpu.local_alloc : () -> !tessera_gpu.memdesc<64x64xf16, #sw, mutable>
    %bar = tessera_gpu.local_alloc : () -> !tessera_gpu.memdesc<1xi64, #word, mutable>
    tessera_gpu.init_barrier %bar {count = 128 : i32} : !tessera_gpu.memdesc<1xi64, #word, mutable>
    tessera_gpu.barrier
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<64x64xf16, #ld>) : i32 {
      %col = arith.muli %i, %c64 : i32
      tessera_gpu.barrier
      %t = tessera_gpu.async_tensor_load %map[%c0, %col], %buf, %bar : !tessera_gpu.memdesc<64x64xf16, #sw, mutable>, !tessera_gpu.memdesc<1xi64, #word, mutable>
      tessera_gpu.wait_barrier %bar, %t : !tessera_gpu.memdesc<1xi64, #word, mutable>
      %tile = tessera_gpu.local_load %buf : !tessera_gpu.memdesc<64x64xf16, #sw, mutable> -> tensor<64x64xf16, #ld>
      %sum = arith.addf %acc, %tile : tensor<64x64xf16, #ld>
      scf.yield %sum : tensor<64x64xf16, #ld>
    }
    %last = tessera_gpu.local_load %buf : !tessera_gpu.memdesc<64x64xf16, #sw, mutable> -> tensor<64x64xf16, #ld>
    %out = arith.addf %r, %last : tensor<64x64xf16, #ld>
    return %out : tensor<64x64xf16, #ld>
  }
}
