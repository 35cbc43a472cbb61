// Unsigned parameters: the frontend records Triton's name of each unsigned
// integer (or pointer to one) as tessera.signature_type, since the
// signless MLIR type reads as signed; the compiled kernel's parameters must
// carry it (a launch with u32 arrays specializes on `*u32` and checks its
// arguments against them). The attribute may only refine an integer's
// signedness.
// RUN: tessera-plugin-check %tessera_plugin_dir/tessera-plugin-null.so %s --emit=binary | FileCheck %s
// RUN: not tessera-plugin-check %tessera_plugin_dir/tessera-plugin-null.so %S/Inputs/signature-type-mismatch.mlir --emit=binary 2>&1 | FileCheck %s --check-prefix=BAD

// CHECK: "params":[{"name":"{{[^"]*}}","type":"*u32"},{"name":"{{[^"]*}}","type":"u64"},{"name":"{{[^"]*}}","type":"*i32"},{"name":"{{[^"]*}}","type":"*u8"}]
func.func @k(%a: !tessera.ptr<i32> {tessera.signature_type = "*u32"}, %b: i64 {tessera.signature_type = "u64"}, %c: !tessera.ptr<i32>, %d: !tessera.ptr<i8> {tessera.signature_type = "*u8"}) attributes {tessera.kernel} {
  return
}

// BAD: signature-type-mismatch.mlir:{{[0-9]+}}:1: error: kernel parameter 0 of type '!tessera.ptr<i32>' is recorded as '*u8' (tessera.signature_type), which only an unsigned integer of that width, or a pointer to one, may be
