//===- CpuBackend.h - The CPU backend's parts -------------------*- C++ -*-===//
#ifndef TESSERA_BACKENDS_CPU_CPUBACKEND_H
#define TESSERA_BACKENDS_CPU_CPUBACKEND_H

#include "tessera/Backend/Backend.h"

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace llvm {
class TargetMachine;
} // namespace llvm

namespace mlir::tessera::cpu {

/// The plugin's name and the backend's.
constexpr llvm::StringLiteral kBackendName = "cpu";
/// The target description's and pipeline's option naming AMX's bf16 tiles
/// ("1" where the architecture has them and the process may use them).
constexpr llvm::StringLiteral kAmxBf16Option = "amx-bf16";
/// The generic architecture, for hosts LLVM cannot name.
constexpr llvm::StringLiteral kGenericArch = "x86-64";

/// The machine the process runs on, as LLVM sees it.
struct HostInfo {
  std::string triple;
  /// LLVM's name of the host CPU ("znver3", "sapphirerapids", ...), or the
  /// generic architecture.
  std::string cpu;
  /// The host's features, as a target-features string ("+avx2,+fma,...").
  std::string features;
  /// Widest vector register, in bits.
  unsigned vectorBits = 128;
  unsigned hardwareThreads = 1;
  uint64_t memoryBytes = 0;
};

/// Initializes LLVM's native target once; fails when LLVM lacks it.
llvm::Error initializeNativeTarget();

/// The host (detected once).
const HostInfo &getHostInfo();

/// Architectures the backend compiles for: the host's CPU first, then the
/// generic one.
std::vector<std::string> getArchitectures();

/// The target description of `arch` (empty: the host).
llvm::Expected<TargetDescription> describeTarget(llvm::StringRef arch);

/// A target machine for `arch` (empty: the host, with its features),
/// relocatable code for the JIT, optimizing at O3.
llvm::Expected<std::unique_ptr<llvm::TargetMachine>>
createTargetMachine(llvm::StringRef arch);

//===----------------------------------------------------------------------===//
// Emitter
//===----------------------------------------------------------------------===//

/// The module the CPU pipeline produced, as LLVM IR for the host, optimized
/// at O3 for `target`'s CPU.
llvm::Expected<std::unique_ptr<llvm::Module>>
translateToLLVMIR(ModuleOp module, llvm::LLVMContext &context,
                  const TargetDescription &target,
                  const CompileOptions &options);

/// The host assembly of `module`.
llvm::Expected<std::string> emitAssembly(llvm::Module &module,
                                         const TargetDescription &target,
                                         const CompileOptions &options);

/// Moves the allocas of constant size that run at most once per call (in
/// no cycle) to their function's entry block, which makes the frame static.
void hoistStaticAllocas(llvm::Module &module);

/// An upper bound of the stack that the functions of a relocatable object
/// can use together (their static frames added up, from the object's
/// `.stack_sizes` section), or nullopt when one of them has a frame of
/// variable size or the object has no such section.
std::optional<uint64_t> getStackBound(llvm::StringRef object);

/// The metadata key of a compiled kernel's stack bound, in bytes.
inline constexpr llvm::StringLiteral kStackBytesMetadata = "stack-bytes";

/// Completes `kernel` (the entry wrapper the host's skeleton names) with an
/// ELF relocatable object of `module`, the one-thread launch shape and the
/// stack its frames need (getStackBound) where known.
llvm::Error emitBinary(llvm::Module &module, CompiledKernel &kernel,
                       const TargetDescription &target,
                       const CompileOptions &options);

//===----------------------------------------------------------------------===//
// Driver
//===----------------------------------------------------------------------===//

/// The host as the one device: memory is host memory, modules are ORC JIT
/// instances, launches run program instances on a thread pool.
std::unique_ptr<Driver> createDriver();

/// The number of threads launches use: TESSERA_CPU_THREADS when it is a
/// positive integer, else the hardware threads.
unsigned getLaunchThreadCount();

/// How long the launch threads poll for the next launch before they sleep:
/// TESSERA_CPU_SPIN_US microseconds when it is an integer from 0 (sleep at
/// once) to 60 s, else 50 ms.
std::chrono::microseconds getLaunchSpinTime();

} // namespace mlir::tessera::cpu

#endif // TESSERA_BACKENDS_CPU_CPUBACKEND_H
