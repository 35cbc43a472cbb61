//===- Target.h - NVIDIA architectures as target descriptions ---*- C++ -*-===//
//
// The declarative half of the NVPTX target: which architectures Tessera
// compiles for (sm_80 and newer), and what each of them can do, as a
// TargetDescription. Nothing here needs a GPU, the CUDA toolkit or LLVM's
// NVPTX code generator.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_BACKENDS_NVPTX_TARGET_H
#define TESSERA_BACKENDS_NVPTX_TARGET_H

#include "tessera/Backend/Driver.h"
#include "tessera/Target/TargetDescription.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace mlir::tessera::nvptx {

/// The name users select the backend by (`--backend nvptx`).
inline constexpr char kBackendName[] = "nvptx";

/// The PTX ISA version every architecture is compiled with. One explicit
/// version, because LLVM's default is the minimum for the chip and several
/// instructions we need are newer: fp8 `mma` needs 8.4, TMA into
/// `.shared::cta` needs 8.6 (CUDA 12.7 tools and driver or newer).
inline constexpr char kPtxVersion[] = "8.6";
inline constexpr char kPtxFeatures[] = "+ptx86";

/// The LLVM triple the lowering targets.
inline constexpr char kTriple[] = "nvptx64-nvidia-cuda";

/// A compute capability Tessera compiles for.
struct Arch {
  unsigned major = 0;
  unsigned minor = 0;
  /// The architecture-specific variant ("sm_90a"): wgmma, setmaxnreg, ...
  bool archSpecific = false;

  /// major * 10 + minor (80, 86, 90, ...).
  unsigned capability() const { return major * 10 + minor; }
  /// The canonical name, "sm_80" or "sm_90a"; also LLVM's CPU name.
  std::string str() const;
  bool operator==(const Arch &) const = default;
};

/// Parses `sm_80`, `sm_86`, `sm_87`, `sm_89`, `sm_90`, `sm_90a`, also
/// without the `sm_` prefix and in any case. Older or unknown
/// architectures are refused with an error listing the accepted names.
llvm::Expected<Arch> parseArch(llvm::StringRef name);

/// The canonical names of every accepted architecture, oldest first.
std::vector<std::string> getArchitectures();

/// The target description of `arch`, from the architecture alone (the
/// device's multiprocessor count is unknown: 0).
TargetDescription describeArch(const Arch &arch);

/// parseArch() then describeArch().
llvm::Expected<TargetDescription> describeTarget(llvm::StringRef name);

/// Refines `target` with what a present device reports: its
/// multiprocessor count, and its opt-in shared memory and registers per
/// block where the device states them. The architecture stays the same.
void refineForDevice(TargetDescription &target, const DeviceProperties &props);

/// The description of the device `props` describes: its architecture,
/// refined with its properties. Fails when Tessera does not support the
/// device's architecture.
llvm::Expected<TargetDescription> describeDevice(const DeviceProperties &props);

} // namespace mlir::tessera::nvptx

#endif // TESSERA_BACKENDS_NVPTX_TARGET_H
