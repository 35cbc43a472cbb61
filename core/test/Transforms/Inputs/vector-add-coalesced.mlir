// Vector add as coalescing leaves it: loads and stores in a blocked layout
// with four elements per thread, everything else in the default layout,
// conversions in between. Shared by several tests.
#d = #tessera_gpu.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
#l = #tessera_gpu.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
module attributes {tessera_gpu.num_ctas = 1 : i32, tessera_gpu.num_warps = 4 : i32, tessera_gpu.threads_per_warp = 32 : i32} {
func.func @add_kernel(%x: !tessera.ptr<f32>, %y: !tessera.ptr<f32>, %o: !tessera.ptr<f32>, %n: i32) {
  %c1024 = arith.constant 1024 : i32
  %pid = tessera.program_id x : i32
  %start = arith.muli %pid, %c1024 : i32
  %r = tessera.make_range {start = 0 : i32, end = 1024 : i32} : tensor<1024xi32, #d>
  %s = tessera.splat %start : tensor<1024xi32, #d>
  %off = arith.addi %s, %r : tensor<1024xi32, #d>
  %ns = tessera.splat %n : tensor<1024xi32, #d>
  %mask = arith.cmpi slt, %off, %ns : tensor<1024xi32, #d>
  %xp = tessera.splat %x : tensor<1024x!tessera.ptr<f32>, #d>
  %xa = tessera.addptr %xp, %off : tensor<1024x!tessera.ptr<f32>, #d>, tensor<1024xi32, #d>
  %xa_l = tessera_gpu.convert_layout %xa : tensor<1024x!tessera.ptr<f32>, #d> -> tensor<1024x!tessera.ptr<f32>, #l>
  %xm_l = tessera_gpu.convert_layout %mask : tensor<1024xi1, #d> -> tensor<1024xi1, #l>
  %xv_l = tessera.load %xa_l, %xm_l : tensor<1024x!tessera.ptr<f32>, #l>
  %xv = tessera_gpu.convert_layout %xv_l : tensor<1024xf32, #l> -> tensor<1024xf32, #d>
  %yp = tessera.splat %y : tensor<1024x!tessera.ptr<f32>, #d>
  %ya = tessera.addptr %yp, %off : tensor<1024x!tessera.ptr<f32>, #d>, tensor<1024xi32, #d>
  %ya_l = tessera_gpu.convert_layout %ya : tensor<1024x!tessera.ptr<f32>, #d> -> tensor<1024x!tessera.ptr<f32>, #l>
  %ym_l = tessera_gpu.convert_layout %mask : tensor<1024xi1, #d> -> tensor<1024xi1, #l>
  %yv_l = tessera.load %ya_l, %ym_l : tensor<1024x!tessera.ptr<f32>, #l>
  %yv = tessera_gpu.convert_layout %yv_l : tensor<1024xf32, #l> -> tensor<1024xf32, #d>
  %sum = arith.addf %xv, %yv : tensor<1024xf32, #d>
  %op = tessera.splat %o : tensor<1024x!tessera.ptr<f32>, #d>
  %oa = tessera.addptr %op, %off : tensor<1024x!tessera.ptr<f32>, #d>, tensor<1024xi32, #d>
  %oa_l = tessera_gpu.convert_layout %oa : tensor<1024x!tessera.ptr<f32>, #d> -> tensor<1024x!tessera.ptr<f32>, #l>
  %sum_l = tessera_gpu.convert_layout %sum : tensor<1024xf32, #d> -> tensor<1024xf32, #l>
  %om_l = tessera_gpu.convert_layout %mask : tensor<1024xi1, #d> -> tensor<1024xi1, #l>
  tessera.store %oa_l, %sum_l, %om_l : tensor<1024x!tessera.ptr<f32>, #l>
  return
}
}
