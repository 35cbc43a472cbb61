//===- InlinePtx.h - Inline PTX with side effects ---------------*- C++ -*-===//
#ifndef TESSERA_BACKENDS_NVPTX_INLINEPTX_H
#define TESSERA_BACKENDS_NVPTX_INLINEPTX_H

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"

namespace mlir::tessera::nvptx {

/// One inline PTX statement (`text`, operands `$0`...) returning `result`
/// (none when null). It has side effects, so that fences, barriers, copies
/// and waits stay in program order with each other and with memory ops.
inline LLVM::InlineAsmOp emitInlinePtx(OpBuilder &b, Location loc, Type result,
                                       ValueRange args, StringRef text,
                                       StringRef constraints) {
  return LLVM::InlineAsmOp::create(
      b, loc, result ? TypeRange{result} : TypeRange{}, args, text, constraints,
      /*has_side_effects=*/true, /*is_align_stack=*/false,
      LLVM::tailcallkind::TailCallKind::None,
      LLVM::AsmDialectAttr::get(b.getContext(), LLVM::AsmDialect::AD_ATT),
      /*operand_attrs=*/ArrayAttr());
}

} // namespace mlir::tessera::nvptx

#endif // TESSERA_BACKENDS_NVPTX_INLINEPTX_H
