//===- Logging.cpp - The one logger of a Tessera process ------------------===//
#include "tessera/Support/Logging.h"

#include <spdlog/sinks/stdout_color_sinks.h>

#include <cstdlib>
#include <memory>

spdlog::logger &mlir::tessera::getLogger() {
  // Created once, never registered with spdlog's global registry, never
  // destroyed: plugins may log while the process shuts down.
  static spdlog::logger *logger = [] {
    auto sink = std::make_shared<spdlog::sinks::stderr_color_sink_mt>();
    auto *l = new spdlog::logger("tessera", std::move(sink));
    l->set_pattern("[tessera %l] %v");
    spdlog::level::level_enum level = spdlog::level::warn;
    if (const char *env = std::getenv("TESSERA_LOG_LEVEL")) {
      if (std::optional<spdlog::level::level_enum> parsed = parseLogLevel(env))
        level = *parsed;
      else
        l->warn("TESSERA_LOG_LEVEL: unknown level '{}' (expected {}); "
                "using warn",
                env, kLogLevelNames);
    }
    l->set_level(level);
    return l;
  }();
  return *logger;
}

std::optional<spdlog::level::level_enum>
mlir::tessera::parseLogLevel(std::string_view name) {
  using spdlog::level::level_enum;
  static constexpr std::pair<std::string_view, level_enum> kNames[] = {
      {"trace", level_enum::trace},  {"debug", level_enum::debug},
      {"info", level_enum::info},    {"warn", level_enum::warn},
      {"warning", level_enum::warn}, {"error", level_enum::err},
      {"err", level_enum::err},      {"critical", level_enum::critical},
      {"off", level_enum::off},
  };
  for (const auto &[spelling, level] : kNames)
    if (spelling == name)
      return level;
  return std::nullopt;
}
