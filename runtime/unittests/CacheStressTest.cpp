//===- CacheStressTest.cpp - The kernel cache under damage and contention -===//
//
// What a shared cache directory meets in practice: entries damaged in every
// way a file can be (cut, flipped, replaced by something that is not a
// file), writers killed with SIGKILL in the middle of a write, and many
// threads compiling into it at once. Each entry read is whole or reported
// and rebuilt; no state of the directory stops a compile.
//
//===----------------------------------------------------------------------===//
#include "FakeBackend.h"
#include "TestSupport.h"

#include "tessera/Runtime/AtomicFile.h"
#include "tessera/Runtime/CacheKey.h"
#include "tessera/Runtime/Compiler.h"
#include "tessera/Runtime/DiskCache.h"
#include "tessera/Runtime/KernelSource.h"
#include "tessera/Runtime/Runtime.h"
#include "tessera/Support/Logging.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "gmock/gmock.h"

#include <spdlog/sinks/ostream_sink.h>

#include <chrono>
#include <csignal>
#include <functional>
#include <random>
#include <sstream>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

using namespace mlir::tessera;
using namespace mlir::tessera::runtime;
using namespace mlir::tessera::runtime::testing;
using ::testing::HasSubstr;

namespace {
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

void writeBytes(const std::string &path, llvm::StringRef bytes) {
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  ASSERT_FALSE(ec) << ec.message();
  os << bytes;
}

/// The temporaries of atomic writes under `dir`.
std::vector<std::string> temporariesUnder(llvm::StringRef dir) {
  std::vector<std::string> found;
  std::error_code ec;
  for (llvm::sys::fs::recursive_directory_iterator it(dir, ec), end;
       it != end && !ec; it.increment(ec))
    if (llvm::StringRef(it->path()).contains(".tmp-"))
      found.push_back(it->path());
  return found;
}

/// The payload stored under key `i` by the writers below: recognizable, and
/// large enough that a kill often lands inside a write.
std::string payloadFor(unsigned i) {
  std::string payload(2 << 20, char('a' + i));
  payload += "end of payload " + std::to_string(i);
  return payload;
}

std::string keyFor(unsigned i) {
  return sha256Hex("stress-" + std::to_string(i));
}
} // namespace

/// One way of damaging an entry: a name and what it does to the file.
struct Damage {
  const char *name;
  std::function<void(const std::string &path, const std::string &bytes)> apply;
};

TEST(CacheStressTest, EveryKindOfDamageIsReportedRemovedAndRebuilt) {
  std::string key = sha256Hex("damaged");
  std::string payload = "the payload of an entry\n";
  auto rewrite = [](std::function<std::string(std::string)> edit) {
    return [edit](const std::string &path, const std::string &bytes) {
      writeBytes(path, edit(bytes));
    };
  };
  auto replace = [](std::function<void(const std::string &)> make) {
    return [make](const std::string &path, const std::string &) {
      ASSERT_FALSE(llvm::sys::fs::remove(path));
      make(path);
    };
  };
  std::vector<Damage> damages = {
      {"empty", rewrite([](std::string) { return std::string(); })},
      {"cut in the magic",
       rewrite([](std::string b) { return b.substr(0, 7); })},
      {"cut in the header",
       rewrite([](std::string b) { return b.substr(0, 40); })},
      {"cut before the payload",
       rewrite([](std::string b) { return b.substr(0, b.find("\n\n") + 1); })},
      {"cut in the payload",
       rewrite([](std::string b) { return b.substr(0, b.size() - 3); })},
      {"grown", rewrite([](std::string b) { return b + "more"; })},
      {"flipped payload byte", rewrite([](std::string b) {
         b[b.size() - 2] ^= 1;
         return b;
       })},
      {"flipped checksum", rewrite([](std::string b) {
         size_t at = b.find("xxh3 ") + 5;
         b[at] = b[at] == '0' ? '1' : '0';
         return b;
       })},
      {"another version", rewrite([](std::string b) {
         b.replace(0, b.find('\n'), "tessera-cache-entry 99");
         return b;
       })},
      {"another key", rewrite([](std::string b) {
         size_t at = b.find("key ") + 4;
         b[at] = b[at] == '0' ? '1' : '0';
         return b;
       })},
      {"size not a number", rewrite([](std::string b) {
         size_t at = b.find("size ") + 5;
         b.insert(at, "-x");
         return b;
       })},
      {"size past 64 bits", rewrite([](std::string b) {
         size_t at = b.find("size ") + 5;
         b.insert(at, "99999999999999999999");
         return b;
       })},
      {"unknown field", rewrite([](std::string b) {
         b.insert(b.find('\n') + 1, "color blue\n");
         return b;
       })},
      {"header without its blank line", rewrite([](std::string b) {
         b.erase(b.find("\n\n"), 1);
         return b;
       })},
      {"random bytes", rewrite([](std::string b) {
         std::mt19937 rng(7);
         for (char &c : b)
           c = char(rng());
         return b;
       })},
      {"sparse file past the size limit",
       [](const std::string &path, const std::string &) {
         ASSERT_EQ(::truncate(path.c_str(), off_t(kMaxEntrySize) + 1), 0);
       }},
      {"a directory", replace([](const std::string &path) {
         ASSERT_FALSE(llvm::sys::fs::create_directories(path + "/inside"));
       })},
      {"a FIFO", replace([](const std::string &path) {
         ASSERT_EQ(::mkfifo(path.c_str(), 0600), 0);
       })},
      {"a link to /dev/zero", replace([](const std::string &path) {
         ASSERT_EQ(::symlink("/dev/zero", path.c_str()), 0);
       })},
      {"a dangling link", replace([](const std::string &path) {
         ASSERT_EQ(::symlink((path + ".gone").c_str(), path.c_str()), 0);
       })},
  };

  for (const Damage &damage : damages) {
    SCOPED_TRACE(damage.name);
    ScratchDirectory dir;
    DiskCache cache(dir.path());
    ASSERT_FALSE(cache.store(key, payload));
    std::string path = cache.getEntryPath(key);
    llvm::Expected<std::string> bytes = readWholeFile(path);
    ASSERT_EXPECTED(bytes);
    damage.apply(path, *bytes);

    LogCapture log;
    auto start = std::chrono::steady_clock::now();
    EXPECT_FALSE(cache.lookup(key));
    // Neither blocked (a FIFO) nor read without end (/dev/zero).
    EXPECT_LT(std::chrono::steady_clock::now() - start,
              std::chrono::seconds(5));
    // Reported once, and removed.
    EXPECT_EQ(cache.getStatistics().corrupt, 1u);
    EXPECT_THAT(log.text(), HasSubstr("corrupt entry '" + path + "'"));
    llvm::sys::fs::file_status status;
    EXPECT_TRUE(bool(llvm::sys::fs::status(path, status, /*Follow=*/false)))
        << "the damaged entry stayed";
    // Rebuilt: storing over it works, and reads back.
    ASSERT_FALSE(cache.store(key, payload));
    std::optional<std::string> found = cache.lookup(key);
    ASSERT_TRUE(found);
    EXPECT_EQ(*found, payload);
  }
}

TEST(CacheStressTest, WritersKilledMidWriteLeaveNoTornEntries) {
  ScratchDirectory dir;
  constexpr unsigned kKeys = 4;
  std::mt19937 rng(1234);
  unsigned killedWhileRunning = 0;
  for (int round = 0; round < 24; ++round) {
    pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      // The child writes until it is killed.
      DiskCache cache(dir.path());
      for (unsigned i = 0;; i = (i + 1) % kKeys)
        if (llvm::Error err = cache.store(keyFor(i), payloadFor(i)))
          ::_exit(3);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1 + rng() % 40));
    ASSERT_EQ(::kill(pid, SIGKILL), 0);
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    if (WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL)
      ++killedWhileRunning;
  }
  EXPECT_EQ(killedWhileRunning, 24u);

  // Every entry is whole or absent: none was ever seen half-written.
  DiskCache cache(dir.path());
  for (unsigned i = 0; i < kKeys; ++i) {
    std::optional<std::string> found = cache.lookup(keyFor(i));
    if (found)
      EXPECT_EQ(*found, payloadFor(i));
  }
  EXPECT_EQ(cache.getStatistics().corrupt, 0u);

  // The kills left temporaries; fresh ones stay (a writer may still be at
  // work), old ones are removed by the next write in their directory.
  std::vector<std::string> orphans = temporariesUnder(dir.path());
  for (unsigned i = 0; i < kKeys; ++i) {
    std::string entryDir(
        llvm::sys::path::parent_path(cache.getEntryPath(keyFor(i))));
    EXPECT_EQ(removeStaleTemporaries(entryDir), 0u);
  }
  struct timeval old[2];
  ::gettimeofday(&old[0], nullptr);
  old[0].tv_sec -= 2 * kStaleTemporaryAge.count();
  old[1] = old[0];
  for (const std::string &orphan : orphans)
    ASSERT_EQ(::utimes(orphan.c_str(), old), 0) << orphan;
  for (unsigned i = 0; i < kKeys; ++i)
    ASSERT_FALSE(cache.store(keyFor(i), payloadFor(i)));
  EXPECT_THAT(temporariesUnder(dir.path()), ::testing::IsEmpty());
}

TEST(CacheStressTest, StaleTemporariesGoFreshOnesStay) {
  ScratchDirectory dir;
  std::string stale = dir.path() + "/.entry.tkc.tmp-00000001";
  std::string fresh = dir.path() + "/.entry.tkc.tmp-00000002";
  std::string other = dir.path() + "/notes.tmp-keep";
  writeBytes(stale, "half");
  writeBytes(fresh, "half");
  writeBytes(other, "not ours");
  struct timeval old[2];
  ::gettimeofday(&old[0], nullptr);
  old[0].tv_sec -= kStaleTemporaryAge.count() + 60;
  old[1] = old[0];
  ASSERT_EQ(::utimes(stale.c_str(), old), 0);
  ASSERT_EQ(::utimes(other.c_str(), old), 0);
  EXPECT_EQ(removeStaleTemporaries(dir.path()), 1u);
  EXPECT_FALSE(llvm::sys::fs::exists(stale));
  EXPECT_TRUE(llvm::sys::fs::exists(fresh));
  EXPECT_TRUE(llvm::sys::fs::exists(other));
}

TEST(CacheStressTest, ReadingRefusesWhatIsNotARegularFile) {
  ScratchDirectory dir;
  std::string fifo = dir.path() + "/fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_THAT(errorOf(readWholeFile(fifo)),
              HasSubstr("it is not a regular file but a FIFO"));
  EXPECT_THAT(errorOf(readWholeFile("/dev/zero")),
              HasSubstr("it is not a regular file but a character device"));
  EXPECT_THAT(errorOf(readWholeFile(dir.path())),
              HasSubstr("it is not a regular file but a directory"));
  std::string big = dir.path() + "/big";
  writeBytes(big, std::string(100, 'x'));
  EXPECT_THAT(errorOf(readWholeFile(big, 99)),
              HasSubstr("it has 100 bytes, more than the limit of 99"));
  llvm::Expected<std::string> whole = readWholeFile(big, 100);
  ASSERT_EXPECTED(whole);
  EXPECT_EQ(whole->size(), 100u);

  // A kernel file that is a FIFO or a device is refused at once.
  EXPECT_THAT(errorOf(KernelSource::load(fifo)),
              HasSubstr("cannot read kernel file '" + fifo +
                        "': it is not a regular file but a FIFO"));
  EXPECT_THAT(errorOf(KernelSource::load("/dev/zero")),
              HasSubstr("not a regular file but a character device"));
}

TEST(CacheStressTest, ThreadsCompilingIntoOneCache) {
  ScratchDirectory cacheDir;
  RuntimeOptions options;
  options.backend = "cpu";
  options.cacheDirectory = cacheDir.path();
  options.disableCache = false;
  options.dump = DumpOptions();
  llvm::Expected<std::unique_ptr<Runtime>> rt = Runtime::open(options);
  if (!rt) {
    std::string why = llvm::toString(rt.takeError());
    if (why.find("no backend named 'cpu'") != std::string::npos)
      GTEST_SKIP() << "no cpu plugin in this build";
    FAIL() << why;
  }
  llvm::Expected<std::unique_ptr<KernelSource>> source =
      KernelSource::load(std::string(TESSERA_SOURCE_DIR) +
                         "/conformance/kernels/01_vector_add.py");
  ASSERT_EXPECTED(source);

  // Eight threads, two kernels (block sizes) each compiled by four of
  // them at once, all through one compiler and one cache.
  constexpr unsigned kThreads = 8;
  std::vector<std::string> binaries(kThreads), errors(kThreads);
  std::vector<std::thread> threads;
  for (unsigned t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      CompileRequest request;
      request.kernel = "add_kernel";
      request.signature = std::string("*fp32:16,*fp32:16,*fp32:16,i32,") +
                          (t % 2 ? "256" : "1024");
      llvm::Expected<CompileResult> result =
          (*rt)->getCompiler().compile(**source, request, EmitStage::Binary);
      if (!result)
        errors[t] = llvm::toString(result.takeError());
      else
        binaries[t] = result->kernel->serialize();
    });
  for (std::thread &thread : threads)
    thread.join();
  for (unsigned t = 0; t < kThreads; ++t) {
    EXPECT_EQ(errors[t], "") << "thread " << t;
    EXPECT_EQ(binaries[t], binaries[t % 2]) << "thread " << t;
  }
  EXPECT_NE(binaries[0], binaries[1]);
  // One entry per kernel, no temporaries, nothing reported corrupt.
  unsigned entries = 0;
  std::error_code ec;
  for (llvm::sys::fs::recursive_directory_iterator it(cacheDir.path(), ec), end;
       it != end && !ec; it.increment(ec))
    entries += llvm::StringRef(it->path()).ends_with(".tkc");
  EXPECT_EQ(entries, 2u);
  EXPECT_THAT(temporariesUnder(cacheDir.path()), ::testing::IsEmpty());
  ASSERT_NE((*rt)->getCache(), nullptr);
  EXPECT_EQ((*rt)->getCache()->getStatistics().corrupt, 0u);
}
