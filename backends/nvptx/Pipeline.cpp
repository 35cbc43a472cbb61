//===- Pipeline.cpp - The NVPTX backend's stages --------------------------===//
//
// After the core stages, "lower-to-llvm": the kernel's signature is recorded
// (the host builds the CompiledKernel from it after types are gone), then
// the core's shared lowering runs with the NVPTX hooks; "resolve-math" then
// names libdevice's functions for the math calls.
//
//===----------------------------------------------------------------------===//
#include "Pipeline.h"

#include "Hooks.h"
#include "MathLibrary.h"
#include "MmaLayouts.h"
#include "TensorMaps.h"
#include "Wgmma.h"

#include "tessera/Backend/Backend.h"
#include "tessera/Backend/KernelRecord.h"
#include "tessera/Backend/MathSymbols.h"
#include "tessera/Conversion/TesseraGPUToLLVM.h"
#include "tessera/Dialect/Tessera/IR/Dialect.h"
#include "tessera/Dialect/TesseraGPU/IR/Dialect.h"
#include "tessera/Transforms/AccelerateDot.h"
#include "tessera/Transforms/PipelineLoads.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace mlir::tessera;
using namespace mlir::tessera::nvptx;

namespace {

/// The pipeliner's parameters, the same for both of its runs.
PipelineLoadsOptions getPipeliningOptions(const TargetDescription &target,
                                          int numStages, int dotsInFlight) {
  PipelineLoadsOptions pipelining;
  pipelining.numStages = numStages;
  pipelining.sharedMemoryBytes = target.maxSharedMemoryPerBlock;
  pipelining.laterSharedMemoryBytes = getPrepareWgmmaSharedBytes;
  pipelining.laterDroppedConversion = isConversionReadInPlace;
  pipelining.dotsInFlight = dotsInFlight;
  // cp.async moves 4, 8 or 16 bytes: a narrower copy is a load and a
  // shared store, which a ring would only repeat once per stage.
  pipelining.minCopyBytes = 4;
  return pipelining;
}

} // namespace

llvm::Error nvptx::addStages(Pipeline &pipeline,
                             const TargetDescription &target,
                             const CompileOptions &) {
  llvm::Expected<Arch> parsed = parseArch(target.arch);
  if (!parsed)
    return parsed.takeError();
  const Arch &arch = *parsed;
  // sm_90a's wgmma dots may run one iteration behind (async-wgmma), so
  // pipelined loops with an accumulator dot keep one more ring slot.
  bool wgmma = arch.capability() == 90 && arch.archSpecific;
  int dotsInFlight = wgmma ? 1 : 0;
  // Right after layouts exist, so that coalescing and the layout
  // optimization see the dots in their matrix-unit layouts.
  if (llvm::Error err = pipeline.insert(
          "after:convert-to-gpu",
          PipelineStage{kAccelerateDotStage.str(),
                        "dots onto wgmma or mma.sync (layouts from the "
                        "instruction table)",
                        [target](OpPassManager &pm, const PipelineOptions &) {
                          pm.addPass(createAccelerateDotPass(
                              target, std::make_shared<MmaLayoutProvider>()));
                        }}))
    return err;
  // Once layouts are final: dot operands stream through shared memory with
  // cp.async, num_stages - 1 iterations ahead.
  if (llvm::Error err = pipeline.insert(
          "after:cleanup",
          PipelineStage{
              kPipelineLoadsStage.str(),
              "start dot operand loads num_stages-1 iterations ahead (cp.async "
              "into shared rings)",
              [target, dotsInFlight](OpPassManager &pm,
                                     const PipelineOptions &options) {
                pm.addPass(createPipelineLoadsPass(getPipeliningOptions(
                    target, options.numStages, dotsInFlight)));
                pm.addPass(createCanonicalizerPass());
              }}))
    return err;
  // Tensor descriptors the launch can build become TMA copies (sm_90+),
  // which loops then start num_stages - 1 iterations ahead through rings
  // of buffers and mbarriers (the pipeliner's second run: the first saw
  // descriptor loads, not copies).
  if (target.tensorMemoryCopy)
    if (llvm::Error err = pipeline.insert(
            "after:" + kPipelineLoadsStage.str(),
            PipelineStage{
                kTensorMapsStage.str(),
                "tensor descriptors as tensor maps (host-built, or written "
                "by the kernel), their blocks moved by TMA, in rings "
                "num_stages-1 iterations ahead",
                [target, dotsInFlight, arch](OpPassManager &pm,
                                             const PipelineOptions &options) {
                  pm.addPass(createTensorMapsPass(
                      target.maxSharedMemoryPerBlock, arch.archSpecific));
                  pm.addPass(createCanonicalizerPass());
                  pm.addPass(createPipelineLoadsPass(getPipeliningOptions(
                      target, options.numStages, dotsInFlight)));
                  pm.addPass(createCanonicalizerPass());
                }}))
      return err;
  // wgmma dots read B from shared memory: operands pipelining did not put
  // there are stored to buffers of their own. Then the accumulator dots
  // of pipelined loops are left running into the next iteration.
  if (wgmma)
    if (llvm::Error err = pipeline.insert(
            "after:" + std::string(target.tensorMemoryCopy
                                       ? kTensorMapsStage
                                       : kPipelineLoadsStage),
            PipelineStage{kPrepareWgmmaStage.str(),
                          "wgmma B operands into shared buffers with "
                          "descriptor layouts; accumulator dots of "
                          "pipelined loops left running",
                          [](OpPassManager &pm, const PipelineOptions &) {
                            pm.addPass(createPrepareWgmmaPass());
                            pm.addPass(createCanonicalizerPass());
                            pm.addPass(createAsyncWgmmaPass());
                          }}))
      return err;
  if (llvm::Error err = pipeline.insert(
          "end",
          PipelineStage{
              kLowerToLLVMStage.str(),
              "tessera_gpu -> LLVM + NVVM dialects (shared lowering, NVPTX "
              "hooks)",
              [arch, target](OpPassManager &pm,
                             const PipelineOptions &options) {
                addGPULowerToLLVMPasses(pm, "an NVIDIA GPU",
                                        createLoweringHooks(arch), options,
                                        target);
                pm.addPass(createSinkMatrixLoadsPass());
              }}))
    return err;
  return pipeline.insert(
      "end", PipelineStage{kResolveMathStage.str(),
                           "neutral math calls -> libdevice functions",
                           [](OpPassManager &pm, const PipelineOptions &) {
                             pm.addPass(createResolveMathSymbolsPass(
                                 "libdevice", getLibdeviceName));
                           }});
}

void nvptx::registerNVPTXDialects(DialectRegistry &registry) {
  registry.insert<LLVM::LLVMDialect, NVVM::NVVMDialect>();
}
