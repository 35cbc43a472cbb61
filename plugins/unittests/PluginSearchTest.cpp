//===- PluginSearchTest.cpp - Where the host looks for plugins ------------===//
#include "TestSupport.h"

#include "tessera/Plugin/PluginSearch.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

#include <filesystem>

using namespace mlir::tessera;
using namespace mlir::tessera::test;
namespace fs = std::filesystem;

namespace {

TEST(PluginSearchTest, FileNames) {
  EXPECT_TRUE(isPluginFileName("tessera-plugin-cpu.so"));
  EXPECT_TRUE(isPluginFileName("tessera-plugin-x.so"));
  EXPECT_FALSE(isPluginFileName("tessera-plugin-.so"));
  EXPECT_FALSE(isPluginFileName("libtessera-plugin-cpu.so"));
  EXPECT_FALSE(isPluginFileName("tessera-plugin-cpu.so.1"));
  EXPECT_FALSE(isPluginFileName("libTesseraCore.so"));
}

TEST(PluginSearchTest, PrecedenceOrder) {
  ScopedPluginPath env(std::string("/env/a::/env/b:"));
  PluginSearchOptions options;
  options.paths = {"/explicit/a", "/explicit/b"};
  std::vector<PluginSearchEntry> path = getPluginSearchPath(options);
  ASSERT_EQ(path.size(), 6u);
  EXPECT_EQ(path[0].path, "/explicit/a");
  EXPECT_EQ(path[0].origin, PluginOrigin::Explicit);
  EXPECT_EQ(path[1].path, "/explicit/b");
  // Empty elements of the variable are skipped.
  EXPECT_EQ(path[2].path, "/env/a");
  EXPECT_EQ(path[2].origin, PluginOrigin::Environment);
  EXPECT_EQ(path[3].path, "/env/b");
  EXPECT_TRUE(path[3].required);
  EXPECT_EQ(path[4].origin, PluginOrigin::ProgramPrefix);
  EXPECT_EQ(path[5].origin, PluginOrigin::LibraryPrefix);
  EXPECT_FALSE(path[4].required);
  // This test runs from build/unittests and links build/lib's library: both
  // lead to the build tree's plugin directory.
  EXPECT_TRUE(fs::equivalent(path[4].path, TESSERA_TEST_PLUGIN_DIR));
  EXPECT_TRUE(fs::equivalent(path[5].path, TESSERA_TEST_PLUGIN_DIR));
}

TEST(PluginSearchTest, EnvironmentAndDefaultsCanBeLeftOut) {
  ScopedPluginPath env(std::string("/env/a"));
  EXPECT_TRUE(getPluginSearchPath(only({})).empty());
  PluginSearchOptions options = only({"/x"});
  options.useEnvironment = true;
  std::vector<PluginSearchEntry> path = getPluginSearchPath(options);
  ASSERT_EQ(path.size(), 2u);
  EXPECT_EQ(path[1].path, "/env/a");
}

TEST(PluginSearchTest, DirectoriesGivePluginFilesInNameOrder) {
  std::vector<PluginLoadFailure> failures;
  std::vector<PluginCandidate> files = findPluginFiles(
      {{TESSERA_TEST_FIXTURE_DIR, PluginOrigin::Environment}}, failures);
  EXPECT_TRUE(failures.empty());
  std::vector<std::string> names;
  for (const PluginCandidate &file : files) {
    EXPECT_EQ(file.origin, PluginOrigin::Environment);
    names.push_back(fs::path(file.path).filename().string());
  }
  // Object files and CMake's own files in the directory are not plugins.
  EXPECT_THAT(names,
              testing::ElementsAre("tessera-plugin-fixture-create-fails.so",
                                   "tessera-plugin-fixture-create-throws.so",
                                   "tessera-plugin-fixture-good.so",
                                   "tessera-plugin-fixture-junk.so",
                                   "tessera-plugin-fixture-misnamed.so",
                                   "tessera-plugin-fixture-newer-api.so",
                                   "tessera-plugin-fixture-no-create.so",
                                   "tessera-plugin-fixture-no-entry.so",
                                   "tessera-plugin-fixture-null-descriptor.so",
                                   "tessera-plugin-fixture-null-name.so",
                                   "tessera-plugin-fixture-older-api.so",
                                   "tessera-plugin-fixture-twin.so",
                                   "tessera-plugin-fixture-wrong-llvm.so"));
}

TEST(PluginSearchTest, MissingEntries) {
  std::vector<PluginLoadFailure> failures;
  std::vector<PluginCandidate> files =
      findPluginFiles({{"/no/such/plugin.so", PluginOrigin::Explicit, true},
                       {"/no/such/dir", PluginOrigin::ProgramPrefix, false}},
                      failures);
  EXPECT_TRUE(files.empty());
  // Only the entry the user named is worth a line.
  ASSERT_EQ(failures.size(), 1u);
  EXPECT_EQ(failures[0].path, "/no/such/plugin.so");
  EXPECT_EQ(failures[0].message,
            "/no/such/plugin.so: no such file or directory");
}

TEST(PluginSearchTest, AFileReachedTwiceCountsOnce) {
  std::vector<PluginLoadFailure> failures;
  std::string good = fixture("good");
  std::vector<PluginCandidate> files =
      findPluginFiles({{good, PluginOrigin::Explicit},
                       {TESSERA_TEST_FIXTURE_DIR, PluginOrigin::Environment},
                       {std::string(TESSERA_TEST_FIXTURE_DIR) + "/../fixtures",
                        PluginOrigin::Environment}},
                      failures);
  EXPECT_TRUE(failures.empty());
  ASSERT_EQ(files.size(), 13u);
  EXPECT_EQ(files[0].path, good);
  EXPECT_EQ(files[0].origin, PluginOrigin::Explicit);
  for (size_t i = 1; i < files.size(); ++i)
    EXPECT_NE(fs::path(files[i].path).filename(),
              "tessera-plugin-fixture-good.so");
}

} // namespace
