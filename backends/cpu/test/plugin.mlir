// The cpu plugin as the host loads it: its identity and target, its stages,
// and a kernel through every emitted form.
// RUN: tessera-plugin-check %tessera_plugin_dir/tessera-plugin-cpu.so | FileCheck %s --check-prefix=PLUGIN
// RUN: tessera-plugin-check %tessera_plugin_dir/tessera-plugin-cpu.so %s --emit=mlir --stop-after-stage=cpu-to-structured | FileCheck %s --check-prefix=STRUCT
// RUN: tessera-plugin-check %tessera_plugin_dir/tessera-plugin-cpu.so %s --emit=mlir | FileCheck %s --check-prefix=MLIR
// RUN: tessera-plugin-check %tessera_plugin_dir/tessera-plugin-cpu.so %s --emit=llvm | FileCheck %s --check-prefix=LLVM
// RUN: tessera-plugin-check %tessera_plugin_dir/tessera-plugin-cpu.so %s --emit=asm | FileCheck %s --check-prefix=ASM
// RUN: tessera-plugin-check %tessera_plugin_dir/tessera-plugin-cpu.so %s --emit=binary --kernel=add_kernel | FileCheck %s --check-prefix=BINARY
// RUN: tessera-plugin-check %tessera_plugin_dir/tessera-plugin-cpu.so %s --emit=binary --arch=x86-64 --num-warps=8 --kernel=add_kernel | FileCheck %s --check-prefix=GENERIC
// RUN: not tessera-plugin-check %tessera_plugin_dir/tessera-plugin-cpu.so %s --arch=not-a-cpu 2>&1 | FileCheck %s --check-prefix=BADARCH

// PLUGIN: plugin: cpu
// PLUGIN: llvm-major: 22
// PLUGIN: architectures: {{.*}}x86-64
// PLUGIN: target: backend=cpu arch={{[^ ]+}} warp=1 threads=1 {{.*}} mma=[] dtypes=[]
// PLUGIN: devices: 1
// PLUGIN-NOT: cpu-unfold
// PLUGIN: convert-to-gpu:
// PLUGIN: cleanup:
// PLUGIN-NEXT: cpu-to-structured:
// PLUGIN-NEXT: cpu-bufferize:
// PLUGIN-NEXT: cpu-to-loops:
// PLUGIN-NEXT: lower-to-llvm:

// One thread per program instance: every layout has one thread and warp.
// STRUCT: tessera_gpu.num_warps = 1 : i32
// STRUCT-SAME: tessera_gpu.threads_per_warp = 1 : i32
// STRUCT: scf.for
// STRUCT-NOT: tessera.
// STRUCT: func.func @add_kernel_cpu_entry(

// MLIR-NOT: func.func
// MLIR-DAG: llvm.func internal @add_kernel(
// MLIR-DAG: llvm.func @add_kernel_cpu_entry(%{{.*}}: !llvm.ptr, %{{.*}}: i32, %{{.*}}: i32, %{{.*}}: i32, %{{.*}}: i32, %{{.*}}: i32, %{{.*}}: i32, %{{.*}}: !llvm.ptr)
// MLIR-NOT: {{(= |^ +)tessera\.[a-z_]+}}

// The kernel is inlined into its entry; the host's CompiledKernel (BINARY)
// names the entry, the signature and the parameters, so the IR carries no
// metadata of its own.
// LLVM: target triple =
// LLVM-NOT: define {{.*}}@add_kernel(
// LLVM: define void @add_kernel_cpu_entry(ptr {{.*}}, i32 {{.*}}, i32 {{.*}}, i32 {{.*}}, i32 {{.*}}, i32 {{.*}}, i32 {{.*}}, ptr {{.*}})
// LLVM: attributes #{{[0-9]+}} = { {{.*}}"target-cpu"="{{[^"]+}}"
// LLVM-NOT: !tessera.

// ASM: .globl add_kernel_cpu_entry
// ASM: add_kernel_cpu_entry:

// BINARY: "arch":"{{[^"]+}}","backend":"cpu"
// BINARY-SAME: "format":"elf-object"
// BINARY-SAME: "kernel":"add_kernel"
// BINARY-SAME: "name":"add_kernel_cpu_entry"
// BINARY-SAME: "num_warps":1
// BINARY-SAME: "params":[{"name":"x_ptr","type":"*fp32"},{"name":"y_ptr","type":"*fp32"},{"name":"out_ptr","type":"*fp32"},{"name":"n","type":"i32"}]
// BINARY-SAME: "threads_per_warp":1
// BINARY: binary: {{[0-9]+}} bytes

// GENERIC: "arch":"x86-64"
// GENERIC-SAME: "cpu":"x86-64"
// GENERIC-SAME: "requested_num_warps":"8"

// BADARCH: unknown architecture 'not-a-cpu'

func.func @add_kernel(%x: !tessera.ptr<f32> {tessera.name = "x_ptr"}, %y: !tessera.ptr<f32> {tessera.name = "y_ptr"}, %o: !tessera.ptr<f32> {tessera.name = "out_ptr"}, %n: i32 {tessera.name = "n"}) attributes {tessera.kernel} {
  %pid = tessera.program_id x : i32
  %c128 = arith.constant 128 : i32
  %start = arith.muli %pid, %c128 : i32
  %r = tessera.make_range {start = 0 : i32, end = 128 : i32} : tensor<128xi32>
  %s = tessera.splat %start : tensor<128xi32>
  %off = arith.addi %s, %r : tensor<128xi32>
  %ns = tessera.splat %n : tensor<128xi32>
  %mask = arith.cmpi slt, %off, %ns : tensor<128xi32>
  %xp = tessera.splat %x : tensor<128x!tessera.ptr<f32>>
  %xa = tessera.addptr %xp, %off : tensor<128x!tessera.ptr<f32>>, tensor<128xi32>
  %xv = tessera.load %xa, %mask : tensor<128x!tessera.ptr<f32>>
  %yp = tessera.splat %y : tensor<128x!tessera.ptr<f32>>
  %ya = tessera.addptr %yp, %off : tensor<128x!tessera.ptr<f32>>, tensor<128xi32>
  %yv = tessera.load %ya, %mask : tensor<128x!tessera.ptr<f32>>
  %sum = arith.addf %xv, %yv : tensor<128xf32>
  %op = tessera.splat %o : tensor<128x!tessera.ptr<f32>>
  %oa = tessera.addptr %op, %off : tensor<128x!tessera.ptr<f32>>, tensor<128xi32>
  tessera.store %oa, %sum, %mask : tensor<128x!tessera.ptr<f32>>
  return
}
