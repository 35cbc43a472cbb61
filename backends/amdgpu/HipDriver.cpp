//===- HipDriver.cpp - AMD GPUs through the HIP runtime -------------------===//
//
// The library is loaded on the first call that needs it. HIP has no
// contexts to manage: each call selects its device with hipSetDevice on the
// calling thread, since callers may come from any thread. Copies, fills,
// launches and events all use the device's null stream, which keeps them
// ordered without extra synchronization.
//
//===----------------------------------------------------------------------===//
#include "HipDriver.h"
#include "HipLibrary.h"
#include "Target.h"

#include "tessera/Backend/DriverSupport.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cstring>
#include <mutex>

using namespace mlir;
using namespace mlir::tessera;
using namespace mlir::tessera::amdgpu;
using namespace mlir::tessera::amdgpu::hip;

namespace {
/// The null stream of the current device.
constexpr hipStream_t kNullStream = nullptr;
/// A workgroup holds at most 1024 work-items on every AMD GPU.
constexpr uint64_t kMaxThreadsPerBlock = 1024;

/// HIP errors after which the device is unusable in this process. (Most
/// often the runtime aborts the process on a GPU fault before returning.)
bool isSticky(hipError_t result) {
  return result == hipErrorIllegalAddress || result == hipErrorAssert ||
         result == hipErrorLaunchFailure;
}

struct Module {
  unsigned device = 0;
  hipModule_t module = nullptr;
  hipFunction_t function = nullptr;
  std::string name;
  /// The wavefront size the kernel was compiled for.
  unsigned threadsPerWarp = 64;
  KernelResources resources;
};

/// The HipDriver (HipDriver.h says what it does beyond Driver.h).
class HipDriverImpl final : public HipDriver {
public:
  explicit HipDriverImpl(std::string path) : path(std::move(path)) {}

  ~HipDriverImpl() override {
    if (!lib || !lib->usable)
      return;
    // Errors are ignored: at process exit the runtime may be shutting down.
    const Api &api = lib->api;
    modules.forEach([&](Module &module) {
      if (api.hipSetDevice(static_cast<int>(module.device)) == hipSuccess)
        api.hipModuleUnload(module.module);
    });
  }

  unsigned getDeviceCount() override { return count(); }

  std::string getUnavailableReason() override {
    return count() ? "" : library().reason;
  }

  int getDriverVersion() override { return library().driverVersion; }

  llvm::Expected<DeviceProperties>
  getDeviceProperties(unsigned device) override {
    if (llvm::Error err = activate(device, "query properties"))
      return std::move(err);
    const Api &api = library().api;
    int ordinal = static_cast<int>(device);
    DeviceProperties props;
    char name[256] = {};
    if (hipError_t r = api.hipDeviceGetName(name, sizeof(name) - 1, ordinal))
      return fail("hipDeviceGetName", device, r);
    props.name = name;
    // hipDriverGetVersion: 10^7 * major + 10^5 * minor + patch.
    if (int version = library().driverVersion)
      props.driverVersion =
          llvm::formatv("HIP runtime {0}.{1}.{2}", version / 10000000,
                        version / 100000 % 100, version % 100000);
    llvm::Error err = llvm::Error::success();
    auto attribute = [&](DeviceAttribute attr) -> int {
      int value = 0;
      if (err)
        return 0;
      if (hipError_t r = api.hipDeviceGetAttribute(&value, attr, ordinal))
        err = fail(
            llvm::formatv("hipDeviceGetAttribute({0})", static_cast<int>(attr)),
            device, r);
      return value;
    };
    props.multiprocessorCount = attribute(MULTIPROCESSOR_COUNT);
    // LDS per workgroup: no opt-in on AMD, a kernel may use all of it.
    props.maxSharedMem = attribute(MAX_SHARED_MEMORY_PER_BLOCK);
    props.maxNumRegs = attribute(MAX_REGISTERS_PER_BLOCK);
    props.warpSize = attribute(WARP_SIZE);
    props.smClockRate = attribute(CLOCK_RATE);
    props.memClockRate = attribute(MEMORY_CLOCK_RATE);
    props.memBusWidth = attribute(MEMORY_BUS_WIDTH);
    if (err)
      return std::move(err);
    size_t total = 0;
    if (hipError_t r = api.hipDeviceTotalMem(&total, ordinal))
      return fail("hipDeviceTotalMem", device, r);
    props.totalMemory = total;
    // Only the device properties struct carries the architecture name.
    // (Zeroed, so that the name is terminated whatever the runtime writes.)
    auto raw = std::make_unique<DevicePropR0600>();
    if (hipError_t r = api.hipGetDevicePropertiesR0600(raw.get(), ordinal))
      return fail("hipGetDevicePropertiesR0600", device, r);
    const char *gcnArchName = reinterpret_cast<const char *>(
        raw->bytes + DevicePropR0600::kGcnArchNameOffset);
    llvm::StringRef gcn(
        gcnArchName, strnlen(gcnArchName, DevicePropR0600::kGcnArchNameSize));
    props.arch = archFromGcnArchName(gcn);
    if (!llvm::StringRef(props.arch).starts_with("gfx"))
      return llvm::createStringError(
          llvm::inconvertibleErrorCode(),
          llvm::formatv("amdgpu device {0}: the HIP runtime names its "
                        "architecture '{1}', not a gfx target",
                        device, gcn));
    return props;
  }

  llvm::Expected<uint64_t> allocate(unsigned device, size_t bytes) override {
    std::string step = llvm::formatv("hipMalloc of {0} bytes", bytes).str();
    if (llvm::Error err = activate(device, step))
      return std::move(err);
    void *address = nullptr;
    // hipMalloc answers 0 bytes with a null pointer; the contract wants an
    // address anyway.
    if (hipError_t r =
            library().api.hipMalloc(&address, std::max<size_t>(bytes, 1)))
      return fail(step, device, r);
    return reinterpret_cast<uintptr_t>(address);
  }

  llvm::Error deallocate(unsigned device, uint64_t address) override {
    std::string step = "hipFree of 0x" + llvm::utohexstr(address);
    if (llvm::Error err = activate(device, step))
      return err;
    if (hipError_t r = library().api.hipFree(
            reinterpret_cast<void *>(static_cast<uintptr_t>(address))))
      return fail(step, device, r);
    return llvm::Error::success();
  }

  llvm::Error copyToDevice(unsigned device, uint64_t dst, const void *src,
                           size_t bytes) override {
    std::string step =
        llvm::formatv("hipMemcpyHtoD of {0} bytes to 0x{1:x}", bytes, dst)
            .str();
    if (llvm::Error err = activate(device, step))
      return err;
    if (bytes == 0)
      return llvm::Error::success();
    if (hipError_t r = library().api.hipMemcpyHtoD(
            reinterpret_cast<void *>(static_cast<uintptr_t>(dst)), src, bytes))
      return fail(step, device, r);
    return llvm::Error::success();
  }

  llvm::Error copyToHost(unsigned device, void *dst, uint64_t src,
                         size_t bytes) override {
    std::string step =
        llvm::formatv("hipMemcpyDtoH of {0} bytes from 0x{1:x}", bytes, src)
            .str();
    if (llvm::Error err = activate(device, step))
      return err;
    if (bytes == 0)
      return llvm::Error::success();
    if (hipError_t r = library().api.hipMemcpyDtoH(
            dst, reinterpret_cast<void *>(static_cast<uintptr_t>(src)), bytes))
      return fail(step, device, r);
    return llvm::Error::success();
  }

  llvm::Error fill(unsigned device, uint64_t dst, uint8_t byte,
                   size_t bytes) override {
    std::string step =
        llvm::formatv("hipMemsetD8 of {0} bytes at 0x{1:x}", bytes, dst).str();
    if (llvm::Error err = activate(device, step))
      return err;
    if (bytes == 0)
      return llvm::Error::success();
    if (hipError_t r = library().api.hipMemsetD8(
            reinterpret_cast<void *>(static_cast<uintptr_t>(dst)), byte, bytes))
      return fail(step, device, r);
    return llvm::Error::success();
  }

  llvm::Expected<ModuleHandle>
  loadModule(unsigned device, const CompiledKernel &kernel) override {
    std::string what = "kernel '" + kernel.name + "'";
    if (kernel.format != "hsaco")
      return llvm::createStringError(
          llvm::inconvertibleErrorCode(),
          llvm::formatv("amdgpu device {0}: cannot load {1}: its format is "
                        "'{2}' (backend '{3}'), not 'hsaco'",
                        device, what, kernel.format, kernel.backend));
    if (llvm::Error err = activate(device, "load " + what))
      return std::move(err);
    const Api &api = library().api;
    auto module = std::make_unique<Module>();
    module->device = device;
    module->name = kernel.name;
    module->threadsPerWarp = kernel.threadsPerWarp;
    // The arch in the step: a code object for another gfx target is the
    // usual reason the runtime refuses one.
    if (hipError_t r =
            api.hipModuleLoadData(&module->module, kernel.binary.data()))
      return fail(llvm::formatv("hipModuleLoadData of {0} ({1} bytes of "
                                "hsaco for {2})",
                                what, kernel.binary.size(), kernel.arch),
                  device, r);
    if (hipError_t r = api.hipModuleGetFunction(
            &module->function, module->module, kernel.name.c_str())) {
      llvm::Error err = fail("hipModuleGetFunction of " + what, device, r);
      api.hipModuleUnload(module->module);
      return std::move(err);
    }
    readResources(*module);
    return modules.insert(std::move(module));
  }

  llvm::Error unloadModule(ModuleHandle handle) override {
    llvm::Expected<Module *> module = modules.lookup(handle, "unload a module");
    if (!module)
      return module.takeError();
    unsigned device = (*module)->device;
    std::string step = "hipModuleUnload of kernel '" + (*module)->name + "'";
    if (llvm::Error err = activate(device, step))
      return err;
    hipError_t r = library().api.hipModuleUnload((*module)->module);
    modules.erase(handle);
    if (r)
      return fail(step, device, r);
    return llvm::Error::success();
  }

  llvm::Error launch(ModuleHandle handle, const LaunchConfig &config,
                     llvm::ArrayRef<void *> args) override {
    llvm::Expected<Module *> found = modules.lookup(handle, "launch a kernel");
    if (!found)
      return found.takeError();
    Module &module = **found;
    auto refuse = [&](const llvm::Twine &why) {
      return llvm::createStringError(
          llvm::inconvertibleErrorCode(),
          llvm::formatv("amdgpu device {0}: cannot launch '{1}': {2}",
                        module.device, module.name, why.str()));
    };
    // The code object fixes the wavefront size; launching with another would
    // give the kernel the wrong number of threads.
    if (config.threadsPerWarp != module.threadsPerWarp)
      return refuse(llvm::formatv("{0} threads per warp, but the kernel was "
                                  "compiled for wavefronts of {1}",
                                  config.threadsPerWarp,
                                  module.threadsPerWarp));
    if (config.numCTAs != 1)
      return refuse(llvm::formatv("num_ctas={0} needs thread block clusters, "
                                  "which this driver does not launch",
                                  config.numCTAs));
    uint64_t threads = uint64_t{config.numWarps} * config.threadsPerWarp;
    if (threads == 0 || threads > kMaxThreadsPerBlock)
      return refuse(llvm::formatv("{0} warps ({1} threads; a workgroup holds 1 "
                                  "to {2})",
                                  config.numWarps, threads,
                                  kMaxThreadsPerBlock));
    std::string step = "hipModuleLaunchKernel of '" + module.name + "'";
    if (llvm::Error err = activate(module.device, step))
      return err;
    // hipModuleLaunchKernel only reads the parameter array.
    void **params = const_cast<void **>(args.data());
    if (hipError_t r = library().api.hipModuleLaunchKernel(
            module.function, config.grid[0], config.grid[1], config.grid[2],
            static_cast<unsigned>(threads), 1, 1,
            static_cast<unsigned>(config.sharedMemoryBytes),
            config.stream ? reinterpret_cast<hipStream_t>(config.stream)
                          : kNullStream,
            args.empty() ? nullptr : params, nullptr))
      return fail(
          llvm::formatv("{0} (grid {1}x{2}x{3}, {4} threads, {5} bytes of "
                        "dynamic LDS)",
                        step, config.grid[0], config.grid[1], config.grid[2],
                        threads, config.sharedMemoryBytes),
          module.device, r);
    return llvm::Error::success();
  }

  llvm::Error synchronize(unsigned device) override {
    if (llvm::Error err = activate(device, "synchronize"))
      return err;
    if (hipError_t r = library().api.hipDeviceSynchronize())
      return fail("hipDeviceSynchronize", device, r);
    return llvm::Error::success();
  }

  llvm::Expected<double>
  timeMilliseconds(unsigned device,
                   const std::function<llvm::Error()> &work) override {
    if (llvm::Error err = activate(device, "time work"))
      return std::move(err);
    const Api &api = library().api;
    hipEvent_t start = nullptr, end = nullptr;
    if (hipError_t r = api.hipEventCreate(&start))
      return fail("hipEventCreate", device, r);
    if (hipError_t r = api.hipEventCreate(&end)) {
      api.hipEventDestroy(start);
      return fail("hipEventCreate", device, r);
    }
    auto measure = [&]() -> llvm::Expected<double> {
      if (hipError_t r = api.hipEventRecord(start, kNullStream))
        return fail("hipEventRecord", device, r);
      if (llvm::Error err = work())
        return std::move(err);
      // `work` may have made another device current.
      if (llvm::Error err = activate(device, "time work"))
        return std::move(err);
      if (hipError_t r = api.hipEventRecord(end, kNullStream))
        return fail("hipEventRecord", device, r);
      if (hipError_t r = api.hipEventSynchronize(end))
        return fail("hipEventSynchronize", device, r);
      float ms = 0;
      if (hipError_t r = api.hipEventElapsedTime(&ms, start, end))
        return fail("hipEventElapsedTime", device, r);
      return static_cast<double>(ms);
    };
    llvm::Expected<double> result = measure();
    // Events belong to the device that created them.
    api.hipSetDevice(static_cast<int>(device));
    api.hipEventDestroy(start);
    api.hipEventDestroy(end);
    return result;
  }

  llvm::Expected<KernelResources>
  getKernelResources(ModuleHandle handle) override {
    llvm::Expected<Module *> module =
        modules.lookup(handle, "read a kernel's resources");
    if (!module)
      return module.takeError();
    return (*module)->resources;
  }

private:
  /// The library, loaded on first use.
  HipLibrary &library() {
    std::call_once(loaded, [&] {
      lib = std::make_unique<HipLibrary>(path);
      if (!lib->usable)
        return;
      int count = 0;
      hipError_t result = lib->api.hipGetDeviceCount(&count);
      // The runtime answers hipErrorNoDevice rather than a count of 0.
      if (result == hipErrorNoDevice || (result == hipSuccess && count <= 0)) {
        lib->reason = "the HIP runtime found no AMD GPU";
        return;
      }
      if (result != hipSuccess) {
        lib->reason = "hipGetDeviceCount failed: " + lib->describe(result);
        return;
      }
      deviceCount = static_cast<unsigned>(count);
    });
    return *lib;
  }

  unsigned count() {
    library();
    return deviceCount;
  }

  llvm::Error unavailable(unsigned device, const llvm::Twine &step) {
    return getDeviceUnavailableError(kBackendName, device, step, count(),
                                     "no AMD GPU: " + library().reason);
  }

  /// Checks `device` and makes it the calling thread's current device.
  llvm::Error activate(unsigned device, const llvm::Twine &step) {
    if (device >= count())
      return unavailable(device, step);
    if (hipError_t r = library().api.hipSetDevice(static_cast<int>(device)))
      return fail("hipSetDevice", device, r);
    return llvm::Error::success();
  }

  /// The error of `result` from `step`; sticky errors say so.
  llvm::Error fail(const llvm::Twine &step, unsigned device,
                   hipError_t result) {
    llvm::Error err = library().error(step, device, result);
    return isSticky(result) ? markUnusable(std::move(err), "the device")
                            : std::move(err);
  }

  /// Reads the resources of a just-loaded function (its device is
  /// current). A runtime that cannot answer leaves -1: the numbers are
  /// for reports, and the kernel runs all the same.
  void readResources(Module &module) {
    const Api &api = library().api;
    auto read = [&](int attribute, int &value) {
      int answer = 0;
      if (api.hipFuncGetAttribute(&answer, attribute, module.function) ==
          hipSuccess)
        value = answer;
    };
    KernelResources &res = module.resources;
    read(FUNC_NUM_REGS, res.registers);
    read(FUNC_LOCAL_SIZE_BYTES, res.spillBytes);
    read(FUNC_SHARED_SIZE_BYTES, res.staticSharedBytes);
    read(FUNC_MAX_THREADS_PER_BLOCK, res.maxThreadsPerBlock);
  }

  std::string path;
  std::once_flag loaded;
  std::unique_ptr<HipLibrary> lib;
  /// Set once, inside `loaded`.
  unsigned deviceCount = 0;
  ModuleTable<Module> modules{kBackendName};
};

} // namespace

std::unique_ptr<HipDriver>
mlir::tessera::amdgpu::createHipDriver(std::string library) {
  return std::make_unique<HipDriverImpl>(std::move(library));
}

std::string
mlir::tessera::amdgpu::archFromGcnArchName(llvm::StringRef gcnArchName) {
  return gcnArchName.split(':').first.trim().str();
}
