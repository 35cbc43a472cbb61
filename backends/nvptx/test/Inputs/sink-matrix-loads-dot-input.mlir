// small_dot of small_dot.py (M=N=16, K=32, fp16, one warp, sm_90a) as the
// stages before lower-to-llvm left it: a dot on mma.sync.m16n8k16 (2 K
// steps x 2 N tiles), its operands converted to the dot layouts through
// shared memory. Regenerate with
//   tessera compile Inputs/small_dot.py --kernel small_dot --signature "*fp16:16,*fp16:16,*fp32:16"
//     --constexpr M=16 --constexpr N=16 --constexpr K=32 --num-warps 1 --backend nvptx --arch sm_90a --emit tessera
// then tessera-plugin-check --arch sm_90a --num-warps 1 --stop-after-stage prepare-wgmma --emit mlir.
#blocked = #tessera_gpu.blocked<sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [1, 1], order = [1, 0]>
#blocked1 = #tessera_gpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [16, 2], warpsPerCTA = [1, 1], order = [1, 0]>
#blocked2 = #tessera_gpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [1, 1], order = [1, 0]>
#linear = #tessera_gpu.linear<register = [[0, 1], [8, 0], [0, 8]], lane = [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp = [], block = []>
#linear1 = #tessera_gpu.linear<register = [[0, 1], [8, 0], [0, 8], [0, 16]], lane = [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp = [], block = []>
#linear2 = #tessera_gpu.linear<register = [[1, 0], [8, 0], [16, 0], [0, 8]], lane = [[2, 0], [4, 0], [0, 1], [0, 2], [0, 4]], warp = [], block = []>
#slice = #tessera_gpu.slice<dim = 0, parent = #blocked1>
#slice1 = #tessera_gpu.slice<dim = 0, parent = #blocked>
#slice2 = #tessera_gpu.slice<dim = 1, parent = #blocked>
#slice3 = #tessera_gpu.slice<dim = 1, parent = #blocked1>
#slice4 = #tessera_gpu.slice<dim = 0, parent = #blocked2>
module attributes {tessera_gpu.num_ctas = 1 : i32, tessera_gpu.num_warps = 1 : i32, tessera_gpu.target = "nvptx", tessera_gpu.threads_per_warp = 32 : i32} {
  func.func @small_dot(%arg0: !tessera.ptr<f16> {tessera.divisibility = 16 : i32}, %arg1: !tessera.ptr<f16> {tessera.divisibility = 16 : i32}, %arg2: !tessera.ptr<f32> {tessera.divisibility = 16 : i32}) attributes {tessera.kernel} {
    %cst = arith.constant dense<0.000000e+00> : tensor<16x16xf32, #linear>
    %cst_0 = arith.constant dense<16> : tensor<16x1xi32, #blocked>
    %cst_1 = arith.constant dense<16> : tensor<32x1xi32, #blocked1>
    %cst_2 = arith.constant dense<32> : tensor<16x1xi32, #blocked>
    %0 = tessera.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32, #slice>
    %1 = tessera.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32, #slice1>
    %2 = tessera.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32, #slice2>
    %3 = tessera.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #slice3>
    %4 = tessera.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #slice4>
    %5 = tessera.expand_dims %2 {axis = 1 : i32} : tensor<16xi32, #slice2> -> tensor<16x1xi32, #blocked>
    %6 = arith.muli %5, %cst_2 : tensor<16x1xi32, #blocked>
    %7 = tessera.splat %arg0 : tensor<16x1x!tessera.ptr<f16>, #blocked>
    %8 = tessera.addptr %7, %6 : tensor<16x1x!tessera.ptr<f16>, #blocked>, tensor<16x1xi32, #blocked>
    %9 = tessera.expand_dims %4 {axis = 0 : i32} : tensor<32xi32, #slice4> -> tensor<1x32xi32, #blocked2>
    %10 = tessera.broadcast %8 : tensor<16x1x!tessera.ptr<f16>, #blocked> -> tensor<16x32x!tessera.ptr<f16>, #blocked2>
    %11 = tessera.broadcast %9 : tensor<1x32xi32, #blocked2> -> tensor<16x32xi32, #blocked2>
    %12 = tessera.addptr %10, %11 : tensor<16x32x!tessera.ptr<f16>, #blocked2>, tensor<16x32xi32, #blocked2>
    %13 = tessera.load %12 : tensor<16x32x!tessera.ptr<f16>, #blocked2>
    %14 = tessera_gpu.convert_layout %13 : tensor<16x32xf16, #blocked2> -> tensor<16x32xf16, #linear1>
    %15 = tessera.expand_dims %3 {axis = 1 : i32} : tensor<32xi32, #slice3> -> tensor<32x1xi32, #blocked1>
    %16 = arith.muli %15, %cst_1 : tensor<32x1xi32, #blocked1>
    %17 = tessera.splat %arg1 : tensor<32x1x!tessera.ptr<f16>, #blocked1>
    %18 = tessera.addptr %17, %16 : tensor<32x1x!tessera.ptr<f16>, #blocked1>, tensor<32x1xi32, #blocked1>
    %19 = tessera.expand_dims %0 {axis = 0 : i32} : tensor<16xi32, #slice> -> tensor<1x16xi32, #blocked1>
    %20 = tessera.expand_dims %1 {axis = 0 : i32} : tensor<16xi32, #slice1> -> tensor<1x16xi32, #blocked>
    %21 = tessera.broadcast %18 : tensor<32x1x!tessera.ptr<f16>, #blocked1> -> tensor<32x16x!tessera.ptr<f16>, #blocked1>
    %22 = tessera.broadcast %19 : tensor<1x16xi32, #blocked1> -> tensor<32x16xi32, #blocked1>
    %23 = tessera.addptr %21, %22 : tensor<32x16x!tessera.ptr<f16>, #blocked1>, tensor<32x16xi32, #blocked1>
    %24 = tessera.load %23 : tensor<32x16x!tessera.ptr<f16>, #blocked1>
    %25 = tessera_gpu.convert_layout %24 : tensor<32x16xf16, #blocked1> -> tensor<32x16xf16, #linear2>
    %26 = arith.muli %5, %cst_0 : tensor<16x1xi32, #blocked>
    %27 = tessera.splat %arg2 : tensor<16x1x!tessera.ptr<f32>, #blocked>
    %28 = tessera.addptr %27, %26 : tensor<16x1x!tessera.ptr<f32>, #blocked>, tensor<16x1xi32, #blocked>
    %29 = tessera.broadcast %28 : tensor<16x1x!tessera.ptr<f32>, #blocked> -> tensor<16x16x!tessera.ptr<f32>, #blocked>
    %30 = tessera.broadcast %20 : tensor<1x16xi32, #blocked> -> tensor<16x16xi32, #blocked>
    %31 = tessera.addptr %29, %30 : tensor<16x16x!tessera.ptr<f32>, #blocked>, tensor<16x16xi32, #blocked>
    %32 = tessera.dot %14, %25, %cst {inputPrecision = #tessera<precision tf32>, tessera_gpu.matrix_instruction = "mma.sync.m16n8k16"} : tensor<16x32xf16, #linear1> * tensor<32x16xf16, #linear2> -> tensor<16x16xf32, #linear>
    %33 = tessera_gpu.convert_layout %32 : tensor<16x16xf32, #linear> -> tensor<16x16xf32, #blocked>
    tessera.store %31, %33 : tensor<16x16x!tessera.ptr<f32>, #blocked>
    return
  }
}

