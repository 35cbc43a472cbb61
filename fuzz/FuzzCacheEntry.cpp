//===- FuzzCacheEntry.cpp - Fuzz target: what the runtime reads from disk -===//
//
// The bytes of a file in the cache directory, read the way the runtime reads
// it: as a kernel cache entry (header, checksum, then the serialized
// CompiledKernel, also deserialized on its own, as `--emit bin` files are)
// through DiskCache::lookup of a real file, which must report and remove it
// when it is corrupt; and as an autotuning record through TuningStore.
//
//===----------------------------------------------------------------------===//
#include "FuzzSupport.h"

#include "tessera/Backend/CompiledKernel.h"
#include "tessera/Runtime/DiskCache.h"
#include "tessera/Runtime/TuningStore.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

using namespace mlir::tessera;
using namespace mlir::tessera::runtime;

namespace {
constexpr llvm::StringLiteral kKey =
    "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";

/// A cache directory of this process, removed at exit.
struct ScratchDirectory {
  std::string path;
  ScratchDirectory() {
    llvm::SmallString<128> dir;
    if (llvm::sys::fs::createUniqueDirectory("tessera-fuzz-cache", dir))
      std::abort();
    path = std::string(dir);
  }
  ~ScratchDirectory() { (void)llvm::sys::fs::remove_directories(path); }
};

ScratchDirectory &getScratch() {
  static ScratchDirectory scratch;
  return scratch;
}

void writeFile(const std::string &path, llvm::StringRef bytes) {
  (void)llvm::sys::fs::create_directories(llvm::sys::path::parent_path(path));
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  if (ec)
    std::abort();
  os << bytes;
}

void deserialize(llvm::StringRef bytes) {
  llvm::Expected<CompiledKernel> kernel = CompiledKernel::deserialize(bytes);
  if (kernel)
    (void)kernel->serialize();
  else
    llvm::consumeError(kernel.takeError());
}
} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  tessera::fuzz::silenceLogging();
  (void)getScratch();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef bytes = tessera::fuzz::asText(data, size);

  // The decoder alone, under the key the entry claims and a fixed one.
  llvm::StringRef claimed = kKey;
  if (size_t at = bytes.find("\nkey "); at != llvm::StringRef::npos)
    claimed = bytes.drop_front(at + 5).split('\n').first;
  for (llvm::StringRef key : {claimed, llvm::StringRef(kKey)}) {
    llvm::Expected<std::string> payload = DiskCache::decodeEntry(bytes, key);
    if (payload)
      deserialize(*payload);
    else
      llvm::consumeError(payload.takeError());
  }
  deserialize(bytes);

  // A real lookup: a corrupt entry is removed, a good one read back.
  DiskCache cache(getScratch().path);
  std::string entry = cache.getEntryPath(kKey);
  writeFile(entry, bytes);
  std::optional<std::string> payload = cache.lookup(kKey);
  if (!payload && llvm::sys::fs::exists(entry))
    __builtin_trap(); // a corrupt entry must not stay behind
  (void)llvm::sys::fs::remove(entry);

  // The same bytes as an autotuning record.
  TuningStore store(getScratch().path);
  TuningScope scope{"fuzz", "device", "arch", "kernel", "kernel.py", "hash"};
  std::string record = store.getPath(scope);
  writeFile(record, bytes);
  (void)store.lookup(scope, "key");
  (void)llvm::sys::fs::remove(record);
  return 0;
}
