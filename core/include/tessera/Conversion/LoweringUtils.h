//===- LoweringUtils.h - Builders for lowering hooks ------------*- C++ -*-===//
//
// The small builders the shared lowering uses and a target's hooks need too
// (LoweringHooks.h): LLVM-dialect constants, declarations of external
// functions, constant strings and a two-way branch. Plugins use these rather
// than keeping copies of their own.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_CONVERSION_LOWERINGUTILS_H
#define TESSERA_CONVERSION_LOWERINGUTILS_H

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/STLFunctionalExtras.h"

namespace mlir::tessera {

/// `llvm.mlir.constant` of i32, i64, or any integer or float `type`.
Value createI32(OpBuilder &b, Location loc, int64_t value);
Value createI64(OpBuilder &b, Location loc, int64_t value);
Value createConstant(OpBuilder &b, Location loc, Type type, int64_t value);

/// The neutral "undefined" value of `type`: zero (deterministic, unlike
/// poison, so masked-off lanes never differ between runs).
Value createZero(OpBuilder &b, Location loc, Type type);

/// The module the builder's insertion point is in.
ModuleOp getEnclosingModule(OpBuilder &b);

/// The function `name` of the enclosing module; declared with `type` at
/// the module's top when there is none yet (an external function: a
/// vendor's device library call, printf).
LLVM::LLVMFuncOp declareFunction(OpBuilder &b, Location loc, StringRef name,
                                 LLVM::LLVMFunctionType type);

/// A generic pointer to a NUL-terminated constant copy of `text`: one
/// internal global per distinct text, named `prefix`_HASH, in
/// `addressSpace` (cast to the generic address space 0 when another).
Value getStringPointer(OpBuilder &b, Location loc, StringRef text,
                       StringRef prefix = "tessera_string",
                       unsigned addressSpace = 0);

/// Branches around `body` on `pred`: `body` runs with the builder inside the
/// taken block and returns the values it yields (or none); the results are
/// those values when `pred` holds, else `otherwise`. The builder ends after
/// the join.
SmallVector<Value>
emitIf(RewriterBase &b, Location loc, Value pred, ValueRange otherwise,
       llvm::function_ref<SmallVector<Value>(OpBuilder &)> body);

} // namespace mlir::tessera

#endif // TESSERA_CONVERSION_LOWERINGUTILS_H
