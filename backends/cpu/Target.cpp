//===- Target.cpp - The host CPU as a Tessera target ----------------------===//
//
// A program instance is one CPU thread: warpSize = 1 and one warp per block,
// so the core's layouts put every element of a block in that thread and
// layout conversions are no-ops. No matrix instructions (dots are loops
// LLVM vectorizes), no asynchronous or tensor-memory copies; every dtype,
// fp8 through conversion helpers. The architecture is LLVM's name of the
// host CPU, compiled for with the host's features; another CPU name compiles
// for that CPU's default features.
//
//===----------------------------------------------------------------------===//
#include "CpuBackend.h"

#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/Triple.h"

#include <mutex>
#include <sys/syscall.h>
#include <thread>
#include <unistd.h>

using namespace mlir;
using namespace mlir::tessera;
using namespace mlir::tessera::cpu;

llvm::Error cpu::initializeNativeTarget() {
  static bool failed = [] {
    return llvm::InitializeNativeTarget() ||
           llvm::InitializeNativeTargetAsmPrinter() ||
           llvm::InitializeNativeTargetAsmParser();
  }();
  if (failed)
    return llvm::createStringError("cpu: LLVM has no code generator for the "
                                   "host (" +
                                   llvm::sys::getProcessTriple() + ")");
  return llvm::Error::success();
}

namespace {
/// Asks Linux to let this process use AMX tile data (arch_prctl
/// ARCH_REQ_XCOMP_PERM for XFEATURE_XTILEDATA); true when granted.
bool requestTileData() {
#if defined(__linux__) && defined(__x86_64__)
  constexpr long kReqXcompPerm = 0x1023;
  constexpr long kXfeatureXtiledata = 18;
  return syscall(SYS_arch_prctl, kReqXcompPerm, kXfeatureXtiledata) == 0;
#else
  return false;
#endif
}
} // namespace

const HostInfo &cpu::getHostInfo() {
  static const HostInfo info = [] {
    HostInfo host;
    host.triple = llvm::sys::getProcessTriple();
    llvm::StringRef name = llvm::sys::getHostCPUName();
    host.cpu =
        name.empty() || name == "generic" ? kGenericArch.str() : name.str();
    llvm::StringMap<bool> hostFeatures = llvm::sys::getHostCPUFeatures();
    // AMX tiles need the kernel's permission per process; without it the
    // code generator must not use them (a tile instruction would fault).
    if (hostFeatures.lookup("amx-tile") && !requestTileData())
      for (auto &entry : hostFeatures)
        if (entry.getKey().starts_with("amx-"))
          entry.setValue(false);
    std::vector<std::string> features;
    for (const auto &entry : hostFeatures) {
      std::string feature = entry.getValue() ? "+" : "-";
      feature += entry.getKey();
      features.push_back(std::move(feature));
    }
    llvm::sort(features);
    host.features = llvm::join(features, ",");
    auto has = [&](llvm::StringRef feature) {
      return llvm::is_contained(features, ("+" + llvm::Twine(feature)).str());
    };
    host.vectorBits = has("avx512f") ? 512 : has("avx") ? 256 : 128;
    host.hardwareThreads = std::max(1u, std::thread::hardware_concurrency());
    long pages = sysconf(_SC_PHYS_PAGES), pageSize = sysconf(_SC_PAGESIZE);
    if (pages > 0 && pageSize > 0)
      host.memoryBytes = static_cast<uint64_t>(pages) * pageSize;
    return host;
  }();
  return info;
}

std::vector<std::string> cpu::getArchitectures() {
  std::vector<std::string> archs{getHostInfo().cpu};
  if (getHostInfo().cpu != kGenericArch)
    archs.push_back(kGenericArch.str());
  return archs;
}

/// The CPU and features to compile `arch` with.
static std::pair<std::string, std::string> resolveArch(llvm::StringRef arch) {
  const HostInfo &host = getHostInfo();
  if (arch.empty() || arch == host.cpu)
    return {host.cpu, host.features};
  return {arch.str(), ""};
}

llvm::Expected<std::unique_ptr<llvm::TargetMachine>>
cpu::createTargetMachine(llvm::StringRef arch) {
  if (llvm::Error err = initializeNativeTarget())
    return std::move(err);
  const HostInfo &host = getHostInfo();
  std::string error;
  llvm::Triple triple(host.triple);
  const llvm::Target *target =
      llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return llvm::createStringError(llvm::Twine("cpu: ") + error);
  auto [cpuName, features] = resolveArch(arch);
  std::unique_ptr<llvm::MCSubtargetInfo> subtarget(
      target->createMCSubtargetInfo(triple, cpuName, ""));
  if (!subtarget || !subtarget->isCPUStringValid(cpuName))
    return llvm::createStringError(llvm::Twine("cpu: unknown architecture '") +
                                   cpuName + "' for " + host.triple +
                                   " (the host is '" + host.cpu + "')");
  llvm::TargetOptions options;
  std::unique_ptr<llvm::TargetMachine> machine(target->createTargetMachine(
      triple, cpuName, features, options, llvm::Reloc::PIC_,
      llvm::CodeModel::Small, llvm::CodeGenOptLevel::Aggressive));
  if (!machine)
    return llvm::createStringError(
        llvm::Twine("cpu: cannot create a target machine for '") + cpuName +
        "'");
  return machine;
}

llvm::Expected<TargetDescription> cpu::describeTarget(llvm::StringRef arch) {
  llvm::Expected<std::unique_ptr<llvm::TargetMachine>> machine =
      createTargetMachine(arch);
  if (!machine)
    return machine.takeError();
  const HostInfo &host = getHostInfo();
  auto [cpuName, features] = resolveArch(arch);
  TargetDescription desc;
  desc.backend = kBackendName.str();
  desc.arch = cpuName;
  // One thread per program instance.
  desc.warpSize = 1;
  desc.maxThreadsPerBlock = 1;
  // "Shared" memory is the instance's own; its size is a budget for the
  // core's staging decisions rather than a hardware limit.
  desc.sharedMemoryPerBlock = 1 << 20;
  desc.maxSharedMemoryPerBlock = 1 << 20;
  desc.multiprocessorCount = host.hardwareThreads;
  if (cpuName == host.cpu) {
    desc.maxVectorBits = host.vectorBits;
  } else {
    const llvm::MCSubtargetInfo *subtarget = (*machine)->getMCSubtargetInfo();
    desc.maxVectorBits = subtarget->checkFeatures("+avx512f") ? 512
                         : subtarget->checkFeatures("+avx")   ? 256
                                                              : 128;
  }
  desc.asyncCopy = false;
  desc.tensorMemoryCopy = false;
  desc.clusters = false;
  desc.warpSpecialization = false;
  desc.inlineAsm = false;
  desc.extra["triple"] = host.triple;
  // AMX's bf16 tiles (the host's features drop them where Linux refuses
  // the process their state).
  const llvm::MCSubtargetInfo *subtarget = (*machine)->getMCSubtargetInfo();
  if (subtarget->checkFeatures("+amx-tile,+amx-bf16"))
    desc.extra[kAmxBf16Option.str()] = "1";
  if (!features.empty())
    desc.extra["features"] = features;
  return desc;
}
