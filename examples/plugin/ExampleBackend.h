//===- ExampleBackend.h - A plugin that exports MLIR ------------*- C++ -*-===//
//
// The backend of the out-of-tree example: a target whose own toolchain
// takes MLIR. It runs Tessera's vendor-free stages (layouts, coalescing,
// pipelining decisions as the target description allows) and hands each
// kernel over as `tessera_gpu` IR text, the "binary" of format "mlir", to
// be compiled elsewhere; it has no devices. Each file implements one part
// of the Backend interface (tessera/Backend/Backend.h).
//
//===----------------------------------------------------------------------===//
#ifndef EXAMPLE_PLUGIN_EXAMPLEBACKEND_H
#define EXAMPLE_PLUGIN_EXAMPLEBACKEND_H

#include "tessera/Backend/Backend.h"
#include "tessera/Backend/NoDeviceDriver.h"

namespace example {

/// The architecture the example describes: a 32-lane SIMT machine with 64
/// KiB of shared memory and no matrix unit.
inline constexpr char kArch[] = "simt32";

/// Function attribute the export stage leaves on each kernel's LLVM stub
/// for the emitter: the kernel's IR text after the vendor-free stages.
inline constexpr char kIRAttr[] = "example.ir";

class ExampleBackend final : public mlir::tessera::Backend {
public:
  // Plugin.cpp
  llvm::StringRef getName() const override;
  llvm::StringRef getDescription() const override;
  // Target.cpp
  std::vector<std::string> getArchitectures() const override;
  llvm::Expected<mlir::tessera::TargetDescription>
  describe(llvm::StringRef arch) override;
  // Pipeline.cpp
  void registerDialects(mlir::DialectRegistry &registry) const override;
  llvm::Error
  buildPipeline(mlir::tessera::Pipeline &pipeline,
                const mlir::tessera::TargetDescription &target,
                const mlir::tessera::CompileOptions &options) override;
  // Emitter.cpp
  llvm::Expected<std::unique_ptr<llvm::Module>>
  translateToLLVMIR(mlir::ModuleOp module, llvm::LLVMContext &context,
                    const mlir::tessera::TargetDescription &target,
                    const mlir::tessera::CompileOptions &options) override;
  llvm::Expected<std::string>
  emitAssembly(llvm::Module &module,
               const mlir::tessera::TargetDescription &target,
               const mlir::tessera::CompileOptions &options) override;
  llvm::Error emitBinary(llvm::Module &module,
                         mlir::tessera::CompiledKernel &kernel,
                         const mlir::tessera::TargetDescription &target,
                         const mlir::tessera::CompileOptions &options) override;

  mlir::tessera::Driver &getDriver() override { return driver; }

private:
  mlir::tessera::NoDeviceDriver driver{
      TESSERA_PLUGIN_NAME, "kernels of the example target run elsewhere"};
};

} // namespace example

#endif // EXAMPLE_PLUGIN_EXAMPLEBACKEND_H
