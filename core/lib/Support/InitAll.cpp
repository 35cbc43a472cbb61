//===- InitAll.cpp - Register every dialect and pass of the core ----------===//
#include "tessera/InitAll.h"

#include "tessera/Analysis/AxisInfo.h"
#include "tessera/Conversion/TesseraGPUToLLVM.h"
#include "tessera/Dialect/Tessera/IR/Dialect.h"
#include "tessera/Dialect/TesseraGPU/IR/Dialect.h"
#include "tessera/Pipeline/Pipeline.h"
#include "tessera/Transforms/AccelerateDot.h"
#include "tessera/Transforms/Passes.h"
#include "tessera/Transforms/PipelineLoads.h"

#include "mlir/Dialect/Func/Extensions/AllExtensions.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void mlir::tessera::registerAllDialects(DialectRegistry &registry) {
  registry.insert<TesseraDialect, gpu::TesseraGPUDialect, arith::ArithDialect,
                  math::MathDialect, scf::SCFDialect, cf::ControlFlowDialect,
                  func::FuncDialect, LLVM::LLVMDialect>();
  // The func dialect's inliner interface lives in an extension.
  func::registerAllExtensions(registry);
}

void mlir::tessera::registerAllPasses() {
  // MLIR's generic passes that Tessera's pipeline uses.
  registerCanonicalizerPass();
  registerCSEPass();
  registerInlinerPass();
  registerLoopInvariantCodeMotionPass();
  registerSymbolDCEPass();
  registerSCCPPass();

  registerTesseraPasses();
  registerPipelinePasses();
  registerTestAxisInfoPass();
  registerTestLowerToLLVMPass();
  registerPlanSharedMemoryPass();
  registerTestAccelerateDotPass();
  registerPipelineLoadsPass();
}
