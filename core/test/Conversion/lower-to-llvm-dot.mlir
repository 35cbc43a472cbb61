// RUN: tessera-opt %s --split-input-file --tessera-test-lower-to-llvm | FileCheck %s
// RUN: tessera-opt %s --split-input-file --tessera-test-lower-to-llvm -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: tessera-opt %s --split-input-file --tessera-test-lower-to-llvm="decline=wait-for-dots" | FileCheck %s --check-prefix=SYNC

// The test target declines every dot, so the core multiplies and adds: each
// thread holds 2 accumulator elements and the K = 4 row and column of each,
// so 8 fused multiply-adds on f32 widened from f16. The accumulator is
// blocked, as accelerate-dot leaves a dot no instruction takes (and its
// remark says why), so the lowering adds none.
#blocked = #tessera_gpu.blocked<sizePerThread = [1, 2], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [1, 0]>
#a = #tessera_gpu.dot_op<opIdx = 0, parent = #blocked>
#b = #tessera_gpu.dot_op<opIdx = 1, parent = #blocked>
module attributes {tessera_gpu.num_ctas = 1 : i32, tessera_gpu.num_warps = 1 : i32, tessera_gpu.target = "test", tessera_gpu.threads_per_warp = 32 : i32} {
  // CHECK-LABEL: llvm.func internal @dot
  // CHECK-COUNT-8: llvm.intr.fmuladd({{.*}}) : (f32, f32, f32) -> f32
  // CHECK-NOT: llvm.intr.fmuladd
  // CHECK: llvm.return
  func.func @dot(%a: tensor<4x4xf16, #a>, %b: tensor<4x16xf16, #b>, %c: tensor<4x16xf32, #blocked>) -> tensor<4x16xf32, #blocked> {
    %d = tessera.dot %a, %b, %c : tensor<4x4xf16, #a> * tensor<4x16xf16, #b> -> tensor<4x16xf32, #blocked>
    return %d : tensor<4x16xf32, #blocked>
  }
}

// -----

// Regression: fp8 operands (i8 registers to LLVM) were widened as signed
// integers; they are decoded as fp8 before the multiply-adds.
#blocked = #tessera_gpu.blocked<sizePerThread = [1, 2], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [1, 0]>
#a = #tessera_gpu.dot_op<opIdx = 0, parent = #blocked>
#b = #tessera_gpu.dot_op<opIdx = 1, parent = #blocked>
module attributes {tessera_gpu.num_ctas = 1 : i32, tessera_gpu.num_warps = 1 : i32, tessera_gpu.target = "test", tessera_gpu.threads_per_warp = 32 : i32} {
  // CHECK-LABEL: llvm.func internal @dot_fp8
  // CHECK-NOT: llvm.sitofp
  // CHECK-COUNT-8: llvm.intr.fmuladd({{.*}}) : (f32, f32, f32) -> f32
  // CHECK-NOT: llvm.sitofp
  // CHECK: llvm.return
  func.func @dot_fp8(%a: tensor<4x4xf8E4M3FN, #a>, %b: tensor<4x16xf8E4M3FN, #b>, %c: tensor<4x16xf32, #blocked>) -> tensor<4x16xf32, #blocked> {
    %d = tessera.dot %a, %b, %c : tensor<4x4xf8E4M3FN, #a> * tensor<4x16xf8E4M3FN, #b> -> tensor<4x16xf32, #blocked>
    return %d : tensor<4x16xf32, #blocked>
  }
}

// -----

// A local_load a target's pass marked read_in_place (its dot reads the
// buffer itself, through DotOperands::bShared) reads nothing: its registers
// are poison (lower-to-llvm-invalid.mlir: any other use is an error).
#blocked = #tessera_gpu.blocked<sizePerThread = [1, 2], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [1, 0]>
#a = #tessera_gpu.dot_op<opIdx = 0, parent = #blocked>
#b = #tessera_gpu.dot_op<opIdx = 1, parent = #blocked>
#shared = #tessera_gpu.shared<vec = 8, perPhase = 1, maxPhase = 2, order = [1, 0]>
module attributes {tessera_gpu.num_ctas = 1 : i32, tessera_gpu.num_warps = 1 : i32, tessera_gpu.target = "test", tessera_gpu.threads_per_warp = 32 : i32} {
  // CHECK-LABEL: llvm.func internal @dot_in_place
  // CHECK-NOT: llvm.load
  // CHECK: llvm.mlir.poison
  // CHECK-NOT: llvm.load
  // CHECK: llvm.return
  func.func @dot_in_place(%a: tensor<4x4xf16, #a>, %c: tensor<4x16xf32, #blocked>) -> tensor<4x16xf32, #blocked> {
    %buf = tessera_gpu.local_alloc : () -> !tessera_gpu.memdesc<4x16xf16, #shared, mutable>
    %b = tessera_gpu.local_load %buf {tessera_gpu.read_in_place} : !tessera_gpu.memdesc<4x16xf16, #shared, mutable> -> tensor<4x16xf16, #b>
    %d = tessera.dot %a, %b, %c : tensor<4x4xf16, #a> * tensor<4x16xf16, #b> -> tensor<4x16xf32, #blocked>
    return %d : tensor<4x16xf32, #blocked>
  }
}


// -----

// A dot in a layout chosen for a matrix instruction (here a linear layout
// whose operands still give each thread its rows and columns) that the
// target declines: the multiply-adds come with a remark naming the layout.
#acc = #tessera_gpu.linear<register = [[0, 1]], lane = [[0, 2], [0, 4], [0, 8], [1, 0], [2, 0]], warp = [], block = []>
#la = #tessera_gpu.linear<register = [[0, 1], [0, 2]], lane = [[0, 0], [0, 0], [0, 0], [1, 0], [2, 0]], warp = [], block = []>
#lb = #tessera_gpu.linear<register = [[0, 1], [1, 0], [2, 0]], lane = [[0, 2], [0, 4], [0, 8], [0, 0], [0, 0]], warp = [], block = []>
module attributes {tessera_gpu.num_ctas = 1 : i32, tessera_gpu.num_warps = 1 : i32, tessera_gpu.target = "test", tessera_gpu.threads_per_warp = 32 : i32} {
  // Only this dot has a remark.
  // REMARK-NOT: remark
  // REMARK: :[[@LINE+5]]:10: remark: dot computed with multiply-adds: the test target declined the dot in layout #tessera_gpu.linear<
  // REMARK-NOT: remark
  // CHECK-LABEL: llvm.func internal @declined
  // CHECK-COUNT-8: llvm.intr.fmuladd
  func.func @declined(%a: tensor<4x4xf16, #la>, %b: tensor<4x16xf16, #lb>, %c: tensor<4x16xf32, #acc>) -> tensor<4x16xf32, #acc> {
    %d = tessera.dot %a, %b, %c : tensor<4x4xf16, #la> * tensor<4x16xf16, #lb> -> tensor<4x16xf32, #acc>
    return %d : tensor<4x16xf32, #acc>
  }
}

// -----

// An fp16 accumulator (out_dtype=fp16) sums in f32: each accumulator
// register is widened once, takes its K = 4 multiply-adds in f32 and is
// rounded to f16 once, never after each product.
#blocked = #tessera_gpu.blocked<sizePerThread = [1, 2], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [1, 0]>
#a = #tessera_gpu.dot_op<opIdx = 0, parent = #blocked>
#b = #tessera_gpu.dot_op<opIdx = 1, parent = #blocked>
module attributes {tessera_gpu.num_ctas = 1 : i32, tessera_gpu.num_warps = 1 : i32, tessera_gpu.target = "test", tessera_gpu.threads_per_warp = 32 : i32} {
  // CHECK-LABEL: llvm.func internal @dot_f16_accumulator
  // CHECK: llvm.fpext %{{.*}} : f16 to f32
  // CHECK-COUNT-4: llvm.intr.fmuladd({{.*}}) : (f32, f32, f32) -> f32
  // CHECK-NEXT: llvm.fptrunc %{{.*}} : f32 to f16
  // CHECK-NOT: (f16, f16, f16) -> f16
  // CHECK: llvm.return
  func.func @dot_f16_accumulator(%a: tensor<4x4xf16, #a>, %b: tensor<4x16xf16, #b>, %c: tensor<4x16xf16, #blocked>) -> tensor<4x16xf16, #blocked> {
    %d = tessera.dot %a, %b, %c : tensor<4x4xf16, #a> * tensor<4x16xf16, #b> -> tensor<4x16xf16, #blocked>
    return %d : tensor<4x16xf16, #blocked>
  }
}

// -----

// A three-dimensional (batched) dot: each thread holds 2 batches x 2
// columns of accumulators and, for each, the K = 4 row of A and column of B
// of its batch, so 4 x 4 multiply-adds.
#blocked = #tessera_gpu.blocked<sizePerThread = [2, 1, 2], threadsPerWarp = [1, 4, 8], warpsPerCTA = [1, 1, 1], order = [2, 1, 0]>
#a = #tessera_gpu.dot_op<opIdx = 0, parent = #blocked>
#b = #tessera_gpu.dot_op<opIdx = 1, parent = #blocked>
module attributes {tessera_gpu.num_ctas = 1 : i32, tessera_gpu.num_warps = 1 : i32, tessera_gpu.target = "test", tessera_gpu.threads_per_warp = 32 : i32} {
  // CHECK-LABEL: llvm.func internal @dot_batched
  // CHECK-COUNT-16: llvm.intr.fmuladd({{.*}}) : (f32, f32, f32) -> f32
  // CHECK-NOT: llvm.intr.fmuladd
  // CHECK: llvm.return
  func.func @dot_batched(%a: tensor<2x4x4xf32, #a>, %b: tensor<2x4x16xf32, #b>, %c: tensor<2x4x16xf32, #blocked>) -> tensor<2x4x16xf32, #blocked> {
    %d = tessera.dot %a, %b, %c : tensor<2x4x4xf32, #a> * tensor<2x4x16xf32, #b> -> tensor<2x4x16xf32, #blocked>
    return %d : tensor<2x4x16xf32, #blocked>
  }
}

// -----

// dot_wait hands the registers of all its operands to the target's
// waitForDots hook, with the pending count, and returns what the hook gives
// back (here each register through a call); a target that declines (its
// dots are synchronous) passes the values through unchanged.
#blocked = #tessera_gpu.blocked<sizePerThread = [1, 2], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [1, 0]>
module attributes {tessera_gpu.num_ctas = 1 : i32, tessera_gpu.num_warps = 1 : i32, tessera_gpu.target = "test", tessera_gpu.threads_per_warp = 32 : i32} {
  // CHECK-LABEL: llvm.func internal @dot_wait
  // CHECK: %[[N:.*]] = llvm.mlir.constant(1 : i32) : i32
  // CHECK: llvm.call @tessera_test_wait_for_dots_f32(%{{.*}}, %[[N]]) : (f32, i32) -> f32
  // CHECK-COUNT-3: llvm.call @tessera_test_wait_for_dots_f32
  // CHECK-NOT: wait_for_dots
  // CHECK: llvm.fadd
  // SYNC-LABEL: llvm.func internal @dot_wait
  // SYNC-NOT: llvm.call
  // SYNC: llvm.fadd
  func.func @dot_wait(%c: tensor<4x16xf32, #blocked>, %d: tensor<4x16xf32, #blocked>) -> tensor<4x16xf32, #blocked> {
    %w:2 = tessera_gpu.dot_wait %c, %d {pending = 1 : i32} : tensor<4x16xf32, #blocked>, tensor<4x16xf32, #blocked> -> tensor<4x16xf32, #blocked>, tensor<4x16xf32, #blocked>
    %s = arith.addf %w#0, %w#1 : tensor<4x16xf32, #blocked>
    return %s : tensor<4x16xf32, #blocked>
  }
}
