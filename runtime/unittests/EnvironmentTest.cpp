//===- EnvironmentTest.cpp - The runtime's environment variables ----------===//
#include "TestSupport.h"

#include "tessera/Runtime/Environment.h"

#include "llvm/Support/Threading.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <thread>

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

TEST(EnvironmentTest, ALimitCapsTheCompileThreadsOfItsThread) {
  ScopedEnv env("TESSERA_COMPILE_THREADS", "6");
  {
    CompileThreadLimit limit(4);
    EXPECT_EQ(getCompileThreadCount(), 4u);
    {
      // Nested limits take the smaller; a limit above the count is no cap.
      CompileThreadLimit inner(2);
      EXPECT_EQ(getCompileThreadCount(), 2u);
      CompileThreadLimit loose(8);
      EXPECT_EQ(getCompileThreadCount(), 2u);
    }
    EXPECT_EQ(getCompileThreadCount(), 4u);
    // Another thread is not limited.
    unsigned other = 0;
    std::thread([&] { other = getCompileThreadCount(); }).join();
    EXPECT_EQ(other, 6u);
    CompileThreadLimit zero(0);
    EXPECT_EQ(getCompileThreadCount(), 1u);
  }
  EXPECT_EQ(getCompileThreadCount(), 6u);
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
