// two_dots of wgmma_operands.py (M=N=K=64, sm_90a, 4 warps) as the core stages
// and tensor-maps left it: the input of prepare-wgmma. Regenerate with
// tessera compile --emit tessera, then tessera-plugin-check --emit mlir
// --stop-after-stage tensor-maps.
#blocked = #tessera_gpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
#blocked1 = #tessera_gpu.blocked<sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]>
#blocked2 = #tessera_gpu.blocked<sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]>
#linear = #tessera_gpu.linear<register = [[0, 1], [8, 0], [0, 8], [0, 16], [0, 32]], lane = [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp = [[16, 0], [32, 0]], block = []>
#linear1 = #tessera_gpu.linear<register = [[0, 1], [0, 2], [0, 4], [16, 0], [32, 0]], lane = [[0, 8], [0, 16], [0, 32], [1, 0], [2, 0]], warp = [[4, 0], [8, 0]], block = []>
#slice = #tessera_gpu.slice<dim = 0, parent = #blocked>
#slice1 = #tessera_gpu.slice<dim = 0, parent = #blocked1>
#slice2 = #tessera_gpu.slice<dim = 1, parent = #blocked>
#slice3 = #tessera_gpu.slice<dim = 1, parent = #blocked1>
module attributes {tessera_gpu.num_ctas = 1 : i32, tessera_gpu.num_warps = 4 : i32, tessera_gpu.target = "nvptx", tessera_gpu.threads_per_warp = 32 : i32} {
  func.func @two_dots(%arg0: !tessera.ptr<f16> {tessera.divisibility = 16 : i32}, %arg1: !tessera.ptr<f16> {tessera.divisibility = 16 : i32}, %arg2: !tessera.ptr<f32> {tessera.divisibility = 16 : i32}) attributes {tessera.kernel} {
    %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #linear>
    %cst_0 = arith.constant dense<64> : tensor<64x1xi32, #blocked>
    %cst_1 = arith.constant dense<64> : tensor<64x1xi32, #blocked1>
    %0 = tessera.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #slice>
    %1 = tessera.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #slice1>
    %2 = tessera.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #slice2>
    %3 = tessera.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #slice3>
    %4 = tessera.expand_dims %2 {axis = 1 : i32} : tensor<64xi32, #slice2> -> tensor<64x1xi32, #blocked>
    %5 = tessera.expand_dims %3 {axis = 1 : i32} : tensor<64xi32, #slice3> -> tensor<64x1xi32, #blocked1>
    %6 = arith.muli %4, %cst_0 : tensor<64x1xi32, #blocked>
    %7 = arith.muli %5, %cst_1 : tensor<64x1xi32, #blocked1>
    %8 = tessera.splat %arg0 : tensor<64x1x!tessera.ptr<f16>, #blocked>
    %9 = tessera.addptr %8, %6 : tensor<64x1x!tessera.ptr<f16>, #blocked>, tensor<64x1xi32, #blocked>
    %10 = tessera.expand_dims %0 {axis = 0 : i32} : tensor<64xi32, #slice> -> tensor<1x64xi32, #blocked>
    %11 = tessera.expand_dims %1 {axis = 0 : i32} : tensor<64xi32, #slice1> -> tensor<1x64xi32, #blocked1>
    %12 = tessera.broadcast %9 : tensor<64x1x!tessera.ptr<f16>, #blocked> -> tensor<64x64x!tessera.ptr<f16>, #blocked>
    %13 = tessera.broadcast %10 : tensor<1x64xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %14 = tessera.broadcast %11 : tensor<1x64xi32, #blocked1> -> tensor<64x64xi32, #blocked1>
    %15 = tessera.addptr %12, %13 : tensor<64x64x!tessera.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
    %16 = tessera.load %15 : tensor<64x64x!tessera.ptr<f16>, #blocked>
    %17 = tessera_gpu.convert_layout %16 : tensor<64x64xf16, #blocked> -> tensor<64x64xf16, #linear>
    %18 = tessera.splat %arg1 : tensor<64x1x!tessera.ptr<f16>, #blocked>
    %19 = tessera.addptr %18, %6 : tensor<64x1x!tessera.ptr<f16>, #blocked>, tensor<64x1xi32, #blocked>
    %20 = tessera.broadcast %19 : tensor<64x1x!tessera.ptr<f16>, #blocked> -> tensor<64x64x!tessera.ptr<f16>, #blocked>
    %21 = tessera.addptr %20, %13 : tensor<64x64x!tessera.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
    %22 = tessera.load %21 : tensor<64x64x!tessera.ptr<f16>, #blocked>
    %23 = tessera_gpu.convert_layout %22 : tensor<64x64xf16, #blocked> -> tensor<64x64xf16, #linear1>
    %24 = tessera.trans %22 {order = array<i32: 1, 0>} : tensor<64x64xf16, #blocked> -> tensor<64x64xf16, #blocked2>
    %25 = tessera_gpu.convert_layout %24 : tensor<64x64xf16, #blocked2> -> tensor<64x64xf16, #linear1>
    %26 = tessera.dot %17, %25, %cst {inputPrecision = #tessera<precision tf32>, tessera_gpu.matrix_instruction = "wgmma.m64nNk16"} : tensor<64x64xf16, #linear> * tensor<64x64xf16, #linear1> -> tensor<64x64xf32, #linear>
    %27 = arith.truncf %26 : tensor<64x64xf32, #linear> to tensor<64x64xf16, #linear>
    %28 = tessera.dot %27, %23, %cst {inputPrecision = #tessera<precision tf32>, tessera_gpu.matrix_instruction = "wgmma.m64nNk16"} : tensor<64x64xf16, #linear> * tensor<64x64xf16, #linear1> -> tensor<64x64xf32, #linear>
    %29 = tessera_gpu.convert_layout %28 : tensor<64x64xf32, #linear> -> tensor<64x64xf32, #blocked1>
    %30 = tessera.splat %arg2 : tensor<64x1x!tessera.ptr<f32>, #blocked1>
    %31 = tessera.addptr %30, %7 : tensor<64x1x!tessera.ptr<f32>, #blocked1>, tensor<64x1xi32, #blocked1>
    %32 = tessera.broadcast %31 : tensor<64x1x!tessera.ptr<f32>, #blocked1> -> tensor<64x64x!tessera.ptr<f32>, #blocked1>
    %33 = tessera.addptr %32, %14 : tensor<64x64x!tessera.ptr<f32>, #blocked1>, tensor<64x64xi32, #blocked1>
    tessera.store %33, %29 : tensor<64x64x!tessera.ptr<f32>, #blocked1>
    return
  }
}

