//===- Target.cpp - AMD CDNA architectures as target descriptions ---------===//
//
// Per-architecture facts come from AMD's CDNA2/CDNA3/CDNA4 instruction set
// architecture guides and LLVM's AMDGPU processor table: 64-lane
// wavefronts, 64 KiB of LDS per workgroup (160 KiB on CDNA4), 512 vector
// registers per lane shared between architectural VGPRs and accumulation
// AGPRs (at most 256 of each), 102 scalar registers. The MFMA table lists
// what MfmaLowering.cpp emits, 32x32 blocks before 16x16 ones; fp8 MFMA
// reads AMD's "fnuz" formats on CDNA3 and the OCP formats on CDNA4.
//
//===----------------------------------------------------------------------===//
#include "Target.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mlir::tessera;
using namespace mlir::tessera::amdgpu;

namespace {

constexpr uint64_t kKiB = 1024;

const Arch kArchs[] = {
    {"gfx90a", 2, 9010, 64 * kKiB},
    {"gfx942", 3, 9402, 64 * kKiB},
    {"gfx950", 4, 9500, 160 * kKiB},
};

MatrixInstruction mfma(llvm::StringRef name, unsigned size, unsigned k,
                       llvm::StringRef ab, llvm::StringRef acc) {
  MatrixInstruction mi;
  mi.name = name.str();
  mi.m = size;
  mi.n = size;
  mi.k = k;
  mi.aType = ab.str();
  mi.bType = ab.str();
  mi.accType = acc.str();
  return mi;
}

/// The MFMA instructions of `arch`, preferred first. Names are the LLVM
/// intrinsics' without the `llvm.amdgcn.` prefix.
std::vector<MatrixInstruction> matrixInstructions(const Arch &arch) {
  std::vector<MatrixInstruction> table;
  auto both = [&](llvm::StringRef big, llvm::StringRef small, unsigned kBig,
                  llvm::StringRef ab, llvm::StringRef acc) {
    table.push_back(mfma(big, 32, kBig, ab, acc));
    table.push_back(mfma(small, 16, 2 * kBig, ab, acc));
  };
  both("mfma.f32.32x32x8f16", "mfma.f32.16x16x16f16", 8, "fp16", "fp32");
  both("mfma.f32.32x32x8bf16.1k", "mfma.f32.16x16x16bf16.1k", 8, "bf16",
       "fp32");
  // fp32 at full precision also serves tf32 (more precise than asked).
  both("mfma.f32.32x32x2f32", "mfma.f32.16x16x4f32", 2, "fp32", "fp32");
  both("mfma.f32.32x32x2f32", "mfma.f32.16x16x4f32", 2, "tf32", "fp32");
  // fp8 formats the generation's MFMA does not read widen exactly to
  // fp16: the lowering converts the operand registers and uses f16 MFMA.
  auto throughF16 = [&](llvm::StringRef fp8) {
    both("mfma.f32.32x32x8f16", "mfma.f32.16x16x16f16", 8, fp8, "fp32");
  };
  if (arch.cdna == 2) {
    both("mfma.i32.32x32x8i8", "mfma.i32.16x16x16i8", 8, "int8", "int32");
    for (llvm::StringRef fp8 : {"fp8e4nv", "fp8e5", "fp8e4b8", "fp8e5b16"})
      throughF16(fp8);
    return table;
  }
  both("mfma.i32.32x32x16.i8", "mfma.i32.16x16x32.i8", 16, "int8", "int32");
  // The same instructions read fnuz fp8 on CDNA3 and OCP fp8 on CDNA4.
  llvm::StringRef e4 = arch.cdna == 3 ? "fp8e4b8" : "fp8e4nv";
  llvm::StringRef e5 = arch.cdna == 3 ? "fp8e5b16" : "fp8e5";
  both("mfma.f32.32x32x16.fp8.fp8", "mfma.f32.16x16x32.fp8.fp8", 16, e4,
       "fp32");
  both("mfma.f32.32x32x16.bf8.bf8", "mfma.f32.16x16x32.bf8.bf8", 16, e5,
       "fp32");
  throughF16(arch.cdna == 3 ? "fp8e4nv" : "fp8e4b8");
  throughF16(arch.cdna == 3 ? "fp8e5" : "fp8e5b16");
  return table;
}

/// Kernels may use every fp8 format: those the hardware lacks are converted
/// in software by the shared lowering.
std::vector<std::string> dtypes() {
  return {"int1",   "int8",   "int16",   "int32",   "int64",   "uint8",
          "uint16", "uint32", "uint64",  "fp16",    "bf16",    "fp32",
          "fp64",   "fp8e5",  "fp8e4nv", "fp8e4b8", "fp8e5b16"};
}

std::string acceptedNames() { return llvm::join(getArchitectures(), ", "); }

} // namespace

llvm::Expected<Arch> amdgpu::parseArch(llvm::StringRef name) {
  // "gfx942:sramecc+:xnack-" is a target id: the processor, then features.
  std::string lower = name.trim().split(':').first.lower();
  for (const Arch &arch : kArchs)
    if (arch.name == lower)
      return arch;
  return llvm::createStringError(
      llvm::inconvertibleErrorCode(),
      "amdgpu: unsupported architecture '" + name +
          "'; Tessera's AMDGPU backend compiles for CDNA GPUs with MFMA and "
          "accepts " +
          acceptedNames());
}

std::vector<std::string> amdgpu::getArchitectures() {
  std::vector<std::string> names;
  for (const Arch &arch : kArchs)
    names.push_back(arch.name);
  return names;
}

TargetDescription amdgpu::describeArch(const Arch &arch) {
  TargetDescription target;
  target.backend = kBackendName;
  target.arch = arch.name;
  target.warpSize = 64;
  target.maxThreadsPerBlock = 1024;
  target.sharedMemoryPerBlock = arch.ldsBytes;
  target.maxSharedMemoryPerBlock = arch.ldsBytes;
  target.registersPerBlock = 65536;
  target.maxRegistersPerThread = 512;
  target.maxVectorBits = 128;
  target.matrixInstructions = matrixInstructions(arch);
  target.dtypes = dtypes();
  // No cp.async counterpart is used: pipelined copies go through registers.
  target.asyncCopy = false;
  target.tensorMemoryCopy = false;
  target.inlineAsm = true;
  target.extra["llvm-triple"] = kTriple;
  target.extra["llvm-cpu"] = arch.name;
  target.extra["cdna"] = std::to_string(arch.cdna);
  target.extra["isa-version"] = std::to_string(arch.isaVersion);
  target.extra["code-object-version"] = std::to_string(kCodeObjectVersion);
  target.extra["max-vgprs"] = "256";
  target.extra["max-agprs"] = "256";
  target.extra["max-sgprs"] = "102";
  // buffer_load_dwordx4: raw buffer loads of up to 16 bytes with
  // hardware bounds checks.
  target.extra["buffer-load-bits"] = "128";
  return target;
}

llvm::Expected<TargetDescription> amdgpu::describeTarget(llvm::StringRef name) {
  llvm::Expected<Arch> arch = parseArch(name);
  if (!arch)
    return arch.takeError();
  return describeArch(*arch);
}

llvm::Expected<TargetDescription>
amdgpu::describeDevice(const DeviceProperties &props) {
  llvm::Expected<TargetDescription> target = describeTarget(props.arch);
  if (!target)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "amdgpu: device '" + props.name + "': " +
                                       llvm::toString(target.takeError()));
  if (props.multiprocessorCount)
    target->multiprocessorCount = props.multiprocessorCount;
  if (props.maxSharedMem)
    target->maxSharedMemoryPerBlock = props.maxSharedMem;
  if (props.maxNumRegs)
    target->registersPerBlock = props.maxNumRegs;
  return target;
}
