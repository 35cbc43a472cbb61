// The core pipeline runs its named stages; the IR after any stage can be
// dumped and fed back in, resuming after that stage with the same result.
// RUN: rm -rf %t && mkdir -p %t
// RUN: tessera-opt %s --tessera-core="num-warps=4 dump-after=symbol-dce,convert-to-gpu,remove-layout-conversions dump-dir=%t" > %t/full.mlir
// RUN: ls %t | FileCheck %s --check-prefix=FILES
// RUN: tessera-opt %t/05-convert-to-gpu.mlir --tessera-core="num-warps=4 start-after=convert-to-gpu" > %t/resumed.mlir
// RUN: diff %t/full.mlir %t/resumed.mlir
// RUN: tessera-opt %t/04-symbol-dce.mlir --tessera-core="num-warps=4 start-after=symbol-dce" > %t/resumed2.mlir
// RUN: diff %t/full.mlir %t/resumed2.mlir
// RUN: tessera-opt %t/07-remove-layout-conversions.mlir --tessera-core="num-warps=4 start-after=remove-layout-conversions" > %t/resumed3.mlir
// RUN: diff %t/full.mlir %t/resumed3.mlir
// RUN: FileCheck %s < %t/full.mlir
// RUN: FileCheck %s --check-prefix=BLOCK < %t/04-symbol-dce.mlir
// RUN: tessera-opt %s --tessera-core="stop-after=cse dump-after=all" -o /dev/null 2>&1 | FileCheck %s --check-prefix=STDERR
// RUN: not tessera-opt %s --tessera-core="start-after=nope" 2>&1 | FileCheck %s --check-prefix=BAD

// FILES: 04-symbol-dce.mlir
// FILES: 05-convert-to-gpu.mlir
// FILES: 07-remove-layout-conversions.mlir

// STDERR: IR after stage 'inline'
// STDERR: IR after stage 'canonicalize'
// STDERR: IR after stage 'cse'
// STDERR-NOT: IR after stage

// BAD: start-after stage 'nope' does not exist; stages are: inline, canonicalize, cse, licm, symbol-dce, convert-to-gpu, coalesce, remove-layout-conversions, cleanup

// The device function is inlined and removed; everything gets a layout.
// BLOCK-NOT: func.func private @offsets
// BLOCK-NOT: #tessera_gpu
// CHECK-NOT: func.func private @offsets
// CHECK: module attributes {tessera_gpu.num_ctas = 1 : i32, tessera_gpu.num_warps = 4 : i32
// CHECK-LABEL: func.func @add_kernel
// CHECK-NOT: tessera_gpu.convert_layout
// CHECK: tessera.load {{.*}} : tensor<1024x!tessera.ptr<f32>, #blocked{{[0-9]*}}>
// CHECK: tessera.store {{.*}} : tensor<1024x!tessera.ptr<f32>, #blocked{{[0-9]*}}>
// CHECK-NOT: tessera_gpu.convert_layout

func.func private @offsets(%pid: i32) -> tensor<1024xi32> {
  %c1024 = arith.constant 1024 : i32
  %start = arith.muli %pid, %c1024 : i32
  %r = tessera.make_range {start = 0 : i32, end = 1024 : i32} : tensor<1024xi32>
  %s = tessera.splat %start : tensor<1024xi32>
  %off = arith.addi %s, %r : tensor<1024xi32>
  return %off : tensor<1024xi32>
}

func.func @add_kernel(%x: !tessera.ptr<f32> {tessera.divisibility = 16 : i32}, %y: !tessera.ptr<f32> {tessera.divisibility = 16 : i32}, %o: !tessera.ptr<f32> {tessera.divisibility = 16 : i32}, %n: i32) attributes {tessera.kernel} {
  %pid = tessera.program_id x : i32
  %off = func.call @offsets(%pid) : (i32) -> tensor<1024xi32>
  %ns = tessera.splat %n : tensor<1024xi32>
  %mask = arith.cmpi slt, %off, %ns : tensor<1024xi32>
  %xp = tessera.splat %x : tensor<1024x!tessera.ptr<f32>>
  %xa = tessera.addptr %xp, %off : tensor<1024x!tessera.ptr<f32>>, tensor<1024xi32>
  %xv = tessera.load %xa, %mask : tensor<1024x!tessera.ptr<f32>>
  %yp = tessera.splat %y : tensor<1024x!tessera.ptr<f32>>
  %ya = tessera.addptr %yp, %off : tensor<1024x!tessera.ptr<f32>>, tensor<1024xi32>
  %yv = tessera.load %ya, %mask : tensor<1024x!tessera.ptr<f32>>
  %sum = arith.addf %xv, %yv : tensor<1024xf32>
  %op = tessera.splat %o : tensor<1024x!tessera.ptr<f32>>
  %oa = tessera.addptr %op, %off : tensor<1024x!tessera.ptr<f32>>, tensor<1024xi32>
  tessera.store %oa, %sum, %mask : tensor<1024x!tessera.ptr<f32>>
  return
}
