//===- ScalarTypes.h - Triton's scalar type names ---------------*- C++ -*-===//
//
// Kernel parameters and buffer elements are typed with Triton's signature
// names: i1 i8 i16 i32 i64, u8 u16 u32 u64, fp8e4nv fp8e5 fp8e4b8 fp8e5b16
// fp8e4b15, fp16 bf16 fp32 fp64. A pointer parameter is `*` and its pointee.
// The table is the core's (tessera/Dialect/Tessera/IR/ScalarTypes.h), the
// one every layer reads; the runtime names it in its own namespace.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_RUNTIME_SCALARTYPES_H
#define TESSERA_RUNTIME_SCALARTYPES_H

#include "tessera/Dialect/Tessera/IR/ScalarTypes.h"

namespace mlir::tessera::runtime {

using mlir::tessera::getScalarTypeBytes;
using mlir::tessera::lookupLanguageType;
using mlir::tessera::lookupScalarType;
using mlir::tessera::ScalarClass;
using mlir::tessera::ScalarTypeInfo;

} // namespace mlir::tessera::runtime

#endif // TESSERA_RUNTIME_SCALARTYPES_H
