// softmax_kernel of 02_fused_softmax.py (BLOCK_SIZE 1024, 8 warps, gfx942) as
// the core stages left it: the input of amdgpu's lower-to-llvm. Regenerate
// with tessera compile --emit tessera, then tessera-plugin-check --emit mlir
// --num-warps 8 --stop-after-stage pipeline-loads.
#blocked = #tessera_gpu.blocked<sizePerThread = [2], threadsPerWarp = [64], warpsPerCTA = [8], order = [0]>
module attributes {tessera_gpu.num_ctas = 1 : i32, tessera_gpu.num_warps = 8 : i32, tessera_gpu.target = "amdgpu", tessera_gpu.threads_per_warp = 64 : i32} {
  func.func @softmax_kernel(%arg0: !tessera.ptr<f32> {tessera.divisibility = 16 : i32}, %arg1: !tessera.ptr<f32> {tessera.divisibility = 16 : i32}, %arg2: i32 {tessera.divisibility = 16 : i32}, %arg3: i32 {tessera.divisibility = 16 : i32}, %arg4: i32, %arg5: i32) attributes {tessera.kernel} {
    %cst = arith.constant dense<0xFF800000> : tensor<1024xf32, #blocked>
    %0 = tessera.program_id  x : i32
    %1 = tessera.num_programs  x : i32
    %2 = tessera.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #blocked>
    %3 = tessera.splat %arg5 : tensor<1024xi32, #blocked>
    %4 = arith.cmpi slt, %2, %3 : tensor<1024xi32, #blocked>
    scf.for %arg6 = %0 to %arg4 step %1  : i32 {
      %5 = arith.muli %arg6, %arg2 : i32
      %6 = tessera.addptr %arg1, %5 : !tessera.ptr<f32>, i32
      %7 = tessera.splat %6 : tensor<1024x!tessera.ptr<f32>, #blocked>
      %8 = tessera.addptr %7, %2 : tensor<1024x!tessera.ptr<f32>, #blocked>, tensor<1024xi32, #blocked>
      %9 = tessera.load %8, %4, %cst : tensor<1024x!tessera.ptr<f32>, #blocked>
      %10 = tessera.reduce(%9) {axis = 0 : i32} : (tensor<1024xf32, #blocked>) -> f32 {
      ^bb0(%arg7: f32, %arg8: f32):
        %21 = arith.maxnumf %arg7, %arg8 : f32
        tessera.reduce.return %21 : f32
      }
      %11 = tessera.splat %10 : tensor<1024xf32, #blocked>
      %12 = arith.subf %9, %11 : tensor<1024xf32, #blocked>
      %13 = math.exp %12 : tensor<1024xf32, #blocked>
      %14 = tessera.reduce(%13) {axis = 0 : i32} : (tensor<1024xf32, #blocked>) -> f32 {
      ^bb0(%arg7: f32, %arg8: f32):
        %21 = arith.addf %arg7, %arg8 : f32
        tessera.reduce.return %21 : f32
      }
      %15 = tessera.splat %14 : tensor<1024xf32, #blocked>
      %16 = arith.divf %13, %15 : tensor<1024xf32, #blocked>
      %17 = arith.muli %arg6, %arg3 : i32
      %18 = tessera.addptr %arg0, %17 : !tessera.ptr<f32>, i32
      %19 = tessera.splat %18 : tensor<1024x!tessera.ptr<f32>, #blocked>
      %20 = tessera.addptr %19, %2 : tensor<1024x!tessera.ptr<f32>, #blocked>, tensor<1024xi32, #blocked>
      tessera.store %20, %16, %4 : tensor<1024x!tessera.ptr<f32>, #blocked>
    } {tessera.num_stages = 4 : i32}
    return
  }
}

