// scale_exp of scale_exp.py (BLOCK=16) as the stages up to cpu-to-structured
// left it: the input of cpu-bufferize in plugin-stages.test.
// The entry wrapper (@scale_exp_cpu_entry), which this stage leaves
// alone, is cut.
// Regenerate with
//   tessera compile Inputs/scale_exp.py --backend cpu --kernel scale_exp \
//     --signature "*fp32:16,*fp32:16,*fp32:16,*fp32:16,i32,16" --emit tessera
// then tessera-plugin-check <cpu plugin> --stop-after-stage cpu-to-structured --emit mlir.
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
    %0 = tensor.empty() : tensor<16xf32>
    %1 = arith.muli %arg5, %c16_i32 : i32
    %2 = arith.extsi %1 : i32 to i64
    %3 = arith.muli %2, %c4_i64 : i64
    %4 = arith.addi %arg0, %3 : i64
    %5 = llvm.inttoptr %4 : i64 to !llvm.ptr
    %6 = tensor.empty() : tensor<16xf32>
    %7 = scf.for %arg11 = %c0 to %c16 step %c1 iter_args(%arg12 = %6) -> (tensor<16xf32>) {
      %24 = arith.index_cast %arg11 : index to i64
      %25 = llvm.getelementptr %5[%24] : (!llvm.ptr, i64) -> !llvm.ptr, i32
      %26 = arith.index_cast %arg11 : index to i32
      %27 = arith.addi %1, %26 : i32
      %28 = arith.cmpi slt, %27, %arg4 : i32
      %29 = scf.if %28 -> (f32) {
        %30 = llvm.load %25 {alignment = 4 : i64} : !llvm.ptr -> f32
        scf.yield %30 : f32
      } else {
        scf.yield %cst : f32
      }
      %inserted = tensor.insert %29 into %arg12[%arg11] : tensor<16xf32>
      scf.yield %inserted : tensor<16xf32>
    }
    %8 = arith.extsi %1 : i32 to i64
    %9 = arith.muli %8, %c4_i64 : i64
    %10 = arith.addi %arg1, %9 : i64
    %11 = llvm.inttoptr %10 : i64 to !llvm.ptr
    %12 = scf.for %arg11 = %c0 to %c16 step %c1 iter_args(%arg12 = %0) -> (tensor<16xf32>) {
      %24 = arith.index_cast %arg11 : index to i64
      %25 = llvm.getelementptr %11[%24] : (!llvm.ptr, i64) -> !llvm.ptr, i32
      %26 = arith.index_cast %arg11 : index to i32
      %27 = arith.addi %1, %26 : i32
      %28 = arith.cmpi slt, %27, %arg4 : i32
      %29 = scf.if %28 -> (f32) {
        %30 = llvm.load %25 {alignment = 4 : i64} : !llvm.ptr -> f32
        scf.yield %30 : f32
      } else {
        scf.yield %cst : f32
      }
      %inserted = tensor.insert %29 into %arg12[%arg11] : tensor<16xf32>
      scf.yield %inserted : tensor<16xf32>
    }
    %13 = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel"]} outs(%7 : tensor<16xf32>) {
    ^bb0(%out: f32):
      %24 = math.exp %out : f32
      linalg.yield %24 : f32
    } -> tensor<16xf32>
    %14 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%12 : tensor<16xf32>) outs(%13 : tensor<16xf32>) {
    ^bb0(%in: f32, %out: f32):
      %24 = arith.mulf %out, %in : f32
      %25 = arith.addf %24, %cst_0 : f32
      linalg.yield %25 : f32
    } -> tensor<16xf32>
    %15 = arith.extsi %1 : i32 to i64
    %16 = arith.muli %15, %c4_i64 : i64
    %17 = arith.addi %arg2, %16 : i64
    %18 = llvm.inttoptr %17 : i64 to !llvm.ptr
    scf.for %arg11 = %c0 to %c16 step %c1 {
      %24 = arith.index_cast %arg11 : index to i64
      %25 = llvm.getelementptr %18[%24] : (!llvm.ptr, i64) -> !llvm.ptr, i32
      %extracted_2 = tensor.extract %12[%arg11] : tensor<16xf32>
      %extracted_3 = tensor.extract %13[%arg11] : tensor<16xf32>
      %26 = arith.mulf %extracted_3, %extracted_2 : f32
      %27 = arith.addf %26, %cst_0 : f32
      %28 = arith.index_cast %arg11 : index to i32
      %29 = arith.addi %1, %28 : i32
      %30 = arith.cmpi slt, %29, %arg4 : i32
      scf.if %30 {
        llvm.store %27, %25 {alignment = 4 : i64} : f32, !llvm.ptr
      }
    }
    %19 = arith.extsi %arg5 : i32 to i64
    %20 = arith.muli %19, %c4_i64 : i64
    %21 = arith.addi %arg3, %20 : i64
    %extracted_slice = tensor.extract_slice %14[0] [1] [1] : tensor<16xf32> to tensor<f32>
    %extracted_slice_1 = tensor.extract_slice %14[1] [15] [1] : tensor<16xf32> to tensor<15xf32>
    %22 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["reduction"]} ins(%extracted_slice_1 : tensor<15xf32>) outs(%extracted_slice : tensor<f32>) {
    ^bb0(%in: f32, %out: f32):
      %24 = arith.addf %out, %in : f32
      linalg.yield %24 : f32
    } -> tensor<f32>
    %extracted = tensor.extract %22[] : tensor<f32>
    %23 = llvm.inttoptr %21 : i64 to !llvm.ptr
    llvm.store %extracted, %23 {alignment = 4 : i64} : f32, !llvm.ptr
    return
  }
}

