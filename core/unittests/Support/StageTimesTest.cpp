//===- StageTimesTest.cpp - Wall time of each step of a compilation -------===//
#include "tessera/Support/StageTimes.h"

#include "gtest/gtest.h"

#include <thread>

using namespace mlir::tessera;

TEST(StageTimesTest, StepsNestAddUpAndKeepTheirOrder) {
  StageTimes times;
  {
    StageTimer binary(&times, "binary");
    times.add("codegen", 0.5);
    times.add("assembler", 0.25, /*external=*/true);
    times.add("codegen", 0.5); // a step that runs twice adds up
  }
  times.add("cache-store", 0.125);
  llvm::ArrayRef<StageTimes::Step> steps = times.getSteps();
  ASSERT_EQ(steps.size(), 4u);
  EXPECT_EQ(steps[0].name, "binary");
  EXPECT_EQ(steps[0].depth, 0u);
  EXPECT_EQ(steps[1].name, "binary/codegen");
  EXPECT_EQ(steps[1].depth, 1u);
  EXPECT_EQ(steps[2].name, "binary/assembler");
  EXPECT_TRUE(steps[2].external);
  EXPECT_EQ(steps[3].name, "cache-store");
  EXPECT_DOUBLE_EQ(times.lookup("binary/codegen"), 1.0);
  EXPECT_EQ(times.lookup("codegen"), 0.0);
  // The parent's own timer measured only the microseconds it ran; the
  // total counts outermost steps, and "own" leaves out external ones.
  double binary = times.lookup("binary");
  EXPECT_GE(binary, 0.0);
  EXPECT_LT(binary, 0.5);
  EXPECT_DOUBLE_EQ(times.getTotalSeconds(), binary + 0.125);
  EXPECT_DOUBLE_EQ(times.getOwnSeconds(), binary + 0.125 - 0.25);
}

TEST(StageTimesTest, TimersMeasureWallTimeAndStopOnce) {
  StageTimes times;
  StageTimer timer(&times, "sleep");
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  timer.stop();
  double first = times.lookup("sleep");
  EXPECT_GE(first, 0.019);
  timer.stop();
  EXPECT_EQ(times.lookup("sleep"), first);
  // A null StageTimes: nothing is recorded, nothing fails.
  StageTimer none(nullptr, "ignored");
  none.stop();
}

TEST(StageTimesTest, PrintsAndSerializes) {
  StageTimes times;
  times.add("frontend", 0.010);
  {
    StageTimer binary(&times, "binary");
    times.add("assembler", 0.030, /*external=*/true);
  }
  std::string text;
  llvm::raw_string_ostream os(text);
  times.print(os);
  EXPECT_NE(text.find("  frontend "), std::string::npos) << text;
  EXPECT_NE(text.find("\n    assembler (external) "), std::string::npos)
      << text;
  EXPECT_NE(text.find("\n  total "), std::string::npos) << text;
  EXPECT_NE(text.find("\n  own "), std::string::npos) << text;

  llvm::json::Value json = times.toJSON();
  llvm::json::Object *object = json.getAsObject();
  ASSERT_NE(object, nullptr);
  llvm::json::Array *steps = object->getArray("steps");
  ASSERT_NE(steps, nullptr);
  ASSERT_EQ(steps->size(), 3u);
  EXPECT_EQ((*steps)[2].getAsObject()->getString("name"), "binary/assembler");
  EXPECT_EQ((*steps)[2].getAsObject()->getBoolean("external"), true);
  EXPECT_NEAR(*object->getNumber("own_seconds"),
              times.getTotalSeconds() - 0.030, 1e-12);
}
