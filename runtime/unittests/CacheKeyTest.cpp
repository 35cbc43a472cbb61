//===- CacheKeyTest.cpp - Every input of a cache key matters --------------===//
#include "tessera/Runtime/CacheKey.h"

#include "gtest/gtest.h"

#include <functional>
#include <set>

using namespace mlir::tessera::runtime;

namespace {
CacheKeyInputs baseInputs() {
  CacheKeyInputs in;
  in.tesseraVersion = "0.1.0";
  in.plugin = {"cpu", "0.1.0", "the host CPU"};
  in.target = "backend=cpu arch=x86-64 warp-size=1";
  in.options = "arch=x86-64 num-warps=4 num-stages=3";
  in.pipelineHash = "0123abcd";
  in.sourceHash = "feedface";
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
      [](CacheKeyInputs &in) { in.target += " clusters=1"; },
      [](CacheKeyInputs &in) { in.options = "num-warps=8"; },
      [](CacheKeyInputs &in) { in.pipelineHash = "0123abce"; },
      [](CacheKeyInputs &in) { in.sourceHash = "feedfacf"; },
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
