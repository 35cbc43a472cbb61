//===- tessera-cpu-opt.cpp - tessera-opt with the CPU backend's passes ----===//
//
// The core's dialects and passes plus the CPU backend's passes, its
// dialects and the `tessera-cpu` pipeline (core stages, then the CPU
// stages), for the backend's lit tests.
//
//===----------------------------------------------------------------------===//
#include "Passes.h"

#include "tessera/InitAll.h"

#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  mlir::tessera::registerAllDialects(registry);
  mlir::tessera::cpu::registerCpuDialects(registry);
  mlir::tessera::registerAllPasses();
  mlir::tessera::cpu::registerCpuPasses();
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "Tessera optimizer driver with the CPU backend\n", registry));
}
