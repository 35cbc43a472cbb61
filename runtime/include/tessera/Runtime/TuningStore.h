//===- TuningStore.h - Autotuning results kept on disk ----------*- C++ -*-===//
//
// The best config of an autotuned kernel is remembered per device, kernel
// and key values across processes, in small JSON files of the cache
// directory:
//
//   autotune/<backend>-<device name>-<arch>/<kernel id>.json
//
// where <kernel id> hashes the kernel's name and source (the file and its
// local imports), so that editing the file starts afresh. A file holds
//
//   {"format": 1, "backend": ..., "device": ..., "arch": ..., "kernel": ...,
//    "file": ..., "source": <source hash>,
//    "results": {"<key>": {"config": "<TuneCandidate::str()>", "ms": 0.12}}}
//
// and is rewritten atomically; two processes tuning different keys at once
// may lose one of the two results (it is measured again), never corrupt the
// file. An unreadable file is ignored and replaced.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_RUNTIME_TUNINGSTORE_H
#define TESSERA_RUNTIME_TUNINGSTORE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <mutex>
#include <optional>
#include <string>

namespace mlir::tessera::runtime {

/// Whose results a tuning file holds.
struct TuningScope {
  std::string backend;
  std::string deviceName;
  std::string arch;
  std::string kernelName;
  /// The kernel file, for people reading the record.
  std::string file;
  /// KernelSource::getSourceHash().
  std::string sourceHash;
};

/// One remembered result.
struct TuningRecord {
  /// TuneCandidate::str() of the winner.
  std::string config;
  /// Its median time.
  double milliseconds = 0;
};

class TuningStore {
public:
  /// Keeps files under `<cacheDirectory>/autotune`.
  explicit TuningStore(std::string cacheDirectory);

  /// The file of `scope`'s results.
  std::string getPath(const TuningScope &scope) const;

  /// The result remembered for `key`, if any.
  std::optional<TuningRecord> lookup(const TuningScope &scope,
                                     llvm::StringRef key);

  /// Remembers `record` for `key`, keeping the file's other results.
  llvm::Error store(const TuningScope &scope, llvm::StringRef key,
                    const TuningRecord &record);

private:
  std::string directory;
  std::mutex mutex;
};

} // namespace mlir::tessera::runtime

#endif // TESSERA_RUNTIME_TUNINGSTORE_H
