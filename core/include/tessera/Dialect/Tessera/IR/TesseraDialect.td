//===- TesseraDialect.td - The tessera block-level dialect -*- tablegen -*-===//
#ifndef TESSERA_DIALECT_TD
#define TESSERA_DIALECT_TD

include "mlir/IR/OpBase.td"

def Tessera_Dialect : Dialect {
  let name = "tessera";
  let cppNamespace = "::mlir::tessera";
  let summary = "Block-level operations of Triton-language kernels";
  let description = [{
    The `tessera` dialect holds a kernel as the frontend produced it: every
    value is a scalar or a whole block (a ranked tensor) owned by one program
    instance, with no notion yet of threads, warps or layouts. It is the
    counterpart of Triton's TTIR. Arithmetic, math, control flow and functions
    come from MLIR's own `arith`, `math`, `scf`, `cf` and `func` dialects; this
    dialect adds what those lack: program ids, pointers and pointer
    arithmetic, masked loads and stores, atomics, dot, reductions and scans
    with combine regions, tensor shape manipulation, tensor descriptors and
    block pointers, extern and inline-asm elementwise calls, and debug ops.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::math::MathDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::cf::ControlFlowDialect",
    "::mlir::func::FuncDialect",
  ];
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
  let hasConstantMaterializer = 1;
  let extraClassDeclaration = [{
    void registerTypes();
    void registerAttributes();
  }];
}

class Tessera_Op<string mnemonic, list<Trait> traits = []>
    : Op<Tessera_Dialect, mnemonic, traits>;

#endif // TESSERA_DIALECT_TD
