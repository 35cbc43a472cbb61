//===- Target.h - AMD CDNA architectures as target descriptions -*- C++ -*-===//
//
// The declarative half of the AMDGPU target: which architectures Tessera
// compiles for (CDNA2 gfx90a, CDNA3 gfx942, CDNA4 gfx950) and what each can
// do, as a TargetDescription: 64-lane wavefronts, LDS size, the unified
// VGPR/AGPR budget and the MFMA instructions the lowering emits. Nothing
// here needs a GPU, ROCm or LLVM's AMDGPU code generator.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_BACKENDS_AMDGPU_TARGET_H
#define TESSERA_BACKENDS_AMDGPU_TARGET_H

#include "tessera/Backend/Driver.h"
#include "tessera/Target/TargetDescription.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace mlir::tessera::amdgpu {

/// The name users select the backend by (`--backend amdgpu`).
inline constexpr char kBackendName[] = "amdgpu";

/// The LLVM triple the lowering targets (HSA code objects).
inline constexpr char kTriple[] = "amdgcn-amd-amdhsa";

/// The code object version of the HSACO files (what ROCm 6 loads).
inline constexpr unsigned kCodeObjectVersion = 500;

/// A CDNA architecture Tessera compiles for.
struct Arch {
  /// LLVM's processor name: "gfx90a", "gfx942", "gfx950".
  std::string name;
  /// The CDNA generation (2, 3, 4).
  unsigned cdna = 0;
  /// The ISA version as the device libraries spell it (9010, 9402, 9500).
  unsigned isaVersion = 0;
  /// LDS bytes one workgroup may use.
  uint64_t ldsBytes = 0;

  bool operator==(const Arch &) const = default;
};

/// Parses `gfx90a`, `gfx942` or `gfx950` (any case; a target-id feature
/// suffix such as `:sramecc+:xnack-` is ignored). Unknown architectures are
/// refused with an error listing the accepted names.
llvm::Expected<Arch> parseArch(llvm::StringRef name);

/// The names of every accepted architecture, oldest first.
std::vector<std::string> getArchitectures();

/// The target description of `arch` from the architecture alone (the
/// device's compute-unit count is unknown: 0).
TargetDescription describeArch(const Arch &arch);

/// parseArch() then describeArch().
llvm::Expected<TargetDescription> describeTarget(llvm::StringRef name);

/// The description of the device `props` describes, refined with its
/// compute units, LDS and registers. Fails on an unsupported architecture.
llvm::Expected<TargetDescription> describeDevice(const DeviceProperties &props);

} // namespace mlir::tessera::amdgpu

#endif // TESSERA_BACKENDS_AMDGPU_TARGET_H
