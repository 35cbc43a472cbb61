//===- CacheKeyTest.cpp - Every input of a cache key matters --------------===//
#include "tessera/Runtime/CacheKey.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <functional>
#include <set>

using namespace mlir::tessera::runtime;

namespace {
/// A temporary file holding `text`, removed at the end of the test.
class ScratchFile {
public:
  explicit ScratchFile(llvm::StringRef text) {
    int fd;
    if (std::error_code ec = llvm::sys::fs::createTemporaryFile(
            "tessera-cachekey", "so", fd, file))
      ADD_FAILURE() << ec.message();
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    os << text;
  }
  ~ScratchFile() { llvm::sys::fs::remove(file); }
  std::string path() const { return std::string(file.str()); }

private:
  llvm::SmallString<128> file;
};

CacheKeyInputs baseInputs() {
  CacheKeyInputs in;
  in.tesseraVersion = "0.1.0";
  in.plugin = {"cpu", "0.1.0", "the host CPU", "/lib/tessera-plugin-cpu.so"};
  in.pluginBinary = "00112233445566778899aabbccddeeff";
  in.target = "backend=cpu arch=x86-64 warp-size=1";
  in.options = "arch=x86-64 num-warps=4 num-stages=3";
  in.pipelineHash = "0123abcd";
  in.sourceHash = "feedface";
  in.moduleHash = "0badc0de";
  in.kernelName = "add_kernel";
  in.specialization = "add_kernel(*fp32:16,*fp32:16,*fp32:16,i32,1024)";
  return in;
}
} // namespace

TEST(CacheKeyTest, StableAndHex) {
  std::string key = computeCacheKey(baseInputs());
  EXPECT_EQ(key, computeCacheKey(baseInputs()));
  ASSERT_EQ(key.size(), 64u);
  EXPECT_EQ(key.find_first_not_of("0123456789abcdef"), std::string::npos);
}

TEST(CacheKeyTest, EveryInputChangesTheKey) {
  std::vector<std::function<void(CacheKeyInputs &)>> changes = {
      [](CacheKeyInputs &in) { in.tesseraVersion = "0.2.0"; },
      [](CacheKeyInputs &in) { in.plugin.name = "nvptx"; },
      [](CacheKeyInputs &in) { in.plugin.version = "0.1.1"; },
      [](CacheKeyInputs &in) { in.plugin.description += "!"; },
      // A rebuilt plugin of the same name and version.
      [](CacheKeyInputs &in) {
        in.pluginBinary = "00112233445566778899aabbccddeefe";
      },
      [](CacheKeyInputs &in) { in.target += " clusters=1"; },
      [](CacheKeyInputs &in) { in.options = "num-warps=8"; },
      [](CacheKeyInputs &in) { in.pipelineHash = "0123abce"; },
      [](CacheKeyInputs &in) { in.sourceHash = "feedfacf"; },
      // A helper or global from a module outside the source hash changed.
      [](CacheKeyInputs &in) { in.moduleHash = "0badc0df"; },
      [](CacheKeyInputs &in) { in.kernelName = "sub_kernel"; },
      [](CacheKeyInputs &in) {
        in.specialization = "add_kernel(*fp32:16,*fp32:16,*fp32,i32,1024)";
      },
  };
  std::set<std::string> keys = {computeCacheKey(baseInputs())};
  for (auto &change : changes) {
    CacheKeyInputs in = baseInputs();
    change(in);
    keys.insert(computeCacheKey(in));
  }
  EXPECT_EQ(keys.size(), changes.size() + 1);
}

TEST(CacheKeyTest, WhereThePluginLivesIsNotInTheKey) {
  // The same plugin bytes installed elsewhere compile the same kernels.
  CacheKeyInputs moved = baseInputs();
  moved.plugin.path = "/opt/tessera/lib/tessera-plugin-cpu.so";
  EXPECT_EQ(computeCacheKey(moved), computeCacheKey(baseInputs()));
}

TEST(CacheKeyTest, PluginFilesHashByContent) {
  ScratchFile a("plugin bytes"), b("plugin bytes"), c("plugin bytez");
  std::string hash = hashPluginFile(a.path());
  EXPECT_EQ(hash.size(), 32u);
  EXPECT_EQ(hash.find_first_not_of("0123456789abcdef"), std::string::npos);
  EXPECT_EQ(hash, hashPluginFile(b.path()));
  EXPECT_NE(hash, hashPluginFile(c.path()));
  EXPECT_EQ(hashPluginFile(""), "");
  EXPECT_EQ(hashPluginFile(a.path() + ".missing"), "unreadable");
}

TEST(CacheKeyTest, FieldsCannotBleedIntoEachOther) {
  // Moving text from one field to the next must not give the same key.
  CacheKeyInputs a = baseInputs(), b = baseInputs();
  a.kernelName = "add";
  a.specialization = "_kernel(x)";
  b.kernelName = "add_kernel";
  b.specialization = "(x)";
  EXPECT_NE(computeCacheKey(a), computeCacheKey(b));
}

TEST(CacheKeyTest, Sha256KnownAnswer) {
  EXPECT_EQ(sha256Hex("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}
