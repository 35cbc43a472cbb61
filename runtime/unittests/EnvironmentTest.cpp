//===- EnvironmentTest.cpp - The runtime's environment variables ----------===//
#include "TestSupport.h"

#include "tessera/Runtime/Environment.h"

#include "llvm/Support/Threading.h"

#include "gtest/gtest.h"

#include <algorithm>

using namespace mlir::tessera::runtime;
using mlir::tessera::runtime::testing::ScopedEnv;

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
