// RUN: tessera-opt %s --split-input-file --verify-diagnostics --tessera-test-lower-to-llvm="decline=thread-id"

#blocked = #tessera_gpu.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]>
module attributes {tessera_gpu.num_ctas = 1 : i32, tessera_gpu.num_warps = 1 : i32, tessera_gpu.target = "test", tessera_gpu.threads_per_warp = 32 : i32} {
  func.func @range() -> tensor<32xi32, #blocked> {
    // expected-error @below {{the test target gives no thread index, which this operation needs}}
    %0 = tessera.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #blocked>
    return %0 : tensor<32xi32, #blocked>
  }
}

// -----

// expected-error @below {{the module has no tessera_gpu launch attributes; run convert-to-gpu first}}
module {
  func.func @f() {
    return
  }
}

// -----

module attributes {tessera_gpu.num_ctas = 1 : i32, tessera_gpu.num_warps = 1 : i32, tessera_gpu.target = "test", tessera_gpu.threads_per_warp = 32 : i32} {
  func.func @block_pointer(%p: !tessera.ptr<tensor<16xf32>>) {
    // expected-error @below {{loads through block pointers are not supported by the shared lowering yet}}
    %0 = tessera.load %p : !tessera.ptr<tensor<16xf32>>
    return
  }
}

// -----

// Regression: fp8 values are i8 to LLVM; converting them crashed.
#blocked = #tessera_gpu.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]>
module attributes {tessera_gpu.num_ctas = 1 : i32, tessera_gpu.num_warps = 1 : i32, tessera_gpu.target = "test", tessera_gpu.threads_per_warp = 32 : i32} {
  func.func @fp8(%x: tensor<32xf8E4M3FN, #blocked>) -> tensor<32xf16, #blocked> {
    // expected-error @below {{fp8 conversions are not supported by the shared lowering yet}}
    %0 = tessera.fp_to_fp %x : tensor<32xf8E4M3FN, #blocked> -> tensor<32xf16, #blocked>
    return %0 : tensor<32xf16, #blocked>
  }
}
