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
#include "mlir/Interfaces/FunctionInterfaces.h"

#include <string>

namespace mlir::tessera {

/// Triton's name of a kernel parameter of `type` ("fp32", "i32", "*fp16";
/// `index` is "i64"), or the empty string when a launch cannot pass it
/// (block pointers, tensor descriptors, tensors, pointers to those).
std::string getSignatureTypeName(Type type);

/// Triton's name of parameter `index` of kernel `func`: its
/// `tessera.signature_type` attribute where the frontend recorded one (an
/// unsigned integer or a pointer to one, which signless MLIR types cannot
/// tell from signed ones), else the name of its type; empty when a launch
/// cannot pass it. Fails with an error on `func` when the attribute
/// contradicts the type (another width or pointer level, or not unsigned).
FailureOr<std::string> getKernelParamTypeName(FunctionOpInterface func,
                                              unsigned index);

/// Removes the `tessera.signature_type` attributes of `func`'s parameters
/// once the signature is recorded: LLVM has no use for them.
void dropSignatureTypeAttrs(FunctionOpInterface func);

} // namespace mlir::tessera

#endif // TESSERA_BACKEND_SIGNATURE_H
