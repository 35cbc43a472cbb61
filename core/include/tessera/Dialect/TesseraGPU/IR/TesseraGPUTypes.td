//===- TesseraGPUTypes.td - Shared-memory and token types -*- tablegen -*-===//
#ifndef TESSERA_GPU_TYPES_TD
#define TESSERA_GPU_TYPES_TD

include "tessera/Dialect/TesseraGPU/IR/TesseraGPUDialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/BuiltinTypeInterfaces.td"

class TesseraGPU_TypeDef<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<TesseraGPU_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

def TesseraGPU_MemDescType : TesseraGPU_TypeDef<"MemDesc", "memdesc", [
    ShapedTypeInterface]> {
  let summary = "A buffer in shared memory with a shared layout";
  let description = [{
    `!tessera_gpu.memdesc<2x64x64xf16, #tessera_gpu.shared<...>, mutable>`:
    a shared-memory buffer of that shape and element type laid out by the
    encoding. Without `mutable` it is only read after its creation.
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$shape,
                        "Type":$elementType, "Attribute":$encoding,
                        "bool":$mutableMemory);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// ShapedTypeInterface: a copy with another shape or element type.
    MemDescType cloneWith(std::optional<::llvm::ArrayRef<int64_t>> shape,
                          Type elementType) const;
    bool hasRank() const { return true; }
  }];
}

def TesseraGPU_AsyncToken : TesseraGPU_TypeDef<"AsyncToken", "async.token"> {
  let summary = "Names a group of asynchronous copies to wait for";
}

def TesseraGPU_TensorMap : TesseraGPU_TypeDef<"TensorMap", "tensor_map"> {
  let summary = "The address of an encoded tensor descriptor";
  let description = [{
    Either a hidden kernel parameter, which the host builds at each launch
    from the kernel's other parameters (the recipe is the target's
    business), or what `make_tensor_map` wrote into global memory; the
    kernel hands its address to tensor copies. Its bytes are opaque here.
  }];
}

#endif // TESSERA_GPU_TYPES_TD
