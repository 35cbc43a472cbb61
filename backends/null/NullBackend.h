//===- NullBackend.h - The template of a GPU plugin -------------*- C++ -*-===//
//
// The template a GPU vendor copies to start a new target (docs/bring-up.md):
// a complete plugin with the file shape of nvptx and amdgpu. Each source
// file implements one part of the Backend contract, as the functions
// Plugin.cpp lists in its DeviceTarget (PluginSupport.h): Target.cpp the
// target description, Pipeline.cpp the stages (the core's shared lowering
// with Hooks.cpp's hooks), Emitter.cpp LLVM IR, assembly and binary,
// Driver.cpp the devices (none). Every place a new target fills is marked
// TODO(newtarget).
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_BACKENDS_NULL_NULLBACKEND_H
#define TESSERA_BACKENDS_NULL_NULLBACKEND_H

#include "tessera/Backend/Backend.h"

#include <memory>
#include <string>
#include <vector>

namespace mlir::tessera::null {

/// The name users select the backend by (`--backend null`): the plugin's
/// name in tessera_add_plugin(), so a copy renamed there is renamed here.
inline constexpr char kBackendName[] = TESSERA_PLUGIN_NAME;

/// Its one architecture.
inline constexpr char kGenericArch[] = "generic";

// Target.cpp
/// The architectures, the default first.
std::vector<std::string> getArchitectures();
/// The description of `arch`; an error for an architecture it lacks.
llvm::Expected<TargetDescription> describeArch(llvm::StringRef arch);
/// The description of a present device (the null backend has none).
llvm::Expected<TargetDescription> describeDevice(const DeviceProperties &props);

// Pipeline.cpp
/// The dialects the stages create.
void registerDialects(DialectRegistry &registry);
/// Adds the stages after the core's: "lower-to-llvm", "resolve-math".
llvm::Error buildPipeline(Pipeline &pipeline, const TargetDescription &target,
                          const CompileOptions &options);

// Emitter.cpp
/// The LLVM IR of the lowered module.
llvm::Expected<std::unique_ptr<llvm::Module>>
translateToLLVMIR(ModuleOp module, llvm::LLVMContext &context,
                  const TargetDescription &target,
                  const CompileOptions &options);
/// The "assembly": the LLVM IR text.
llvm::Expected<std::string> emitAssembly(llvm::Module &module,
                                         const TargetDescription &target,
                                         const CompileOptions &options);
/// Completes `kernel` with a binary of format "none" (the LLVM IR text).
llvm::Error emitBinary(llvm::Module &module, CompiledKernel &kernel,
                       const TargetDescription &target,
                       const CompileOptions &options);

// Driver.cpp
/// The driver: no devices, every call fails saying why.
std::unique_ptr<Driver> createDriver();

} // namespace mlir::tessera::null

#endif // TESSERA_BACKENDS_NULL_NULLBACKEND_H
