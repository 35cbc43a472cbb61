// RUN: tessera-opt %s | FileCheck %s
// RUN: tessera-opt %s | tessera-opt | FileCheck %s
// RUN: tessera-opt %s --mlir-print-op-generic | tessera-opt | FileCheck %s
// Round trip of every tessera op.

// CHECK-LABEL: func @program
func.func @program() -> (i32, i32, tensor<128xi32>) {
  // CHECK: tessera.program_id x : i32
  %0 = tessera.program_id x : i32
  // CHECK: tessera.num_programs z : i32
  %1 = tessera.num_programs z : i32
  // CHECK: tessera.make_range {end = 160 : i32, start = 32 : i32} : tensor<128xi32>
  %2 = tessera.make_range {start = 32 : i32, end = 160 : i32} : tensor<128xi32>
  return %0, %1, %2 : i32, i32, tensor<128xi32>
}

// CHECK-LABEL: func @shapes
func.func @shapes(%s: f32, %t: tensor<1x8xf32>, %u: tensor<4x8xf32>, %v: tensor<4x8x2xf32>) {
  // CHECK: tessera.splat %{{.*}} : tensor<8xf32>
  %0 = tessera.splat %s : tensor<8xf32>
  // CHECK: tessera.broadcast %{{.*}} : tensor<1x8xf32> -> tensor<4x8xf32>
  %1 = tessera.broadcast %t : tensor<1x8xf32> -> tensor<4x8xf32>
  // CHECK: tessera.expand_dims %{{.*}} {axis = 0 : i32} : tensor<8xf32> -> tensor<1x8xf32>
  %2 = tessera.expand_dims %0 {axis = 0 : i32} : tensor<8xf32> -> tensor<1x8xf32>
  // CHECK: tessera.reshape %{{.*}} : tensor<4x8xf32> -> tensor<32xf32>
  %3 = tessera.reshape %u : tensor<4x8xf32> -> tensor<32xf32>
  // CHECK: tessera.reshape %{{.*}} {allow_reorder} : tensor<4x8xf32> -> tensor<8x4xf32>
  %4 = tessera.reshape %u {allow_reorder} : tensor<4x8xf32> -> tensor<8x4xf32>
  // CHECK: tessera.trans %{{.*}} {order = array<i32: 1, 0>} : tensor<4x8xf32> -> tensor<8x4xf32>
  %5 = tessera.trans %u {order = array<i32: 1, 0>} : tensor<4x8xf32> -> tensor<8x4xf32>
  // CHECK: tessera.join %{{.*}}, %{{.*}} : tensor<4x8xf32> -> tensor<4x8x2xf32>
  %6 = tessera.join %u, %u : tensor<4x8xf32> -> tensor<4x8x2xf32>
  // CHECK: tessera.split %{{.*}} : tensor<4x8x2xf32> -> tensor<4x8xf32>
  %7:2 = tessera.split %v : tensor<4x8x2xf32> -> tensor<4x8xf32>
  // CHECK: tessera.cat %{{.*}}, %{{.*}} : tensor<4x8xf32> -> tensor<8x8xf32>
  %8 = tessera.cat %u, %u : tensor<4x8xf32> -> tensor<8x8xf32>
  return
}

// CHECK-LABEL: func @pointers
func.func @pointers(%p: !tessera.ptr<f32>, %o: tensor<128xi32>, %i: i64, %it: tensor<128xi64>) {
  %0 = tessera.splat %p : tensor<128x!tessera.ptr<f32>>
  // CHECK: tessera.addptr %{{.*}}, %{{.*}} : tensor<128x!tessera.ptr<f32>>, tensor<128xi32>
  %1 = tessera.addptr %0, %o : tensor<128x!tessera.ptr<f32>>, tensor<128xi32>
  // CHECK: tessera.addptr %{{.*}}, %{{.*}} : !tessera.ptr<f32>, i64
  %2 = tessera.addptr %p, %i : !tessera.ptr<f32>, i64
  // CHECK: tessera.int_to_ptr %{{.*}} : i64 -> !tessera.ptr<f16>
  %3 = tessera.int_to_ptr %i : i64 -> !tessera.ptr<f16>
  // CHECK: tessera.ptr_to_int %{{.*}} : tensor<128x!tessera.ptr<f32>> -> tensor<128xi64>
  %4 = tessera.ptr_to_int %1 : tensor<128x!tessera.ptr<f32>> -> tensor<128xi64>
  // CHECK: tessera.bitcast %{{.*}} : !tessera.ptr<f32> -> !tessera.ptr<i32>
  %5 = tessera.bitcast %p : !tessera.ptr<f32> -> !tessera.ptr<i32>
  // CHECK: tessera.bitcast %{{.*}} : tensor<128xi32> -> tensor<128xf32>
  %6 = tessera.bitcast %o : tensor<128xi32> -> tensor<128xf32>
  // CHECK: !tessera.ptr<f32, 3>
  %7 = tessera.int_to_ptr %i : i64 -> !tessera.ptr<f32, 3>
  return
}

// CHECK-LABEL: func @memory
func.func @memory(%p: tensor<128x!tessera.ptr<f32>>, %m: tensor<128xi1>, %v: tensor<128xf32>, %s: !tessera.ptr<i32>, %x: i32) {
  // CHECK: tessera.load %{{.*}} : tensor<128x!tessera.ptr<f32>>
  %0 = tessera.load %p : tensor<128x!tessera.ptr<f32>>
  // CHECK: tessera.load %{{.*}}, %{{.*}}, %{{.*}} {cache = #tessera<cache cg>, evict = #tessera<evict evict_last>, isVolatile} : tensor<128x!tessera.ptr<f32>>
  %1 = tessera.load %p, %m, %v {cache = #tessera<cache cg>, evict = #tessera<evict evict_last>, isVolatile} : tensor<128x!tessera.ptr<f32>>
  // CHECK: tessera.store %{{.*}}, %{{.*}}, %{{.*}} : tensor<128x!tessera.ptr<f32>>
  tessera.store %p, %1, %m : tensor<128x!tessera.ptr<f32>>
  // CHECK: tessera.store %{{.*}}, %{{.*}} {cache = #tessera<cache wt>} : !tessera.ptr<i32>
  tessera.store %s, %x {cache = #tessera<cache wt>} : !tessera.ptr<i32>
  // CHECK: tessera.atomic_rmw fadd %{{.*}}, %{{.*}}, %{{.*}} {scope = #tessera<scope cta>, sem = #tessera<sem relaxed>} : tensor<128x!tessera.ptr<f32>>
  %2 = tessera.atomic_rmw fadd %p, %v, %m {sem = #tessera<sem relaxed>, scope = #tessera<scope cta>} : tensor<128x!tessera.ptr<f32>>
  // CHECK: tessera.atomic_rmw xchg %{{.*}}, %{{.*}} : !tessera.ptr<i32>
  %3 = tessera.atomic_rmw xchg %s, %x : !tessera.ptr<i32>
  // CHECK: tessera.atomic_rmw and
  %4 = tessera.atomic_rmw and %s, %x : !tessera.ptr<i32>
  // CHECK: tessera.atomic_cas %{{.*}}, %{{.*}}, %{{.*}} {sem = #tessera<sem acquire>} : !tessera.ptr<i32>
  %5 = tessera.atomic_cas %s, %x, %x {sem = #tessera<sem acquire>} : !tessera.ptr<i32>
  return
}

// CHECK-LABEL: func @descriptors
func.func @descriptors(%p: !tessera.ptr<f16>, %m: i32, %n: i32, %s: i64, %one: i64, %i: i32, %t: tensor<64x32xf16>) {
  // CHECK: tessera.make_tensor_descriptor %{{.*}}, [%{{.*}}, %{{.*}}], [%{{.*}}, %{{.*}}] : !tessera.ptr<f16> -> !tessera.tensordesc<tensor<64x32xf16>>
  %d = tessera.make_tensor_descriptor %p, [%m, %n], [%s, %one] : !tessera.ptr<f16> -> !tessera.tensordesc<tensor<64x32xf16>>
  // CHECK: tessera.descriptor_load %{{.*}}[%{{.*}}, %{{.*}}] : !tessera.tensordesc<tensor<64x32xf16>> -> tensor<64x32xf16>
  %0 = tessera.descriptor_load %d[%i, %i] : !tessera.tensordesc<tensor<64x32xf16>> -> tensor<64x32xf16>
  // CHECK: tessera.descriptor_store %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}} : !tessera.tensordesc<tensor<64x32xf16>>, tensor<64x32xf16>
  tessera.descriptor_store %d[%i, %i], %0 : !tessera.tensordesc<tensor<64x32xf16>>, tensor<64x32xf16>
  // CHECK: tessera.make_block_ptr %{{.*}}, [%{{.*}}, %{{.*}}], [%{{.*}}, %{{.*}}], [%{{.*}}, %{{.*}}] {order = array<i32: 1, 0>} : !tessera.ptr<f16> -> !tessera.ptr<tensor<64x32xf16>>
  %b = tessera.make_block_ptr %p, [%s, %s], [%s, %one], [%i, %i] {order = array<i32: 1, 0>} : !tessera.ptr<f16> -> !tessera.ptr<tensor<64x32xf16>>
  // CHECK: tessera.advance %{{.*}}, [%{{.*}}, %{{.*}}] : !tessera.ptr<tensor<64x32xf16>>
  %b2 = tessera.advance %b, [%i, %i] : !tessera.ptr<tensor<64x32xf16>>
  // CHECK: tessera.load %{{.*}} {boundaryCheck = array<i32: 0, 1>, padding = #tessera<padding nan>} : !tessera.ptr<tensor<64x32xf16>>
  %1 = tessera.load %b2 {boundaryCheck = array<i32: 0, 1>, padding = #tessera<padding nan>} : !tessera.ptr<tensor<64x32xf16>>
  // CHECK: tessera.store %{{.*}}, %{{.*}} {boundaryCheck = array<i32: 1>} : !tessera.ptr<tensor<64x32xf16>>
  tessera.store %b2, %1 {boundaryCheck = array<i32: 1>} : !tessera.ptr<tensor<64x32xf16>>
  return
}

// CHECK-LABEL: func @compute
func.func @compute(%a: tensor<16x32xf16>, %b: tensor<32x8xf16>, %c: tensor<16x8xf32>, %x: tensor<16x8xf32>, %i: tensor<16x8xi32>) {
  // CHECK: tessera.dot %{{.*}}, %{{.*}}, %{{.*}} {inputPrecision = #tessera<precision tf32>, maxNumImpreciseAcc = 32 : i32} : tensor<16x32xf16> * tensor<32x8xf16> -> tensor<16x8xf32>
  %0 = tessera.dot %a, %b, %c {inputPrecision = #tessera<precision tf32>, maxNumImpreciseAcc = 32 : i32} : tensor<16x32xf16> * tensor<32x8xf16> -> tensor<16x8xf32>
  // CHECK: tessera.reduce(%{{.*}}, %{{.*}}) {axis = 1 : i32} : (tensor<16x8xf32>, tensor<16x8xi32>) -> (tensor<16xf32>, tensor<16xi32>)
  // CHECK: tessera.reduce.return %{{.*}}, %{{.*}} : f32, i32
  %1:2 = tessera.reduce(%x, %i) {axis = 1 : i32} : (tensor<16x8xf32>, tensor<16x8xi32>) -> (tensor<16xf32>, tensor<16xi32>) {
  ^bb0(%v0: f32, %i0: i32, %v1: f32, %i1: i32):
    %gt = arith.cmpf ogt, %v1, %v0 : f32
    %v = arith.select %gt, %v1, %v0 : f32
    %ix = arith.select %gt, %i1, %i0 : i32
    tessera.reduce.return %v, %ix : f32, i32
  }
  // CHECK: tessera.scan(%{{.*}}) {axis = 0 : i32, reverse} : (tensor<16x8xf32>) -> tensor<16x8xf32>
  %2 = tessera.scan(%x) {axis = 0 : i32, reverse} : (tensor<16x8xf32>) -> tensor<16x8xf32> {
  ^bb0(%l: f32, %r: f32):
    %s = arith.addf %l, %r : f32
    tessera.scan.return %s : f32
  }
  %r = tessera.reshape %i : tensor<16x8xi32> -> tensor<128xi32>
  // CHECK: tessera.histogram %{{.*}} : tensor<128xi32> -> tensor<16xi32>
  %3 = tessera.histogram %r : tensor<128xi32> -> tensor<16xi32>
  return
}

// CHECK-LABEL: func @elementwise
func.func @elementwise(%x: tensor<64xf32>, %y: tensor<64xf32>, %i: tensor<64xi32>, %h: tensor<64xf16>) {
  // CHECK: tessera.extern_elementwise %{{.*}} {libname = "", libpath = "", pure = true, symbol = "__tessera_asinf"} : (tensor<64xf32>) -> tensor<64xf32>
  %0 = tessera.extern_elementwise %x {libname = "", libpath = "", symbol = "__tessera_asinf", pure = true} : (tensor<64xf32>) -> tensor<64xf32>
  // CHECK: tessera.inline_asm_elementwise %{{.*}} {asm_string = "mov $0, $1;", constraints = "=r,r", packed_element = 1 : i32, pure = true} : (tensor<64xi32>) -> tensor<64xi32>
  %1 = tessera.inline_asm_elementwise %i {asm_string = "mov $0, $1;", constraints = "=r,r", pure = true, packed_element = 1 : i32} : (tensor<64xi32>) -> tensor<64xi32>
  // CHECK: tessera.precise_sqrt %{{.*}} : tensor<64xf32>
  %2 = tessera.precise_sqrt %x : tensor<64xf32>
  // CHECK: tessera.precise_divf %{{.*}}, %{{.*}} : tensor<64xf32>
  %3 = tessera.precise_divf %x, %y : tensor<64xf32>
  // CHECK: tessera.fp_to_fp %{{.*}} {rounding = #tessera<rounding rtz>} : tensor<64xf32> -> tensor<64xf8E4M3FN>
  %4 = tessera.fp_to_fp %x {rounding = #tessera<rounding rtz>} : tensor<64xf32> -> tensor<64xf8E4M3FN>
  // CHECK: tessera.fp_to_fp %{{.*}} : tensor<64xf16> -> tensor<64xf32>
  %5 = tessera.fp_to_fp %h : tensor<64xf16> -> tensor<64xf32>
  // CHECK: tessera.clampf %{{.*}}, %{{.*}}, %{{.*}}, all : tensor<64xf32>
  %6 = tessera.clampf %x, %y, %y, all : tensor<64xf32>
  // CHECK: tessera.mulhiui %{{.*}}, %{{.*}} : tensor<64xi32>
  %7 = tessera.mulhiui %i, %i : tensor<64xi32>
  return
}

// CHECK-LABEL: func @hints_and_debug
func.func @hints_and_debug(%c: i1, %i: tensor<64xi32>, %m: tensor<64xi1>, %s: i32) {
  // CHECK: tessera.assume %{{.*}}
  tessera.assume %c
  // CHECK: tessera.hint %{{.*}} {contiguity = array<i64: 64>, divisibility = array<i64: 16>} : tensor<64xi32>
  %0 = tessera.hint %i {divisibility = array<i64: 16>, contiguity = array<i64: 64>} : tensor<64xi32>
  // CHECK: tessera.print "x: " {hex = false, isSigned = array<i32: 1, 1>} : %{{.*}}, %{{.*}} : tensor<64xi32>, i32
  tessera.print "x: " {hex = false, isSigned = array<i32: 1, 1>} : %0, %s : tensor<64xi32>, i32
  // CHECK: tessera.print "" {hex = true, isSigned = array<i32>}
  tessera.print "" {hex = true, isSigned = array<i32>}
  // CHECK: tessera.assert %{{.*}}, "x too big" {file = "k.py", function = "kern", line = 12 : i32} : tensor<64xi1>
  tessera.assert %m, "x too big" {file = "k.py", function = "kern", line = 12 : i32} : tensor<64xi1>
  // CHECK: tessera.debug_barrier
  tessera.debug_barrier
  return
}

// Kernel functions call device functions with MLIR's func dialect.
// CHECK-LABEL: func private @callee
func.func private @callee(%x: i32) -> i32 {
  return %x : i32
}
// CHECK-LABEL: func @caller
func.func @caller(%x: i32 {tessera.divisibility = 16 : i32}) -> i32 attributes {tessera.kernel} {
  // CHECK: call @callee
  %0 = func.call @callee(%x) : (i32) -> i32
  return %0 : i32
}
