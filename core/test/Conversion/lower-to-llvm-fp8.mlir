// RUN: tessera-opt %s --split-input-file --tessera-test-lower-to-llvm | FileCheck %s
// RUN: tessera-opt %s --split-input-file --tessera-test-lower-to-llvm="accept=narrow-fp8" | FileCheck %s --check-prefix=HOOK

// fp8 values are i8 to LLVM, so conversions to and from fp8 are spelled in
// integer operations, one register at a time. (The values they compute are
// checked exhaustively by core/unittests/Conversion.) A target that rounds
// to fp8 itself (narrowToFp8) gets each rounding to nearest even from f16,
// bf16 or f32 (HOOK); widening and rounding toward zero stay the core's.

// Widening e4m3fn to f16: normal codes move their fields up 7 bits and
// rebias (+8 << 10); subnormals (magnitude < 8) are normalized with ctlz;
// 0x7f is NaN (0x7e00); the sign moves to bit 15.
#blocked = #tessera_gpu.blocked<sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]>
module attributes {tessera_gpu.num_ctas = 1 : i32, tessera_gpu.num_warps = 1 : i32, tessera_gpu.target = "test", tessera_gpu.threads_per_warp = 32 : i32} {
  // CHECK-LABEL: llvm.func internal @e4m3fn_to_f16
  // HOOK-LABEL: llvm.func internal @e4m3fn_to_f16
  // HOOK-NOT: llvm.call @tessera_test_narrow_to
  // CHECK-DAG: %[[C127:.*]] = llvm.mlir.constant(127 : i8) : i8
  // CHECK-DAG: %[[C7:.*]] = llvm.mlir.constant(7 : i16) : i16
  // CHECK-DAG: %[[REBIAS:.*]] = llvm.mlir.constant(8192 : i16) : i16
  // CHECK-DAG: %[[C8:.*]] = llvm.mlir.constant(8 : i8) : i8
  // CHECK-DAG: %[[NAN:.*]] = llvm.mlir.constant(32256 : i16) : i16
  // CHECK-DAG: %[[SIGN:.*]] = llvm.mlir.constant(-128 : i8) : i8
  // CHECK: %[[X:.*]] = llvm.extractvalue %arg0[0]
  // CHECK: %[[MAG:.*]] = llvm.and %[[X]], %[[C127]] : i8
  // CHECK: %[[WIDE:.*]] = llvm.zext %[[MAG]] : i8 to i16
  // CHECK: %[[MOVED:.*]] = llvm.shl %[[WIDE]], %[[C7]] : i16
  // CHECK: %[[NORMAL:.*]] = llvm.add %[[MOVED]], %[[REBIAS]] : i16
  // CHECK: "llvm.intr.ctlz"(%[[MAG]]) <{is_zero_poison = false}> : (i8) -> i8
  // CHECK: %[[SUB:.*]] = llvm.select
  // CHECK: %[[ISSUB:.*]] = llvm.icmp "ult" %[[MAG]], %[[C8]] : i8
  // CHECK: %[[FINITE:.*]] = llvm.select %[[ISSUB]], %[[SUB]], %[[NORMAL]] : i1, i16
  // CHECK: %[[ISNAN:.*]] = llvm.icmp "eq" %[[MAG]], %[[C127]] : i8
  // CHECK: %[[BITS:.*]] = llvm.select %[[ISNAN]], %[[NAN]], %[[FINITE]] : i1, i16
  // CHECK: llvm.and %[[X]], %[[SIGN]] : i8
  // CHECK: %[[OR:.*]] = llvm.or %[[BITS]], %{{.*}} : i16
  // CHECK: llvm.bitcast %[[OR]] : i16 to f16
  // CHECK: "llvm.intr.ctlz"
  // CHECK: llvm.bitcast %{{.*}} : i16 to f16
  // CHECK-NOT: llvm.fpext
  // CHECK: llvm.return
  func.func @e4m3fn_to_f16(%x: tensor<64xf8E4M3FN, #blocked>) -> tensor<64xf16, #blocked> {
    %0 = tessera.fp_to_fp %x : tensor<64xf8E4M3FN, #blocked> -> tensor<64xf16, #blocked>
    return %0 : tensor<64xf16, #blocked>
  }

  // arith.extf takes the same path (MLIR's pattern would emit fpext of i8);
  // bf16 gets integer operations only.
  // CHECK-LABEL: llvm.func internal @extf_e4m3fn_to_bf16
  // CHECK-NOT: llvm.fpext
  // CHECK-NOT: llvm.fmul
  // CHECK-NOT: llvm.uitofp
  // CHECK-COUNT-2: llvm.bitcast %{{.*}} : i16 to bf16
  // CHECK: llvm.return
  func.func @extf_e4m3fn_to_bf16(%x: tensor<64xf8E4M3FN, #blocked>) -> tensor<64xbf16, #blocked> {
    %0 = arith.extf %x : tensor<64xf8E4M3FN, #blocked> to tensor<64xbf16, #blocked>
    return %0 : tensor<64xbf16, #blocked>
  }

  // e5m2 and f16 share their exponent: the code moves up 8 bits, subnormals
  // included; 0x7c is infinity (0x7c00), above it NaN (0x7e00).
  // CHECK-LABEL: llvm.func internal @e5m2_to_f16
  // CHECK-DAG: %[[C8:.*]] = llvm.mlir.constant(8 : i16) : i16
  // CHECK-DAG: %[[INFCODE:.*]] = llvm.mlir.constant(124 : i8) : i8
  // CHECK-DAG: %[[INF:.*]] = llvm.mlir.constant(31744 : i16) : i16
  // CHECK-DAG: %[[NAN:.*]] = llvm.mlir.constant(32256 : i16) : i16
  // CHECK-NOT: ctlz
  // CHECK: %[[MAG:.*]] = llvm.and %arg0, %{{.*}} : i8
  // CHECK: %[[WIDE:.*]] = llvm.zext %[[MAG]] : i8 to i16
  // CHECK: %[[MOVED:.*]] = llvm.shl %[[WIDE]], %[[C8]] : i16
  // CHECK: %[[ISINF:.*]] = llvm.icmp "eq" %[[MAG]], %[[INFCODE]] : i8
  // CHECK: %[[SPECIAL:.*]] = llvm.select %[[ISINF]], %[[INF]], %[[NAN]] : i1, i16
  // CHECK: %[[NONFINITE:.*]] = llvm.icmp "uge" %[[MAG]], %[[INFCODE]] : i8
  // CHECK: llvm.select %[[NONFINITE]], %[[SPECIAL]], %[[MOVED]] : i1, i16
  // CHECK: llvm.return
  func.func @e5m2_to_f16(%x: f8E5M2) -> f16 {
    %0 = arith.extf %x : f8E5M2 to f16
    return %0 : f16
  }
}

// -----

// Narrowing f32 to e4m3fn, to nearest even: the significand is shifted right
// by 20 bits (more below 2^-6, at most 25), rounded up when the rest is past
// half or half with an odd result; the exponent field is added on top. A
// code past 126 (448) overflows to NaN (127), as do infinities and NaNs.
#blocked = #tessera_gpu.blocked<sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]>
module attributes {tessera_gpu.num_ctas = 1 : i32, tessera_gpu.num_warps = 1 : i32, tessera_gpu.target = "test", tessera_gpu.threads_per_warp = 32 : i32} {
  // CHECK-LABEL: llvm.func internal @f32_to_e4m3fn
  // CHECK-DAG: %[[INF:.*]] = llvm.mlir.constant(2139095040 : i32) : i32
  // CHECK-DAG: %[[NAN:.*]] = llvm.mlir.constant(127 : i32) : i32
  // CHECK-DAG: %[[MAX:.*]] = llvm.mlir.constant(126 : i32) : i32
  // CHECK-DAG: %[[C20:.*]] = llvm.mlir.constant(20 : i32) : i32
  // CHECK-DAG: %[[C25:.*]] = llvm.mlir.constant(25 : i32) : i32
  // CHECK-DAG: %[[C121:.*]] = llvm.mlir.constant(121 : i32) : i32
  // CHECK-DAG: %[[ABSMASK:.*]] = llvm.mlir.constant(2147483647 : i32) : i32
  // CHECK: %[[BITS:.*]] = llvm.bitcast %{{.*}} : f32 to i32
  // CHECK: %[[ABS:.*]] = llvm.and %[[BITS]], %[[ABSMASK]] : i32
  // CHECK: %[[BELOW:.*]] = llvm.sub %[[C121]], %{{.*}} : i32
  // CHECK: %[[DEFICIT:.*]] = llvm.select %{{.*}}, %[[BELOW]], %{{.*}} : i1, i32
  // CHECK: %[[SHIFT:.*]] = llvm.add %[[DEFICIT]], %[[C20]] : i32
  // CHECK: %[[FITS:.*]] = llvm.icmp "ult" %[[SHIFT]], %[[C25]] : i32
  // CHECK: %[[CLAMPED:.*]] = llvm.select %[[FITS]], %[[SHIFT]], %[[C25]] : i1, i32
  // CHECK: %[[KEPT:.*]] = llvm.lshr %{{.*}}, %[[CLAMPED]] : i32
  // CHECK: %[[TIE:.*]] = llvm.icmp "eq" %[[REST:.*]], %[[HALF:.*]] : i32
  // CHECK: %[[ABOVE:.*]] = llvm.icmp "ugt" %[[REST]], %[[HALF]] : i32
  // CHECK: %[[TIEODD:.*]] = llvm.and %[[TIE]], %{{.*}} : i1
  // CHECK: %[[UP:.*]] = llvm.or %[[ABOVE]], %[[TIEODD]] : i1
  // CHECK: %[[UPW:.*]] = llvm.zext %[[UP]] : i1 to i32
  // CHECK: %[[ROUNDED:.*]] = llvm.add %[[KEPT]], %[[UPW]] : i32
  // CHECK: %[[CODE:.*]] = llvm.add %[[ROUNDED]], %{{.*}} : i32
  // CHECK: %[[OVER:.*]] = llvm.icmp "ugt" %[[CODE]], %[[MAX]] : i32
  // CHECK: %[[C1:.*]] = llvm.select %[[OVER]], %[[NAN]], %[[CODE]] : i1, i32
  // CHECK: %[[ISINF:.*]] = llvm.icmp "eq" %[[ABS]], %[[INF]] : i32
  // CHECK: %[[C2:.*]] = llvm.select %[[ISINF]], %[[NAN]], %[[C1]] : i1, i32
  // CHECK: %[[ISNAN:.*]] = llvm.icmp "ugt" %[[ABS]], %[[INF]] : i32
  // CHECK: %[[C3:.*]] = llvm.select %[[ISNAN]], %[[NAN]], %[[C2]] : i1, i32
  // CHECK: %[[C8:.*]] = llvm.trunc %[[C3]] : i32 to i8
  // CHECK: llvm.or %[[C8]], %{{.*}} : i8
  // CHECK: llvm.bitcast %{{.*}} : f32 to i32
  // CHECK-NOT: llvm.fptrunc
  // CHECK: llvm.return
  // HOOK-LABEL: llvm.func internal @f32_to_e4m3fn
  // HOOK-COUNT-2: llvm.call @tessera_test_narrow_to_f8E4M3FN(%{{.*}}) : (f32) -> i8
  // HOOK-NOT: llvm.lshr
  // HOOK: llvm.return
  // HOOK-LABEL: llvm.func internal @f16_to_e4m3fn_rtz
  // HOOK-NOT: llvm.call @tessera_test_narrow_to
  // HOOK: llvm.icmp "ugt"
  // HOOK: llvm.return
  // HOOK-LABEL: llvm.func internal @f16_to_e5m2
  // HOOK: llvm.call @tessera_test_narrow_to_f8E5M2(%{{.*}}) : (f16) -> i8
  // HOOK-NEXT: llvm.return
  func.func @f32_to_e4m3fn(%x: tensor<64xf32, #blocked>) -> tensor<64xf8E4M3FN, #blocked> {
    %0 = tessera.fp_to_fp %x {rounding = #tessera<rounding rtne>} : tensor<64xf32, #blocked> -> tensor<64xf8E4M3FN, #blocked>
    return %0 : tensor<64xf8E4M3FN, #blocked>
  }

  // Toward zero: no rounding step, and overflow saturates to 448 (126);
  // infinities and NaNs are still NaN. arith.truncf toward_zero is the
  // same.
  // CHECK-LABEL: llvm.func internal @f16_to_e4m3fn_rtz
  // CHECK-DAG: %[[INF:.*]] = llvm.mlir.constant(31744 : i16) : i16
  // CHECK-DAG: %[[NAN:.*]] = llvm.mlir.constant(127 : i16) : i16
  // CHECK-DAG: %[[MAX:.*]] = llvm.mlir.constant(126 : i16) : i16
  // CHECK-NOT: llvm.zext %{{.*}} : i1 to i16
  // CHECK: %[[OVER:.*]] = llvm.icmp "ugt" %[[CODE:.*]], %[[MAX]] : i16
  // CHECK: %[[C1:.*]] = llvm.select %[[OVER]], %[[MAX]], %[[CODE]] : i1, i16
  // CHECK: llvm.select %{{.*}}, %[[NAN]], %[[C1]] : i1, i16
  // CHECK-NOT: llvm.zext %{{.*}} : i1 to i16
  // CHECK: llvm.return
  func.func @f16_to_e4m3fn_rtz(%x: tensor<64xf16, #blocked>) -> tensor<64xf8E4M3FN, #blocked> {
    %0 = arith.truncf %x toward_zero : tensor<64xf16, #blocked> to tensor<64xf8E4M3FN, #blocked>
    return %0 : tensor<64xf8E4M3FN, #blocked>
  }

  // e5m2 has infinities: overflow and infinities give 0x7c, NaNs 0x7e.
  // CHECK-LABEL: llvm.func internal @f16_to_e5m2
  // CHECK-DAG: %[[QNAN:.*]] = llvm.mlir.constant(126 : i16) : i16
  // CHECK-DAG: %[[MAX:.*]] = llvm.mlir.constant(123 : i16) : i16
  // CHECK-DAG: %[[INF:.*]] = llvm.mlir.constant(124 : i16) : i16
  // CHECK: %[[OVER:.*]] = llvm.icmp "ugt" %[[CODE:.*]], %[[MAX]] : i16
  // CHECK: %[[C1:.*]] = llvm.select %[[OVER]], %[[INF]], %[[CODE]] : i1, i16
  // CHECK: %[[C2:.*]] = llvm.select %{{.*}}, %[[INF]], %[[C1]] : i1, i16
  // CHECK: llvm.select %{{.*}}, %[[QNAN]], %[[C2]] : i1, i16
  // CHECK: llvm.return
  func.func @f16_to_e5m2(%x: f16) -> f8E5M2 {
    %0 = tessera.fp_to_fp %x {rounding = #tessera<rounding rtne>} : f16 -> f8E5M2
    return %0 : f8E5M2
  }
}

// -----

// fnuz formats: 0x80 is the NaN, so zeros drop their sign.
module attributes {tessera_gpu.num_ctas = 1 : i32, tessera_gpu.num_warps = 1 : i32, tessera_gpu.target = "test", tessera_gpu.threads_per_warp = 32 : i32} {
  // CHECK-LABEL: llvm.func internal @f32_to_e4m3fnuz
  // CHECK: %[[SIGNED:.*]] = llvm.or %[[CODE:.*]], %{{.*}} : i8
  // CHECK: %[[ZERO:.*]] = llvm.icmp "eq" %[[CODE]], %{{.*}} : i8
  // CHECK: %[[R:.*]] = llvm.select %[[ZERO]], %[[CODE]], %[[SIGNED]] : i1, i8
  // CHECK: llvm.return %[[R]] : i8
  func.func @f32_to_e4m3fnuz(%x: f32) -> f8E4M3FNUZ {
    %0 = tessera.fp_to_fp %x {rounding = #tessera<rounding rtne>} : f32 -> f8E4M3FNUZ
    return %0 : f8E4M3FNUZ
  }

  // e5m2fnuz reaches below f16's normals: through f32, exactly.
  // CHECK-LABEL: llvm.func internal @e5m2fnuz_to_f16
  // CHECK: llvm.bitcast %{{.*}} : i32 to f32
  // CHECK: llvm.fptrunc %{{.*}} : f32 to f16
  // CHECK-LABEL: llvm.func internal @f16_to_e5m2fnuz
  // CHECK: llvm.fpext %arg0 : f16 to f32
  // CHECK: llvm.bitcast %{{.*}} : f32 to i32
  func.func @e5m2fnuz_to_f16(%x: f8E5M2FNUZ) -> f16 {
    %0 = tessera.fp_to_fp %x : f8E5M2FNUZ -> f16
    return %0 : f16
  }
  func.func @f16_to_e5m2fnuz(%x: f16) -> f8E5M2FNUZ {
    %0 = tessera.fp_to_fp %x {rounding = #tessera<rounding rtne>} : f16 -> f8E5M2FNUZ
    return %0 : f8E5M2FNUZ
  }

  // Between fp8 formats: widen to f32 (exact), then round once.
  // CHECK-LABEL: llvm.func internal @e4m3fn_to_e5m2
  // CHECK: "llvm.intr.ctlz"
  // CHECK: %[[WIDE:.*]] = llvm.or %{{.*}} : i32
  // CHECK: llvm.lshr %[[WIDE]], %{{.*}} : i32
  // CHECK-NOT: llvm.bitcast
  // CHECK: llvm.return %{{.*}} : i8
  func.func @e4m3fn_to_e5m2(%x: f8E4M3FN) -> f8E5M2 {
    %0 = tessera.fp_to_fp %x {rounding = #tessera<rounding rtne>} : f8E4M3FN -> f8E5M2
    return %0 : f8E5M2
  }
}

// -----

// |x| and -x of fp8 clear and flip the sign bit of each i8 register (fp8
// formats are sign-magnitude); no float intrinsic sees an i8.
#blocked = #tessera_gpu.blocked<sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]>
module attributes {tessera_gpu.num_ctas = 1 : i32, tessera_gpu.num_warps = 1 : i32, tessera_gpu.target = "test", tessera_gpu.threads_per_warp = 32 : i32} {
  // CHECK-LABEL: llvm.func internal @fp8_sign_ops
  // CHECK-DAG: %[[MAGNITUDE:.*]] = llvm.mlir.constant(127 : i8) : i8
  // CHECK-DAG: %[[SIGNBIT:.*]] = llvm.mlir.constant(-128 : i8) : i8
  // CHECK-COUNT-2: llvm.and %{{.*}}, %[[MAGNITUDE]] : i8
  // CHECK-COUNT-2: llvm.xor %{{.*}}, %[[SIGNBIT]] : i8
  // CHECK-NOT: llvm.intr.fabs
  // CHECK-NOT: llvm.fneg
  // CHECK: llvm.return
  func.func @fp8_sign_ops(%x: tensor<64xf8E5M2, #blocked>) -> (tensor<64xf8E5M2, #blocked>, tensor<64xf8E5M2, #blocked>) {
    %0 = math.absf %x : tensor<64xf8E5M2, #blocked>
    %1 = arith.negf %x : tensor<64xf8E5M2, #blocked>
    return %0, %1 : tensor<64xf8E5M2, #blocked>, tensor<64xf8E5M2, #blocked>
  }
}
