//===- SignatureType.h - Triton type names of kernel parameters -*- C++ -*-===//
//
// MLIR's integers are signless, so a kernel parameter of type `*u32` lowers
// to `!tessera.ptr<i32>` like one of `*i32`. The launch specializes on
// Triton's names and checks its arguments against what the compiled kernel
// records, so the frontend keeps the names the types cannot tell as an
// argument attribute, which the plugins read when they record a kernel's
// signature.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_DIALECT_TESSERA_IR_SIGNATURETYPE_H
#define TESSERA_DIALECT_TESSERA_IR_SIGNATURETYPE_H

#include "llvm/ADT/StringRef.h"

namespace mlir::tessera {

/// Argument attribute of a kernel (a string): Triton's name of the
/// parameter's type (`u64`, `*u8`) where the signless MLIR type cannot tell
/// it, that is for unsigned integers and pointers to them.
constexpr llvm::StringLiteral kSignatureTypeAttrName = "tessera.signature_type";

} // namespace mlir::tessera

#endif // TESSERA_DIALECT_TESSERA_IR_SIGNATURETYPE_H
