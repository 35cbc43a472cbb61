// The null backend's pipeline: the core stages, then lower-to-llvm, which
// leaves each kernel as an empty LLVM function with its signature and drops
// device functions. Its assembly is the LLVM IR, its binary of format
// "none" carries it.
// RUN: tessera-plugin-check %tessera_plugin_dir/tessera-plugin-null.so %s --emit=mlir | FileCheck %s --check-prefix=MLIR
// RUN: tessera-plugin-check %tessera_plugin_dir/tessera-plugin-null.so %s | FileCheck %s --check-prefix=LLVM
// RUN: tessera-plugin-check %tessera_plugin_dir/tessera-plugin-null.so %s --emit=asm | FileCheck %s --check-prefix=LLVM
// RUN: tessera-plugin-check %tessera_plugin_dir/tessera-plugin-null.so %s --emit=binary | FileCheck %s --check-prefix=BINARY
// RUN: tessera-plugin-check %tessera_plugin_dir/tessera-plugin-null.so %s --emit=mlir --stop-after-stage=convert-to-gpu | FileCheck %s --check-prefix=GPU
// RUN: not tessera-plugin-check %tessera_plugin_dir/tessera-plugin-null.so %s --emit=binary --kernel=nope 2>&1 | FileCheck %s --check-prefix=NOPE

// MLIR: module attributes
// MLIR-NOT: func.func
// MLIR: llvm.func @add_kernel(%{{.*}}: !llvm.ptr<1>, %{{.*}}: !llvm.ptr<1>, %{{.*}}: !llvm.ptr<1>, %{{.*}}: i32)
// MLIR-SAME: passthrough = {{\[\[}}"tessera-signature", "*fp32,*fp32,*fp32,i32"]]
// MLIR-NEXT: llvm.return
// MLIR-NEXT: }
// MLIR-NEXT: llvm.func @scale_kernel(%{{.*}}: !llvm.ptr<1>, %{{.*}}: f16, %{{.*}}: i64)
// MLIR-NOT: offsets
// MLIR-NOT: func.func

// LLVM: define void @add_kernel(ptr addrspace(1) %0, ptr addrspace(1) %1, ptr addrspace(1) %2, i32 %3) #[[ATTRS:[0-9]+]] {
// LLVM-NEXT: ret void
// LLVM-NEXT: }
// LLVM: define void @scale_kernel(ptr addrspace(1) %0, half %1, i64 %2)
// LLVM-NOT: offsets
// LLVM: attributes #[[ATTRS]] = { "tessera-signature"="*fp32,*fp32,*fp32,i32" }

// BINARY: "backend":"null"
// BINARY-SAME: "format":"none"
// BINARY-SAME: "name":"add_kernel"
// BINARY-SAME: "params":[{"name":"arg0","type":"*fp32"},{"name":"arg1","type":"*fp32"},{"name":"arg2","type":"*fp32"},{"name":"arg3","type":"i32"}]
// BINARY: binary: {{[1-9][0-9]*}} bytes

// NOPE: tessera-plugin-check: null backend: no kernel named 'nope' in the module

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
