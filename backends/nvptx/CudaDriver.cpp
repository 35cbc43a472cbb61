//===- CudaDriver.cpp - NVIDIA GPUs through the CUDA driver API -----------===//
//
// The library is loaded on the first call that needs it. Each device gets
// its primary context (shared with any CUDA runtime user in the process)
// and one stream, created on first use; every call makes the context
// current on the calling thread first, since callers may come from any
// thread. Copies and fills use the legacy default stream and launches a
// blocking stream, so they stay ordered without extra synchronization.
//
//===----------------------------------------------------------------------===//
#include "CudaDriver.h"
#include "CudaLibrary.h"
#include "PtxAssembler.h"
#include "Target.h"
#include "TensorMaps.h"

#include "tessera/Backend/DriverSupport.h"
#include "tessera/Backend/LaunchExpression.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <functional>
#include <mutex>
#include <optional>
#include <vector>

using namespace mlir;
using namespace mlir::tessera;
using namespace mlir::tessera::nvptx;
using namespace mlir::tessera::nvptx::cuda;

namespace {
/// Dynamic shared memory a launch gets without cuFuncSetAttribute.
constexpr uint64_t kDefaultDynamicShared = 48 * 1024;
/// Size of each JIT log buffer.
constexpr size_t kLogBytes = 16 * 1024;

/// CUDA errors after which the context is unusable: every later call
/// fails the same way until the process exits.
bool isSticky(CUresult result) {
  switch (result) {
  case 700: // CUDA_ERROR_ILLEGAL_ADDRESS
  case 710: // CUDA_ERROR_ASSERT
  case 714: // CUDA_ERROR_HARDWARE_STACK_ERROR
  case 715: // CUDA_ERROR_ILLEGAL_INSTRUCTION
  case 716: // CUDA_ERROR_MISALIGNED_ADDRESS
  case 717: // CUDA_ERROR_INVALID_ADDRESS_SPACE
  case 718: // CUDA_ERROR_INVALID_PC
  case 719: // CUDA_ERROR_LAUNCH_FAILED
    return true;
  default:
    return false;
  }
}

struct Device {
  CUdevice handle = 0;
  CUcontext context = nullptr;
  CUstream stream = nullptr;
};

struct Module {
  unsigned device = 0;
  CUmodule module = nullptr;
  CUfunction function = nullptr;
  std::string name;
  /// The dynamic shared memory the function is allowed so far.
  uint64_t dynamicSharedLimit = kDefaultDynamicShared;
  KernelResources resources;
  /// The kernel's parameters and how to build its hidden tensor maps.
  std::vector<KernelParam> params;
  std::vector<TensorMapRecipe> tensorMaps;
  /// Global scratch memory per program for the maps the kernel writes
  /// itself (0: none), passed last.
  uint64_t scratchPerProgram = 0;
};

// cuTensorMapEncodeTiled's enumerators besides data type and swizzle.
constexpr int kInterleaveNone = 0;
constexpr int kL2Promotion256B = 3;
constexpr int kFillNone = 0, kFillNanRequestZeroFma = 1;

/// Encodes the tensor map `recipe` describes for this launch's `args`.
llvm::Error encodeTensorMap(const Api &api, const TensorMapRecipe &recipe,
                            llvm::ArrayRef<KernelParam> params,
                            llvm::ArrayRef<void *> args, CUtensorMap &map,
                            const std::function<std::string(CUresult)> &why) {
  llvm::Expected<TensorMapValues> v = evaluateTensorMap(recipe, params, args);
  if (!v)
    return v.takeError();
  if (CUresult r = api.cuTensorMapEncodeTiled(
          &map, int(recipe.dataType), v->rank,
          reinterpret_cast<void *>(uintptr_t(v->base)), v->dims, v->strides,
          v->box, v->elementStrides, kInterleaveNone, int(recipe.swizzle),
          kL2Promotion256B,
          recipe.nanFill ? kFillNanRequestZeroFma : kFillNone)) {
    std::string shape;
    for (unsigned i = 0; i < v->rank; ++i)
      shape += (i ? "x" : "") + std::to_string(v->dims[v->rank - 1 - i]);
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        llvm::formatv("{0}cuTensorMapEncodeTiled of a {1} tensor at 0x{2:x} "
                      "failed: {3}",
                      recipe.where.empty() ? "" : recipe.where + ": ", shape,
                      v->base, why(r)));
  }
  return llvm::Error::success();
}

/// The CudaDriver (CudaDriver.h says what it does beyond Driver.h).
class CudaDriverImpl final : public CudaDriver {
public:
  explicit CudaDriverImpl(std::string path) : path(std::move(path)) {}

  ~CudaDriverImpl() override {
    if (!lib || !lib->usable)
      return;
    // Errors are ignored: at process exit the driver may be shut down.
    const Api &api = lib->api;
    modules.forEach([&](Module &module) {
      if (api.cuCtxSetCurrent(devices[module.device].context) == CUDA_SUCCESS)
        api.cuModuleUnload(module.module);
    });
    for (Device &dev : devices) {
      if (!dev.context)
        continue;
      if (api.cuCtxSetCurrent(dev.context) == CUDA_SUCCESS)
        api.cuStreamDestroy(dev.stream);
      api.cuDevicePrimaryCtxRelease(dev.handle);
    }
    api.cuCtxSetCurrent(nullptr);
  }

  unsigned getDeviceCount() override { return count(); }

  std::string getUnavailableReason() override {
    return count() ? "" : library().reason;
  }

  int getDriverVersion() override { return library().driverVersion; }

  llvm::Expected<DeviceProperties>
  getDeviceProperties(unsigned device) override {
    llvm::Expected<Device *> dev = activate(device, "query properties");
    if (!dev)
      return dev.takeError();
    const Api &api = library().api;
    CUdevice handle = (*dev)->handle;
    DeviceProperties props;
    char name[256] = {};
    if (CUresult r = api.cuDeviceGetName(name, sizeof(name) - 1, handle))
      return fail("cuDeviceGetName", device, r);
    props.name = name;
    // cuDriverGetVersion: 1000 * major + 10 * minor.
    if (int version = library().driverVersion)
      props.driverVersion = llvm::formatv("CUDA driver {0}.{1}", version / 1000,
                                          version % 1000 / 10);
    llvm::Error err = llvm::Error::success();
    auto attribute = [&](DeviceAttribute attr) -> int {
      int value = 0;
      if (err)
        return 0;
      if (CUresult r = api.cuDeviceGetAttribute(&value, attr, handle))
        err = fail(
            llvm::formatv("cuDeviceGetAttribute({0})", static_cast<int>(attr)),
            device, r);
      return value;
    };
    int major = attribute(COMPUTE_CAPABILITY_MAJOR);
    int minor = attribute(COMPUTE_CAPABILITY_MINOR);
    props.multiprocessorCount = attribute(MULTIPROCESSOR_COUNT);
    props.maxSharedMem = attribute(MAX_SHARED_MEMORY_PER_BLOCK_OPTIN);
    props.maxNumRegs = attribute(MAX_REGISTERS_PER_BLOCK);
    props.warpSize = attribute(WARP_SIZE);
    props.smClockRate = attribute(CLOCK_RATE);
    props.memClockRate = attribute(MEMORY_CLOCK_RATE);
    props.memBusWidth = attribute(GLOBAL_MEMORY_BUS_WIDTH);
    if (err)
      return std::move(err);
    size_t total = 0;
    if (CUresult r = api.cuDeviceTotalMem(&total, handle))
      return fail("cuDeviceTotalMem", device, r);
    props.totalMemory = total;
    // 9.0 devices run sm_90a code, which is what unlocks wgmma and
    // setmaxnreg; code for a later "a" variant would not run elsewhere.
    props.arch = llvm::formatv("sm_{0}{1}{2}", major, minor,
                               major == 9 && minor == 0 ? "a" : "")
                     .str();
    return props;
  }

  llvm::Expected<uint64_t> allocate(unsigned device, size_t bytes) override {
    std::string step = llvm::formatv("cuMemAlloc of {0} bytes", bytes).str();
    llvm::Expected<Device *> dev = activate(device, step);
    if (!dev)
      return dev.takeError();
    CUdeviceptr address = 0;
    // cuMemAlloc refuses 0 bytes; the contract wants an address anyway.
    if (CUresult r =
            library().api.cuMemAlloc(&address, std::max<size_t>(bytes, 1)))
      return fail(step, device, r);
    return address;
  }

  llvm::Error deallocate(unsigned device, uint64_t address) override {
    std::string step = "cuMemFree of 0x" + llvm::utohexstr(address);
    llvm::Expected<Device *> dev = activate(device, step);
    if (!dev)
      return dev.takeError();
    if (CUresult r = library().api.cuMemFree(address))
      return fail(step, device, r);
    return llvm::Error::success();
  }

  llvm::Error copyToDevice(unsigned device, uint64_t dst, const void *src,
                           size_t bytes) override {
    std::string step =
        llvm::formatv("cuMemcpyHtoD of {0} bytes to 0x{1:x}", bytes, dst).str();
    llvm::Expected<Device *> dev = activate(device, step);
    if (!dev)
      return dev.takeError();
    if (bytes == 0)
      return llvm::Error::success();
    if (CUresult r = library().api.cuMemcpyHtoD(dst, src, bytes))
      return fail(step, device, r);
    return llvm::Error::success();
  }

  llvm::Error copyToHost(unsigned device, void *dst, uint64_t src,
                         size_t bytes) override {
    std::string step =
        llvm::formatv("cuMemcpyDtoH of {0} bytes from 0x{1:x}", bytes, src)
            .str();
    llvm::Expected<Device *> dev = activate(device, step);
    if (!dev)
      return dev.takeError();
    if (bytes == 0)
      return llvm::Error::success();
    if (CUresult r = library().api.cuMemcpyDtoH(dst, src, bytes))
      return fail(step, device, r);
    return llvm::Error::success();
  }

  llvm::Error fill(unsigned device, uint64_t dst, uint8_t byte,
                   size_t bytes) override {
    std::string step =
        llvm::formatv("cuMemsetD8 of {0} bytes at 0x{1:x}", bytes, dst).str();
    llvm::Expected<Device *> dev = activate(device, step);
    if (!dev)
      return dev.takeError();
    if (bytes == 0)
      return llvm::Error::success();
    if (CUresult r = library().api.cuMemsetD8(dst, byte, bytes))
      return fail(step, device, r);
    return llvm::Error::success();
  }

  llvm::Expected<ModuleHandle>
  loadModule(unsigned device, const CompiledKernel &kernel) override {
    std::string what = "kernel '" + kernel.name + "'";
    llvm::Expected<Device *> dev = activate(device, "load " + what);
    if (!dev)
      return dev.takeError();
    if (kernel.format != "cubin" && kernel.format != "ptx")
      return llvm::createStringError(
          llvm::inconvertibleErrorCode(),
          llvm::formatv(
              "nvptx device {0}: cannot load {1}: its format is '{2}' "
              "(backend '{3}'), not 'cubin' or 'ptx'",
              device, what, kernel.format, kernel.backend));
    const Api &api = library().api;
    // PTX must be NUL-terminated; std::string's c_str() is.
    const void *image = kernel.binary.c_str();
    std::vector<char> infoLog(kLogBytes), errorLog(kLogBytes);
    std::vector<CUjit_option> options = {
        JIT_INFO_LOG_BUFFER, JIT_INFO_LOG_BUFFER_SIZE_BYTES,
        JIT_ERROR_LOG_BUFFER, JIT_ERROR_LOG_BUFFER_SIZE_BYTES, JIT_LOG_VERBOSE};
    std::vector<void *> values = {
        infoLog.data(), reinterpret_cast<void *>(kLogBytes - 1),
        errorLog.data(), reinterpret_cast<void *>(kLogBytes - 1),
        reinterpret_cast<void *>(uintptr_t{1})};
    // PTX left for this JIT carries the register limit an assembler would
    // have applied (PtxAssembler.h).
    unsigned maxRegisters = 0;
    if (auto it = kernel.metadata.find(kMaxRegistersMetadata);
        kernel.format == "ptx" && it != kernel.metadata.end() &&
        llvm::to_integer(it->second, maxRegisters) && maxRegisters > 0) {
      options.push_back(JIT_MAX_REGISTERS);
      values.push_back(reinterpret_cast<void *>(uintptr_t{maxRegisters}));
    }
    auto module = std::make_unique<Module>();
    module->device = device;
    module->name = kernel.name;
    module->params = kernel.params;
    if (auto it = kernel.metadata.find(kTensorMapsMetadata.str());
        it != kernel.metadata.end()) {
      llvm::SmallVector<llvm::StringRef> lines;
      llvm::StringRef(it->second).split(lines, '\n', -1, false);
      for (llvm::StringRef line : lines) {
        llvm::Expected<TensorMapRecipe> recipe = TensorMapRecipe::parse(line);
        if (!recipe)
          return recipe.takeError();
        module->tensorMaps.push_back(std::move(*recipe));
      }
    }
    if (auto it = kernel.metadata.find(kGlobalScratchMetadata.str());
        it != kernel.metadata.end() &&
        (!llvm::to_integer(it->second, module->scratchPerProgram) ||
         module->scratchPerProgram % kTensorMapBytes != 0))
      return llvm::createStringError(
          llvm::inconvertibleErrorCode(),
          "kernel '" + kernel.name + "' has malformed metadata " +
              kGlobalScratchMetadata.str() + "='" + it->second + "'");
    if (CUresult r =
            api.cuModuleLoadDataEx(&module->module, image, options.size(),
                                   options.data(), values.data())) {
      llvm::Error err = fail("cuModuleLoadDataEx of " + what, device, r);
      llvm::StringRef log(errorLog.data());
      if (log.trim().empty())
        return err;
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     llvm::toString(std::move(err)) +
                                         "\nJIT error log:\n" + log.trim());
    }
    if (kernel.format == "ptx")
      module->resources.jitInfoLog =
          llvm::StringRef(infoLog.data()).trim().str();
    auto unloadOnError = [&](llvm::Error err) -> llvm::Error {
      api.cuModuleUnload(module->module);
      return err;
    };
    if (CUresult r = api.cuModuleGetFunction(&module->function, module->module,
                                             kernel.name.c_str()))
      return unloadOnError(fail("cuModuleGetFunction of " + what, device, r));
    if (llvm::Error err = readResources(*module))
      return unloadOnError(std::move(err));
    if (llvm::Error err = allowDynamicShared(*module, kernel.sharedMemoryBytes))
      return unloadOnError(std::move(err));
    return modules.insert(std::move(module));
  }

  llvm::Error unloadModule(ModuleHandle handle) override {
    llvm::Expected<Module *> module = modules.lookup(handle, "unload a module");
    if (!module)
      return module.takeError();
    unsigned device = (*module)->device;
    std::string step = "cuModuleUnload of kernel '" + (*module)->name + "'";
    llvm::Expected<Device *> dev = activate(device, step);
    if (!dev)
      return dev.takeError();
    CUresult r = library().api.cuModuleUnload((*module)->module);
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
    std::string step = "cuLaunchKernel of '" + module.name + "'";
    auto refuse = [&](const llvm::Twine &why) {
      return llvm::createStringError(
          llvm::inconvertibleErrorCode(),
          llvm::formatv("nvptx device {0}: cannot launch '{1}': {2}",
                        module.device, module.name, why.str()));
    };
    if (config.threadsPerWarp != 32)
      return refuse(llvm::formatv("{0} threads per warp (NVIDIA warps have 32)",
                                  config.threadsPerWarp));
    // Kernels with a compile-time cluster shape launch as usual; a
    // launch-time cluster shape (cuLaunchKernelEx) is not implemented yet.
    if (config.numCTAs != 1)
      return refuse(llvm::formatv("num_ctas={0} needs cluster launches, which "
                                  "this driver does not make yet",
                                  config.numCTAs));
    uint64_t threads = uint64_t{config.numWarps} * 32;
    if (threads == 0 || threads > 1024)
      return refuse(llvm::formatv("{0} warps ({1} threads; a block holds 1 to "
                                  "1024)",
                                  config.numWarps, threads));
    llvm::Expected<Device *> dev = activate(module.device, step);
    if (!dev)
      return dev.takeError();
    if (llvm::Error err = allowDynamicShared(module, config.sharedMemoryBytes))
      return err;
    CUstream stream = config.stream ? reinterpret_cast<CUstream>(config.stream)
                                    : (*dev)->stream;
    // Hidden tensor maps follow the parameters, then the scratch memory of
    // the maps the kernel writes; cuLaunchKernel copies them.
    std::vector<CUtensorMap> maps(module.tensorMaps.size());
    std::vector<void *> withHidden;
    CUdeviceptr scratch = 0;
    if (!maps.empty() || module.scratchPerProgram) {
      if (args.size() != module.params.size())
        return refuse(llvm::formatv("{0} arguments for {1} parameters",
                                    args.size(), module.params.size()));
      withHidden.assign(args.begin(), args.end());
      for (auto [recipe, map] : llvm::zip(module.tensorMaps, maps)) {
        if (llvm::Error err = encodeTensorMap(
                library().api, recipe, module.params, args, map,
                [&](CUresult r) { return library().describe(r); }))
          return refuse(llvm::toString(std::move(err)));
        withHidden.push_back(&map);
      }
      if (module.scratchPerProgram) {
        // Stream-ordered: the memory lives exactly as long as the launch.
        uint64_t bytes = uint64_t(config.grid[0]) * config.grid[1] *
                         config.grid[2] * module.scratchPerProgram;
        if (CUresult r = library().api.cuMemAllocAsync(
                &scratch, std::max<uint64_t>(bytes, 1), stream))
          return fail(llvm::formatv("cuMemAllocAsync of {0} bytes of tensor "
                                    "map scratch for '{1}'",
                                    bytes, module.name),
                      module.device, r);
        withHidden.push_back(&scratch);
      }
      args = withHidden;
    }
    // cuLaunchKernel only reads the parameter array.
    void **params = const_cast<void **>(args.data());
    CUresult launched = library().api.cuLaunchKernel(
        module.function, config.grid[0], config.grid[1], config.grid[2],
        static_cast<unsigned>(threads), 1, 1,
        static_cast<unsigned>(config.sharedMemoryBytes), stream,
        args.empty() ? nullptr : params, nullptr);
    if (scratch)
      if (CUresult r = library().api.cuMemFreeAsync(scratch, stream);
          r && !launched)
        return fail("cuMemFreeAsync of tensor map scratch", module.device, r);
    if (CUresult r = launched)
      return fail(
          llvm::formatv("{0} (grid {1}x{2}x{3}, {4} threads, {5} bytes of "
                        "dynamic shared memory)",
                        step, config.grid[0], config.grid[1], config.grid[2],
                        threads, config.sharedMemoryBytes),
          module.device, r);
    return llvm::Error::success();
  }

  llvm::Error synchronize(unsigned device) override {
    llvm::Expected<Device *> dev = activate(device, "synchronize");
    if (!dev)
      return dev.takeError();
    if (CUresult r = library().api.cuStreamSynchronize((*dev)->stream))
      return fail("cuStreamSynchronize", device, r);
    return llvm::Error::success();
  }

  llvm::Expected<double>
  timeMilliseconds(unsigned device,
                   const std::function<llvm::Error()> &work) override {
    llvm::Expected<Device *> dev = activate(device, "time work");
    if (!dev)
      return dev.takeError();
    const Api &api = library().api;
    CUevent start = nullptr, end = nullptr;
    if (CUresult r = api.cuEventCreate(&start, CU_EVENT_DEFAULT))
      return fail("cuEventCreate", device, r);
    if (CUresult r = api.cuEventCreate(&end, CU_EVENT_DEFAULT)) {
      api.cuEventDestroy(start);
      return fail("cuEventCreate", device, r);
    }
    auto measure = [&]() -> llvm::Expected<double> {
      CUstream stream = (*dev)->stream;
      if (CUresult r = api.cuEventRecord(start, stream))
        return fail("cuEventRecord", device, r);
      if (llvm::Error err = work())
        return std::move(err);
      // `work` may have made another context current.
      if (llvm::Expected<Device *> again = activate(device, "time work");
          !again)
        return again.takeError();
      if (CUresult r = api.cuEventRecord(end, stream))
        return fail("cuEventRecord", device, r);
      if (CUresult r = api.cuEventSynchronize(end))
        return fail("cuEventSynchronize", device, r);
      float ms = 0;
      if (CUresult r = api.cuEventElapsedTime(&ms, start, end))
        return fail("cuEventElapsedTime", device, r);
      return static_cast<double>(ms);
    };
    llvm::Expected<double> result = measure();
    api.cuEventDestroy(start);
    api.cuEventDestroy(end);
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
  CudaLibrary &library() {
    std::call_once(loaded, [&] {
      lib = std::make_unique<CudaLibrary>(path);
      if (!lib->usable)
        return;
      int count = 0;
      if (CUresult result = lib->api.cuDeviceGetCount(&count);
          result != CUDA_SUCCESS) {
        lib->reason = "cuDeviceGetCount failed: " + lib->describe(result);
        return;
      }
      if (count == 0)
        lib->reason = "the NVIDIA driver found no CUDA device";
      devices.resize(count);
    });
    return *lib;
  }

  unsigned count() {
    library();
    return devices.size();
  }

  llvm::Error unavailable(unsigned device, const llvm::Twine &step) {
    return getDeviceUnavailableError(kBackendName, device, step, devices.size(),
                                     "no CUDA device: " + library().reason);
  }

  /// Checks `device`, retains its primary context and creates its stream
  /// on first use, and makes the context current on this thread.
  llvm::Expected<Device *> activate(unsigned device, const llvm::Twine &step) {
    if (device >= count())
      return unavailable(device, step);
    CudaLibrary &cuda = library();
    const Api &api = cuda.api;
    std::lock_guard<std::mutex> lock(mutex);
    Device &dev = devices[device];
    if (!dev.context) {
      if (CUresult r = api.cuDeviceGet(&dev.handle, device))
        return cuda.error("cuDeviceGet", device, r);
      CUcontext context = nullptr;
      if (CUresult r = api.cuDevicePrimaryCtxRetain(&context, dev.handle))
        return cuda.error("cuDevicePrimaryCtxRetain", device, r);
      if (CUresult r = api.cuCtxSetCurrent(context)) {
        api.cuDevicePrimaryCtxRelease(dev.handle);
        return cuda.error("cuCtxSetCurrent", device, r);
      }
      if (CUresult r = api.cuStreamCreate(&dev.stream, CU_STREAM_DEFAULT)) {
        api.cuDevicePrimaryCtxRelease(dev.handle);
        return cuda.error("cuStreamCreate", device, r);
      }
      dev.context = context;
      return &dev;
    }
    if (CUresult r = api.cuCtxSetCurrent(dev.context))
      return cuda.error("cuCtxSetCurrent", device, r);
    return &dev;
  }

  /// The error of `result` from `step`; sticky errors say so.
  llvm::Error fail(const llvm::Twine &step, unsigned device, CUresult result) {
    llvm::Error err = library().error(step, device, result);
    return isSticky(result)
               ? markUnusable(std::move(err), "the device's context")
               : std::move(err);
  }

  /// Reads the resources of a just-loaded function.
  llvm::Error readResources(Module &module) {
    const Api &api = library().api;
    auto read = [&](int attribute, int &value) -> llvm::Error {
      if (CUresult r =
              api.cuFuncGetAttribute(&value, attribute, module.function))
        return fail(llvm::formatv("cuFuncGetAttribute({0}) of '{1}'", attribute,
                                  module.name),
                    module.device, r);
      return llvm::Error::success();
    };
    KernelResources &res = module.resources;
    if (llvm::Error err = read(FUNC_NUM_REGS, res.registers))
      return err;
    if (llvm::Error err = read(FUNC_LOCAL_SIZE_BYTES, res.spillBytes))
      return err;
    if (llvm::Error err = read(FUNC_SHARED_SIZE_BYTES, res.staticSharedBytes))
      return err;
    if (llvm::Error err =
            read(FUNC_MAX_THREADS_PER_BLOCK, res.maxThreadsPerBlock))
      return err;
    return read(FUNC_BINARY_VERSION, res.binaryVersion);
  }

  /// Allows `function` `bytes` of dynamic shared memory; above 48 KiB that
  /// takes an explicit opt-in.
  llvm::Error allowDynamicShared(Module &module, uint64_t bytes) {
    if (bytes <= module.dynamicSharedLimit)
      return llvm::Error::success();
    if (CUresult r = library().api.cuFuncSetAttribute(
            module.function, FUNC_MAX_DYNAMIC_SHARED_SIZE_BYTES,
            static_cast<int>(bytes)))
      return fail(llvm::formatv("cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_"
                                "BYTES = {0}) of '{1}'",
                                bytes, module.name),
                  module.device, r);
    module.dynamicSharedLimit = bytes;
    return llvm::Error::success();
  }

  std::string path;
  std::once_flag loaded;
  std::unique_ptr<CudaLibrary> lib;
  std::mutex mutex;
  std::vector<Device> devices;
  ModuleTable<Module> modules{kBackendName};
};

} // namespace

std::unique_ptr<CudaDriver>
mlir::tessera::nvptx::createCudaDriver(std::string library) {
  return std::make_unique<CudaDriverImpl>(std::move(library));
}
