// RUN: tessera-cpu-opt %s --split-input-file --verify-diagnostics --tessera-cpu-to-structured
// What the CPU backend cannot run is an error at the op, never a silent
// miscompile.

func.func @inline_asm(%x: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error @+1 {{tessera.inline_asm_elementwise is not supported on the CPU backend}}
  %0 = tessera.inline_asm_elementwise %x {asm_string = "mov $0, $1;", constraints = "=r,r", pure = true, packed_element = 1 : i32} : (tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

func.func @unknown_math(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{the CPU backend has no math function 'frobnicate' for 1 operand(s) of type 'f32' (library 'libdevice')}}
  %0 = tessera.extern_elementwise %x {libname = "libdevice", libpath = "", symbol = "frobnicate", pure = true} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @wrong_arity(%x: f32) -> f32 {
  // expected-error @+1 {{the CPU backend has no math function 'pow' for 1 operand(s)}}
  %0 = tessera.extern_elementwise %x {libname = "", libpath = "", symbol = "pow", pure = true} : (f32) -> f32
  return %0 : f32
}

// -----

// Directed rounding (toward -inf here) of fp64 arithmetic is not computed
// (fp32's is, in fp64; there is no wider type for fp64): an error, not a
// result rounded to nearest.
func.func @directed_rounding(%x: f64) -> f64 {
  // expected-error @+1 {{the CPU backend has no math function '__tessera_div_rd_fp64' for 2 operand(s)}}
  %0 = tessera.extern_elementwise %x, %x {libname = "libdevice", libpath = "", symbol = "__tessera_div_rd_fp64", pure = true} : (f64, f64) -> f64
  return %0 : f64
}

// -----

func.func @warp_specialize(%a: i32) -> i32 {
  // expected-error @+1 {{tessera_gpu.warp_specialize is not supported on the CPU backend}}
  %r = tessera_gpu.warp_specialize(%a) attributes {requestedRegisters = array<i32: 24>}
  default {
    tessera_gpu.warp_yield %a : i32
  }
  partition0(%x: i32) num_warps(1) {
    tessera_gpu.warp_return
  } : (i32) -> i32
  return %r : i32
}

// -----

func.func private @helper() -> i32 {
  // expected-error @+1 {{tessera.program_id in device function 'helper', which was not inlined into a kernel}}
  %0 = tessera.program_id x : i32
  return %0 : i32
}

// -----

// expected-error @+1 {{kernel parameter 0 of type 'tensor<4xf32>' cannot be passed to a CPU launch}}
func.func @tensor_param(%t: tensor<4xf32>) attributes {tessera.kernel} {
  return
}
