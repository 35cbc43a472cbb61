//===- Kernels.h - tessera IR of the end-to-end test kernels ----*- C++ -*-===//
//
// Kernels written as the frontend lowers Triton code to the tessera dialect,
// shared by the end-to-end and determinism tests.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_BACKENDS_CPU_UNITTESTS_KERNELS_H
#define TESSERA_BACKENDS_CPU_UNITTESTS_KERNELS_H

namespace mlir::tessera::cpu::test {

/// y[i] = x[i] + z[i] for i < n, BLOCK = 64 (tutorial 01).
inline constexpr const char *kVectorAdd = R"mlir(
func.func @add_kernel(%x: !tessera.ptr<f32>, %y: !tessera.ptr<f32>, %o: !tessera.ptr<f32>, %n: i32) attributes {tessera.kernel} {
  %pid = tessera.program_id x : i32
  %c64 = arith.constant 64 : i32
  %start = arith.muli %pid, %c64 : i32
  %r = tessera.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  %s = tessera.splat %start : tensor<64xi32>
  %off = arith.addi %s, %r : tensor<64xi32>
  %ns = tessera.splat %n : tensor<64xi32>
  %mask = arith.cmpi slt, %off, %ns : tensor<64xi32>
  %xp = tessera.splat %x : tensor<64x!tessera.ptr<f32>>
  %xa = tessera.addptr %xp, %off : tensor<64x!tessera.ptr<f32>>, tensor<64xi32>
  %xv = tessera.load %xa, %mask : tensor<64x!tessera.ptr<f32>>
  %yp = tessera.splat %y : tensor<64x!tessera.ptr<f32>>
  %ya = tessera.addptr %yp, %off : tensor<64x!tessera.ptr<f32>>, tensor<64xi32>
  %yv = tessera.load %ya, %mask : tensor<64x!tessera.ptr<f32>>
  %sum = arith.addf %xv, %yv : tensor<64xf32>
  %op = tessera.splat %o : tensor<64x!tessera.ptr<f32>>
  %oa = tessera.addptr %op, %off : tensor<64x!tessera.ptr<f32>>, tensor<64xi32>
  tessera.store %oa, %sum, %mask : tensor<64x!tessera.ptr<f32>>
  return
}
)mlir";

/// One row per program: max, exp, sum, divide; columns < 64, masked with
/// -inf (tutorial 02).
inline constexpr const char *kSoftmax = R"mlir(
func.func @softmax_kernel(%out: !tessera.ptr<f32>, %in: !tessera.ptr<f32>, %in_stride: i32, %out_stride: i32, %n_cols: i32) attributes {tessera.kernel} {
  %row = tessera.program_id x : i32
  %in_off = arith.muli %row, %in_stride : i32
  %in_row = tessera.addptr %in, %in_off : !tessera.ptr<f32>, i32
  %cols = tessera.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  %in_s = tessera.splat %in_row : tensor<64x!tessera.ptr<f32>>
  %in_p = tessera.addptr %in_s, %cols : tensor<64x!tessera.ptr<f32>>, tensor<64xi32>
  %n_s = tessera.splat %n_cols : tensor<64xi32>
  %mask = arith.cmpi slt, %cols, %n_s : tensor<64xi32>
  %ninf = arith.constant 0xFF800000 : f32
  %other = tessera.splat %ninf : tensor<64xf32>
  %x = tessera.load %in_p, %mask, %other : tensor<64x!tessera.ptr<f32>>
  %mx = tessera.reduce(%x) {axis = 0 : i32} : (tensor<64xf32>) -> f32 {
  ^bb0(%a: f32, %b: f32):
    %m = arith.maxnumf %a, %b : f32
    tessera.reduce.return %m : f32
  }
  %mx_s = tessera.splat %mx : tensor<64xf32>
  %z = arith.subf %x, %mx_s : tensor<64xf32>
  %num = math.exp %z : tensor<64xf32>
  %den = tessera.reduce(%num) {axis = 0 : i32} : (tensor<64xf32>) -> f32 {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    tessera.reduce.return %s : f32
  }
  %den_s = tessera.splat %den : tensor<64xf32>
  %y = arith.divf %num, %den_s : tensor<64xf32>
  %out_off = arith.muli %row, %out_stride : i32
  %out_row = tessera.addptr %out, %out_off : !tessera.ptr<f32>, i32
  %out_s = tessera.splat %out_row : tensor<64x!tessera.ptr<f32>>
  %out_p = tessera.addptr %out_s, %cols : tensor<64x!tessera.ptr<f32>>, tensor<64xi32>
  tessera.store %out_p, %y, %mask : tensor<64x!tessera.ptr<f32>>
  return
}
)mlir";

/// C (fp32) = A (fp16, MxK) * B (fp16, KxN) in 16x16 tiles, one tile per
/// program, K in steps of 16 with masks (tutorial 03).
inline constexpr const char *kMatmul = R"mlir(
func.func @matmul_kernel(%a: !tessera.ptr<f16>, %b: !tessera.ptr<f16>, %c: !tessera.ptr<f32>, %M: i32, %N: i32, %K: i32, %sa: i32, %sb: i32, %sc: i32) attributes {tessera.kernel} {
  %pid = tessera.program_id x : i32
  %c16 = arith.constant 16 : i32
  %c15 = arith.constant 15 : i32
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %np = arith.addi %N, %c15 : i32
  %num_n = arith.divsi %np, %c16 : i32
  %pm = arith.divsi %pid, %num_n : i32
  %pn = arith.remsi %pid, %num_n : i32
  %r = tessera.make_range {start = 0 : i32, end = 16 : i32} : tensor<16xi32>
  %m0 = arith.muli %pm, %c16 : i32
  %n0 = arith.muli %pn, %c16 : i32
  %m0s = tessera.splat %m0 : tensor<16xi32>
  %n0s = tessera.splat %n0 : tensor<16xi32>
  %rm = arith.addi %m0s, %r : tensor<16xi32>
  %rn = arith.addi %n0s, %r : tensor<16xi32>
  // a_ptrs = a + rm[:, None] * sa + rk[None, :]
  %rm2 = tessera.expand_dims %rm {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
  %sas = tessera.splat %sa : tensor<16x1xi32>
  %arow = arith.muli %rm2, %sas : tensor<16x1xi32>
  %arowb = tessera.broadcast %arow : tensor<16x1xi32> -> tensor<16x16xi32>
  %rk2 = tessera.expand_dims %r {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
  %rk2b = tessera.broadcast %rk2 : tensor<1x16xi32> -> tensor<16x16xi32>
  %aoff = arith.addi %arowb, %rk2b : tensor<16x16xi32>
  %as = tessera.splat %a : tensor<16x16x!tessera.ptr<f16>>
  %aptr0 = tessera.addptr %as, %aoff : tensor<16x16x!tessera.ptr<f16>>, tensor<16x16xi32>
  // b_ptrs = b + rk[:, None] * sb + rn[None, :]
  %rk1 = tessera.expand_dims %r {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
  %sbs = tessera.splat %sb : tensor<16x1xi32>
  %brow = arith.muli %rk1, %sbs : tensor<16x1xi32>
  %browb = tessera.broadcast %brow : tensor<16x1xi32> -> tensor<16x16xi32>
  %rn2 = tessera.expand_dims %rn {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
  %rn2b = tessera.broadcast %rn2 : tensor<1x16xi32> -> tensor<16x16xi32>
  %boff = arith.addi %browb, %rn2b : tensor<16x16xi32>
  %bs = tessera.splat %b : tensor<16x16x!tessera.ptr<f16>>
  %bptr0 = tessera.addptr %bs, %boff : tensor<16x16x!tessera.ptr<f16>>, tensor<16x16xi32>
  %zero = arith.constant 0.0 : f32
  %acc0 = tessera.splat %zero : tensor<16x16xf32>
  %hz = arith.constant 0.0 : f16
  %other = tessera.splat %hz : tensor<16x16xf16>
  %kp = arith.addi %K, %c15 : i32
  %kt = arith.divsi %kp, %c16 : i32
  %step_b = arith.muli %sb, %c16 : i32
  %stepa = tessera.splat %c16 : tensor<16x16xi32>
  %stepb = tessera.splat %step_b : tensor<16x16xi32>
  %res:3 = scf.for %k = %c0 to %kt step %c1 iter_args(%acc = %acc0, %ap = %aptr0, %bp = %bptr0) -> (tensor<16x16xf32>, tensor<16x16x!tessera.ptr<f16>>, tensor<16x16x!tessera.ptr<f16>>) : i32 {
    %kk = arith.muli %k, %c16 : i32
    %left = arith.subi %K, %kk : i32
    %lefts = tessera.splat %left : tensor<1x16xi32>
    %amask1 = arith.cmpi slt, %rk2, %lefts : tensor<1x16xi32>
    %amask = tessera.broadcast %amask1 : tensor<1x16xi1> -> tensor<16x16xi1>
    %leftc = tessera.splat %left : tensor<16x1xi32>
    %bmask1 = arith.cmpi slt, %rk1, %leftc : tensor<16x1xi32>
    %bmask = tessera.broadcast %bmask1 : tensor<16x1xi1> -> tensor<16x16xi1>
    %av = tessera.load %ap, %amask, %other : tensor<16x16x!tessera.ptr<f16>>
    %bv = tessera.load %bp, %bmask, %other : tensor<16x16x!tessera.ptr<f16>>
    %acc2 = tessera.dot %av, %bv, %acc : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
    %ap2 = tessera.addptr %ap, %stepa : tensor<16x16x!tessera.ptr<f16>>, tensor<16x16xi32>
    %bp2 = tessera.addptr %bp, %stepb : tensor<16x16x!tessera.ptr<f16>>, tensor<16x16xi32>
    scf.yield %acc2, %ap2, %bp2 : tensor<16x16xf32>, tensor<16x16x!tessera.ptr<f16>>, tensor<16x16x!tessera.ptr<f16>>
  }
  // c_ptrs = c + rm[:, None] * sc + rn[None, :]
  %scs = tessera.splat %sc : tensor<16x1xi32>
  %crow = arith.muli %rm2, %scs : tensor<16x1xi32>
  %crowb = tessera.broadcast %crow : tensor<16x1xi32> -> tensor<16x16xi32>
  %coff = arith.addi %crowb, %rn2b : tensor<16x16xi32>
  %cs = tessera.splat %c : tensor<16x16x!tessera.ptr<f32>>
  %cptr = tessera.addptr %cs, %coff : tensor<16x16x!tessera.ptr<f32>>, tensor<16x16xi32>
  %Ms = tessera.splat %M : tensor<16x1xi32>
  %mm1 = arith.cmpi slt, %rm2, %Ms : tensor<16x1xi32>
  %mm = tessera.broadcast %mm1 : tensor<16x1xi1> -> tensor<16x16xi1>
  %Ns = tessera.splat %N : tensor<1x16xi32>
  %nm1 = arith.cmpi slt, %rn2, %Ns : tensor<1x16xi32>
  %nm = tessera.broadcast %nm1 : tensor<1x16xi1> -> tensor<16x16xi1>
  %cmask = arith.andi %mm, %nm : tensor<16x16xi1>
  tessera.store %cptr, %res#0, %cmask : tensor<16x16x!tessera.ptr<f32>>
  return
}
)mlir";

/// Per row of 32 floats: the largest value and its first index, a reduce
/// of two operands.
inline constexpr const char *kArgmax = R"mlir(
func.func @argmax_kernel(%x: !tessera.ptr<f32>, %vals: !tessera.ptr<f32>, %idxs: !tessera.ptr<i32>) attributes {tessera.kernel} {
  %row = tessera.program_id x : i32
  %c32 = arith.constant 32 : i32
  %off0 = arith.muli %row, %c32 : i32
  %base = tessera.addptr %x, %off0 : !tessera.ptr<f32>, i32
  %r = tessera.make_range {start = 0 : i32, end = 32 : i32} : tensor<32xi32>
  %bs = tessera.splat %base : tensor<32x!tessera.ptr<f32>>
  %p = tessera.addptr %bs, %r : tensor<32x!tessera.ptr<f32>>, tensor<32xi32>
  %v = tessera.load %p : tensor<32x!tessera.ptr<f32>>
  %m:2 = tessera.reduce(%v, %r) {axis = 0 : i32} : (tensor<32xf32>, tensor<32xi32>) -> (f32, i32) {
  ^bb0(%v0: f32, %i0: i32, %v1: f32, %i1: i32):
    %gt = arith.cmpf ogt, %v1, %v0 : f32
    %eq = arith.cmpf oeq, %v1, %v0 : f32
    %lt = arith.cmpi slt, %i1, %i0 : i32
    %tie = arith.andi %eq, %lt : i1
    %take = arith.ori %gt, %tie : i1
    %vm = arith.select %take, %v1, %v0 : f32
    %ix = arith.select %take, %i1, %i0 : i32
    tessera.reduce.return %vm, %ix : f32, i32
  }
  %vp = tessera.addptr %vals, %row : !tessera.ptr<f32>, i32
  tessera.store %vp, %m#0 : !tessera.ptr<f32>
  %ip = tessera.addptr %idxs, %row : !tessera.ptr<i32>, i32
  tessera.store %ip, %m#1 : !tessera.ptr<i32>
  return
}
)mlir";

/// Inclusive cumulative sums of 128 integers per program, forwards and
/// reversed, and along rows of the block viewed as 8x16 floats.
inline constexpr const char *kCumsum = R"mlir(
func.func @cumsum_kernel(%x: !tessera.ptr<i32>, %fwd: !tessera.ptr<i32>, %bwd: !tessera.ptr<i32>, %rows: !tessera.ptr<f32>) attributes {tessera.kernel} {
  %pid = tessera.program_id x : i32
  %c128 = arith.constant 128 : i32
  %start = arith.muli %pid, %c128 : i32
  %r = tessera.make_range {start = 0 : i32, end = 128 : i32} : tensor<128xi32>
  %ss = tessera.splat %start : tensor<128xi32>
  %off = arith.addi %ss, %r : tensor<128xi32>
  %xs = tessera.splat %x : tensor<128x!tessera.ptr<i32>>
  %xp = tessera.addptr %xs, %off : tensor<128x!tessera.ptr<i32>>, tensor<128xi32>
  %v = tessera.load %xp : tensor<128x!tessera.ptr<i32>>
  %f = tessera.scan(%v) {axis = 0 : i32} : (tensor<128xi32>) -> tensor<128xi32> {
  ^bb0(%a: i32, %b: i32):
    %s = arith.addi %a, %b : i32
    tessera.scan.return %s : i32
  }
  %b = tessera.scan(%v) {axis = 0 : i32, reverse} : (tensor<128xi32>) -> tensor<128xi32> {
  ^bb0(%a: i32, %c: i32):
    %s = arith.addi %a, %c : i32
    tessera.scan.return %s : i32
  }
  %fs = tessera.splat %fwd : tensor<128x!tessera.ptr<i32>>
  %fp = tessera.addptr %fs, %off : tensor<128x!tessera.ptr<i32>>, tensor<128xi32>
  tessera.store %fp, %f : tensor<128x!tessera.ptr<i32>>
  %bs = tessera.splat %bwd : tensor<128x!tessera.ptr<i32>>
  %bp = tessera.addptr %bs, %off : tensor<128x!tessera.ptr<i32>>, tensor<128xi32>
  tessera.store %bp, %b : tensor<128x!tessera.ptr<i32>>
  // A 2-D running product along axis 1 of the block viewed as 8x16 floats.
  %fl = arith.sitofp %v : tensor<128xi32> to tensor<128xf32>
  %m = tessera.reshape %fl : tensor<128xf32> -> tensor<8x16xf32>
  %pr = tessera.scan(%m) {axis = 1 : i32} : (tensor<8x16xf32>) -> tensor<8x16xf32> {
  ^bb0(%a: f32, %c: f32):
    %s = arith.addf %a, %c : f32
    tessera.scan.return %s : f32
  }
  %flat = tessera.reshape %pr : tensor<8x16xf32> -> tensor<128xf32>
  %rs = tessera.splat %rows : tensor<128x!tessera.ptr<f32>>
  %rp = tessera.addptr %rs, %off : tensor<128x!tessera.ptr<f32>>, tensor<128xi32>
  tessera.store %rp, %flat : tensor<128x!tessera.ptr<f32>>
  return
}
)mlir";

/// Ten rounds of a Philox-style mix on 256 counters per program:
/// mulhiui, multiplies, xors, carried through an scf.for.
inline constexpr const char *kPhilox = R"mlir(
func.func @philox_kernel(%out: !tessera.ptr<i32>, %seed: i32) attributes {tessera.kernel} {
  %pid = tessera.program_id x : i32
  %c256 = arith.constant 256 : i32
  %start = arith.muli %pid, %c256 : i32
  %r = tessera.make_range {start = 0 : i32, end = 256 : i32} : tensor<256xi32>
  %ss = tessera.splat %start : tensor<256xi32>
  %c0 = arith.addi %ss, %r : tensor<256xi32>
  %zero = arith.constant 0 : i32
  %c1 = tessera.splat %zero : tensor<256xi32>
  %c2 = tessera.splat %zero : tensor<256xi32>
  %c3 = tessera.splat %zero : tensor<256xi32>
  %k0 = tessera.splat %seed : tensor<256xi32>
  %c7 = arith.constant 7 : i32
  %k1 = tessera.splat %c7 : tensor<256xi32>
  %ra = arith.constant -766435501 : i32
  %rb = arith.constant -845247145 : i32
  %ka = arith.constant -1640531527 : i32
  %kb = arith.constant -1150833019 : i32
  %A = tessera.splat %ra : tensor<256xi32>
  %B = tessera.splat %rb : tensor<256xi32>
  %KA = tessera.splat %ka : tensor<256xi32>
  %KB = tessera.splat %kb : tensor<256xi32>
  %lb = arith.constant 0 : index
  %ub = arith.constant 10 : index
  %st = arith.constant 1 : index
  %res:6 = scf.for %i = %lb to %ub step %st iter_args(%x0 = %c0, %x1 = %c1, %x2 = %c2, %x3 = %c3, %y0 = %k0, %y1 = %k1) -> (tensor<256xi32>, tensor<256xi32>, tensor<256xi32>, tensor<256xi32>, tensor<256xi32>, tensor<256xi32>) {
    %h0 = tessera.mulhiui %B, %x2 : tensor<256xi32>
    %n0a = arith.xori %h0, %x1 : tensor<256xi32>
    %n0 = arith.xori %n0a, %y0 : tensor<256xi32>
    %h2 = tessera.mulhiui %A, %x0 : tensor<256xi32>
    %n2a = arith.xori %h2, %x3 : tensor<256xi32>
    %n2 = arith.xori %n2a, %y1 : tensor<256xi32>
    %n1 = arith.muli %B, %x2 : tensor<256xi32>
    %n3 = arith.muli %A, %x0 : tensor<256xi32>
    %z0 = arith.addi %y0, %KA : tensor<256xi32>
    %z1 = arith.addi %y1, %KB : tensor<256xi32>
    scf.yield %n0, %n1, %n2, %n3, %z0, %z1 : tensor<256xi32>, tensor<256xi32>, tensor<256xi32>, tensor<256xi32>, tensor<256xi32>, tensor<256xi32>
  }
  %os = tessera.splat %out : tensor<256x!tessera.ptr<i32>>
  %op = tessera.addptr %os, %c0 : tensor<256x!tessera.ptr<i32>>, tensor<256xi32>
  tessera.store %op, %res#0 : tensor<256x!tessera.ptr<i32>>
  return
}
)mlir";

/// Per program, a 16-bin histogram of 64 values (masked past n) added
/// atomically to global bins, as integers and as floats.
inline constexpr const char *kHistogram = R"mlir(
func.func @histogram_kernel(%x: !tessera.ptr<i32>, %bins: !tessera.ptr<i32>, %fsum: !tessera.ptr<f32>, %n: i32) attributes {tessera.kernel} {
  %pid = tessera.program_id x : i32
  %c64 = arith.constant 64 : i32
  %start = arith.muli %pid, %c64 : i32
  %r = tessera.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  %ss = tessera.splat %start : tensor<64xi32>
  %off = arith.addi %ss, %r : tensor<64xi32>
  %ns = tessera.splat %n : tensor<64xi32>
  %mask = arith.cmpi slt, %off, %ns : tensor<64xi32>
  %xs = tessera.splat %x : tensor<64x!tessera.ptr<i32>>
  %xp = tessera.addptr %xs, %off : tensor<64x!tessera.ptr<i32>>, tensor<64xi32>
  %v = tessera.load %xp, %mask : tensor<64x!tessera.ptr<i32>>
  %h = tessera.histogram %v, %mask : tensor<64xi1> : tensor<64xi32> -> tensor<16xi32>
  %b16 = tessera.make_range {start = 0 : i32, end = 16 : i32} : tensor<16xi32>
  %bs = tessera.splat %bins : tensor<16x!tessera.ptr<i32>>
  %bp = tessera.addptr %bs, %b16 : tensor<16x!tessera.ptr<i32>>, tensor<16xi32>
  %old = tessera.atomic_rmw add %bp, %h : tensor<16x!tessera.ptr<i32>>
  %hf = arith.sitofp %h : tensor<16xi32> to tensor<16xf32>
  %fs = tessera.splat %fsum : tensor<16x!tessera.ptr<f32>>
  %fp = tessera.addptr %fs, %b16 : tensor<16x!tessera.ptr<f32>>, tensor<16xi32>
  %oldf = tessera.atomic_rmw fadd %fp, %hf {sem = #tessera<sem relaxed>} : tensor<16x!tessera.ptr<f32>>
  return
}
)mlir";

/// Every program takes a spin lock (atomic_cas, acquire), increments a
/// counter `iters` times with plain loads and stores, and releases it
/// (atomic_xchg, release): the layer-norm backward pattern.
inline constexpr const char *kLockedIncrement = R"mlir(
func.func @locked_increment(%lock: !tessera.ptr<i32>, %counter: !tessera.ptr<i32>, %iters: i32) attributes {tessera.kernel} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %spin = scf.while (%arg = %c1) : (i32) -> i32 {
    %old = tessera.atomic_cas %lock, %c0, %c1 {sem = #tessera<sem acquire>} : !tessera.ptr<i32>
    %busy = arith.cmpi ne, %old, %c0 : i32
    scf.condition(%busy) %old : i32
  } do {
  ^bb0(%x: i32):
    scf.yield %x : i32
  }
  %lb = arith.constant 0 : i32
  scf.for %i = %lb to %iters step %c1 : i32 {
    %v = tessera.load %counter {isVolatile} : !tessera.ptr<i32>
    %w = arith.addi %v, %c1 : i32
    tessera.store %counter, %w : !tessera.ptr<i32>
  }
  tessera.debug_barrier
  %prev = tessera.atomic_rmw xchg %lock, %c0 {sem = #tessera<sem release>} : !tessera.ptr<i32>
  return
}
)mlir";

/// asin (f32) and atan2 + erf (f64) from libm, by neutral names.
inline constexpr const char *kLibm = R"mlir(
func.func @asin_kernel(%x: !tessera.ptr<f32>, %y: !tessera.ptr<f32>, %d: !tessera.ptr<f64>, %n: i32) attributes {tessera.kernel} {
  %pid = tessera.program_id x : i32
  %c64 = arith.constant 64 : i32
  %start = arith.muli %pid, %c64 : i32
  %r = tessera.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  %ss = tessera.splat %start : tensor<64xi32>
  %off = arith.addi %ss, %r : tensor<64xi32>
  %ns = tessera.splat %n : tensor<64xi32>
  %mask = arith.cmpi slt, %off, %ns : tensor<64xi32>
  %xs = tessera.splat %x : tensor<64x!tessera.ptr<f32>>
  %xp = tessera.addptr %xs, %off : tensor<64x!tessera.ptr<f32>>, tensor<64xi32>
  %v = tessera.load %xp, %mask : tensor<64x!tessera.ptr<f32>>
  %a = tessera.extern_elementwise %v {libname = "", libpath = "", symbol = "asin", pure = true} : (tensor<64xf32>) -> tensor<64xf32>
  %ys = tessera.splat %y : tensor<64x!tessera.ptr<f32>>
  %yp = tessera.addptr %ys, %off : tensor<64x!tessera.ptr<f32>>, tensor<64xi32>
  tessera.store %yp, %a, %mask : tensor<64x!tessera.ptr<f32>>
  %vd = arith.extf %v : tensor<64xf32> to tensor<64xf64>
  %e = tessera.extern_elementwise %vd, %vd {libname = "", libpath = "", symbol = "__tessera_atan2", pure = true} : (tensor<64xf64>, tensor<64xf64>) -> tensor<64xf64>
  %ex = math.erf %vd : tensor<64xf64>
  %sum = arith.addf %e, %ex : tensor<64xf64>
  %ds = tessera.splat %d : tensor<64x!tessera.ptr<f64>>
  %dp = tessera.addptr %ds, %off : tensor<64x!tessera.ptr<f64>>, tensor<64xi32>
  tessera.store %dp, %sum, %mask : tensor<64x!tessera.ptr<f64>>
  return
}
)mlir";

/// fp32 -> fp8 (e4m3fn nearest-even, e5m2 toward zero), fp8
/// arithmetic, fp8 -> fp32, fp32 -> fp16 / bf16 (nearest-even) and bf16
/// toward zero.
inline constexpr const char *kConversions = R"mlir(
func.func @convert_kernel(%x: !tessera.ptr<f32>, %e4: !tessera.ptr<f8E4M3FN>, %e5: !tessera.ptr<f8E5M2>, %back: !tessera.ptr<f32>, %h: !tessera.ptr<f16>, %bf: !tessera.ptr<bf16>, %bz: !tessera.ptr<bf16>) attributes {tessera.kernel} {
  %pid = tessera.program_id x : i32
  %c64 = arith.constant 64 : i32
  %start = arith.muli %pid, %c64 : i32
  %r = tessera.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  %ss = tessera.splat %start : tensor<64xi32>
  %off = arith.addi %ss, %r : tensor<64xi32>
  %xs = tessera.splat %x : tensor<64x!tessera.ptr<f32>>
  %xp = tessera.addptr %xs, %off : tensor<64x!tessera.ptr<f32>>, tensor<64xi32>
  %v = tessera.load %xp : tensor<64x!tessera.ptr<f32>>
  %a = tessera.fp_to_fp %v {rounding = #tessera<rounding rtne>} : tensor<64xf32> -> tensor<64xf8E4M3FN>
  %as = tessera.splat %e4 : tensor<64x!tessera.ptr<f8E4M3FN>>
  %ap = tessera.addptr %as, %off : tensor<64x!tessera.ptr<f8E4M3FN>>, tensor<64xi32>
  tessera.store %ap, %a : tensor<64x!tessera.ptr<f8E4M3FN>>
  %b = tessera.fp_to_fp %v {rounding = #tessera<rounding rtz>} : tensor<64xf32> -> tensor<64xf8E5M2>
  %bs = tessera.splat %e5 : tensor<64x!tessera.ptr<f8E5M2>>
  %bp = tessera.addptr %bs, %off : tensor<64x!tessera.ptr<f8E5M2>>, tensor<64xi32>
  tessera.store %bp, %b : tensor<64x!tessera.ptr<f8E5M2>>
  // Read the fp8 values back and widen them: arithmetic on fp8 happens in f32.
  %a2 = tessera.load %ap : tensor<64x!tessera.ptr<f8E4M3FN>>
  %sq = arith.mulf %a2, %a2 : tensor<64xf8E4M3FN>
  %w = tessera.fp_to_fp %sq : tensor<64xf8E4M3FN> -> tensor<64xf32>
  %ws = tessera.splat %back : tensor<64x!tessera.ptr<f32>>
  %wp = tessera.addptr %ws, %off : tensor<64x!tessera.ptr<f32>>, tensor<64xi32>
  tessera.store %wp, %w : tensor<64x!tessera.ptr<f32>>
  %hv = arith.truncf %v : tensor<64xf32> to tensor<64xf16>
  %hs = tessera.splat %h : tensor<64x!tessera.ptr<f16>>
  %hp = tessera.addptr %hs, %off : tensor<64x!tessera.ptr<f16>>, tensor<64xi32>
  tessera.store %hp, %hv : tensor<64x!tessera.ptr<f16>>
  %bv = arith.truncf %v : tensor<64xf32> to tensor<64xbf16>
  %bfs = tessera.splat %bf : tensor<64x!tessera.ptr<bf16>>
  %bfp = tessera.addptr %bfs, %off : tensor<64x!tessera.ptr<bf16>>, tensor<64xi32>
  tessera.store %bfp, %bv : tensor<64x!tessera.ptr<bf16>>
  %bzv = tessera.fp_to_fp %v {rounding = #tessera<rounding rtz>} : tensor<64xf32> -> tensor<64xbf16>
  %bzs = tessera.splat %bz : tensor<64x!tessera.ptr<bf16>>
  %bzp = tessera.addptr %bzs, %off : tensor<64x!tessera.ptr<bf16>>, tensor<64xi32>
  tessera.store %bzp, %bzv : tensor<64x!tessera.ptr<bf16>>
  return
}
)mlir";

/// 8x8 tiles through tensor descriptors: loads pad with zero outside
/// the MxN source, stores skip what is outside the destination.
inline constexpr const char *kDescriptorCopy = R"mlir(
func.func @tile_copy(%src: !tessera.ptr<f32>, %dst2: !tessera.ptr<f32>, %M: i32, %N: i32) attributes {tessera.kernel} {
  %pm = tessera.program_id x : i32
  %pn = tessera.program_id y : i32
  %c8 = arith.constant 8 : i32
  %c1 = arith.constant 1 : i64
  %m0 = arith.muli %pm, %c8 : i32
  %n0 = arith.muli %pn, %c8 : i32
  %M64 = arith.extsi %M : i32 to i64
  %N64 = arith.extsi %N : i32 to i64
  // Descriptor: loads pad with zero, stores skip what is out of bounds.
  %desc = tessera.make_tensor_descriptor %src, [%M, %N], [%N64, %c1] : !tessera.ptr<f32> -> !tessera.tensordesc<tensor<8x8xf32>>
  %u = tessera.descriptor_load %desc[%m0, %n0] : !tessera.tensordesc<tensor<8x8xf32>> -> tensor<8x8xf32>
  %two = arith.constant 2.0 : f32
  %twos = tessera.splat %two : tensor<8x8xf32>
  %u2 = arith.mulf %u, %twos : tensor<8x8xf32>
  %odesc = tessera.make_tensor_descriptor %dst2, [%M, %N], [%N64, %c1] : !tessera.ptr<f32> -> !tessera.tensordesc<tensor<8x8xf32>>
  tessera.descriptor_store %odesc[%m0, %n0], %u2 : !tessera.tensordesc<tensor<8x8xf32>>, tensor<8x8xf32>
  return
}
)mlir";

/// Asserts that every value is below `limit`, then copies it.
inline constexpr const char *kAssert = R"mlir(
func.func @check_kernel(%x: !tessera.ptr<i32>, %out: !tessera.ptr<i32>, %limit: i32) attributes {tessera.kernel} {
  %pid = tessera.program_id x : i32
  %c16 = arith.constant 16 : i32
  %start = arith.muli %pid, %c16 : i32
  %r = tessera.make_range {start = 0 : i32, end = 16 : i32} : tensor<16xi32>
  %ss = tessera.splat %start : tensor<16xi32>
  %off = arith.addi %ss, %r : tensor<16xi32>
  %xs = tessera.splat %x : tensor<16x!tessera.ptr<i32>>
  %xp = tessera.addptr %xs, %off : tensor<16x!tessera.ptr<i32>>, tensor<16xi32>
  %v = tessera.load %xp : tensor<16x!tessera.ptr<i32>>
  %ls = tessera.splat %limit : tensor<16xi32>
  %ok = arith.cmpi slt, %v, %ls : tensor<16xi32>
  tessera.assert %ok, "x too big" {file = "kern.py", function = "check_kernel", line = 12 : i32} : tensor<16xi1>
  %os = tessera.splat %out : tensor<16x!tessera.ptr<i32>>
  %op = tessera.addptr %os, %off : tensor<16x!tessera.ptr<i32>>, tensor<16xi32>
  tessera.store %op, %v : tensor<16x!tessera.ptr<i32>>
  return
}
)mlir";

/// Prints a block, a float scalar, a hex program id and a bare line.
inline constexpr const char *kPrint = R"mlir(
func.func @print_kernel(%x: !tessera.ptr<i32>, %f: f32) attributes {tessera.kernel} {
  %pid = tessera.program_id y : i32
  %r = tessera.make_range {start = 0 : i32, end = 4 : i32} : tensor<4xi32>
  %xs = tessera.splat %x : tensor<4x!tessera.ptr<i32>>
  %xp = tessera.addptr %xs, %r : tensor<4x!tessera.ptr<i32>>, tensor<4xi32>
  %v = tessera.load %xp : tensor<4x!tessera.ptr<i32>>
  tessera.print " x: " {hex = false, isSigned = array<i32: 1>} : %v : tensor<4xi32>
  tessera.print " f: " {hex = false, isSigned = array<i32: 0>} : %f : f32
  tessera.print " h: " {hex = true, isSigned = array<i32: 0>} : %pid : i32
  tessera.print " done" {hex = false, isSigned = array<i32>}
  return
}
)mlir";

/// Reshape/permute/split (the EPILOGUE_SUBTILE pattern), join, cat, a
/// tensor out of scf.if, a middle-axis reduction and a broadcast row.
inline constexpr const char *kShapes = R"mlir(
func.func @shapes_kernel(%x: !tessera.ptr<f32>, %o0: !tessera.ptr<f32>, %o1: !tessera.ptr<f32>, %o2: !tessera.ptr<f32>, %o3: !tessera.ptr<f32>, %o4: !tessera.ptr<f32>, %o5: !tessera.ptr<f32>, %flag: i32) attributes {tessera.kernel} {
  %r32 = tessera.make_range {start = 0 : i32, end = 32 : i32} : tensor<32xi32>
  %xs = tessera.splat %x : tensor<32x!tessera.ptr<f32>>
  %xp = tessera.addptr %xs, %r32 : tensor<32x!tessera.ptr<f32>>, tensor<32xi32>
  %flat = tessera.load %xp : tensor<32x!tessera.ptr<f32>>
  %t = tessera.reshape %flat : tensor<32xf32> -> tensor<4x8xf32>
  // EPILOGUE_SUBTILE: reshape to (4, 2, 4), permute (0, 2, 1), split.
  %t3 = tessera.reshape %t : tensor<4x8xf32> -> tensor<4x2x4xf32>
  %p = tessera.trans %t3 {order = array<i32: 0, 2, 1>} : tensor<4x2x4xf32> -> tensor<4x4x2xf32>
  %left, %right = tessera.split %p : tensor<4x4x2xf32> -> tensor<4x4xf32>
  %r16 = tessera.make_range {start = 0 : i32, end = 16 : i32} : tensor<16xi32>
  %lf = tessera.reshape %left : tensor<4x4xf32> -> tensor<16xf32>
  %rf = tessera.reshape %right : tensor<4x4xf32> -> tensor<16xf32>
  %o0s = tessera.splat %o0 : tensor<16x!tessera.ptr<f32>>
  %o0p = tessera.addptr %o0s, %r16 : tensor<16x!tessera.ptr<f32>>, tensor<16xi32>
  tessera.store %o0p, %lf : tensor<16x!tessera.ptr<f32>>
  %o1s = tessera.splat %o1 : tensor<16x!tessera.ptr<f32>>
  %o1p = tessera.addptr %o1s, %r16 : tensor<16x!tessera.ptr<f32>>, tensor<16xi32>
  tessera.store %o1p, %rf : tensor<16x!tessera.ptr<f32>>
  // join then flatten interleaves; cat stacks.
  %j = tessera.join %left, %right : tensor<4x4xf32> -> tensor<4x4x2xf32>
  %jf = tessera.reshape %j : tensor<4x4x2xf32> -> tensor<32xf32>
  %o2s = tessera.splat %o2 : tensor<32x!tessera.ptr<f32>>
  %o2p = tessera.addptr %o2s, %r32 : tensor<32x!tessera.ptr<f32>>, tensor<32xi32>
  tessera.store %o2p, %jf : tensor<32x!tessera.ptr<f32>>
  %c = tessera.cat %left, %right : tensor<4x4xf32> -> tensor<8x4xf32>
  %cf = tessera.reshape %c : tensor<8x4xf32> -> tensor<32xf32>
  %o3s = tessera.splat %o3 : tensor<32x!tessera.ptr<f32>>
  %o3p = tessera.addptr %o3s, %r32 : tensor<32x!tessera.ptr<f32>>, tensor<32xi32>
  tessera.store %o3p, %cf : tensor<32x!tessera.ptr<f32>>
  // A tensor out of scf.if, then a reduction over the middle axis of 2x2x8.
  %zero = arith.constant 0 : i32
  %cond = arith.cmpi ne, %flag, %zero : i32
  %sel = scf.if %cond -> (tensor<4x8xf32>) {
    %two = arith.constant 2.0 : f32
    %twos = tessera.splat %two : tensor<4x8xf32>
    %m = arith.mulf %t, %twos : tensor<4x8xf32>
    scf.yield %m : tensor<4x8xf32>
  } else {
    %tt = tessera.trans %t {order = array<i32: 1, 0>} : tensor<4x8xf32> -> tensor<8x4xf32>
    %back = tessera.trans %tt {order = array<i32: 1, 0>} : tensor<8x4xf32> -> tensor<4x8xf32>
    scf.yield %back : tensor<4x8xf32>
  }
  %s3 = tessera.reshape %sel : tensor<4x8xf32> -> tensor<2x2x8xf32>
  %red = tessera.reduce(%s3) {axis = 1 : i32} : (tensor<2x2x8xf32>) -> tensor<2x8xf32> {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    tessera.reduce.return %s : f32
  }
  %redf = tessera.reshape %red : tensor<2x8xf32> -> tensor<16xf32>
  %o4s = tessera.splat %o4 : tensor<16x!tessera.ptr<f32>>
  %o4p = tessera.addptr %o4s, %r16 : tensor<16x!tessera.ptr<f32>>, tensor<16xi32>
  tessera.store %o4p, %redf : tensor<16x!tessera.ptr<f32>>
  // Broadcast of a row plus expand_dims of a column.
  %row = tessera.make_range {start = 0 : i32, end = 8 : i32} : tensor<8xi32>
  %rowf = arith.sitofp %row : tensor<8xi32> to tensor<8xf32>
  %row2 = tessera.expand_dims %rowf {axis = 0 : i32} : tensor<8xf32> -> tensor<1x8xf32>
  %rowb = tessera.broadcast %row2 : tensor<1x8xf32> -> tensor<4x8xf32>
  %sum = arith.addf %rowb, %t : tensor<4x8xf32>
  %sumf = tessera.reshape %sum : tensor<4x8xf32> -> tensor<32xf32>
  %o5s = tessera.splat %o5 : tensor<32x!tessera.ptr<f32>>
  %o5p = tessera.addptr %o5s, %r32 : tensor<32x!tessera.ptr<f32>>, tensor<32xi32>
  tessera.store %o5p, %sumf : tensor<32x!tessera.ptr<f32>>
  return
}
)mlir";

/// A 16x16x16 dot of e5m2 operands into fp32, stored as fp16.
inline constexpr const char *kFp8Dot = R"mlir(
func.func @fp8_dot(%a: !tessera.ptr<f8E5M2>, %b: !tessera.ptr<f8E5M2>, %c: !tessera.ptr<f16>) attributes {tessera.kernel} {
  %r = tessera.make_range {start = 0 : i32, end = 16 : i32} : tensor<16xi32>
  %c16 = arith.constant 16 : i32
  %r1 = tessera.expand_dims %r {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
  %s16 = tessera.splat %c16 : tensor<16x1xi32>
  %rows = arith.muli %r1, %s16 : tensor<16x1xi32>
  %rowsb = tessera.broadcast %rows : tensor<16x1xi32> -> tensor<16x16xi32>
  %r0 = tessera.expand_dims %r {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
  %colsb = tessera.broadcast %r0 : tensor<1x16xi32> -> tensor<16x16xi32>
  %off = arith.addi %rowsb, %colsb : tensor<16x16xi32>
  %as = tessera.splat %a : tensor<16x16x!tessera.ptr<f8E5M2>>
  %ap = tessera.addptr %as, %off : tensor<16x16x!tessera.ptr<f8E5M2>>, tensor<16x16xi32>
  %av = tessera.load %ap : tensor<16x16x!tessera.ptr<f8E5M2>>
  %bs = tessera.splat %b : tensor<16x16x!tessera.ptr<f8E5M2>>
  %bp = tessera.addptr %bs, %off : tensor<16x16x!tessera.ptr<f8E5M2>>, tensor<16x16xi32>
  %bv = tessera.load %bp : tensor<16x16x!tessera.ptr<f8E5M2>>
  %zero = arith.constant 0.0 : f32
  %acc = tessera.splat %zero : tensor<16x16xf32>
  %d = tessera.dot %av, %bv, %acc {maxNumImpreciseAcc = 32 : i32} : tensor<16x16xf8E5M2> * tensor<16x16xf8E5M2> -> tensor<16x16xf32>
  %h = arith.truncf %d : tensor<16x16xf32> to tensor<16x16xf16>
  %cs = tessera.splat %c : tensor<16x16x!tessera.ptr<f16>>
  %cp = tessera.addptr %cs, %off : tensor<16x16x!tessera.ptr<f16>>, tensor<16x16xi32>
  tessera.store %cp, %h : tensor<16x16x!tessera.ptr<f16>>
  return
}
)mlir";

/// C (32x32 f32, row-major) = A (32x64 ELEM) x B (64x32 ELEM): whole AMX
/// tiles. ELEM is replaced by the element type before compiling.
inline constexpr const char *kTileDot = R"mlir(
func.func @tile_dot(%a: !tessera.ptr<ELEM>, %b: !tessera.ptr<ELEM>, %c: !tessera.ptr<f32>) attributes {tessera.kernel} {
  %r32 = tessera.make_range {start = 0 : i32, end = 32 : i32} : tensor<32xi32>
  %r64 = tessera.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  %c32 = arith.constant 32 : i32
  %c64 = arith.constant 64 : i32
  %ar = tessera.expand_dims %r32 {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
  %as64 = tessera.splat %c64 : tensor<32x1xi32>
  %arows = arith.muli %ar, %as64 : tensor<32x1xi32>
  %arowsb = tessera.broadcast %arows : tensor<32x1xi32> -> tensor<32x64xi32>
  %ac = tessera.expand_dims %r64 {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %acolsb = tessera.broadcast %ac : tensor<1x64xi32> -> tensor<32x64xi32>
  %aoff = arith.addi %arowsb, %acolsb : tensor<32x64xi32>
  %asp = tessera.splat %a : tensor<32x64x!tessera.ptr<ELEM>>
  %ap = tessera.addptr %asp, %aoff : tensor<32x64x!tessera.ptr<ELEM>>, tensor<32x64xi32>
  %av = tessera.load %ap : tensor<32x64x!tessera.ptr<ELEM>>
  %br = tessera.expand_dims %r64 {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %bs32 = tessera.splat %c32 : tensor<64x1xi32>
  %brows = arith.muli %br, %bs32 : tensor<64x1xi32>
  %browsb = tessera.broadcast %brows : tensor<64x1xi32> -> tensor<64x32xi32>
  %bc = tessera.expand_dims %r32 {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
  %bcolsb = tessera.broadcast %bc : tensor<1x32xi32> -> tensor<64x32xi32>
  %boff = arith.addi %browsb, %bcolsb : tensor<64x32xi32>
  %bsp = tessera.splat %b : tensor<64x32x!tessera.ptr<ELEM>>
  %bp = tessera.addptr %bsp, %boff : tensor<64x32x!tessera.ptr<ELEM>>, tensor<64x32xi32>
  %bv = tessera.load %bp : tensor<64x32x!tessera.ptr<ELEM>>
  %zero = arith.constant 0.0 : f32
  %acc = tessera.splat %zero : tensor<32x32xf32>
  %d = tessera.dot %av, %bv, %acc : tensor<32x64xELEM> * tensor<64x32xELEM> -> tensor<32x32xf32>
  %cr = tessera.expand_dims %r32 {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
  %cs32 = tessera.splat %c32 : tensor<32x1xi32>
  %crows = arith.muli %cr, %cs32 : tensor<32x1xi32>
  %crowsb = tessera.broadcast %crows : tensor<32x1xi32> -> tensor<32x32xi32>
  %cc = tessera.expand_dims %r32 {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
  %ccolsb = tessera.broadcast %cc : tensor<1x32xi32> -> tensor<32x32xi32>
  %coff = arith.addi %crowsb, %ccolsb : tensor<32x32xi32>
  %csp = tessera.splat %c : tensor<32x32x!tessera.ptr<f32>>
  %cp = tessera.addptr %csp, %coff : tensor<32x32x!tessera.ptr<f32>>, tensor<32x32xi32>
  tessera.store %cp, %d : tensor<32x32x!tessera.ptr<f32>>
  return
}
)mlir";

} // namespace mlir::tessera::cpu::test

#endif // TESSERA_BACKENDS_CPU_UNITTESTS_KERNELS_H
