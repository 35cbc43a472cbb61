// scale_exp of scale_exp.py (BLOCK=16) as the stages up to cpu-to-loops
// left it: the input of lower-to-llvm in plugin-stages.test.
// Regenerate with
//   tessera compile Inputs/scale_exp.py --backend cpu --kernel scale_exp \
//     --signature "*fp32:16,*fp32:16,*fp32:16,*fp32:16,i32,16" --emit tessera
// then tessera-plugin-check <cpu plugin> --stop-after-stage cpu-to-loops --emit mlir.
module attributes {tessera_gpu.num_ctas = 1 : i32, tessera_gpu.num_warps = 1 : i32, tessera_gpu.target = "cpu", tessera_gpu.threads_per_warp = 1 : i32} {
  func.func private @scale_exp(%arg0: i64 {tessera.divisibility = 16 : i32}, %arg1: i64 {tessera.divisibility = 16 : i32}, %arg2: i64 {tessera.divisibility = 16 : i32}, %arg3: i64 {tessera.divisibility = 16 : i32}, %arg4: i32, %arg5: i32, %arg6: i32, %arg7: i32, %arg8: i32, %arg9: i32, %arg10: i32) attributes {tessera.kernel, tessera.signature_names = ["arg0", "arg1", "arg2", "arg3", "arg4"], tessera.signature_types = ["*fp32", "*fp32", "*fp32", "*fp32", "i32"]} {
    %c15 = arith.constant 15 : index
    %c16 = arith.constant 16 : index
    %c1 = arith.constant 1 : index
    %c0 = arith.constant 0 : index
    %c4_i64 = arith.constant 4 : i64
    %c16_i32 = arith.constant 16 : i32
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 1.000000e+00 : f32
    %0 = arith.muli %arg5, %c16_i32 : i32
    %1 = arith.extsi %0 : i32 to i64
    %2 = arith.muli %1, %c4_i64 : i64
    %3 = arith.addi %arg0, %2 : i64
    %4 = llvm.inttoptr %3 : i64 to !llvm.ptr
    %5 = arith.addi %arg1, %2 : i64
    %6 = llvm.inttoptr %5 : i64 to !llvm.ptr
    %alloca = memref.alloca() {alignment = 64 : i64} : memref<16xf32>
    %7 = arith.addi %arg2, %2 : i64
    %8 = llvm.inttoptr %7 : i64 to !llvm.ptr
    scf.for %arg11 = %c0 to %c16 step %c1 {
      %15 = arith.index_cast %arg11 : index to i64
      %16 = llvm.getelementptr %4[%15] : (!llvm.ptr, i64) -> !llvm.ptr, i32
      %17 = arith.index_cast %arg11 : index to i32
      %18 = arith.addi %0, %17 : i32
      %19 = arith.cmpi slt, %18, %arg4 : i32
      %20 = scf.if %19 -> (f32) {
        %37 = llvm.load %16 {alignment = 4 : i64} : !llvm.ptr -> f32
        scf.yield %37 : f32
      } else {
        scf.yield %cst : f32
      }
      %21 = arith.index_cast %arg11 : index to i64
      %22 = llvm.getelementptr %6[%21] : (!llvm.ptr, i64) -> !llvm.ptr, i32
      %23 = arith.index_cast %arg11 : index to i32
      %24 = arith.addi %0, %23 : i32
      %25 = arith.cmpi slt, %24, %arg4 : i32
      %26 = scf.if %25 -> (f32) {
        %37 = llvm.load %22 {alignment = 4 : i64} : !llvm.ptr -> f32
        scf.yield %37 : f32
      } else {
        scf.yield %cst : f32
      }
      %27 = math.exp %20 : f32
      memref.store %27, %alloca[%arg11] : memref<16xf32>
      %28 = arith.mulf %27, %26 : f32
      %29 = arith.addf %28, %cst_0 : f32
      memref.store %29, %alloca[%arg11] : memref<16xf32>
      %30 = arith.index_cast %arg11 : index to i64
      %31 = llvm.getelementptr %8[%30] : (!llvm.ptr, i64) -> !llvm.ptr, i32
      %32 = arith.mulf %27, %26 : f32
      %33 = arith.addf %32, %cst_0 : f32
      %34 = arith.index_cast %arg11 : index to i32
      %35 = arith.addi %0, %34 : i32
      %36 = arith.cmpi slt, %35, %arg4 : i32
      scf.if %36 {
        llvm.store %33, %31 {alignment = 4 : i64} : f32, !llvm.ptr
      }
    }
    %9 = arith.extsi %arg5 : i32 to i64
    %10 = arith.muli %9, %c4_i64 : i64
    %11 = arith.addi %arg3, %10 : i64
    %subview = memref.subview %alloca[0] [1] [1] : memref<16xf32> to memref<f32, strided<[]>>
    %alloca_1 = memref.alloca() {alignment = 64 : i64} : memref<f32>
    %12 = memref.load %subview[] : memref<f32, strided<[]>>
    memref.store %12, %alloca_1[] : memref<f32>
    %subview_2 = memref.subview %alloca[1] [15] [1] : memref<16xf32> to memref<15xf32, strided<[1], offset: 1>>
    scf.for %arg11 = %c0 to %c15 step %c1 {
      %15 = memref.load %subview_2[%arg11] : memref<15xf32, strided<[1], offset: 1>>
      %16 = memref.load %alloca_1[] : memref<f32>
      %17 = arith.addf %16, %15 : f32
      memref.store %17, %alloca_1[] : memref<f32>
    }
    %13 = memref.load %alloca_1[] : memref<f32>
    %14 = llvm.inttoptr %11 : i64 to !llvm.ptr
    llvm.store %13, %14 {alignment = 4 : i64} : f32, !llvm.ptr
    return
  }
  func.func @scale_exp_cpu_entry(%arg0: !llvm.ptr, %arg1: i32, %arg2: i32, %arg3: i32, %arg4: i32, %arg5: i32, %arg6: i32, %arg7: !llvm.ptr) attributes {tessera.entry_of = "scale_exp", tessera.signature_names = ["arg0", "arg1", "arg2", "arg3", "arg4"], tessera.signature_types = ["*fp32", "*fp32", "*fp32", "*fp32", "i32"]} {
    %0 = llvm.load %arg0 : !llvm.ptr -> !llvm.ptr
    %1 = llvm.load %0 {alignment = 1 : i64} : !llvm.ptr -> i64
    %2 = llvm.getelementptr %arg0[1] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
    %3 = llvm.load %2 : !llvm.ptr -> !llvm.ptr
    %4 = llvm.load %3 {alignment = 1 : i64} : !llvm.ptr -> i64
    %5 = llvm.getelementptr %arg0[2] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
    %6 = llvm.load %5 : !llvm.ptr -> !llvm.ptr
    %7 = llvm.load %6 {alignment = 1 : i64} : !llvm.ptr -> i64
    %8 = llvm.getelementptr %arg0[3] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
    %9 = llvm.load %8 : !llvm.ptr -> !llvm.ptr
    %10 = llvm.load %9 {alignment = 1 : i64} : !llvm.ptr -> i64
    %11 = llvm.getelementptr %arg0[4] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
    %12 = llvm.load %11 : !llvm.ptr -> !llvm.ptr
    %13 = llvm.load %12 {alignment = 1 : i64} : !llvm.ptr -> i32
    call @scale_exp(%1, %4, %7, %10, %13, %arg1, %arg2, %arg3, %arg4, %arg5, %arg6) : (i64, i64, i64, i64, i32, i32, i32, i32, i32, i32, i32) -> ()
    return
  }
}

