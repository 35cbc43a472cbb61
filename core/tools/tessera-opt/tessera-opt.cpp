//===- tessera-opt.cpp - The mlir-opt of Tessera --------------------------===//
//
// Parses, verifies, transforms and prints IR of the tessera and tessera_gpu
// dialects with MLIR's own pass-pipeline syntax; the driver of the lit tests.
//
//===----------------------------------------------------------------------===//
#include "tessera/InitAll.h"

#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  mlir::tessera::registerAllDialects(registry);
  mlir::tessera::registerAllPasses();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "Tessera optimizer driver\n", registry));
}
