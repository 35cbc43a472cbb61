//===- TesseraGPUDialect.td - Tensors with layouts -------*- tablegen -*-===//
#ifndef TESSERA_GPU_DIALECT_TD
#define TESSERA_GPU_DIALECT_TD

include "mlir/IR/OpBase.td"

def TesseraGPU_Dialect : Dialect {
  let name = "tessera_gpu";
  let cppNamespace = "::mlir::tessera::gpu";
  let summary = "Blocks distributed over threads: layouts and shared memory";
  let description = [{
    In `tessera_gpu` every ranked tensor carries a layout (its encoding) that
    says which register of which lane of which warp of which block holds
    each element. Every layout is a LinearLayout; the named ones (blocked,
    slice, dot operand, swizzled shared) are readable constructors of it and
    `linear` holds any other, such as the matrix-unit layouts a plugin
    defines. The dialect adds layout conversion, shared memory, asynchronous
    copies, barriers and warp specialization. Module attributes give the
    launch shape: `tessera_gpu.num_warps`, `tessera_gpu.threads_per_warp`,
    `tessera_gpu.num_ctas` and `tessera_gpu.target`.
  }];
  let dependentDialects = ["::mlir::tessera::TesseraDialect"];
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
  let hasConstantMaterializer = 1;
  let extraClassDeclaration = [{
    void registerTypes();
    void registerAttributes();

    static constexpr ::llvm::StringLiteral kNumWarpsAttrName = "tessera_gpu.num_warps";
    static constexpr ::llvm::StringLiteral kThreadsPerWarpAttrName = "tessera_gpu.threads_per_warp";
    static constexpr ::llvm::StringLiteral kNumCTAsAttrName = "tessera_gpu.num_ctas";
    static constexpr ::llvm::StringLiteral kTargetAttrName = "tessera_gpu.target";
  }];
}

class TesseraGPU_Op<string mnemonic, list<Trait> traits = []>
    : Op<TesseraGPU_Dialect, mnemonic, traits>;

#endif // TESSERA_GPU_DIALECT_TD
