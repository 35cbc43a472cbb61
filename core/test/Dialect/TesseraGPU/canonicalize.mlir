// RUN: tessera-opt %s --canonicalize --split-input-file | FileCheck %s
// Folders and canonical forms of tessera_gpu ops.

#a = #tessera_gpu.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
#b = #tessera_gpu.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
#c = #tessera_gpu.blocked<sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>

// CHECK-LABEL: func @identity
func.func @identity(%x: tensor<512xf32, #a>) -> tensor<512xf32, #a> {
  // CHECK-NEXT: return %arg0
  %0 = tessera_gpu.convert_layout %x : tensor<512xf32, #a> -> tensor<512xf32, #a>
  return %0 : tensor<512xf32, #a>
}

// CHECK-LABEL: func @chain
func.func @chain(%x: tensor<512xf32, #a>) -> tensor<512xf32, #c> {
  // CHECK-NEXT: %[[C:.*]] = tessera_gpu.convert_layout %arg0 : tensor<512xf32, #{{.*}}> -> tensor<512xf32, #[[C2:.*]]>
  // CHECK-NEXT: return %[[C]]
  %0 = tessera_gpu.convert_layout %x : tensor<512xf32, #a> -> tensor<512xf32, #b>
  %1 = tessera_gpu.convert_layout %0 : tensor<512xf32, #b> -> tensor<512xf32, #c>
  return %1 : tensor<512xf32, #c>
}

// CHECK-LABEL: func @round_trip
func.func @round_trip(%x: tensor<512xf32, #a>) -> tensor<512xf32, #a> {
  // CHECK-NEXT: return %arg0
  %0 = tessera_gpu.convert_layout %x : tensor<512xf32, #a> -> tensor<512xf32, #b>
  %1 = tessera_gpu.convert_layout %0 : tensor<512xf32, #b> -> tensor<512xf32, #a>
  return %1 : tensor<512xf32, #a>
}

// CHECK-LABEL: func @splat_and_range
func.func @splat_and_range(%s: f32) -> (tensor<512xf32, #b>, tensor<512xi32, #b>, tensor<512xf32, #b>) {
  // CHECK-DAG: %[[CST:.*]] = arith.constant dense<1.000000e+00> : tensor<512xf32, #[[B:.*]]>
  // CHECK-DAG: %[[S:.*]] = tessera.splat %arg0 : tensor<512xf32, #[[B]]>
  // CHECK-DAG: %[[R:.*]] = tessera.make_range {{.*}} : tensor<512xi32, #[[B]]>
  // CHECK-NOT: tessera_gpu.convert_layout
  // CHECK: return %[[S]], %[[R]], %[[CST]]
  %0 = tessera.splat %s : tensor<512xf32, #a>
  %1 = tessera_gpu.convert_layout %0 : tensor<512xf32, #a> -> tensor<512xf32, #b>
  %2 = tessera.make_range {start = 0 : i32, end = 512 : i32} : tensor<512xi32, #a>
  %3 = tessera_gpu.convert_layout %2 : tensor<512xi32, #a> -> tensor<512xi32, #b>
  %cst = arith.constant dense<1.0> : tensor<512xf32, #a>
  %4 = tessera_gpu.convert_layout %cst : tensor<512xf32, #a> -> tensor<512xf32, #b>
  return %1, %3, %4 : tensor<512xf32, #b>, tensor<512xi32, #b>, tensor<512xf32, #b>
}
