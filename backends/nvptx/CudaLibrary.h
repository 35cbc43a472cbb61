//===- CudaLibrary.h - libcuda.so.1 loaded at run time ----------*- C++ -*-===//
//
// Opens the CUDA driver library with dlopen, resolves CudaSymbols.def
// through cuGetProcAddress (pinned to kCudaApiVersion) or dlsym, and calls
// cuInit. Failure is a state, not an error: the reason says what was
// missing, for Driver::getUnavailableReason().
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_BACKENDS_NVPTX_CUDALIBRARY_H
#define TESSERA_BACKENDS_NVPTX_CUDALIBRARY_H

#include "CudaApi.h"

#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"

#include <string>

namespace mlir::tessera::nvptx {

/// The CUDA driver library of the process, loaded or not.
struct CudaLibrary {
  /// Loads `path` and initializes the driver; never fails, see `usable`.
  explicit CudaLibrary(const std::string &path);

  /// True when every entry point resolved and cuInit succeeded.
  bool usable = false;
  /// Why it is not usable; empty when it is.
  std::string reason;
  /// The driver's CUDA version (cuDriverGetVersion), 0 when unknown.
  int driverVersion = 0;
  cuda::Api api;

  /// "CUDA_ERROR_INVALID_IMAGE (device kernel image is invalid)".
  std::string describe(cuda::CUresult result) const;

  /// The error of a failed CUDA call: "<step> on device <N>: <describe>".
  llvm::Error error(const llvm::Twine &step, unsigned device,
                    cuda::CUresult result) const;
};

} // namespace mlir::tessera::nvptx

#endif // TESSERA_BACKENDS_NVPTX_CUDALIBRARY_H
