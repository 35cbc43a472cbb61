// RUN: tessera-cpu-opt %s --split-input-file --tessera-cpu-to-structured | FileCheck %s
// Elementwise ops on tensors become one linalg.generic applying the scalar
// op; tessera's scalar ops become arith, math and calls.

// CHECK-LABEL: func @arith_on_tensors
// CHECK-SAME: (%[[A:.*]]: tensor<8xf32>, %[[B:.*]]: tensor<8xf32>)
// The operand of the result's type is the destination (updated in place).
// CHECK: %[[G:.*]] = linalg.generic {{.*}} ins(%[[B]] : tensor<8xf32>) outs(%[[A]] : tensor<8xf32>)
// CHECK: ^bb0(%[[IN:.*]]: f32, %[[OUT:.*]]: f32):
// CHECK: %[[S:.*]] = arith.addf %[[OUT]], %[[IN]] : f32
// CHECK: linalg.yield %[[S]]
// A result of another type goes to a fresh tensor.
// CHECK: %[[E:.*]] = tensor.empty() : tensor<8xi1>
// CHECK: linalg.generic {{.*}} ins(%[[G]], %[[B]] : tensor<8xf32>, tensor<8xf32>) outs(%[[E]] : tensor<8xi1>)
// CHECK: arith.cmpf olt
// CHECK-NOT: arith.addf {{.*}} : tensor
func.func @arith_on_tensors(%a: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<8xi1> {
  %s = arith.addf %a, %b : tensor<8xf32>
  %c = arith.cmpf olt, %s, %b : tensor<8xf32>
  return %c : tensor<8xi1>
}

// -----

// A scalar operand is used inside the body as it is.
// CHECK-LABEL: func @select_scalar_condition
// CHECK-SAME: (%[[C:.*]]: i1, %[[A:.*]]: tensor<4xi32>, %[[B:.*]]: tensor<4xi32>)
// CHECK: linalg.generic {{.*}} ins(%[[B]] : tensor<4xi32>) outs(%[[A]] : tensor<4xi32>)
// CHECK: arith.select %[[C]], %{{.*}}, %{{.*}} : i32
func.func @select_scalar_condition(%c: i1, %a: tensor<4xi32>, %b: tensor<4xi32>) -> tensor<4xi32> {
  %r = arith.select %c, %a, %b : tensor<4xi32>
  return %r : tensor<4xi32>
}

// -----

// CHECK: #[[$B:.*]] = affine_map<(d0, d1) -> (0, d1)>
// CHECK-LABEL: func @blocks
// make_range: the loop index plus the start.
// CHECK: linalg.generic
// CHECK: %[[I:.*]] = linalg.index 0 : index
// CHECK: %[[I32:.*]] = arith.index_cast %[[I]] : index to i32
// CHECK: arith.addi %[[I32]], %{{.*}} : i32
// splat: a fill.
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<4x8xf32>)
// broadcast: size-1 dimensions are read at index 0.
// CHECK: linalg.generic {indexing_maps = [#[[$B]], #{{.*}}], iterator_types = ["parallel", "parallel"]} ins(%{{.*}} : tensor<1x8xf32>) outs(%{{.*}} : tensor<4x8xf32>)
// Splat constants become fills; others lose their layout, and layout
// conversions are the identity.
// CHECK: linalg.fill ins(%{{.*}} : i32) outs(%{{.*}} : tensor<16xi32>)
// CHECK: %[[D:.*]] = arith.constant dense<[1, 2]> : tensor<2xi32>
// CHECK: return {{.*}}, %[[D]] :
// CHECK-NOT: tessera_gpu
#b2 = #tessera_gpu.blocked<sizePerThread = [2], threadsPerWarp = [1], warpsPerCTA = [1], order = [0]>
#b1 = #tessera_gpu.blocked<sizePerThread = [1], threadsPerWarp = [1], warpsPerCTA = [1], order = [0]>
func.func @blocks(%s: f32, %t: tensor<1x8xf32>) -> (tensor<16xi32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<16xi32>, tensor<2xi32, #b1>) {
  %r = tessera.make_range {start = 32 : i32, end = 48 : i32} : tensor<16xi32>
  %f = tessera.splat %s : tensor<4x8xf32>
  %b = tessera.broadcast %t : tensor<1x8xf32> -> tensor<4x8xf32>
  %c = arith.constant dense<7> : tensor<16xi32>
  %d = arith.constant dense<[1, 2]> : tensor<2xi32, #b2>
  %dd = tessera_gpu.convert_layout %d : tensor<2xi32, #b2> -> tensor<2xi32, #b1>
  return %r, %f, %b, %c, %dd : tensor<16xi32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<16xi32>, tensor<2xi32, #b1>
}

// -----

// Pointers are i64 addresses: addptr scales the sign-extended offset by the
// pointee's size; pointer casts are the identity.
// CHECK-LABEL: func @pointers
// CHECK-SAME: (%[[P:.*]]: i64, %[[O:.*]]: tensor<4xi32>, %[[Q:.*]]: i64, %[[N:.*]]: i64)
// CHECK: %[[F:.*]] = linalg.fill ins(%[[P]] : i64) outs(%{{.*}} : tensor<4xi64>)
// CHECK: linalg.generic {{.*}} ins(%[[O]] : tensor<4xi32>) outs(%[[F]] : tensor<4xi64>)
// CHECK: ^bb0(%[[IN:.*]]: i32, %[[OUT:.*]]: i64):
// CHECK: %[[X:.*]] = arith.extsi %[[IN]] : i32 to i64
// CHECK: %[[M:.*]] = arith.muli %[[X]], %c2_i64
// CHECK: arith.addi %[[OUT]], %[[M]]
// Scalars: no generic; a pointer to pointers steps by 8 bytes.
// CHECK: %[[S:.*]] = arith.muli %[[N]], %c8_i64
// CHECK: %[[R:.*]] = arith.addi %[[Q]], %[[S]]
// CHECK: return %{{.*}}, %[[R]], %[[R]] : tensor<4xi64>, i64, i64
func.func @pointers(%p: !tessera.ptr<f16>, %o: tensor<4xi32>, %q: !tessera.ptr<!tessera.ptr<f32>>, %n: i64) -> (tensor<4x!tessera.ptr<f16>>, !tessera.ptr<!tessera.ptr<f32>>, i64) {
  %s = tessera.splat %p : tensor<4x!tessera.ptr<f16>>
  %a = tessera.addptr %s, %o : tensor<4x!tessera.ptr<f16>>, tensor<4xi32>
  %b = tessera.addptr %q, %n : !tessera.ptr<!tessera.ptr<f32>>, i64
  %i = tessera.ptr_to_int %b : !tessera.ptr<!tessera.ptr<f32>> -> i64
  %c = tessera.int_to_ptr %i : i64 -> !tessera.ptr<!tessera.ptr<f32>>
  return %a, %c, %i : tensor<4x!tessera.ptr<f16>>, !tessera.ptr<!tessera.ptr<f32>>, i64
}

// -----

// CHECK-LABEL: func @special_scalars
// mulhiui: the high half of the double-width product.
// CHECK: %[[X:.*]] = arith.extui %{{.*}} : i32 to i64
// CHECK: %[[Y:.*]] = arith.extui %{{.*}} : i32 to i64
// CHECK: %[[P:.*]] = arith.muli %[[X]], %[[Y]] : i64
// CHECK: %[[H:.*]] = arith.shrui %[[P]], %c32_i64 : i64
// CHECK: arith.trunci %[[H]] : i64 to i32
// clampf propagating NaNs: maximumf then minimumf; otherwise the num forms.
// CHECK: %[[MX:.*]] = arith.maximumf %{{.*}}, %{{.*}} : f32
// CHECK: arith.minimumf %[[MX]], %{{.*}} : f32
// CHECK: %[[MN:.*]] = arith.maxnumf %{{.*}}, %{{.*}} : f32
// CHECK: arith.minnumf %[[MN]], %{{.*}} : f32
// CHECK: math.sqrt %{{.*}} : f32
// CHECK: arith.divf %{{.*}}, %{{.*}} : f32
// CHECK: arith.bitcast %{{.*}} : i32 to f32
func.func @special_scalars(%i: i32, %j: i32, %x: f32, %lo: f32, %hi: f32) -> (i32, f32, f32, f32, f32, f32) {
  %h = tessera.mulhiui %i, %j : i32
  %c = tessera.clampf %x, %lo, %hi, all : f32
  %d = tessera.clampf %x, %lo, %hi, none : f32
  %s = tessera.precise_sqrt %x : f32
  %q = tessera.precise_divf %x, %lo : f32
  %b = tessera.bitcast %i : i32 -> f32
  return %h, %c, %d, %s, %q, %b : i32, f32, f32, f32, f32, f32
}

// -----

// fp_to_fp: extensions are exact; rounding to nearest even is truncf;
// towards zero steps the rounded value back when it grew in magnitude;
// fp8 rounds inline (towards zero to E4M3FN: f32's fields truncated to
// three mantissa bits, >> 20, rebiased by (127 - 7) << 3 = 960, subnormals
// truncated, codes above 0x7E (126) saturating to +-448 (126 / 254)).
// CHECK-NOT: @__tessera_cpu_to_fp8
// CHECK-LABEL: func @conversions
// CHECK: arith.extf %{{.*}} : f16 to f32
// CHECK: arith.truncf %{{.*}} : f32 to f16
// CHECK: %[[R:.*]] = arith.truncf %[[X:.*]] : f32 to bf16
// CHECK: %[[B:.*]] = arith.extf %[[R]] : bf16 to f32
// CHECK: %[[AB:.*]] = math.absf %[[B]]
// CHECK: %[[AX:.*]] = math.absf %[[X]]
// CHECK: %[[AWAY:.*]] = arith.cmpf ogt, %[[AB]], %[[AX]]
// CHECK: %[[BITS:.*]] = arith.bitcast %[[R]] : bf16 to i16
// CHECK: %[[DOWN:.*]] = arith.subi %[[BITS]], %c1_i16
// CHECK: %[[STEP:.*]] = arith.bitcast %[[DOWN]] : i16 to bf16
// CHECK: arith.select %[[AWAY]], %[[STEP]], %[[R]] : bf16
// CHECK: %[[XB:.*]] = arith.bitcast %[[X]] : f32 to i32
// CHECK: %[[XMAG:.*]] = arith.andi %[[XB]], %c2147483647_i32
// CHECK: %[[NEG:.*]] = arith.cmpi slt, %[[XB]], %c0_i32
// CHECK: %[[KEPT:.*]] = arith.shrui %[[XMAG]], %c20_i32
// CHECK: %[[NORM:.*]] = arith.subi %[[KEPT]], %c960_i32
// CHECK: math.trunc
// CHECK: %[[CODE:.*]] = arith.select %{{.*}}, %{{.*}}, %[[NORM]] : i32
// CHECK: %[[OVF:.*]] = arith.cmpi ugt, %[[CODE]], %c126_i32
// CHECK: %[[SAT:.*]] = arith.select %[[NEG]], %c254_i32{{.*}}, %c126_i32
// CHECK: arith.select %[[OVF]], %[[SAT]], %{{.*}} : i32
// CHECK: %[[Q:.*]] = arith.trunci %{{.*}} : i32 to i8
// CHECK: arith.bitcast %[[Q]] : i8 to f8E4M3FN
// f16 <-> bf16 goes through f32.
// CHECK: %[[W:.*]] = arith.extf %{{.*}} : f16 to f32
// CHECK: arith.truncf %[[W]] : f32 to bf16
func.func @conversions(%h: f16, %x: f32) -> (f32, f16, bf16, f8E4M3FN, bf16) {
  %0 = tessera.fp_to_fp %h : f16 -> f32
  %1 = tessera.fp_to_fp %x {rounding = #tessera<rounding rtne>} : f32 -> f16
  %2 = tessera.fp_to_fp %x {rounding = #tessera<rounding rtz>} : f32 -> bf16
  %3 = tessera.fp_to_fp %x {rounding = #tessera<rounding rtz>} : f32 -> f8E4M3FN
  %4 = tessera.fp_to_fp %h {rounding = #tessera<rounding rtne>} : f16 -> bf16
  return %0, %1, %2, %3, %4 : f32, f16, bf16, f8E4M3FN, bf16
}

// -----

// Math-library calls go to libm by their C names; f16 computes in f32.
// CHECK-DAG: func.func private @asinf(f32) -> f32
// CHECK-DAG: func.func private @powf(f32, f32) -> f32
// CHECK-DAG: func.func private @atan2(f64, f64) -> f64
// CHECK-LABEL: func @extern_calls
// CHECK: linalg.generic
// CHECK: call @asinf(%{{.*}}) : (f32) -> f32
// CHECK: %[[W:.*]] = arith.extf %{{.*}} : f16 to f32
// CHECK: %[[R:.*]] = call @powf(%[[W]], %{{.*}}) : (f32, f32) -> f32
// CHECK: arith.truncf %[[R]] : f32 to f16
// CHECK: call @atan2(%{{.*}}, %{{.*}}) : (f64, f64) -> f64
// An impure call keeps its order: a loop nest instead of a generic.
// CHECK: scf.for
// CHECK: call @erff
func.func @extern_calls(%x: tensor<8xf32>, %h: f16, %d: f64) -> (tensor<8xf32>, f16, f64, tensor<8xf32>) {
  %0 = tessera.extern_elementwise %x {libname = "", libpath = "", symbol = "asin", pure = true} : (tensor<8xf32>) -> tensor<8xf32>
  %1 = tessera.extern_elementwise %h, %h {libname = "libdevice", libpath = "", symbol = "__tessera_powf", pure = true} : (f16, f16) -> f16
  %2 = tessera.extern_elementwise %d, %d {libname = "", libpath = "", symbol = "atan2f", pure = true} : (f64, f64) -> f64
  %3 = tessera.extern_elementwise %x {libname = "", libpath = "", symbol = "erf", pure = false} : (tensor<8xf32>) -> tensor<8xf32>
  return %0, %1, %2, %3 : tensor<8xf32>, f16, f64, tensor<8xf32>
}

// -----

// libdevice functions libm lacks are computed inline: round-to-nearest
// arithmetic, predicates returning i32, conversions with nearest-even or
// truncating rounding; `fast_` approximations call the precise libm function.
// CHECK-LABEL: func @inline_math
// CHECK: math.rsqrt %{{.*}} : f32
// CHECK: %[[NAN:.*]] = arith.cmpf uno, %{{.*}}, %{{.*}} : f32
// CHECK: arith.extui %[[NAN]] : i1 to i32
// CHECK: %[[ABS:.*]] = math.absf %{{.*}} : f64
// CHECK: arith.cmpf olt, %[[ABS]], %{{.*}} : f64
// CHECK: arith.divf %{{.*}}, %{{.*}} : f32
// CHECK: %[[EVEN:.*]] = math.roundeven %{{.*}} : f32
// CHECK: arith.fptosi %[[EVEN]] : f32 to i32
// CHECK: arith.fptoui %{{.*}} : f64 to i64
// CHECK: arith.sitofp %{{.*}} : i64 to f32
// CHECK: call @expf
func.func @inline_math(%x: f32, %d: f64, %l: i64) -> (f32, i32, i32, f32, i32, i64, f32, f32) {
  %0 = tessera.extern_elementwise %x {libname = "libdevice", libpath = "", symbol = "__tessera_rsqrt_fp32", pure = true} : (f32) -> f32
  %1 = tessera.extern_elementwise %x {libname = "libdevice", libpath = "", symbol = "__tessera_isnan_fp32", pure = true} : (f32) -> i32
  %2 = tessera.extern_elementwise %d {libname = "libdevice", libpath = "", symbol = "isfinited", pure = true} : (f64) -> i32
  %3 = tessera.extern_elementwise %x, %x {libname = "libdevice", libpath = "", symbol = "__tessera_div_rn_fp32", pure = true} : (f32, f32) -> f32
  %4 = tessera.extern_elementwise %x {libname = "libdevice", libpath = "", symbol = "float2int_rn", pure = true} : (f32) -> i32
  %5 = tessera.extern_elementwise %d {libname = "libdevice", libpath = "", symbol = "double2ull_rz", pure = true} : (f64) -> i64
  %6 = tessera.extern_elementwise %l {libname = "libdevice", libpath = "", symbol = "ll2float_rn", pure = true} : (i64) -> f32
  %7 = tessera.extern_elementwise %x {libname = "libdevice", libpath = "", symbol = "fast_expf", pure = true} : (f32) -> f32
  return %0, %1, %2, %3, %4, %5, %6, %7 : f32, i32, i32, f32, i32, i64, f32, f32
}

// -----

// Directed fp32 division is computed in fp64 and rounded to fp32 toward
// zero: nearest-even, then one step (the bit pattern minus one) where that
// rounded away from zero. pow with an int32 exponent computes in fp64.
// CHECK-LABEL: func @directed_and_powi
// CHECK-DAG: %[[A:.*]] = arith.extf %{{.*}} : f32 to f64
// CHECK-DAG: %[[B:.*]] = arith.extf %{{.*}} : f32 to f64
// CHECK: %[[Q:.*]] = arith.divf %[[A]], %[[B]] : f64
// CHECK: %[[R:.*]] = arith.truncf %[[Q]] : f64 to f32
// CHECK: %[[BACK:.*]] = arith.extf %[[R]] : f32 to f64
// CHECK: %[[ABSB:.*]] = math.absf %[[BACK]] : f64
// CHECK: %[[ABSQ:.*]] = math.absf %[[Q]] : f64
// CHECK: %[[AWAY:.*]] = arith.cmpf ogt, %[[ABSB]], %[[ABSQ]] : f64
// CHECK: %[[BITS:.*]] = arith.bitcast %[[R]] : f32 to i32
// CHECK: %[[MINUS:.*]] = arith.subi %[[BITS]], %{{.*}} : i32
// CHECK: %[[STEP:.*]] = arith.bitcast %[[MINUS]] : i32 to f32
// CHECK: arith.select %[[AWAY]], %[[STEP]], %[[R]] : f32
// CHECK: %[[N:.*]] = arith.sitofp %{{.*}} : i32 to f64
// CHECK: %[[P:.*]] = math.powf %{{.*}}, %[[N]] : f64
// CHECK: arith.truncf %[[P]] : f64 to f32
func.func @directed_and_powi(%x: f32, %y: f32, %n: i32) -> (f32, f32) {
  %0 = tessera.extern_elementwise %x, %y {libname = "libdevice", libpath = "", symbol = "__tessera_div_rz_fp32_fp32", pure = true} : (f32, f32) -> f32
  %1 = tessera.extern_elementwise %x, %n {libname = "libdevice", libpath = "", symbol = "__tessera_pow_fp32_i32", pure = true} : (f32, i32) -> f32
  return %0, %1 : f32, f32
}

// -----

// A poison tensor is an uninitialized one.
// CHECK-LABEL: func @poison
// CHECK: %[[E:.*]] = tensor.empty() : tensor<4xf32>
// CHECK: return %[[E]]
func.func @poison() -> tensor<4xf32, #tessera_gpu.blocked<sizePerThread = [4], threadsPerWarp = [1], warpsPerCTA = [1], order = [0]>> {
  %p = ub.poison : tensor<4xf32, #tessera_gpu.blocked<sizePerThread = [4], threadsPerWarp = [1], warpsPerCTA = [1], order = [0]>>
  return %p : tensor<4xf32, #tessera_gpu.blocked<sizePerThread = [4], threadsPerWarp = [1], warpsPerCTA = [1], order = [0]>>
}

// -----

// A select of two scalar pointers (tl.where on pointers) selects their
// addresses, which are i64 on the CPU.
// CHECK-LABEL: func @select_pointers
// CHECK-SAME: (%[[C:.*]]: i1, %[[A:.*]]: i64, %[[B:.*]]: i64)
// CHECK: %[[P:.*]] = arith.select %[[C]], %[[A]], %[[B]] : i64
// CHECK: llvm.inttoptr %[[P]]
func.func @select_pointers(%c: i1, %a: !tessera.ptr<f32>, %b: !tessera.ptr<f32>) -> f32 {
  %p = arith.select %c, %a, %b : !tessera.ptr<f32>
  %v = tessera.load %p : !tessera.ptr<f32>
  return %v : f32
}
