// RUN: tessera-opt %s --split-input-file --verify-diagnostics --tessera-convert-to-gpu="num-warps=4" --tessera-test-accelerate-dot="instructions=test.k64:16x8x64:fp16*fp16->fp32,test.k16:16x8x16:fp16*fp16->fp32,test.tf32:16x8x8:tf32*tf32->fp32,test.i8:16x8x32:int8*int8->int32 decline=test.tf32" | FileCheck %s
//
// accelerate-dot asks the target for the layouts of the first matrix
// instruction whose types match and which takes the shape, and rebuilds the
// dot in them; dots no instruction takes stay on multiply-adds with a remark
// naming what was passed over.

// k = 32 is not a multiple of test.k64's 64, so test.k16 is taken: operands
// and accumulator are converted to its layouts, the dot is tagged with it,
// and the result goes back to the layout its users had.
// CHECK-DAG: #[[C:.*]] = #tessera_gpu.blocked<sizePerThread = [1, 1], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]>
// CHECK-DAG: #[[ACC:.*]] = #tessera_gpu.linear<register = {{\[\[}}0, 1], [1, 0], [0, 8]], lane = {{\[\[}}0, 2], [0, 4], [2, 0], [4, 0], [8, 0]], warp = {{\[\[}}16, 0], [0, 0]], block = []>
// CHECK-LABEL: func.func @dot
// CHECK: %[[A:.*]] = tessera_gpu.convert_layout %{{.*}} : tensor<32x32xf16, #{{.*}}> -> tensor<32x32xf16, #[[LA:linear[0-9]*]]>
// CHECK: %[[B:.*]] = tessera_gpu.convert_layout %{{.*}} : tensor<32x16xf16, #{{.*}}> -> tensor<32x16xf16, #[[LB:linear[0-9]*]]>
// CHECK: %[[ACCIN:.*]] = tessera_gpu.convert_layout %arg2 : tensor<32x16xf32, #[[C]]> -> tensor<32x16xf32, #[[ACC]]>
// CHECK: %[[D:.*]] = tessera.dot %[[A]], %[[B]], %[[ACCIN]] {tessera_gpu.matrix_instruction = "test.k16"} : tensor<32x32xf16, #[[LA]]> * tensor<32x16xf16, #[[LB]]> -> tensor<32x16xf32, #[[ACC]]>
// CHECK: %[[OUT:.*]] = tessera_gpu.convert_layout %[[D]] : tensor<32x16xf32, #[[ACC]]> -> tensor<32x16xf32, #[[C]]>
// CHECK: return %[[OUT]]
func.func @dot(%a: tensor<32x32xf16>, %b: tensor<32x16xf16>, %c: tensor<32x16xf32>) -> tensor<32x16xf32> {
  %d = tessera.dot %a, %b, %c : tensor<32x32xf16> * tensor<32x16xf16> -> tensor<32x16xf32>
  return %d : tensor<32x16xf32>
}

// -----

// int8 x int8 -> int32 has its own instruction.
// CHECK-LABEL: func.func @int8
// CHECK: tessera.dot {{.*}} {tessera_gpu.matrix_instruction = "test.i8"}
func.func @int8(%a: tensor<16x64xi8>, %b: tensor<64x16xi8>, %c: tensor<16x16xi32>) -> tensor<16x16xi32> {
  %d = tessera.dot %a, %b, %c : tensor<16x64xi8> * tensor<64x16xi8> -> tensor<16x16xi32>
  return %d : tensor<16x16xi32>
}

// -----

// Too small for every fp16 instruction: both are named with the reason.
// CHECK-LABEL: func.func @small
// CHECK-NOT: matrix_instruction
func.func @small(%a: tensor<8x16xf16>, %b: tensor<16x8xf16>, %c: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // expected-remark @+1 {{dot of 'f16' x 'f16' -> 'f32' stays on multiply-adds: test.k64: 8x8x16 is not tiled by 16x8x64; test.k16: 8x8x16 is not tiled by 16x8x16}}
  %d = tessera.dot %a, %b, %c : tensor<8x16xf16> * tensor<16x8xf16> -> tensor<8x8xf32>
  return %d : tensor<8x8xf32>
}

// -----

// fp32 at tf32 precision matches test.tf32, which the target refuses; fp32 at
// full precision matches nothing.
// CHECK-LABEL: func.func @fp32
// CHECK-NOT: matrix_instruction
func.func @fp32(%a: tensor<32x32xf32>, %b: tensor<32x16xf32>, %c: tensor<32x16xf32>) -> (tensor<32x16xf32>, tensor<32x16xf32>) {
  // expected-remark @+1 {{stays on multiply-adds: test.tf32: declined by the test target}}
  %d = tessera.dot %a, %b, %c {inputPrecision = #tessera<precision tf32>} : tensor<32x32xf32> * tensor<32x16xf32> -> tensor<32x16xf32>
  // expected-remark @+1 {{stays on multiply-adds: the test target (test-arch) has no matrix instruction for fp32 x fp32 -> fp32}}
  %e = tessera.dot %a, %b, %c : tensor<32x32xf32> * tensor<32x16xf32> -> tensor<32x16xf32>
  return %d, %e : tensor<32x16xf32>, tensor<32x16xf32>
}

// -----

// Batched dots stay on multiply-adds.
// CHECK-LABEL: func.func @batched
// CHECK-NOT: matrix_instruction
func.func @batched(%a: tensor<2x16x16xf16>, %b: tensor<2x16x16xf16>, %c: tensor<2x16x16xf32>) -> tensor<2x16x16xf32> {
  // expected-remark @+1 {{stays on multiply-adds: the test target's matrix instructions take two-dimensional dots}}
  %d = tessera.dot %a, %b, %c : tensor<2x16x16xf16> * tensor<2x16x16xf16> -> tensor<2x16x16xf32>
  return %d : tensor<2x16x16xf32>
}
