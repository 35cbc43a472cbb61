//===- Session.cpp - tessera._C.Session over runtime::Runtime -------------===//
//
// A Session opens the runtime as the CLI does: the same settings
// (runtime::SessionSettings) from the arguments, each left unset taken from
// its TESSERA_* variable, then the backend's default (auto: the first
// plugin with a device, else cpu).
//
//===----------------------------------------------------------------------===//
#include "Binding.h"

#include "tessera/Runtime/Device.h"
#include "tessera/Runtime/SessionFlags.h"

#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

using namespace tessera::python;
using namespace mlir::tessera;

PySession::PySession(std::unique_ptr<rt::Runtime> opened)
    : runtime(std::move(opened)) {
  backend = runtime->getPluginIdentity().name;
  if (rt::Device *device = runtime->getDevice()) {
    arch = device->getProperties().arch;
    deviceIndex = device->getIndex();
  }
  if (!runtime->getOptions().arch.empty())
    arch = runtime->getOptions().arch;
  if (arch.empty()) {
    // Compile-only without --arch: the backend's default architecture.
    llvm::Expected<TargetDescription> target =
        runtime->getBackend().describe("");
    if (target)
      arch = target->arch;
    else
      llvm::consumeError(target.takeError());
  }
  // The host CPU runs kernels on host memory; every other backend on a
  // device PyTorch calls "cuda" (NVIDIA's CUDA and AMD's ROCm builds alike).
  hostMemory = backend == rt::kFallbackBackend;
  torchDevice = hostMemory ? "cpu" : "cuda";
}

PySession::~PySession() = default;

static std::unique_ptr<rt::Runtime>
openSession(const std::string &backend, std::optional<int> device,
            const std::string &arch,
            const std::vector<std::string> &pluginPaths,
            std::optional<std::string> cacheDir,
            std::optional<bool> disableCache, const std::string &logLevel,
            bool compileOnly, const std::vector<std::string> &modulePaths) {
  rt::SessionSettings settings;
  settings.backend = backend;
  settings.pluginPaths = pluginPaths;
  settings.modulePaths = modulePaths;
  if (device) {
    if (*device < 0)
      throw nb::value_error(("device must be a device index (0, 1, ...), not " +
                             std::to_string(*device))
                                .c_str());
    settings.device = static_cast<unsigned>(*device);
  }
  settings.arch = arch;
  settings.cacheDirectory = std::move(cacheDir);
  settings.disableCache = disableCache;
  settings.logLevel = logLevel;
  llvm::Expected<rt::RuntimeOptions> options = settings.getRuntimeOptions();
  if (!options)
    throw nb::value_error(takeMessage(options.takeError()).c_str());
  options->compileOnly = compileOnly;
  return unwrap(rt::Runtime::open(*options));
}

void tessera::python::bindSession(nb::module_ &m) {
  nb::class_<PySession>(m, "Session",
                        "A runtime session over one backend and device "
                        "(runtime/Runtime.h).")
      .def(
          "__init__",
          [](PySession *self, const std::string &backend,
             std::optional<int> device, const std::string &arch,
             const std::vector<std::string> &pluginPaths,
             std::optional<std::string> cacheDir,
             std::optional<bool> disableCache, const std::string &logLevel,
             bool compileOnly, const std::vector<std::string> &modulePaths) {
            std::unique_ptr<rt::Runtime> opened = openSession(
                backend, device, arch, pluginPaths, std::move(cacheDir),
                disableCache, logLevel, compileOnly, modulePaths);
            new (self) PySession(std::move(opened));
          },
          nb::arg("backend") = "", nb::arg("device") = nb::none(),
          nb::arg("arch") = "",
          nb::arg("plugin_paths") = std::vector<std::string>(),
          nb::arg("cache_dir") = nb::none(),
          nb::arg("disable_cache") = nb::none(), nb::arg("log_level") = "",
          nb::arg("compile_only") = false,
          nb::arg("module_paths") = std::vector<std::string>())
      .def_prop_ro("backend", &PySession::getBackend)
      .def_prop_ro("arch", &PySession::getArch)
      .def_prop_ro(
          "compile_only",
          [](const PySession &s) { return s.getRuntime().isCompileOnly(); })
      .def_prop_ro("device_index", &PySession::getDeviceIndex)
      .def_prop_ro("torch_device", &PySession::getTorchDeviceType)
      .def_prop_ro("warp_size",
                   [](const PySession &s) -> unsigned {
                     if (rt::Device *device = s.getRuntime().getDevice())
                       return device->getProperties().warpSize;
                     llvm::Expected<TargetDescription> target =
                         s.getRuntime().getBackend().describe(s.getArch());
                     return target
                                ? target->warpSize
                                : (llvm::consumeError(target.takeError()), 1u);
                   })
      .def_prop_ro("device_name",
                   [](const PySession &s) -> std::string {
                     if (rt::Device *device = s.getRuntime().getDevice())
                       return device->getProperties().name;
                     return "";
                   })
      .def_prop_ro("cache_dir",
                   [](const PySession &s) -> std::optional<std::string> {
                     if (!s.getRuntime().getCache())
                       return std::nullopt;
                     return s.getRuntime().getOptions().cacheDirectory;
                   })
      .def(
          "device_properties",
          [](PySession &s) {
            rt::Device &device = unwrap(s.getRuntime().requireDevice());
            nb::dict props;
            props["name"] = device.getProperties().name;
            props["arch"] = device.getProperties().arch;
            for (const auto &[name, value] : device.getPropertyList())
              props[name.c_str()] = value;
            return props;
          },
          "The device's properties under Triton's names "
          "(multiprocessor_count, max_shared_mem, max_num_regs, warpSize, "
          "sm_clock_rate, mem_clock_rate, mem_bus_width), plus name and arch.")
      .def(
          "synchronize",
          [](PySession &s) {
            rt::Device &device = unwrap(s.getRuntime().requireDevice());
            check(device.synchronize());
          },
          "Waits for every launch on the session's stream to finish; reports "
          "what a kernel raised (a failed device assert, a fault).");
}
