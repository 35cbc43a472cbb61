// What the null backend cannot compile is an error at the kernel, with its
// location.
// RUN: not tessera-plugin-check %tessera_plugin_dir/tessera-plugin-null.so %s 2>&1 | FileCheck %s

// CHECK: invalid.mlir:[[@LINE+1]]:1: error: the null backend cannot pass parameter 0 of type 'tensor<4xf32{{.*}}>' to a kernel
func.func @tensor_kernel(%t: tensor<4xf32>) attributes {tessera.kernel} {
  return
}
