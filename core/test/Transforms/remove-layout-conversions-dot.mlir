// RUN: tessera-opt %s --split-input-file --verify-each --tessera-remove-layout-conversions | FileCheck %s
//
// Dots whose results a plugin put in matrix-unit layouts (written as
// `linear` layouts), with conversions around them as the plugin leaves them.

// A matmul loop: the accumulator is carried in the dot's result layout (no
// conversion inside the loop; its zero init is built in that layout), the
// pointers are carried in the loads' coalesced layout, the loaded tiles are
// converted to the operand layouts (real data movement, once per operand and
// iteration), and the result is converted once, after the loop, for the
// store.
// CHECK-DAG: #[[LD:.*]] = #tessera_gpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
// CHECK-DAG: #[[LC:.*]] = #tessera_gpu.blocked<sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]>
// CHECK-DAG: #[[MMA:.*]] = #tessera_gpu.linear<register = {{\[\[}}0, 1], [8, 0], [0, 8], [0, 16], [0, 32]]
// CHECK-DAG: #[[OPA:.*]] = #tessera_gpu.linear<register = {{\[\[}}0, 1], [8, 0], [0, 8], [0, 16]]
// CHECK-DAG: #[[OPB:.*]] = #tessera_gpu.linear<register = {{\[\[}}1, 0], [8, 0], [16, 0], [0, 8], [0, 16], [0, 32]]
// CHECK-LABEL: func.func @matmul
// CHECK: %[[APTR:.*]] = tessera.addptr %{{.*}} : tensor<64x32x!tessera.ptr<f16>, #[[LD]]>, tensor<64x32xi32, #[[LD]]>
// CHECK: %[[BPTR:.*]] = tessera.addptr %{{.*}} : tensor<32x64x!tessera.ptr<f16>, #[[LD]]>, tensor<32x64xi32, #[[LD]]>
// CHECK: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #[[MMA]]>
// CHECK-NOT: tessera_gpu.convert_layout
// CHECK: %[[RES:.*]]:3 = scf.for {{.*}} iter_args(%[[ACC:.*]] = %[[ZERO]], %[[AP:.*]] = %[[APTR]], %[[BP:.*]] = %[[BPTR]]) -> (tensor<64x64xf32, #[[MMA]]>, tensor<64x32x!tessera.ptr<f16>, #[[LD]]>, tensor<32x64x!tessera.ptr<f16>, #[[LD]]>)
// CHECK-NEXT: %[[A:.*]] = tessera.load %[[AP]] : tensor<64x32x!tessera.ptr<f16>, #[[LD]]>
// CHECK-NEXT: %[[AOP:.*]] = tessera_gpu.convert_layout %[[A]] : tensor<64x32xf16, #[[LD]]> -> tensor<64x32xf16, #[[OPA]]>
// CHECK-NEXT: %[[B:.*]] = tessera.load %[[BP]] : tensor<32x64x!tessera.ptr<f16>, #[[LD]]>
// CHECK-NEXT: %[[BOP:.*]] = tessera_gpu.convert_layout %[[B]] : tensor<32x64xf16, #[[LD]]> -> tensor<32x64xf16, #[[OPB]]>
// CHECK-NEXT: %[[DOT:.*]] = tessera.dot %[[AOP]], %[[BOP]], %[[ACC]] : tensor<64x32xf16, #[[OPA]]> * tensor<32x64xf16, #[[OPB]]> -> tensor<64x64xf32, #[[MMA]]>
// CHECK-NEXT: %[[AN:.*]] = tessera.addptr %[[AP]], %{{.*}} : tensor<64x32x!tessera.ptr<f16>, #[[LD]]>
// CHECK-NEXT: %[[BN:.*]] = tessera.addptr %[[BP]], %{{.*}} : tensor<32x64x!tessera.ptr<f16>, #[[LD]]>
// CHECK-NEXT: scf.yield %[[DOT]], %[[AN]], %[[BN]] : tensor<64x64xf32, #[[MMA]]>
// CHECK-NEXT: }
// CHECK-NEXT: %[[OUT:.*]] = tessera_gpu.convert_layout %[[RES]]#0 : tensor<64x64xf32, #[[MMA]]> -> tensor<64x64xf32, #[[LC]]>
// CHECK-NOT: tessera_gpu.convert_layout
// CHECK: tessera.store %{{.*}}, %[[OUT]] : tensor<64x64x!tessera.ptr<f32>, #[[LC]]>
#d1 = #tessera_gpu.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
#col = #tessera_gpu.blocked<sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]>
#da = #tessera_gpu.blocked<sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]>
#d = #tessera_gpu.blocked<sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]>
#ld = #tessera_gpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
#lc = #tessera_gpu.blocked<sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]>
#mma = #tessera_gpu.linear<register = [[0, 1], [8, 0], [0, 8], [0, 16], [0, 32]], lane = [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp = [[16, 0], [32, 0]], block = []>
#opa = #tessera_gpu.linear<register = [[0, 1], [8, 0], [0, 8], [0, 16]], lane = [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp = [[16, 0], [32, 0]], block = []>
#opb = #tessera_gpu.linear<register = [[1, 0], [8, 0], [16, 0], [0, 8], [0, 16], [0, 32]], lane = [[2, 0], [4, 0], [0, 1], [0, 2], [0, 4]], warp = [[0, 0], [0, 0]], block = []>
#colslice = #tessera_gpu.slice<dim = 1, parent = #col>
#arows = #tessera_gpu.slice<dim = 0, parent = #da>
#rows = #tessera_gpu.slice<dim = 0, parent = #d>
module attributes {tessera_gpu.num_ctas = 1 : i32, tessera_gpu.num_warps = 4 : i32, tessera_gpu.threads_per_warp = 32 : i32} {
  func.func @matmul(%arg0: !tessera.ptr<f16>, %arg1: !tessera.ptr<f16>, %arg2: !tessera.ptr<f32>, %arg3: i32) {
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %c32_i32 = arith.constant 32 : i32
    %c64_i32 = arith.constant 64 : i32
    %cst = arith.constant 0.000000e+00 : f32
    %0 = tessera.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #d1>
    %1 = tessera.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #d1>
    %2 = tessera_gpu.convert_layout %0 : tensor<64xi32, #d1> -> tensor<64xi32, #colslice>
    %3 = tessera.expand_dims %2 {axis = 1 : i32} : tensor<64xi32, #colslice> -> tensor<64x1xi32, #col>
    %cst_0 = arith.constant dense<32> : tensor<64x1xi32, #col>
    %4 = arith.muli %3, %cst_0 : tensor<64x1xi32, #col>
    %5 = tessera_gpu.convert_layout %4 : tensor<64x1xi32, #col> -> tensor<64x1xi32, #da>
    %6 = tessera.broadcast %5 : tensor<64x1xi32, #da> -> tensor<64x32xi32, #da>
    %7 = tessera_gpu.convert_layout %1 : tensor<32xi32, #d1> -> tensor<32xi32, #arows>
    %8 = tessera.expand_dims %7 {axis = 0 : i32} : tensor<32xi32, #arows> -> tensor<1x32xi32, #da>
    %9 = tessera.broadcast %8 : tensor<1x32xi32, #da> -> tensor<64x32xi32, #da>
    %10 = arith.addi %6, %9 : tensor<64x32xi32, #da>
    %11 = tessera.splat %arg0 : tensor<64x32x!tessera.ptr<f16>, #da>
    %12 = tessera.addptr %11, %10 : tensor<64x32x!tessera.ptr<f16>, #da>, tensor<64x32xi32, #da>
    %13 = tessera_gpu.convert_layout %1 : tensor<32xi32, #d1> -> tensor<32xi32, #colslice>
    %14 = tessera.expand_dims %13 {axis = 1 : i32} : tensor<32xi32, #colslice> -> tensor<32x1xi32, #col>
    %cst_1 = arith.constant dense<64> : tensor<32x1xi32, #col>
    %15 = arith.muli %14, %cst_1 : tensor<32x1xi32, #col>
    %16 = tessera_gpu.convert_layout %15 : tensor<32x1xi32, #col> -> tensor<32x1xi32, #d>
    %17 = tessera.broadcast %16 : tensor<32x1xi32, #d> -> tensor<32x64xi32, #d>
    %18 = tessera_gpu.convert_layout %0 : tensor<64xi32, #d1> -> tensor<64xi32, #rows>
    %19 = tessera.expand_dims %18 {axis = 0 : i32} : tensor<64xi32, #rows> -> tensor<1x64xi32, #d>
    %20 = tessera.broadcast %19 : tensor<1x64xi32, #d> -> tensor<32x64xi32, #d>
    %21 = arith.addi %17, %20 : tensor<32x64xi32, #d>
    %22 = tessera.splat %arg1 : tensor<32x64x!tessera.ptr<f16>, #d>
    %23 = tessera.addptr %22, %21 : tensor<32x64x!tessera.ptr<f16>, #d>, tensor<32x64xi32, #d>
    %cst_2 = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #d>
    %cst_3 = arith.constant dense<32> : tensor<64x32xi32, #da>
    %24 = arith.muli %c32_i32, %c64_i32 : i32
    %25 = tessera.splat %24 : tensor<32x64xi32, #d>
    %26:3 = scf.for %arg4 = %c0_i32 to %arg3 step %c1_i32 iter_args(%arg5 = %cst_2, %arg6 = %12, %arg7 = %23) -> (tensor<64x64xf32, #d>, tensor<64x32x!tessera.ptr<f16>, #da>, tensor<32x64x!tessera.ptr<f16>, #d>)  : i32 {
      %a_l = tessera_gpu.convert_layout %arg6 : tensor<64x32x!tessera.ptr<f16>, #da> -> tensor<64x32x!tessera.ptr<f16>, #ld>
      %a_v = tessera.load %a_l : tensor<64x32x!tessera.ptr<f16>, #ld>
      %38 = tessera_gpu.convert_layout %a_v : tensor<64x32xf16, #ld> -> tensor<64x32xf16, #da>
      %b_l = tessera_gpu.convert_layout %arg7 : tensor<32x64x!tessera.ptr<f16>, #d> -> tensor<32x64x!tessera.ptr<f16>, #ld>
      %b_v = tessera.load %b_l : tensor<32x64x!tessera.ptr<f16>, #ld>
      %39 = tessera_gpu.convert_layout %b_v : tensor<32x64xf16, #ld> -> tensor<32x64xf16, #d>
      %40 = tessera_gpu.convert_layout %38 : tensor<64x32xf16, #da> -> tensor<64x32xf16, #opa>
      %41 = tessera_gpu.convert_layout %39 : tensor<32x64xf16, #d> -> tensor<32x64xf16, #opb>
      %acc_m = tessera_gpu.convert_layout %arg5 : tensor<64x64xf32, #d> -> tensor<64x64xf32, #mma>
      %d_m = tessera.dot %40, %41, %acc_m : tensor<64x32xf16, #opa> * tensor<32x64xf16, #opb> -> tensor<64x64xf32, #mma>
      %42 = tessera_gpu.convert_layout %d_m : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #d>
      %43 = tessera.addptr %arg6, %cst_3 : tensor<64x32x!tessera.ptr<f16>, #da>, tensor<64x32xi32, #da>
      %44 = tessera.addptr %arg7, %25 : tensor<32x64x!tessera.ptr<f16>, #d>, tensor<32x64xi32, #d>
      scf.yield %42, %43, %44 : tensor<64x64xf32, #d>, tensor<64x32x!tessera.ptr<f16>, #da>, tensor<32x64x!tessera.ptr<f16>, #d>
    }
    %27 = tessera_gpu.convert_layout %0 : tensor<64xi32, #d1> -> tensor<64xi32, #colslice>
    %28 = tessera.expand_dims %27 {axis = 1 : i32} : tensor<64xi32, #colslice> -> tensor<64x1xi32, #col>
    %cst_4 = arith.constant dense<64> : tensor<64x1xi32, #col>
    %29 = arith.muli %28, %cst_4 : tensor<64x1xi32, #col>
    %30 = tessera_gpu.convert_layout %29 : tensor<64x1xi32, #col> -> tensor<64x1xi32, #d>
    %31 = tessera.broadcast %30 : tensor<64x1xi32, #d> -> tensor<64x64xi32, #d>
    %32 = tessera_gpu.convert_layout %0 : tensor<64xi32, #d1> -> tensor<64xi32, #rows>
    %33 = tessera.expand_dims %32 {axis = 0 : i32} : tensor<64xi32, #rows> -> tensor<1x64xi32, #d>
    %34 = tessera.broadcast %33 : tensor<1x64xi32, #d> -> tensor<64x64xi32, #d>
    %35 = arith.addi %31, %34 : tensor<64x64xi32, #d>
    %36 = tessera.splat %arg2 : tensor<64x64x!tessera.ptr<f32>, #d>
    %37 = tessera.addptr %36, %35 : tensor<64x64x!tessera.ptr<f32>, #d>, tensor<64x64xi32, #d>
    %c_l = tessera_gpu.convert_layout %37 : tensor<64x64x!tessera.ptr<f32>, #d> -> tensor<64x64x!tessera.ptr<f32>, #lc>
    %r_l = tessera_gpu.convert_layout %26#0 : tensor<64x64xf32, #d> -> tensor<64x64xf32, #lc>
    tessera.store %c_l, %r_l : tensor<64x64x!tessera.ptr<f32>, #lc>
    return
  }
}

// -----

// Attention's row softmax on a dot result: the max reduction, its broadcast
// back and the exponential stay in the dot's layout (the reduction's result
// and its expansion become `linear` layouts derived from it); only the store
// needs a conversion.
// CHECK-DAG: #[[MMA:.*]] = #tessera_gpu.linear<register = {{\[\[}}0, 1], [8, 0], [0, 8], [0, 16], [0, 32]]
// CHECK-DAG: #[[ROW:.*]] = #tessera_gpu.linear<register = {{\[\[}}8]], lane = {{\[\[}}0], [0], [1], [2], [4]], warp = {{\[\[}}16], [32]], block = []>
// CHECK-DAG: #[[COL:.*]] = #tessera_gpu.linear<register = {{\[\[}}8, 0]], lane = {{\[\[}}0, 0], [0, 0], [1, 0], [2, 0], [4, 0]], warp = {{\[\[}}16, 0], [32, 0]], block = []>
// CHECK-LABEL: func.func @qk_softmax
// CHECK: %[[S:.*]] = tessera.dot {{.*}} -> tensor<64x64xf32, #[[MMA]]>
// CHECK-NEXT: %[[M:.*]] = tessera.reduce(%[[S]]) {axis = 1 : i32} : (tensor<64x64xf32, #[[MMA]]>) -> tensor<64xf32, #[[ROW]]>
// CHECK: %[[ME:.*]] = tessera.expand_dims %[[M]] {axis = 1 : i32} : tensor<64xf32, #[[ROW]]> -> tensor<64x1xf32, #[[COL]]>
// CHECK-NEXT: %[[MB:.*]] = tessera.broadcast %[[ME]] : tensor<64x1xf32, #[[COL]]> -> tensor<64x64xf32, #[[MMA]]>
// CHECK-NEXT: %[[X:.*]] = arith.subf %[[S]], %[[MB]] : tensor<64x64xf32, #[[MMA]]>
// CHECK-NEXT: %[[P:.*]] = math.exp2 %[[X]] : tensor<64x64xf32, #[[MMA]]>
// CHECK-NEXT: %[[PC:.*]] = tessera_gpu.convert_layout %[[P]] : tensor<64x64xf32, #[[MMA]]>
// CHECK-NEXT: tessera.store %{{.*}}, %[[PC]]
#d = #tessera_gpu.blocked<sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]>
#d1 = #tessera_gpu.blocked<sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]>
#d0 = #tessera_gpu.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
#s = #tessera_gpu.slice<dim = 1, parent = #d>
#s1 = #tessera_gpu.slice<dim = 1, parent = #d1>
#ld = #tessera_gpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
#mma = #tessera_gpu.linear<register = [[0, 1], [8, 0], [0, 8], [0, 16], [0, 32]], lane = [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp = [[16, 0], [32, 0]], block = []>
#opa = #tessera_gpu.linear<register = [[0, 1], [8, 0], [0, 8], [0, 16]], lane = [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp = [[16, 0], [32, 0]], block = []>
#opb = #tessera_gpu.linear<register = [[1, 0], [8, 0], [16, 0], [0, 8], [0, 16], [0, 32]], lane = [[2, 0], [4, 0], [0, 1], [0, 2], [0, 4]], warp = [[0, 0], [0, 0]], block = []>
module attributes {tessera_gpu.num_ctas = 1 : i32, tessera_gpu.num_warps = 4 : i32, tessera_gpu.threads_per_warp = 32 : i32} {
func.func @qk_softmax(%q: tensor<64x32xf16, #ld>, %k: tensor<32x64xf16, #ld>, %po: tensor<64x64x!tessera.ptr<f32>, #d>) {
  %z = arith.constant dense<0.0> : tensor<64x64xf32, #d>
  %qa = tessera_gpu.convert_layout %q : tensor<64x32xf16, #ld> -> tensor<64x32xf16, #opa>
  %kb = tessera_gpu.convert_layout %k : tensor<32x64xf16, #ld> -> tensor<32x64xf16, #opb>
  %zm = tessera_gpu.convert_layout %z : tensor<64x64xf32, #d> -> tensor<64x64xf32, #mma>
  %sm = tessera.dot %qa, %kb, %zm : tensor<64x32xf16, #opa> * tensor<32x64xf16, #opb> -> tensor<64x64xf32, #mma>
  %s = tessera_gpu.convert_layout %sm : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #d>
  %m = tessera.reduce(%s) {axis = 1 : i32} : (tensor<64x64xf32, #d>) -> tensor<64xf32, #s> {
  ^bb0(%a: f32, %b: f32):
    %mx = arith.maximumf %a, %b : f32
    tessera.reduce.return %mx : f32
  }
  %m1 = tessera_gpu.convert_layout %m : tensor<64xf32, #s> -> tensor<64xf32, #s1>
  %me = tessera.expand_dims %m1 {axis = 1 : i32} : tensor<64xf32, #s1> -> tensor<64x1xf32, #d1>
  %me2 = tessera_gpu.convert_layout %me : tensor<64x1xf32, #d1> -> tensor<64x1xf32, #d>
  %mb = tessera.broadcast %me2 : tensor<64x1xf32, #d> -> tensor<64x64xf32, #d>
  %x = arith.subf %s, %mb : tensor<64x64xf32, #d>
  %p = math.exp2 %x : tensor<64x64xf32, #d>
  tessera.store %po, %p : tensor<64x64x!tessera.ptr<f32>, #d>
  return
}
}


// -----

// The inner loop of flash attention, as convert-to-gpu and a plugin leave
// it (default layouts, dots in matrix-unit layouts with conversions around
// them). The running maximum and sum are carried in the row layout of the
// first dot's result, the output accumulator in the second dot's result
// layout, and the probabilities feed the second dot without a conversion
// (its operand layout is the first dot's result layout). Per iteration only
// the loaded K and V tiles move (to operand layouts); Q moves once, before
// the loop, and the output once, after it.
// CHECK-DAG: #[[S:.*]] = #tessera_gpu.linear<register = {{\[\[}}0, 1], [8, 0], [0, 8], [0, 16], [0, 32]], lane = {{\[\[}}0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp = {{\[\[}}16, 0], [32, 0]], block = []>
// CHECK-DAG: #[[O:.*]] = #tessera_gpu.linear<register = {{\[\[}}0, 1], [8, 0], [0, 8], [0, 16]], lane = {{\[\[}}0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp = {{\[\[}}16, 0], [32, 0]], block = []>
// CHECK-DAG: #[[ROW:.*]] = #tessera_gpu.linear<register = {{\[\[}}8]], lane = {{\[\[}}0], [0], [1], [2], [4]], warp = {{\[\[}}16], [32]], block = []>
// CHECK-LABEL: func.func @attn
// CHECK: %[[Q:.*]] = tessera_gpu.convert_layout %{{.*}} : tensor<64x32xf16, #{{.*}}> -> tensor<64x32xf16, #[[O]]>
// CHECK: scf.for {{.*}} -> (tensor<64x32xf32, #[[O]]>, tensor<64xf32, #[[ROW]]>, tensor<64xf32, #[[ROW]]>, {{.*}})
// CHECK: %[[K:.*]] = tessera_gpu.convert_layout %{{.*}} : tensor<32x64xf16, #{{.*}}> -> tensor<32x64xf16, #[[KOP:.*]]>
// CHECK: %[[QK:.*]] = tessera.dot %[[Q]], %[[K]], %{{.*}} : tensor<64x32xf16, #[[O]]> * tensor<32x64xf16, #[[KOP]]> -> tensor<64x64xf32, #[[S]]>
// CHECK-NOT: tessera_gpu.convert_layout
// CHECK: tessera.reduce(%[[QK]]) {axis = 1 : i32} : (tensor<64x64xf32, #[[S]]>) -> tensor<64xf32, #[[ROW]]>
// CHECK-NOT: tessera_gpu.convert_layout
// CHECK: %[[P:.*]] = arith.truncf %{{.*}} : tensor<64x64xf32, #[[S]]> to tensor<64x64xf16, #[[S]]>
// CHECK: %[[V:.*]] = tessera_gpu.convert_layout %{{.*}} : tensor<64x32xf16, #{{.*}}> -> tensor<64x32xf16, #[[VOP:.*]]>
// CHECK-NEXT: tessera.dot %[[P]], %[[V]], %{{.*}} : tensor<64x64xf16, #[[S]]> * tensor<64x32xf16, #[[VOP]]> -> tensor<64x32xf32, #[[O]]>
// CHECK-NOT: tessera_gpu.convert_layout
// CHECK: scf.yield
// CHECK-NEXT: }
// CHECK-COUNT-1: tessera_gpu.convert_layout %{{.*}} : tensor<64x32xf32, #[[O]]>
// CHECK-NOT: tessera_gpu.convert_layout
// CHECK: return
#blocked = #tessera_gpu.blocked<sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]>
#blocked1 = #tessera_gpu.blocked<sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]>
#blocked2 = #tessera_gpu.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
#blocked3 = #tessera_gpu.blocked<sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]>
#dot_op = #tessera_gpu.dot_op<opIdx = 0, parent = #blocked1>
#dot_op1 = #tessera_gpu.dot_op<opIdx = 1, parent = #blocked1>
#dot_op2 = #tessera_gpu.dot_op<opIdx = 0, parent = #blocked>
#dot_op3 = #tessera_gpu.dot_op<opIdx = 1, parent = #blocked>
#slice = #tessera_gpu.slice<dim = 1, parent = #blocked1>
#slice1 = #tessera_gpu.slice<dim = 1, parent = #blocked3>
module attributes {tessera_gpu.num_ctas = 1 : i32, tessera_gpu.num_warps = 4 : i32, tessera_gpu.threads_per_warp = 32 : i32} {
  func.func @attn(%arg0: tensor<64x32x!tessera.ptr<f16>, #blocked>, %arg1: tensor<32x64x!tessera.ptr<f16>, #blocked1>, %arg2: tensor<64x32x!tessera.ptr<f16>, #blocked>, %arg3: tensor<64x32x!tessera.ptr<f32>, #blocked>, %arg4: i32) {
    %cst = arith.constant dense<64> : tensor<64x32xi32, #blocked>
    %cst_0 = arith.constant dense<64> : tensor<32x64xi32, #blocked1>
    %cst_1 = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #blocked1>
    %cst_2 = arith.constant dense<1.000000e+00> : tensor<64xf32, #blocked2>
    %cst_3 = arith.constant dense<0xFF800000> : tensor<64xf32, #blocked2>
    %cst_4 = arith.constant dense<0.000000e+00> : tensor<64x32xf32, #blocked>
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %0 = tessera.load %arg0 : tensor<64x32x!tessera.ptr<f16>, #blocked>
    %1:5 = scf.for %arg5 = %c0_i32 to %arg4 step %c1_i32 iter_args(%arg6 = %cst_4, %arg7 = %cst_3, %arg8 = %cst_2, %arg9 = %arg1, %arg10 = %arg2) -> (tensor<64x32xf32, #blocked>, tensor<64xf32, #blocked2>, tensor<64xf32, #blocked2>, tensor<32x64x!tessera.ptr<f16>, #blocked1>, tensor<64x32x!tessera.ptr<f16>, #blocked>)  : i32 {
      %7 = tessera.load %arg9 : tensor<32x64x!tessera.ptr<f16>, #blocked1>
      %8 = tessera_gpu.convert_layout %0 : tensor<64x32xf16, #blocked> -> tensor<64x32xf16, #dot_op>
      %9 = tessera_gpu.convert_layout %7 : tensor<32x64xf16, #blocked1> -> tensor<32x64xf16, #dot_op1>
      %pa1 = tessera_gpu.convert_layout %8 : tensor<64x32xf16, #dot_op> -> tensor<64x32xf16, #tessera_gpu.linear<register = [[0, 1], [8, 0], [0, 8], [0, 16]], lane = [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp = [[16, 0], [32, 0]], block = []>>
      %pb1 = tessera_gpu.convert_layout %9 : tensor<32x64xf16, #dot_op1> -> tensor<32x64xf16, #tessera_gpu.linear<register = [[1, 0], [8, 0], [16, 0], [0, 8], [0, 16], [0, 32]], lane = [[2, 0], [4, 0], [0, 1], [0, 2], [0, 4]], warp = [[0, 0], [0, 0]], block = []>>
      %pc1 = tessera_gpu.convert_layout %cst_1 : tensor<64x64xf32, #blocked1> -> tensor<64x64xf32, #tessera_gpu.linear<register = [[0, 1], [8, 0], [0, 8], [0, 16], [0, 32]], lane = [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp = [[16, 0], [32, 0]], block = []>>
      %pd1 = tessera.dot %pa1, %pb1, %pc1 : tensor<64x32xf16, #tessera_gpu.linear<register = [[0, 1], [8, 0], [0, 8], [0, 16]], lane = [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp = [[16, 0], [32, 0]], block = []>> * tensor<32x64xf16, #tessera_gpu.linear<register = [[1, 0], [8, 0], [16, 0], [0, 8], [0, 16], [0, 32]], lane = [[2, 0], [4, 0], [0, 1], [0, 2], [0, 4]], warp = [[0, 0], [0, 0]], block = []>> -> tensor<64x64xf32, #tessera_gpu.linear<register = [[0, 1], [8, 0], [0, 8], [0, 16], [0, 32]], lane = [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp = [[16, 0], [32, 0]], block = []>>
      %10 = tessera_gpu.convert_layout %pd1 : tensor<64x64xf32, #tessera_gpu.linear<register = [[0, 1], [8, 0], [0, 8], [0, 16], [0, 32]], lane = [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp = [[16, 0], [32, 0]], block = []>> -> tensor<64x64xf32, #blocked1>
      %11 = tessera.reduce(%10) {axis = 1 : i32} : (tensor<64x64xf32, #blocked1>) -> tensor<64xf32, #slice> {
      ^bb0(%arg11: f32, %arg12: f32):
        %38 = arith.maximumf %arg11, %arg12 : f32
        tessera.reduce.return %38 : f32
      }
      %12 = tessera_gpu.convert_layout %11 : tensor<64xf32, #slice> -> tensor<64xf32, #blocked2>
      %13 = arith.maximumf %arg7, %12 : tensor<64xf32, #blocked2>
      %14 = tessera_gpu.convert_layout %13 : tensor<64xf32, #blocked2> -> tensor<64xf32, #slice1>
      %15 = tessera.expand_dims %14 {axis = 1 : i32} : tensor<64xf32, #slice1> -> tensor<64x1xf32, #blocked3>
      %16 = tessera_gpu.convert_layout %15 : tensor<64x1xf32, #blocked3> -> tensor<64x1xf32, #blocked1>
      %17 = tessera.broadcast %16 : tensor<64x1xf32, #blocked1> -> tensor<64x64xf32, #blocked1>
      %18 = arith.subf %10, %17 : tensor<64x64xf32, #blocked1>
      %19 = math.exp2 %18 : tensor<64x64xf32, #blocked1>
      %20 = arith.subf %arg7, %13 : tensor<64xf32, #blocked2>
      %21 = math.exp2 %20 : tensor<64xf32, #blocked2>
      %22 = tessera.reduce(%19) {axis = 1 : i32} : (tensor<64x64xf32, #blocked1>) -> tensor<64xf32, #slice> {
      ^bb0(%arg11: f32, %arg12: f32):
        %38 = arith.addf %arg11, %arg12 : f32
        tessera.reduce.return %38 : f32
      }
      %23 = tessera_gpu.convert_layout %22 : tensor<64xf32, #slice> -> tensor<64xf32, #blocked2>
      %24 = arith.mulf %arg8, %21 : tensor<64xf32, #blocked2>
      %25 = arith.addf %24, %23 : tensor<64xf32, #blocked2>
      %26 = tessera_gpu.convert_layout %21 : tensor<64xf32, #blocked2> -> tensor<64xf32, #slice1>
      %27 = tessera.expand_dims %26 {axis = 1 : i32} : tensor<64xf32, #slice1> -> tensor<64x1xf32, #blocked3>
      %28 = tessera_gpu.convert_layout %27 : tensor<64x1xf32, #blocked3> -> tensor<64x1xf32, #blocked>
      %29 = tessera.broadcast %28 : tensor<64x1xf32, #blocked> -> tensor<64x32xf32, #blocked>
      %30 = arith.mulf %arg6, %29 : tensor<64x32xf32, #blocked>
      %31 = arith.truncf %19 : tensor<64x64xf32, #blocked1> to tensor<64x64xf16, #blocked1>
      %32 = tessera.load %arg10 : tensor<64x32x!tessera.ptr<f16>, #blocked>
      %33 = tessera_gpu.convert_layout %31 : tensor<64x64xf16, #blocked1> -> tensor<64x64xf16, #dot_op2>
      %34 = tessera_gpu.convert_layout %32 : tensor<64x32xf16, #blocked> -> tensor<64x32xf16, #dot_op3>
      %pa2 = tessera_gpu.convert_layout %33 : tensor<64x64xf16, #dot_op2> -> tensor<64x64xf16, #tessera_gpu.linear<register = [[0, 1], [8, 0], [0, 8], [0, 16], [0, 32]], lane = [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp = [[16, 0], [32, 0]], block = []>>
      %pb2 = tessera_gpu.convert_layout %34 : tensor<64x32xf16, #dot_op3> -> tensor<64x32xf16, #tessera_gpu.linear<register = [[1, 0], [8, 0], [16, 0], [32, 0], [0, 8], [0, 16]], lane = [[2, 0], [4, 0], [0, 1], [0, 2], [0, 4]], warp = [[0, 0], [0, 0]], block = []>>
      %pc2 = tessera_gpu.convert_layout %30 : tensor<64x32xf32, #blocked> -> tensor<64x32xf32, #tessera_gpu.linear<register = [[0, 1], [8, 0], [0, 8], [0, 16]], lane = [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp = [[16, 0], [32, 0]], block = []>>
      %pd2 = tessera.dot %pa2, %pb2, %pc2 : tensor<64x64xf16, #tessera_gpu.linear<register = [[0, 1], [8, 0], [0, 8], [0, 16], [0, 32]], lane = [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp = [[16, 0], [32, 0]], block = []>> * tensor<64x32xf16, #tessera_gpu.linear<register = [[1, 0], [8, 0], [16, 0], [32, 0], [0, 8], [0, 16]], lane = [[2, 0], [4, 0], [0, 1], [0, 2], [0, 4]], warp = [[0, 0], [0, 0]], block = []>> -> tensor<64x32xf32, #tessera_gpu.linear<register = [[0, 1], [8, 0], [0, 8], [0, 16]], lane = [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp = [[16, 0], [32, 0]], block = []>>
      %35 = tessera_gpu.convert_layout %pd2 : tensor<64x32xf32, #tessera_gpu.linear<register = [[0, 1], [8, 0], [0, 8], [0, 16]], lane = [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp = [[16, 0], [32, 0]], block = []>> -> tensor<64x32xf32, #blocked>
      %36 = tessera.addptr %arg9, %cst_0 : tensor<32x64x!tessera.ptr<f16>, #blocked1>, tensor<32x64xi32, #blocked1>
      %37 = tessera.addptr %arg10, %cst : tensor<64x32x!tessera.ptr<f16>, #blocked>, tensor<64x32xi32, #blocked>
      scf.yield %35, %13, %25, %36, %37 : tensor<64x32xf32, #blocked>, tensor<64xf32, #blocked2>, tensor<64xf32, #blocked2>, tensor<32x64x!tessera.ptr<f16>, #blocked1>, tensor<64x32x!tessera.ptr<f16>, #blocked>
    }
    %2 = tessera_gpu.convert_layout %1#2 : tensor<64xf32, #blocked2> -> tensor<64xf32, #slice1>
    %3 = tessera.expand_dims %2 {axis = 1 : i32} : tensor<64xf32, #slice1> -> tensor<64x1xf32, #blocked3>
    %4 = tessera_gpu.convert_layout %3 : tensor<64x1xf32, #blocked3> -> tensor<64x1xf32, #blocked>
    %5 = tessera.broadcast %4 : tensor<64x1xf32, #blocked> -> tensor<64x32xf32, #blocked>
    %6 = arith.divf %1#0, %5 : tensor<64x32xf32, #blocked>
    tessera.store %arg3, %6 : tensor<64x32x!tessera.ptr<f32>, #blocked>
    return
  }
}
