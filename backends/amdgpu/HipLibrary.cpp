//===- HipLibrary.cpp - libamdhip64 loaded at run time --------------------===//
#include "HipLibrary.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <dlfcn.h>
#include <iterator>
#include <vector>

using namespace mlir::tessera::amdgpu;
using namespace mlir::tessera::amdgpu::hip;

namespace {
/// The runtime's sonames, newest first, then the development link and
/// ROCm's default prefix for when /opt/rocm/lib is not in the loader path.
constexpr const char *kCandidates[] = {
    "libamdhip64.so.7",
    "libamdhip64.so.6",
    "libamdhip64.so",
    "/opt/rocm/lib/libamdhip64.so",
};

/// True when dlopen's `error` says `name` itself does not exist, rather
/// than that it exists but cannot load (a missing dependency, say).
bool isNotFound(llvm::StringRef error, llvm::StringRef name) {
  return error.starts_with((name + ": cannot open shared object file").str());
}
} // namespace

HipLibrary::HipLibrary(const std::string &requested) {
  std::vector<std::string> candidates;
  if (requested.empty())
    candidates.assign(std::begin(kCandidates), std::end(kCandidates));
  else
    candidates.push_back(requested);
  // Never closed: the runtime keeps threads and state that outlive us.
  void *handle = nullptr;
  std::string why;
  bool foundNone = true;
  for (const std::string &candidate : candidates) {
    handle = dlopen(candidate.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle) {
      path = candidate;
      break;
    }
    const char *error = dlerror();
    std::string text = error ? error : "unknown error";
    // A library that is there but fails to load explains more than the
    // candidates that are not there.
    if (foundNone && (why.empty() || !isNotFound(text, candidate))) {
      why = text;
      foundNone = isNotFound(text, candidate);
    }
  }
  if (!handle) {
    std::string tried = candidates.back();
    if (candidates.size() > 1) {
      tried = llvm::join(llvm::ArrayRef(candidates).drop_back(), ", ") +
              " or " + tried;
      if (foundNone)
        why = "none of them is found";
    }
    reason = "cannot load " + tried + " (" + why +
             "): the ROCm HIP runtime is not installed";
    return;
  }
  std::string missing;
#define TESSERA_HIP_SYMBOL(name, ret, params)                                  \
  api.name = reinterpret_cast<ret(*) params>(dlsym(handle, #name));            \
  if (!api.name)                                                               \
    missing += (missing.empty() ? "" : ", ") + std::string(#name);
#include "HipSymbols.def"
  if (!missing.empty()) {
    reason = path + " lacks " + missing +
             ": it is not the HIP runtime of ROCm 6 or later";
    return;
  }
  if (hipError_t result = api.hipInit(0); result != hipSuccess) {
    // Where ROCm is installed without a GPU (or without access to
    // /dev/kfd), hipInit is where the runtime finds no device.
    reason =
        result == hipErrorNoDevice
            ? "the HIP runtime found no AMD GPU (hipInit: " + describe(result) +
                  ")"
            : "hipInit failed: " + describe(result);
    return;
  }
  if (api.hipDriverGetVersion(&driverVersion) != hipSuccess)
    driverVersion = 0;
  usable = true;
}

std::string HipLibrary::describe(hipError_t result) const {
  // Both work before hipInit; without them only the number is known.
  const char *name =
      api.hipGetErrorName ? api.hipGetErrorName(result) : nullptr;
  const char *text =
      api.hipGetErrorString ? api.hipGetErrorString(result) : nullptr;
  std::string s = name ? name : "HIP error " + std::to_string(result);
  if (text && *text)
    s += std::string(" (") + text + ")";
  else if (name)
    s += " (" + std::to_string(result) + ")";
  return s;
}

llvm::Error HipLibrary::error(const llvm::Twine &step, unsigned device,
                              hipError_t result) const {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 llvm::formatv("amdgpu device {0}: {1}: {2}",
                                               device, step.str(),
                                               describe(result)));
}
