// The null backend's pipeline: the core stages, then lower-to-llvm, the
// core's shared lowering with the template's hooks. Its assembly is the
// LLVM IR, its binary of format "none" carries it.
// RUN: tessera-plugin-check %tessera_plugin_dir/tessera-plugin-null.so %s --emit=mlir | FileCheck %s --check-prefix=MLIR
// RUN: tessera-plugin-check %tessera_plugin_dir/tessera-plugin-null.so %s | FileCheck %s --check-prefix=LLVM
// RUN: tessera-plugin-check %tessera_plugin_dir/tessera-plugin-null.so %s --emit=asm | FileCheck %s --check-prefix=LLVM
// RUN: tessera-plugin-check %tessera_plugin_dir/tessera-plugin-null.so %s --emit=binary | FileCheck %s --check-prefix=BINARY
// RUN: tessera-plugin-check %tessera_plugin_dir/tessera-plugin-null.so %s --emit=mlir --stop-after-stage=convert-to-gpu | FileCheck %s --check-prefix=GPU
// RUN: not tessera-plugin-check %tessera_plugin_dir/tessera-plugin-null.so %s --emit=binary --kernel=nope 2>&1 | FileCheck %s --check-prefix=NOPE

// The kernel is lowered by the core's shared lowering with the null hooks:
// indices are calls of external `tessera_null_*` functions (where a target
// puts its intrinsics), masked loads branch around plain loads (the
// declined loadGlobal), the signature record stays on the kernel for the
// host. The device function is inlined and gone.
// MLIR: module attributes {{.*}}tessera_gpu.target = "null"
// MLIR-NOT: func.func
// MLIR-DAG: llvm.func @tessera_null_thread_id() -> i32
// MLIR-DAG: llvm.func @tessera_null_program_id(i32) -> i32
// MLIR: llvm.func @add_kernel(%{{.*}}: !llvm.ptr<1> {llvm.align = 16 : i64}, %{{.*}}: !llvm.ptr<1> {llvm.align = 16 : i64}, %{{.*}}: !llvm.ptr<1> {llvm.align = 16 : i64}, %{{.*}}: i32)
// MLIR-SAME: tessera.signature_names = ["arg0", "arg1", "arg2", "arg3"], tessera.signature_types = ["*fp32", "*fp32", "*fp32", "i32"]
// MLIR: llvm.call @tessera_null_program_id(%{{.*}}) : (i32) -> i32
// MLIR: llvm.call @tessera_null_thread_id() : () -> i32
// MLIR: llvm.cond_br %{{.*}}, ^[[LOAD:bb[0-9]+]], ^[[JOIN:bb[0-9]+]](%{{.*}} : f32)
// MLIR-NEXT: ^[[LOAD]]:
// MLIR-NEXT: llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<1> -> f32
// MLIR: llvm.store %{{.*}}, %{{.*}} {alignment = 4 : i64} : f32, !llvm.ptr<1>
// MLIR: llvm.func @scale_kernel(%{{.*}}: !llvm.ptr<1>, %{{.*}}: f16, %{{.*}}: i64)
// MLIR-NOT: offsets
// MLIR-NOT: func.func

// LLVM-DAG: declare i32 @tessera_null_thread_id()
// LLVM-DAG: declare i32 @tessera_null_program_id(i32)
// LLVM: define void @add_kernel(ptr addrspace(1) align 16 %0, ptr addrspace(1) align 16 %1, ptr addrspace(1) align 16 %2, i32 %3)
// LLVM: call i32 @tessera_null_program_id(i32 0)
// LLVM: load float, ptr addrspace(1)
// LLVM: store float
// LLVM: define void @scale_kernel(ptr addrspace(1) %0, half %1, i64 %2)
// LLVM-NOT: offsets

// BINARY: "backend":"null"
// BINARY-SAME: "format":"none"
// BINARY-SAME: "name":"add_kernel"
// BINARY-SAME: "params":[{"name":"arg0","type":"*fp32"},{"name":"arg1","type":"*fp32"},{"name":"arg2","type":"*fp32"},{"name":"arg3","type":"i32"}]
// BINARY: binary: {{[1-9][0-9]*}} bytes

// NOPE: tessera-plugin-check: backend 'null' lowered no kernel named 'nope'

// Before lower-to-llvm, the kernel is still the core's laid-out IR.
// GPU: func.func @add_kernel
// GPU: tessera.load {{.*}}#blocked

func.func private @offsets(%pid: i32) -> tensor<1024xi32> {
  %c1024 = arith.constant 1024 : i32
  %start = arith.muli %pid, %c1024 : i32
  %r = tessera.make_range {start = 0 : i32, end = 1024 : i32} : tensor<1024xi32>
  %s = tessera.splat %start : tensor<1024xi32>
  %off = arith.addi %s, %r : tensor<1024xi32>
  return %off : tensor<1024xi32>
}

func.func @add_kernel(%x: !tessera.ptr<f32> {tessera.divisibility = 16 : i32}, %y: !tessera.ptr<f32> {tessera.divisibility = 16 : i32}, %o: !tessera.ptr<f32> {tessera.divisibility = 16 : i32}, %n: i32) attributes {tessera.kernel} {
  %pid = tessera.program_id x : i32
  %off = func.call @offsets(%pid) : (i32) -> tensor<1024xi32>
  %ns = tessera.splat %n : tensor<1024xi32>
  %mask = arith.cmpi slt, %off, %ns : tensor<1024xi32>
  %xp = tessera.splat %x : tensor<1024x!tessera.ptr<f32>>
  %xa = tessera.addptr %xp, %off : tensor<1024x!tessera.ptr<f32>>, tensor<1024xi32>
  %xv = tessera.load %xa, %mask : tensor<1024x!tessera.ptr<f32>>
  %yp = tessera.splat %y : tensor<1024x!tessera.ptr<f32>>
  %ya = tessera.addptr %yp, %off : tensor<1024x!tessera.ptr<f32>>, tensor<1024xi32>
  %yv = tessera.load %ya, %mask : tensor<1024x!tessera.ptr<f32>>
  %sum = arith.addf %xv, %yv : tensor<1024xf32>
  %op = tessera.splat %o : tensor<1024x!tessera.ptr<f32>>
  %oa = tessera.addptr %op, %off : tensor<1024x!tessera.ptr<f32>>, tensor<1024xi32>
  tessera.store %oa, %sum, %mask : tensor<1024x!tessera.ptr<f32>>
  return
}

func.func @scale_kernel(%p: !tessera.ptr<f16>, %s: f16, %n: i64) attributes {tessera.kernel} {
  return
}
