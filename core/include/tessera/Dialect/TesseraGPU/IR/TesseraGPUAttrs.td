//===- TesseraGPUAttrs.td - Layout attributes ------------*- tablegen -*-===//
#ifndef TESSERA_GPU_ATTRS_TD
#define TESSERA_GPU_ATTRS_TD

include "tessera/Dialect/TesseraGPU/IR/TesseraGPUDialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/TensorEncoding.td"

//===----------------------------------------------------------------------===//
// Interfaces
//===----------------------------------------------------------------------===//

def TesseraGPU_DistributedLayoutInterface
    : AttrInterface<"DistributedLayoutAttr"> {
  let cppNamespace = "::mlir::tessera::gpu";
  let description = [{
    A layout of a tensor held in registers: a LinearLayout from
    (register, lane, warp, block) to the tensor's coordinates.
  }];
  let methods = [
    InterfaceMethod<"The LinearLayout of a tensor of this shape.",
      "::mlir::tessera::LinearLayout", "toLinearLayout",
      (ins "::llvm::ArrayRef<int64_t>":$shape)>,
    InterfaceMethod<"The rank of the tensors this layout applies to.",
      "unsigned", "getRank", (ins)>,
  ];
}

def TesseraGPU_SharedLayoutInterface : AttrInterface<"SharedLayoutAttr"> {
  let cppNamespace = "::mlir::tessera::gpu";
  let description = [{
    A layout of a tensor in shared memory: a LinearLayout from (offset,
    block) to the tensor's coordinates, offsets counted in elements.
  }];
  let methods = [
    InterfaceMethod<"The LinearLayout of a buffer of this shape.",
      "::mlir::tessera::LinearLayout", "toLinearLayout",
      (ins "::llvm::ArrayRef<int64_t>":$shape)>,
  ];
}

class TesseraGPU_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<TesseraGPU_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

//===----------------------------------------------------------------------===//
// Distributed layouts
//===----------------------------------------------------------------------===//

def TesseraGPU_BlockedAttr : TesseraGPU_Attr<"Blocked", "blocked", [
    DeclareAttrInterfaceMethods<TesseraGPU_DistributedLayoutInterface>,
    DeclareAttrInterfaceMethods<VerifiableTensorEncoding>]> {
  let summary = "Each thread holds a small dense tile; tiles tile the tensor";
  let description = [{
    Along dimension `d` a thread holds `sizePerThread[d]` consecutive
    elements, a warp spans `threadsPerWarp[d]` threads, a block
    `warpsPerCTA[d]` warps, and a cluster `CTAsPerCGA[d]` blocks (all ones
    when omitted). `order` lists the dimensions from fastest to slowest. A
    tensor larger than the tile repeats it in registers; a smaller one is
    held by several threads (broadcast).
  }];
  let parameters = (ins ArrayRefParameter<"unsigned">:$sizePerThread,
                        ArrayRefParameter<"unsigned">:$threadsPerWarp,
                        ArrayRefParameter<"unsigned">:$warpsPerCTA,
                        ArrayRefParameter<"unsigned">:$order,
                        OptionalArrayRefParameter<"unsigned">:$CTAsPerCGA);
  let assemblyFormat = [{
    `<` `sizePerThread` `=` `[` $sizePerThread `]` `,`
        `threadsPerWarp` `=` `[` $threadsPerWarp `]` `,`
        `warpsPerCTA` `=` `[` $warpsPerCTA `]` `,`
        `order` `=` `[` $order `]`
        (`,` `CTAsPerCGA` `=` `[` $CTAsPerCGA^ `]`)? `>`
  }];
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// CTAsPerCGA with the default of ones made explicit.
    ::llvm::SmallVector<unsigned> getCTAsPerCGAOrOnes() const;
  }];
}

def TesseraGPU_SliceAttr : TesseraGPU_Attr<"Slice", "slice", [
    DeclareAttrInterfaceMethods<TesseraGPU_DistributedLayoutInterface>,
    DeclareAttrInterfaceMethods<VerifiableTensorEncoding>]> {
  let summary = "The parent layout with dimension `dim` reduced away";
  let description = [{
    The layout of a reduction's result, or of a tensor that will be
    expanded back along `dim` (`expand_dims` of a slice is its parent).
  }];
  let parameters = (ins "unsigned":$dim, "::mlir::Attribute":$parent);
  let assemblyFormat = "`<` `dim` `=` $dim `,` `parent` `=` $parent `>`";
  let genVerifyDecl = 1;
}

def TesseraGPU_DotOperandAttr : TesseraGPU_Attr<"DotOperand", "dot_op", [
    DeclareAttrInterfaceMethods<TesseraGPU_DistributedLayoutInterface>,
    DeclareAttrInterfaceMethods<VerifiableTensorEncoding>]> {
  let summary = "Layout of operand `opIdx` (0: A, 1: B) of a dot with result `parent`";
  let description = [{
    With a blocked parent (a dot on FMA units) a thread holds the whole K
    extent of the rows (A) or columns (B) of the result it owns. Matrix-unit
    dots give their operands `linear` layouts chosen by the plugin instead.
    `kWidth` is the number of consecutive K elements a thread holds (0 when
    the parent decides).
  }];
  let parameters = (ins "unsigned":$opIdx, "::mlir::Attribute":$parent,
                        DefaultValuedParameter<"unsigned", "0">:$kWidth);
  let assemblyFormat = [{
    `<` `opIdx` `=` $opIdx `,` `parent` `=` $parent
        (`,` `kWidth` `=` $kWidth^)? `>`
  }];
  let genVerifyDecl = 1;
}

def TesseraGPU_LinearAttr : TesseraGPU_Attr<"Linear", "linear", [
    DeclareAttrInterfaceMethods<TesseraGPU_DistributedLayoutInterface>,
    DeclareAttrInterfaceMethods<VerifiableTensorEncoding>]> {
  let summary = "Any distributed layout, given by its LinearLayout bases";
  let description = [{
    `#tessera_gpu.linear<register = [[0, 1], [0, 2]], lane = [...],
    warp = [...], block = [...]>`: each basis gives the tensor coordinates
    (one per dimension) of one bit of the hardware index. Plugins write
    their matrix-unit layouts this way.
  }];
  let parameters = (ins "unsigned":$tensorRank,
                        ArrayRefParameter<"int32_t">:$registerBases,
                        ArrayRefParameter<"int32_t">:$laneBases,
                        ArrayRefParameter<"int32_t">:$warpBases,
                        ArrayRefParameter<"int32_t">:$blockBases);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let builders = [
    AttrBuilder<(ins "const ::mlir::tessera::LinearLayout &":$layout)>
  ];
  let extraClassDeclaration = [{
    /// The bases of hardware dimension `inDim` ("register", "lane", "warp",
    /// "block"), each a vector of `rank` coordinates.
    ::llvm::SmallVector<::llvm::SmallVector<int32_t>> getBases(::llvm::StringRef inDim) const;
  }];
}

//===----------------------------------------------------------------------===//
// Shared-memory layouts
//===----------------------------------------------------------------------===//

def TesseraGPU_SwizzledSharedAttr : TesseraGPU_Attr<"SwizzledShared", "shared", [
    DeclareAttrInterfaceMethods<TesseraGPU_SharedLayoutInterface>]> {
  let summary = "Row-major shared memory with an XOR swizzle of vectors";
  let description = [{
    Along `order` (fastest dimension first) rows of the fastest dimension are
    stored contiguously, but within row `r` the vector index (groups of `vec`
    elements) is XORed with the phase `(r / perPhase) % maxPhase`, which
    spreads a column over the memory banks. `vec = 1, perPhase = 1,
    maxPhase = 1` is no swizzle. A nonzero `blockCols` narrower than a row
    cuts the rows into blocks of that many elements: the whole tile of the
    first block is stored, then that of the next (the swizzle stays within
    a block). Matrix units that read shared memory through descriptors want
    rows of at most 128 bytes stored this way.
  }];
  let parameters = (ins "unsigned":$vec, "unsigned":$perPhase,
                        "unsigned":$maxPhase,
                        ArrayRefParameter<"unsigned">:$order,
                        OptionalArrayRefParameter<"unsigned">:$CTAsPerCGA,
                        DefaultValuedParameter<"unsigned", "0">:$blockCols);
  // `<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]` then, when they
  // are set, `, CTAsPerCGA = [..]` and `, blockCols = N`, then `>`.
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

def TesseraGPU_SharedLinearAttr : TesseraGPU_Attr<"SharedLinear", "shared_linear", [
    DeclareAttrInterfaceMethods<TesseraGPU_SharedLayoutInterface>]> {
  let summary = "Any shared-memory layout, given by its LinearLayout bases";
  let parameters = (ins "unsigned":$tensorRank,
                        ArrayRefParameter<"int32_t">:$offsetBases,
                        ArrayRefParameter<"int32_t">:$blockBases);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let builders = [
    AttrBuilder<(ins "const ::mlir::tessera::LinearLayout &":$layout)>
  ];
}

#endif // TESSERA_GPU_ATTRS_TD
