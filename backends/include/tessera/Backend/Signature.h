//===- Signature.h - Kernel parameter types, Triton spelling -*- C++ -*-===//
//
// A compiled kernel records its parameters as Triton's signature types
// ("*fp32", "i32", "fp8e4nv"), which the runtime packs launch values by.
// Every plugin spells them the same way, so the spelling lives here.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_BACKEND_SIGNATURE_H
#define TESSERA_BACKEND_SIGNATURE_H

#include "mlir/IR/Types.h"

#include <string>

namespace mlir::tessera {

/// Triton's name of a kernel parameter of `type` ("fp32", "i32", "*fp16";
/// `index` is "i64"), or the empty string when a launch cannot pass it
/// (block pointers, tensor descriptors, tensors, pointers to those).
std::string getSignatureTypeName(Type type);

} // namespace mlir::tessera

#endif // TESSERA_BACKEND_SIGNATURE_H
