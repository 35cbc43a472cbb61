//===- DiskCache.cpp - The on-disk cache of compiled kernels --------------===//
#include "tessera/Runtime/DiskCache.h"

#include "tessera/Runtime/AtomicFile.h"
#include "tessera/Runtime/CacheKey.h"
#include "tessera/Runtime/Environment.h"
#include "tessera/Support/Logging.h"

#include "llvm/ADT/StringExtras.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"
#include <algorithm>
#include <unistd.h>

using namespace mlir::tessera;
using namespace mlir::tessera::runtime;

namespace {
constexpr llvm::StringLiteral kMagic = "tessera-cache-entry";

std::string checksum(llvm::StringRef payload) {
  llvm::XXH128_hash_t h = llvm::xxh3_128bits(llvm::ArrayRef<uint8_t>(
      reinterpret_cast<const uint8_t *>(payload.data()), payload.size()));
  std::string text;
  llvm::raw_string_ostream os(text);
  os << llvm::format_hex_no_prefix(h.high64, 16)
     << llvm::format_hex_no_prefix(h.low64, 16);
  return text;
}

llvm::Error corrupt(const llvm::Twine &why) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), why);
}
} // namespace

std::string mlir::tessera::runtime::getDefaultCacheDirectory() {
  if (std::optional<std::string> dir = getEnvironmentValue(kCacheDirEnvVar))
    return *dir;
  if (std::optional<std::string> home = getEnvironmentValue("HOME")) {
    llvm::SmallString<256> path(*home);
    llvm::sys::path::append(path, ".cache", "tessera");
    return std::string(path);
  }
  return "";
}

DiskCache::DiskCache(std::string directory) : directory(std::move(directory)) {}

std::string DiskCache::getEntryPath(llvm::StringRef key) const {
  llvm::SmallString<256> path(directory);
  llvm::sys::path::append(path, "kernels", key.take_front(2), key + ".tkc");
  return std::string(path);
}

std::string DiskCache::encodeEntry(
    llvm::StringRef key, llvm::StringRef payload,
    llvm::ArrayRef<std::pair<std::string, std::string>> notes) {
  std::string bytes;
  llvm::raw_string_ostream os(bytes);
  os << kMagic << " " << kCacheFormatVersion << "\n"
     << "key " << key << "\n"
     << "size " << payload.size() << "\n"
     << "xxh3 " << checksum(payload) << "\n";
  for (const auto &[name, value] : notes) {
    // Notes are one line each; a value with a newline would end the header.
    std::string flat = value;
    std::replace(flat.begin(), flat.end(), '\n', ' ');
    os << "note " << name << " " << flat << "\n";
  }
  os << "\n" << payload;
  return bytes;
}

llvm::Expected<std::string> DiskCache::decodeEntry(llvm::StringRef bytes,
                                                   llvm::StringRef key) {
  llvm::StringRef rest = bytes;
  auto nextLine = [&]() -> std::optional<llvm::StringRef> {
    size_t end = rest.find('\n');
    if (end == llvm::StringRef::npos)
      return std::nullopt;
    llvm::StringRef line = rest.take_front(end);
    rest = rest.drop_front(end + 1);
    return line;
  };

  std::optional<llvm::StringRef> line = nextLine();
  if (!line || *line != (kMagic + " " + llvm::Twine(kCacheFormatVersion)).str())
    return corrupt("bad header");
  std::optional<uint64_t> size;
  std::optional<std::string> sum;
  bool sawKey = false;
  while ((line = nextLine())) {
    if (line->empty())
      break;
    auto [field, value] = line->split(' ');
    if (field == "key") {
      if (value != key)
        return corrupt("it holds key " + value);
      sawKey = true;
    } else if (field == "size") {
      uint64_t n;
      if (value.getAsInteger(10, n))
        return corrupt("bad size '" + value + "'");
      size = n;
    } else if (field == "xxh3") {
      sum = value.str();
    } else if (field != "note") {
      return corrupt("unknown header field '" + field + "'");
    }
  }
  if (!line)
    return corrupt("truncated header");
  if (!sawKey || !size || !sum)
    return corrupt("incomplete header");
  if (rest.size() != *size)
    return corrupt("payload is " + llvm::Twine(rest.size()) +
                   " bytes, header says " + llvm::Twine(*size));
  if (checksum(rest) != *sum)
    return corrupt("checksum mismatch");
  return rest.str();
}

std::optional<std::string> DiskCache::lookup(llvm::StringRef key) {
  std::string path = getEntryPath(key);
  llvm::sys::fs::file_status status;
  if (llvm::sys::fs::status(path, status, /*Follow=*/false) ||
      status.type() == llvm::sys::fs::file_type::file_not_found) {
    std::lock_guard<std::mutex> lock(mutex);
    ++stats.misses;
    return std::nullopt;
  }
  // A FIFO, a device or a directory in an entry's place is refused before
  // it is read (it blocked, or read /dev/zero until memory ran out), and
  // removed like any other corrupt entry.
  llvm::Expected<std::string> bytes = readWholeFile(path, kMaxEntrySize);
  llvm::Expected<std::string> payload =
      bytes ? decodeEntry(*bytes, key) : bytes.takeError();
  if (payload) {
    std::lock_guard<std::mutex> lock(mutex);
    ++stats.hits;
    return std::move(*payload);
  }
  if (!llvm::sys::fs::exists(path) &&
      status.type() == llvm::sys::fs::file_type::regular_file) {
    // Gone between the check and the read (another process replaced it):
    // a miss; a rebuild stores a fresh entry.
    getLogger().debug("kernel cache: {}", llvm::toString(payload.takeError()));
    std::lock_guard<std::mutex> lock(mutex);
    ++stats.misses;
    return std::nullopt;
  }

  std::string why = llvm::toString(payload.takeError());
  std::lock_guard<std::mutex> lock(mutex);
  ++stats.corrupt;
  if (reported.insert(path).second)
    getLogger().warn("kernel cache: corrupt entry '{}' ({}); removing it and "
                     "recompiling",
                     path, why);
  // Another process may already have replaced it with a good entry; the
  // worst case of removing that one is a second rebuild.
  // unlink, not sys::fs::remove, which refuses anything but regular files
  // and links (a FIFO stayed and was reported on every lookup).
  if (status.type() == llvm::sys::fs::file_type::directory_file)
    (void)llvm::sys::fs::remove_directories(path);
  else
    (void)::unlink(path.c_str());
  return std::nullopt;
}

llvm::Error
DiskCache::store(llvm::StringRef key, llvm::StringRef payload,
                 llvm::ArrayRef<std::pair<std::string, std::string>> notes) {
  if (llvm::Error err = writeFileAtomically(getEntryPath(key),
                                            encodeEntry(key, payload, notes)))
    return err;
  std::lock_guard<std::mutex> lock(mutex);
  ++stats.stores;
  return llvm::Error::success();
}

DiskCache::Statistics DiskCache::getStatistics() const {
  std::lock_guard<std::mutex> lock(mutex);
  return stats;
}
