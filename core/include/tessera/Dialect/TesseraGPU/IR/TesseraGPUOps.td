//===- TesseraGPUOps.td - Operations on laid-out tensors -*- tablegen -*-===//
#ifndef TESSERA_GPU_OPS_TD
#define TESSERA_GPU_OPS_TD

include "tessera/Dialect/TesseraGPU/IR/TesseraGPUDialect.td"
include "tessera/Dialect/TesseraGPU/IR/TesseraGPUAttrs.td"
include "tessera/Dialect/TesseraGPU/IR/TesseraGPUTypes.td"
include "tessera/Dialect/Tessera/IR/TesseraTypes.td"
include "tessera/Dialect/Tessera/IR/TesseraAttrs.td"
include "mlir/IR/OpBase.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"

def TesseraGPU_SharedMemory : Resource<"::mlir::tessera::gpu::SharedMemory">;

def TesseraGPU_MemDesc : Type<CPred<"::llvm::isa<::mlir::tessera::gpu::MemDescType>($_self)">,
    "shared-memory buffer", "::mlir::tessera::gpu::MemDescType">;
def TesseraGPU_Token : Type<CPred<"::llvm::isa<::mlir::tessera::gpu::AsyncTokenType>($_self)">,
    "async token", "::mlir::tessera::gpu::AsyncTokenType">,
    BuildableType<"::mlir::tessera::gpu::AsyncTokenType::get($_builder.getContext())">;

def TesseraGPU_ConvertLayoutOp : TesseraGPU_Op<"convert_layout", [Pure,
    SameOperandsAndResultShape, SameOperandsAndResultElementType]> {
  let summary = "Move a tensor's elements into another layout";
  let arguments = (ins Tessera_Tensor:$src);
  let results = (outs Tessera_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

//===----------------------------------------------------------------------===//
// Shared memory
//===----------------------------------------------------------------------===//

def TesseraGPU_LocalAllocOp : TesseraGPU_Op<"local_alloc", [
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "Allocate a shared-memory buffer, optionally filled from a tensor";
  let arguments = (ins Optional<Tessera_Tensor>:$src);
  let results = (outs TesseraGPU_MemDesc:$result);
  let assemblyFormat = [{
    ($src^)? attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def TesseraGPU_LocalDeallocOp : TesseraGPU_Op<"local_dealloc", [
    MemoryEffects<[MemFree<TesseraGPU_SharedMemory>]>]> {
  let summary = "End the lifetime of a shared-memory buffer";
  let arguments = (ins TesseraGPU_MemDesc:$src);
  let assemblyFormat = "$src attr-dict `:` qualified(type($src))";
}

def TesseraGPU_LocalLoadOp : TesseraGPU_Op<"local_load", [
    MemoryEffects<[MemRead<TesseraGPU_SharedMemory>]>]> {
  let summary = "Read a shared-memory buffer into a distributed tensor";
  let arguments = (ins TesseraGPU_MemDesc:$src,
                       Optional<TesseraGPU_Token>:$token);
  let results = (outs Tessera_Tensor:$result);
  let assemblyFormat = [{
    $src (`token` $token^)? attr-dict `:` qualified(type($src)) `->` type($result)
  }];
  let hasVerifier = 1;
}

def TesseraGPU_LocalStoreOp : TesseraGPU_Op<"local_store", [
    MemoryEffects<[MemWrite<TesseraGPU_SharedMemory>]>]> {
  let summary = "Write a distributed tensor into a shared-memory buffer";
  let arguments = (ins Tessera_Tensor:$value, TesseraGPU_MemDesc:$dst);
  let assemblyFormat = [{
    $value `,` $dst attr-dict `:` type($value) `->` qualified(type($dst))
  }];
  let hasVerifier = 1;
}

def TesseraGPU_MemDescIndexOp : TesseraGPU_Op<"memdesc_index", [Pure]> {
  let summary = "The buffer at `index` of the leading dimension of a buffer";
  let description = [{
    Multi-buffering allocates `stages x tile` and hands out one tile per
    stage; the result drops the leading dimension.
  }];
  let arguments = (ins TesseraGPU_MemDesc:$src, I32:$index);
  let results = (outs TesseraGPU_MemDesc:$result);
  let assemblyFormat = [{
    $src `[` $index `]` attr-dict `:` qualified(type($src)) `->`
    qualified(type($result))
  }];
  let hasVerifier = 1;
}

def TesseraGPU_MemDescTransOp : TesseraGPU_Op<"memdesc_trans", [Pure]> {
  let summary = "View a shared-memory buffer with permuted dimensions";
  let arguments = (ins TesseraGPU_MemDesc:$src, DenseI32ArrayAttr:$order);
  let results = (outs TesseraGPU_MemDesc:$result);
  let assemblyFormat = [{
    $src attr-dict `:` qualified(type($src)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Asynchronous copies and barriers
//===----------------------------------------------------------------------===//

def TesseraGPU_AsyncCopyGlobalToLocalOp
    : TesseraGPU_Op<"async_copy_global_to_local", [AttrSizedOperandSegments,
        MemoryEffects<[MemRead, MemWrite<TesseraGPU_SharedMemory>]>]> {
  let summary = "Start copying the elements a block of pointers addresses into shared memory";
  let description = [{
    Lanes whose mask is false write `other` (zero without it). The copy
    completes when a later `async_wait` leaves no more than `num` groups
    pending after the `async_commit_group` that took this token.
  }];
  let arguments = (ins Tessera_PtrTensor:$src, TesseraGPU_MemDesc:$dst,
    Optional<RankedTensorOf<[I1]>>:$mask, Optional<Tessera_Value>:$other,
    DefaultValuedAttr<Tessera_CacheModifierAttr,
                      "::mlir::tessera::CacheModifier::none">:$cache,
    DefaultValuedAttr<Tessera_EvictionPolicyAttr,
                      "::mlir::tessera::EvictionPolicy::normal">:$evict,
    UnitAttr:$isVolatile);
  let results = (outs TesseraGPU_Token:$token);
  let assemblyFormat = [{
    $src `,` $dst (`mask` $mask^ `:` type($mask))? (`other` $other^ `:` type($other))?
    attr-dict `:` type($src) `->` qualified(type($dst))
  }];
  let hasVerifier = 1;
}

def TesseraGPU_AsyncCommitGroupOp : TesseraGPU_Op<"async_commit_group", [
    MemoryEffects<[MemRead<TesseraGPU_SharedMemory>,
                   MemWrite<TesseraGPU_SharedMemory>]>]> {
  let summary = "Close the group of asynchronous copies started so far";
  let arguments = (ins Variadic<TesseraGPU_Token>:$inputTokens);
  let results = (outs TesseraGPU_Token:$token);
  let assemblyFormat = "($inputTokens^)? attr-dict";
}

def TesseraGPU_AsyncWaitOp : TesseraGPU_Op<"async_wait", [
    MemoryEffects<[MemRead<TesseraGPU_SharedMemory>,
                   MemWrite<TesseraGPU_SharedMemory>]>]> {
  let summary = "Wait until at most `num` committed copy groups are pending";
  let arguments = (ins Variadic<TesseraGPU_Token>:$asyncToken, I32Attr:$num);
  let results = (outs TesseraGPU_Token:$token);
  let assemblyFormat = "($asyncToken^)? attr-dict";
}

def TesseraGPU_DotWaitOp : TesseraGPU_Op<"dot_wait", [
    MemoryEffects<[MemRead<TesseraGPU_SharedMemory>,
                   MemWrite<TesseraGPU_SharedMemory>]>]> {
  let summary = "Wait until at most `pending` of the thread's asynchronous dots still run";
  let description = [{
    A target whose matrix unit runs dots asynchronously may leave a dot
    running after its lowering returns; its result may then only feed
    another dot as the accumulator, or this op. `dot_wait` returns its
    operands once no more than `pending` of the calling thread's dots are
    still running (the oldest finish first): only then may anything else
    read the results or overwrite the shared memory the dots read. On a
    target whose dots complete synchronously it passes the values through.
  }];
  let arguments = (ins Variadic<AnyRankedTensor>:$inputs, I32Attr:$pending);
  let results = (outs Variadic<AnyRankedTensor>:$outputs);
  let assemblyFormat = "$inputs attr-dict `:` type($inputs) `->` type($outputs)";
  let builders = [
    OpBuilder<(ins "::mlir::ValueRange":$inputs, "uint32_t":$pending), [{
      build($_builder, $_state, inputs.getTypes(), inputs,
            $_builder.getI32IntegerAttr(pending));
    }]>];
  let hasVerifier = 1;
}

def TesseraGPU_BarrierOp : TesseraGPU_Op<"barrier", [
    MemoryEffects<[MemRead<TesseraGPU_SharedMemory>,
                   MemWrite<TesseraGPU_SharedMemory>]>]> {
  let summary = "Synchronize the threads of a block and make shared-memory writes visible";
  let assemblyFormat = "attr-dict";
  // Folds away where nothing since the kernel's start or the last barrier
  // touched memory.
  let hasCanonicalizeMethod = 1;
}

def TesseraGPU_TensorMapType : Type<CPred<"::llvm::isa<::mlir::tessera::gpu::TensorMapType>($_self)">,
    "tensor map", "::mlir::tessera::gpu::TensorMapType">,
    BuildableType<"::mlir::tessera::gpu::TensorMapType::get($_builder.getContext())">;
def TesseraGPU_BarrierWord : Type<And<[TesseraGPU_MemDesc.predicate,
    CPred<"::llvm::cast<::mlir::tessera::gpu::MemDescType>($_self).getNumElements() == 1 && "
          "::llvm::cast<::mlir::tessera::gpu::MemDescType>($_self).getElementType().isInteger(64)">]>,
    "a one-element i64 shared buffer (a completion barrier)",
    "::mlir::tessera::gpu::MemDescType">;

def TesseraGPU_InitBarrierOp : TesseraGPU_Op<"init_barrier", [
    MemoryEffects<[MemWrite<TesseraGPU_SharedMemory>]>]> {
  let summary = "Make a shared word a completion barrier of `count` arrivals";
  let description = [{
    One thread initializes it; a phase of the barrier completes once
    `count` threads arrived and every byte announced for it was written.
    A `barrier` must follow before any thread uses it.
  }];
  let arguments = (ins TesseraGPU_BarrierWord:$barrier, I32Attr:$count);
  let assemblyFormat = [{
    $barrier attr-dict `:` qualified(type($barrier))
  }];
}

def TesseraGPU_MakeTensorMapOp : TesseraGPU_Op<"make_tensor_map", [
    MemoryEffects<[MemRead, MemWrite, MemRead<TesseraGPU_SharedMemory>,
                   MemWrite<TesseraGPU_SharedMemory>]>]> {
  let summary = "Encode a tensor descriptor's tensor map in global memory";
  let description = [{
    For a descriptor made from values only the kernel knows (pointers and
    strides it loaded): the map of `desc` is assembled in `staging` (128
    bytes of shared memory) and copied into `slot`, 128 bytes of global
    memory (128-byte aligned) that only this program uses, visible to the
    tensor copies the block issues afterwards. Copies still in flight
    through an earlier map in the slot complete first.
    `box` is the block one copy moves (outermost first); `dataType`,
    `swizzle` and `nanFill` are the target's encodings, as in a host-built
    map's recipe. The result is the map's address for `async_tensor_load`
    and `async_tensor_store`.
  }];
  let arguments = (ins Tessera_ScalarPtr:$slot, Tessera_TensorDesc:$desc,
                       TesseraGPU_MemDesc:$staging,
                       DenseI32ArrayAttr:$box, I32Attr:$dataType,
                       I32Attr:$swizzle, BoolAttr:$nanFill);
  let results = (outs TesseraGPU_TensorMapType:$map);
  let assemblyFormat = [{
    $slot `,` $desc `,` $staging attr-dict `:` type($slot) `,`
    qualified(type($desc)) `,` qualified(type($staging))
  }];
  let hasVerifier = 1;
}

def TesseraGPU_AsyncTensorLoadOp : TesseraGPU_Op<"async_tensor_load", [
    AttrSizedOperandSegments,
    MemoryEffects<[MemRead, MemWrite<TesseraGPU_SharedMemory>]>]> {
  let summary = "Start copying a block through a tensor map into shared memory";
  let description = [{
    One thread announces the block's bytes on `barrier` and starts the copy
    of the block at `indices` (elements, outermost first; rows or columns
    outside the tensor read as the map's padding). With a result, every
    thread of the block arrives on `barrier` (initialized for the block's
    threads) and the result is the caller's arrival token: `wait_barrier`
    with it returns once the copy landed. Without one, only the thread that
    starts the copy arrives (a barrier initialized for n arrivals completes
    a phase once n such copies landed), and the threads wait for the phase
    by its parity; such a copy may take a predicate `pred` (the same in
    every thread): where it is false nothing is copied, announced or
    arrived.
  }];
  let arguments = (ins TesseraGPU_TensorMapType:$map, Variadic<I32>:$indices,
                       TesseraGPU_MemDesc:$dst, TesseraGPU_BarrierWord:$barrier,
                       Optional<I1>:$pred);
  let results = (outs Optional<I64>:$token);
  let assemblyFormat = [{
    $map `[` $indices `]` `,` $dst `,` $barrier (`if` $pred^)? attr-dict `:`
    qualified(type($dst)) `,` qualified(type($barrier)) (`->` type($token)^)?
  }];
  let hasVerifier = 1;
}

def TesseraGPU_WaitBarrierOp : TesseraGPU_Op<"wait_barrier", [
    MemoryEffects<[MemRead<TesseraGPU_SharedMemory>,
                   MemWrite<TesseraGPU_SharedMemory>]>]> {
  let summary = "Wait until a phase of a barrier completed";
  let description = [{
    `state` is an arrival token (i64) of the phase, or the phase's parity
    (i32, 0 or 1; the phase after initialization is phase 0): the barrier
    must then be in that phase or the one after it, which a waiter knows by
    counting the phases it waited for.
  }];
  let arguments = (ins TesseraGPU_BarrierWord:$barrier,
                       AnyTypeOf<[I64, I32]>:$state);
  let assemblyFormat = [{
    $barrier `,` $state attr-dict `:` qualified(type($barrier)) `,` type($state)
  }];
}

def TesseraGPU_InvalBarrierOp : TesseraGPU_Op<"inval_barrier", [
    MemoryEffects<[MemWrite<TesseraGPU_SharedMemory>]>]> {
  let summary = "End a barrier's life, so that its word may be reused";
  let description = [{
    One thread invalidates it; every thread must be done waiting for it (a
    `barrier` before) and every copy announced on it must have landed.
    The word may then be initialized again.
  }];
  let arguments = (ins TesseraGPU_BarrierWord:$barrier);
  let assemblyFormat = [{
    $barrier attr-dict `:` qualified(type($barrier))
  }];
}

def TesseraGPU_AsyncTensorStoreOp : TesseraGPU_Op<"async_tensor_store", [
    MemoryEffects<[MemRead<TesseraGPU_SharedMemory>, MemWrite]>]> {
  let summary = "Copy a shared buffer through a tensor map to global memory";
  let description = [{
    One thread starts copying `src` to the block at `indices` (parts outside
    the tensor are dropped) and returns: the copy reads the buffer later.
    The caller must have made the buffer's contents visible (a `barrier`
    after writing it) and must not write the buffer again, nor end the
    kernel, before a `wait_tensor_stores` naming it.
  }];
  let arguments = (ins TesseraGPU_TensorMapType:$map, Variadic<I32>:$indices,
                       TesseraGPU_MemDesc:$src);
  let assemblyFormat = [{
    $map `[` $indices `]` `,` $src attr-dict `:` qualified(type($src))
  }];
  let hasVerifier = 1;
}

def TesseraGPU_WaitTensorStoresOp : TesseraGPU_Op<"wait_tensor_stores", [
    MemoryEffects<[MemRead<TesseraGPU_SharedMemory>,
                   MemWrite<TesseraGPU_SharedMemory>]>]> {
  let summary = "Wait until the block's tensor stores have read their buffers";
  let description = [{
    The thread that starts `async_tensor_store`s waits until every one it
    started but the `pending` it started last has read its shared buffer;
    a `barrier` after it tells the others that the buffers may be written
    again. `buffers` are the buffers those stores read: naming them keeps
    their bytes allocated until here (the stores read them after they
    returned).

    ```
    tessera_gpu.wait_tensor_stores %buf : !tessera_gpu.memdesc<...>
    tessera_gpu.wait_tensor_stores %buf : !tessera_gpu.memdesc<...> {pending = 1 : i32}
    ```
  }];
  let arguments = (ins Variadic<TesseraGPU_MemDesc>:$buffers,
                       DefaultValuedAttr<I32Attr, "0">:$pending);
  let assemblyFormat = [{
    ($buffers^ `:` qualified(type($buffers)))? attr-dict
  }];
}

//===----------------------------------------------------------------------===//
// Warp specialization
//===----------------------------------------------------------------------===//

def TesseraGPU_WarpSpecializeOp : TesseraGPU_Op<"warp_specialize", [
    RecursiveMemoryEffects]> {
  let summary = "Run different code on different groups of warps";
  let description = [{
    The default region runs on the block's own warps and yields the op's
    results. Each partition region runs on `partitionNumWarps[i]` extra
    warps; it sees only the captured values (as its block arguments) and
    ends with `warp_return`. `requestedRegisters` (one per partition) and
    `defaultRegisters` are per-thread register budgets the target may
    enforce.

    ```
    %r = tessera_gpu.warp_specialize(%a) attributes {partitionNumWarps = array<i32: 1>}
    default {
      tessera_gpu.warp_yield %x : f32
    }
    partition0(%arg0: i32) {
      tessera_gpu.warp_return
    } : (i32) -> f32
    ```
  }];
  let arguments = (ins Variadic<AnyType>:$captures,
                       DenseI32ArrayAttr:$partitionNumWarps,
                       OptionalAttr<DenseI32ArrayAttr>:$requestedRegisters,
                       OptionalAttr<I32Attr>:$defaultRegisters);
  let results = (outs Variadic<AnyType>:$results);
  let regions = (region MinSizedRegion<1>:$defaultRegion,
                        VariadicRegion<MinSizedRegion<1>>:$partitionRegions);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
}

def TesseraGPU_WarpYieldOp : TesseraGPU_Op<"warp_yield", [Pure, Terminator,
    ReturnLike, HasParent<"WarpSpecializeOp">]> {
  let summary = "End the default region of warp_specialize, yielding its results";
  let arguments = (ins Variadic<AnyType>:$values);
  let assemblyFormat = "($values^ `:` type($values))? attr-dict";
}

def TesseraGPU_WarpReturnOp : TesseraGPU_Op<"warp_return", [Pure, Terminator,
    ReturnLike, HasParent<"WarpSpecializeOp">]> {
  let summary = "End a partition of warp_specialize";
  let assemblyFormat = "attr-dict";
}

#endif // TESSERA_GPU_OPS_TD
