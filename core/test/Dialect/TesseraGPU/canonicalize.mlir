// RUN: tessera-opt %s --canonicalize --split-input-file | FileCheck %s
// Folders and canonical forms of tessera_gpu ops.

#a = #tessera_gpu.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
#b = #tessera_gpu.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
#c = #tessera_gpu.blocked<sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>

// CHECK-LABEL: func @identity
func.func @identity(%x: tensor<512xf32, #a>) -> tensor<512xf32, #a> {
  // CHECK-NEXT: return %arg0
  %0 = tessera_gpu.convert_layout %x : tensor<512xf32, #a> -> tensor<512xf32, #a>
  return %0 : tensor<512xf32, #a>
}

// CHECK-LABEL: func @chain
func.func @chain(%x: tensor<512xf32, #a>) -> tensor<512xf32, #c> {
  // CHECK-NEXT: %[[C:.*]] = tessera_gpu.convert_layout %arg0 : tensor<512xf32, #{{.*}}> -> tensor<512xf32, #[[C2:.*]]>
  // CHECK-NEXT: return %[[C]]
  %0 = tessera_gpu.convert_layout %x : tensor<512xf32, #a> -> tensor<512xf32, #b>
  %1 = tessera_gpu.convert_layout %0 : tensor<512xf32, #b> -> tensor<512xf32, #c>
  return %1 : tensor<512xf32, #c>
}

// CHECK-LABEL: func @round_trip
func.func @round_trip(%x: tensor<512xf32, #a>) -> tensor<512xf32, #a> {
  // CHECK-NEXT: return %arg0
  %0 = tessera_gpu.convert_layout %x : tensor<512xf32, #a> -> tensor<512xf32, #b>
  %1 = tessera_gpu.convert_layout %0 : tensor<512xf32, #b> -> tensor<512xf32, #a>
  return %1 : tensor<512xf32, #a>
}

// CHECK-LABEL: func @splat_and_range
func.func @splat_and_range(%s: f32) -> (tensor<512xf32, #b>, tensor<512xi32, #b>, tensor<512xf32, #b>) {
  // CHECK-DAG: %[[CST:.*]] = arith.constant dense<1.000000e+00> : tensor<512xf32, #[[B:.*]]>
  // CHECK-DAG: %[[S:.*]] = tessera.splat %arg0 : tensor<512xf32, #[[B]]>
  // CHECK-DAG: %[[R:.*]] = tessera.make_range {{.*}} : tensor<512xi32, #[[B]]>
  // CHECK-NOT: tessera_gpu.convert_layout
  // CHECK: return %[[S]], %[[R]], %[[CST]]
  %0 = tessera.splat %s : tensor<512xf32, #a>
  %1 = tessera_gpu.convert_layout %0 : tensor<512xf32, #a> -> tensor<512xf32, #b>
  %2 = tessera.make_range {start = 0 : i32, end = 512 : i32} : tensor<512xi32, #a>
  %3 = tessera_gpu.convert_layout %2 : tensor<512xi32, #a> -> tensor<512xi32, #b>
  %cst = arith.constant dense<1.0> : tensor<512xf32, #a>
  %4 = tessera_gpu.convert_layout %cst : tensor<512xf32, #a> -> tensor<512xf32, #b>
  return %1, %3, %4 : tensor<512xf32, #b>, tensor<512xi32, #b>, tensor<512xf32, #b>
}

// -----

// A block barrier orders memory accesses: one with none before it since the
// kernel's start (allocations access nothing) or since the previous
// barrier folds away; one after a store, an allocation filled from
// registers, at the start of a loop body (the previous iteration is before
// it) or at the start of a function that is not a kernel (its caller's
// accesses are) stays.
#ld = #tessera_gpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
#sw = #tessera_gpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]>
#word = #tessera_gpu.shared<vec = 1, perPhase = 1, maxPhase = 1, order = [0]>
module attributes {tessera_gpu.num_ctas = 1 : i32, tessera_gpu.num_warps = 4 : i32, tessera_gpu.threads_per_warp = 32 : i32} {
  // CHECK-LABEL: func.func @barriers
  // CHECK-COUNT-2: arith.constant
  // CHECK-NEXT: %[[BUF:.*]] = tessera_gpu.local_alloc : ()
  // CHECK-NEXT: %[[BAR:.*]] = tessera_gpu.local_alloc : ()
  // CHECK-NEXT: tessera_gpu.init_barrier %[[BAR]]
  // CHECK-NEXT: tessera_gpu.barrier
  // CHECK-NEXT: tessera_gpu.local_store %arg0, %[[BUF]]
  // CHECK-NEXT: tessera_gpu.barrier
  // CHECK-NEXT: %[[FILLED:.*]] = tessera_gpu.local_alloc %arg0
  // CHECK-NEXT: tessera_gpu.barrier
  // CHECK-NEXT: scf.for
  // CHECK-NEXT: tessera_gpu.barrier
  // CHECK-NEXT: tessera_gpu.local_load %[[FILLED]]
  // CHECK: return
  func.func @barriers(%x: tensor<64x64xf16, #ld>, %n: i32) -> tensor<64x64xf16, #ld> attributes {tessera.kernel} {
    tessera_gpu.barrier
    %c0 = arith.constant 0 : i32
    %buf = tessera_gpu.local_alloc : () -> !tessera_gpu.memdesc<64x64xf16, #sw, mutable>
    tessera_gpu.barrier
    %bar = tessera_gpu.local_alloc : () -> !tessera_gpu.memdesc<1xi64, #word, mutable>
    tessera_gpu.init_barrier %bar {count = 1 : i32} : !tessera_gpu.memdesc<1xi64, #word, mutable>
    tessera_gpu.barrier
    tessera_gpu.barrier
    tessera_gpu.local_store %x, %buf : tensor<64x64xf16, #ld> -> !tessera_gpu.memdesc<64x64xf16, #sw, mutable>
    tessera_gpu.barrier
    %filled = tessera_gpu.local_alloc %x : (tensor<64x64xf16, #ld>) -> !tessera_gpu.memdesc<64x64xf16, #sw, mutable>
    tessera_gpu.barrier
    %c1 = arith.constant 1 : i32
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> (tensor<64x64xf16, #ld>) : i32 {
      tessera_gpu.barrier
      %t = tessera_gpu.local_load %filled : !tessera_gpu.memdesc<64x64xf16, #sw, mutable> -> tensor<64x64xf16, #ld>
      %s = arith.addf %acc, %t : tensor<64x64xf16, #ld>
      scf.yield %s : tensor<64x64xf16, #ld>
    }
    return %r : tensor<64x64xf16, #ld>
  }

  // CHECK-LABEL: func.func @callee
  // CHECK-NEXT: tessera_gpu.barrier
  func.func @callee(%buf: !tessera_gpu.memdesc<64x64xf16, #sw, mutable>) -> tensor<64x64xf16, #ld> {
    tessera_gpu.barrier
    %t = tessera_gpu.local_load %buf : !tessera_gpu.memdesc<64x64xf16, #sw, mutable> -> tensor<64x64xf16, #ld>
    return %t : tensor<64x64xf16, #ld>
  }
}
