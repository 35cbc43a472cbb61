//===- FuzzSupport.cpp - Helpers shared by the fuzz targets ---------------===//
#include "FuzzSupport.h"

#include "tessera/Support/Logging.h"

void tessera::fuzz::silenceLogging() {
  mlir::tessera::getLogger().set_level(spdlog::level::off);
}
