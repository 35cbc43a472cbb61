//===- Hooks.h - The null target's lowering hooks ---------------*- C++ -*-===//
#ifndef TESSERA_BACKENDS_NULL_HOOKS_H
#define TESSERA_BACKENDS_NULL_HOOKS_H

#include "tessera/Conversion/LoweringHooks.h"

#include <memory>

namespace mlir::tessera::null {

/// Prefix of the external functions the null hooks call where a real
/// target emits an instruction: `tessera_null_thread_id`, ...
inline constexpr llvm::StringLiteral kIntrinsicPrefix = "tessera_null_";

/// The hooks of the shared lowering for the null target.
std::shared_ptr<LoweringHooks> createLoweringHooks();

} // namespace mlir::tessera::null

#endif // TESSERA_BACKENDS_NULL_HOOKS_H
