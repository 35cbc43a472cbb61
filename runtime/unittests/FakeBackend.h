//===- FakeBackend.h - A backend and driver the tests control ---*- C++ -*-===//
//
// The driver's memory is host memory (an address is a host pointer), its
// launches are recorded rather than run, and the time a launch takes is
// whatever the test says, so that autotuning and benchmarking can be
// checked exactly.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_RUNTIME_UNITTESTS_FAKEBACKEND_H
#define TESSERA_RUNTIME_UNITTESTS_FAKEBACKEND_H

#include "tessera/Backend/Backend.h"

#include <atomic>
#include <condition_variable>
#include <functional>
#include <map>
#include <mutex>
#include <vector>

namespace mlir::tessera::runtime::testing {

/// One recorded launch.
struct FakeLaunch {
  ModuleHandle module = 0;
  LaunchConfig config;
  /// The argument slots as the driver received them (8 bytes each).
  std::vector<uint64_t> args;
};

class FakeDriver : public Driver {
public:
  unsigned deviceCount = 1;
  std::string unavailableReason;
  DeviceProperties properties;
  /// Milliseconds the launches of `timeMilliseconds` work take, by the
  /// kernel that was launched last.
  std::function<double(const CompiledKernel &)> timing;
  /// Milliseconds each fill() inside timed work takes.
  double fillMs = 0;

  /// Runs at each launch: the test's stand-in for what the kernel does.
  std::function<void(const FakeLaunch &)> onLaunch;

  std::vector<FakeLaunch> launches;
  std::vector<CompiledKernel> loaded;
  unsigned synchronizeCount = 0;
  unsigned fillCount = 0;
  uint64_t liveBytes = 0;

  FakeDriver();
  ~FakeDriver() override;

  unsigned getDeviceCount() override { return deviceCount; }
  std::string getUnavailableReason() override { return unavailableReason; }
  llvm::Expected<DeviceProperties> getDeviceProperties(unsigned d) override;
  llvm::Expected<uint64_t> allocate(unsigned d, size_t bytes) override;
  llvm::Error deallocate(unsigned d, uint64_t address) override;
  llvm::Error copyToDevice(unsigned d, uint64_t dst, const void *src,
                           size_t bytes) override;
  llvm::Error copyToHost(unsigned d, void *dst, uint64_t src,
                         size_t bytes) override;
  llvm::Error fill(unsigned d, uint64_t dst, uint8_t byte,
                   size_t bytes) override;
  llvm::Expected<ModuleHandle> loadModule(unsigned d,
                                          const CompiledKernel &k) override;
  llvm::Error unloadModule(ModuleHandle module) override;
  llvm::Error launch(ModuleHandle module, const LaunchConfig &config,
                     llvm::ArrayRef<void *> args) override;
  llvm::Error synchronize(unsigned d) override;
  llvm::Expected<double>
  timeMilliseconds(unsigned d,
                   const std::function<llvm::Error()> &work) override;

private:
  std::map<uint64_t, size_t> allocations;
  unsigned unloaded = 0;
};

/// A backend whose pipeline ends with an empty "lower-to-llvm" stage: its
/// "translation" records the kernel's parameter types (Triton names) from
/// the module, and each binary names the kernel and lists them.
class FakeBackend : public Backend {
public:
  std::string name = "fake";
  std::vector<std::string> archs = {"fake-arch"};
  FakeDriver driver;
  /// Binaries emitted (compilations that were not cache hits); jobs of one
  /// kernel compile on several threads at once.
  std::atomic<unsigned> binaries{0};
  /// When above 1, each binary waits (up to ten seconds) until that many
  /// are being emitted at once, which shows compilations overlapping;
  /// `mostAtOnce` is the most that ever were.
  unsigned rendezvous = 0;
  std::atomic<unsigned> mostAtOnce{0};

  llvm::StringRef getName() const override { return name; }
  llvm::StringRef getDescription() const override {
    return "a backend the tests control";
  }
  std::vector<std::string> getArchitectures() const override { return archs; }
  llvm::Expected<TargetDescription> describe(llvm::StringRef arch) override;
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
  Driver &getDriver() override { return driver; }

private:
  std::mutex emitting;
  std::condition_variable emitted;
  unsigned atOnce = 0;
};

/// A fresh, empty directory under the system's temporary directory,
/// removed with everything in it when the object goes away.
class ScratchDirectory {
public:
  ScratchDirectory();
  ~ScratchDirectory();
  const std::string &path() const { return dir; }

private:
  std::string dir;
};

} // namespace mlir::tessera::runtime::testing

#endif // TESSERA_RUNTIME_UNITTESTS_FAKEBACKEND_H
