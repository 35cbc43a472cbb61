//===- MathLibrary.h - Kernel math calls to ocml ----------------*- C++ -*-===//
#ifndef TESSERA_BACKENDS_AMDGPU_MATHLIBRARY_H
#define TESSERA_BACKENDS_AMDGPU_MATHLIBRARY_H

#include "mlir/IR/BuiltinOps.h"

namespace mlir::tessera::amdgpu {

/// The ocml function for a math call the frontend spelled neutrally
/// (`__tessera_asin_fp32`, `asinf`, `asin`) with operands of `type`:
/// `__ocml_asin_f16`, `_f32` or `_f64`. Names already in ocml (`__ocml_*`)
/// stay. Empty when there is none.
std::string getOcmlName(llvm::StringRef symbol, Type type);

} // namespace mlir::tessera::amdgpu

#endif // TESSERA_BACKENDS_AMDGPU_MATHLIBRARY_H
