//===- LoadedModule.cpp - A compiled kernel loaded for launching ----------===//
#include "tessera/Runtime/LoadedModule.h"

#include "tessera/Runtime/AtomicFile.h"
#include "tessera/Support/Logging.h"

using namespace mlir::tessera;
using namespace mlir::tessera::runtime;

llvm::Expected<std::unique_ptr<LoadedModule>>
LoadedModule::load(Device &device, CompiledKernel kernel) {
  llvm::StringRef backend = device.getBackend().getName();
  if (kernel.backend != backend)
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "kernel '" + kernel.name + "' was compiled for backend '" +
            kernel.backend + "', not '" + backend + "'");
  llvm::Expected<ArgPacker> packer = ArgPacker::create(kernel.params);
  if (!packer)
    return packer.takeError();
  llvm::Expected<ModuleHandle> module =
      device.getDriver().loadModule(device.getIndex(), kernel);
  if (!module)
    return module.takeError();
  // The bytes live on in the driver.
  kernel.binary.clear();
  return std::unique_ptr<LoadedModule>(
      new LoadedModule(device, std::move(kernel), std::move(*packer), *module));
}

llvm::Expected<std::unique_ptr<LoadedModule>>
LoadedModule::loadFile(Device &device, llvm::StringRef path) {
  llvm::Expected<std::string> bytes = readWholeFile(path);
  if (!bytes)
    return bytes.takeError();
  llvm::Expected<CompiledKernel> kernel = CompiledKernel::deserialize(*bytes);
  if (!kernel)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   path + ": " +
                                       llvm::toString(kernel.takeError()));
  return load(device, std::move(*kernel));
}

LoadedModule::~LoadedModule() {
  if (llvm::Error err = device.getDriver().unloadModule(module))
    getLogger().warn("{}", llvm::toString(std::move(err)));
}

llvm::Error LoadedModule::launch(std::array<uint32_t, 3> grid,
                                 llvm::ArrayRef<KernelArg> args) {
  PackedArgs packed;
  if (llvm::Error err = packer.pack(args, packed))
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "kernel '" + kernel.name +
                                       "': " + llvm::toString(std::move(err)));
  if (grid[0] == 0 || grid[1] == 0 || grid[2] == 0)
    return llvm::Error::success();
  LaunchConfig config;
  config.grid = grid;
  config.numWarps = kernel.numWarps;
  config.threadsPerWarp = kernel.threadsPerWarp;
  config.numCTAs = kernel.numCTAs;
  config.sharedMemoryBytes = kernel.sharedMemoryBytes;
  return device.getDriver().launch(module, config, packed.getPointers());
}
