//===- Dialect.h - The tessera block-level dialect --------------*- C++ -*-===//
#ifndef TESSERA_DIALECT_TESSERA_IR_DIALECT_H
#define TESSERA_DIALECT_TESSERA_IR_DIALECT_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "tessera/Dialect/Tessera/IR/TesseraDialect.h.inc"
#include "tessera/Dialect/Tessera/IR/TesseraEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "tessera/Dialect/Tessera/IR/TesseraAttrs.h.inc"

#define GET_TYPEDEF_CLASSES
#include "tessera/Dialect/Tessera/IR/TesseraTypes.h.inc"

namespace mlir::tessera {

/// What a load through `ptrLike` yields: the pointee of a pointer, a tensor
/// of pointees (same shape and encoding) for a tensor of pointers, the tile
/// of a block pointer. NoneType when `ptrLike` is not pointer-like, so that
/// type inference in the parser never sees a null type.
Type getLoadedType(Type ptrLike);

/// `i1`, or a tensor of `i1` with the shape and encoding of `type`.
Type getI1TypeWithSameShape(Type type);

/// True when `value` is a constant whose every element is zero (integer or
/// float, scalar or splat).
bool isZeroConstant(Value value);

/// The name of the unit attribute that marks a `func.func` as a kernel (an
/// entry point the runtime launches) rather than a device helper.
constexpr llvm::StringLiteral kKernelAttrName = "tessera.kernel";
/// Argument attribute: the argument (integer or pointer) is a multiple of
/// this power of two (Triton's `:16` specialization).
constexpr llvm::StringLiteral kDivisibilityAttrName = "tessera.divisibility";

} // namespace mlir::tessera

#define GET_OP_CLASSES
#include "tessera/Dialect/Tessera/IR/TesseraOps.h.inc"

#endif // TESSERA_DIALECT_TESSERA_IR_DIALECT_H
