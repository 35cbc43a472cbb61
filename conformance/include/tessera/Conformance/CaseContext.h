//===- CaseContext.h - What a case uses to run on a device ------*- C++ -*-===//
//
// A case is straight-line code: make inputs, copy them to the device,
// poison the outputs, launch, copy back, compare. CaseContext gives each
// step one call. The first error (allocation, compilation, launch, copy)
// is kept and every later device step becomes a no-op, so that a case
// needs no error plumbing: the runner reports the first error as the
// case's failure and ignores checks made after it (like raw_ostream's
// sticky error state).
//
// In a compile-only session (runtime::Runtime::isCompileOnly) the same case
// code runs without a device: tensors get placeholder addresses that
// nothing dereferences, aligned as allocations are so that pointers
// specialize as on a device, uploads and fills do nothing, and each launch
// becomes the compilation of exactly its specialization (of every config,
// for an autotuned kernel launched without one), recorded per case. Cases
// return after their launches when isCompileOnly(): nothing ran, so there
// is nothing to read back, no reference to compute and nothing to check.
//
// A context made with `aheadOfTime` behaves the same way in any session
// but records nothing: the runner runs every case so first, several at
// once, to fill the session's kernel tables before the cases run in order.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_CONFORMANCE_CASECONTEXT_H
#define TESSERA_CONFORMANCE_CASECONTEXT_H

#include "tessera/Conformance/CompileRecord.h"
#include "tessera/Conformance/HostTensor.h"
#include "tessera/Conformance/KernelFile.h"
#include "tessera/Conformance/Random.h"
#include "tessera/Conformance/Status.h"
#include "tessera/Runtime/Runtime.h"
#include "tessera/Runtime/TunedKernel.h"

#include <map>
#include <memory>
#include <optional>
#include <set>

namespace mlir::tessera::conformance {

class Suite;

/// A tensor in device memory and how to read it back.
struct DeviceTensor {
  runtime::Buffer buffer;
  DType dtype = DType::F32;
  std::vector<int64_t> shape;
  /// In compile-only sessions, where there is no buffer: the address the
  /// tensor stands at and its size (no memory is behind them).
  uint64_t placeholderAddress = 0;
  uint64_t placeholderBytes = 0;

  /// The buffer as a kernel argument (a pointer to its element type).
  runtime::KernelArg arg(uint64_t offsetBytes = 0) const;
  operator runtime::KernelArg() const { return arg(); }
  uint64_t getAddress() const {
    return buffer ? buffer.getAddress() : placeholderAddress;
  }
};

/// Kernels of one session, shared by every case of a run: each kernel file
/// is compiled once per specialization, whichever case needs it.
class KernelLibrary {
public:
  KernelLibrary(runtime::Runtime &runtime, Suite &suite)
      : runtime(runtime), suite(suite) {}

  runtime::Runtime &getRuntime() const { return runtime; }

  /// How a compiled specialization enters a case's records: compiled for
  /// it, read from the disk cache, or reused from an earlier case.
  CompileOrigin classify(const runtime::KernelVariant &compiled);

  /// The kernel `name` of file `stem` as written (autotuned if decorated).
  llvm::Expected<runtime::TunedKernel &> getKernel(llvm::StringRef stem,
                                                   llvm::StringRef name);
  /// The jit function under the @triton.autotune decorator (Triton's
  /// `kernel.fn`), which launches with the constexprs it is given. It
  /// shares the tuned kernel's dispatch table.
  llvm::Expected<runtime::TunedKernel &> getUntunedKernel(llvm::StringRef stem,
                                                          llvm::StringRef name);

private:
  runtime::Runtime &runtime;
  Suite &suite;
  std::set<const runtime::KernelVariant *> recorded;
};

class CaseContext {
public:
  /// With `aheadOfTime`, launches only compile, whatever the session, and
  /// nothing is recorded (see the file comment).
  CaseContext(KernelLibrary &kernels, const TargetDescription &target,
              llvm::StringRef file, uint64_t seed, bool aheadOfTime = false);

  Rng &getRng() { return rng; }
  const TargetDescription &getTarget() const { return target; }
  runtime::Runtime &getRuntime() const { return kernels.getRuntime(); }
  /// Multiprocessors of the device (at least 1), for persistent grids.
  unsigned getMultiprocessorCount() const;

  /// True in a compile-only session or context: launches compile and
  /// nothing runs. A case returns after its launches when this is true.
  bool isCompileOnly() const {
    return aheadOfTime || getRuntime().isCompileOnly();
  }

  /// True once a step failed.
  bool hasFailed() const { return error.has_value(); }
  /// Ends the case with `message` (the first failure wins).
  void fail(const llvm::Twine &message);
  void fail(llvm::Error err);

  /// A device copy of `host`.
  DeviceTensor upload(const HostTensor &host);
  /// A device tensor with every byte 0xFF (NaN in float types, -1 in
  /// integers), so that an element the kernel does not write is caught.
  DeviceTensor poisoned(DType dtype, std::vector<int64_t> shape);
  /// A device tensor of zero bytes (locks, counters).
  DeviceTensor zeros(DType dtype, std::vector<int64_t> shape);
  /// The device tensor's contents after every launch finished; all NaN
  /// after a failure. In a compile-only session there are none: the case
  /// fails, as it should have returned before reading outputs back.
  HostTensor download(const DeviceTensor &tensor);

  /// Launches kernel `name` of the case's file. With `config`, the jit
  /// function under its autotune decorator runs with that config's
  /// constexprs, num_warps and num_stages; without, an autotuned kernel
  /// goes through the runtime's autotuner. In a compile-only session the
  /// launch is compiled instead (every config of an autotuned kernel
  /// without `config`: there is nothing to time).
  void launch(llvm::StringRef name, const runtime::Grid &grid,
              llvm::ArrayRef<runtime::KernelArg> args,
              llvm::ArrayRef<runtime::NamedKernelArg> kwargs = {},
              const runtime::LaunchOptions &options = {},
              const KernelConfig *config = nullptr);

  /// Records a check (ignored after a failure).
  void check(llvm::StringRef name, double value, double tolerance);
  /// Records the relative norm error of `out` against `ref`.
  void checkError(llvm::StringRef name, const HostTensor &out,
                  llvm::ArrayRef<double> ref, double tolerance);
  /// Records an informational note printed with the case (the config the
  /// autotuner chose, ...).
  void note(const llvm::Twine &text);

  /// The config the autotuner chose for the last launch through it.
  const std::string &getLastTunedConfig() const { return lastTunedConfig; }

  /// What the case produced.
  CaseOutcome takeOutcome();
  const std::string &getNotes() const { return notes; }
  /// The distinct kernels the case compiled (compile-only sessions).
  std::vector<CompileRecord> takeCompileRecords() {
    return std::move(compiled);
  }

private:
  /// The compile-only launch: compiles `kernel` for these values.
  void compileLaunch(runtime::TunedKernel &kernel,
                     llvm::ArrayRef<runtime::KernelArg> args,
                     llvm::ArrayRef<runtime::NamedKernelArg> kwargs,
                     const runtime::LaunchOptions &options);
  /// Records what compiling `kernel` produced, once per specialization.
  void addCompileRecord(const runtime::TunedKernel &kernel,
                        const runtime::KernelVariant &result);
  /// A tensor's memory: a buffer, or a placeholder address.
  DeviceTensor allocate(DType dtype, std::vector<int64_t> shape);

  KernelLibrary &kernels;
  const TargetDescription &target;
  std::string file;
  Rng rng;
  std::optional<std::string> error;
  std::vector<Check> checks;
  std::string notes;
  std::string lastTunedConfig;
  std::vector<CompileRecord> compiled;
  std::set<const runtime::KernelVariant *> compiledHere;
  uint64_t nextPlaceholder;
  bool aheadOfTime;
};

/// A KernelConfig from explicit values, for cases that pick their blocks.
KernelConfig
makeConfig(std::initializer_list<std::pair<const char *, int64_t>> values,
           int numWarps = 4, int numStages = 3);

} // namespace mlir::tessera::conformance

#endif // TESSERA_CONFORMANCE_CASECONTEXT_H
