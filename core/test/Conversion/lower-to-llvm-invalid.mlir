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
    // expected-error @below {{the block pointer's tile has no layout; run convert-to-gpu first}}
    %0 = tessera.load %p : !tessera.ptr<tensor<16xf32>>
    return
  }
}

// -----

// fp8 values are i8 to LLVM, so their conversions are the shared lowering's;
// it rounds to nearest even or toward zero, no other way.
#blocked = #tessera_gpu.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]>
module attributes {tessera_gpu.num_ctas = 1 : i32, tessera_gpu.num_warps = 1 : i32, tessera_gpu.target = "test", tessera_gpu.threads_per_warp = 32 : i32} {
  func.func @fp8_upward(%x: tensor<32xf32, #blocked>) -> tensor<32xf8E4M3FN, #blocked> {
    // expected-error @below {{truncations to fp8 round to nearest even or toward zero, not upward}}
    %0 = arith.truncf %x upward : tensor<32xf32, #blocked> to tensor<32xf8E4M3FN, #blocked>
    return %0 : tensor<32xf8E4M3FN, #blocked>
  }
}

// -----

// A local_load marked read_in_place must feed one dot, which reads the
// buffer itself.
#b = #tessera_gpu.dot_op<opIdx = 1, parent = #tessera_gpu.blocked<sizePerThread = [1, 2], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [1, 0]>>
#shared = #tessera_gpu.shared<vec = 8, perPhase = 1, maxPhase = 2, order = [1, 0]>
module attributes {tessera_gpu.num_ctas = 1 : i32, tessera_gpu.num_warps = 1 : i32, tessera_gpu.target = "test", tessera_gpu.threads_per_warp = 32 : i32} {
  func.func @in_place_without_dot() -> tensor<4x16xf16, #b> {
    %buf = tessera_gpu.local_alloc : () -> !tessera_gpu.memdesc<4x16xf16, #shared, mutable>
    // expected-error @+1 {{a local_load read in place must feed one dot}}
    %b = tessera_gpu.local_load %buf {tessera_gpu.read_in_place} : !tessera_gpu.memdesc<4x16xf16, #shared, mutable> -> tensor<4x16xf16, #b>
    return %b : tensor<4x16xf16, #b>
  }
}

// -----

// A cat result whose threads split what the operands' threads hold needs a
// layout conversion first: an error, not a crash.
#src = #tessera_gpu.blocked<sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]>
#dst = #tessera_gpu.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]>
module attributes {tessera_gpu.num_ctas = 1 : i32, tessera_gpu.num_warps = 1 : i32, tessera_gpu.target = "test", tessera_gpu.threads_per_warp = 32 : i32} {
  func.func @cat_mismatch(%a: tensor<64xi32, #src>, %b: tensor<64xi32, #src>) -> tensor<128xi32, #dst> {
    // expected-error@+1 {{does not keep both operands' elements in the threads that hold them}}
    %c = tessera.cat %a, %b : tensor<64xi32, #src> -> tensor<128xi32, #dst>
    return %c : tensor<128xi32, #dst>
  }
}
