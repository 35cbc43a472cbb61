// RUN: tessera-opt %s --split-input-file --tessera-pipeline-loads="num-stages=3" --canonicalize | FileCheck %s
// RUN: tessera-opt %s --split-input-file --tessera-pipeline-loads="num-stages=3 shared-memory=20000" --canonicalize | FileCheck %s --check-prefix=TWO
// RUN: tessera-opt %s --split-input-file --tessera-pipeline-loads="num-stages=3 shared-memory=12000" --canonicalize | FileCheck %s --check-prefix=NONE
// RUN: tessera-opt %s --split-input-file --tessera-pipeline-loads="num-stages=3 dots-in-flight=1" --canonicalize | FileCheck %s --check-prefix=INFLIGHT

// A loop whose block arrives by a tensor-map copy (as a target with tensor
// memory copies leaves it: block barrier, copy, wait, read): the buffer
// becomes a ring of three right before the loop (what comes before may use
// its bytes), the barrier a ring of three where it was, initialized before
// the loop for one arrival each (the copy's own). The copies of iterations
// 0 and 1 start before the loop; each iteration waits for its slot's
// barrier by the parity of its phase (carried with the slot, flipped where
// the ring wraps), synchronizes the block, starts iteration i + 2 into the
// slot of i - 1 and reads slot i % 3. Every copy is predicated on its
// iteration being below the loop's bound (%arg1, known at run time), so
// none runs past the end and none is waited for after the loop: the block
// synchronizes and the barriers are invalidated. With 20000 bytes of
// shared memory two stages fit (one copy ahead); with 12000 not even two:
// the loop stays.
#ld = #tessera_gpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
#sw = #tessera_gpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]>
#word = #tessera_gpu.shared<vec = 1, perPhase = 1, maxPhase = 1, order = [0]>
module attributes {tessera_gpu.num_ctas = 1 : i32, tessera_gpu.num_warps = 4 : i32, tessera_gpu.target = "test", tessera_gpu.threads_per_warp = 32 : i32} {
  // CHECK-LABEL: func.func @tensor_loop
  // CHECK-DAG: %[[C0:.*]] = arith.constant 0 : i32
  // CHECK-DAG: %[[C1:.*]] = arith.constant 1 : i32
  // CHECK-DAG: %[[C2:.*]] = arith.constant 2 : i32
  // CHECK-DAG: %[[C64:.*]] = arith.constant 64 : i32
  // The block barrier that followed the first barrier's initialization has
  // nothing left to order at the kernel's start and folds away.
  // CHECK: %[[BARS:.*]] = tessera_gpu.local_alloc : () -> !tessera_gpu.memdesc<3x1xi64, #{{.*}}, mutable>
  // CHECK-NEXT: %[[B0:.*]] = tessera_gpu.memdesc_index %[[BARS]][%[[C0]]]
  // CHECK-NEXT: tessera_gpu.init_barrier %[[B0]] {count = 1 : i32}
  // CHECK-NEXT: %[[B1:.*]] = tessera_gpu.memdesc_index %[[BARS]][%[[C1]]]
  // CHECK-NEXT: tessera_gpu.init_barrier %[[B1]] {count = 1 : i32}
  // CHECK-NEXT: %[[B2:.*]] = tessera_gpu.memdesc_index %[[BARS]][%[[C2]]]
  // CHECK-NEXT: tessera_gpu.init_barrier %[[B2]] {count = 1 : i32}
  // CHECK-NEXT: tessera_gpu.barrier
  // CHECK-NEXT: %[[RING:.*]] = tessera_gpu.local_alloc : () -> !tessera_gpu.memdesc<3x64x64xf16, #{{.*}}, mutable>
  // Iterations 0 and 1, into slots 0 and 1, if the loop runs them; no
  // tokens.
  // CHECK: %[[RUNS0:.*]] = arith.cmpi sgt, %arg1, %[[C0]]
  // CHECK: %[[S0:.*]] = tessera_gpu.memdesc_index %[[RING]][%[[C0]]]
  // CHECK-NEXT: tessera_gpu.async_tensor_load %arg0[%[[C0]], %[[C0]]], %[[S0]], %{{.*}} if %[[RUNS0]] : {{.*}}, !tessera_gpu.memdesc<1xi64, #{{.*}}, mutable>{{$}}
  // CHECK: %[[RUNS1:.*]] = arith.cmpi sgt, %arg1, %[[C1]]
  // CHECK: %[[S1:.*]] = tessera_gpu.memdesc_index %[[RING]][%[[C1]]]
  // CHECK-NEXT: tessera_gpu.async_tensor_load %arg0[%[[C0]], %[[C64]]], %[[S1]], %{{.*}} if %[[RUNS1]]
  // CHECK: %[[LOOP:.*]]:4 = scf.for %[[IV:.*]] = %[[C0]] to %arg1 step %[[C1]] iter_args(%[[ACC:.*]] = %{{.*}}, %[[READ:.*]] = %[[C0]], %[[PHASE:.*]] = %[[C0]], %[[WRITE:.*]] = %[[C2]])
  // CHECK: %[[RB:.*]] = tessera_gpu.memdesc_index %[[BARS]][%[[READ]]]
  // CHECK-NEXT: tessera_gpu.wait_barrier %[[RB]], %[[PHASE]] : !tessera_gpu.memdesc<1xi64, #{{.*}}, mutable>, i32
  // CHECK-NEXT: tessera_gpu.barrier
  // CHECK-NEXT: %[[AHEAD:.*]] = arith.addi %[[IV]], %{{.*}}
  // CHECK-NEXT: %[[COL:.*]] = arith.muli %[[AHEAD]], %[[C64]]
  // CHECK-NEXT: %[[RUNS:.*]] = arith.cmpi slt, %[[AHEAD]], %arg1
  // CHECK-NEXT: %[[WB:.*]] = tessera_gpu.memdesc_index %[[BARS]][%[[WRITE]]]
  // CHECK-NEXT: %[[WS:.*]] = tessera_gpu.memdesc_index %[[RING]][%[[WRITE]]]
  // CHECK-NEXT: tessera_gpu.async_tensor_load %arg0[%[[C0]], %[[COL]]], %[[WS]], %[[WB]] if %[[RUNS]]
  // CHECK-NOT: tessera_gpu.wait_barrier
  // CHECK: %[[RS:.*]] = tessera_gpu.memdesc_index %[[RING]][%[[READ]]]
  // CHECK-NEXT: %[[TILE:.*]] = tessera_gpu.local_load %[[RS]]
  // CHECK-NEXT: %[[SUM:.*]] = arith.addf %[[ACC]], %[[TILE]]
  // The parity flips after slot 2.
  // CHECK: %[[LAST:.*]] = arith.cmpi eq, %[[READ]], %[[C2]]
  // CHECK-NEXT: %[[FLIP:.*]] = arith.extui %[[LAST]] : i1 to i32
  // CHECK-NEXT: %[[NEXTPHASE:.*]] = arith.xori %[[PHASE]], %[[FLIP]]
  // CHECK: scf.yield %[[SUM]], %{{.*}}, %[[NEXTPHASE]], %{{.*}}
  // CHECK-NEXT: }
  // CHECK-NEXT: tessera_gpu.barrier
  // CHECK-NEXT: %[[I0:.*]] = tessera_gpu.memdesc_index %[[BARS]][%[[C0]]]
  // CHECK-NEXT: tessera_gpu.inval_barrier %[[I0]]
  // CHECK-COUNT-2: tessera_gpu.inval_barrier
  // CHECK-NEXT: return %[[LOOP]]#0
  // TWO-LABEL: func.func @tensor_loop
  // TWO-COUNT-2: tessera_gpu.init_barrier
  // TWO: tessera_gpu.local_alloc : () -> !tessera_gpu.memdesc<2x64x64xf16
  // TWO: scf.for {{.*}} -> (tensor<64x64xf16, #{{.*}}>, i32, i32, i32)
  // NONE-LABEL: func.func @tensor_loop
  // NONE: tessera_gpu.local_alloc : () -> !tessera_gpu.memdesc<64x64xf16
  // NONE: scf.for {{.*}} -> (tensor<64x64xf16, #{{.*}}>)
  // NONE: %[[T:.*]] = tessera_gpu.async_tensor_load {{.*}} -> i64
  // NONE-NEXT: tessera_gpu.wait_barrier %{{.*}}, %[[T]] : !tessera_gpu.memdesc<1xi64, #{{.*}}, mutable>, i64
  func.func @tensor_loop(%map: !tessera_gpu.tensor_map, %n: i32) -> tensor<64x64xf16, #ld> attributes {tessera.kernel} {
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
      %t = tessera_gpu.async_tensor_load %map[%c0, %col], %buf, %bar : !tessera_gpu.memdesc<64x64xf16, #sw, mutable>, !tessera_gpu.memdesc<1xi64, #word, mutable> -> i64
      tessera_gpu.wait_barrier %bar, %t : !tessera_gpu.memdesc<1xi64, #word, mutable>, i64
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
      %t = tessera_gpu.async_tensor_load %map[%c0, %col], %buf, %bar : !tessera_gpu.memdesc<64x64xf16, #sw, mutable>, !tessera_gpu.memdesc<1xi64, #word, mutable> -> i64
      tessera_gpu.wait_barrier %bar, %t : !tessera_gpu.memdesc<1xi64, #word, mutable>, i64
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
      %t = tessera_gpu.async_tensor_load %map[%c0, %col], %buf, %bar : !tessera_gpu.memdesc<16x16xf16, #sw, mutable>, !tessera_gpu.memdesc<1xi64, #word, mutable> -> i64
      tessera_gpu.wait_barrier %bar, %t : !tessera_gpu.memdesc<1xi64, #word, mutable>, i64
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
      %t = tessera_gpu.async_tensor_load %map[%c0, %col], %buf, %bar : !tessera_gpu.memdesc<64x64xf16, #sw, mutable>, !tessera_gpu.memdesc<1xi64, #word, mutable> -> i64
      tessera_gpu.wait_barrier %bar, %t : !tessera_gpu.memdesc<1xi64, #word, mutable>, i64
      %tile = tessera_gpu.local_load %buf : !tessera_gpu.memdesc<64x64xf16, #sw, mutable> -> tensor<64x64xf16, #ld>
      %sum = arith.addf %acc, %tile : tensor<64x64xf16, #ld>
      scf.yield %sum : tensor<64x64xf16, #ld>
    }
    %last = tessera_gpu.local_load %buf : !tessera_gpu.memdesc<64x64xf16, #sw, mutable> -> tensor<64x64xf16, #ld>
    %out = arith.addf %r, %last : tensor<64x64xf16, #ld>
    return %out : tensor<64x64xf16, #ld>
  }
}

// -----

// With dots that may run one iteration behind (dots-in-flight=1: each
// thread's dot of iteration i has waited for that of i - 1), a loop whose
// dot carries the accumulator keeps rings of three buffers and three
// barriers, and starts its copies after the dot: iteration i waits for its
// slot at the top, then after its dot the block synchronizes and iteration
// i + 2 starts into slot (i + 2) % 3, the slot of i - 1. The loop says so.
// A loop without such a dot (@tensor_loop above) starts them at the top.
#ld = #tessera_gpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
#acc = #tessera_gpu.blocked<sizePerThread = [4, 4], threadsPerWarp = [8, 4], warpsPerCTA = [2, 2], order = [1, 0]>
#opa = #tessera_gpu.dot_op<opIdx = 0, parent = #acc>
#opb = #tessera_gpu.dot_op<opIdx = 1, parent = #acc>
#sw = #tessera_gpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]>
#word = #tessera_gpu.shared<vec = 1, perPhase = 1, maxPhase = 1, order = [0]>
module attributes {tessera_gpu.num_ctas = 1 : i32, tessera_gpu.num_warps = 4 : i32, tessera_gpu.target = "test", tessera_gpu.threads_per_warp = 32 : i32} {
  // INFLIGHT-LABEL: func.func @tensor_loop
  // INFLIGHT: memdesc<3x64x64xf16
  // INFLIGHT-NOT: dots_in_flight
  // INFLIGHT-LABEL: func.func @dot_loop
  // INFLIGHT-DAG: %[[C2:.*]] = arith.constant 2 : i32
  // INFLIGHT-DAG: %[[C3:.*]] = arith.constant 3 : i32
  // INFLIGHT: tessera_gpu.local_alloc : () -> !tessera_gpu.memdesc<3x1xi64
  // INFLIGHT-COUNT-3: tessera_gpu.init_barrier
  // INFLIGHT: %[[RING:.*]] = tessera_gpu.local_alloc : () -> !tessera_gpu.memdesc<3x64x64xf16
  // INFLIGHT: scf.for {{.*}} iter_args({{.*}}, %[[READ:.*]] = %{{.*}}, %[[PHASE:.*]] = %{{.*}}, %[[WRITE:.*]] = %[[C2]])
  // INFLIGHT: tessera_gpu.wait_barrier %{{.*}}, %[[PHASE]]
  // INFLIGHT-NOT: tessera_gpu.barrier
  // INFLIGHT: tessera_gpu.memdesc_index %[[RING]][%[[READ]]]
  // INFLIGHT-NEXT: tessera_gpu.local_load
  // INFLIGHT-NEXT: tessera.dot
  // INFLIGHT-NEXT: tessera_gpu.barrier
  // INFLIGHT: tessera_gpu.memdesc_index %[[RING]][%[[WRITE]]]
  // INFLIGHT-NEXT: tessera_gpu.async_tensor_load
  // INFLIGHT: arith.cmpi eq, %{{.*}}, %[[C3]]
  // INFLIGHT: } {tessera_gpu.dots_in_flight = 1 : i32}
  func.func @dot_loop(%map: !tessera_gpu.tensor_map, %a: tensor<64x64xf16, #opa>, %n: i32) -> tensor<64x64xf32, #acc> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c64 = arith.constant 64 : i32
    %zero = arith.constant dense<0.0> : tensor<64x64xf32, #acc>
    %buf = tessera_gpu.local_alloc : () -> !tessera_gpu.memdesc<64x64xf16, #sw, mutable>
    %bar = tessera_gpu.local_alloc : () -> !tessera_gpu.memdesc<1xi64, #word, mutable>
    tessera_gpu.init_barrier %bar {count = 128 : i32} : !tessera_gpu.memdesc<1xi64, #word, mutable>
    tessera_gpu.barrier
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<64x64xf32, #acc>) : i32 {
      %row = arith.muli %i, %c64 : i32
      tessera_gpu.barrier
      %t = tessera_gpu.async_tensor_load %map[%row, %c0], %buf, %bar : !tessera_gpu.memdesc<64x64xf16, #sw, mutable>, !tessera_gpu.memdesc<1xi64, #word, mutable> -> i64
      tessera_gpu.wait_barrier %bar, %t : !tessera_gpu.memdesc<1xi64, #word, mutable>, i64
      %b = tessera_gpu.local_load %buf : !tessera_gpu.memdesc<64x64xf16, #sw, mutable> -> tensor<64x64xf16, #opb>
      %d = tessera.dot %a, %b, %acc : tensor<64x64xf16, #opa> * tensor<64x64xf16, #opb> -> tensor<64x64xf32, #acc>
      scf.yield %d : tensor<64x64xf32, #acc>
    }
    return %r : tensor<64x64xf32, #acc>
  }
}

// -----

// Two copies in one loop (a matmul's A and B blocks) share one ring of
// barriers, each initialized for two arrivals (one per copy): an iteration
// waits once. In a loop nested in another (a persistent kernel's K loop
// inside its tile loop) the barriers are initialized before each run of
// the inner loop, at phase 0 as the carried parity assumes, and
// invalidated after it.
#sw = #tessera_gpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]>
#word = #tessera_gpu.shared<vec = 1, perPhase = 1, maxPhase = 1, order = [0]>
#acc = #tessera_gpu.blocked<sizePerThread = [4, 4], threadsPerWarp = [8, 4], warpsPerCTA = [2, 2], order = [1, 0]>
#opa = #tessera_gpu.dot_op<opIdx = 0, parent = #acc>
#opb = #tessera_gpu.dot_op<opIdx = 1, parent = #acc>
module attributes {tessera_gpu.num_ctas = 1 : i32, tessera_gpu.num_warps = 4 : i32, tessera_gpu.target = "test", tessera_gpu.threads_per_warp = 32 : i32} {
  // CHECK-LABEL: func.func @two_copies
  // CHECK: %[[BARS:.*]] = tessera_gpu.local_alloc : () -> !tessera_gpu.memdesc<3x1xi64
  // CHECK-NOT: tessera_gpu.local_alloc : () -> !tessera_gpu.memdesc<1xi64
  // CHECK-NOT: tessera_gpu.init_barrier
  // CHECK: scf.for
  // CHECK-COUNT-3: tessera_gpu.init_barrier %{{.*}} {count = 2 : i32}
  // CHECK-NEXT: tessera_gpu.barrier
  // CHECK-NEXT: %[[RA:.*]] = tessera_gpu.local_alloc : () -> !tessera_gpu.memdesc<3x64x64xf16
  // CHECK-NEXT: %[[RB:.*]] = tessera_gpu.local_alloc : () -> !tessera_gpu.memdesc<3x64x64xf16
  // CHECK: %[[BAR0:.*]] = tessera_gpu.memdesc_index %[[BARS]][%[[C0:.*]]]
  // CHECK-NEXT: %[[A0:.*]] = tessera_gpu.memdesc_index %[[RA]][%[[C0]]]
  // CHECK-NEXT: tessera_gpu.async_tensor_load %arg0[%{{.*}}], %[[A0]], %[[BAR0]]
  // CHECK-NEXT: %[[B0:.*]] = tessera_gpu.memdesc_index %[[RB]][%[[C0]]]
  // CHECK-NEXT: tessera_gpu.async_tensor_load %arg1[%{{.*}}], %[[B0]], %[[BAR0]]
  // CHECK: scf.for {{.*}} -> (tensor<64x64xf32, #{{.*}}>, i32, i32, i32)
  // CHECK: tessera_gpu.wait_barrier
  // CHECK-NOT: tessera_gpu.wait_barrier
  // CHECK: tessera.dot
  // CHECK: scf.yield
  // CHECK-NEXT: }
  // CHECK-NEXT: tessera_gpu.barrier
  // CHECK-COUNT-3: tessera_gpu.inval_barrier
  // CHECK: scf.yield
  func.func @two_copies(%ma: !tessera_gpu.tensor_map, %mb: !tessera_gpu.tensor_map, %tiles: i32, %n: i32) -> tensor<64x64xf32, #acc> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c64 = arith.constant 64 : i32
    %zero = arith.constant dense<0.0> : tensor<64x64xf32, #acc>
    %bufa = tessera_gpu.local_alloc : () -> !tessera_gpu.memdesc<64x64xf16, #sw, mutable>
    %bara = tessera_gpu.local_alloc : () -> !tessera_gpu.memdesc<1xi64, #word, mutable>
    tessera_gpu.init_barrier %bara {count = 128 : i32} : !tessera_gpu.memdesc<1xi64, #word, mutable>
    %bufb = tessera_gpu.local_alloc : () -> !tessera_gpu.memdesc<64x64xf16, #sw, mutable>
    %barb = tessera_gpu.local_alloc : () -> !tessera_gpu.memdesc<1xi64, #word, mutable>
    tessera_gpu.init_barrier %barb {count = 128 : i32} : !tessera_gpu.memdesc<1xi64, #word, mutable>
    tessera_gpu.barrier
    %out = scf.for %tile = %c0 to %tiles step %c1 iter_args(%prev = %zero) -> (tensor<64x64xf32, #acc>) : i32 {
      %row = arith.muli %tile, %c64 : i32
      %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %prev) -> (tensor<64x64xf32, #acc>) : i32 {
        %k = arith.muli %i, %c64 : i32
        tessera_gpu.barrier
        %ta = tessera_gpu.async_tensor_load %ma[%row, %k], %bufa, %bara : !tessera_gpu.memdesc<64x64xf16, #sw, mutable>, !tessera_gpu.memdesc<1xi64, #word, mutable> -> i64
        tessera_gpu.wait_barrier %bara, %ta : !tessera_gpu.memdesc<1xi64, #word, mutable>, i64
        tessera_gpu.barrier
        %tb = tessera_gpu.async_tensor_load %mb[%k, %c0], %bufb, %barb : !tessera_gpu.memdesc<64x64xf16, #sw, mutable>, !tessera_gpu.memdesc<1xi64, #word, mutable> -> i64
        tessera_gpu.wait_barrier %barb, %tb : !tessera_gpu.memdesc<1xi64, #word, mutable>, i64
        %a = tessera_gpu.local_load %bufa : !tessera_gpu.memdesc<64x64xf16, #sw, mutable> -> tensor<64x64xf16, #opa>
        %b = tessera_gpu.local_load %bufb : !tessera_gpu.memdesc<64x64xf16, #sw, mutable> -> tensor<64x64xf16, #opb>
        %d = tessera.dot %a, %b, %acc : tensor<64x64xf16, #opa> * tensor<64x64xf16, #opb> -> tensor<64x64xf32, #acc>
        scf.yield %d : tensor<64x64xf32, #acc>
      }
      scf.yield %r : tensor<64x64xf32, #acc>
    }
    return %out : tensor<64x64xf32, #acc>
  }
}

// -----

// A K loop in a flattened tile loop (a persistent kernel's `tl.range(...,
// flatten=True)`: its iterations may overlap) gets rings that live across
// the tile loop: the barriers are initialized once before it and end after
// it, and the slot, the phase and where the copies ahead are (tile, k and
// the row the tile's copies read, a division of the tile) go on from one
// tile to the next. The copies ahead run over the iterations of the nest in
// order: the next k, else k = 0 of the next tile, whose row is computed
// only then and only for a tile the tile loop runs (never dividing for a
// tile past the end). Each copy is predicated on both induction variables
// being in range. The tile loop's store (an epilogue) stays where it is.
#sw = #tessera_gpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]>
#word = #tessera_gpu.shared<vec = 1, perPhase = 1, maxPhase = 1, order = [0]>
#acc = #tessera_gpu.blocked<sizePerThread = [4, 4], threadsPerWarp = [8, 4], warpsPerCTA = [2, 2], order = [1, 0]>
#opa = #tessera_gpu.dot_op<opIdx = 0, parent = #acc>
#opb = #tessera_gpu.dot_op<opIdx = 1, parent = #acc>
module attributes {tessera_gpu.num_ctas = 1 : i32, tessera_gpu.num_warps = 4 : i32, tessera_gpu.target = "test", tessera_gpu.threads_per_warp = 32 : i32} {
  // CHECK-LABEL: func.func @flattened
  // CHECK-DAG: %[[C0:.*]] = arith.constant 0 : i32
  // CHECK-DAG: %[[C1:.*]] = arith.constant 1 : i32
  // CHECK-DAG: %[[C2:.*]] = arith.constant 2 : i32
  // CHECK-DAG: %[[C64:.*]] = arith.constant 64 : i32
  // CHECK-DAG: %[[C132:.*]] = arith.constant 132 : i32
  // CHECK: %[[BARS:.*]] = tessera_gpu.local_alloc : () -> !tessera_gpu.memdesc<3x1xi64
  // CHECK-COUNT-3: tessera_gpu.init_barrier %{{.*}} {count = 2 : i32}
  // CHECK-NEXT: tessera_gpu.barrier
  // CHECK-NEXT: %[[RA:.*]] = tessera_gpu.local_alloc : () -> !tessera_gpu.memdesc<3x64x64xf16
  // CHECK-NEXT: %[[RB:.*]] = tessera_gpu.local_alloc : () -> !tessera_gpu.memdesc<3x64x64xf16
  // The first tile's row, if there is a first tile.
  // CHECK-NEXT: %[[ANY:.*]] = arith.cmpi slt, %arg2, %arg3
  // CHECK-NEXT: %[[ROW0:.*]] = scf.if %[[ANY]] -> (i32) {
  // CHECK-NEXT: %[[G0:.*]] = arith.divsi %arg2, %arg5
  // CHECK-NEXT: %[[R0:.*]] = arith.muli %[[G0]], %[[C64]]
  // CHECK-NEXT: scf.yield %[[R0]]
  // CHECK-NEXT: } else {
  // CHECK-NEXT: scf.yield %[[C0]]
  // CHECK: tessera_gpu.async_tensor_load %arg0[%[[ROW0]], %[[C0]]], {{.*}} if
  // CHECK-NEXT: tessera_gpu.memdesc_index %[[RB]][%[[C0]]]
  // CHECK-NEXT: tessera_gpu.async_tensor_load %arg1[%[[C0]], %arg2], {{.*}} if
  // The second copy: k = 1 of the first tile, else k = 0 of the next.
  // CHECK: %[[ONE:.*]] = arith.cmpi sgt, %arg4, %[[C1]]
  // CHECK-NEXT: %[[NEXT:.*]] = arith.addi %arg2, %[[C132]]
  // CHECK-NEXT: %[[K1:.*]] = arith.extui %[[ONE]]
  // CHECK-NEXT: %[[T1:.*]] = arith.select %[[ONE]], %arg2, %[[NEXT]]
  // CHECK-NEXT: %[[NEXTRUNS:.*]] = arith.cmpi slt, %[[NEXT]], %arg3
  // CHECK-NEXT: %[[WRAPS:.*]] = arith.cmpi sle, %arg4, %[[C1]]
  // CHECK-NEXT: %[[NEWTILE:.*]] = arith.andi %[[WRAPS]], %[[NEXTRUNS]]
  // CHECK-NEXT: %[[ROW1:.*]] = scf.if %[[NEWTILE]] -> (i32) {
  // CHECK-NEXT: arith.divsi %[[NEXT]], %arg5
  // CHECK: } else {
  // CHECK-NEXT: scf.yield %[[ROW0]]
  // CHECK: %[[COL1:.*]] = arith.muli %[[K1]], %[[C64]]
  // CHECK: tessera_gpu.async_tensor_load %arg0[%[[ROW1]], %[[COL1]]]
  // CHECK: tessera_gpu.async_tensor_load %arg1[%[[COL1]], %[[T1]]]
  // CHECK: scf.for %{{.*}} = %arg2 to %arg3 step %[[C132]] iter_args(%[[TR:.*]] = %[[C0]], %[[TP:.*]] = %[[C0]], %[[TW:.*]] = %[[C2]], %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) -> (i32, i32, i32, i32, i32, i32)
  // CHECK-NOT: tessera_gpu.init_barrier
  // CHECK: scf.for %{{.*}} = %[[C0]] to %arg4 step %[[C1]] iter_args(%{{.*}} = %{{.*}}, %[[READ:.*]] = %[[TR]], %[[PHASE:.*]] = %[[TP]], %[[WRITE:.*]] = %[[TW]], %[[TILE:.*]] = %{{.*}}, %[[K:.*]] = %{{.*}}, %[[ROW:.*]] = %{{.*}})
  // CHECK: tessera_gpu.wait_barrier %{{.*}}, %[[PHASE]]
  // CHECK-NEXT: tessera_gpu.barrier
  // CHECK-NEXT: %[[COL:.*]] = arith.muli %[[K]], %[[C64]]
  // CHECK-NEXT: %[[TILEIN:.*]] = arith.cmpi slt, %[[TILE]], %arg3
  // CHECK-NEXT: %[[KIN:.*]] = arith.cmpi slt, %[[K]], %arg4
  // CHECK-NEXT: %[[IN:.*]] = arith.andi %[[KIN]], %[[TILEIN]]
  // CHECK: tessera_gpu.async_tensor_load %arg0[%[[ROW]], %[[COL]]], %{{.*}}, %{{.*}} if %[[IN]]
  // CHECK: tessera_gpu.async_tensor_load %arg1[%[[COL]], %[[TILE]]], %{{.*}}, %{{.*}} if %[[IN]]
  // CHECK: scf.if
  // CHECK-NEXT: arith.divsi
  // CHECK: tessera.dot
  // CHECK: scf.yield
  // CHECK-NEXT: }
  // CHECK-NEXT: tessera.store
  // CHECK-NEXT: scf.yield
  // CHECK-NEXT: } {tessera.flatten}
  // CHECK-NEXT: tessera_gpu.barrier
  // CHECK-COUNT-3: tessera_gpu.inval_barrier
  // CHECK-NEXT: return
  func.func @flattened(%ma: !tessera_gpu.tensor_map, %mb: !tessera_gpu.tensor_map, %start: i32, %tiles: i32, %n: i32, %group: i32, %out: tensor<64x64x!tessera.ptr<f32>, #acc>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c64 = arith.constant 64 : i32
    %c132 = arith.constant 132 : i32
    %zero = arith.constant dense<0.0> : tensor<64x64xf32, #acc>
    %bufa = tessera_gpu.local_alloc : () -> !tessera_gpu.memdesc<64x64xf16, #sw, mutable>
    %bara = tessera_gpu.local_alloc : () -> !tessera_gpu.memdesc<1xi64, #word, mutable>
    tessera_gpu.init_barrier %bara {count = 128 : i32} : !tessera_gpu.memdesc<1xi64, #word, mutable>
    %bufb = tessera_gpu.local_alloc : () -> !tessera_gpu.memdesc<64x64xf16, #sw, mutable>
    %barb = tessera_gpu.local_alloc : () -> !tessera_gpu.memdesc<1xi64, #word, mutable>
    tessera_gpu.init_barrier %barb {count = 128 : i32} : !tessera_gpu.memdesc<1xi64, #word, mutable>
    tessera_gpu.barrier
    scf.for %tile = %start to %tiles step %c132 : i32 {
      %g = arith.divsi %tile, %group : i32
      %row = arith.muli %g, %c64 : i32
      %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<64x64xf32, #acc>) : i32 {
        %k = arith.muli %i, %c64 : i32
        tessera_gpu.barrier
        %ta = tessera_gpu.async_tensor_load %ma[%row, %k], %bufa, %bara : !tessera_gpu.memdesc<64x64xf16, #sw, mutable>, !tessera_gpu.memdesc<1xi64, #word, mutable> -> i64
        tessera_gpu.wait_barrier %bara, %ta : !tessera_gpu.memdesc<1xi64, #word, mutable>, i64
        tessera_gpu.barrier
        %tb = tessera_gpu.async_tensor_load %mb[%k, %tile], %bufb, %barb : !tessera_gpu.memdesc<64x64xf16, #sw, mutable>, !tessera_gpu.memdesc<1xi64, #word, mutable> -> i64
        tessera_gpu.wait_barrier %barb, %tb : !tessera_gpu.memdesc<1xi64, #word, mutable>, i64
        %a = tessera_gpu.local_load %bufa : !tessera_gpu.memdesc<64x64xf16, #sw, mutable> -> tensor<64x64xf16, #opa>
        %b = tessera_gpu.local_load %bufb : !tessera_gpu.memdesc<64x64xf16, #sw, mutable> -> tensor<64x64xf16, #opb>
        %d = tessera.dot %a, %b, %acc : tensor<64x64xf16, #opa> * tensor<64x64xf16, #opb> -> tensor<64x64xf32, #acc>
        scf.yield %d : tensor<64x64xf32, #acc>
      }
      tessera.store %out, %r : tensor<64x64x!tessera.ptr<f32>, #acc>
    } {tessera.flatten}
    return
  }

  // Flattened tile loops whose next tile's copies are not known ahead keep
  // rings per run of the K loop: a K loop whose bound the tile computes,
  // and copies whose row the tile loop carries.
  // CHECK-LABEL: func.func @bound_per_tile
  // CHECK: scf.for
  // CHECK-COUNT-3: tessera_gpu.init_barrier
  // CHECK: scf.for {{.*}} -> (tensor<64x64xf32, #{{.*}}>, i32, i32, i32)
  // CHECK-COUNT-3: tessera_gpu.inval_barrier
  // CHECK: } {tessera.flatten}
  // CHECK-LABEL: func.func @carried_row
  // CHECK: scf.for
  // CHECK-COUNT-3: tessera_gpu.init_barrier
  // CHECK: scf.for {{.*}} -> (tensor<64x64xf32, #{{.*}}>, i32, i32, i32)
  // CHECK-COUNT-3: tessera_gpu.inval_barrier
  // CHECK: } {tessera.flatten}
  func.func @bound_per_tile(%ma: !tessera_gpu.tensor_map, %tiles: i32, %n: i32, %b: tensor<64x64xf16, #opb>, %out: tensor<64x64x!tessera.ptr<f32>, #acc>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c64 = arith.constant 64 : i32
    %zero = arith.constant dense<0.0> : tensor<64x64xf32, #acc>
    %bufa = tessera_gpu.local_alloc : () -> !tessera_gpu.memdesc<64x64xf16, #sw, mutable>
    %bara = tessera_gpu.local_alloc : () -> !tessera_gpu.memdesc<1xi64, #word, mutable>
    tessera_gpu.init_barrier %bara {count = 128 : i32} : !tessera_gpu.memdesc<1xi64, #word, mutable>
    tessera_gpu.barrier
    scf.for %tile = %c0 to %tiles step %c1 : i32 {
      %row = arith.muli %tile, %c64 : i32
      %kn = arith.addi %n, %tile : i32
      %r = scf.for %i = %c0 to %kn step %c1 iter_args(%acc = %zero) -> (tensor<64x64xf32, #acc>) : i32 {
        %k = arith.muli %i, %c64 : i32
        tessera_gpu.barrier
        %ta = tessera_gpu.async_tensor_load %ma[%row, %k], %bufa, %bara : !tessera_gpu.memdesc<64x64xf16, #sw, mutable>, !tessera_gpu.memdesc<1xi64, #word, mutable> -> i64
        tessera_gpu.wait_barrier %bara, %ta : !tessera_gpu.memdesc<1xi64, #word, mutable>, i64
        %a = tessera_gpu.local_load %bufa : !tessera_gpu.memdesc<64x64xf16, #sw, mutable> -> tensor<64x64xf16, #opa>
        %d = tessera.dot %a, %b, %acc : tensor<64x64xf16, #opa> * tensor<64x64xf16, #opb> -> tensor<64x64xf32, #acc>
        scf.yield %d : tensor<64x64xf32, #acc>
      }
      tessera.store %out, %r : tensor<64x64x!tessera.ptr<f32>, #acc>
    } {tessera.flatten}
    return
  }

  func.func @carried_row(%ma: !tessera_gpu.tensor_map, %tiles: i32, %n: i32, %b: tensor<64x64xf16, #opb>, %out: tensor<64x64x!tessera.ptr<f32>, #acc>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c64 = arith.constant 64 : i32
    %zero = arith.constant dense<0.0> : tensor<64x64xf32, #acc>
    %bufa = tessera_gpu.local_alloc : () -> !tessera_gpu.memdesc<64x64xf16, #sw, mutable>
    %bara = tessera_gpu.local_alloc : () -> !tessera_gpu.memdesc<1xi64, #word, mutable>
    tessera_gpu.init_barrier %bara {count = 128 : i32} : !tessera_gpu.memdesc<1xi64, #word, mutable>
    tessera_gpu.barrier
    %last = scf.for %tile = %c0 to %tiles step %c1 iter_args(%row = %c0) -> (i32) : i32 {
      %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<64x64xf32, #acc>) : i32 {
        %k = arith.muli %i, %c64 : i32
        tessera_gpu.barrier
        %ta = tessera_gpu.async_tensor_load %ma[%row, %k], %bufa, %bara : !tessera_gpu.memdesc<64x64xf16, #sw, mutable>, !tessera_gpu.memdesc<1xi64, #word, mutable> -> i64
        tessera_gpu.wait_barrier %bara, %ta : !tessera_gpu.memdesc<1xi64, #word, mutable>, i64
        %a = tessera_gpu.local_load %bufa : !tessera_gpu.memdesc<64x64xf16, #sw, mutable> -> tensor<64x64xf16, #opa>
        %d = tessera.dot %a, %b, %acc : tensor<64x64xf16, #opa> * tensor<64x64xf16, #opb> -> tensor<64x64xf32, #acc>
        scf.yield %d : tensor<64x64xf32, #acc>
      }
      tessera.store %out, %r : tensor<64x64x!tessera.ptr<f32>, #acc>
      %next = arith.addi %row, %c64 : i32
      scf.yield %next : i32
    } {tessera.flatten}
    return
  }
}
