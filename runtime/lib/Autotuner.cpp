//===- Autotuner.cpp - Choosing the fastest config per key ----------------===//
#include "tessera/Runtime/Autotuner.h"

#include "tessera/Support/Logging.h"

#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <limits>

using namespace mlir::tessera;
using namespace mlir::tessera::runtime;

std::string TuneCandidate::str() const {
  std::string text;
  llvm::raw_string_ostream os(text);
  for (const auto &[name, value] : constexprs)
    os << name << "=" << value.repr() << ", ";
  os << "num_warps=" << numWarps << ", num_stages=" << numStages
     << ", num_ctas=" << numCTAs;
  if (maxNumRegs)
    os << ", maxnreg=" << maxNumRegs;
  return text;
}

Autotuner::Autotuner(std::vector<TuneCandidate> candidates, TuningStore *store,
                     TuningScope scope)
    : candidates(std::move(candidates)), store(store), scope(std::move(scope)) {
  for (const TuneCandidate &candidate : this->candidates)
    names.push_back(candidate.str());
}

Autotuner::Autotuner(std::vector<std::string> configNames, TuningStore *store,
                     TuningScope scope)
    : names(std::move(configNames)), store(store), scope(std::move(scope)) {}

std::optional<unsigned> Autotuner::lookup(llvm::StringRef key) const {
  std::lock_guard<std::mutex> lock(mutex);
  auto it = chosen.find(key);
  if (it == chosen.end())
    return std::nullopt;
  return it->second;
}

std::optional<unsigned> Autotuner::recall(llvm::StringRef key) {
  if (std::optional<unsigned> index = lookup(key))
    return index;
  if (!store)
    return std::nullopt;
  std::optional<TuningRecord> record = store->lookup(scope, key);
  if (!record)
    return std::nullopt;
  for (unsigned i = 0, e = names.size(); i < e; ++i) {
    if (names[i] != record->config)
      continue;
    getLogger().debug("autotune {} [{}]: remembered {} ({} ms)",
                      scope.kernelName, key.str(), record->config,
                      record->milliseconds);
    std::lock_guard<std::mutex> lock(mutex);
    chosen[key] = i;
    return i;
  }
  getLogger().debug("autotune {} [{}]: the remembered config is no longer a "
                    "candidate; tuning again",
                    scope.kernelName, key.str());
  return std::nullopt;
}

llvm::Expected<unsigned> Autotuner::select(llvm::StringRef key,
                                           llvm::ArrayRef<unsigned> allowed,
                                           const Measure &measure) {
  if (std::optional<unsigned> index = recall(key))
    return *index;
  if (names.empty())
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "autotune: kernel '" + scope.kernelName +
                                       "' has no configs");

  std::vector<unsigned> indices(allowed.begin(), allowed.end());
  if (indices.empty())
    for (unsigned i = 0, e = names.size(); i < e; ++i)
      indices.push_back(i);

  lastTimings.assign(names.size(), std::numeric_limits<double>::quiet_NaN());
  std::optional<unsigned> best;
  double bestMs = std::numeric_limits<double>::infinity();
  std::string firstFailure;
  for (unsigned index : indices) {
    if (index >= names.size())
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "autotune: kernel '" + scope.kernelName +
                                         "' has no config " +
                                         llvm::Twine(index) + " (it has " +
                                         llvm::Twine(names.size()) + ")");
    llvm::Expected<double> ms = measure(index);
    if (!ms) {
      std::string why = llvm::toString(ms.takeError());
      getLogger().debug("autotune {} [{}]: {} failed: {}", scope.kernelName,
                        key.str(), names[index], why);
      if (firstFailure.empty())
        firstFailure = names[index] + ": " + why;
      continue;
    }
    lastTimings[index] = *ms;
    getLogger().debug("autotune {} [{}]: {} took {} ms", scope.kernelName,
                      key.str(), names[index], *ms);
    if (*ms < bestMs) {
      bestMs = *ms;
      best = index;
    }
  }
  if (!best)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "autotune: every config of kernel '" +
                                       scope.kernelName +
                                       "' failed; the first: " + firstFailure);

  getLogger().info("autotune {} [{}]: chose {} ({} ms, {} configs timed)",
                   scope.kernelName, key.str(), names[*best], bestMs,
                   indices.size());
  {
    std::lock_guard<std::mutex> lock(mutex);
    chosen[key] = *best;
  }
  if (store)
    if (llvm::Error err = store->store(scope, key, {names[*best], bestMs}))
      // Persisting only saves time later; a read-only cache is no failure.
      getLogger().warn("autotune: cannot remember the result: {}",
                       llvm::toString(std::move(err)));
  return *best;
}
