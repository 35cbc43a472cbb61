//===- InitAll.cpp - Register every dialect and pass of the core ----------===//
#include "tessera/InitAll.h"

#include "tessera/Dialect/Tessera/IR/Dialect.h"

#include "mlir/Dialect/Func/Extensions/InlinerExtension.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void mlir::tessera::registerAllDialects(DialectRegistry &registry) {
  registry.insert<TesseraDialect, arith::ArithDialect, math::MathDialect,
                  scf::SCFDialect, cf::ControlFlowDialect, func::FuncDialect>();
  // Lets the inliner fold device functions (func.call, func.return, cf
  // branches) into their callers.
  func::registerInlinerExtension(registry);
}

void mlir::tessera::registerAllPasses() {
  // MLIR's generic passes that Tessera's pipeline uses.
  registerCanonicalizerPass();
  registerCSEPass();
  registerInlinerPass();
  registerLoopInvariantCodeMotionPass();
  registerSymbolDCEPass();
  registerSCCPPass();
}
