//===- AutotunerTest.cpp - Selection and persistence with chosen timings --===//
#include "FakeBackend.h"
#include "TestSupport.h"

#include "tessera/Runtime/Autotuner.h"
#include "tessera/Runtime/Benchmark.h"

#include "tessera/Runtime/AtomicFile.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"

using namespace mlir::tessera;
using namespace mlir::tessera::runtime;
using namespace mlir::tessera::runtime::testing;

namespace {
std::vector<TuneCandidate> makeCandidates() {
  std::vector<TuneCandidate> candidates;
  for (int warps : {2, 4, 8}) {
    TuneCandidate c;
    c.constexprs = {{"BLOCK", KernelArg::integer(warps * 32)}};
    c.numWarps = warps;
    candidates.push_back(c);
  }
  return candidates;
}

TuningScope makeScope() {
  return {"fake",          "Fake Device", "fake-arch",
          "matmul_kernel", "matmul.py",   "source-hash-1"};
}

/// Measures a candidate the way the runtime does: load its kernel, then
/// benchmark its launches on the fake driver, whose timing says that 4
/// warps are fastest.
struct Measurer {
  FakeDriver driver;
  std::vector<TuneCandidate> candidates = makeCandidates();
  unsigned measured = 0;

  Measurer() {
    driver.timing = [](const CompiledKernel &k) {
      return k.numWarps == 4 ? 1.0 : k.numWarps == 8 ? 2.0 : 3.0;
    };
  }

  llvm::Expected<double> operator()(unsigned index) {
    ++measured;
    CompiledKernel kernel;
    kernel.numWarps = candidates[index].numWarps;
    llvm::Expected<ModuleHandle> module = driver.loadModule(0, kernel);
    if (!module)
      return module.takeError();
    BenchOptions options;
    options.flushBytes = 1024;
    options.warmupMs = 2;
    options.repMs = 10;
    llvm::Expected<BenchStats> stats = benchmark(
        driver, 0, [&] { return driver.launch(*module, LaunchConfig(), {}); },
        options);
    if (!stats)
      return stats.takeError();
    return stats->median;
  }
};
} // namespace

TEST(AutotunerTest, CandidateText) {
  TuneCandidate c;
  c.constexprs = {{"BLOCK_M", KernelArg::integer(128)},
                  {"ACT", KernelArg::string("relu")}};
  c.numWarps = 8;
  c.numStages = 4;
  EXPECT_EQ(c.str(), "BLOCK_M=128, ACT='relu', num_warps=8, num_stages=4, "
                     "num_ctas=1");
  c.maxNumRegs = 128;
  EXPECT_EQ(c.str(), "BLOCK_M=128, ACT='relu', num_warps=8, num_stages=4, "
                     "num_ctas=1, maxnreg=128");
}

TEST(AutotunerTest, ChoosesTheFastestAndRemembersIt) {
  ScratchDirectory dir;
  TuningStore store(dir.path());
  Measurer measure;
  Autotuner tuner(makeCandidates(), &store, makeScope());
  EXPECT_FALSE(tuner.lookup("M=64"));
  llvm::Expected<unsigned> best = tuner.select("M=64", {}, std::ref(measure));
  ASSERT_EXPECTED(best);
  EXPECT_EQ(*best, 1u);
  EXPECT_EQ(measure.measured, 3u);
  EXPECT_EQ(tuner.getLastTimings(), (std::vector<double>{3.0, 1.0, 2.0}));

  // Remembered in memory: no measurement, and lookup() answers.
  best = tuner.select("M=64", {}, std::ref(measure));
  ASSERT_EXPECTED(best);
  EXPECT_EQ(*best, 1u);
  EXPECT_EQ(measure.measured, 3u);
  EXPECT_EQ(tuner.lookup("M=64"), 1u);

  // A new key is tuned on its own, among the allowed configs only.
  best = tuner.select("M=128", {0, 2}, std::ref(measure));
  ASSERT_EXPECTED(best);
  EXPECT_EQ(*best, 2u);
  EXPECT_EQ(measure.measured, 5u);
}

TEST(AutotunerTest, PersistsPerDeviceAndKernel) {
  ScratchDirectory dir;
  {
    TuningStore store(dir.path());
    Measurer measure;
    Autotuner tuner(makeCandidates(), &store, makeScope());
    ASSERT_EXPECTED(tuner.select("M=64", {}, std::ref(measure)));
  }

  // The record is readable JSON in the documented place.
  TuningStore store(dir.path());
  std::string path = store.getPath(makeScope());
  EXPECT_NE(path.find("/autotune/fake-Fake_Device-fake-arch/matmul_kernel-"),
            std::string::npos)
      << path;
  llvm::Expected<std::string> text = readWholeFile(path);
  ASSERT_EXPECTED(text);
  llvm::Expected<llvm::json::Value> json = llvm::json::parse(*text);
  ASSERT_EXPECTED(json);
  const llvm::json::Object *result =
      json->getAsObject()->getObject("results")->getObject("M=64");
  ASSERT_TRUE(result);
  EXPECT_EQ(result->getString("config"),
            "BLOCK=128, num_warps=4, num_stages=3, num_ctas=1");

  // A later process finds it without measuring.
  {
    Autotuner tuner(makeCandidates(), &store, makeScope());
    llvm::Expected<unsigned> best =
        tuner.select("M=64", {}, [](unsigned) -> llvm::Expected<double> {
          ADD_FAILURE() << "measured a remembered key";
          return 0.0;
        });
    ASSERT_EXPECTED(best);
    EXPECT_EQ(*best, 1u);
  }

  // Another source, device or config list tunes again.
  auto measuredAgain = [&](TuningScope scope,
                           std::vector<TuneCandidate> candidates) {
    Measurer measure;
    Autotuner tuner(std::move(candidates), &store, scope);
    llvm::Expected<unsigned> best = tuner.select("M=64", {}, std::ref(measure));
    EXPECT_TRUE(bool(best));
    llvm::consumeError(best.takeError());
    return measure.measured != 0;
  };
  TuningScope edited = makeScope();
  edited.sourceHash = "source-hash-2";
  EXPECT_TRUE(measuredAgain(edited, makeCandidates()));
  TuningScope otherDevice = makeScope();
  otherDevice.deviceName = "Other Device";
  EXPECT_TRUE(measuredAgain(otherDevice, makeCandidates()));
  std::vector<TuneCandidate> changed = makeCandidates();
  changed[1].numStages = 2;
  EXPECT_TRUE(measuredAgain(makeScope(), changed));
  // Both results of the edited source live in their own file.
  EXPECT_NE(store.getPath(edited), path);
}

TEST(AutotunerTest, FailingConfigsLose) {
  Autotuner tuner(makeCandidates(), nullptr, makeScope());
  llvm::Expected<unsigned> best =
      tuner.select("k", {}, [](unsigned i) -> llvm::Expected<double> {
        if (i == 1)
          return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                         "out of shared memory");
        return i == 0 ? 5.0 : 7.0;
      });
  ASSERT_EXPECTED(best);
  EXPECT_EQ(*best, 0u);

  Autotuner failing(makeCandidates(), nullptr, makeScope());
  best = failing.select("k", {}, [](unsigned i) -> llvm::Expected<double> {
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "no");
  });
  EXPECT_EQ(errorOf(std::move(best)),
            "autotune: every config of kernel 'matmul_kernel' failed; the "
            "first: BLOCK=64, num_warps=2, num_stages=3, num_ctas=1: no");
}

TEST(AutotunerTest, UnreadableRecordsAreReplaced) {
  ScratchDirectory dir;
  TuningStore store(dir.path());
  ASSERT_NO_ERROR(writeFileAtomically(store.getPath(makeScope()), "{not json"));
  Measurer measure;
  Autotuner tuner(makeCandidates(), &store, makeScope());
  ASSERT_EXPECTED(tuner.select("M=64", {}, std::ref(measure)));
  EXPECT_EQ(measure.measured, 3u);
  EXPECT_TRUE(store.lookup(makeScope(), "M=64"));
}

TEST(AutotunerTest, ConfigsKnownByTheirText) {
  // An embedder's configs (the Python package's triton.Config objects) are
  // known by their text; records are shared with tuners over candidates.
  ScratchDirectory dir;
  TuningStore store(dir.path());
  std::vector<std::string> names;
  for (const TuneCandidate &c : makeCandidates())
    names.push_back(c.str());
  Autotuner byName(names, &store, makeScope());
  EXPECT_TRUE(byName.getCandidates().empty());
  EXPECT_EQ(byName.getConfigNames(), llvm::ArrayRef<std::string>(names));
  llvm::Expected<unsigned> best =
      byName.select("M=64", {}, [](unsigned i) -> llvm::Expected<double> {
        return i == 2 ? 0.5 : 1.0;
      });
  ASSERT_EXPECTED(best);
  EXPECT_EQ(*best, 2u);
  EXPECT_EQ(byName.recall("M=64"), 2u);
  std::string message = errorOf(
      byName
          .select("M=128", {7},
                  [](unsigned) -> llvm::Expected<double> { return 1.0; })
          .takeError());
  EXPECT_EQ(message, "autotune: kernel 'matmul_kernel' has no config 7 (it "
                     "has 3)");

  Autotuner byCandidate(makeCandidates(), &store, makeScope());
  EXPECT_EQ(byCandidate.recall("M=64"), 2u);
}
