//===- Logging.h - The one logger of a Tessera process ----------*- C++ -*-===//
//
// Tessera logs through one named spdlog logger owned by libTesseraCore.
// Plugins log through it too, never through spdlog's default registry:
// every shared object would get its own registry otherwise, splitting the
// log and crashing when a plugin is unloaded.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_SUPPORT_LOGGING_H
#define TESSERA_SUPPORT_LOGGING_H

#include <spdlog/logger.h>

namespace mlir::tessera {

/// The process's Tessera logger ("tessera"), writing to standard error. Its
/// level comes from TESSERA_LOG_LEVEL (trace, debug, info, warn, error,
/// off; default warn) on first use.
spdlog::logger &getLogger();

} // namespace mlir::tessera

#endif // TESSERA_SUPPORT_LOGGING_H
