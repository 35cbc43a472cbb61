//===- CudaLibrary.cpp - libcuda.so.1 loaded at run time ------------------===//
#include "CudaLibrary.h"

#include "llvm/Support/FormatVariadic.h"

#include <dlfcn.h>

using namespace mlir::tessera::nvptx;
using namespace mlir::tessera::nvptx::cuda;

namespace {
/// cuGetProcAddress_v2, the form with a query-result out-parameter.
using GetProcAddressFn = CUresult (*)(const char *, void **, int, uint64_t,
                                      int *);

/// Resolves `name` (asked for at kCudaApiVersion) or, failing that, the
/// exported `abiName`.
void *resolve(void *handle, GetProcAddressFn getProcAddress, const char *name,
              const char *abiName) {
  if (getProcAddress) {
    void *fn = nullptr;
    int status = -1;
    // The legacy default stream: our launch stream synchronizes with it,
    // which keeps copies and launches ordered.
    if (getProcAddress(name, &fn, kCudaApiVersion,
                       CU_GET_PROC_ADDRESS_LEGACY_STREAM,
                       &status) == CUDA_SUCCESS &&
        status == CU_GET_PROC_ADDRESS_SUCCESS && fn)
      return fn;
  }
  return dlsym(handle, abiName);
}
} // namespace

CudaLibrary::CudaLibrary(const std::string &path) {
  // Never closed: the driver keeps threads and state that outlive us.
  void *handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char *why = dlerror();
    reason = "cannot load " + path + " (" + (why ? why : "unknown error") +
             "): the NVIDIA driver is not installed";
    return;
  }
  auto getProcAddress =
      reinterpret_cast<GetProcAddressFn>(dlsym(handle, "cuGetProcAddress_v2"));
  std::string missing;
#define TESSERA_CUDA_SYMBOL(name, abiName, ret, params)                        \
  api.name = reinterpret_cast<ret(*) params>(                                  \
      resolve(handle, getProcAddress, #name, #abiName));                       \
  if (!api.name)                                                               \
    missing += (missing.empty() ? "" : ", ") + std::string(#abiName);
#include "CudaSymbols.def"
  if (!missing.empty()) {
    reason = path + " lacks " + missing + ": the NVIDIA driver is too old";
    return;
  }
  if (CUresult result = api.cuInit(0); result != CUDA_SUCCESS) {
    reason = "cuInit failed: " + describe(result);
    return;
  }
  if (api.cuDriverGetVersion(&driverVersion) != CUDA_SUCCESS)
    driverVersion = 0;
  usable = true;
}

std::string CudaLibrary::describe(CUresult result) const {
  const char *name = nullptr, *text = nullptr;
  // Both work before cuInit; without them only the number is known.
  if (api.cuGetErrorName && api.cuGetErrorName(result, &name) != CUDA_SUCCESS)
    name = nullptr;
  if (api.cuGetErrorString &&
      api.cuGetErrorString(result, &text) != CUDA_SUCCESS)
    text = nullptr;
  std::string s = name ? name : "CUDA error " + std::to_string(result);
  if (text)
    s += std::string(" (") + text + ")";
  else if (name)
    s += " (" + std::to_string(result) + ")";
  return s;
}

llvm::Error CudaLibrary::error(const llvm::Twine &step, unsigned device,
                               CUresult result) const {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 llvm::formatv("{0} on device {1}: {2}",
                                               step.str(), device,
                                               describe(result)));
}
