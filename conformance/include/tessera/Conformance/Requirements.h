//===- Requirements.h - What a case needs from the target -------*- C++ -*-===//
//
// A case lists what it cannot run without: element types and the few
// hardware features that have no fallback. The runner compares the
// list with the plugin's TargetDescription and reports the case as
// not-supported, with the reason, instead of running it. Features the core
// lowers without hardware help (tensor descriptors without bulk copies, dots
// without matrix instructions, warp-specialization hints) are not
// requirements: those cases must pass everywhere. Neither is num_warps: a
// target maps warps as it likes (the cpu runs a program on one thread).
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_CONFORMANCE_REQUIREMENTS_H
#define TESSERA_CONFORMANCE_REQUIREMENTS_H

#include "tessera/Target/TargetDescription.h"

#include <optional>
#include <string>
#include <vector>

namespace mlir::tessera::conformance {

struct Requirements {
  /// Triton dtype names of every tensor and scalar the kernel touches.
  std::vector<std::string> dtypes;
  /// Bulk tensor copies that the kernel cannot do without.
  bool tensorMemoryCopy = false;
  /// Block clusters.
  bool clusters = false;
  /// Warp-specialized partitions with register budgets.
  bool warpSpecialization = false;
  /// Inline assembly.
  bool inlineAsm = false;

  /// Adds `dtype` to `dtypes` unless present.
  Requirements &addDType(llvm::StringRef dtype);
};

/// Why `target` cannot run a case needing `requirements`, or nullopt when
/// it can. The reason names every missing piece ("no fp8e4nv in the
/// target's dtypes").
std::optional<std::string>
getUnsupportedReason(const Requirements &requirements,
                     const TargetDescription &target);

} // namespace mlir::tessera::conformance

#endif // TESSERA_CONFORMANCE_REQUIREMENTS_H
