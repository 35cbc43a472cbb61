// scale_exp of scale_exp.py (BLOCK=16) as the stages up to cleanup
// left it: the input of cpu-to-structured in plugin-stages.test.
// Regenerate with
//   tessera compile Inputs/scale_exp.py --backend cpu --kernel scale_exp \
//     --signature "*fp32:16,*fp32:16,*fp32:16,*fp32:16,i32,16" --emit tessera
// then tessera-plugin-check <cpu plugin> --stop-after-stage cleanup --emit mlir.
#blocked = #tessera_gpu.blocked<sizePerThread = [4], threadsPerWarp = [1], warpsPerCTA = [1], order = [0]>
module attributes {tessera_gpu.num_ctas = 1 : i32, tessera_gpu.num_warps = 1 : i32, tessera_gpu.target = "cpu", tessera_gpu.threads_per_warp = 1 : i32} {
  func.func @scale_exp(%arg0: !tessera.ptr<f32> {tessera.divisibility = 16 : i32}, %arg1: !tessera.ptr<f32> {tessera.divisibility = 16 : i32}, %arg2: !tessera.ptr<f32> {tessera.divisibility = 16 : i32}, %arg3: !tessera.ptr<f32> {tessera.divisibility = 16 : i32}, %arg4: i32) attributes {tessera.kernel} {
    %cst = arith.constant dense<1.000000e+00> : tensor<16xf32, #blocked>
    %cst_0 = arith.constant dense<0.000000e+00> : tensor<16xf32, #blocked>
    %c16_i32 = arith.constant 16 : i32
    %0 = tessera.program_id  x : i32
    %1 = arith.muli %0, %c16_i32 : i32
    %2 = tessera.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32, #blocked>
    %3 = tessera.splat %1 : tensor<16xi32, #blocked>
    %4 = arith.addi %3, %2 : tensor<16xi32, #blocked>
    %5 = tessera.splat %arg4 : tensor<16xi32, #blocked>
    %6 = arith.cmpi slt, %4, %5 : tensor<16xi32, #blocked>
    %7 = tessera.splat %arg0 : tensor<16x!tessera.ptr<f32>, #blocked>
    %8 = tessera.addptr %7, %4 : tensor<16x!tessera.ptr<f32>, #blocked>, tensor<16xi32, #blocked>
    %9 = tessera.load %8, %6, %cst_0 : tensor<16x!tessera.ptr<f32>, #blocked>
    %10 = tessera.splat %arg1 : tensor<16x!tessera.ptr<f32>, #blocked>
    %11 = tessera.addptr %10, %4 : tensor<16x!tessera.ptr<f32>, #blocked>, tensor<16xi32, #blocked>
    %12 = tessera.load %11, %6, %cst_0 : tensor<16x!tessera.ptr<f32>, #blocked>
    %13 = math.exp %9 : tensor<16xf32, #blocked>
    %14 = arith.mulf %13, %12 : tensor<16xf32, #blocked>
    %15 = arith.addf %14, %cst : tensor<16xf32, #blocked>
    %16 = tessera.splat %arg2 : tensor<16x!tessera.ptr<f32>, #blocked>
    %17 = tessera.addptr %16, %4 : tensor<16x!tessera.ptr<f32>, #blocked>, tensor<16xi32, #blocked>
    tessera.store %17, %15, %6 : tensor<16x!tessera.ptr<f32>, #blocked>
    %18 = tessera.addptr %arg3, %0 : !tessera.ptr<f32>, i32
    %19 = tessera.reduce(%15) {axis = 0 : i32} : (tensor<16xf32, #blocked>) -> f32 {
    ^bb0(%arg5: f32, %arg6: f32):
      %20 = arith.addf %arg5, %arg6 : f32
      tessera.reduce.return %20 : f32
    }
    tessera.store %18, %19 : !tessera.ptr<f32>
    return
  }
}

