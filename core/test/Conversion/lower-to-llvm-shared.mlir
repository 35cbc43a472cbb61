// RUN: tessera-opt %s --split-input-file --tessera-test-lower-to-llvm | FileCheck %s
// RUN: tessera-opt %s --split-input-file --tessera-test-lower-to-llvm="decline=async-copy" | FileCheck %s --check-prefix=SYNC

// A 2-deep shared buffer of 32x32 fp16 (2 x 2 KiB at offset 0, so scratch
// would start at 4096): stage 1 is filled by async copies through the
// target's hook (or, declined, by loads and shared stores), committed,
// waited for, then read back in the same layout.
#blocked = #tessera_gpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
#shared = #tessera_gpu.shared<vec = 8, perPhase = 1, maxPhase = 4, order = [1, 0]>
// CHECK: tessera_gpu.shared_memory = 4096 : i32
module attributes {tessera_gpu.num_ctas = 1 : i32, tessera_gpu.num_warps = 4 : i32, tessera_gpu.target = "test", tessera_gpu.threads_per_warp = 32 : i32} {
  // CHECK-LABEL: llvm.func internal @stage
  // CHECK: %[[BASE:.*]] = llvm.call @tessera_test_shared_base()
  // CHECK: %[[STAGE:.*]] = llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
  // Nothing says the pointers are contiguous: one copy per element.
  // CHECK-COUNT-8: llvm.call @tessera_test_async_copy(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (!llvm.ptr<3>, !llvm.ptr<1>, i32, i1) -> ()
  // CHECK: llvm.call @tessera_test_async_commit_group()
  // CHECK: llvm.call @tessera_test_async_wait(
  // The buffer's rows hold each thread's eight elements together.
  // CHECK: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<3> -> vector<8xf16>
  // CHECK-NOT: llvm.load
  // CHECK: llvm.return

  // SYNC-LABEL: llvm.func internal @stage
  // SYNC-NOT: tessera_test_async
  // SYNC: llvm.call @tessera_test_load_global_f16(
  // SYNC: llvm.store %{{.*}}, %{{.*}} : f16, !llvm.ptr<3>
  // SYNC-NOT: tessera_test_async
  // SYNC: llvm.load %{{.*}} : !llvm.ptr<3> -> vector<8xf16>
  func.func @stage(%ptrs: tensor<32x32x!tessera.ptr<f16>, #blocked>, %mask: tensor<32x32xi1, #blocked>) -> tensor<32x32xf16, #blocked> {
    %c1 = arith.constant 1 : i32
    %buf = tessera_gpu.local_alloc : () -> !tessera_gpu.memdesc<2x32x32xf16, #shared, mutable>
    %s = tessera_gpu.memdesc_index %buf[%c1] : !tessera_gpu.memdesc<2x32x32xf16, #shared, mutable> -> !tessera_gpu.memdesc<32x32xf16, #shared, mutable>
    %t = tessera_gpu.async_copy_global_to_local %ptrs, %s mask %mask : tensor<32x32xi1, #blocked> : tensor<32x32x!tessera.ptr<f16>, #blocked> -> !tessera_gpu.memdesc<32x32xf16, #shared, mutable>
    %g = tessera_gpu.async_commit_group %t
    %w = tessera_gpu.async_wait %g {num = 0 : i32}
    %x = tessera_gpu.local_load %s token %w : !tessera_gpu.memdesc<32x32xf16, #shared, mutable> -> tensor<32x32xf16, #blocked>
    tessera_gpu.local_dealloc %buf : !tessera_gpu.memdesc<2x32x32xf16, #shared, mutable>
    return %x : tensor<32x32xf16, #blocked>
  }
}

// -----

// Rows of 32 aligned, contiguous halves: each thread copies its eight as one
// 16-byte async copy (or, declined, one 16-byte load and shared store) into
// the swizzled buffer: element (r, c) at r * 32 + (c ^ 8 * (r % 4)).
#blocked = #tessera_gpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
#rows = #tessera_gpu.slice<dim = 1, parent = #blocked>
#cols = #tessera_gpu.slice<dim = 0, parent = #blocked>
#shared = #tessera_gpu.shared<vec = 8, perPhase = 1, maxPhase = 4, order = [1, 0]>
module attributes {tessera_gpu.num_ctas = 1 : i32, tessera_gpu.num_warps = 4 : i32, tessera_gpu.target = "test", tessera_gpu.threads_per_warp = 32 : i32} {
  // CHECK-LABEL: llvm.func internal @vector_stage
  // CHECK-DAG: %[[THREE:.*]] = llvm.mlir.constant(3 : i32) : i32
  // CHECK-DAG: %[[SIXTEEN:.*]] = llvm.mlir.constant(16 : i32) : i32
  // CHECK: %[[PHASE:.*]] = llvm.and %{{.*}}, %[[THREE]] : i32
  // CHECK: llvm.xor %{{.*}}, %{{.*}} : i32
  // CHECK: llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
  // CHECK: llvm.call @tessera_test_async_copy(%{{.*}}, %{{.*}}, %[[SIXTEEN]], %{{.*}}) : (!llvm.ptr<3>, !llvm.ptr<1>, i32, i1) -> ()
  // CHECK-NOT: tessera_test_async_copy
  // CHECK: llvm.call @tessera_test_async_commit_group()
  // CHECK: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<3> -> vector<8xf16>
  // CHECK-NOT: llvm.load

  // SYNC-LABEL: llvm.func internal @vector_stage
  // SYNC: llvm.call @tessera_test_load_global_v8f16(
  // SYNC: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<8xf16>, !llvm.ptr<3>
  // SYNC-NOT: llvm.call @tessera_test_load_global
  func.func @vector_stage(%base: !tessera.ptr<f16> {tessera.divisibility = 16 : i32}) -> tensor<32x32xf16, #blocked> {
    %c32 = arith.constant dense<32> : tensor<32x1xi32, #blocked>
    %r = tessera.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #rows>
    %c = tessera.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #cols>
    %r2 = tessera.expand_dims %r {axis = 1 : i32} : tensor<32xi32, #rows> -> tensor<32x1xi32, #blocked>
    %c2 = tessera.expand_dims %c {axis = 0 : i32} : tensor<32xi32, #cols> -> tensor<1x32xi32, #blocked>
    %rs = arith.muli %r2, %c32 : tensor<32x1xi32, #blocked>
    %rb = tessera.broadcast %rs : tensor<32x1xi32, #blocked> -> tensor<32x32xi32, #blocked>
    %cb = tessera.broadcast %c2 : tensor<1x32xi32, #blocked> -> tensor<32x32xi32, #blocked>
    %offs = arith.addi %rb, %cb : tensor<32x32xi32, #blocked>
    %bs = tessera.splat %base : tensor<32x32x!tessera.ptr<f16>, #blocked>
    %ptrs = tessera.addptr %bs, %offs : tensor<32x32x!tessera.ptr<f16>, #blocked>, tensor<32x32xi32, #blocked>
    %buf = tessera_gpu.local_alloc : () -> !tessera_gpu.memdesc<32x32xf16, #shared, mutable>
    %t = tessera_gpu.async_copy_global_to_local %ptrs, %buf : tensor<32x32x!tessera.ptr<f16>, #blocked> -> !tessera_gpu.memdesc<32x32xf16, #shared, mutable>
    %g = tessera_gpu.async_commit_group %t
    %w = tessera_gpu.async_wait %g {num = 0 : i32}
    %x = tessera_gpu.local_load %buf token %w : !tessera_gpu.memdesc<32x32xf16, #shared, mutable> -> tensor<32x32xf16, #blocked>
    tessera_gpu.local_dealloc %buf : !tessera_gpu.memdesc<32x32xf16, #shared, mutable>
    return %x : tensor<32x32xf16, #blocked>
  }
}

// -----

// The same tile stored column by column (a K-major operand's ring, order
// [0, 1]): each thread's eight halves run down a column, which the layout
// keeps contiguous, so they still move as one 16-byte copy.
#blocked = #tessera_gpu.blocked<sizePerThread = [8, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]>
#rows = #tessera_gpu.slice<dim = 1, parent = #blocked>
#cols = #tessera_gpu.slice<dim = 0, parent = #blocked>
#shared = #tessera_gpu.shared<vec = 8, perPhase = 1, maxPhase = 4, order = [0, 1]>
module attributes {tessera_gpu.num_ctas = 1 : i32, tessera_gpu.num_warps = 4 : i32, tessera_gpu.target = "test", tessera_gpu.threads_per_warp = 32 : i32} {
  // CHECK-LABEL: llvm.func internal @column_stage
  // CHECK-DAG: %[[SIXTEEN:.*]] = llvm.mlir.constant(16 : i32) : i32
  // CHECK: llvm.call @tessera_test_async_copy(%{{.*}}, %{{.*}}, %[[SIXTEEN]], %{{.*}}) : (!llvm.ptr<3>, !llvm.ptr<1>, i32, i1) -> ()
  // CHECK-NOT: tessera_test_async_copy
  // CHECK: llvm.call @tessera_test_async_commit_group()

  // SYNC-LABEL: llvm.func internal @column_stage
  // SYNC: llvm.call @tessera_test_load_global_v8f16(
  // SYNC: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<8xf16>, !llvm.ptr<3>
  // SYNC-NOT: llvm.call @tessera_test_load_global
  func.func @column_stage(%base: !tessera.ptr<f16> {tessera.divisibility = 16 : i32}) -> tensor<32x32xf16, #blocked> {
    %c32 = arith.constant dense<32> : tensor<1x32xi32, #blocked>
    %r = tessera.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #rows>
    %c = tessera.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #cols>
    %r2 = tessera.expand_dims %r {axis = 1 : i32} : tensor<32xi32, #rows> -> tensor<32x1xi32, #blocked>
    %c2 = tessera.expand_dims %c {axis = 0 : i32} : tensor<32xi32, #cols> -> tensor<1x32xi32, #blocked>
    %cs = arith.muli %c2, %c32 : tensor<1x32xi32, #blocked>
    %rb = tessera.broadcast %r2 : tensor<32x1xi32, #blocked> -> tensor<32x32xi32, #blocked>
    %cb = tessera.broadcast %cs : tensor<1x32xi32, #blocked> -> tensor<32x32xi32, #blocked>
    %offs = arith.addi %rb, %cb : tensor<32x32xi32, #blocked>
    %bs = tessera.splat %base : tensor<32x32x!tessera.ptr<f16>, #blocked>
    %ptrs = tessera.addptr %bs, %offs : tensor<32x32x!tessera.ptr<f16>, #blocked>, tensor<32x32xi32, #blocked>
    %buf = tessera_gpu.local_alloc : () -> !tessera_gpu.memdesc<32x32xf16, #shared, mutable>
    %t = tessera_gpu.async_copy_global_to_local %ptrs, %buf : tensor<32x32x!tessera.ptr<f16>, #blocked> -> !tessera_gpu.memdesc<32x32xf16, #shared, mutable>
    %g = tessera_gpu.async_commit_group %t
    %w = tessera_gpu.async_wait %g {num = 0 : i32}
    %x = tessera_gpu.local_load %buf token %w : !tessera_gpu.memdesc<32x32xf16, #shared, mutable> -> tensor<32x32xf16, #blocked>
    tessera_gpu.local_dealloc %buf : !tessera_gpu.memdesc<32x32xf16, #shared, mutable>
    return %x : tensor<32x32xf16, #blocked>
  }
}

// -----

// fp8 buffers, which LLVM has no element type for: stages and elements are
// addressed in bytes (a GEP over f8E4M3FN crashed the translation to LLVM
// IR). The column-major layout takes the general LinearLayout path.
#blocked = #tessera_gpu.blocked<sizePerThread = [1, 4], threadsPerWarp = [16, 2], warpsPerCTA = [1, 1], order = [1, 0]>
#colmajor = #tessera_gpu.shared<vec = 1, perPhase = 1, maxPhase = 1, order = [0, 1]>
module attributes {tessera_gpu.num_ctas = 1 : i32, tessera_gpu.num_warps = 1 : i32, tessera_gpu.target = "test", tessera_gpu.threads_per_warp = 32 : i32} {
  // CHECK-LABEL: llvm.func internal @fp8_stage
  // CHECK-NOT: f8E4M3FN
  // CHECK: llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
  // CHECK-COUNT-4: llvm.load %{{.*}} : !llvm.ptr<3> -> i8
  // CHECK-NOT: f8E4M3FN
  // CHECK: llvm.return
  func.func @fp8_stage() -> tensor<16x8xf8E4M3FN, #blocked> {
    %c1 = arith.constant 1 : i32
    %buf = tessera_gpu.local_alloc : () -> !tessera_gpu.memdesc<2x16x8xf8E4M3FN, #colmajor, mutable>
    %s = tessera_gpu.memdesc_index %buf[%c1] : !tessera_gpu.memdesc<2x16x8xf8E4M3FN, #colmajor, mutable> -> !tessera_gpu.memdesc<16x8xf8E4M3FN, #colmajor, mutable>
    %x = tessera_gpu.local_load %s : !tessera_gpu.memdesc<16x8xf8E4M3FN, #colmajor, mutable> -> tensor<16x8xf8E4M3FN, #blocked>
    return %x : tensor<16x8xf8E4M3FN, #blocked>
  }
}

// -----

// A buffer whose 32-element rows are stored in blocks of 16 columns (each
// block an 8 x 16 tile of its own, 256 bytes): the column's block bits
// (col >> 4) pick the tile, 8 * 16 elements apart, the rest of the column
// (& 15) and the row (* 16) address inside it. Each thread still reads its
// eight elements with one 16-byte load.
#blocked = #tessera_gpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [1, 1], order = [1, 0]>
#cols = #tessera_gpu.shared<vec = 8, perPhase = 1, maxPhase = 2, order = [1, 0], blockCols = 16>
module attributes {tessera_gpu.num_ctas = 1 : i32, tessera_gpu.num_warps = 1 : i32, tessera_gpu.target = "test", tessera_gpu.threads_per_warp = 32 : i32} {
  // CHECK-LABEL: llvm.func internal @column_blocks
  // CHECK-DAG: %[[FOUR:.*]] = llvm.mlir.constant(4 : i32) : i32
  // CHECK-DAG: %[[FIFTEEN:.*]] = llvm.mlir.constant(15 : i32) : i32
  // CHECK-DAG: %[[TILE:.*]] = llvm.mlir.constant(128 : i32) : i32
  // CHECK: %[[BLOCK:.*]] = llvm.lshr %[[COL:.*]], %[[FOUR]] : i32
  // The two halves in either order (C++ leaves the order of a call's
  // operands to the compiler: clang and GCC differ).
  // CHECK-DAG: llvm.mul %[[BLOCK]], %[[TILE]] : i32
  // CHECK-DAG: llvm.and %[[COL]], %[[FIFTEEN]] : i32
  // CHECK: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<3> -> vector<8xf16>
  // CHECK-NOT: llvm.load
  // CHECK: llvm.return
  func.func @column_blocks() -> tensor<8x32xf16, #blocked> {
    %buf = tessera_gpu.local_alloc : () -> !tessera_gpu.memdesc<8x32xf16, #cols, mutable>
    %x = tessera_gpu.local_load %buf : !tessera_gpu.memdesc<8x32xf16, #cols, mutable> -> tensor<8x32xf16, #blocked>
    return %x : tensor<8x32xf16, #blocked>
  }
}

// -----

// Swizzled buffers start 1024-byte aligned (the longest swizzle period;
// descriptor-reading matrix units need the pattern to start aligned), even
// small ones: the second 512-byte buffer is placed at 1024, so the block
// needs 1536 bytes (1024 with 128-byte alignment).
#blocked = #tessera_gpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [16, 2], warpsPerCTA = [1, 1], order = [1, 0]>
#small = #tessera_gpu.shared<vec = 8, perPhase = 4, maxPhase = 2, order = [1, 0]>
// CHECK: tessera_gpu.shared_memory = 1536 : i32
module attributes {tessera_gpu.num_ctas = 1 : i32, tessera_gpu.num_warps = 1 : i32, tessera_gpu.target = "test", tessera_gpu.threads_per_warp = 32 : i32} {
  // CHECK-LABEL: llvm.func internal @aligned_buffers
  func.func @aligned_buffers() -> tensor<16x16xf16, #blocked> {
    %a = tessera_gpu.local_alloc : () -> !tessera_gpu.memdesc<16x16xf16, #small, mutable>
    %b = tessera_gpu.local_alloc : () -> !tessera_gpu.memdesc<16x16xf16, #small, mutable>
    %x = tessera_gpu.local_load %b : !tessera_gpu.memdesc<16x16xf16, #small, mutable> -> tensor<16x16xf16, #blocked>
    return %x : tensor<16x16xf16, #blocked>
  }
}

// -----

// A store into a swizzled buffer moves each thread's run of contiguous
// elements at once: eight halves as one 16-byte vector, pairs of fp8 codes
// as 2-byte vectors.
#blocked = #tessera_gpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
#pairs = #tessera_gpu.blocked<sizePerThread = [1, 2], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]>
#shared = #tessera_gpu.shared<vec = 8, perPhase = 1, maxPhase = 4, order = [1, 0]>
#bytes = #tessera_gpu.shared<vec = 16, perPhase = 1, maxPhase = 2, order = [1, 0]>
module attributes {tessera_gpu.num_ctas = 1 : i32, tessera_gpu.num_warps = 4 : i32, tessera_gpu.target = "test", tessera_gpu.threads_per_warp = 32 : i32} {
  // CHECK-LABEL: llvm.func internal @store_runs
  // CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<8xf16>, !llvm.ptr<3>
  // CHECK-COUNT-4: llvm.store %{{.*}}, %{{.*}} {alignment = 2 : i64} : vector<2xi8>, !llvm.ptr<3>
  // CHECK-NOT: llvm.store
  // CHECK: llvm.return
  func.func @store_runs(%x: tensor<32x32xf16, #blocked>, %y: tensor<32x32xf8E4M3FN, #pairs>) {
    %a = tessera_gpu.local_alloc : () -> !tessera_gpu.memdesc<32x32xf16, #shared, mutable>
    tessera_gpu.local_store %x, %a : tensor<32x32xf16, #blocked> -> !tessera_gpu.memdesc<32x32xf16, #shared, mutable>
    %b = tessera_gpu.local_alloc : () -> !tessera_gpu.memdesc<32x32xf8E4M3FN, #bytes, mutable>
    tessera_gpu.local_store %y, %b : tensor<32x32xf8E4M3FN, #pairs> -> !tessera_gpu.memdesc<32x32xf8E4M3FN, #bytes, mutable>
    return
  }
}
