//===- NvJitLink.cpp - libnvJitLink loaded at run time --------------------===//
//
// The entry points are resolved by their unversioned exported names
// (nvJitLinkCreate, ...), which CUDA 12 and 13 both export with the
// signatures below; the header's inline wrappers call versioned aliases
// (__nvJitLinkCreate_13_0) that would tie us to one release.
//
//===----------------------------------------------------------------------===//
#include "NvJitLink.h"
#include "Toolkit.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <cstdint>
#include <dlfcn.h>
#include <type_traits>
#include <vector>

using namespace mlir::tessera::nvptx;

namespace {

/// nvJitLinkResult; a C enum, passed as int.
enum Result : int { kSuccess = 0 };

/// nvJitLinkInputType's NVJITLINK_INPUT_PTX.
enum InputType : int { kInputPtx = 2 };

/// nvJitLinkHandle, an opaque pointer.
struct LinkState;
using Handle = LinkState *;

using CreateFn = Result (*)(Handle *, uint32_t, const char *const *);
using DestroyFn = Result (*)(Handle *);
using AddDataFn = Result (*)(Handle, InputType, const void *, size_t,
                             const char *);
using CompleteFn = Result (*)(Handle);
using GetSizeFn = Result (*)(Handle, size_t *);
using GetCubinFn = Result (*)(Handle, void *);
using GetLogFn = Result (*)(Handle, char *);
using VersionFn = Result (*)(unsigned *, unsigned *);

/// nvJitLinkResult's names, by value, as the header enumerates them.
const char *const kResultNames[] = {
    "NVJITLINK_SUCCESS",
    "NVJITLINK_ERROR_UNRECOGNIZED_OPTION",
    "NVJITLINK_ERROR_MISSING_ARCH",
    "NVJITLINK_ERROR_INVALID_INPUT",
    "NVJITLINK_ERROR_PTX_COMPILE",
    "NVJITLINK_ERROR_NVVM_COMPILE",
    "NVJITLINK_ERROR_INTERNAL",
    "NVJITLINK_ERROR_THREADPOOL",
    "NVJITLINK_ERROR_UNRECOGNIZED_INPUT",
    "NVJITLINK_ERROR_FINALIZE",
    "NVJITLINK_ERROR_NULL_INPUT",
    "NVJITLINK_ERROR_INCOMPATIBLE_OPTIONS",
    "NVJITLINK_ERROR_INCORRECT_INPUT_TYPE",
    "NVJITLINK_ERROR_ARCH_MISMATCH",
    "NVJITLINK_ERROR_OUTDATED_LIBRARY",
    "NVJITLINK_ERROR_MISSING_FATBIN",
    "NVJITLINK_ERROR_UNRECOGNIZED_ARCH",
    "NVJITLINK_ERROR_UNSUPPORTED_ARCH",
    "NVJITLINK_ERROR_LTO_NOT_ENABLED",
};

std::string describe(Result result) {
  auto index = static_cast<size_t>(result);
  std::string name = index < std::size(kResultNames)
                         ? kResultNames[index]
                         : "nvJitLink error " + std::to_string(result);
  return name + " (" + std::to_string(result) + ")";
}

} // namespace

struct NvJitLink::Api {
  CreateFn create = nullptr;
  DestroyFn destroy = nullptr;
  AddDataFn addData = nullptr;
  CompleteFn complete = nullptr;
  GetSizeFn getLinkedCubinSize = nullptr;
  GetCubinFn getLinkedCubin = nullptr;
  GetSizeFn getErrorLogSize = nullptr;
  GetLogFn getErrorLog = nullptr;
  GetSizeFn getInfoLogSize = nullptr;
  GetLogFn getInfoLog = nullptr;
  /// Not in every release; only for reports.
  VersionFn version = nullptr;
};

llvm::Expected<const NvJitLink &> NvJitLink::get() {
  struct Loaded {
    NvJitLink library;
    Api api;
    std::string error;
  };
  // Loaded once: a library that is not there now will not appear later in
  // a way we should pick up halfway through a process. Never closed.
  static const Loaded *loaded = [] {
    auto *result = new Loaded();
    std::vector<std::string> failures;
    for (const std::string &candidate : getNvJitLinkCandidates()) {
      void *handle = dlopen(candidate.c_str(), RTLD_NOW | RTLD_LOCAL);
      if (!handle) {
        const char *why = dlerror();
        failures.push_back(candidate + " (" + (why ? why : "not loadable") +
                           ")");
        continue;
      }
      Api api;
      std::vector<std::string> missing;
      auto resolve = [&](auto &fn, const char *name) {
        fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(
            dlsym(handle, name));
        if (!fn)
          missing.push_back(name);
      };
      resolve(api.create, "nvJitLinkCreate");
      resolve(api.destroy, "nvJitLinkDestroy");
      resolve(api.addData, "nvJitLinkAddData");
      resolve(api.complete, "nvJitLinkComplete");
      resolve(api.getLinkedCubinSize, "nvJitLinkGetLinkedCubinSize");
      resolve(api.getLinkedCubin, "nvJitLinkGetLinkedCubin");
      resolve(api.getErrorLogSize, "nvJitLinkGetErrorLogSize");
      resolve(api.getErrorLog, "nvJitLinkGetErrorLog");
      resolve(api.getInfoLogSize, "nvJitLinkGetInfoLogSize");
      resolve(api.getInfoLog, "nvJitLinkGetInfoLog");
      if (!missing.empty()) {
        failures.push_back(candidate + " (lacks " + llvm::join(missing, ", ") +
                           ")");
        dlclose(handle);
        continue;
      }
      api.version =
          reinterpret_cast<VersionFn>(dlsym(handle, "nvJitLinkVersion"));
      unsigned major = 0, minor = 0;
      if (api.version && api.version(&major, &minor) == kSuccess)
        result->library.version = llvm::formatv("{0}.{1}", major, minor);
      result->api = api;
      result->library.api = &result->api;
      result->library.library = candidate;
      return static_cast<const Loaded *>(result);
    }
    result->error = "nvptx: nvJitLink not found; tried " +
                    llvm::join(failures, ", ") + " (set $" +
                    std::string(kNvJitLinkEnv) +
                    " to libnvJitLink.so of CUDA 12 or newer)";
    return static_cast<const Loaded *>(result);
  }();
  if (!loaded->error.empty())
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   loaded->error);
  return loaded->library;
}

llvm::Expected<NvJitLink::Output>
NvJitLink::compile(llvm::StringRef ptx, llvm::StringRef inputName,
                   llvm::ArrayRef<std::string> options) const {
  std::string who =
      "nvJitLink (" + library + (version.empty() ? "" : " " + version) + ")";
  std::vector<const char *> argv;
  for (const std::string &option : options)
    argv.push_back(option.c_str());
  Handle handle = nullptr;
  if (Result r = api->create(&handle, argv.size(), argv.data()); r != kSuccess)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   who + ": nvJitLinkCreate with options '" +
                                       llvm::join(options, " ") +
                                       "' failed: " + describe(r));
  llvm::scope_exit destroy([&] { api->destroy(&handle); });

  auto readLog = [&](GetSizeFn getSize, GetLogFn getLog) {
    size_t size = 0;
    if (getSize(handle, &size) != kSuccess || size == 0)
      return std::string();
    std::string log(size, '\0');
    if (getLog(handle, log.data()) != kSuccess)
      return std::string();
    // The size counts the terminating NUL.
    return llvm::StringRef(log.c_str()).rtrim().str();
  };
  auto fail = [&](llvm::StringRef step, Result r) {
    std::string log = readLog(api->getErrorLogSize, api->getErrorLog);
    if (log.empty())
      log = readLog(api->getInfoLogSize, api->getInfoLog);
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        who + ": " + step + " failed: " + describe(r) +
            (log.empty() ? std::string() : "\n" + log));
  };

  // The PTX is compiled here already, so syntax errors surface from
  // nvJitLinkAddData rather than nvJitLinkComplete.
  std::string name = inputName.str();
  if (Result r =
          api->addData(handle, kInputPtx, ptx.data(), ptx.size(), name.c_str());
      r != kSuccess)
    return fail("nvJitLinkAddData", r);
  if (Result r = api->complete(handle); r != kSuccess)
    return fail("nvJitLinkComplete", r);
  size_t size = 0;
  if (Result r = api->getLinkedCubinSize(handle, &size); r != kSuccess)
    return fail("nvJitLinkGetLinkedCubinSize", r);
  Output output;
  output.cubin.resize(size);
  if (Result r = api->getLinkedCubin(handle, output.cubin.data());
      r != kSuccess)
    return fail("nvJitLinkGetLinkedCubin", r);
  output.infoLog = readLog(api->getInfoLogSize, api->getInfoLog);
  return output;
}
