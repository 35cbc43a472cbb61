//===- EnvironmentTest.cpp - The runtime's environment variables ----------===//
#include "tessera/Runtime/Environment.h"

#include "llvm/Support/Threading.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <cstdlib>
#include <optional>
#include <string>

using namespace mlir::tessera::runtime;

namespace {
/// Sets an environment variable for one scope, restoring its old value.
class ScopedEnv {
public:
  ScopedEnv(const char *name, const char *value) : name(name) {
    if (const char *old = std::getenv(name))
      previous = old;
    if (value)
      ::setenv(name, value, 1);
    else
      ::unsetenv(name);
  }
  ~ScopedEnv() {
    if (previous)
      ::setenv(name, previous->c_str(), 1);
    else
      ::unsetenv(name);
  }

private:
  const char *name;
  std::optional<std::string> previous;
};
} // namespace

TEST(EnvironmentTest, CompileThreadsFromTheVariableElseTheHardware) {
  unsigned hardware =
      std::max(1u, llvm::hardware_concurrency().compute_thread_count());
  {
    ScopedEnv env("TESSERA_COMPILE_THREADS", nullptr);
    EXPECT_EQ(getCompileThreadCount(), hardware);
  }
  {
    ScopedEnv env("TESSERA_COMPILE_THREADS", " 3 ");
    EXPECT_EQ(getCompileThreadCount(), 3u);
  }
  // Not a positive number: a warning, and the hardware threads.
  for (const char *bad : {"0", "-2", "many", "1.5"}) {
    ScopedEnv env("TESSERA_COMPILE_THREADS", bad);
    EXPECT_EQ(getCompileThreadCount(), hardware) << bad;
  }
}

TEST(EnvironmentTest, FlagsAcceptTheUsualSpellings) {
  for (const char *yes : {"1", "true", "YES", " on "}) {
    ScopedEnv env("TESSERA_TIME_STAGES", yes);
    EXPECT_TRUE(isEnvironmentFlagSet(kTimeStagesEnvVar)) << yes;
  }
  for (const char *no : {"0", "false", "", "2"}) {
    ScopedEnv env("TESSERA_TIME_STAGES", no);
    EXPECT_FALSE(isEnvironmentFlagSet(kTimeStagesEnvVar)) << no;
  }
}
