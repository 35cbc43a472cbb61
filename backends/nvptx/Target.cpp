//===- Target.cpp - NVIDIA GPU architectures as target descriptions -------===//
//
// Per-architecture facts come from NVIDIA's published limits (CUDA
// programming guide, "Technical Specifications per Compute Capability")
// and the PTX ISA's target notes; see /work/notes-nvptx.md for the sources.
// The matrix-instruction table lists what the lowering can emit: warp-level
// `mma.sync` shapes on every supported chip, fp8 `mma.sync` from sm_89, and
// the warpgroup `wgmma.mma_async` shapes on sm_90a only (they do not exist
// on plain sm_90).
//
//===----------------------------------------------------------------------===//
#include "Target.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::tessera;
using namespace mlir::tessera::nvptx;

namespace {
/// One architecture Tessera supports and its opt-in shared memory per block
/// (the most a block may have after cuFuncSetAttribute).
struct ArchInfo {
  Arch arch;
  uint64_t maxSharedMemoryPerBlock;
};

constexpr uint64_t kKiB = 1024;

const ArchInfo kArchs[] = {
    {{8, 0, false}, 163 * kKiB}, {{8, 6, false}, 99 * kKiB},
    {{8, 7, false}, 163 * kKiB}, {{8, 9, false}, 99 * kKiB},
    {{9, 0, false}, 227 * kKiB}, {{9, 0, true}, 227 * kKiB},
};

const ArchInfo *lookup(const Arch &arch) {
  for (const ArchInfo &info : kArchs)
    if (info.arch == arch)
      return &info;
  return nullptr;
}

std::string acceptedNames() { return llvm::join(getArchitectures(), ", "); }

llvm::Error refuse(llvm::StringRef name, const llvm::Twine &why) {
  return llvm::createStringError(
      llvm::inconvertibleErrorCode(),
      "nvptx: unsupported architecture '" + name + "': " + why +
          "; Tessera's NVPTX backend needs sm_80 or newer and accepts " +
          acceptedNames());
}

MatrixInstruction mma(llvm::StringRef name, unsigned m, unsigned n, unsigned k,
                      llvm::StringRef ab, llvm::StringRef acc,
                      unsigned warps = 1, bool fromShared = false) {
  MatrixInstruction mi;
  mi.name = name.str();
  mi.m = m;
  mi.n = n;
  mi.k = k;
  mi.aType = ab.str();
  mi.bType = ab.str();
  mi.accType = acc.str();
  mi.warps = warps;
  mi.operandsFromShared = fromShared;
  return mi;
}

/// The matrix instructions of `arch`, preferred first: wgmma (a warpgroup,
/// operands from shared memory) before the warp-level mma.sync.
std::vector<MatrixInstruction> matrixInstructions(const Arch &arch) {
  std::vector<MatrixInstruction> table;
  if (arch.capability() == 90 && arch.archSpecific) {
    // wgmma.mma_async.m64nNkK: N is any multiple of 8 up to 256; `n` holds
    // the granule, the target's `wgmma-n` extra the range.
    constexpr char k16[] = "wgmma.m64nNk16";
    constexpr char k8[] = "wgmma.m64nNk8";
    constexpr char k32[] = "wgmma.m64nNk32";
    table.push_back(mma(k16, 64, 8, 16, "fp16", "fp32", 4, true));
    table.push_back(mma(k16, 64, 8, 16, "bf16", "fp32", 4, true));
    table.push_back(mma(k16, 64, 8, 16, "fp16", "fp16", 4, true));
    table.push_back(mma(k8, 64, 8, 8, "tf32", "fp32", 4, true));
    table.push_back(mma(k32, 64, 8, 32, "fp8e4nv", "fp32", 4, true));
    table.push_back(mma(k32, 64, 8, 32, "fp8e5", "fp32", 4, true));
    table.push_back(mma(k32, 64, 8, 32, "int8", "int32", 4, true));
  }
  table.push_back(mma("mma.sync.m16n8k16", 16, 8, 16, "fp16", "fp32"));
  table.push_back(mma("mma.sync.m16n8k16", 16, 8, 16, "bf16", "fp32"));
  table.push_back(mma("mma.sync.m16n8k16", 16, 8, 16, "fp16", "fp16"));
  table.push_back(mma("mma.sync.m16n8k8", 16, 8, 8, "tf32", "fp32"));
  table.push_back(mma("mma.sync.m16n8k32", 16, 8, 32, "int8", "int32"));
  if (arch.capability() >= 89) {
    // PTX 8.4 and sm_89; the lowering calls the LLVM intrinsic directly
    // because MLIR 22's nvvm.mma.sync refuses fp8 operands.
    table.push_back(mma("mma.sync.m16n8k32", 16, 8, 32, "fp8e4nv", "fp32"));
    table.push_back(mma("mma.sync.m16n8k32", 16, 8, 32, "fp8e5", "fp32"));
  }
  return table;
}

/// The element types kernels may use. fp8e4nv (e4m3) needs sm_89's
/// conversion instructions; fp8e5 is converted in software before that.
/// fp8e4b15 is left out from sm_90 on, as Triton deprecates it there. The
/// AMD-only fnuz types (fp8e4b8, fp8e5b16) are never accepted.
std::vector<std::string> dtypes(const Arch &arch) {
  std::vector<std::string> types = {
      "int1",   "int8",   "int16", "int32", "int64", "uint8", "uint16",
      "uint32", "uint64", "fp16",  "bf16",  "fp32",  "fp64",  "fp8e5"};
  if (arch.capability() < 90)
    types.push_back("fp8e4b15");
  if (arch.capability() >= 89)
    types.push_back("fp8e4nv");
  return types;
}
} // namespace

std::string Arch::str() const {
  return "sm_" + std::to_string(capability()) + (archSpecific ? "a" : "");
}

llvm::Expected<Arch> nvptx::parseArch(llvm::StringRef name) {
  std::string lower = name.trim().lower();
  llvm::StringRef rest(lower);
  rest.consume_front("sm_");
  bool archSpecific = rest.consume_back("a");
  unsigned capability = 0;
  if (rest.empty() || rest.size() > 3 || !llvm::all_of(rest, llvm::isDigit) ||
      rest.getAsInteger(10, capability))
    return refuse(name, "not an architecture name");
  Arch arch{capability / 10, capability % 10, archSpecific};
  if (lookup(arch))
    return arch;
  if (capability < 80)
    return refuse(name, "older than sm_80 (no cp.async, bf16 mma or "
                        "ldmatrix.trans used by the lowering)");
  if (archSpecific)
    return refuse(name, "no architecture-specific variant of sm_" +
                            llvm::Twine(capability) + " is supported");
  return refuse(name, "unknown to this version of Tessera");
}

std::vector<std::string> nvptx::getArchitectures() {
  std::vector<std::string> names;
  for (const ArchInfo &info : kArchs)
    names.push_back(info.arch.str());
  return names;
}

TargetDescription nvptx::describeArch(const Arch &arch) {
  const ArchInfo *info = lookup(arch);
  assert(info && "describeArch of an architecture parseArch refuses");
  unsigned cc = arch.capability();
  TargetDescription target;
  target.backend = kBackendName;
  target.arch = arch.str();
  target.warpSize = 32;
  target.maxThreadsPerBlock = 1024;
  target.sharedMemoryPerBlock = 48 * kKiB;
  target.maxSharedMemoryPerBlock = info->maxSharedMemoryPerBlock;
  target.registersPerBlock = 65536;
  target.maxRegistersPerThread = 255;
  target.maxVectorBits = 128;
  target.matrixInstructions = matrixInstructions(arch);
  target.dtypes = dtypes(arch);
  // cp.async from sm_80; TMA, clusters (portable size 8) from sm_90;
  // setmaxnreg, which warp specialization needs, only on sm_90a.
  target.asyncCopy = true;
  target.tensorMemoryCopy = cc >= 90;
  target.clusters = cc >= 90;
  target.maxClusterSize = cc >= 90 ? 8 : 1;
  target.warpSpecialization = cc == 90 && arch.archSpecific;
  target.inlineAsm = true;
  // What the lowering and the emitter need beyond the fields.
  target.extra["llvm-triple"] = kTriple;
  target.extra["llvm-cpu"] = arch.str();
  target.extra["ptx-features"] = kPtxFeatures;
  target.extra["ptx-version"] = kPtxVersion;
  target.extra["compute-capability"] = std::to_string(cc);
  if (cc == 90 && arch.archSpecific)
    target.extra["wgmma-n"] = "8..256 step 8";
  return target;
}

llvm::Expected<TargetDescription> nvptx::describeTarget(llvm::StringRef name) {
  llvm::Expected<Arch> arch = parseArch(name);
  if (!arch)
    return arch.takeError();
  return describeArch(*arch);
}

void nvptx::refineForDevice(TargetDescription &target,
                            const DeviceProperties &props) {
  if (props.multiprocessorCount)
    target.multiprocessorCount = props.multiprocessorCount;
  // A device (or a MIG slice, or a future driver) may allow less or more
  // than the table says; what it reports is what a launch can get.
  if (props.maxSharedMem)
    target.maxSharedMemoryPerBlock = props.maxSharedMem;
  if (props.maxNumRegs)
    target.registersPerBlock = props.maxNumRegs;
  if (props.warpSize)
    target.warpSize = props.warpSize;
}

llvm::Expected<TargetDescription>
nvptx::describeDevice(const DeviceProperties &props) {
  llvm::Expected<TargetDescription> target = describeTarget(props.arch);
  if (!target)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "nvptx: device '" + props.name + "': " +
                                       llvm::toString(target.takeError()));
  refineForDevice(*target, props);
  return target;
}
