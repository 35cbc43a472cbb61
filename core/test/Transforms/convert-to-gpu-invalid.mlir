// RUN: not tessera-opt %s --tessera-convert-to-gpu="num-warps=3" 2>&1 | FileCheck %s
// CHECK: error: num-warps, threads-per-warp and num-ctas must be powers of two; got 3, 32 and 1
func.func @f() {
  return
}
