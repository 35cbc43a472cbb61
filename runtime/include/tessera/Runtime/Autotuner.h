//===- Autotuner.h - Choosing the fastest config per key --------*- C++ -*-===//
//
// An autotuned kernel has a list of configs (constexpr values plus
// num_warps, num_stages, num_ctas, maxnreg). For each distinct key (the
// values of the `key` arguments and the dtypes of the pointers) the
// Autotuner times every allowed config once and remembers the fastest, in
// memory and in a TuningStore shared by later processes on the same device.
// It knows nothing of kernels: the caller supplies the measurement.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_RUNTIME_AUTOTUNER_H
#define TESSERA_RUNTIME_AUTOTUNER_H

#include "tessera/Runtime/KernelArg.h"
#include "tessera/Runtime/TuningStore.h"

#include "llvm/ADT/StringMap.h"

#include <functional>
#include <mutex>
#include <optional>
#include <vector>

namespace mlir::tessera::runtime {

/// One config of @triton.autotune, as data.
struct TuneCandidate {
  /// The meta-parameters it sets, in the order written.
  std::vector<NamedKernelArg> constexprs;
  int numWarps = 4;
  int numStages = 3;
  int numCTAs = 1;
  /// maxnreg; 0 when unset.
  int maxNumRegs = 0;

  /// `NAME=repr, ..., num_warps=N, num_stages=N, num_ctas=N[, maxnreg=N]`:
  /// what identifies the config in tuning records and messages.
  std::string str() const;
};

class Autotuner {
public:
  /// Times candidate `index` (median milliseconds); an error makes the
  /// candidate lose (Triton treats configs that fail to compile or run
  /// alike), unless every candidate fails.
  using Measure = std::function<llvm::Expected<double>(unsigned index)>;

  /// `store` may be null (nothing persisted).
  Autotuner(std::vector<TuneCandidate> candidates, TuningStore *store,
            TuningScope scope);
  /// A tuner over configs known only by the text that identifies them
  /// (TuneCandidate::str(), or what an embedder writes for its own config
  /// objects): getCandidates() is empty and the caller applies the configs.
  Autotuner(std::vector<std::string> configNames, TuningStore *store,
            TuningScope scope);

  llvm::ArrayRef<TuneCandidate> getCandidates() const { return candidates; }
  /// The text identifying each config, in order: what the TuningStore
  /// remembers.
  llvm::ArrayRef<std::string> getConfigNames() const { return names; }

  /// The candidate already chosen for `key` in this process, if any; what a
  /// launch consults first, without locks on its values.
  std::optional<unsigned> lookup(llvm::StringRef key) const;

  /// The candidate chosen for `key` in this process, else the one a
  /// TuningStore remembers (when it is still a candidate, which is then
  /// remembered here too); nullopt when `key` must be measured.
  std::optional<unsigned> recall(llvm::StringRef key);

  /// The best candidate for `key`: recalled, else measured among `allowed`
  /// (indices; empty means all). Remembers and persists a measured choice.
  llvm::Expected<unsigned> select(llvm::StringRef key,
                                  llvm::ArrayRef<unsigned> allowed,
                                  const Measure &measure);

  /// What the last measurement of select() timed, per candidate index (NaN
  /// where it failed), for reports and tests.
  const std::vector<double> &getLastTimings() const { return lastTimings; }

private:
  std::vector<TuneCandidate> candidates;
  std::vector<std::string> names;
  TuningStore *store;
  TuningScope scope;
  mutable std::mutex mutex;
  llvm::StringMap<unsigned> chosen;
  std::vector<double> lastTimings;
};

} // namespace mlir::tessera::runtime

#endif // TESSERA_RUNTIME_AUTOTUNER_H
