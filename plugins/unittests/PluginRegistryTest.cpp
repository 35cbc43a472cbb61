//===- PluginRegistryTest.cpp - Loading, refusing and creating plugins ----===//
#include "TestSupport.h"

#include "tessera/Backend/Backend.h"
#include "tessera/Plugin/PluginABI.h"
#include "tessera/Plugin/PluginRegistry.h"
#include "tessera/Support/Logging.h"

#include "llvm/Config/llvm-config.h"
#include "llvm/Support/Path.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

#include <spdlog/sinks/ostream_sink.h>

#include <algorithm>
#include <dlfcn.h>
#include <sstream>

using namespace mlir::tessera;
using namespace mlir::tessera::test;
using testing::HasSubstr;

namespace {

std::vector<std::string> namesOf(llvm::ArrayRef<PluginInfo> plugins) {
  std::vector<std::string> names;
  for (const PluginInfo &info : plugins)
    names.push_back(info.name);
  return names;
}

std::vector<std::string> linesOf(llvm::ArrayRef<PluginLoadFailure> failures) {
  std::vector<std::string> lines;
  for (const PluginLoadFailure &failure : failures)
    lines.push_back(failure.message);
  return lines;
}

TEST(PluginRegistryTest, GoodPluginLoads) {
  PluginRegistry registry(only({fixture("good")}));
  llvm::ArrayRef<PluginInfo> plugins = registry.enumerate();
  ASSERT_EQ(plugins.size(), 1u);
  EXPECT_EQ(plugins[0].name, "fixture-good");
  EXPECT_EQ(plugins[0].version, "1.0");
  EXPECT_EQ(plugins[0].description, "a test fixture");
  EXPECT_EQ(plugins[0].path, fixture("good"));
  EXPECT_EQ(plugins[0].origin, PluginOrigin::Explicit);
  EXPECT_EQ(plugins[0].apiVersion, TESSERA_PLUGIN_API_VERSION);
  EXPECT_EQ(plugins[0].llvmMajor, unsigned(LLVM_VERSION_MAJOR));
  EXPECT_TRUE(registry.getLoadFailures().empty());
  ASSERT_NE(registry.lookup("fixture-good"), nullptr);
  EXPECT_EQ(registry.lookup("nope"), nullptr);

  llvm::Expected<std::shared_ptr<Backend>> backend =
      registry.create("fixture-good");
  ASSERT_TRUE(bool(backend)) << llvm::toString(backend.takeError());
  EXPECT_EQ((*backend)->getName(), "fixture-good");
  EXPECT_EQ((*backend)->getDriver().getDeviceCount(), 0u);
}

/// A fixture the loader refuses, and the reason its one line gives.
struct Refusal {
  const char *fixture;
  std::string reason;
};

class RefusedPluginTest : public testing::TestWithParam<Refusal> {};

TEST_P(RefusedPluginTest, OneLineNamingTheFile) {
  std::string path = fixture(GetParam().fixture);
  PluginRegistry registry(only({path}));
  EXPECT_TRUE(registry.enumerate().empty());
  ASSERT_EQ(registry.getLoadFailures().size(), 1u);
  EXPECT_EQ(registry.getLoadFailures()[0].path, path);
  EXPECT_EQ(registry.getLoadFailures()[0].message,
            path + ": " + GetParam().reason);
}

INSTANTIATE_TEST_SUITE_P(
    Fixtures, RefusedPluginTest,
    testing::Values(
        Refusal{
            "no-entry",
            "not a Tessera plugin: it does not export 'tesseraPluginEntry'"},
        Refusal{"null-descriptor",
                "'tesseraPluginEntry' returned no descriptor"},
        Refusal{"newer-api",
                "built for plugin API version " +
                    std::to_string(TESSERA_PLUGIN_API_VERSION + 1) +
                    ", newer than this host's " +
                    std::to_string(TESSERA_PLUGIN_API_VERSION)},
        Refusal{"older-api",
                "built for plugin API version " +
                    std::to_string(TESSERA_PLUGIN_API_VERSION - 1) +
                    ", older than the oldest this host supports (" +
                    std::to_string(kOldestSupportedPluginAPIVersion) + ")"},
        Refusal{"wrong-llvm", "built against LLVM " +
                                  std::to_string(LLVM_VERSION_MAJOR - 1) +
                                  ", but this host uses LLVM " +
                                  std::to_string(LLVM_VERSION_MAJOR)},
        Refusal{"null-name", "its descriptor has no name"},
        Refusal{"no-create",
                "its descriptor lacks createBackend or destroyBackend"},
        Refusal{"missing", "no such file or directory"}),
    [](const testing::TestParamInfo<Refusal> &info) {
      std::string name = info.param.fixture;
      std::replace(name.begin(), name.end(), '-', '_');
      return name;
    });

TEST(PluginRegistryTest, NotASharedLibrary) {
  std::string path = fixture("junk");
  PluginRegistry registry(only({path}));
  EXPECT_TRUE(registry.enumerate().empty());
  ASSERT_EQ(registry.getLoadFailures().size(), 1u);
  // Refused from its first bytes, before dlopen reads it.
  EXPECT_EQ(registry.getLoadFailures()[0].message,
            path + ": not a shared library: it does not start with the ELF "
                   "magic number");
}

TEST(PluginRegistryTest, CreateFailureGivesTheReason) {
  std::string path = fixture("create-fails");
  PluginRegistry registry(only({path}));
  // Enumerating reads the descriptor only; the failure shows at creation.
  EXPECT_EQ(namesOf(registry.enumerate()),
            std::vector<std::string>{"fixture-create-fails"});
  EXPECT_TRUE(registry.getLoadFailures().empty());
  std::string line =
      path + ": cannot create the backend: no accelerator answered";
  for (int attempt = 0; attempt < 2; ++attempt) {
    llvm::Expected<std::shared_ptr<Backend>> backend =
        registry.create("fixture-create-fails");
    ASSERT_FALSE(bool(backend));
    EXPECT_EQ(llvm::toString(backend.takeError()), line);
  }
  // Recorded once, however often it is retried.
  EXPECT_EQ(linesOf(registry.getLoadFailures()),
            std::vector<std::string>{line});
}

TEST(PluginRegistryTest, CreateThatThrowsDoesNotEscape) {
  std::string path = fixture("create-throws");
  PluginRegistry registry(only({path}));
  llvm::Expected<std::shared_ptr<Backend>> backend =
      registry.create("fixture-create-throws");
  ASSERT_FALSE(bool(backend));
  EXPECT_EQ(llvm::toString(backend.takeError()),
            path + ": createBackend threw an exception");
}

TEST(PluginRegistryTest, BackendMustCarryTheDescriptorsName) {
  std::string path = fixture("misnamed");
  PluginRegistry registry(only({path}));
  llvm::Expected<std::shared_ptr<Backend>> backend =
      registry.create("fixture-misnamed");
  ASSERT_FALSE(bool(backend));
  EXPECT_EQ(llvm::toString(backend.takeError()),
            path + ": created a backend named 'someone-else', but its "
                   "descriptor says 'fixture-misnamed'");
}

TEST(PluginRegistryTest, FirstOfANameWins) {
  std::string good = fixture("good"), twin = fixture("twin");
  {
    PluginRegistry registry(only({good, twin}));
    ASSERT_EQ(registry.enumerate().size(), 1u);
    EXPECT_EQ(registry.enumerate()[0].path, good);
    EXPECT_EQ(linesOf(registry.getLoadFailures()),
              std::vector<std::string>{
                  twin +
                  ": a plugin named 'fixture-good' was already loaded "
                  "from " +
                  good + "; this one is ignored"});
  }
  {
    PluginRegistry registry(only({twin, good}));
    ASSERT_EQ(registry.enumerate().size(), 1u);
    EXPECT_EQ(registry.enumerate()[0].path, twin);
    ASSERT_EQ(registry.getLoadFailures().size(), 1u);
    EXPECT_EQ(registry.getLoadFailures()[0].path, good);
  }
}

TEST(PluginRegistryTest, ExplicitPathsComeBeforeTheEnvironment) {
  std::string good = fixture("good"), twin = fixture("twin");
  ScopedPluginPath env(good);
  PluginSearchOptions options = only({twin});
  options.useEnvironment = true;
  PluginRegistry registry(options);
  ASSERT_EQ(registry.enumerate().size(), 1u);
  EXPECT_EQ(registry.enumerate()[0].path, twin);
  EXPECT_EQ(registry.enumerate()[0].origin, PluginOrigin::Explicit);
  ASSERT_EQ(registry.getLoadFailures().size(), 1u);
  EXPECT_EQ(registry.getLoadFailures()[0].path, good);
}

TEST(PluginRegistryTest, GoodPluginLoadsAmongBrokenOnes) {
  std::string dir = TESSERA_TEST_FIXTURE_DIR;
  PluginRegistry registry(only({dir}));
  EXPECT_EQ(
      namesOf(registry.enumerate()),
      (std::vector<std::string>{"fixture-create-fails", "fixture-create-throws",
                                "fixture-good", "fixture-misnamed"}));
  std::vector<std::string> refused;
  for (const PluginLoadFailure &failure : registry.getLoadFailures())
    refused.push_back(llvm::sys::path::filename(failure.path).str());
  EXPECT_EQ(refused, (std::vector<std::string>{
                         "tessera-plugin-fixture-junk.so",
                         "tessera-plugin-fixture-newer-api.so",
                         "tessera-plugin-fixture-no-create.so",
                         "tessera-plugin-fixture-no-entry.so",
                         "tessera-plugin-fixture-null-descriptor.so",
                         "tessera-plugin-fixture-null-name.so",
                         "tessera-plugin-fixture-older-api.so",
                         "tessera-plugin-fixture-twin.so",
                         "tessera-plugin-fixture-wrong-llvm.so"}));
  llvm::Expected<std::shared_ptr<Backend>> backend =
      registry.create("fixture-good");
  ASSERT_TRUE(bool(backend)) << llvm::toString(backend.takeError());
  EXPECT_EQ((*backend)->getName(), "fixture-good");
}

TEST(PluginRegistryTest, DiscoveryFromTheEnvironment) {
  std::string missing = std::string(TESSERA_TEST_FIXTURE_DIR) + "/nowhere";
  ScopedPluginPath env(fixture("good") + ":" + missing);
  PluginSearchOptions options = only({});
  options.useEnvironment = true;
  PluginRegistry registry(options);
  ASSERT_EQ(registry.enumerate().size(), 1u);
  EXPECT_EQ(registry.enumerate()[0].origin, PluginOrigin::Environment);
  EXPECT_EQ(linesOf(registry.getLoadFailures()),
            std::vector<std::string>{missing + ": no such file or directory"});
}

TEST(PluginRegistryTest, DirectoryFromTheEnvironment) {
  ScopedPluginPath env(std::string(TESSERA_TEST_FIXTURE_DIR));
  PluginSearchOptions options = only({});
  options.useEnvironment = true;
  PluginRegistry registry(options);
  EXPECT_EQ(registry.enumerate().size(), 4u);
  for (const PluginInfo &info : registry.enumerate())
    EXPECT_EQ(info.origin, PluginOrigin::Environment);
  EXPECT_EQ(registry.getLoadFailures().size(), 9u);
}

TEST(PluginRegistryTest, DefaultDirectoriesFindTheBuildTreesPlugins) {
  ScopedPluginPath env(std::nullopt);
  PluginRegistry registry;
  const PluginInfo *null = registry.lookup("null");
  ASSERT_NE(null, nullptr);
  EXPECT_EQ(null->origin, PluginOrigin::ProgramPrefix);
  EXPECT_EQ(llvm::sys::path::filename(null->path), "tessera-plugin-null.so");
}

TEST(PluginRegistryTest, BackendOutlivesTheRegistry) {
  std::shared_ptr<Backend> backend;
  {
    PluginRegistry registry(only({fixture("good")}));
    llvm::Expected<std::shared_ptr<Backend>> created =
        registry.create("fixture-good");
    ASSERT_TRUE(bool(created)) << llvm::toString(created.takeError());
    backend = *created;
  }
  // The plugin's code is still mapped: these are calls into it.
  EXPECT_EQ(backend->getName(), "fixture-good");
  EXPECT_EQ(backend->getDriver().getUnavailableReason(), "a test fixture");
  backend.reset();
}

/// True while `path` is mapped into this process.
bool isLoaded(const std::string &path) {
  void *handle = dlopen(path.c_str(), RTLD_NOW | RTLD_NOLOAD);
  if (handle)
    dlclose(handle);
  return handle != nullptr;
}

TEST(PluginRegistryTest, AcceptedPluginsStayLoaded) {
  // MLIR keeps names of the types a plugin used in process-wide tables; a
  // later session of another plugin read them after the first plugin was
  // unloaded and crashed (amdgpu, then nvptx, in one process).
  {
    PluginRegistry registry(only({fixture("good")}));
    llvm::Expected<std::shared_ptr<Backend>> created =
        registry.create("fixture-good");
    ASSERT_TRUE(bool(created)) << llvm::toString(created.takeError());
  }
  EXPECT_TRUE(isLoaded(fixture("good")));
  // A refused file ran nothing but its entry point and goes.
  {
    PluginRegistry registry(only({fixture("newer-api")}));
    EXPECT_EQ(registry.getLoadFailures().size(), 1u);
  }
  EXPECT_FALSE(isLoaded(fixture("newer-api")));
}

TEST(PluginRegistryTest, UnknownNames) {
  {
    PluginRegistry registry(only({fixture("good")}));
    llvm::Expected<std::shared_ptr<Backend>> backend = registry.create("nope");
    ASSERT_FALSE(bool(backend));
    EXPECT_EQ(llvm::toString(backend.takeError()),
              "no plugin named 'nope'; plugins are: fixture-good");
  }
  {
    // A name whose file was refused says why.
    std::string path = fixture("newer-api");
    PluginRegistry registry(only({path}));
    llvm::Expected<std::shared_ptr<Backend>> backend =
        registry.create("fixture-newer-api");
    ASSERT_FALSE(bool(backend));
    EXPECT_EQ(llvm::toString(backend.takeError()),
              "no plugin named 'fixture-newer-api' (" +
                  registry.getLoadFailures()[0].message + ")");
  }
  {
    PluginRegistry registry(only({}));
    llvm::Expected<std::shared_ptr<Backend>> backend = registry.create("cpu");
    ASSERT_FALSE(bool(backend));
    EXPECT_EQ(llvm::toString(backend.takeError()),
              "no plugin named 'cpu': no plugins were found in an empty "
              "search path");
  }
}

TEST(PluginRegistryTest, FailuresAreLoggedThroughTheCoreLogger) {
  std::ostringstream log;
  spdlog::logger &logger = getLogger();
  auto sink = std::make_shared<spdlog::sinks::ostream_sink_mt>(log);
  sink->set_pattern("%l: %v");
  logger.sinks().push_back(sink);
  std::string path = fixture("wrong-llvm");
  {
    PluginRegistry registry(only({path}));
    (void)registry.enumerate();
    (void)registry.enumerate();
  }
  logger.sinks().pop_back();
  EXPECT_EQ(log.str(), "warning: " + path + ": built against LLVM " +
                           std::to_string(LLVM_VERSION_MAJOR - 1) +
                           ", but this host uses LLVM " +
                           std::to_string(LLVM_VERSION_MAJOR) + "\n");
}

} // namespace
