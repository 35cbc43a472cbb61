//===- HipLibrary.h - libamdhip64 loaded at run time ------------*- C++ -*-===//
//
// Opens the HIP runtime with dlopen, resolves HipSymbols.def with dlsym and
// calls hipInit. Failure is a state, not an error: the reason says what was
// missing, for Driver::getUnavailableReason().
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_BACKENDS_AMDGPU_HIPLIBRARY_H
#define TESSERA_BACKENDS_AMDGPU_HIPLIBRARY_H

#include "HipApi.h"

#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"

#include <string>

namespace mlir::tessera::amdgpu {

/// The HIP runtime of the process, loaded or not.
struct HipLibrary {
  /// Loads `path`, or when it is empty the first of libamdhip64.so.7,
  /// libamdhip64.so.6, libamdhip64.so and /opt/rocm/lib/libamdhip64.so that
  /// loads, and initializes the runtime; never fails, see `usable`.
  explicit HipLibrary(const std::string &path);

  /// True when every entry point resolved and hipInit succeeded.
  bool usable = false;
  /// Why it is not usable; empty when it is.
  std::string reason;
  /// The library that was opened; empty when none was.
  std::string path;
  /// The runtime's version (hipDriverGetVersion), 0 when unknown.
  int driverVersion = 0;
  hip::Api api;

  /// "hipErrorInvalidImage (invalid kernel file)".
  std::string describe(hip::hipError_t result) const;

  /// The error of a failed HIP call: "amdgpu device <N>: <step>: <describe>".
  llvm::Error error(const llvm::Twine &step, unsigned device,
                    hip::hipError_t result) const;
};

} // namespace mlir::tessera::amdgpu

#endif // TESSERA_BACKENDS_AMDGPU_HIPLIBRARY_H
