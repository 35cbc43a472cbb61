// RUN: tessera-cpu-opt %s --split-input-file --tessera-cpu-legalize-floats | FileCheck %s --check-prefix=FLOATS
// RUN: tessera-cpu-opt %s --split-input-file --tessera-cpu-legalize-floats --convert-scf-to-cf --tessera-cpu-convert-to-llvm | FileCheck %s --check-prefix=LLVM

// fp8 arithmetic computes in f32; fp8 values are read as f32 from a table of
// the format's 256 encodings (exact; a gather when a loop vectorizes), fp8
// results rounded by the runtime's converter (format 1 is E5M2; 0 rounds to
// nearest even).
// FLOATS: memref.global "private" constant @[[TABLE:__tessera_cpu_fp8_table_1]] : memref<256xf32> = dense<"0x00000000000080370000003800004038
// FLOATS-LABEL: func @fp8
// FLOATS-SAME: (%[[A:.*]]: f8E5M2, %[[B:.*]]: f8E5M2)
// FLOATS-DAG: %[[AB:.*]] = arith.bitcast %[[A]] : f8E5M2 to i8
// FLOATS-DAG: %[[AW:.*]] = arith.extui %[[AB]] : i8 to i32
// FLOATS-DAG: %[[AI:.*]] = arith.index_castui %[[AW]] : i32 to index
// FLOATS-DAG: %[[T:.*]] = memref.get_global @[[TABLE]] : memref<256xf32>
// FLOATS-DAG: memref.load %{{.*}}[%[[AI]]] : memref<256xf32>
// FLOATS-DAG: %[[BB:.*]] = arith.bitcast %[[B]] : f8E5M2 to i8
// FLOATS: %[[S:.*]] = arith.addf {{%[0-9]+}}, {{%[0-9]+}} : f32
// FLOATS: %[[SD:.*]] = arith.extf %[[S]] : f32 to f64
// FLOATS: %[[Q:.*]] = call @__tessera_cpu_to_fp8(%[[SD]], %c1_i32{{.*}}, %c0_i32{{.*}}) : (f64, i32, i32) -> i8
// FLOATS: %[[R:.*]] = arith.bitcast %[[Q]] : i8 to f8E5M2
// To f16: decoded to f32, then narrowed (exactly).
// FLOATS: memref.load %{{.*}} : memref<256xf32>
// FLOATS: arith.truncf %{{.*}} : f32 to f16
// FLOATS-NOT: arith.addf {{.*}} : f8E5M2
func.func @fp8(%a: f8E5M2, %b: f8E5M2) -> (f8E5M2, f16) {
  %s = arith.addf %a, %b : f8E5M2
  %h = arith.extf %s : f8E5M2 to f16
  return %s, %h : f8E5M2, f16
}

// -----

// Math on 16-bit floats computes in f32, fma in f64 (so that it rounds once).
// FLOATS-LABEL: func @narrow_math
// FLOATS: %[[W:.*]] = arith.extf %{{.*}} : f16 to f32
// FLOATS: %[[E:.*]] = math.exp %[[W]] : f32
// FLOATS: arith.truncf %[[E]] : f32 to f16
// FLOATS: math.fma %{{.*}}, %{{.*}}, %{{.*}} : f64
// FLOATS: arith.truncf %{{.*}} : f64 to bf16
// FLOATS: math.exp %{{.*}} : f32
// Everything but the entries is internal.
// LLVM-LABEL: llvm.func internal @narrow_math
// LLVM: llvm.intr.exp(%{{.*}}) : (f32) -> f32
// LLVM: llvm.intr.fma
// math functions without an LLVM intrinsic call libm.
// LLVM: llvm.call @erff(%{{.*}}) : (f32) -> f32
func.func @narrow_math(%h: f16, %b: bf16, %x: f32) -> (f16, bf16, f32, f32) {
  %0 = math.exp %h : f16
  %1 = math.fma %b, %b, %b : bf16
  %2 = math.exp %x : f32
  %3 = math.erf %x : f32
  return %0, %1, %2, %3 : f16, bf16, f32, f32
}

// -----

// Kernels become internal and always inline into their entry, the only
// exported function.
// LLVM-LABEL: llvm.func internal @kernel
// LLVM-SAME: always_inline
// LLVM-LABEL: llvm.func @kernel_cpu_entry
// LLVM-NOT: internal
// LLVM: llvm.call @kernel
func.func private @kernel(%x: i32) attributes {tessera.kernel, tessera.signature_types = ["i32"]} {
  return
}
func.func @kernel_cpu_entry(%x: i32) attributes {tessera.entry_of = "kernel", tessera.signature_types = ["i32"]} {
  call @kernel(%x) : (i32) -> ()
  return
}
