//===- DiskCacheTest.cpp - Entries, atomic writes, corruption, processes --===//
#include "FakeBackend.h"

#include "tessera/Runtime/AtomicFile.h"
#include "tessera/Runtime/CacheKey.h"
#include "tessera/Runtime/DiskCache.h"
#include "tessera/Support/Logging.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "gtest/gtest.h"

#include <spdlog/sinks/ostream_sink.h>

#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

using namespace mlir::tessera;
using namespace mlir::tessera::runtime;
using namespace mlir::tessera::runtime::testing;

namespace {
std::string keyOf(llvm::StringRef text) { return sha256Hex(text); }

/// Files under `dir`, recursively, relative to it.
std::vector<std::string> listFiles(llvm::StringRef dir) {
  std::vector<std::string> files;
  std::error_code ec;
  for (llvm::sys::fs::recursive_directory_iterator it(dir, ec), end;
       it != end && !ec; it.increment(ec))
    if (it->type() == llvm::sys::fs::file_type::regular_file)
      files.push_back(it->path().substr(dir.size() + 1));
  return files;
}

/// Captures what the core logger says while alive.
class LogCapture {
public:
  LogCapture() {
    sink = std::make_shared<spdlog::sinks::ostream_sink_mt>(stream);
    getLogger().sinks().push_back(sink);
  }
  ~LogCapture() { getLogger().sinks().pop_back(); }
  std::string text() const { return stream.str(); }

private:
  std::ostringstream stream;
  std::shared_ptr<spdlog::sinks::ostream_sink_mt> sink;
};
} // namespace

TEST(DiskCacheTest, StoreThenLookup) {
  ScratchDirectory dir;
  DiskCache cache(dir.path());
  std::string key = keyOf("one");
  EXPECT_FALSE(cache.lookup(key));
  std::string payload("bytes\n\0with a nul", 17);
  ASSERT_FALSE(cache.store(key, payload, {{"kernel", "add_kernel"}}));
  std::optional<std::string> found = cache.lookup(key);
  ASSERT_TRUE(found);
  EXPECT_EQ(*found, payload);
  EXPECT_EQ(cache.getStatistics().hits, 1u);
  EXPECT_EQ(cache.getStatistics().misses, 1u);
  // The entry is where the layout says, and nothing else was left behind.
  EXPECT_EQ(listFiles(dir.path()),
            std::vector<std::string>{"kernels/" + key.substr(0, 2) + "/" + key +
                                     ".tkc"});
}

TEST(DiskCacheTest, EntryFormatIsChecked) {
  std::string key = keyOf("k");
  std::string entry = DiskCache::encodeEntry(key, "payload");
  ASSERT_TRUE(llvm::StringRef(entry).starts_with("tessera-cache-entry 1\n"));
  llvm::Expected<std::string> ok = DiskCache::decodeEntry(entry, key);
  ASSERT_TRUE(bool(ok));
  EXPECT_EQ(*ok, "payload");

  auto why = [&](llvm::StringRef bytes, llvm::StringRef k) {
    llvm::Expected<std::string> r = DiskCache::decodeEntry(bytes, k);
    return r ? std::string("ok") : llvm::toString(r.takeError());
  };
  EXPECT_EQ(why(entry.substr(0, entry.size() - 2), key),
            "payload is 5 bytes, header says 7");
  EXPECT_EQ(why(entry.substr(0, 30), key), "truncated header");
  EXPECT_EQ(why("garbage", key), "bad header");
  EXPECT_EQ(why(entry, keyOf("other")), "it holds key " + key);
  std::string flipped = entry;
  flipped.back() ^= 1;
  EXPECT_EQ(why(flipped, key), "checksum mismatch");
}

TEST(DiskCacheTest, CorruptEntryIsReportedOnceRemovedAndRebuilt) {
  ScratchDirectory dir;
  DiskCache cache(dir.path());
  std::string key = keyOf("corrupt");
  ASSERT_FALSE(cache.store(key, std::string(1000, 'x')));
  std::string path = cache.getEntryPath(key);

  // Truncate the entry as a crash of a non-atomic writer would.
  ASSERT_EQ(::truncate(path.c_str(), 500), 0);
  LogCapture log;
  EXPECT_FALSE(cache.lookup(key));
  EXPECT_FALSE(llvm::sys::fs::exists(path));
  EXPECT_NE(log.text().find("corrupt entry '" + path + "'"), std::string::npos)
      << log.text();
  EXPECT_EQ(cache.getStatistics().corrupt, 1u);

  // Rebuilt: the next store and lookup work.
  ASSERT_FALSE(cache.store(key, std::string(1000, 'y')));
  ASSERT_TRUE(cache.lookup(key));

  // Garble the same entry again: the miss is silent the second time.
  {
    std::string bytes = *readWholeFile(path);
    bytes[bytes.size() / 2] ^= 0x40;
    ASSERT_FALSE(writeFileAtomically(path, bytes));
  }
  size_t before = log.text().size();
  EXPECT_FALSE(cache.lookup(key));
  EXPECT_EQ(log.text().size(), before);
  EXPECT_EQ(cache.getStatistics().corrupt, 2u);
}

TEST(DiskCacheTest, AtomicWriteReplacesWholeFiles) {
  ScratchDirectory dir;
  std::string path = dir.path() + "/sub/dir/file.txt";
  ASSERT_FALSE(writeFileAtomically(path, "first"));
  ASSERT_FALSE(writeFileAtomically(path, "second, longer"));
  EXPECT_EQ(*readWholeFile(path), "second, longer");
  // No temporaries remain.
  EXPECT_EQ(listFiles(dir.path()),
            std::vector<std::string>{"sub/dir/file.txt"});
}

TEST(DiskCacheTest, AtomicWriteFailsCleanlyInAReadOnlyDirectory) {
  if (::geteuid() == 0)
    GTEST_SKIP() << "root writes into read-only directories";
  ScratchDirectory dir;
  ASSERT_FALSE(llvm::sys::fs::setPermissions(
      dir.path(),
      llvm::sys::fs::perms::owner_read | llvm::sys::fs::perms::owner_exe));
  llvm::Error err = writeFileAtomically(dir.path() + "/file", "x");
  EXPECT_TRUE(bool(err));
  llvm::consumeError(std::move(err));
  (void)llvm::sys::fs::setPermissions(dir.path(),
                                      llvm::sys::fs::perms::owner_all);
}

TEST(DiskCacheTest, ConcurrentProcessesLeaveOneValidEntry) {
  // Several processes store the same key while others read it: every read
  // sees nothing or a whole entry, and one valid entry remains.
  ScratchDirectory dir;
  std::string key = keyOf("shared");
  std::string payload(256 * 1024, 'p');
  constexpr int kProcesses = 8;
  std::vector<pid_t> children;
  for (int i = 0; i < kProcesses; ++i) {
    pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      DiskCache cache(dir.path());
      int status = 0;
      for (int round = 0; round < 20; ++round) {
        if (llvm::Error err = cache.store(key, payload)) {
          llvm::consumeError(std::move(err));
          status = 1;
        }
        std::optional<std::string> found = cache.lookup(key);
        if (found && *found != payload)
          status = 2;
      }
      if (cache.getStatistics().corrupt)
        status = 3;
      ::_exit(status);
    }
    children.push_back(pid);
  }
  for (pid_t pid : children) {
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 0);
  }
  DiskCache cache(dir.path());
  std::optional<std::string> found = cache.lookup(key);
  ASSERT_TRUE(found);
  EXPECT_EQ(*found, payload);
  EXPECT_EQ(listFiles(dir.path()).size(), 1u);
}

TEST(DiskCacheTest, DefaultDirectoryFollowsTheEnvironment) {
  std::string saved =
      getenv("TESSERA_CACHE_DIR") ? getenv("TESSERA_CACHE_DIR") : "";
  ::setenv("TESSERA_CACHE_DIR", "/some/where", 1);
  EXPECT_EQ(getDefaultCacheDirectory(), "/some/where");
  ::unsetenv("TESSERA_CACHE_DIR");
  if (const char *home = getenv("HOME")) {
    EXPECT_EQ(getDefaultCacheDirectory(),
              std::string(home) + "/.cache/tessera");
  }
  if (!saved.empty())
    ::setenv("TESSERA_CACHE_DIR", saved.c_str(), 1);
}
