// RUN: not tessera-opt %s --tessera-coalesce 2>&1 | FileCheck %s
// CHECK: error: coalescing needs laid-out IR: run convert-to-gpu first
func.func @f() {
  return
}
