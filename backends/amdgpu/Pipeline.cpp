//===- Pipeline.cpp - The AMDGPU backend's stages -------------------------===//
//
// After convert-to-gpu, accelerate-dot puts dots on MFMA; after cleanup,
// pipeline-loads stages dot operands through LDS rings num_stages - 1
// iterations ahead (the copies go through registers: CDNA2/3 have no
// asynchronous global-to-LDS copy the lowering uses); at the end the
// kernel's signature is recorded and the core's shared lowering runs with
// the AMDGPU hooks, then the LDS plan is checked against the architecture;
// "resolve-math" names ocml's functions for the math calls.
//
//===----------------------------------------------------------------------===//
#include "Pipeline.h"

#include "Hooks.h"
#include "MathLibrary.h"
#include "MfmaLayouts.h"

#include "tessera/Backend/Backend.h"
#include "tessera/Backend/KernelRecord.h"
#include "tessera/Backend/MathSymbols.h"
#include "tessera/Conversion/TesseraGPUToLLVM.h"
#include "tessera/Transforms/AccelerateDot.h"
#include "tessera/Transforms/PipelineLoads.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace mlir::tessera;
using namespace mlir::tessera::amdgpu;

llvm::Error amdgpu::addStages(Pipeline &pipeline,
                              const TargetDescription &target,
                              const CompileOptions &) {
  llvm::Expected<Arch> parsed = parseArch(target.arch);
  if (!parsed)
    return parsed.takeError();
  const Arch &arch = *parsed;
  if (llvm::Error err = pipeline.insert(
          "after:convert-to-gpu",
          PipelineStage{kAccelerateDotStage.str(),
                        "dots onto MFMA (layouts from the instruction table)",
                        [target](OpPassManager &pm, const PipelineOptions &) {
                          pm.addPass(createAccelerateDotPass(
                              target, std::make_shared<MfmaLayoutProvider>()));
                        }}))
    return err;
  if (llvm::Error err = pipeline.insert(
          "after:cleanup",
          PipelineStage{
              kPipelineLoadsStage.str(),
              "load dot operands num_stages-1 iterations ahead into LDS rings",
              [target](OpPassManager &pm, const PipelineOptions &options) {
                PipelineLoadsOptions pipelining;
                pipelining.numStages = options.numStages;
                pipelining.sharedMemoryBytes = target.maxSharedMemoryPerBlock;
                pm.addPass(createPipelineLoadsPass(pipelining));
                pm.addPass(createCanonicalizerPass());
              }}))
    return err;
  if (llvm::Error err = pipeline.insert(
          "end", PipelineStage{
                     kLowerToLLVMStage.str(),
                     "tessera_gpu -> LLVM + ROCDL dialects (shared lowering, "
                     "AMDGPU hooks)",
                     [arch, target](OpPassManager &pm,
                                    const PipelineOptions &options) {
                       addGPULowerToLLVMPasses(pm, "an AMD GPU",
                                               createLoweringHooks(arch),
                                               options, target);
                     }}))
    return err;
  return pipeline.insert(
      "end",
      PipelineStage{
          kResolveMathStage.str(), "neutral math calls -> ocml functions",
          [](OpPassManager &pm, const PipelineOptions &) {
            pm.addPass(createResolveMathSymbolsPass("ocml", getOcmlName));
          }});
}

void amdgpu::registerAMDGPUDialects(DialectRegistry &registry) {
  registry.insert<LLVM::LLVMDialect, ROCDL::ROCDLDialect>();
}
