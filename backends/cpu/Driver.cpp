//===- Driver.cpp - The host as a device: memory, JIT, launches -----------===//
//
// One device, the host. Device memory is host memory (addresses are host
// pointers). A loaded module is an ORC LLJIT instance linking the kernel's
// object against the plugin's runtime helpers and the process's symbols
// (libm, malloc). A launch runs every program instance of the grid on a
// thread pool that lives across launches (ThreadPool.h), the calling thread
// among them where the kernel's frames fit its stack: threads take
// instances in order from a shared counter, and each instance runs from
// start to end on one thread, so results do not depend on the thread count
// (the order of atomics between instances aside, as on a GPU). Because
// instances are taken in increasing linear id (x fastest), every instance
// below one that runs has been taken by a thread that runs it to
// completion: an instance may spin until a lower one publishes (decoupled
// look-back scans), with any number of threads. Launches run to completion
// before launch() returns, which keeps them ordered with memory copies.
//
// A failed device assertion records its message and jumps back (longjmp)
// out of its instance; no further instance of that launch starts, later
// launches are skipped, and synchronize() reports the message once.
//
//===----------------------------------------------------------------------===//
#include "CpuBackend.h"
#include "Runtime.h"
#include "ThreadPool.h"
#include "VectorMath.h"

#include "tessera/Support/Logging.h"

#include "llvm/Config/llvm-config.h"
#include "llvm/ExecutionEngine/Orc/AbsoluteSymbols.h"
#include "llvm/ExecutionEngine/Orc/ExecutionUtils.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/Support/MemoryBuffer.h"

#include <atomic>
#include <csetjmp>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <optional>
#include <pthread.h>
#include <set>

using namespace mlir;
using namespace mlir::tessera;
using namespace mlir::tessera::cpu;

unsigned cpu::getLaunchThreadCount() {
  if (const char *env = std::getenv("TESSERA_CPU_THREADS")) {
    char *end = nullptr;
    long value = std::strtol(env, &end, 10);
    if (end != env && *end == '\0' && value > 0 && value <= 4096)
      return static_cast<unsigned>(value);
    getLogger().warn("cpu: ignoring TESSERA_CPU_THREADS='{}' (expected a "
                     "positive integer)",
                     env);
  }
  return getHostInfo().hardwareThreads;
}

std::chrono::microseconds cpu::getLaunchSpinTime() {
  constexpr std::chrono::microseconds kDefault(50000);
  const char *env = std::getenv("TESSERA_CPU_SPIN_US");
  if (!env)
    return kDefault;
  char *end = nullptr;
  long long value = std::strtoll(env, &end, 10);
  if (end != env && *end == '\0' && value >= 0 && value <= 60000000)
    return std::chrono::microseconds(value);
  getLogger().warn("cpu: ignoring TESSERA_CPU_SPIN_US='{}' (expected an "
                   "integer from 0 to 60000000)",
                   env);
  return kDefault;
}

namespace {

/// `void <kernel>_cpu_entry(void **args, i32 pid x, y, z, i32 num x, y, z,
/// void *context)`.
using EntryFn = void (*)(void **, int32_t, int32_t, int32_t, int32_t, int32_t,
                         int32_t, void *);

//===----------------------------------------------------------------------===//
// Driver
//===----------------------------------------------------------------------===//

struct LoadedModule {
  /// What the JIT reported while linking (read after a failed lookup).
  std::string linkErrors;
  std::unique_ptr<llvm::orc::LLJIT> jit;
  EntryFn entry = nullptr;
  std::string name;
  size_t numParams = 0;
  /// The stack the kernel's frames can use (nullopt: not known).
  std::optional<uint64_t> stackBytes;
};

/// Bytes of stack left below the caller on this thread (0 when unknown).
uint64_t getStackLeft() {
  thread_local uintptr_t lowest = [] {
    uintptr_t low = 0;
    pthread_attr_t attr;
    if (pthread_getattr_np(pthread_self(), &attr) != 0)
      return low;
    void *base = nullptr;
    size_t size = 0, guard = 0;
    if (pthread_attr_getstack(&attr, &base, &size) == 0 &&
        pthread_attr_getguardsize(&attr, &guard) == 0)
      low = reinterpret_cast<uintptr_t>(base) + guard;
    pthread_attr_destroy(&attr);
    return low;
  }();
  auto here = reinterpret_cast<uintptr_t>(__builtin_frame_address(0));
  return lowest && here > lowest ? here - lowest : 0;
}

/// Runs one program instance; a failed assertion longjmps back here.
void runInstance(EntryFn entry, void **args, const uint32_t pid[3],
                 const uint32_t grid[3], LaunchState &state) {
  InstanceContext context;
  std::jmp_buf exit;
  for (int d = 0; d < 3; ++d)
    context.pid[d] = static_cast<int32_t>(pid[d]);
  context.launch = &state;
  context.exit = &exit;
  currentInstance() = &context;
  if (setjmp(exit) == 0)
    entry(args, pid[0], pid[1], pid[2], grid[0], grid[1], grid[2], nullptr);
  currentInstance() = nullptr;
}

class CpuDriver : public Driver {
public:
  unsigned getDeviceCount() override { return 1; }

  llvm::Expected<DeviceProperties>
  getDeviceProperties(unsigned device) override {
    if (llvm::Error err = checkDevice(device, "get device properties"))
      return std::move(err);
    const HostInfo &host = getHostInfo();
    DeviceProperties props;
    props.name = "host CPU (" + host.cpu + ")";
    props.arch = host.cpu;
    props.multiprocessorCount = getLaunchThreadCount();
    props.maxSharedMem = 1 << 20;
    props.maxNumRegs = 0;
    props.warpSize = 1;
    props.totalMemory = host.memoryBytes;
    props.driverVersion = "LLVM ORC JIT " LLVM_VERSION_STRING;
    return props;
  }

  llvm::Expected<uint64_t> allocate(unsigned device, size_t bytes) override {
    if (llvm::Error err = checkDevice(device, "allocate"))
      return std::move(err);
    // Aligned for any vector access; never null, even for 0 bytes.
    size_t size = ((std::max<size_t>(bytes, 1) + kAlignment - 1) / kAlignment) *
                  kAlignment;
    void *memory = std::aligned_alloc(kAlignment, size);
    if (!memory)
      return error("allocate " + std::to_string(bytes) + " bytes",
                   "out of memory");
    std::lock_guard<std::mutex> lock(mutex);
    allocations.insert(reinterpret_cast<uint64_t>(memory));
    return reinterpret_cast<uint64_t>(memory);
  }

  llvm::Error deallocate(unsigned device, uint64_t address) override {
    if (llvm::Error err = checkDevice(device, "deallocate"))
      return err;
    std::lock_guard<std::mutex> lock(mutex);
    if (!allocations.erase(address))
      return error("deallocate", "0x" + llvm::utohexstr(address) +
                                     " is not an allocation of this device");
    std::free(reinterpret_cast<void *>(address));
    return llvm::Error::success();
  }

  llvm::Error copyToDevice(unsigned device, uint64_t dst, const void *src,
                           size_t bytes) override {
    if (llvm::Error err = checkDevice(device, "copy to device"))
      return err;
    if (bytes)
      std::memcpy(reinterpret_cast<void *>(dst), src, bytes);
    return llvm::Error::success();
  }

  llvm::Error copyToHost(unsigned device, void *dst, uint64_t src,
                         size_t bytes) override {
    if (llvm::Error err = checkDevice(device, "copy to host"))
      return err;
    if (bytes)
      std::memcpy(dst, reinterpret_cast<const void *>(src), bytes);
    return llvm::Error::success();
  }

  llvm::Error fill(unsigned device, uint64_t dst, uint8_t byte,
                   size_t bytes) override {
    if (llvm::Error err = checkDevice(device, "fill"))
      return err;
    if (bytes)
      std::memset(reinterpret_cast<void *>(dst), byte, bytes);
    return llvm::Error::success();
  }

  llvm::Expected<ModuleHandle>
  loadModule(unsigned device, const CompiledKernel &kernel) override {
    // Detecting the host asks Linux for AMX tile state, which kernels the
    // host's features compiled with AMX need before they run.
    (void)getHostInfo();
    if (llvm::Error err = checkDevice(device, "load module"))
      return std::move(err);
    std::string step = "load module '" + kernel.name + "'";
    if (kernel.backend != kBackendName || kernel.format != "elf-object")
      return error(step, "compiled for backend '" + kernel.backend + "' as '" +
                             kernel.format +
                             "', not for 'cpu' as 'elf-object'");
    if (auto it = kernel.metadata.find(kVectorMathMetadata.str());
        it != kernel.metadata.end())
      if (llvm::Error err = requireVectorMathLibrary(it->second, kernel.name))
        return error(step, llvm::toString(std::move(err)));
    if (llvm::Error err = initializeNativeTarget())
      return std::move(err);
    auto jtmb = llvm::orc::JITTargetMachineBuilder::detectHost();
    if (!jtmb)
      return error(step, llvm::toString(jtmb.takeError()));
    auto jit =
        llvm::orc::LLJITBuilder().setJITTargetMachineBuilder(*jtmb).create();
    if (!jit)
      return error(step, llvm::toString(jit.takeError()));
    auto module = std::make_unique<LoadedModule>();
    // Link errors (an unresolved symbol, say) reach the session's reporter
    // rather than the failed lookup; keep them for the error returned.
    std::string *linkErrors = &module->linkErrors;
    (*jit)->getExecutionSession().setErrorReporter([linkErrors](llvm::Error e) {
      *linkErrors += llvm::toString(std::move(e));
    });
    llvm::orc::JITDylib &dylib = (*jit)->getMainJITDylib();
    // The runtime helpers first, then anything the process has (libm).
    llvm::orc::SymbolMap symbols;
    for (auto [name, address] : getRuntimeSymbols())
      symbols[(*jit)->mangleAndIntern(name)] = {
          llvm::orc::ExecutorAddr::fromPtr(address),
          llvm::JITSymbolFlags::Exported | llvm::JITSymbolFlags::Callable};
    if (llvm::Error err =
            dylib.define(llvm::orc::absoluteSymbols(std::move(symbols))))
      return error(step, llvm::toString(std::move(err)));
    auto process =
        llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(
            (*jit)->getDataLayout().getGlobalPrefix());
    if (!process)
      return error(step, llvm::toString(process.takeError()));
    dylib.addGenerator(std::move(*process));
    if (llvm::Error err = (*jit)->addObjectFile(
            llvm::MemoryBuffer::getMemBufferCopy(kernel.binary, kernel.name)))
      return error(step, llvm::toString(std::move(err)));
    auto address = (*jit)->lookup(kernel.name);
    if (!address) {
      std::string why = llvm::toString(address.takeError());
      if (!module->linkErrors.empty())
        why += ": " + module->linkErrors;
      return error(step, why);
    }
    module->entry = address->toPtr<EntryFn>();
    module->jit = std::move(*jit);
    module->name = kernel.name;
    module->numParams = kernel.params.size();
    auto stack = kernel.metadata.find(kStackBytesMetadata.str());
    uint64_t stackBytes;
    if (stack != kernel.metadata.end() &&
        !llvm::StringRef(stack->second).getAsInteger(10, stackBytes))
      module->stackBytes = stackBytes;
    auto handle = reinterpret_cast<ModuleHandle>(module.get());
    std::lock_guard<std::mutex> lock(mutex);
    modules[handle] = std::move(module);
    return handle;
  }

  llvm::Error unloadModule(ModuleHandle handle) override {
    std::lock_guard<std::mutex> lock(mutex);
    if (!modules.erase(handle))
      return error("unload module", "unknown module handle");
    return llvm::Error::success();
  }

  llvm::Error launch(ModuleHandle handle, const LaunchConfig &config,
                     llvm::ArrayRef<void *> args) override {
    LoadedModule *module;
    {
      std::lock_guard<std::mutex> lock(mutex);
      auto it = modules.find(handle);
      if (it == modules.end())
        return error("launch", "unknown module handle");
      module = it->second.get();
    }
    std::string step = "launch '" + module->name + "'";
    if (args.size() != module->numParams)
      return error(step, "expected " + std::to_string(module->numParams) +
                             " arguments, got " + std::to_string(args.size()));
    uint32_t grid[3] = {config.grid[0], config.grid[1], config.grid[2]};
    for (uint32_t g : grid)
      if (g > static_cast<uint32_t>(INT32_MAX))
        return error(step, "grid dimension " + std::to_string(g) +
                               " does not fit a program id");
    uint64_t count = uint64_t(grid[0]) * grid[1] * grid[2];
    if (count == 0)
      return llvm::Error::success();
    std::lock_guard<std::mutex> launchLock(launchMutex);
    if (!pendingError.empty()) {
      getLogger().warn("cpu: skipping {}: an earlier launch failed and was "
                       "not synchronized yet",
                       step);
      return llvm::Error::success();
    }
    ThreadPool &workers = getPool();
    LaunchState state;
    std::atomic<bool> stop{false};
    std::vector<void *> argv(args.begin(), args.end());
    std::function<void(uint64_t)> task = [&](uint64_t i) {
      uint32_t pid[3] = {
          static_cast<uint32_t>(i % grid[0]),
          static_cast<uint32_t>((i / grid[0]) % grid[1]),
          static_cast<uint32_t>(i / (uint64_t(grid[0]) * grid[1]))};
      runInstance(module->entry, argv.data(), pid, grid, state);
      if (state.failed.load())
        stop.store(true);
    };
    // The caller runs instances too where their frames fit its stack, with
    // room for the runtime's helpers (printf, libm) they call.
    bool callerJoins =
        module->stackBytes &&
        getStackLeft() > *module->stackBytes + kCallerStackReserve;
    workers.run(count, task, stop, getLaunchSpinTime(), callerJoins);
    std::fflush(stdout);
    if (state.failed.load()) {
      std::lock_guard<std::mutex> lock(state.mutex);
      pendingError = "cpu device 0: " + step + ": " + state.error;
      getLogger().debug("{}", pendingError);
    }
    return llvm::Error::success();
  }

  llvm::Error synchronize(unsigned device) override {
    if (llvm::Error err = checkDevice(device, "synchronize"))
      return err;
    std::lock_guard<std::mutex> lock(launchMutex);
    if (pendingError.empty())
      return llvm::Error::success();
    std::string message = std::move(pendingError);
    pendingError.clear();
    return llvm::createStringError(message);
  }

private:
  static constexpr size_t kAlignment = 128;
  static constexpr size_t kStackBytes = 64ull << 20;
  static constexpr uint64_t kCallerStackReserve = 1ull << 20;

  static llvm::Error error(const std::string &step, const std::string &why) {
    return llvm::createStringError("cpu device 0: " + step + ": " + why);
  }

  static llvm::Error checkDevice(unsigned device, const std::string &step) {
    if (device != 0)
      return llvm::createStringError("cpu device " + std::to_string(device) +
                                     ": " + step +
                                     ": no such device (the CPU backend has "
                                     "one device, 0)");
    return llvm::Error::success();
  }

  /// The pool, rebuilt when TESSERA_CPU_THREADS changed since the last
  /// launch. Called with launchMutex held.
  ThreadPool &getPool() {
    unsigned wanted = getLaunchThreadCount();
    if (!pool || pool->size() != wanted) {
      pool.reset();
      // Workers that poll between launches: one fewer than the cores the
      // pool may use, so that the caller's own work between launches keeps
      // a core, and the last worker, sleeping, wakes on the core the caller
      // leaves when it waits. Polling matters where a sleeping thread takes
      // long to wake: on the development VM, a 512^3 matmul launched right
      // after 30 ms of host work (a cache flush) ran on one thread, the
      // other woke after the grid was done (2.7 ms instead of 1.6 ms).
      // OpenMP runtimes and OpenBLAS poll for the same reason.
      unsigned pollers = std::min(wanted, getHostInfo().hardwareThreads) - 1;
      // Kernels keep scalars and small buffers on the stack.
      pool = std::make_unique<ThreadPool>(wanted, pollers, kStackBytes);
      getLogger().debug("cpu: {} launch thread(s)", pool->size());
    }
    return *pool;
  }

  std::mutex mutex;
  std::set<uint64_t> allocations;
  std::map<ModuleHandle, std::unique_ptr<LoadedModule>> modules;
  std::mutex launchMutex;
  std::unique_ptr<ThreadPool> pool;
  std::string pendingError;
};

} // namespace

std::unique_ptr<Driver> cpu::createDriver() {
  return std::make_unique<CpuDriver>();
}
