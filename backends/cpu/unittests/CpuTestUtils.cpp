//===- CpuTestUtils.cpp - Compile and run tessera IR on the CPU plugin ----===//
#include "CpuTestUtils.h"

#include "tessera/Backend/KernelRecord.h"
#include "tessera/InitAll.h"
#include "tessera/Plugin/PluginABI.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <dlfcn.h>

using namespace mlir;
using namespace mlir::tessera;

namespace mlir::tessera::cpu::test {

Backend &getBackend() {
  static Backend *backend = [] {
    void *library = dlopen(TESSERA_CPU_PLUGIN_PATH, RTLD_NOW | RTLD_LOCAL);
    if (!library) {
      llvm::errs() << "cannot load " << TESSERA_CPU_PLUGIN_PATH << ": "
                   << dlerror() << "\n";
      std::abort();
    }
    auto entry = reinterpret_cast<TesseraPluginEntryFn>(
        dlsym(library, TESSERA_PLUGIN_ENTRY_SYMBOL));
    if (!entry) {
      llvm::errs() << "no " << TESSERA_PLUGIN_ENTRY_SYMBOL << " in "
                   << TESSERA_CPU_PLUGIN_PATH << "\n";
      std::abort();
    }
    const TesseraPluginDescriptor *descriptor = entry();
    char *error = nullptr;
    void *created = descriptor->createBackend(&error);
    if (!created) {
      llvm::errs() << "cannot create the CPU backend: " << (error ? error : "")
                   << "\n";
      std::abort();
    }
    return static_cast<Backend *>(created);
  }();
  return *backend;
}

llvm::Expected<CompiledKernel> compileKernel(llvm::StringRef ir,
                                             llvm::StringRef name,
                                             const CompileOptions &options) {
  Backend &backend = getBackend();
  DialectRegistry registry;
  registerAllDialects(registry);
  backend.registerDialects(registry);
  MLIRContext context(registry);
  context.loadAllAvailableDialects();
  std::string diagnostics;
  llvm::raw_string_ostream diagStream(diagnostics);
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler handler(sourceMgr, &context, diagStream);
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(ir, &context);
  if (!module)
    return llvm::createStringError("parse error: " + diagnostics);
  llvm::Expected<TargetDescription> target = backend.describe("");
  if (!target)
    return target.takeError();
  Pipeline pipeline = buildCorePipeline();
  if (llvm::Error err = backend.buildPipeline(pipeline, *target, options))
    return std::move(err);
  if (failed(
          pipeline.run(*module, backend.getPipelineOptions(*target, options))))
    return llvm::createStringError("compilation failed: " + diagnostics);
  // As the host does: the skeleton from the lowered module's records.
  llvm::Expected<CompiledKernel> kernel =
      buildCompiledKernel(*module, name, *target, options);
  if (!kernel)
    return kernel.takeError();
  llvm::LLVMContext llvmContext;
  auto llvmModule =
      backend.translateToLLVMIR(*module, llvmContext, *target, options);
  if (!llvmModule)
    return llvmModule.takeError();
  if (llvm::Error err =
          backend.emitBinary(**llvmModule, *kernel, *target, options))
    return std::move(err);
  return kernel;
}

DeviceBuffer::DeviceBuffer(const void *data, size_t bytes) : bytes(bytes) {
  Driver &driver = getBackend().getDriver();
  llvm::Expected<uint64_t> allocated = driver.allocate(0, bytes);
  if (!allocated) {
    ADD_FAILURE() << llvm::toString(allocated.takeError());
    return;
  }
  addr = *allocated;
  if (llvm::Error err = driver.copyToDevice(0, addr, data, bytes))
    ADD_FAILURE() << llvm::toString(std::move(err));
}

DeviceBuffer::~DeviceBuffer() {
  if (addr)
    if (llvm::Error err = getBackend().getDriver().deallocate(0, addr))
      ADD_FAILURE() << llvm::toString(std::move(err));
}

void DeviceBuffer::readInto(void *dst) const {
  if (llvm::Error err =
          getBackend().getDriver().copyToHost(0, dst, addr, bytes))
    ADD_FAILURE() << llvm::toString(std::move(err));
}

LoadedKernel::LoadedKernel(const CompiledKernel &kernel) {
  llvm::Expected<ModuleHandle> loaded =
      getBackend().getDriver().loadModule(0, kernel);
  if (!loaded) {
    ADD_FAILURE() << llvm::toString(loaded.takeError());
    return;
  }
  handle = *loaded;
}

LoadedKernel::~LoadedKernel() {
  if (handle)
    if (llvm::Error err = getBackend().getDriver().unloadModule(handle))
      ADD_FAILURE() << llvm::toString(std::move(err));
}

llvm::Error LoadedKernel::run(std::array<uint32_t, 3> grid,
                              std::vector<void *> args) {
  if (!handle)
    return llvm::createStringError("kernel not loaded");
  Driver &driver = getBackend().getDriver();
  LaunchConfig config;
  config.grid = grid;
  if (llvm::Error err = driver.launch(handle, config, args))
    return err;
  return driver.synchronize(0);
}

void compileAndRun(llvm::StringRef ir, llvm::StringRef name,
                   std::array<uint32_t, 3> grid, std::vector<void *> args) {
  llvm::Expected<CompiledKernel> kernel = compileKernel(ir, name);
  ASSERT_TRUE(static_cast<bool>(kernel)) << llvm::toString(kernel.takeError());
  LoadedKernel loaded(*kernel);
  ASSERT_NO_LLVM_ERROR(loaded.run(grid, std::move(args)));
}

RestoreEnvOnExit::RestoreEnvOnExit(const char *name) : name(name) {
  if (const char *value = std::getenv(name))
    saved = value;
}

RestoreEnvOnExit::~RestoreEnvOnExit() {
  if (saved)
    setenv(name.c_str(), saved->c_str(), 1);
  else
    unsetenv(name.c_str());
}

void setLaunchThreads(unsigned threads) {
  if (threads)
    setenv("TESSERA_CPU_THREADS", std::to_string(threads).c_str(), 1);
  else
    unsetenv("TESSERA_CPU_THREADS");
}

} // namespace mlir::tessera::cpu::test
