// scale_exp of scale_exp.py (BLOCK=16) as the stages up to cpu-bufferize
// left it: the input of cpu-to-loops in plugin-stages.test.
// The entry wrapper (@scale_exp_cpu_entry), which this stage leaves
// alone, is cut.
// Regenerate with
//   tessera compile Inputs/scale_exp.py --backend cpu --kernel scale_exp \
//     --signature "*fp32:16,*fp32:16,*fp32:16,*fp32:16,i32,16" --emit tessera
// then tessera-plugin-check <cpu plugin> --stop-after-stage cpu-bufferize --emit mlir.
#map = affine_map<(d0) -> (d0)>
#map1 = affine_map<(d0) -> ()>
module attributes {tessera_gpu.num_ctas = 1 : i32, tessera_gpu.num_warps = 1 : i32, tessera_gpu.target = "cpu", tessera_gpu.threads_per_warp = 1 : i32} {
  func.func private @scale_exp(%arg0: i64 {tessera.divisibility = 16 : i32}, %arg1: i64 {tessera.divisibility = 16 : i32}, %arg2: i64 {tessera.divisibility = 16 : i32}, %arg3: i64 {tessera.divisibility = 16 : i32}, %arg4: i32, %arg5: i32, %arg6: i32, %arg7: i32, %arg8: i32, %arg9: i32, %arg10: i32) attributes {tessera.kernel, tessera.signature_names = ["arg0", "arg1", "arg2", "arg3", "arg4"], tessera.signature_types = ["*fp32", "*fp32", "*fp32", "*fp32", "i32"]} {
    %c16 = arith.constant 16 : index
    %c1 = arith.constant 1 : index
    %c0 = arith.constant 0 : index
    %c4_i64 = arith.constant 4 : i64
    %c16_i32 = arith.constant 16 : i32
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 1.000000e+00 : f32
    %alloca = memref.alloca() {alignment = 64 : i64} : memref<16xf32>
    %0 = arith.muli %arg5, %c16_i32 : i32
    %1 = arith.extsi %0 : i32 to i64
    %2 = arith.muli %1, %c4_i64 : i64
    %3 = arith.addi %arg0, %2 : i64
    %4 = llvm.inttoptr %3 : i64 to !llvm.ptr
    %alloca_1 = memref.alloca() {alignment = 64 : i64} : memref<16xf32>
    scf.for %arg11 = %c0 to %c16 step %c1 {
      %14 = arith.index_cast %arg11 : index to i64
      %15 = llvm.getelementptr %4[%14] : (!llvm.ptr, i64) -> !llvm.ptr, i32
      %16 = arith.index_cast %arg11 : index to i32
      %17 = arith.addi %0, %16 : i32
      %18 = arith.cmpi slt, %17, %arg4 : i32
      %19 = scf.if %18 -> (f32) {
        %20 = llvm.load %15 {alignment = 4 : i64} : !llvm.ptr -> f32
        scf.yield %20 : f32
      } else {
        scf.yield %cst : f32
      }
      memref.store %19, %alloca_1[%arg11] : memref<16xf32>
    }
    %5 = arith.addi %arg1, %2 : i64
    %6 = llvm.inttoptr %5 : i64 to !llvm.ptr
    scf.for %arg11 = %c0 to %c16 step %c1 {
      %14 = arith.index_cast %arg11 : index to i64
      %15 = llvm.getelementptr %6[%14] : (!llvm.ptr, i64) -> !llvm.ptr, i32
      %16 = arith.index_cast %arg11 : index to i32
      %17 = arith.addi %0, %16 : i32
      %18 = arith.cmpi slt, %17, %arg4 : i32
      %19 = scf.if %18 -> (f32) {
        %20 = llvm.load %15 {alignment = 4 : i64} : !llvm.ptr -> f32
        scf.yield %20 : f32
      } else {
        scf.yield %cst : f32
      }
      memref.store %19, %alloca[%arg11] : memref<16xf32>
    }
    linalg.generic {indexing_maps = [#map], iterator_types = ["parallel"]} outs(%alloca_1 : memref<16xf32>) {
    ^bb0(%out: f32):
      %14 = math.exp %out : f32
      linalg.yield %14 : f32
    }
    %alloca_2 = memref.alloca() {alignment = 64 : i64} : memref<16xf32>
    memref.copy %alloca_1, %alloca_2 : memref<16xf32> to memref<16xf32>
    linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%alloca : memref<16xf32>) outs(%alloca_2 : memref<16xf32>) {
    ^bb0(%in: f32, %out: f32):
      %14 = arith.mulf %out, %in : f32
      %15 = arith.addf %14, %cst_0 : f32
      linalg.yield %15 : f32
    }
    %7 = arith.addi %arg2, %2 : i64
    %8 = llvm.inttoptr %7 : i64 to !llvm.ptr
    scf.for %arg11 = %c0 to %c16 step %c1 {
      %14 = arith.index_cast %arg11 : index to i64
      %15 = llvm.getelementptr %8[%14] : (!llvm.ptr, i64) -> !llvm.ptr, i32
      %16 = memref.load %alloca[%arg11] : memref<16xf32>
      %17 = memref.load %alloca_1[%arg11] : memref<16xf32>
      %18 = arith.mulf %17, %16 : f32
      %19 = arith.addf %18, %cst_0 : f32
      %20 = arith.index_cast %arg11 : index to i32
      %21 = arith.addi %0, %20 : i32
      %22 = arith.cmpi slt, %21, %arg4 : i32
      scf.if %22 {
        llvm.store %19, %15 {alignment = 4 : i64} : f32, !llvm.ptr
      }
    }
    %9 = arith.extsi %arg5 : i32 to i64
    %10 = arith.muli %9, %c4_i64 : i64
    %11 = arith.addi %arg3, %10 : i64
    %subview = memref.subview %alloca_2[0] [1] [1] : memref<16xf32> to memref<f32, strided<[]>>
    %alloca_3 = memref.alloca() {alignment = 64 : i64} : memref<f32>
    memref.copy %subview, %alloca_3 : memref<f32, strided<[]>> to memref<f32>
    %subview_4 = memref.subview %alloca_2[1] [15] [1] : memref<16xf32> to memref<15xf32, strided<[1], offset: 1>>
    linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["reduction"]} ins(%subview_4 : memref<15xf32, strided<[1], offset: 1>>) outs(%alloca_3 : memref<f32>) {
    ^bb0(%in: f32, %out: f32):
      %14 = arith.addf %out, %in : f32
      linalg.yield %14 : f32
    }
    %12 = memref.load %alloca_3[] : memref<f32>
    %13 = llvm.inttoptr %11 : i64 to !llvm.ptr
    llvm.store %12, %13 {alignment = 4 : i64} : f32, !llvm.ptr
    return
  }
}

