// A signature type that contradicts its parameter's type (signature-types.mlir).
func.func @k(%a: !tessera.ptr<i32> {tessera.signature_type = "*u8"}) attributes {tessera.kernel} {
  return
}
