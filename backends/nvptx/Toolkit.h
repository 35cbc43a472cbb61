//===- Toolkit.h - Where the CUDA toolkit's pieces are ----------*- C++ -*-===//
//
// The emitter uses three files of the CUDA toolkit when they exist, none of
// them at build time: libdevice's bitcode, `ptxas` and libnvJitLink. Each
// is found through its own environment variable first, then the usual
// places; a failed search names every place it looked.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_BACKENDS_NVPTX_TOOLKIT_H
#define TESSERA_BACKENDS_NVPTX_TOOLKIT_H

#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace mlir::tessera::nvptx {

/// The file libdevice.10.bc, searched before the toolkit.
inline constexpr char kLibdeviceEnv[] = "TESSERA_LIBDEVICE";
/// The `ptxas` executable, searched before PATH and the toolkit.
inline constexpr char kPtxasEnv[] = "TESSERA_PTXAS";
/// The nvJitLink shared library (a path or a name for dlopen), tried
/// before the usual names.
inline constexpr char kNvJitLinkEnv[] = "TESSERA_NVJITLINK";

/// The directories that may hold a CUDA toolkit, in search order:
/// $CUDA_HOME, $CUDA_PATH (when set), /usr/local/cuda.
std::vector<std::string> getCudaRoots();

/// libdevice.10.bc: $TESSERA_LIBDEVICE, else
/// nvvm/libdevice/libdevice.10.bc under each CUDA root. A set but wrong
/// $TESSERA_LIBDEVICE is an error, not a reason to use another file.
llvm::Expected<std::string> findLibdevice();

/// `ptxas`: $TESSERA_PTXAS, else PATH, else bin/ptxas under each CUDA root.
/// A set but wrong $TESSERA_PTXAS is an error.
llvm::Expected<std::string> findPtxas();

/// What dlopen should try for nvJitLink, in order: $TESSERA_NVJITLINK
/// alone when set; else libnvJitLink.so.13, .so.12 and .so by name, then
/// the same under lib64/ of each CUDA root.
std::vector<std::string> getNvJitLinkCandidates();

} // namespace mlir::tessera::nvptx

#endif // TESSERA_BACKENDS_NVPTX_TOOLKIT_H
