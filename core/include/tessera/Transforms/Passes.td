//===- Passes.td - Target-independent passes of the core -*- tablegen -*-===//
#ifndef TESSERA_TRANSFORMS_PASSES_TD
#define TESSERA_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def TesseraConvertToGPU : Pass<"tessera-convert-to-gpu", "mlir::ModuleOp"> {
  let summary = "Give every tensor a layout: tessera to tessera_gpu";
  let description = [{
    Assigns every tensor a default blocked layout for the launch shape given
    by the options (warps per block, threads per warp, blocks per cluster),
    which also become module attributes. Ops whose result layout follows
    from their operands' get it that way: a reduction's result takes the
    slice of its operand's layout, transposes, reshapes, joins, splits and
    concatenations relabel their operand's layout without moving data, and
    dot operands take dot-operand layouts of the result's. Where an operand
    needs another layout, a `convert_layout` is inserted; later passes remove
    the ones they can.
  }];
  let options = [
    Option<"numWarps", "num-warps", "int", /*default=*/"4",
           "Warps per block">,
    Option<"threadsPerWarp", "threads-per-warp", "int", /*default=*/"32",
           "Threads per warp">,
    Option<"numCTAs", "num-ctas", "int", /*default=*/"1",
           "Blocks per cluster">,
    Option<"target", "target", "std::string", /*default=*/"\"\"",
           "Target name recorded on the module (the plugin's, e.g. 'cpu')">,
  ];
  let dependentDialects = ["mlir::tessera::gpu::TesseraGPUDialect"];
}

def TesseraCoalesce : Pass<"tessera-coalesce", "mlir::ModuleOp"> {
  let summary = "Choose layouts for memory accesses from the axis analysis";
  let description = [{
    For every load, store, atomic and asynchronous copy through a block of
    pointers, picks a blocked layout whose fastest dimension is the
    pointers' most contiguous one and in which each thread holds as many
    consecutive elements as the analysis proves contiguous and aligned (up
    to `max-vector-bits` bits), so that consecutive threads access
    consecutive memory and each thread issues the widest accesses. Operands
    and results are converted to and from that layout.
  }];
  let options = [
    Option<"maxVectorBits", "max-vector-bits", "unsigned", /*default=*/"128",
           "Widest access one thread makes, in bits">,
  ];
}

def TesseraRemoveLayoutConversions
    : Pass<"tessera-remove-layout-conversions", "mlir::ModuleOp"> {
  let summary = "Propagate layouts to remove redundant conversions";
  let description = [{
    Moves computation into the layouts that need the fewest conversions.
    Ops whose layouts follow from each other without moving data
    (elementwise ops, broadcast, expand_dims, reductions, scans, transposes,
    reshapes, joins, splits, concatenations, and the values scf.for, scf.if
    and scf.while carry) are free to change layout; loads, stores, atomics,
    dots, shared-memory ops and anything unknown keep theirs (anchors);
    splats, ranges and splat constants exist in every layout for free.

    1. Layout assignment. Conversions are seen through: each reader of a
       value says which layout it needs, and the cost of a choice is one
       conversion per value and distinct layout its readers need, weighted
       by its size in registers and by loop nesting, plus the work of every
       op in its layout. The groups of ops between two conversions move one
       at a time into the layout, propagated from one of their boundaries or
       all of them, that lowers this cost the most, until none does. Thus a
       conversion after a load is pushed forward through the ops that follow
       until it meets a store in the same layout and vanishes; pointer
       arithmetic is computed in the layout of the load that reads it; a
       loop-carried accumulator stays in the layout of the dot that updates
       it, converted once before and after the loop. The conversions still
       needed are rebuilt right after the value they convert (out of loops
       when the value is loop-invariant; into an scf.if branch when only that
       branch reads them).
    2. Backward rematerialization. A conversion of a value computed by pure
       ops from splats, ranges and constants (at most 32 ops, no loads, no
       block arguments) is replaced by the same computation in the target
       layout, unless the work duplicated (the ops that other readers still
       need in the old layout) costs more than the conversion.
    3. Clean-up: conversions of conversions collapse, conversions to the
       layout a value has vanish.

    No element ever moves between program instances, and a value that
    cannot be proven to fit another layout keeps a conversion.
  }];
  let dependentDialects = ["mlir::tessera::gpu::TesseraGPUDialect"];
}

#endif // TESSERA_TRANSFORMS_PASSES_TD
