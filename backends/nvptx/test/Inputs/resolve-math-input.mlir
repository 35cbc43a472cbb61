// A lowered module (LLVM dialect) calling math functions by the frontend's
// neutral names, one of them also declared by libdevice's name already.
module {
  llvm.func @__tessera_asin_fp32(f32) -> f32
  llvm.func @__tessera_div_rn_fp64(f64, f64) -> f64
  llvm.func @__tessera_int2float_rn_i32(i32) -> f32
  llvm.func @__tessera_exp_fp32(f32) -> f32
  llvm.func @__nv_expf(f32) -> f32
  llvm.func @k(%x: f32, %d: f64, %i: i32) -> f32 {
    %a = llvm.call @__tessera_asin_fp32(%x) : (f32) -> f32
    %b = llvm.call @__tessera_div_rn_fp64(%d, %d) : (f64, f64) -> f64
    %c = llvm.call @__tessera_int2float_rn_i32(%i) : (i32) -> f32
    %e = llvm.call @__tessera_exp_fp32(%x) : (f32) -> f32
    %f = llvm.call @__nv_expf(%x) : (f32) -> f32
    %s = llvm.fadd %a, %c : f32
    %t = llvm.fadd %s, %e : f32
    %u = llvm.fadd %t, %f : f32
    llvm.return %u : f32
  }
}
