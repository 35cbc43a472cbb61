// RUN: tessera-cpu-opt %s --split-input-file --tessera-cpu-legalize-floats | FileCheck %s --check-prefix=FLOATS
// RUN: tessera-cpu-opt %s --split-input-file --tessera-cpu-legalize-floats --convert-scf-to-cf --tessera-cpu-convert-to-llvm | FileCheck %s --check-prefix=LLVM

// fp8 arithmetic computes in f32; fp8 values decode to f32 inline: the
// magnitude's fields shifted into f32's and rebiased (E5M2: by (127 - 15) << 23
// = 939524096), subnormals as the magnitude times 2^-16, magnitude 0x7C (124)
// infinity and above it NaN, the sign moved to bit 31. f32 results round
// to fp8 inline too: f32's exponent and mantissa fields rounded to two
// mantissa bits (nearest even: + 0xFFFFF + the lowest kept bit, then >> 21)
// and rebiased by (127 - 15) << 2 = 448, subnormals scaled and rounded to an
// integer, codes above 0x7B (123) overflowing to +-infinity (124 / 252),
// infinities to infinities, NaN to NaN.
// FLOATS-LABEL: func @fp8
// FLOATS-SAME: (%[[A:.*]]: f8E5M2, %[[B:.*]]: f8E5M2)
// FLOATS-DAG: %[[INF:.*]] = arith.constant 0x7F800000 : f32
// FLOATS-DAG: %[[NAN:.*]] = arith.constant 0x7FC00000 : f32
// FLOATS-DAG: %[[UNIT:.*]] = arith.constant 1.52587891E-5 : f32
// FLOATS-DAG: %[[C124:.*]] = arith.constant 124 : i32
// FLOATS: %[[BB:.*]] = arith.bitcast %[[B]] : f8E5M2 to i8
// FLOATS: %[[BW:.*]] = arith.extui %[[BB]] : i8 to i32
// FLOATS: %[[MAG:.*]] = arith.andi %[[BW]], %c127_i32
// FLOATS: %[[SH:.*]] = arith.shli %[[MAG]], %c21_i32
// FLOATS: %[[RB:.*]] = arith.addi %[[SH]], %c939524096_i32
// FLOATS: %[[NORMAL:.*]] = arith.bitcast %[[RB]] : i32 to f32
// FLOATS: %[[MF:.*]] = arith.uitofp %[[MAG]] : i32 to f32
// FLOATS: %[[SUB:.*]] = arith.mulf %[[MF]], %[[UNIT]] : f32
// FLOATS: %[[ISSUB:.*]] = arith.cmpi ult, %[[MAG]], %c4_i32
// FLOATS: %[[FIN:.*]] = arith.select %[[ISSUB]], %[[SUB]], %[[NORMAL]] : f32
// FLOATS: %[[ISINF:.*]] = arith.cmpi eq, %[[MAG]], %[[C124]]
// FLOATS: %[[SPECIAL:.*]] = arith.select %[[ISINF]], %[[INF]], %[[NAN]] : f32
// FLOATS: %[[NONFIN:.*]] = arith.cmpi uge, %[[MAG]], %[[C124]]
// FLOATS: %[[ABS:.*]] = arith.select %[[NONFIN]], %[[SPECIAL]], %[[FIN]] : f32
// FLOATS: %[[SB:.*]] = arith.andi %[[BW]], %c128_i32
// FLOATS: %[[SIGN:.*]] = arith.shli %[[SB]], %c24_i32
// FLOATS: %[[AI:.*]] = arith.bitcast %[[ABS]] : f32 to i32
// FLOATS: %[[SI:.*]] = arith.ori %[[AI]], %[[SIGN]] : i32
// FLOATS: %[[BF:.*]] = arith.bitcast %[[SI]] : i32 to f32
// FLOATS: arith.bitcast %[[A]] : f8E5M2 to i8
// FLOATS: %[[S:.*]] = arith.addf {{%[0-9]+}}, %[[BF]] : f32
// FLOATS-NOT: call
// FLOATS: %[[SBITS:.*]] = arith.bitcast %[[S]] : f32 to i32
// FLOATS: %[[SMAG:.*]] = arith.andi %[[SBITS]], %c2147483647_i32
// FLOATS: %[[NEG:.*]] = arith.cmpi slt, %[[SBITS]], %c0_i32
// FLOATS: %[[LOW:.*]] = arith.shrui %[[SMAG]], %c21_i32
// FLOATS: %[[ODD:.*]] = arith.andi %[[LOW]], %c1_i32
// FLOATS: %[[HALF:.*]] = arith.addi %[[SMAG]], %c1048575_i32
// FLOATS: %[[RND:.*]] = arith.addi %[[HALF]], %[[ODD]]
// FLOATS: %[[KEPT:.*]] = arith.shrui %[[RND]], %c21_i32
// FLOATS: %[[NORM:.*]] = arith.subi %[[KEPT]], %c448_i32
// FLOATS: math.roundeven
// FLOATS: %[[CODE:.*]] = arith.select %{{.*}}, %{{.*}}, %[[NORM]] : i32
// FLOATS: %[[ISOVF:.*]] = arith.cmpi ugt, %[[CODE]], %c123_i32
// FLOATS: %[[OVF:.*]] = arith.select %[[NEG]], %c252_i32{{.*}}, %c124_i32
// FLOATS: arith.select %[[ISOVF]], %[[OVF]], %{{.*}} : i32
// FLOATS: arith.cmpi ugt, %[[SMAG]], %c2139095040_i32
// FLOATS: %[[Q:.*]] = arith.trunci %{{.*}} : i32 to i8
// FLOATS: %[[R:.*]] = arith.bitcast %[[Q]] : i8 to f8E5M2
// To f16: decoded to f32, then narrowed (exactly).
// FLOATS: arith.bitcast %[[R]] : f8E5M2 to i8
// FLOATS: arith.truncf %{{.*}} : f32 to f16
// FLOATS-NOT: arith.addf {{.*}} : f8E5M2
func.func @fp8(%a: f8E5M2, %b: f8E5M2) -> (f8E5M2, f16) {
  %s = arith.addf %a, %b : f8E5M2
  %h = arith.extf %s : f8E5M2 to f16
  return %s, %h : f8E5M2, f16
}

// -----

// From f64 the runtime's converter rounds, once (through f32 it would round
// twice): format 0 is E4M3FN, mode 0 to nearest even.
// FLOATS-LABEL: func @fp8_from_f64
// FLOATS: call @__tessera_cpu_to_fp8(%arg0, %c0_i32{{.*}}, %c0_i32{{.*}}) : (f64, i32, i32) -> i8
func.func @fp8_from_f64(%x: f64) -> f8E4M3FN {
  %r = arith.truncf %x : f64 to f8E4M3FN
  return %r : f8E4M3FN
}

// -----

// A `fnuz` format has no infinity or NaN among its magnitudes; its negative
// zero's place, 0x80, is NaN (E4M3FNUZ: bias 8).
// FLOATS-LABEL: func @fp8_fnuz
// FLOATS-DAG: %[[NAN:.*]] = arith.constant 0x7FC00000 : f32
// FLOATS-DAG: %[[C128:.*]] = arith.constant 128 : i32
// FLOATS: %[[BW:.*]] = arith.extui %{{.*}} : i8 to i32
// FLOATS: arith.addi %{{.*}}, %c998244352_i32
// FLOATS-NOT: arith.cmpi uge
// FLOATS: %[[SI:.*]] = arith.ori
// FLOATS: %[[V:.*]] = arith.bitcast %[[SI]] : i32 to f32
// FLOATS: %[[NEGZERO:.*]] = arith.cmpi eq, %[[BW]], %[[C128]]
// FLOATS: %[[R:.*]] = arith.select %[[NEGZERO]], %[[NAN]], %[[V]] : f32
// FLOATS: return %[[R]]
func.func @fp8_fnuz(%a: f8E4M3FNUZ) -> f32 {
  %w = arith.extf %a : f8E4M3FNUZ to f32
  return %w : f32
}

// -----

// Math on 16-bit floats computes in f32, fma in f64 (so that it rounds once).
// FLOATS-LABEL: func @narrow_math
// FLOATS: %[[W:.*]] = arith.extf %{{.*}} : f16 to f32
// FLOATS: %[[E:.*]] = math.exp %[[W]] : f32
// FLOATS: arith.truncf %[[E]] : f32 to f16
// FLOATS: math.fma %{{.*}}, %{{.*}}, %{{.*}} : f64
// FLOATS: arith.truncf %{{.*}} : f64 to bf16
// FLOATS: math.exp %{{.*}} : f32
// Everything but the entries is internal.
// LLVM-LABEL: llvm.func internal @narrow_math
// LLVM: llvm.intr.exp(%{{.*}}) : (f32) -> f32
// LLVM: llvm.intr.fma
// math functions without an LLVM intrinsic call libm.
// LLVM: llvm.call @erff(%{{.*}}) : (f32) -> f32
func.func @narrow_math(%h: f16, %b: bf16, %x: f32) -> (f16, bf16, f32, f32) {
  %0 = math.exp %h : f16
  %1 = math.fma %b, %b, %b : bf16
  %2 = math.exp %x : f32
  %3 = math.erf %x : f32
  return %0, %1, %2, %3 : f16, bf16, f32, f32
}

// -----

// Kernels become internal and always inline into their entry, the only
// exported function.
// LLVM-LABEL: llvm.func internal @kernel
// LLVM-SAME: always_inline
// LLVM-LABEL: llvm.func @kernel_cpu_entry
// LLVM-NOT: internal
// LLVM: llvm.call @kernel
func.func private @kernel(%x: i32) attributes {tessera.kernel, tessera.signature_types = ["i32"]} {
  return
}
func.func @kernel_cpu_entry(%x: i32) attributes {tessera.entry_of = "kernel", tessera.signature_types = ["i32"]} {
  call @kernel(%x) : (i32) -> ()
  return
}
