//===- DiskCache.h - The on-disk cache of compiled kernels ------*- C++ -*-===//
//
// Layout under the cache directory (TESSERA_CACHE_DIR, default
// ~/.cache/tessera):
//
//   kernels/<k0k1>/<key>.tkc    one entry per compiled kernel, where <key> is
//                               the 64-hex-digit computeCacheKey() and
//                               <k0k1> its first two digits
//   autotune/...                autotuning results (TuningStore.h)
//
// An entry is a small text header, then the payload (a serialized
// CompiledKernel):
//
//   tessera-cache-entry 1
//   key <key>
//   size <payload bytes>
//   xxh3 <32 hex digits: XXH3-128 of the payload>
//   <one `note NAME VALUE` line per note, for people reading the cache>
//   <empty line>
//   <payload>
//
// Entries are written atomically (AtomicFile.h), so concurrent processes
// storing the same key each rename a complete file over it and readers never
// see a partial one. An entry that does not check out (bad header, another
// key, truncated, wrong checksum) is reported once through the core logger,
// deleted, and read as a miss, so the caller rebuilds it.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_RUNTIME_DISKCACHE_H
#define TESSERA_RUNTIME_DISKCACHE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace mlir::tessera::runtime {

/// The cache directory the environment asks for: TESSERA_CACHE_DIR, else
/// `$HOME/.cache/tessera`; empty when neither is set.
std::string getDefaultCacheDirectory();

/// The largest cache entry read: an entry past it (or anything but a
/// regular file in an entry's place) is corrupt.
inline constexpr uint64_t kMaxEntrySize = uint64_t(512) << 20;

/// A directory of compiled kernels addressed by key. Thread-safe.
class DiskCache {
public:
  explicit DiskCache(std::string directory);

  const std::string &getDirectory() const { return directory; }

  /// The file of `key`'s entry.
  std::string getEntryPath(llvm::StringRef key) const;

  /// The payload stored under `key`, or nullopt when there is none or it
  /// was corrupt (then it is reported once and removed): a bad header,
  /// size or checksum, more than kMaxEntrySize bytes, or not a regular
  /// file (a FIFO, a device, a directory), which is never read.
  std::optional<std::string> lookup(llvm::StringRef key);

  /// Stores `payload` under `key` atomically, replacing any entry. `notes`
  /// are written into the header for people inspecting the cache.
  llvm::Error
  store(llvm::StringRef key, llvm::StringRef payload,
        llvm::ArrayRef<std::pair<std::string, std::string>> notes = {});

  /// Parses an entry's bytes; fails saying what is wrong with them.
  static llvm::Expected<std::string> decodeEntry(llvm::StringRef bytes,
                                                 llvm::StringRef key);

  /// The bytes of an entry for `payload` (what store() writes).
  static std::string
  encodeEntry(llvm::StringRef key, llvm::StringRef payload,
              llvm::ArrayRef<std::pair<std::string, std::string>> notes = {});

  /// How many lookups hit, missed, and found a corrupt entry.
  struct Statistics {
    unsigned hits = 0, misses = 0, corrupt = 0, stores = 0;
  };
  Statistics getStatistics() const;

private:
  std::string directory;
  mutable std::mutex mutex;
  /// Corrupt entries already reported by this process.
  llvm::StringSet<> reported;
  Statistics stats;
};

} // namespace mlir::tessera::runtime

#endif // TESSERA_RUNTIME_DISKCACHE_H
