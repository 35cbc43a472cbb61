// RUN: tessera-cpu-opt %s --split-input-file --tessera-cpu-to-structured | FileCheck %s

// Kernels take the grid as six trailing i32 arguments; an entry wrapper
// with the launch ABI unpacks the argument array and calls the kernel.
// CHECK-LABEL: func.func private @kernel
// CHECK-SAME: (%[[P:[^:]*]]: i64 {tessera.name = "x_ptr"}, %[[F:[^:]*]]: f16, %[[B:.*]]: i1, %[[PX:.*]]: i32, %[[PY:.*]]: i32, %[[PZ:.*]]: i32, %[[NX:.*]]: i32, %[[NY:.*]]: i32, %[[NZ:.*]]: i32)
// CHECK-SAME: tessera.signature_names = ["x_ptr", "arg1", "arg2"]
// CHECK-SAME: tessera.signature_types = ["*fp32", "fp16", "i1"]
// CHECK: arith.addi %[[PY]], %[[NZ]] : i32
// CHECK-LABEL: func.func @kernel_cpu_entry
// CHECK-SAME: (%[[ARGS:.*]]: !llvm.ptr, %[[X:.*]]: i32, %[[Y:.*]]: i32, %[[Z:.*]]: i32, %[[GX:.*]]: i32, %[[GY:.*]]: i32, %[[GZ:.*]]: i32, %{{.*}}: !llvm.ptr)
// CHECK-SAME: tessera.entry_of = "kernel"
// CHECK-SAME: tessera.signature_names = ["x_ptr", "arg1", "arg2"]
// CHECK-SAME: tessera.signature_types = ["*fp32", "fp16", "i1"]
// CHECK: %[[S0:.*]] = llvm.getelementptr %[[ARGS]][0] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
// CHECK: %[[V0:.*]] = llvm.load %[[S0]] : !llvm.ptr -> !llvm.ptr
// CHECK: %[[A0:.*]] = llvm.load %[[V0]] {alignment = 1 : i64} : !llvm.ptr -> i64
// CHECK: llvm.getelementptr %[[ARGS]][1]
// CHECK: %[[A1:.*]] = llvm.load %{{.*}} {alignment = 1 : i64} : !llvm.ptr -> f16
// CHECK: llvm.getelementptr %[[ARGS]][2]
// CHECK: %[[BYTE:.*]] = llvm.load %{{.*}} {alignment = 1 : i64} : !llvm.ptr -> i8
// CHECK: %[[A2:.*]] = arith.cmpi ne, %[[BYTE]], %{{.*}} : i8
// CHECK: call @kernel(%[[A0]], %[[A1]], %[[A2]], %[[X]], %[[Y]], %[[Z]], %[[GX]], %[[GY]], %[[GZ]])
func.func @kernel(%p: !tessera.ptr<f32> {tessera.name = "x_ptr"}, %f: f16, %b: i1) attributes {tessera.kernel} {
  %y = tessera.program_id y : i32
  %n = tessera.num_programs z : i32
  %s = arith.addi %y, %n : i32
  %c = arith.sitofp %s : i32 to f32
  tessera.store %p, %c : !tessera.ptr<f32>
  return
}

// -----

// print: one runtime call per element of each operand, with its indices.
// CHECK-DAG: llvm.mlir.global internal constant @[[PREFIX:__tessera_str_[0-9a-f]+]]("x: \00")
// CHECK-DAG: func.func private @__tessera_cpu_print(!llvm.ptr, i32, i32, i32, i64, i64, i64, i64, i32, i32, i64, f64, i32)
// CHECK-DAG: func.func private @__tessera_cpu_print_line(!llvm.ptr)
// CHECK-LABEL: func @print
// CHECK: %[[STR:.*]] = llvm.mlir.addressof @[[PREFIX]]
// CHECK: scf.for %[[I:.*]] =
// CHECK: %[[V:.*]] = tensor.extract %{{.*}}[%[[I]]] : tensor<4xi32>
// CHECK: %[[W:.*]] = arith.extsi %[[V]] : i32 to i64
// CHECK: %[[IDX:.*]] = arith.index_cast %[[I]] : index to i64
// CHECK: call @__tessera_cpu_print(%[[STR]], %c0_i32{{[_0-9]*}}, %c2_i32{{[_0-9]*}}, %c1_i32{{[_0-9]*}}, %[[IDX]], %{{.*}}, %{{.*}}, %{{.*}}, %c0_i32{{[_0-9]*}}, %c32_i32{{[_0-9]*}}, %[[W]], %{{.*}}, %c0_i32{{[_0-9]*}})
// A float scalar: kind 2, widened to f64.
// CHECK: %[[D:.*]] = arith.extf %{{.*}} : f16 to f64
// CHECK: call @__tessera_cpu_print(%[[STR]], %c1_i32{{[_0-9]*}}, %c2_i32{{[_0-9]*}}, %c0_i32{{[_0-9]*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %c2_i32{{[_0-9]*}}, %c16_i32{{[_0-9]*}}, %{{.*}}, %[[D]], %c0_i32
// CHECK: call @__tessera_cpu_print_line
func.func @print(%t: tensor<4xi32>, %h: f16) {
  tessera.print "x: " {hex = false, isSigned = array<i32: 1, 1>} : %t, %h : tensor<4xi32>, f16
  tessera.print "here" {hex = false, isSigned = array<i32>}
  return
}

// -----

// assert: the runtime's failure handler on each false element.
// CHECK: llvm.func internal @__tessera_cpu_assume(%{{.*}}: i1) attributes {always_inline}
// CHECK-NEXT: llvm.intr.assume
// CHECK-DAG: func.func private @__tessera_cpu_assert_fail(!llvm.ptr, !llvm.ptr, i32, !llvm.ptr, i32, i64, i64, i64, i64)
// CHECK-DAG: llvm.mlir.global internal constant @{{.*}}("too big\00")
// CHECK-DAG: llvm.mlir.global internal constant @{{.*}}("k.py\00")
// CHECK-LABEL: func @assert
// CHECK: scf.for %[[I:.*]] =
// CHECK: scf.for %[[J:.*]] =
// CHECK: %[[C:.*]] = tensor.extract %{{.*}}[%[[I]], %[[J]]]
// CHECK: %[[F:.*]] = arith.xori %[[C]], %true
// CHECK: scf.if %[[F]] {
// CHECK: call @__tessera_cpu_assert_fail(%{{.*}}, %{{.*}}, %c12_i32{{[_0-9]*}}, %{{.*}}, %c2_i32
// Assumptions hide from the buffer deallocation pass in an internal
// function; hints and debug barriers vanish.
// CHECK: llvm.call @__tessera_cpu_assume
// CHECK-NOT: tessera.
func.func @assert(%m: tensor<2x3xi1>, %c: i1, %x: tensor<4xi32>) -> tensor<4xi32> {
  tessera.assert %m, "too big" {file = "k.py", function = "kern", line = 12 : i32} : tensor<2x3xi1>
  tessera.assume %c
  tessera.debug_barrier
  %h = tessera.hint %x {divisibility = array<i64: 16>} : tensor<4xi32>
  return %h : tensor<4xi32>
}
