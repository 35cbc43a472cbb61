//===- NullBackend.h - The template of a GPU plugin -------------*- C++ -*-===//
//
// The template a GPU vendor copies to start a new target (docs/bring-up.md):
// a complete plugin with the file shape of nvptx and amdgpu. Each source
// file implements one part of the Backend interface: Plugin.cpp its identity
// and the C entry point, Target.cpp its target description, Pipeline.cpp its
// stages (the core's shared lowering with Hooks.cpp's hooks), Emitter.cpp
// LLVM IR, assembly and binary, Driver.cpp its devices (none). Every place a
// new target fills is marked TODO(newtarget).
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_BACKENDS_NULL_NULLBACKEND_H
#define TESSERA_BACKENDS_NULL_NULLBACKEND_H

#include "tessera/Backend/Backend.h"
#include "tessera/Backend/NoDeviceDriver.h"

namespace mlir::tessera {

/// The name users select the backend by (`--backend null`): the plugin's
/// name in tessera_add_plugin(), so a copy renamed there is renamed here.
inline constexpr char kNullBackendName[] = TESSERA_PLUGIN_NAME;

/// Its one architecture.
inline constexpr char kNullGenericArch[] = "generic";

/// The backend: kernels become LLVM IR for a generic GPU-shaped target,
/// which runs nowhere.
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

} // namespace mlir::tessera

#endif // TESSERA_BACKENDS_NULL_NULLBACKEND_H
