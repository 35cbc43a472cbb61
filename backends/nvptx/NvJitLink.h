//===- NvJitLink.h - libnvJitLink loaded at run time ------------*- C++ -*-===//
//
// nvJitLink assembles PTX into a cubin inside the process, without a
// subprocess and temporary files. It is opened with dlopen on first use and
// kept for the life of the process; its entry points are declared here from
// the documented C API, so that nothing of CUDA is needed at build time.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_BACKENDS_NVPTX_NVJITLINK_H
#define TESSERA_BACKENDS_NVPTX_NVJITLINK_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace mlir::tessera::nvptx {

/// The process's nvJitLink library.
class NvJitLink {
public:
  /// What one PTX compilation produced.
  struct Output {
    std::string cubin;
    /// The info log: with `-verbose`, ptxas-style resource lines.
    std::string infoLog;
  };

  /// The library, loaded on the first call (see getNvJitLinkCandidates()).
  /// The error, the same on every call, lists what was tried.
  static llvm::Expected<const NvJitLink &> get();

  /// What dlopen opened ("libnvJitLink.so.13", or a path).
  llvm::StringRef getLibrary() const { return library; }
  /// "13.0", or empty when the library does not say.
  llvm::StringRef getVersion() const { return version; }

  /// Compiles the PTX `ptx` (named `inputName` in logs) with nvJitLink
  /// `options` ("-arch=sm_90a", ...) into a cubin. The error carries the
  /// failing call, its result code and nvJitLink's error log.
  llvm::Expected<Output> compile(llvm::StringRef ptx, llvm::StringRef inputName,
                                 llvm::ArrayRef<std::string> options) const;

  struct Api;

private:
  NvJitLink() = default;

  std::string library;
  std::string version;
  const Api *api = nullptr;
};

} // namespace mlir::tessera::nvptx

#endif // TESSERA_BACKENDS_NVPTX_NVJITLINK_H
