//===- TesseraOps.td - Operations of the tessera dialect -*- tablegen -*-===//
#ifndef TESSERA_OPS_TD
#define TESSERA_OPS_TD

include "tessera/Dialect/Tessera/IR/TesseraDialect.td"
include "tessera/Dialect/Tessera/IR/TesseraTypes.td"
include "tessera/Dialect/Tessera/IR/TesseraAttrs.td"
include "mlir/IR/OpBase.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"

// The element type of a pointer-like value with the same shape: what a load
// through it yields.
class LoadedTypeMatches<string ptr, string val>
    : TypesMatchWith<"value type matches what the pointer points to", ptr, val,
                     "::mlir::tessera::getLoadedType($_self)">;

//===----------------------------------------------------------------------===//
// Program instances
//===----------------------------------------------------------------------===//

def Tessera_ProgramIdOp : Tessera_Op<"program_id", [Pure]> {
  let summary = "Index of this program instance along a grid axis";
  let arguments = (ins Tessera_ProgramAxisAttr:$axis);
  let results = (outs I32:$result);
  let assemblyFormat = "$axis attr-dict `:` type($result)";
}

def Tessera_NumProgramsOp : Tessera_Op<"num_programs", [Pure]> {
  let summary = "Number of program instances along a grid axis";
  let arguments = (ins Tessera_ProgramAxisAttr:$axis);
  let results = (outs I32:$result);
  let assemblyFormat = "$axis attr-dict `:` type($result)";
}

//===----------------------------------------------------------------------===//
// Making and reshaping blocks
//===----------------------------------------------------------------------===//

def Tessera_MakeRangeOp : Tessera_Op<"make_range", [Pure]> {
  let summary = "The block [start, end) of consecutive i32 (tl.arange)";
  let arguments = (ins I32Attr:$start, I32Attr:$end);
  let results = (outs RankedTensorOf<[I32]>:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def Tessera_SplatOp : Tessera_Op<"splat", [Pure,
    TypesMatchWith<"source is the element type of the result", "result", "src",
                   "::llvm::cast<::mlir::ShapedType>($_self).getElementType()">]> {
  let summary = "A block whose every element is one scalar";
  let arguments = (ins Tessera_Elem:$src);
  let results = (outs Tessera_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($result)";
  let hasFolder = 1;
}

def Tessera_BroadcastOp : Tessera_Op<"broadcast", [Pure,
    SameOperandsAndResultElementType]> {
  let summary = "Repeat a block along its dimensions of size 1";
  let arguments = (ins Tessera_Tensor:$src);
  let results = (outs Tessera_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

def Tessera_ExpandDimsOp : Tessera_Op<"expand_dims", [Pure,
    SameOperandsAndResultElementType]> {
  let summary = "Insert a dimension of size 1 at `axis`";
  let arguments = (ins Tessera_Tensor:$src, I32Attr:$axis);
  let results = (outs Tessera_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
  let hasCanonicalizer = 1;
}

def Tessera_ReshapeOp : Tessera_Op<"reshape", [Pure,
    SameOperandsAndResultElementType]> {
  let summary = "View a block under another shape with the same element count";
  let description = [{
    Elements keep their row-major order unless `allow_reorder` is set, in
    which case the compiler may place them in any order (`tl.view`,
    `tl.reshape(..., can_reorder=True)`).
  }];
  let arguments = (ins Tessera_Tensor:$src, UnitAttr:$allow_reorder);
  let results = (outs Tessera_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

def Tessera_TransOp : Tessera_Op<"trans", [Pure,
    SameOperandsAndResultElementType]> {
  let summary = "Permute the dimensions of a block (tl.trans, tl.permute)";
  let description = [{
    Result dimension `i` is source dimension `order[i]`.
  }];
  let arguments = (ins Tessera_Tensor:$src, DenseI32ArrayAttr:$order);
  let results = (outs Tessera_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

def Tessera_JoinOp : Tessera_Op<"join", [Pure, SameTypeOperands,
    SameOperandsAndResultElementType]> {
  let summary = "Stack two blocks along a new minor dimension of size 2";
  let arguments = (ins Tessera_Tensor:$lhs, Tessera_Tensor:$rhs);
  let results = (outs Tessera_Tensor:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` type($lhs) `->` type($result)";
  let hasVerifier = 1;
}

def Tessera_SplitOp : Tessera_Op<"split", [Pure,
    AllTypesMatch<["outLHS", "outRHS"]>]> {
  let summary = "Split a block along its minor dimension, which must be 2";
  let arguments = (ins Tessera_Tensor:$src);
  let results = (outs Tessera_Tensor:$outLHS, Tessera_Tensor:$outRHS);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($outLHS)";
  let hasVerifier = 1;
}

def Tessera_CatOp : Tessera_Op<"cat", [Pure, SameTypeOperands,
    SameOperandsAndResultElementType]> {
  let summary = "Concatenate two blocks along dimension 0 (tl.cat)";
  let description = [{
    Triton only promises the element multiset when `can_reorder` is set;
    this op concatenates in order along dimension 0, which satisfies it.
  }];
  let arguments = (ins Tessera_Tensor:$lhs, Tessera_Tensor:$rhs);
  let results = (outs Tessera_Tensor:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` type($lhs) `->` type($result)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Pointers
//===----------------------------------------------------------------------===//

def Tessera_AddPtrOp : Tessera_Op<"addptr", [Pure, Elementwise,
    SameOperandsAndResultShape, AllTypesMatch<["ptr", "result"]>]> {
  let summary = "Advance pointers by a number of elements";
  let description = [{
    `result = ptr + offset * sizeof(pointee)`, elementwise on blocks.
  }];
  let arguments = (ins Tessera_PtrLike:$ptr, Tessera_IntLike:$offset);
  let results = (outs Tessera_PtrLike:$result);
  let assemblyFormat =
      "$ptr `,` $offset attr-dict `:` type($result) `,` type($offset)";
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

def Tessera_IntToPtrOp : Tessera_Op<"int_to_ptr", [Pure, Elementwise,
    SameOperandsAndResultShape]> {
  let summary = "Reinterpret 64-bit integers as pointers";
  let arguments = (ins AnyTypeOf<[I64, RankedTensorOf<[I64]>]>:$src);
  let results = (outs Tessera_PtrLike:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
}

def Tessera_PtrToIntOp : Tessera_Op<"ptr_to_int", [Pure, Elementwise,
    SameOperandsAndResultShape]> {
  let summary = "Reinterpret pointers as 64-bit integers";
  let arguments = (ins Tessera_PtrLike:$src);
  let results = (outs AnyTypeOf<[I64, RankedTensorOf<[I64]>]>:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
}

def Tessera_BitcastOp : Tessera_Op<"bitcast", [Pure, Elementwise,
    SameOperandsAndResultShape]> {
  let summary = "Reinterpret bits as another type of the same width";
  let description = [{
    Covers what `arith.bitcast` cannot: casts between pointer types.
  }];
  let arguments = (ins Tessera_Value:$src);
  let results = (outs Tessera_Value:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

def Tessera_LoadOp : Tessera_Op<"load", [
    AttrSizedOperandSegments,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
    LoadedTypeMatches<"ptr", "result">,
    TypesMatchWith<"other has the result type", "ptr", "other",
                   "::mlir::tessera::getLoadedType($_self)",
                   "!::llvm::cast<::mlir::tessera::LoadOp>($_op).getOther() || std::equal_to<>()">,
    TypesMatchWith<"mask has the shape of the result", "ptr", "mask",
                   "::mlir::tessera::getI1TypeWithSameShape(::mlir::tessera::getLoadedType($_self))",
                   "!::llvm::cast<::mlir::tessera::LoadOp>($_op).getMask() || std::equal_to<>()">]> {
  let summary = "Read a scalar or block from memory, under an optional mask";
  let description = [{
    `ptr` is a pointer, a block of pointers, or a block pointer. Lanes whose
    mask is false are not read and yield `other` (undefined without it). For
    block pointers, `boundaryCheck` lists the dimensions checked against the
    tensor's shape and `padding` says what out-of-bounds elements read as.
  }];
  let arguments = (ins
    Tessera_AnyPtrLike:$ptr,
    Optional<Tessera_I1Like>:$mask,
    Optional<Tessera_Value>:$other,
    DefaultValuedAttr<DenseI32ArrayAttr, "{}">:$boundaryCheck,
    OptionalAttr<Tessera_PaddingOptionAttr>:$padding,
    DefaultValuedAttr<Tessera_CacheModifierAttr,
                      "::mlir::tessera::CacheModifier::none">:$cache,
    DefaultValuedAttr<Tessera_EvictionPolicyAttr,
                      "::mlir::tessera::EvictionPolicy::normal">:$evict,
    UnitAttr:$isVolatile);
  let results = (outs Tessera_Value:$result);
  let assemblyFormat = [{
    $ptr (`,` $mask^)? (`,` $other^)? attr-dict `:` type($ptr)
  }];
  let builders = [
    OpBuilder<(ins "Value":$ptr, CArg<"Value", "{}">:$mask,
                   CArg<"Value", "{}">:$other)>
  ];
  let hasVerifier = 1;
  let hasCanonicalizer = 1;
}

def Tessera_StoreOp : Tessera_Op<"store", [
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
    LoadedTypeMatches<"ptr", "value">,
    TypesMatchWith<"mask has the shape of the value", "ptr", "mask",
                   "::mlir::tessera::getI1TypeWithSameShape(::mlir::tessera::getLoadedType($_self))",
                   "($_op.getNumOperands() <= 2) || std::equal_to<>()">]> {
  let summary = "Write a scalar or block to memory, under an optional mask";
  let arguments = (ins
    Tessera_AnyPtrLike:$ptr,
    Tessera_Value:$value,
    Optional<Tessera_I1Like>:$mask,
    DefaultValuedAttr<DenseI32ArrayAttr, "{}">:$boundaryCheck,
    DefaultValuedAttr<Tessera_CacheModifierAttr,
                      "::mlir::tessera::CacheModifier::none">:$cache,
    DefaultValuedAttr<Tessera_EvictionPolicyAttr,
                      "::mlir::tessera::EvictionPolicy::normal">:$evict);
  let assemblyFormat = [{
    $ptr `,` $value (`,` $mask^)? attr-dict `:` type($ptr)
  }];
  let hasVerifier = 1;
  let hasCanonicalizer = 1;
}

def Tessera_AtomicRMWOp : Tessera_Op<"atomic_rmw", [
    MemoryEffects<[MemRead, MemWrite]>,
    LoadedTypeMatches<"ptr", "val">,
    LoadedTypeMatches<"ptr", "result">,
    TypesMatchWith<"mask has the shape of the value", "ptr", "mask",
                   "::mlir::tessera::getI1TypeWithSameShape(::mlir::tessera::getLoadedType($_self))",
                   "($_op.getNumOperands() <= 2) || std::equal_to<>()">]> {
  let summary = "Atomic read-modify-write; yields the old values";
  let arguments = (ins
    Tessera_RMWOpAttr:$rmw_op,
    Tessera_PtrLike:$ptr,
    Tessera_Value:$val,
    Optional<Tessera_I1Like>:$mask,
    DefaultValuedAttr<Tessera_MemSemanticAttr,
                      "::mlir::tessera::MemSemantic::acq_rel">:$sem,
    DefaultValuedAttr<Tessera_MemScopeAttr,
                      "::mlir::tessera::MemScope::gpu">:$scope);
  let results = (outs Tessera_Value:$result);
  let assemblyFormat = [{
    $rmw_op $ptr `,` $val (`,` $mask^)? attr-dict `:` type($ptr)
  }];
  let hasVerifier = 1;
}

def Tessera_AtomicCASOp : Tessera_Op<"atomic_cas", [
    MemoryEffects<[MemRead, MemWrite]>,
    LoadedTypeMatches<"ptr", "cmp">,
    LoadedTypeMatches<"ptr", "val">,
    LoadedTypeMatches<"ptr", "result">]> {
  let summary = "Atomic compare-and-swap; yields the old values";
  let arguments = (ins
    Tessera_PtrLike:$ptr,
    Tessera_Value:$cmp,
    Tessera_Value:$val,
    DefaultValuedAttr<Tessera_MemSemanticAttr,
                      "::mlir::tessera::MemSemantic::acq_rel">:$sem,
    DefaultValuedAttr<Tessera_MemScopeAttr,
                      "::mlir::tessera::MemScope::gpu">:$scope);
  let results = (outs Tessera_Value:$result);
  let assemblyFormat = "$ptr `,` $cmp `,` $val attr-dict `:` type($ptr)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Tensor descriptors and block pointers
//===----------------------------------------------------------------------===//

def Tessera_MakeTensorDescOp : Tessera_Op<"make_tensor_descriptor", [Pure,
    SameVariadicOperandSize]> {
  let summary = "Describe a strided global tensor to be accessed in blocks";
  let description = [{
    `shape` and `strides` are in elements, outermost first; the last stride
    must be 1. The result type fixes the block shape.
  }];
  let arguments = (ins Tessera_ScalarPtr:$base, Variadic<I32>:$shape,
                       Variadic<I64>:$strides,
                       DefaultValuedAttr<Tessera_PaddingOptionAttr,
                           "::mlir::tessera::PaddingOption::zero">:$padding);
  let results = (outs Tessera_TensorDesc:$result);
  let assemblyFormat = [{
    $base `,` `[` $shape `]` `,` `[` $strides `]` attr-dict `:` type($base)
    `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def Tessera_DescriptorLoadOp : Tessera_Op<"descriptor_load", [
    MemoryEffects<[MemRead]>]> {
  let summary = "Read the block at `indices` (in elements) through a descriptor";
  let arguments = (ins Tessera_TensorDesc:$desc, Variadic<I32>:$indices,
    DefaultValuedAttr<Tessera_CacheModifierAttr,
                      "::mlir::tessera::CacheModifier::none">:$cache,
    DefaultValuedAttr<Tessera_EvictionPolicyAttr,
                      "::mlir::tessera::EvictionPolicy::normal">:$evict);
  let results = (outs Tessera_Tensor:$result);
  let assemblyFormat = [{
    $desc `[` $indices `]` attr-dict `:` qualified(type($desc)) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Tessera_DescriptorStoreOp : Tessera_Op<"descriptor_store", [
    MemoryEffects<[MemWrite]>]> {
  let summary = "Write the block at `indices` (in elements) through a descriptor";
  let arguments = (ins Tessera_TensorDesc:$desc, Variadic<I32>:$indices,
                       Tessera_Tensor:$src);
  let assemblyFormat = [{
    $desc `[` $indices `]` `,` $src attr-dict `:` qualified(type($desc)) `,`
    type($src)
  }];
  let hasVerifier = 1;
}

def Tessera_MakeBlockPtrOp : Tessera_Op<"make_block_ptr", [Pure,
    SameVariadicOperandSize]> {
  let summary = "A pointer to a block of a strided tensor (tl.make_block_ptr)";
  let description = [{
    `order` lists the dimensions from fastest to slowest varying in memory.
  }];
  let arguments = (ins Tessera_ScalarPtr:$base, Variadic<I64>:$shape,
                       Variadic<I64>:$strides, Variadic<I32>:$offsets,
                       DenseI32ArrayAttr:$order);
  let results = (outs Tessera_BlockPtr:$result);
  let assemblyFormat = [{
    $base `,` `[` $shape `]` `,` `[` $strides `]` `,` `[` $offsets `]`
    attr-dict `:` type($base) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def Tessera_AdvanceOp : Tessera_Op<"advance", [Pure,
    AllTypesMatch<["ptr", "result"]>]> {
  let summary = "Move a block pointer by `offsets` elements per dimension";
  let arguments = (ins Tessera_BlockPtr:$ptr, Variadic<I32>:$offsets);
  let results = (outs Tessera_BlockPtr:$result);
  let assemblyFormat = "$ptr `,` `[` $offsets `]` attr-dict `:` type($ptr)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Linear algebra, reductions and scans
//===----------------------------------------------------------------------===//

def Tessera_DotOp : Tessera_Op<"dot", [Pure,
    AllTypesMatch<["c", "d"]>]> {
  let summary = "Block matrix product with accumulator: d = a * b + c";
  let description = [{
    `a` is MxK, `b` is KxN, `c` and `d` are MxN (a leading batch dimension
    is allowed on all four). `inputPrecision` says how fp32 inputs are
    multiplied; `maxNumImpreciseAcc` bounds how many products an fp8 dot may
    add in reduced precision before promoting (0: always full precision).
  }];
  let arguments = (ins Tessera_Tensor:$a, Tessera_Tensor:$b, Tessera_Tensor:$c,
    DefaultValuedAttr<Tessera_InputPrecisionAttr,
                      "::mlir::tessera::InputPrecision::ieee">:$inputPrecision,
    DefaultValuedAttr<I32Attr, "0">:$maxNumImpreciseAcc);
  let results = (outs Tessera_Tensor:$d);
  let assemblyFormat = [{
    $a `,` $b `,` $c attr-dict `:` type($a) `*` type($b) `->` type($d)
  }];
  let hasVerifier = 1;
  let hasCanonicalizer = 1;
}

def Tessera_ReduceOp : Tessera_Op<"reduce", [Pure,
    SingleBlock]> {
  let summary = "Reduce blocks along `axis` with a combine region";
  let description = [{
    The region takes 2N scalars (the N accumulated values, then the N new
    ones) and yields N scalars. Reducing a rank-1 block yields scalars.
    Several operands reduce together (argmax reduces values and indices).
  }];
  let arguments = (ins Variadic<Tessera_Tensor>:$srcs, I32Attr:$axis);
  let results = (outs Variadic<Tessera_Value>:$results);
  let regions = (region SizedRegion<1>:$combineOp);
  let assemblyFormat = [{
    `(` $srcs `)` attr-dict `:` functional-type($srcs, $results) $combineOp
  }];
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let extraClassDeclaration = [{
    /// The shape of the results (empty for a rank-1 reduction).
    ::llvm::SmallVector<int64_t> getResultShape();
  }];
}

def Tessera_ReduceReturnOp : Tessera_Op<"reduce.return", [Pure, Terminator,
    HasParent<"ReduceOp">, ReturnLike]> {
  let summary = "Yield the combined values of a reduce region";
  let arguments = (ins Variadic<AnyType>:$result);
  let assemblyFormat = "$result attr-dict `:` type($result)";
}

def Tessera_ScanOp : Tessera_Op<"scan", [Pure,
    SingleBlock]> {
  let summary = "Inclusive scan of blocks along `axis` with a combine region";
  let arguments = (ins Variadic<Tessera_Tensor>:$srcs, I32Attr:$axis,
                       UnitAttr:$reverse);
  let results = (outs Variadic<Tessera_Tensor>:$results);
  let regions = (region SizedRegion<1>:$combineOp);
  let assemblyFormat = [{
    `(` $srcs `)` attr-dict `:` functional-type($srcs, $results) $combineOp
  }];
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
}

def Tessera_ScanReturnOp : Tessera_Op<"scan.return", [Pure, Terminator,
    HasParent<"ScanOp">, ReturnLike]> {
  let summary = "Yield the combined values of a scan region";
  let arguments = (ins Variadic<AnyType>:$result);
  let assemblyFormat = "$result attr-dict `:` type($result)";
}

def Tessera_HistogramOp : Tessera_Op<"histogram", [Pure]> {
  let summary = "Count the values of an integer block into `numBins` bins";
  let description = [{
    Bin `i` of the result counts the elements equal to `i`; values outside
    [0, numBins) and masked-off elements are not counted.
  }];
  let arguments = (ins RankedTensorOf<[Tessera_Int]>:$src,
                       Optional<RankedTensorOf<[I1]>>:$mask);
  let results = (outs RankedTensorOf<[I32]>:$result);
  let assemblyFormat = [{
    $src (`,` $mask^ `:` type($mask))? attr-dict `:` type($src) `->` type($result)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Elementwise operations MLIR's dialects lack
//===----------------------------------------------------------------------===//

def Tessera_ExternElementwiseOp : Tessera_Op<"extern_elementwise", [
    Elementwise, SameOperandsAndResultShape,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "Call a math-library function elementwise, by symbol";
  let description = [{
    `symbol` names the function in the library the plugin links
    (`libname`/`libpath` as given by the kernel, possibly empty, in which
    case the plugin resolves the symbol in its own math library). Impure
    calls keep their order and are never removed.
  }];
  let arguments = (ins Variadic<Tessera_Value>:$srcs, StrAttr:$libname,
                       StrAttr:$libpath, StrAttr:$symbol, BoolAttr:$pure);
  let results = (outs Tessera_Value:$result);
  let assemblyFormat = "$srcs attr-dict `:` functional-type($srcs, $result)";
}

def Tessera_InlineAsmElementwiseOp : Tessera_Op<"inline_asm_elementwise", [
    Elementwise, SameOperandsAndResultShape,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "Run inline assembly elementwise (tl.inline_asm_elementwise)";
  let description = [{
    `packed_element` elements are handed to one instance of the assembly.
  }];
  let arguments = (ins Variadic<Tessera_Value>:$args, StrAttr:$asm_string,
                       StrAttr:$constraints, BoolAttr:$pure,
                       I32Attr:$packed_element);
  let results = (outs Variadic<Tessera_Value>:$result);
  let assemblyFormat = "$args attr-dict `:` functional-type($args, $result)";
  let hasVerifier = 1;
}

def Tessera_PreciseSqrtOp : Tessera_Op<"precise_sqrt", [Pure, Elementwise,
    SameOperandsAndResultType]> {
  let summary = "Correctly rounded square root (tl.sqrt_rn)";
  let arguments = (ins Tessera_FloatLike:$x);
  let results = (outs Tessera_FloatLike:$result);
  let assemblyFormat = "$x attr-dict `:` type($x)";
}

def Tessera_PreciseDivFOp : Tessera_Op<"precise_divf", [Pure, Elementwise,
    SameOperandsAndResultType]> {
  let summary = "Correctly rounded division (tl.div_rn)";
  let arguments = (ins Tessera_FloatLike:$x, Tessera_FloatLike:$y);
  let results = (outs Tessera_FloatLike:$result);
  let assemblyFormat = "$x `,` $y attr-dict `:` type($x)";
}

def Tessera_FpToFpOp : Tessera_Op<"fp_to_fp", [Pure, Elementwise,
    SameOperandsAndResultShape]> {
  let summary = "Float conversion with an explicit rounding mode";
  let description = [{
    Conversions to or from the fp8 formats, and down-casts with a rounding
    mode `arith.truncf` does not carry. Down-casts need `rounding`.
  }];
  let arguments = (ins Tessera_FloatLike:$src,
                       OptionalAttr<Tessera_RoundingModeAttr>:$rounding);
  let results = (outs Tessera_FloatLike:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Tessera_ClampFOp : Tessera_Op<"clampf", [Pure, Elementwise,
    SameOperandsAndResultType]> {
  let summary = "min(max(x, min), max), with a NaN policy (tl.clamp)";
  let arguments = (ins Tessera_FloatLike:$x, Tessera_FloatLike:$min,
                       Tessera_FloatLike:$max,
                       Tessera_PropagateNanAttr:$propagateNan);
  let results = (outs Tessera_FloatLike:$result);
  let assemblyFormat = [{
    $x `,` $min `,` $max `,` $propagateNan attr-dict `:` type($result)
  }];
}

def Tessera_MulhiUIOp : Tessera_Op<"mulhiui", [Pure, Elementwise,
    SameOperandsAndResultType]> {
  let summary = "High half of the unsigned product of two integers (tl.umulhi)";
  let arguments = (ins Tessera_IntLike:$x, Tessera_IntLike:$y);
  let results = (outs Tessera_IntLike:$result);
  let assemblyFormat = "$x `,` $y attr-dict `:` type($x)";
}

//===----------------------------------------------------------------------===//
// Hints
//===----------------------------------------------------------------------===//

def Tessera_AssumeOp : Tessera_Op<"assume", [
    MemoryEffects<[MemWrite]>]> {
  let summary = "Promise the compiler that a scalar condition holds (tl.assume)";
  let description = [{
    Modelled as having an effect so that it is not removed; it writes
    nothing at run time.
  }];
  let arguments = (ins I1:$cond);
  let assemblyFormat = "$cond attr-dict";
}

def Tessera_HintOp : Tessera_Op<"hint", [Pure, AllTypesMatch<["src", "result"]>]> {
  let summary = "Attach alignment facts to a value (tl.multiple_of and friends)";
  let description = [{
    Per dimension of `src` (one entry for a scalar): `divisibility` is a
    power of two every element is a multiple of; `contiguity` is the length
    of runs of consecutive increasing values; `constancy` the length of runs
    of equal values. Missing arrays mean nothing is known. The axis-info
    analysis reads these; lowering drops the op.
  }];
  let arguments = (ins Tessera_Value:$src,
                       OptionalAttr<DenseI64ArrayAttr>:$divisibility,
                       OptionalAttr<DenseI64ArrayAttr>:$contiguity,
                       OptionalAttr<DenseI64ArrayAttr>:$constancy);
  let results = (outs Tessera_Value:$result);
  let assemblyFormat = "$src attr-dict `:` type($src)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Debugging
//===----------------------------------------------------------------------===//

def Tessera_PrintOp : Tessera_Op<"print", [
    MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "Print scalars and blocks from the device (tl.device_print)";
  let description = [{
    Each printed line starts with the program id and, for blocks, the
    element index, then `prefix`. `isSigned` holds one flag per operand.
  }];
  let arguments = (ins StrAttr:$prefix, BoolAttr:$hex,
                       Variadic<Tessera_Value>:$args,
                       DenseI32ArrayAttr:$isSigned);
  let assemblyFormat = [{
    $prefix attr-dict (`:` $args^ `:` type($args))?
  }];
  let hasVerifier = 1;
}

def Tessera_AssertOp : Tessera_Op<"assert", [
    MemoryEffects<[MemWrite]>]> {
  let summary = "Abort the kernel when a condition is false (tl.device_assert)";
  let description = [{
    `file`, `function` and `line` name where the assertion was written; the
    runtime message cites them as the host `assert` does.
  }];
  let arguments = (ins Tessera_I1Like:$condition, StrAttr:$message,
                       StrAttr:$file, StrAttr:$function, I32Attr:$line);
  let assemblyFormat = "$condition `,` $message attr-dict `:` type($condition)";
}

def Tessera_DebugBarrierOp : Tessera_Op<"debug_barrier", [
    MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "Synchronize all threads of a program instance (tl.debug_barrier)";
  let assemblyFormat = "attr-dict";
}

#endif // TESSERA_OPS_TD
