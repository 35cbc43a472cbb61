// RUN: tessera-opt %s --split-input-file --tessera-pipeline-loads="num-stages=3" --canonicalize | FileCheck %s
// RUN: tessera-opt %s --split-input-file --tessera-pipeline-loads="num-stages=3 shared-memory=4096" --canonicalize | FileCheck %s --check-prefix=SMALL
// RUN: tessera-opt %s --split-input-file --tessera-pipeline-loads="num-stages=3 shared-memory=24576" --canonicalize | FileCheck %s --check-prefix=FIT
// RUN: tessera-opt %s --split-input-file --tessera-pipeline-loads="num-stages=3 shared-memory=24576 reserved-shared-memory=8192" --canonicalize | FileCheck %s --check-prefix=RESERVED
// RUN: tessera-opt %s --split-input-file --tessera-pipeline-loads="num-stages=3 dots-in-flight=1" --canonicalize | FileCheck %s --check-prefix=INFLIGHT
// RUN: tessera-opt %s --split-input-file --tessera-pipeline-loads="num-stages=3 dots-in-flight=1 shared-memory=24576" --canonicalize | FileCheck %s --check-prefix=INFLIGHT-FIT
// RUN: tessera-opt %s --split-input-file --tessera-pipeline-loads="num-stages=3 dots-in-flight=1 shared-memory=20000" --canonicalize | FileCheck %s --check-prefix=INFLIGHT-NONE

// A K loop of a matmul: the A and B tiles (masked at the K edge, pointers
// advanced by a constant) are copied two iterations ahead into rings of
// three swizzled buffers. Before the loop: iterations 0 and 1, one commit
// group each, masked off past the end. Each iteration waits until one group
// is pending, synchronizes, reads its slot in the dots' layouts, computes,
// then starts iteration i + 2 (mask from i + 2, pointers carried two
// iterations ahead) into the slot of i - 1. The original pointers are gone; the copies are
// drained after the loop.
// With 4 KiB of shared memory not even two stages fit: the loop stays.
// With 24 KiB three stages fit (8 KiB each; the rings' reads replace the
// layout conversions, so no scratch is counted); 8 KiB that later stages
// will add leave room for two.
// A target whose dots may run one iteration behind (dots-in-flight=1) gets
// a fourth slot for the dot that carries the accumulator: the copy of
// iteration i + 2 then takes the slot of iteration i - 2, whose dot every
// thread waited for before the barrier of iteration i, and the loop says
// so (tessera_gpu.dots_in_flight). In 24 KiB three slots fit: two stages
// and the spare one; in 20000 bytes only two, so the spare slot goes and
// the loop keeps two stages.
#ld = #tessera_gpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
#acc = #tessera_gpu.blocked<sizePerThread = [4, 4], threadsPerWarp = [8, 4], warpsPerCTA = [2, 2], order = [1, 0]>
#opa = #tessera_gpu.dot_op<opIdx = 0, parent = #acc>
#opb = #tessera_gpu.dot_op<opIdx = 1, parent = #acc>
#row = #tessera_gpu.slice<dim = 0, parent = #ld>
#col = #tessera_gpu.slice<dim = 1, parent = #ld>
// CHECK-DAG: #[[SA:.*]] = #tessera_gpu.shared<vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]>
// CHECK-DAG: #[[SB:.*]] = #tessera_gpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]>
module attributes {tessera_gpu.num_ctas = 1 : i32, tessera_gpu.num_warps = 4 : i32, tessera_gpu.target = "test", tessera_gpu.threads_per_warp = 32 : i32} {
  // CHECK-LABEL: func.func @matmul_loop
  // CHECK-DAG: %[[C0:.*]] = arith.constant 0 : i32
  // CHECK-DAG: %[[C1:.*]] = arith.constant 1 : i32
  // CHECK-DAG: %[[C2:.*]] = arith.constant 2 : i32
  // CHECK: %[[BA:.*]] = tessera_gpu.local_alloc : () -> !tessera_gpu.memdesc<3x64x32xf16, #[[SA]], mutable>
  // CHECK: %[[BB:.*]] = tessera_gpu.local_alloc : () -> !tessera_gpu.memdesc<3x32x64xf16, #[[SB]], mutable>
  // Iteration 0 from the initial pointers; iteration 1 from pointers
  // advanced once (32 and 2048 elements); the loop starts from pointers
  // advanced twice.
  // CHECK-DAG: %[[AP1:.*]] = tessera.addptr %[[A:.*]], %[[STEPA:.*]] : tensor<64x32x!tessera.ptr<f16>
  // CHECK-DAG: %[[BP1:.*]] = tessera.addptr %[[B:.*]], %[[STEPB:.*]] : tensor<32x64x!tessera.ptr<f16>
  // CHECK: %[[IN0:.*]] = arith.cmpi sgt, %[[N:.*]], %[[C0]] : i32
  // CHECK: %[[A0:.*]] = tessera_gpu.memdesc_index %[[BA]][%[[C0]]]
  // CHECK: tessera_gpu.async_copy_global_to_local %[[A]], %[[A0]] mask
  // CHECK: %[[B0:.*]] = tessera_gpu.memdesc_index %[[BB]][%[[C0]]]
  // CHECK: tessera_gpu.async_copy_global_to_local %[[B]], %[[B0]] mask
  // CHECK: tessera_gpu.async_commit_group
  // CHECK: %[[AP2:.*]] = tessera.addptr %[[A]]
  // CHECK: %[[BP2:.*]] = tessera.addptr %[[B]]
  // CHECK: arith.cmpi sgt, %[[N]], %[[C1]] : i32
  // CHECK: %[[A1:.*]] = tessera_gpu.memdesc_index %[[BA]][%[[C1]]]
  // CHECK: tessera_gpu.async_copy_global_to_local %[[AP1]], %[[A1]] mask
  // CHECK: tessera_gpu.async_copy_global_to_local %[[BP1]], %{{.*}} mask
  // CHECK: tessera_gpu.async_commit_group
  // CHECK: %[[RES:.*]]:5 = scf.for %[[I:.*]] = %[[C0]] to %[[N]] step %[[C1]] iter_args(%[[ACC:.*]] = %{{.*}}, %[[AP:.*]] = %[[AP2]], %[[BP:.*]] = %[[BP2]], %[[READ:.*]] = %[[C0]], %[[WRITE:.*]] = %[[C2]])
  // CHECK-NEXT: tessera_gpu.async_wait {num = 1 : i32}
  // CHECK-NEXT: tessera_gpu.barrier
  // CHECK: %[[RA:.*]] = tessera_gpu.memdesc_index %[[BA]][%[[READ]]]
  // CHECK: %[[OPA:.*]] = tessera_gpu.local_load %[[RA]] : !tessera_gpu.memdesc<64x32xf16, #[[SA]], mutable> -> tensor<64x32xf16, #{{.*}}>
  // CHECK: %[[RB:.*]] = tessera_gpu.memdesc_index %[[BB]][%[[READ]]]
  // CHECK: %[[OPB:.*]] = tessera_gpu.local_load %[[RB]]
  // CHECK: %[[DOT:.*]] = tessera.dot %[[OPA]], %[[OPB]], %[[ACC]]
  // CHECK: %[[AHEAD:.*]] = arith.addi %[[I]], %[[C2]] : i32
  // CHECK: tessera.addptr %[[AP]], %[[STEPA]]
  // CHECK: tessera.addptr %[[BP]], %[[STEPB]]
  // CHECK: arith.cmpi slt, %[[AHEAD]], %[[N]] : i32
  // CHECK: %[[WA:.*]] = tessera_gpu.memdesc_index %[[BA]][%[[WRITE]]]
  // CHECK: tessera_gpu.async_copy_global_to_local %[[AP]], %[[WA]] mask
  // CHECK: tessera_gpu.async_copy_global_to_local %[[BP]], %{{.*}} mask
  // CHECK: tessera_gpu.async_commit_group
  // CHECK-NOT: tessera.load
  // CHECK: scf.yield %[[DOT]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} :
  // CHECK: tessera_gpu.async_wait {num = 0 : i32}
  // CHECK: tessera_gpu.local_dealloc %[[BA]]
  // CHECK: tessera_gpu.local_dealloc %[[BB]]
  // CHECK: return %[[RES]]#0

  // FIT-LABEL: func.func @matmul_loop
  // FIT: tessera_gpu.local_alloc : () -> !tessera_gpu.memdesc<3x64x32xf16
  // RESERVED-LABEL: func.func @matmul_loop
  // RESERVED: tessera_gpu.local_alloc : () -> !tessera_gpu.memdesc<2x64x32xf16
  // SMALL-LABEL: func.func @matmul_loop
  // SMALL-NOT: tessera_gpu.local_alloc
  // SMALL: tessera.load
  // INFLIGHT-LABEL: func.func @matmul_loop
  // INFLIGHT-DAG: %[[C2:.*]] = arith.constant 2 : i32
  // INFLIGHT-DAG: %[[C4:.*]] = arith.constant 4 : i32
  // INFLIGHT: %[[BA:.*]] = tessera_gpu.local_alloc : () -> !tessera_gpu.memdesc<4x64x32xf16
  // INFLIGHT: tessera_gpu.local_alloc : () -> !tessera_gpu.memdesc<4x32x64xf16
  // INFLIGHT: scf.for {{.*}} iter_args({{.*}}, %[[READ:.*]] = %{{.*}}, %[[WRITE:.*]] = %[[C2]])
  // INFLIGHT-NEXT: tessera_gpu.async_wait {num = 1 : i32}
  // INFLIGHT: tessera_gpu.memdesc_index %[[BA]][%[[WRITE]]]
  // INFLIGHT: %[[NEXTREAD:.*]] = arith.addi %[[READ]]
  // INFLIGHT-NEXT: %[[WRAP:.*]] = arith.cmpi eq, %[[NEXTREAD]], %[[C4]]
  // INFLIGHT: } {tessera_gpu.dots_in_flight = 1 : i32}
  // INFLIGHT-FIT-LABEL: func.func @matmul_loop
  // INFLIGHT-FIT: tessera_gpu.local_alloc : () -> !tessera_gpu.memdesc<3x64x32xf16
  // INFLIGHT-FIT: tessera_gpu.async_wait {num = 0 : i32}
  // INFLIGHT-FIT: } {tessera_gpu.dots_in_flight = 1 : i32}
  // INFLIGHT-NONE-LABEL: func.func @matmul_loop
  // INFLIGHT-NONE: tessera_gpu.local_alloc : () -> !tessera_gpu.memdesc<2x64x32xf16
  // INFLIGHT-NONE-NOT: dots_in_flight
  // INFLIGHT-NONE: return
  func.func @matmul_loop(%a: tensor<64x32x!tessera.ptr<f16>, #ld>, %b: tensor<32x64x!tessera.ptr<f16>, #ld>, %n: i32, %k: i32) -> tensor<64x64xf32, #acc> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c32 = arith.constant 32 : i32
    %zero = arith.constant dense<0.0> : tensor<64x64xf32, #acc>
    %zh = arith.constant dense<0.0> : tensor<64x32xf16, #ld>
    %step_a = arith.constant dense<32> : tensor<64x32xi32, #ld>
    %step_b = arith.constant dense<2048> : tensor<32x64xi32, #ld>
    %ks = tessera.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #row>
    %ks2 = tessera.expand_dims %ks {axis = 0 : i32} : tensor<32xi32, #row> -> tensor<1x32xi32, #ld>
    %res:3 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero, %ap = %a, %bp = %b) -> (tensor<64x64xf32, #acc>, tensor<64x32x!tessera.ptr<f16>, #ld>, tensor<32x64x!tessera.ptr<f16>, #ld>) : i32 {
      %done = arith.muli %i, %c32 : i32
      %left = arith.subi %k, %done : i32
      %lefts = tessera.splat %left : tensor<1x32xi32, #ld>
      %m1 = arith.cmpi slt, %ks2, %lefts : tensor<1x32xi32, #ld>
      %mask = tessera.broadcast %m1 : tensor<1x32xi1, #ld> -> tensor<64x32xi1, #ld>
      %av = tessera.load %ap, %mask, %zh : tensor<64x32x!tessera.ptr<f16>, #ld>
      %ao = tessera_gpu.convert_layout %av : tensor<64x32xf16, #ld> -> tensor<64x32xf16, #opa>
      %bv = tessera.load %bp : tensor<32x64x!tessera.ptr<f16>, #ld>
      %bo = tessera_gpu.convert_layout %bv : tensor<32x64xf16, #ld> -> tensor<32x64xf16, #opb>
      %d = tessera.dot %ao, %bo, %acc : tensor<64x32xf16, #opa> * tensor<32x64xf16, #opb> -> tensor<64x64xf32, #acc>
      %an = tessera.addptr %ap, %step_a : tensor<64x32x!tessera.ptr<f16>, #ld>, tensor<64x32xi32, #ld>
      %bn = tessera.addptr %bp, %step_b : tensor<32x64x!tessera.ptr<f16>, #ld>, tensor<32x64xi32, #ld>
      scf.yield %d, %an, %bn : tensor<64x64xf32, #acc>, tensor<64x32x!tessera.ptr<f16>, #ld>, tensor<32x64x!tessera.ptr<f16>, #ld>
    }
    return %res#0 : tensor<64x64xf32, #acc>
  }
}

// -----

// Loops the pass leaves alone: one that stores (a copy started early could
// read what an earlier iteration writes), one asking for a single stage,
// and one whose next pointer depends on a loaded value.
#ld = #tessera_gpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
#acc = #tessera_gpu.blocked<sizePerThread = [4, 4], threadsPerWarp = [8, 4], warpsPerCTA = [2, 2], order = [1, 0]>
#opa = #tessera_gpu.dot_op<opIdx = 0, parent = #acc>
#opb = #tessera_gpu.dot_op<opIdx = 1, parent = #acc>
module attributes {tessera_gpu.num_ctas = 1 : i32, tessera_gpu.num_warps = 4 : i32, tessera_gpu.target = "test", tessera_gpu.threads_per_warp = 32 : i32} {
  // CHECK-LABEL: func.func @stores
  // CHECK-NOT: tessera_gpu.async_copy_global_to_local
  // CHECK: tessera.load
  // CHECK: tessera.store
  func.func @stores(%a: tensor<64x32x!tessera.ptr<f16>, #ld>, %b: tensor<32x64x!tessera.ptr<f16>, #ld>, %n: i32) -> tensor<64x64xf32, #acc> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.0> : tensor<64x64xf32, #acc>
    %ones = arith.constant dense<1.0> : tensor<64x32xf16, #ld>
    %res = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<64x64xf32, #acc>) : i32 {
      %av = tessera.load %a : tensor<64x32x!tessera.ptr<f16>, #ld>
      %ao = tessera_gpu.convert_layout %av : tensor<64x32xf16, #ld> -> tensor<64x32xf16, #opa>
      %bv = tessera.load %b : tensor<32x64x!tessera.ptr<f16>, #ld>
      %bo = tessera_gpu.convert_layout %bv : tensor<32x64xf16, #ld> -> tensor<32x64xf16, #opb>
      %d = tessera.dot %ao, %bo, %acc : tensor<64x32xf16, #opa> * tensor<32x64xf16, #opb> -> tensor<64x64xf32, #acc>
      tessera.store %a, %ones : tensor<64x32x!tessera.ptr<f16>, #ld>
      scf.yield %d : tensor<64x64xf32, #acc>
    }
    return %res : tensor<64x64xf32, #acc>
  }

  // CHECK-LABEL: func.func @one_stage
  // CHECK-NOT: tessera_gpu.async_copy_global_to_local
  // CHECK: tessera.load
  func.func @one_stage(%a: tensor<64x32x!tessera.ptr<f16>, #ld>, %b: tensor<32x64x!tessera.ptr<f16>, #ld>, %n: i32) -> tensor<64x64xf32, #acc> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.0> : tensor<64x64xf32, #acc>
    %res = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<64x64xf32, #acc>) : i32 {
      %av = tessera.load %a : tensor<64x32x!tessera.ptr<f16>, #ld>
      %ao = tessera_gpu.convert_layout %av : tensor<64x32xf16, #ld> -> tensor<64x32xf16, #opa>
      %bv = tessera.load %b : tensor<32x64x!tessera.ptr<f16>, #ld>
      %bo = tessera_gpu.convert_layout %bv : tensor<32x64xf16, #ld> -> tensor<32x64xf16, #opb>
      %d = tessera.dot %ao, %bo, %acc : tensor<64x32xf16, #opa> * tensor<32x64xf16, #opb> -> tensor<64x64xf32, #acc>
      scf.yield %d : tensor<64x64xf32, #acc>
    } {tessera.num_stages = 1 : i32}
    return %res : tensor<64x64xf32, #acc>
  }

  // CHECK-LABEL: func.func @indirect
  // CHECK-NOT: tessera_gpu.async_copy_global_to_local
  // CHECK: tessera.load
  func.func @indirect(%a: tensor<64x32x!tessera.ptr<f16>, #ld>, %b: tensor<32x64x!tessera.ptr<f16>, #ld>, %offs: tensor<64x32x!tessera.ptr<i32>, #ld>, %n: i32) -> tensor<64x64xf32, #acc> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.0> : tensor<64x64xf32, #acc>
    %res:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero, %ap = %a) -> (tensor<64x64xf32, #acc>, tensor<64x32x!tessera.ptr<f16>, #ld>) : i32 {
      %av = tessera.load %ap : tensor<64x32x!tessera.ptr<f16>, #ld>
      %ao = tessera_gpu.convert_layout %av : tensor<64x32xf16, #ld> -> tensor<64x32xf16, #opa>
      %bv = tessera.load %b : tensor<32x64x!tessera.ptr<f16>, #ld>
      %bo = tessera_gpu.convert_layout %bv : tensor<32x64xf16, #ld> -> tensor<32x64xf16, #opb>
      %d = tessera.dot %ao, %bo, %acc : tensor<64x32xf16, #opa> * tensor<32x64xf16, #opb> -> tensor<64x64xf32, #acc>
      %step = tessera.load %offs : tensor<64x32x!tessera.ptr<i32>, #ld>
      %an = tessera.addptr %ap, %step : tensor<64x32x!tessera.ptr<f16>, #ld>, tensor<64x32xi32, #ld>
      scf.yield %d, %an : tensor<64x64xf32, #acc>, tensor<64x32x!tessera.ptr<f16>, #ld>
    }
    return %res#0 : tensor<64x64xf32, #acc>
  }
}

// -----

// A tile whose threads run down the columns (a K-major B, contiguous along
// dimension 0) gets a column-major ring (order [0, 1]: the row-major
// layout of its transpose), so that its copies stay contiguous on both
// sides.
#ldt = #tessera_gpu.blocked<sizePerThread = [8, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]>
#ld = #tessera_gpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
#acc = #tessera_gpu.blocked<sizePerThread = [4, 4], threadsPerWarp = [8, 4], warpsPerCTA = [2, 2], order = [1, 0]>
#opa = #tessera_gpu.dot_op<opIdx = 0, parent = #acc>
#opb = #tessera_gpu.dot_op<opIdx = 1, parent = #acc>
module attributes {tessera_gpu.num_ctas = 1 : i32, tessera_gpu.num_warps = 4 : i32, tessera_gpu.target = "test", tessera_gpu.threads_per_warp = 32 : i32} {
  // CHECK-DAG: #[[COLS:.*]] = #tessera_gpu.shared<vec = 8, perPhase = 2, maxPhase = 4, order = [0, 1]>
  // CHECK-LABEL: func.func @column_major
  // CHECK: tessera_gpu.local_alloc : () -> !tessera_gpu.memdesc<3x64x32xf16
  // CHECK: tessera_gpu.local_alloc : () -> !tessera_gpu.memdesc<3x32x64xf16, #[[COLS]], mutable>
  // CHECK: tessera_gpu.async_copy_global_to_local {{.*}} -> !tessera_gpu.memdesc<32x64xf16, #[[COLS]], mutable>
  // CHECK: scf.for
  // CHECK-NOT: tessera.load
  // CHECK: tessera_gpu.local_load {{.*}} !tessera_gpu.memdesc<32x64xf16, #[[COLS]], mutable> -> tensor<32x64xf16, #{{.*}}>
  func.func @column_major(%a: tensor<64x32x!tessera.ptr<f16>, #ld>, %b: tensor<32x64x!tessera.ptr<f16>, #ldt>, %n: i32) -> tensor<64x64xf32, #acc> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.0> : tensor<64x64xf32, #acc>
    %res = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<64x64xf32, #acc>) : i32 {
      %av = tessera.load %a : tensor<64x32x!tessera.ptr<f16>, #ld>
      %ao = tessera_gpu.convert_layout %av : tensor<64x32xf16, #ld> -> tensor<64x32xf16, #opa>
      %bv = tessera.load %b : tensor<32x64x!tessera.ptr<f16>, #ldt>
      %bo = tessera_gpu.convert_layout %bv : tensor<32x64xf16, #ldt> -> tensor<32x64xf16, #opb>
      %d = tessera.dot %ao, %bo, %acc : tensor<64x32xf16, #opa> * tensor<32x64xf16, #opb> -> tensor<64x64xf32, #acc>
      scf.yield %d : tensor<64x64xf32, #acc>
    }
    return %res : tensor<64x64xf32, #acc>
  }
}

// -----

// Rows longer than 128 bytes (B of 32 x 128 fp16: 256 bytes) are stored in
// blocks of 64 columns, each a 128-byte-row swizzled tile: the pattern
// matrix units with shared-memory descriptors read.
#ld = #tessera_gpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
#acc = #tessera_gpu.blocked<sizePerThread = [4, 4], threadsPerWarp = [8, 4], warpsPerCTA = [2, 2], order = [1, 0]>
#opa = #tessera_gpu.dot_op<opIdx = 0, parent = #acc>
#opb = #tessera_gpu.dot_op<opIdx = 1, parent = #acc>
module attributes {tessera_gpu.num_ctas = 1 : i32, tessera_gpu.num_warps = 4 : i32, tessera_gpu.target = "test", tessera_gpu.threads_per_warp = 32 : i32} {
  // CHECK-DAG: #[[WIDE:.*]] = #tessera_gpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], blockCols = 64>
  // CHECK-LABEL: func.func @wide_rows
  // CHECK: tessera_gpu.local_alloc : () -> !tessera_gpu.memdesc<3x32x128xf16, #[[WIDE]], mutable>
  func.func @wide_rows(%a: tensor<64x32x!tessera.ptr<f16>, #ld>, %b: tensor<32x128x!tessera.ptr<f16>, #ld>, %n: i32) -> tensor<64x128xf32, #acc> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.0> : tensor<64x128xf32, #acc>
    %res = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<64x128xf32, #acc>) : i32 {
      %av = tessera.load %a : tensor<64x32x!tessera.ptr<f16>, #ld>
      %ao = tessera_gpu.convert_layout %av : tensor<64x32xf16, #ld> -> tensor<64x32xf16, #opa>
      %bv = tessera.load %b : tensor<32x128x!tessera.ptr<f16>, #ld>
      %bo = tessera_gpu.convert_layout %bv : tensor<32x128xf16, #ld> -> tensor<32x128xf16, #opb>
      %d = tessera.dot %ao, %bo, %acc : tensor<64x32xf16, #opa> * tensor<32x128xf16, #opb> -> tensor<64x128xf32, #acc>
      scf.yield %d : tensor<64x128xf32, #acc>
    }
    return %res : tensor<64x128xf32, #acc>
  }
}

// -----

// A dot whose accumulator the loop changes before it (scaled each
// iteration) cannot run behind its iteration: with dots-in-flight=1 its
// rings keep three slots and the loop gets no dots_in_flight.
#ld = #tessera_gpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
#acc = #tessera_gpu.blocked<sizePerThread = [4, 4], threadsPerWarp = [8, 4], warpsPerCTA = [2, 2], order = [1, 0]>
#opa = #tessera_gpu.dot_op<opIdx = 0, parent = #acc>
#opb = #tessera_gpu.dot_op<opIdx = 1, parent = #acc>
module attributes {tessera_gpu.num_ctas = 1 : i32, tessera_gpu.num_warps = 4 : i32, tessera_gpu.target = "test", tessera_gpu.threads_per_warp = 32 : i32} {
  // INFLIGHT-LABEL: func.func @scaled_accumulator
  // INFLIGHT: tessera_gpu.local_alloc : () -> !tessera_gpu.memdesc<3x64x32xf16
  // INFLIGHT-NOT: dots_in_flight
  // INFLIGHT: return
  func.func @scaled_accumulator(%a: tensor<64x32x!tessera.ptr<f16>, #ld>, %b: tensor<32x64x!tessera.ptr<f16>, #ld>, %n: i32) -> tensor<64x64xf32, #acc> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.0> : tensor<64x64xf32, #acc>
    %half = arith.constant dense<0.5> : tensor<64x64xf32, #acc>
    %res = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<64x64xf32, #acc>) : i32 {
      %av = tessera.load %a : tensor<64x32x!tessera.ptr<f16>, #ld>
      %ao = tessera_gpu.convert_layout %av : tensor<64x32xf16, #ld> -> tensor<64x32xf16, #opa>
      %bv = tessera.load %b : tensor<32x64x!tessera.ptr<f16>, #ld>
      %bo = tessera_gpu.convert_layout %bv : tensor<32x64xf16, #ld> -> tensor<32x64xf16, #opb>
      %scaled = arith.mulf %acc, %half : tensor<64x64xf32, #acc>
      %d = tessera.dot %ao, %bo, %scaled : tensor<64x32xf16, #opa> * tensor<32x64xf16, #opb> -> tensor<64x64xf32, #acc>
      scf.yield %d : tensor<64x64xf32, #acc>
    }
    return %res : tensor<64x64xf32, #acc>
  }
}
