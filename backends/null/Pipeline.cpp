//===- Pipeline.cpp - The null backend's stages ---------------------------===//
//
// After the core stages, the two stages of every GPU plugin: "lower-to-llvm"
// records each kernel's signature (the host builds the CompiledKernel from
// it), refuses tensors too large for a thread, runs the core's shared
// lowering with the null hooks (Hooks.cpp) and checks the shared memory it
// planned; "resolve-math" renames the frontend's neutral math calls to the
// target's math library.
//
// A real target adds its own stages at anchors of the core pipeline, e.g.
// "after:convert-to-gpu" to put dots on its matrix unit (accelerate-dot
// with its layout provider) and "after:cleanup" to pipeline loads through
// shared memory; see backends/nvptx/Pipeline.cpp.
//
//===----------------------------------------------------------------------===//
#include "Hooks.h"
#include "NullBackend.h"

#include "tessera/Backend/KernelRecord.h"
#include "tessera/Backend/MathSymbols.h"
#include "tessera/Conversion/TesseraGPUToLLVM.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"

using namespace mlir;
using namespace mlir::tessera;

namespace {
/// The null target's math library: C's (`asinf` for f32, `asin` for f64).
// TODO(newtarget): your library's spelling of each function (libdevice:
// `__nv_asinf`; ocml: `__ocml_asin_f32`), empty where it has none.
std::string getMathLibraryName(StringRef symbol, Type type) {
  auto floatType = dyn_cast<FloatType>(type);
  if (!floatType || !(floatType.isF32() || floatType.isF64()))
    return "";
  bool neutral = false;
  StringRef name = getMathBaseName(symbol, &neutral);
  if (!neutral || name.empty())
    return "";
  return (name + (floatType.isF32() ? "f" : "")).str();
}
} // namespace

void null::registerDialects(DialectRegistry &registry) {
  // TODO(newtarget): your intrinsic dialect too (NVVM, ROCDL, ...).
  registry.insert<LLVM::LLVMDialect>();
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
}

llvm::Error null::buildPipeline(Pipeline &pipeline,
                                const TargetDescription &target,
                                const CompileOptions &options) {
  if (llvm::Error err = pipeline.insert(
          "end", {kLowerToLLVMStage.str(),
                  "tessera_gpu -> LLVM dialect (shared lowering, null hooks)",
                  [target](OpPassManager &pm, const PipelineOptions &options) {
                    // TODO(newtarget): your shared address space (the last
                    // argument).
                    addGPULowerToLLVMPasses(
                        pm, "the null backend's", null::createLoweringHooks(),
                        options, target, /*sharedAddressSpace=*/3);
                  }}))
    return err;
  return pipeline.insert(
      "end",
      {kResolveMathStage.str(), "neutral math calls -> C's libm names",
       [](OpPassManager &pm, const PipelineOptions &) {
         pm.addPass(createResolveMathSymbolsPass("libm", getMathLibraryName));
       }});
}
