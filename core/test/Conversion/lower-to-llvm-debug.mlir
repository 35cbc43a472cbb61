// RUN: tessera-opt %s --split-input-file --tessera-test-lower-to-llvm | FileCheck %s
// RUN: tessera-opt %s --split-input-file --tessera-test-lower-to-llvm="decline=assert" | FileCheck %s --check-prefix=TRAP

// device_print of a block: one printf per register with the program and
// element indices; device_assert: all registers must hold, else the hook.
#blocked = #tessera_gpu.blocked<sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]>
module attributes {tessera_gpu.num_ctas = 1 : i32, tessera_gpu.num_warps = 1 : i32, tessera_gpu.target = "test", tessera_gpu.threads_per_warp = 32 : i32} {
  // CHECK: llvm.mlir.global internal constant @tessera_test_format_{{[0-9]+}}("pid (%d, %d, %d) idx (%d) x=%f\0A\00")
  // CHECK-LABEL: llvm.func internal @debug
  // CHECK-COUNT-2: llvm.call @tessera_test_printf(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (!llvm.ptr, i32, i32, i32, i32, f64) -> ()
  // CHECK: %[[ALL:.*]] = llvm.and
  // CHECK: %[[FAIL:.*]] = llvm.xor %[[ALL]]
  // CHECK: llvm.cond_br %[[FAIL]], ^[[BAD:.*]], ^
  // CHECK: ^[[BAD]]:
  // CHECK-NEXT: llvm.call @tessera_test_assert_fail

  // TRAP: llvm.cond_br
  // TRAP: llvm.intr.trap
  func.func @debug(%x: tensor<64xf32, #blocked>, %c: tensor<64xi1, #blocked>) {
    tessera.print " x=" {hex = false, isSigned = array<i32: 1>} : %x : tensor<64xf32, #blocked>
    tessera.assert %c, "x is positive" {file = "k.py", function = "k", line = 7 : i32} : tensor<64xi1, #blocked>
    return
  }
}

// -----

// An atomic on a scalar runs in thread 0 only, and its old value reaches
// every thread through shared memory.
// CHECK: tessera_gpu.shared_memory = 8 : i32
module attributes {tessera_gpu.num_ctas = 1 : i32, tessera_gpu.num_warps = 4 : i32, tessera_gpu.target = "test", tessera_gpu.threads_per_warp = 32 : i32} {
  // CHECK-LABEL: llvm.func internal @lock
  // CHECK: llvm.icmp "eq"
  // CHECK: llvm.cond_br
  // CHECK: llvm.cmpxchg {{.*}} acq_rel acquire
  // CHECK: llvm.call @tessera_test_barrier()
  // CHECK: llvm.store {{.*}} : i32, !llvm.ptr<3>
  // CHECK: llvm.call @tessera_test_barrier()
  // CHECK: llvm.load {{.*}} : !llvm.ptr<3> -> i32
  func.func @lock(%p: !tessera.ptr<i32>) -> i32 {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %old = tessera.atomic_cas %p, %c0, %c1 : !tessera.ptr<i32>
    return %old : i32
  }
}
