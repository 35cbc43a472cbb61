//===- LoadedModule.h - A compiled kernel loaded for launching --*- C++ -*-===//
//
// What `tessera compile --emit bin` writes (a serialized CompiledKernel) can
// be loaded and launched without the frontend: the values of a launch are
// checked against the kernel's parameter types and packed (ArgPacking.h).
// JIT launches go through JitKernel instead, which builds on the same
// packing.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_RUNTIME_LOADEDMODULE_H
#define TESSERA_RUNTIME_LOADEDMODULE_H

#include "tessera/Runtime/ArgPacking.h"
#include "tessera/Runtime/Device.h"

#include <array>
#include <memory>

namespace mlir::tessera::runtime {

class LoadedModule {
public:
  /// Loads `kernel` onto `device`; fails when it was compiled for another
  /// backend or when a parameter type cannot be passed.
  static llvm::Expected<std::unique_ptr<LoadedModule>>
  load(Device &device, CompiledKernel kernel);

  /// Reads a serialized CompiledKernel (`tessera compile --emit bin`) and
  /// loads it.
  static llvm::Expected<std::unique_ptr<LoadedModule>>
  loadFile(Device &device, llvm::StringRef path);

  /// Unloads the module (a failure is logged).
  ~LoadedModule();

  /// The kernel's metadata (its bytes are with the driver).
  const CompiledKernel &getKernel() const { return kernel; }

  /// Launches over `grid` with one value per parameter of the kernel, in
  /// order; a mismatch is an error naming the parameter.
  llvm::Error launch(std::array<uint32_t, 3> grid,
                     llvm::ArrayRef<KernelArg> args);

private:
  LoadedModule(Device &device, CompiledKernel kernel, ArgPacker packer,
               ModuleHandle module)
      : device(device), kernel(std::move(kernel)), packer(std::move(packer)),
        module(module) {}

  Device &device;
  CompiledKernel kernel;
  ArgPacker packer;
  ModuleHandle module;
};

} // namespace mlir::tessera::runtime

#endif // TESSERA_RUNTIME_LOADEDMODULE_H
