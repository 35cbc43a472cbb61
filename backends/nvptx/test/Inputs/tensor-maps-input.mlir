// matmul_kernel_descriptor of 09_persistent_matmul.py (fp16, 128x128x64, 8
// warps, sm_90a) as the core stages left it: the input of tensor-maps.
// Regenerate with tessera compile --emit tessera, then tessera-plugin-check
// --emit mlir --num-warps 8 --stop-after-stage pipeline-loads.
#blocked = #tessera_gpu.blocked<sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 2], order = [1, 0]>
#blocked1 = #tessera_gpu.blocked<sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [2, 4], order = [0, 1]>
#blocked2 = #tessera_gpu.blocked<sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 4], order = [1, 0]>
#linear = #tessera_gpu.linear<register = [[0, 1], [8, 0], [0, 8], [0, 16], [0, 32], [0, 64]], lane = [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp = [[16, 0], [32, 0], [64, 0]], block = []>
#linear1 = #tessera_gpu.linear<register = [[0, 1], [8, 0], [0, 8], [0, 16], [0, 32]], lane = [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp = [[16, 0], [32, 0], [64, 0]], block = []>
#linear2 = #tessera_gpu.linear<register = [[0, 1], [0, 2], [0, 4], [32, 0], [0, 64]], lane = [[0, 8], [0, 16], [0, 32], [1, 0], [2, 0]], warp = [[4, 0], [8, 0], [16, 0]], block = []>
module attributes {tessera_gpu.num_ctas = 1 : i32, tessera_gpu.num_warps = 8 : i32, tessera_gpu.target = "nvptx", tessera_gpu.threads_per_warp = 32 : i32} {
  func.func @matmul_kernel_descriptor(%arg0: !tessera.ptr<f16> {tessera.divisibility = 16 : i32}, %arg1: !tessera.ptr<f16> {tessera.divisibility = 16 : i32}, %arg2: !tessera.ptr<f16> {tessera.divisibility = 16 : i32}, %arg3: i32 {tessera.divisibility = 16 : i32}, %arg4: i32 {tessera.divisibility = 16 : i32}, %arg5: i32 {tessera.divisibility = 16 : i32}) attributes {tessera.kernel} {
    %cst = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #linear>
    %c1_i32 = arith.constant 1 : i32
    %c0_i32 = arith.constant 0 : i32
    %c64_i32 = arith.constant 64 : i32
    %c63_i32 = arith.constant 63 : i32
    %c1_i64 = arith.constant 1 : i64
    %c8_i32 = arith.constant 8 : i32
    %c128_i32 = arith.constant 128 : i32
    %c127_i32 = arith.constant 127 : i32
    %0 = arith.addi %arg3, %c127_i32 : i32
    %1 = arith.divsi %0, %c128_i32 : i32
    %2 = arith.addi %arg4, %c127_i32 : i32
    %3 = arith.divsi %2, %c128_i32 : i32
    %4 = tessera.program_id  x : i32
    %5 = arith.muli %3, %c8_i32 : i32
    %6 = arith.divsi %4, %5 : i32
    %7 = arith.muli %6, %c8_i32 : i32
    %8 = arith.subi %1, %7 : i32
    %9 = arith.minsi %8, %c8_i32 : i32
    %10 = arith.remsi %4, %9 : i32
    %11 = arith.addi %7, %10 : i32
    %12 = arith.remsi %4, %5 : i32
    %13 = arith.divsi %12, %9 : i32
    %14 = arith.extsi %arg5 : i32 to i64
    %15 = tessera.make_tensor_descriptor %arg0, [%arg3, %arg5], [%14, %c1_i64] : !tessera.ptr<f16> -> !tessera.tensordesc<tensor<128x64xf16>>
    %16 = tessera.make_tensor_descriptor %arg1, [%arg4, %arg5], [%14, %c1_i64] : !tessera.ptr<f16> -> !tessera.tensordesc<tensor<128x64xf16>>
    %17 = arith.extsi %arg4 : i32 to i64
    %18 = tessera.make_tensor_descriptor %arg2, [%arg3, %arg4], [%17, %c1_i64] : !tessera.ptr<f16> -> !tessera.tensordesc<tensor<128x128xf16>>
    %19 = arith.muli %11, %c128_i32 : i32
    %20 = arith.muli %13, %c128_i32 : i32
    %21 = arith.addi %arg5, %c63_i32 : i32
    %22 = arith.divsi %21, %c64_i32 : i32
    %23 = scf.for %arg6 = %c0_i32 to %22 step %c1_i32 iter_args(%arg7 = %cst) -> (tensor<128x128xf32, #linear>)  : i32 {
      %26 = arith.muli %arg6, %c64_i32 : i32
      %27 = tessera.descriptor_load %15[%19, %26] : !tessera.tensordesc<tensor<128x64xf16>> -> tensor<128x64xf16, #blocked>
      %28 = tessera_gpu.convert_layout %27 : tensor<128x64xf16, #blocked> -> tensor<128x64xf16, #linear1>
      %29 = tessera.descriptor_load %16[%20, %26] : !tessera.tensordesc<tensor<128x64xf16>> -> tensor<128x64xf16, #blocked>
      %30 = tessera.trans %29 {order = array<i32: 1, 0>} : tensor<128x64xf16, #blocked> -> tensor<64x128xf16, #blocked1>
      %31 = tessera_gpu.convert_layout %30 : tensor<64x128xf16, #blocked1> -> tensor<64x128xf16, #linear2>
      %32 = tessera.dot %28, %31, %arg7 {inputPrecision = #tessera<precision tf32>, tessera_gpu.matrix_instruction = "wgmma.m64nNk16"} : tensor<128x64xf16, #linear1> * tensor<64x128xf16, #linear2> -> tensor<128x128xf32, #linear>
      scf.yield %32 : tensor<128x128xf32, #linear>
    }
    %24 = arith.truncf %23 : tensor<128x128xf32, #linear> to tensor<128x128xf16, #linear>
    %25 = tessera_gpu.convert_layout %24 : tensor<128x128xf16, #linear> -> tensor<128x128xf16, #blocked2>
    tessera.descriptor_store %18[%19, %20], %25 : !tessera.tensordesc<tensor<128x128xf16>>, tensor<128x128xf16, #blocked2>
    return
  }
  // A row stride known to be 72 bytes breaks TMA's rule: ordinary accesses.
  func.func @odd_stride(%arg0: !tessera.ptr<f16> {tessera.divisibility = 16 : i32}, %arg1: i32) attributes {tessera.kernel} {
    %c0_i32 = arith.constant 0 : i32
    %c1_i64 = arith.constant 1 : i64
    %c36_i64 = arith.constant 36 : i64
    %0 = tessera.make_tensor_descriptor %arg0, [%arg1, %arg1], [%c36_i64, %c1_i64] : !tessera.ptr<f16> -> !tessera.tensordesc<tensor<64x64xf16>>
    %1 = tessera.descriptor_load %0[%c0_i32, %c0_i32] : !tessera.tensordesc<tensor<64x64xf16>> -> tensor<64x64xf16, #blocked2>
    tessera.descriptor_store %0[%c0_i32, %c0_i32], %1 : !tessera.tensordesc<tensor<64x64xf16>>, tensor<64x64xf16, #blocked2>
    return
  }
}
