//===- PluginSupport.h - What every plugin's entry point shares -*- C++ -*-===//
//
// The pieces of a plugin's Plugin.cpp that do not depend on its target. A
// plugin for hardware with devices (a GPU) describes itself as a
// DeviceTarget: its identity and one function per step of the Backend
// contract, each defined in the file that owns that step (Target.cpp,
// Pipeline.cpp, Emitter.cpp, its driver). DeviceBackend is the Backend made
// of them, so no plugin writes the forwarding class, the choice of target
// description or the descriptor's create and destroy functions again.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_BACKEND_PLUGINSUPPORT_H
#define TESSERA_BACKEND_PLUGINSUPPORT_H

#include "tessera/Backend/Backend.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <memory>

namespace mlir::tessera {

/// A plugin for hardware with devices, as data: each function implements
/// the Backend method of the same name (Backend.h says what each must do).
/// Plain function pointers, so a plugin's DeviceTarget is constant data and
/// loading the plugin runs none of its code.
struct DeviceTarget {
  /// The name users select it by (`--backend NAME`).
  llvm::StringRef name;
  /// One line for `tessera plugins`.
  llvm::StringRef description;
  /// The modules it adds under `triton.language.extra`.
  llvm::ArrayRef<llvm::StringLiteral> languageModules;

  /// The architectures it compiles for, the default first.
  std::vector<std::string> (*getArchitectures)();
  /// The description of a named architecture; an error for one it does
  /// not know.
  llvm::Expected<TargetDescription> (*describeArch)(llvm::StringRef arch);
  /// The description of a present device, the named architecture's refined
  /// from what the device reports (its shared memory, registers, ...).
  llvm::Expected<TargetDescription> (*describeDevice)(
      const DeviceProperties &props);

  void (*registerDialects)(DialectRegistry &registry);
  llvm::Error (*buildPipeline)(Pipeline &pipeline,
                               const TargetDescription &target,
                               const CompileOptions &options);
  llvm::Expected<std::unique_ptr<llvm::Module>> (*translateToLLVMIR)(
      ModuleOp module, llvm::LLVMContext &context,
      const TargetDescription &target, const CompileOptions &options);
  llvm::Expected<std::string> (*emitAssembly)(llvm::Module &module,
                                              const TargetDescription &target,
                                              const CompileOptions &options);
  llvm::Error (*emitBinary)(llvm::Module &module, CompiledKernel &kernel,
                            const TargetDescription &target,
                            const CompileOptions &options);

  /// The driver, created with the backend. It must not touch the vendor's
  /// library before its first call: devices are opened on first use, and
  /// their absence is a driver status, not a failure.
  std::unique_ptr<Driver> (*createDriver)();
};

/// The Backend of a DeviceTarget. describe() gives the named
/// architecture's description, else the first device's (describeDevice),
/// else the default architecture's.
class DeviceBackend final : public Backend {
public:
  /// Keeps a reference to `target`, which outlives the backend (constant
  /// data of the plugin).
  explicit DeviceBackend(const DeviceTarget &target);
  ~DeviceBackend() override;

  llvm::StringRef getName() const override;
  llvm::StringRef getDescription() const override;
  std::vector<std::string> getLanguageModules() const override;
  std::vector<std::string> getArchitectures() const override;
  llvm::Expected<TargetDescription> describe(llvm::StringRef arch) override;
  void registerDialects(DialectRegistry &registry) const override;
  llvm::Error buildPipeline(Pipeline &pipeline, const TargetDescription &target,
                            const CompileOptions &options) override;
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
  Driver &getDriver() override;

private:
  const DeviceTarget &target;
  std::unique_ptr<Driver> driver;
};

/// The descriptor's createBackend for a DeviceBackend of `Target`. Its
/// construction cannot fail (it does no work), so `error` is never set.
template <const DeviceTarget &Target>
void *createDeviceBackend(char ** /*error*/) {
  return static_cast<Backend *>(new DeviceBackend(Target));
}

/// The descriptor's destroyBackend for any Backend.
void destroyBackendInstance(void *backend);

} // namespace mlir::tessera

#endif // TESSERA_BACKEND_PLUGINSUPPORT_H
