// RUN: tessera-opt %s --split-input-file --tessera-convert-to-gpu="num-warps=4" --tessera-coalesce | FileCheck %s
// RUN: tessera-opt %s --split-input-file --tessera-convert-to-gpu="num-warps=4" --tessera-coalesce="max-vector-bits=64" | FileCheck %s --check-prefix=NARROW

// A 16-byte aligned fp32 block, contiguous over 1024 elements: each thread
// moves 4 consecutive elements (128 bits).
// CHECK-DAG: #[[V4:.*]] = #tessera_gpu.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
// CHECK-LABEL: func @aligned_f32
// CHECK: tessera.load {{.*}} : tensor<1024x!tessera.ptr<f32>, #[[V4]]>
// CHECK: tessera.store {{.*}} : tensor<1024x!tessera.ptr<f32>, #[[V4]]>
// NARROW-DAG: #[[V2:.*]] = #tessera_gpu.blocked<sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
// NARROW-LABEL: func @aligned_f32
// NARROW: tessera.load {{.*}} : tensor<1024x!tessera.ptr<f32>, #[[V2]]>
func.func @aligned_f32(%x: !tessera.ptr<f32> {tessera.divisibility = 16 : i32}, %n: i32) {
  %pid = tessera.program_id x : i32
  %c1024 = arith.constant 1024 : i32
  %start = arith.muli %pid, %c1024 : i32
  %r = tessera.make_range {start = 0 : i32, end = 1024 : i32} : tensor<1024xi32>
  %s = tessera.splat %start : tensor<1024xi32>
  %off = arith.addi %s, %r : tensor<1024xi32>
  %ns = tessera.splat %n : tensor<1024xi32>
  %mask = arith.cmpi slt, %off, %ns : tensor<1024xi32>
  %p = tessera.splat %x : tensor<1024x!tessera.ptr<f32>>
  %a = tessera.addptr %p, %off : tensor<1024x!tessera.ptr<f32>>, tensor<1024xi32>
  %v = tessera.load %a, %mask : tensor<1024x!tessera.ptr<f32>>
  tessera.store %a, %v, %mask : tensor<1024x!tessera.ptr<f32>>
  return
}

// -----

// fp16: 8 elements make 16 bytes.
// CHECK-DAG: #[[V8:.*]] = #tessera_gpu.blocked<sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
// CHECK-LABEL: func @aligned_f16
// CHECK: tessera.load {{.*}} : tensor<1024x!tessera.ptr<f16>, #[[V8]]>
func.func @aligned_f16(%x: !tessera.ptr<f16> {tessera.divisibility = 16 : i32}) -> tensor<1024xf16> {
  %r = tessera.make_range {start = 0 : i32, end = 1024 : i32} : tensor<1024xi32>
  %p = tessera.splat %x : tensor<1024x!tessera.ptr<f16>>
  %a = tessera.addptr %p, %r : tensor<1024x!tessera.ptr<f16>>, tensor<1024xi32>
  %v = tessera.load %a : tensor<1024x!tessera.ptr<f16>>
  return %v : tensor<1024xf16>
}

// -----

// Nothing known about the base pointer: one element per thread.
// CHECK-DAG: #[[V1:.*]] = #tessera_gpu.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
// CHECK-LABEL: func @unaligned
// CHECK: tessera.load {{.*}} : tensor<1024x!tessera.ptr<f32>, #[[V1]]>
// CHECK-NOT: tessera_gpu.convert_layout
func.func @unaligned(%x: !tessera.ptr<f32>) -> tensor<1024xf32> {
  %r = tessera.make_range {start = 0 : i32, end = 1024 : i32} : tensor<1024xi32>
  %p = tessera.splat %x : tensor<1024x!tessera.ptr<f32>>
  %a = tessera.addptr %p, %r : tensor<1024x!tessera.ptr<f32>>, tensor<1024xi32>
  %v = tessera.load %a : tensor<1024x!tessera.ptr<f32>>
  return %v : tensor<1024xf32>
}

// -----

// A small block: 128 elements over 128 threads leave one per thread.
// CHECK-LABEL: func @small_block
// CHECK: tessera.load {{.*}} : tensor<128x!tessera.ptr<f32>, #{{.*}}>
// CHECK-NOT: sizePerThread = [4]
func.func @small_block(%x: !tessera.ptr<f32> {tessera.divisibility = 16 : i32}) -> tensor<128xf32> {
  %r = tessera.make_range {start = 0 : i32, end = 128 : i32} : tensor<128xi32>
  %p = tessera.splat %x : tensor<128x!tessera.ptr<f32>>
  %a = tessera.addptr %p, %r : tensor<128x!tessera.ptr<f32>>, tensor<128xi32>
  %v = tessera.load %a : tensor<128x!tessera.ptr<f32>>
  return %v : tensor<128xf32>
}

// -----

// A 2-D tile read along its rows with a stride divisible by 16 elements:
// dimension 1 is contiguous, each thread takes 8 fp16 of a row.
// CHECK-DAG: #[[ROWS:.*]] = #tessera_gpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
// CHECK-LABEL: func @tile_rows
// CHECK: tessera.load {{.*}} : tensor<64x64x!tessera.ptr<f16>, #[[ROWS]]>
func.func @tile_rows(%x: !tessera.ptr<f16> {tessera.divisibility = 16 : i32}, %stride: i32 {tessera.divisibility = 16 : i32}) -> tensor<64x64xf16> {
  %rm = tessera.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  %rn = tessera.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  %m = tessera.expand_dims %rm {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %sm = tessera.splat %stride : tensor<64x1xi32>
  %ms = arith.muli %m, %sm : tensor<64x1xi32>
  %n = tessera.expand_dims %rn {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %mb = tessera.broadcast %ms : tensor<64x1xi32> -> tensor<64x64xi32>
  %nb = tessera.broadcast %n : tensor<1x64xi32> -> tensor<64x64xi32>
  %off = arith.addi %mb, %nb : tensor<64x64xi32>
  %p = tessera.splat %x : tensor<64x64x!tessera.ptr<f16>>
  %a = tessera.addptr %p, %off : tensor<64x64x!tessera.ptr<f16>>, tensor<64x64xi32>
  %v = tessera.load %a : tensor<64x64x!tessera.ptr<f16>>
  return %v : tensor<64x64xf16>
}

// -----

// The same tile read down its columns (a transposed operand): dimension 0
// is contiguous, so it becomes the fastest.
// CHECK-DAG: #[[COLS:.*]] = #tessera_gpu.blocked<sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]>
// CHECK-LABEL: func @tile_columns
// CHECK: tessera.load {{.*}} : tensor<64x64x!tessera.ptr<f16>, #[[COLS]]>
func.func @tile_columns(%x: !tessera.ptr<f16> {tessera.divisibility = 16 : i32}, %stride: i32 {tessera.divisibility = 16 : i32}) -> tensor<64x64xf16> {
  %rm = tessera.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  %rn = tessera.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  %m = tessera.expand_dims %rm {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %n = tessera.expand_dims %rn {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %sn = tessera.splat %stride : tensor<1x64xi32>
  %ns = arith.muli %n, %sn : tensor<1x64xi32>
  %mb = tessera.broadcast %m : tensor<64x1xi32> -> tensor<64x64xi32>
  %nb = tessera.broadcast %ns : tensor<1x64xi32> -> tensor<64x64xi32>
  %off = arith.addi %mb, %nb : tensor<64x64xi32>
  %p = tessera.splat %x : tensor<64x64x!tessera.ptr<f16>>
  %a = tessera.addptr %p, %off : tensor<64x64x!tessera.ptr<f16>>, tensor<64x64xi32>
  %v = tessera.load %a : tensor<64x64x!tessera.ptr<f16>>
  return %v : tensor<64x64xf16>
}

// -----

// Atomics are laid out like loads: fp64 moves 2 per thread.
// CHECK-DAG: #[[D2:.*]] = #tessera_gpu.blocked<sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
// CHECK-LABEL: func @atomics
// CHECK: tessera.atomic_rmw fadd {{.*}} : tensor<1024x!tessera.ptr<f64>, #[[D2]]>
func.func @atomics(%x: !tessera.ptr<f64> {tessera.divisibility = 16 : i32}, %v: tensor<1024xf64>) -> tensor<1024xf64> {
  %r = tessera.make_range {start = 0 : i32, end = 1024 : i32} : tensor<1024xi32>
  %p = tessera.splat %x : tensor<1024x!tessera.ptr<f64>>
  %a = tessera.addptr %p, %r : tensor<1024x!tessera.ptr<f64>>, tensor<1024xi32>
  %old = tessera.atomic_rmw fadd %a, %v : tensor<1024x!tessera.ptr<f64>>
  return %old : tensor<1024xf64>
}
