//===- FakeBackend.cpp - A backend and driver the tests control -----------===//
#include "FakeBackend.h"

#include "tessera/Backend/KernelRecord.h"
#include "tessera/Dialect/Tessera/IR/Dialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FileSystem.h"

#include <chrono>
#include <cstdlib>
#include <cstring>

using namespace mlir;
using namespace mlir::tessera;
using namespace mlir::tessera::runtime::testing;

static llvm::Error fakeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

FakeDriver::FakeDriver() {
  properties.name = "Fake Device";
  properties.arch = "fake-arch";
  properties.multiprocessorCount = 4;
  properties.maxSharedMem = 65536;
  properties.maxNumRegs = 65536;
  properties.warpSize = 32;
}

FakeDriver::~FakeDriver() {
  for (auto &[address, size] : allocations)
    std::free(reinterpret_cast<void *>(address));
}

llvm::Expected<DeviceProperties> FakeDriver::getDeviceProperties(unsigned d) {
  if (d >= deviceCount)
    return fakeError("fake device " + llvm::Twine(d) + ": no such device");
  return properties;
}

llvm::Expected<uint64_t> FakeDriver::allocate(unsigned d, size_t bytes) {
  // 64-byte aligned like device allocators, so pointers specialize as :16.
  void *p = std::aligned_alloc(64, (bytes + 63) / 64 * 64 + 64);
  if (!p)
    return fakeError("fake device: out of memory");
  uint64_t address = reinterpret_cast<uint64_t>(p);
  allocations[address] = bytes;
  liveBytes += bytes;
  return address;
}

llvm::Error FakeDriver::deallocate(unsigned d, uint64_t address) {
  auto it = allocations.find(address);
  if (it == allocations.end())
    return fakeError("fake device: freeing unknown address");
  liveBytes -= it->second;
  std::free(reinterpret_cast<void *>(address));
  allocations.erase(it);
  return llvm::Error::success();
}

llvm::Error FakeDriver::copyToDevice(unsigned d, uint64_t dst, const void *src,
                                     size_t bytes) {
  std::memcpy(reinterpret_cast<void *>(dst), src, bytes);
  return llvm::Error::success();
}

llvm::Error FakeDriver::copyToHost(unsigned d, void *dst, uint64_t src,
                                   size_t bytes) {
  std::memcpy(dst, reinterpret_cast<const void *>(src), bytes);
  return llvm::Error::success();
}

llvm::Error FakeDriver::fill(unsigned d, uint64_t dst, uint8_t byte,
                             size_t bytes) {
  ++fillCount;
  std::memset(reinterpret_cast<void *>(dst), byte, bytes);
  return llvm::Error::success();
}

llvm::Expected<ModuleHandle> FakeDriver::loadModule(unsigned d,
                                                    const CompiledKernel &k) {
  loaded.push_back(k);
  return static_cast<ModuleHandle>(loaded.size());
}

llvm::Error FakeDriver::unloadModule(ModuleHandle module) {
  ++unloaded;
  return llvm::Error::success();
}

llvm::Error FakeDriver::launch(ModuleHandle module, const LaunchConfig &config,
                               llvm::ArrayRef<void *> args) {
  if (module == 0 || module > loaded.size())
    return fakeError("fake device: launching an unknown module");
  FakeLaunch launch;
  launch.module = module;
  launch.config = config;
  for (void *arg : args) {
    uint64_t slot;
    std::memcpy(&slot, arg, sizeof(slot));
    launch.args.push_back(slot);
  }
  launches.push_back(std::move(launch));
  if (onLaunch)
    onLaunch(launches.back());
  return llvm::Error::success();
}

llvm::Error FakeDriver::synchronize(unsigned d) {
  ++synchronizeCount;
  return llvm::Error::success();
}

llvm::Expected<double>
FakeDriver::timeMilliseconds(unsigned d,
                             const std::function<llvm::Error()> &work) {
  size_t before = launches.size();
  unsigned fillsBefore = fillCount;
  if (llvm::Error err = work())
    return std::move(err);
  double total = fillMs * (fillCount - fillsBefore);
  for (size_t i = before; i < launches.size(); ++i)
    total += timing ? timing(loaded[launches[i].module - 1]) : 0.0;
  return total;
}

llvm::Expected<TargetDescription> FakeBackend::describe(llvm::StringRef arch) {
  if (!arch.empty() && llvm::find(archs, arch) == archs.end())
    return fakeError("fake backend: unknown architecture '" + arch + "'");
  TargetDescription target;
  target.backend = name;
  target.arch = arch.empty() ? archs.front() : arch.str();
  return target;
}

llvm::Error FakeBackend::buildPipeline(Pipeline &pipeline,
                                       const TargetDescription &target,
                                       const CompileOptions &options) {
  // Only the signature record every plugin's lowering leaves.
  return pipeline.insert("end",
                         {kLowerToLLVMStage.str(), "the signature record",
                          [](OpPassManager &pm, const PipelineOptions &) {
                            pm.addPass(createRecordSignaturePass("a fake"));
                          }});
}

llvm::Expected<std::unique_ptr<llvm::Module>>
FakeBackend::translateToLLVMIR(ModuleOp module, llvm::LLVMContext &context,
                               const TargetDescription &target,
                               const CompileOptions &options) {
  return std::make_unique<llvm::Module>("fake", context);
}

llvm::Expected<std::string>
FakeBackend::emitAssembly(llvm::Module &module, const TargetDescription &target,
                          const CompileOptions &options) {
  return std::string("fake assembly\n");
}

llvm::Error FakeBackend::emitBinary(llvm::Module &module,
                                    CompiledKernel &kernel,
                                    const TargetDescription &target,
                                    const CompileOptions &options) {
  ++binaries;
  {
    std::unique_lock<std::mutex> lock(emitting);
    ++atOnce;
    mostAtOnce = std::max(mostAtOnce.load(), atOnce);
    emitted.notify_all();
    if (rendezvous > 1)
      emitted.wait_for(lock, std::chrono::seconds(10),
                       [&] { return mostAtOnce >= rendezvous; });
    --atOnce;
  }
  kernel.format = "none";
  kernel.binary = "fake binary";
  return llvm::Error::success();
}

ScratchDirectory::ScratchDirectory() {
  llvm::SmallString<128> path;
  std::error_code ec =
      llvm::sys::fs::createUniqueDirectory("tessera-runtime-test", path);
  if (ec)
    std::abort();
  dir = std::string(path);
}

ScratchDirectory::~ScratchDirectory() {
  (void)llvm::sys::fs::remove_directories(dir);
}
