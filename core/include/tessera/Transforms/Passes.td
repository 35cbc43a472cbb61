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

#endif // TESSERA_TRANSFORMS_PASSES_TD
