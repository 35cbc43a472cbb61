//===- MathLibrary.h - Kernel math calls to libdevice -----------*- C++ -*-===//
#ifndef TESSERA_BACKENDS_NVPTX_MATHLIBRARY_H
#define TESSERA_BACKENDS_NVPTX_MATHLIBRARY_H

#include "mlir/IR/BuiltinOps.h"

namespace mlir::tessera::nvptx {

/// The libdevice function for a math call the frontend spelled neutrally
/// (`__tessera_asin_fp32`, `asinf`, `asin`) with operands of `type`
/// (f32: `__nv_asinf`, f64: `__nv_asin`); names already in libdevice
/// (`__nv_*`) stay. Empty when there is none.
std::string getLibdeviceName(llvm::StringRef symbol, Type type);

} // namespace mlir::tessera::nvptx

#endif // TESSERA_BACKENDS_NVPTX_MATHLIBRARY_H
