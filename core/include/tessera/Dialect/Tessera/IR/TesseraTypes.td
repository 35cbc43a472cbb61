//===- TesseraTypes.td - Types of the tessera dialect ----*- tablegen -*-===//
#ifndef TESSERA_TYPES_TD
#define TESSERA_TYPES_TD

include "tessera/Dialect/Tessera/IR/TesseraDialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/BuiltinTypeInterfaces.td"

class Tessera_TypeDef<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<Tessera_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

def Tessera_PointerType : Tessera_TypeDef<"Pointer", "ptr"> {
  let summary = "Pointer to a scalar or, for block pointers, to a tensor";
  let description = [{
    `!tessera.ptr<f32>` points to an `f32` in global memory (address space
    1, the default); `!tessera.ptr<f32, 3>` to one in another address space.
    A block pointer (`tl.make_block_ptr`) points to a whole tile:
    `!tessera.ptr<tensor<64x64xf16>>`.
  }];
  let parameters = (ins "Type":$pointeeType,
                        DefaultValuedParameter<"int", "1">:$addressSpace);
  let assemblyFormat = "`<` $pointeeType (`,` $addressSpace^)? `>`";
  let builders = [
    TypeBuilderWithInferredContext<(ins "Type":$pointeeType,
                                        CArg<"int", "1">:$addressSpace), [{
      return $_get(pointeeType.getContext(), pointeeType, addressSpace);
    }]>
  ];
  let skipDefaultBuilders = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// True for a block pointer, whose pointee is a ranked tensor.
    bool isBlockPointer() const {
      return ::llvm::isa<::mlir::RankedTensorType>(getPointeeType());
    }
  }];
}

def Tessera_TensorDescType : Tessera_TypeDef<"TensorDesc", "tensordesc"> {
  let summary = "Descriptor of a strided global tensor, read and written in blocks";
  let description = [{
    Made by `tessera.make_tensor_descriptor` (`tl.make_tensor_descriptor`):
    the block type is the tile that one `descriptor_load` returns.
  }];
  let parameters = (ins "RankedTensorType":$blockType);
  let assemblyFormat = "`<` $blockType `>`";
  let genVerifyDecl = 1;
}

//===----------------------------------------------------------------------===//
// Type constraints
//===----------------------------------------------------------------------===//

def Tessera_Float : AnyTypeOf<[F8E4M3FN, F8E5M2, F8E4M3FNUZ, F8E5M2FNUZ,
                               F8E4M3B11FNUZ, F16, BF16, F32, F64],
                              "floating-point">;
def Tessera_Int : AnyTypeOf<[I1, I8, I16, I32, I64], "integer">;
def Tessera_Ptr : Type<CPred<"::llvm::isa<::mlir::tessera::PointerType>($_self)">,
                       "pointer", "::mlir::tessera::PointerType">;
def Tessera_ScalarPtr : Type<And<[Tessera_Ptr.predicate,
    CPred<"!::llvm::cast<::mlir::tessera::PointerType>($_self).isBlockPointer()">]>,
    "pointer to a scalar">;
def Tessera_BlockPtr : Type<And<[Tessera_Ptr.predicate,
    CPred<"::llvm::cast<::mlir::tessera::PointerType>($_self).isBlockPointer()">]>,
    "block pointer">;
def Tessera_TensorDesc : Type<CPred<"::llvm::isa<::mlir::tessera::TensorDescType>($_self)">,
                              "tensor descriptor", "::mlir::tessera::TensorDescType">;

def Tessera_Elem : AnyTypeOf<[Tessera_Float, Tessera_Int, Tessera_ScalarPtr],
                             "scalar">;
def Tessera_FloatTensor : RankedTensorOf<[Tessera_Float]>;
def Tessera_IntTensor : RankedTensorOf<[Tessera_Int]>;
def Tessera_PtrTensor : RankedTensorOf<[Tessera_ScalarPtr]>;
def Tessera_Tensor : RankedTensorOf<[Tessera_Float, Tessera_Int, Tessera_ScalarPtr]>;

def Tessera_FloatLike : AnyTypeOf<[Tessera_Float, Tessera_FloatTensor]>;
def Tessera_IntLike : AnyTypeOf<[Tessera_Int, Tessera_IntTensor]>;
def Tessera_I1Like : AnyTypeOf<[I1, RankedTensorOf<[I1]>]>;
def Tessera_I32Like : AnyTypeOf<[I32, RankedTensorOf<[I32]>]>;
def Tessera_PtrLike : AnyTypeOf<[Tessera_ScalarPtr, Tessera_PtrTensor]>;
def Tessera_Type : AnyTypeOf<[Tessera_Elem, Tessera_Tensor, Tessera_BlockPtr,
                              Tessera_TensorDesc]>;
def Tessera_Value : AnyTypeOf<[Tessera_Elem, Tessera_Tensor]>;
// What a load reads from / a store writes to: a pointer, a tensor of
// pointers, or a block pointer.
def Tessera_AnyPtrLike : AnyTypeOf<[Tessera_ScalarPtr, Tessera_PtrTensor,
                                    Tessera_BlockPtr]>;

#endif // TESSERA_TYPES_TD
