//===- Runtime.cpp - A session over one backend and device ----------------===//
#include "tessera/Runtime/Runtime.h"

#include "tessera/Frontend/Language.h"
#include "tessera/Runtime/Environment.h"
#include "tessera/Runtime/TunedKernel.h"
#include "tessera/Support/Logging.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace mlir::tessera;
using namespace mlir::tessera::runtime;

DumpOptions mlir::tessera::runtime::getEnvironmentDumpOptions() {
  DumpOptions dump;
  if (std::optional<std::string> after =
          getEnvironmentValue(kDumpIRAfterEnvVar)) {
    llvm::SmallVector<llvm::StringRef> stages;
    llvm::StringRef(*after).split(stages, ',', -1, /*KeepEmpty=*/false);
    for (llvm::StringRef stage : stages)
      dump.after.push_back(stage.trim().str());
  }
  if (std::optional<std::string> dir = getEnvironmentValue(kDumpDirEnvVar))
    dump.directory = *dir;
  return dump;
}

RuntimeOptions
mlir::tessera::runtime::resolveRuntimeOptions(RuntimeOptions options) {
  options.backend = resolveBackendRequest(options.backend);
  if (!options.device) {
    options.device = 0;
    if (std::optional<std::string> text = getEnvironmentValue(kDeviceEnvVar)) {
      unsigned index;
      if (llvm::StringRef(*text).trim().getAsInteger(10, index))
        getLogger().warn("{}='{}' is not a device index; using device 0",
                         kDeviceEnvVar.str(), *text);
      else
        options.device = index;
    }
  }
  if (options.arch.empty())
    options.arch = getEnvironmentValue(kArchEnvVar).value_or("");
  if (!options.cacheDirectory)
    options.cacheDirectory = getDefaultCacheDirectory();
  if (!options.disableCache)
    options.disableCache = isEnvironmentFlagSet(kDisableCacheEnvVar);
  if (!options.dump)
    options.dump = getEnvironmentDumpOptions();
  return options;
}

/// A compile-only session compiles for `arch`, else for what the backend
/// describes by default, which is its first device's architecture: without
/// a device there is nothing to describe, and an architecture must be named.
static llvm::Error checkCompileOnlyArch(Backend &backend,
                                        llvm::StringRef backendName,
                                        llvm::StringRef arch) {
  if (!arch.empty() || backend.getDriver().getDeviceCount() > 0)
    return llvm::Error::success();
  std::string why = backend.getDriver().getUnavailableReason();
  return llvm::createStringError(
      llvm::inconvertibleErrorCode(),
      "backend '" + backendName + "' has no device" +
          (why.empty() ? std::string() : " (" + why + ")") +
          ": compiling without one needs an architecture (--arch or " +
          kArchEnvVar.str() +
          "; it knows: " + llvm::join(backend.getArchitectures(), ", ") + ")");
}

Runtime::~Runtime() {
  // Kernels unload their modules through the device's driver: before it.
  kernels.clear();
}

llvm::Expected<std::unique_ptr<Runtime>>
Runtime::create(SelectedBackend selected, RuntimeOptions options) {
  std::unique_ptr<Runtime> rt(new Runtime());
  rt->options = resolveRuntimeOptions(std::move(options));
  rt->backend = std::move(selected);
  // Programs test for the target's own language module (`hasattr(tl.extra,
  // NAME)`) before any of their code is evaluated for this runtime.
  for (const std::string &name : rt->backend.backend->getLanguageModules())
    ::tessera::frontend::addTargetLanguageModule(name);
  if (rt->options.compileOnly) {
    if (llvm::Error err = checkCompileOnlyArch(
            *rt->backend.backend, rt->backend.identity.name, rt->options.arch))
      return std::move(err);
  } else {
    llvm::Expected<std::unique_ptr<Device>> device =
        Device::open(rt->backend.backend, *rt->options.device);
    if (device)
      rt->device = std::move(*device);
    else if (!rt->options.allowNoDevice)
      return device.takeError();
    else
      getLogger().debug("{}", llvm::toString(device.takeError()));
  }
  if (!*rt->options.disableCache && !rt->options.cacheDirectory->empty()) {
    rt->cache = std::make_unique<DiskCache>(*rt->options.cacheDirectory);
    rt->tuningStore =
        std::make_unique<TuningStore>(*rt->options.cacheDirectory);
  }
  rt->compiler = std::make_unique<KernelCompiler>(
      rt->backend.backend, rt->backend.identity, rt->cache.get());
  rt->compiler->setDumpOptions(*rt->options.dump);
  return rt;
}

llvm::Expected<Device &> Runtime::requireDevice() {
  if (device)
    return *device;
  if (options.compileOnly)
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "backend '" + backend.identity.name +
            "': this session compiles only and uses no device");
  llvm::Expected<std::unique_ptr<Device>> opened =
      Device::open(backend.backend, *options.device);
  if (!opened)
    return opened.takeError();
  device = std::move(*opened);
  return *device;
}

llvm::Expected<Buffer> Runtime::allocate(size_t bytes,
                                         llvm::StringRef elementType) {
  llvm::Expected<Device &> d = requireDevice();
  if (!d)
    return d.takeError();
  return d->allocate(bytes, elementType);
}

llvm::Expected<std::shared_ptr<KernelSource>>
Runtime::getSource(llvm::StringRef path) {
  llvm::SmallString<256> absolute(path);
  (void)llvm::sys::fs::make_absolute(absolute);
  llvm::sys::path::remove_dots(absolute, /*remove_dot_dot=*/true);
  std::lock_guard<std::mutex> lock(mutex);
  auto it = sources.find(absolute);
  if (it != sources.end())
    return it->getValue();
  llvm::Expected<std::unique_ptr<KernelSource>> source =
      KernelSource::load(path, resolveModuleSearchPath(options.modulePaths));
  if (!source)
    return source.takeError();
  std::shared_ptr<KernelSource> shared = std::move(*source);
  sources[absolute] = shared;
  return shared;
}

llvm::Expected<TunedKernel &> Runtime::getKernel(llvm::StringRef path,
                                                 llvm::StringRef name) {
  llvm::Expected<std::shared_ptr<KernelSource>> source = getSource(path);
  if (!source)
    return source.takeError();
  auto key = std::make_pair((*source)->getPath().str(), name.str());
  std::lock_guard<std::mutex> lock(mutex);
  auto it = kernels.find(key);
  if (it != kernels.end())
    return *it->second;
  llvm::Expected<std::unique_ptr<JitKernel>> kernel =
      JitKernel::create(*this, *source, name);
  if (!kernel)
    return kernel.takeError();
  llvm::Expected<std::unique_ptr<TunedKernel>> tuned =
      TunedKernel::create(std::move(*kernel));
  if (!tuned)
    return tuned.takeError();
  TunedKernel &result = **tuned;
  kernels.emplace(std::move(key), std::move(*tuned));
  return result;
}

llvm::Expected<JitKernel &> Runtime::getJitKernel(llvm::StringRef path,
                                                  llvm::StringRef name) {
  llvm::Expected<TunedKernel &> kernel = getKernel(path, name);
  if (!kernel)
    return kernel.takeError();
  return kernel->getJitKernel();
}
