//===- Hooks.h - The NVPTX target's lowering hooks --------------*- C++ -*-===//
#ifndef TESSERA_BACKENDS_NVPTX_HOOKS_H
#define TESSERA_BACKENDS_NVPTX_HOOKS_H

#include "Target.h"

#include "tessera/Conversion/LoweringHooks.h"

#include <memory>

namespace mlir::tessera::nvptx {

/// The hooks the core's shared lowering calls for NVIDIA GPUs: special
/// registers for indices, `bar.sync`, `shfl.sync`, libdevice for math,
/// `vprintf` and `__assertfail`.
std::shared_ptr<LoweringHooks> createLoweringHooks(const Arch &arch);

} // namespace mlir::tessera::nvptx

#endif // TESSERA_BACKENDS_NVPTX_HOOKS_H
