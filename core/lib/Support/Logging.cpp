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
    if (const char *env = std::getenv("TESSERA_LOG_LEVEL"))
      level = spdlog::level::from_str(env);
    l->set_level(level);
    return l;
  }();
  return *logger;
}
