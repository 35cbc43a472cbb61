//===- PipelineTest.cpp - Named stages and anchors ------------------------===//
#include "tessera/Pipeline/Pipeline.h"
#include "tessera/InitAll.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Transforms/Passes.h"
#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::tessera;

namespace {
PipelineStage stage(StringRef name) {
  return {name.str(), "test stage",
          [](OpPassManager &pm, const PipelineOptions &) {
            pm.addPass(createCSEPass());
          }};
}

std::string errorOf(llvm::Error err) {
  return err ? llvm::toString(std::move(err)) : "";
}
} // namespace

TEST(PipelineTest, CoreStagesInOrder) {
  std::vector<std::string> expected = {
      "inline",     "canonicalize",   "cse",      "licm",
      "symbol-dce", "convert-to-gpu", "coalesce", "remove-layout-conversions",
      "cleanup"};
  EXPECT_EQ(buildCorePipeline().getStageNames(), expected);
}

TEST(PipelineTest, InsertAtAnchors) {
  Pipeline p;
  p.append(stage("a"));
  p.append(stage("c"));
  EXPECT_EQ(errorOf(p.insert("after:a", stage("b"))), "");
  EXPECT_EQ(errorOf(p.insert("before:a", stage("start"))), "");
  EXPECT_EQ(errorOf(p.insert("end", stage("z"))), "");
  EXPECT_EQ(errorOf(p.insert("replace:c", stage("c2"))), "");
  EXPECT_EQ(p.getStageNames(),
            (std::vector<std::string>{"start", "a", "b", "c2", "z"}));
}

TEST(PipelineTest, BadAnchorsNameTheProblem) {
  Pipeline p;
  p.append(stage("a"));
  EXPECT_EQ(
      errorOf(p.insert("after:nope", stage("b"))),
      "pipeline anchor 'after:nope': no stage named 'nope'; stages are: a");
  EXPECT_EQ(errorOf(p.insert("around:a", stage("b"))),
            "pipeline anchor 'around:a': expected 'after:STAGE', "
            "'before:STAGE', 'replace:STAGE', 'begin' or 'end'");
  EXPECT_EQ(errorOf(p.insert("after:a", stage("a"))),
            "pipeline anchor 'after:a': a stage named 'a' already exists");
}

TEST(PipelineTest, PrintAndHashFollowTheStages) {
  PipelineOptions options;
  Pipeline p = buildCorePipeline();
  std::string text;
  llvm::raw_string_ostream os(text);
  p.print(os, options);
  EXPECT_NE(text.find("convert-to-gpu: "), std::string::npos);
  EXPECT_NE(text.find("tessera-convert-to-gpu{num-ctas=1 num-warps=4"),
            std::string::npos);

  std::string h1 = p.hash(options);
  options.numWarps = 8;
  std::string h2 = p.hash(options);
  EXPECT_NE(h1, h2) << "the launch shape must change the cache key";
  options.numWarps = 4;
  EXPECT_EQ(p.hash(options), h1) << "the hash must be deterministic";
  ASSERT_FALSE(p.insert("end", stage("extra")));
  EXPECT_NE(p.hash(options), h1) << "a plugin's stage must change the key";
}

TEST(PipelineTest, BuildRejectsUnknownStages) {
  MLIRContext ctx;
  PassManager pm(&ctx);
  Pipeline p = buildCorePipeline();
  EXPECT_NE(errorOf(p.build(pm, {}, "nope"))
                .find("start-after stage 'nope' does not exist"),
            std::string::npos);
  DumpOptions dump;
  dump.after = {"bogus"};
  EXPECT_NE(errorOf(p.build(pm, {}, "", "", dump))
                .find("cannot dump after stage 'bogus'"),
            std::string::npos);
}

TEST(PipelineTest, TimedRunsTimeEachStageInRange) {
  MLIRContext ctx;
  ctx.loadDialect<mlir::func::FuncDialect>();
  OwningOpRef<ModuleOp> module = ModuleOp::create(UnknownLoc::get(&ctx));
  Pipeline p;
  p.append(stage("first"));
  p.append(stage("second"));
  p.append(stage("third"));
  StageTimes times;
  ASSERT_TRUE(succeeded(p.run(*module, {}, "first", "", {}, &times)));
  ASSERT_EQ(times.getSteps().size(), 2u);
  EXPECT_EQ(times.getSteps()[0].name, "second");
  EXPECT_EQ(times.getSteps()[1].name, "third");
  EXPECT_GE(times.getSteps()[0].seconds, 0.0);
  // Unknown stages fail as an untimed run does.
  StageTimes none;
  EXPECT_TRUE(failed(p.run(*module, {}, "nope", "", {}, &none)));
  EXPECT_TRUE(none.empty());
}

TEST(PipelineTest, TimedStagesOfSeveralPassesTimeEachPass) {
  MLIRContext ctx;
  ctx.loadDialect<mlir::func::FuncDialect>();
  OwningOpRef<ModuleOp> module = ModuleOp::create(UnknownLoc::get(&ctx));
  Pipeline p;
  p.append(stage("one"));
  p.append(
      {"two", "test stage", [](OpPassManager &pm, const PipelineOptions &) {
         pm.addPass(createCanonicalizerPass());
         pm.nest<func::FuncOp>().addPass(createCSEPass());
         pm.addPass(createCSEPass());
         pm.addPass(createCanonicalizerPass());
       }});
  StageTimes times;
  ASSERT_TRUE(succeeded(p.run(*module, {}, "", "", {}, &times)));
  std::vector<std::string> names;
  for (const StageTimes::Step &step : times.getSteps())
    names.push_back(step.name);
  // A stage of one pass has no parts; a pass running twice adds up; the
  // passes of a nested pipeline are timed as the one pass that runs them.
  EXPECT_EQ(names,
            (std::vector<std::string>{"one", "two", "two/canonicalize",
                                      "two/nested-pipeline", "two/cse"}));
  EXPECT_EQ(times.getSteps()[2].depth, 1u);
  EXPECT_LE(times.lookup("two/canonicalize") + times.lookup("two/cse"),
            times.lookup("two"));
}
