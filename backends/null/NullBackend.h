//===- NullBackend.h - Compiles and runs nothing ----------------*- C++ -*-===//
//
// The smallest complete plugin, and the one a vendor copies to start a new
// target. Each source file implements one part of the Backend interface:
// Plugin.cpp its identity and the C entry point, Target.cpp its target
// description, Pipeline.cpp its stages, Emitter.cpp LLVM IR, assembly and
// binary, Driver.cpp its devices (none).
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_BACKENDS_NULL_NULLBACKEND_H
#define TESSERA_BACKENDS_NULL_NULLBACKEND_H

#include "tessera/Backend/Backend.h"
#include "tessera/Backend/NoDeviceDriver.h"

#include <memory>

namespace mlir {
class Pass;
} // namespace mlir

namespace mlir::tessera {

/// The name users select the backend by (`--backend null`).
inline constexpr char kNullBackendName[] = "null";

/// Its one architecture.
inline constexpr char kNullGenericArch[] = "generic";

/// The backend: kernels become empty LLVM functions of their signature.
class NullBackend final : public Backend {
public:
  // Plugin.cpp
  llvm::StringRef getName() const override;
  llvm::StringRef getDescription() const override;

  // Target.cpp
  std::vector<std::string> getArchitectures() const override;
  llvm::Expected<TargetDescription> describe(llvm::StringRef arch) override;

  // Pipeline.cpp
  void registerDialects(DialectRegistry &registry) const override;
  llvm::Error buildPipeline(Pipeline &pipeline, const TargetDescription &target,
                            const CompileOptions &options) override;

  // Emitter.cpp
  llvm::Expected<std::unique_ptr<llvm::Module>>
  translateToLLVMIR(ModuleOp module, llvm::LLVMContext &context,
                    const TargetDescription &target,
                    const CompileOptions &options) override;
  llvm::Expected<std::string>
  emitAssembly(llvm::Module &module, const TargetDescription &target,
               const CompileOptions &options) override;
  llvm::Error emitBinary(llvm::Module &module, CompiledKernel &kernel,
                         const TargetDescription &target,
                         const CompileOptions &options) override;

  // Driver.cpp
  Driver &getDriver() override;

private:
  NoDeviceDriver driver{kNullBackendName, "the null backend has no devices"};
};

/// The pass of the "lower-to-llvm" stage: each kernel becomes an LLVM
/// function with its signature and an empty body; everything else goes.
std::unique_ptr<Pass> createNullLowerToLLVMPass();

} // namespace mlir::tessera

#endif // TESSERA_BACKENDS_NULL_NULLBACKEND_H
