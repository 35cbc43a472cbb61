// RUN: tessera-opt %s --split-input-file --tessera-plan-shared-memory | FileCheck %s

// A matmul's shape after pipelining: two rings read in the loop, freed,
// then a block barrier, then the epilogue's layout conversion (scratch)
// and a buffer for the store. A buffer alive to the end (%keep, first in
// program order) takes bytes 0-4095, the rings 4096-20479; once the
// barrier after the loop has passed, the conversion's scratch takes the
// rings' first bytes, and so does the later buffer (the conversion is done
// with its scratch at the barrier before it).
#sw = #tessera_gpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]>
#plain = #tessera_gpu.shared<vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]>
#ld = #tessera_gpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
#ld2 = #tessera_gpu.blocked<sizePerThread = [8, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]>
// CHECK: module attributes {tessera_gpu.num_ctas = 1 : i32, tessera_gpu.num_warps = 4 : i32, tessera_gpu.shared_plan = {buffers_end = 20480 : i64, scratch_bytes = {{[1-9][0-9]*}} : i64, scratch_offset = 4096 : i64}
module attributes {tessera_gpu.num_ctas = 1 : i32, tessera_gpu.num_warps = 4 : i32, tessera_gpu.threads_per_warp = 32 : i32} {
  // CHECK-LABEL: func.func @matmul_shape
  // CHECK: tessera_gpu.local_alloc {tessera_gpu.offset = 0 : i64}
  // CHECK-NEXT: tessera_gpu.local_alloc {tessera_gpu.offset = 4096 : i64}
  // CHECK-NEXT: tessera_gpu.local_alloc {tessera_gpu.offset = 12288 : i64}
  // CHECK: scf.for
  // CHECK: tessera_gpu.barrier
  // CHECK: tessera_gpu.convert_layout
  // CHECK: tessera_gpu.local_alloc %{{.*}} {tessera_gpu.offset = 4096 : i64}
  func.func @matmul_shape(%n: i32, %t: tensor<32x64xf16, #ld>) -> tensor<32x64xf16, #ld> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %keep = tessera_gpu.local_alloc : () -> !tessera_gpu.memdesc<32x64xf16, #sw, mutable>
    %a = tessera_gpu.local_alloc : () -> !tessera_gpu.memdesc<2x32x64xf16, #sw, mutable>
    %b = tessera_gpu.local_alloc : () -> !tessera_gpu.memdesc<2x32x64xf16, #sw, mutable>
    scf.for %i = %c0 to %n step %c1 : i32 {
      %sa = tessera_gpu.memdesc_index %a[%c0] : !tessera_gpu.memdesc<2x32x64xf16, #sw, mutable> -> !tessera_gpu.memdesc<32x64xf16, #sw, mutable>
      %x = tessera_gpu.local_load %sa : !tessera_gpu.memdesc<32x64xf16, #sw, mutable> -> tensor<32x64xf16, #ld>
      %sb = tessera_gpu.memdesc_index %b[%c0] : !tessera_gpu.memdesc<2x32x64xf16, #sw, mutable> -> !tessera_gpu.memdesc<32x64xf16, #sw, mutable>
      %y = tessera_gpu.local_load %sb : !tessera_gpu.memdesc<32x64xf16, #sw, mutable> -> tensor<32x64xf16, #ld>
      tessera_gpu.local_store %x, %keep : tensor<32x64xf16, #ld> -> !tessera_gpu.memdesc<32x64xf16, #sw, mutable>
    }
    tessera_gpu.local_dealloc %a : !tessera_gpu.memdesc<2x32x64xf16, #sw, mutable>
    tessera_gpu.local_dealloc %b : !tessera_gpu.memdesc<2x32x64xf16, #sw, mutable>
    tessera_gpu.barrier
    %c = tessera_gpu.convert_layout %t : tensor<32x64xf16, #ld> -> tensor<32x64xf16, #ld2>
    tessera_gpu.barrier
    %out = tessera_gpu.local_alloc %t : (tensor<32x64xf16, #ld>) -> !tessera_gpu.memdesc<32x64xf16, #plain, mutable>
    %r = tessera_gpu.local_load %out : !tessera_gpu.memdesc<32x64xf16, #plain, mutable> -> tensor<32x64xf16, #ld>
    %k = tessera_gpu.local_load %keep : !tessera_gpu.memdesc<32x64xf16, #sw, mutable> -> tensor<32x64xf16, #ld>
    return %r : tensor<32x64xf16, #ld>
  }
}

// -----

// Without a barrier after the loop, a slower thread may still read the
// ring when a faster one writes the scratch: the scratch goes after it.
#sw = #tessera_gpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]>
#ld = #tessera_gpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
#ld2 = #tessera_gpu.blocked<sizePerThread = [8, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]>
// CHECK: tessera_gpu.shared_plan = {buffers_end = 8192 : i64, scratch_bytes = {{[1-9][0-9]*}} : i64, scratch_offset = 8192 : i64}
module attributes {tessera_gpu.num_ctas = 1 : i32, tessera_gpu.num_warps = 4 : i32, tessera_gpu.threads_per_warp = 32 : i32} {
  func.func @no_barrier(%n: i32, %t: tensor<32x64xf16, #ld>) -> tensor<32x64xf16, #ld2> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %a = tessera_gpu.local_alloc : () -> !tessera_gpu.memdesc<2x32x64xf16, #sw, mutable>
    scf.for %i = %c0 to %n step %c1 : i32 {
      %sa = tessera_gpu.memdesc_index %a[%c0] : !tessera_gpu.memdesc<2x32x64xf16, #sw, mutable> -> !tessera_gpu.memdesc<32x64xf16, #sw, mutable>
      %x = tessera_gpu.local_load %sa : !tessera_gpu.memdesc<32x64xf16, #sw, mutable> -> tensor<32x64xf16, #ld>
    }
    %c = tessera_gpu.convert_layout %t : tensor<32x64xf16, #ld> -> tensor<32x64xf16, #ld2>
    return %c : tensor<32x64xf16, #ld2>
  }
}
