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

#include <optional>
#include <string_view>

namespace mlir::tessera {

/// The process's Tessera logger ("tessera"), writing to standard error. Its
/// level comes from TESSERA_LOG_LEVEL (trace, debug, info, warn, error,
/// off; default warn) on first use; an unknown name there is reported once
/// and leaves the default.
spdlog::logger &getLogger();

/// The level named `name`: trace, debug, info, warn (or warning), error (or
/// err), critical or off; nullopt for anything else. spdlog's own parser
/// maps an unknown name to `off`, which silently turned every warning off.
std::optional<spdlog::level::level_enum> parseLogLevel(std::string_view name);

/// The names parseLogLevel accepts, for messages: "trace, debug, ...".
inline constexpr std::string_view kLogLevelNames =
    "trace, debug, info, warn, error, critical or off";

} // namespace mlir::tessera

#endif // TESSERA_SUPPORT_LOGGING_H
