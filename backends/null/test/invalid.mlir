// What the null backend cannot compile is an error at the kernel, with its
// location.
// RUN: not tessera-plugin-check %tessera_plugin_dir/tessera-plugin-null.so %s 2>&1 | FileCheck %s

// CHECK: invalid.mlir:[[@LINE+1]]:1: error: kernel parameter 0 of type 'tensor<4xf32{{.*}}>' cannot be passed to the null backend's launch; a launch passes scalars and pointers
func.func @tensor_kernel(%t: tensor<4xf32>) attributes {tessera.kernel} {
  return
}
