//===- LaunchPathTest.cpp - JitKernel, TunedKernel, compile stages --------===//
//
// The pieces of the launch path as the Python package and the CLI use
// them: one dispatch table for compile() and launch(), TunedKernel's
// untuned view sharing it, the launch stream reaching the driver, the
// staged compilation and its module hash, and the session settings every
// front door shares.
//
//===----------------------------------------------------------------------===//
#include "FakeBackend.h"
#include "TestSupport.h"

#include "tessera/Runtime/AtomicFile.h"
#include "tessera/Runtime/CacheKey.h"
#include "tessera/Runtime/Environment.h"
#include "tessera/Runtime/JitKernel.h"
#include "tessera/Runtime/Runtime.h"
#include "tessera/Runtime/SessionFlags.h"
#include "tessera/Runtime/TunedKernel.h"

using namespace mlir::tessera;
using namespace mlir::tessera::runtime;
using namespace mlir::tessera::runtime::testing;

namespace {
constexpr const char *kKernels = R"(import triton
import triton.language as tl


@triton.jit
def scale(x_ptr, out_ptr, n, BLOCK: tl.constexpr, FACTOR: tl.constexpr = 2):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) * FACTOR,
             mask=mask)


@triton.autotune(
    configs=[
        triton.Config({'BLOCK': 64}, num_warps=2),
        triton.Config({'BLOCK': 128}, num_warps=4),
    ],
    key=['n'],
)
@triton.heuristics({'EVEN': lambda args: args['n'] % args['BLOCK'] == 0})
@triton.jit
def tuned(x_ptr, n, BLOCK: tl.constexpr, EVEN: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    if EVEN:
        tl.store(x_ptr + offs, tl.load(x_ptr + offs) + 1)
    else:
        tl.store(x_ptr + offs, tl.load(x_ptr + offs) + 1, mask=offs < n)
)";

/// A session over a fresh fake backend with a disk cache of its own.
struct Session {
  ScratchDirectory dir;
  std::shared_ptr<FakeBackend> backend = std::make_shared<FakeBackend>();
  std::unique_ptr<Runtime> rt;
  std::string path;

  explicit Session(llvm::StringRef text = kKernels) {
    RuntimeOptions options;
    options.cacheDirectory = dir.path() + "/cache";
    options.disableCache = false;
    options.dump = DumpOptions();
    options.tuning.flushBytes = 1024;
    options.tuning.warmupMs = 1;
    options.tuning.repMs = 5;
    llvm::Expected<std::unique_ptr<Runtime>> created = Runtime::create(
        {backend, {"fake", "1.0", "a backend the tests control"}}, options);
    if (!created)
      ADD_FAILURE() << llvm::toString(created.takeError());
    else
      rt = std::move(*created);
    path = dir.path() + "/kernels.py";
    llvm::cantFail(writeFileAtomically(path, text));
  }
  Buffer alloc(size_t bytes, llvm::StringRef type) {
    return llvm::cantFail(rt->allocate(bytes, type));
  }
};
} // namespace

TEST(LaunchPathTest, CompileAndLaunchShareOneTable) {
  Session s;
  JitKernel &kernel = *s.rt->getJitKernel(s.path, "scale");
  Buffer x = s.alloc(1024, "fp32"), out = s.alloc(1024, "fp32");
  llvm::Expected<const KernelVariant *> compiled =
      kernel.compile({x, out, 256}, {{"BLOCK", 64}});
  ASSERT_EXPECTED(compiled);
  EXPECT_FALSE((*compiled)->isLoaded());
  EXPECT_EQ((*compiled)->kernel.binary, "fake binary");
  EXPECT_EQ((*compiled)->binarySize, 11u);
  EXPECT_EQ(s.backend->driver.loaded.size(), 0u);

  // The launch finds the compiled entry: it loads it, compiles nothing.
  ASSERT_NO_ERROR(kernel.launch(4, {x, out, 256}, {{"BLOCK", 64}}));
  EXPECT_EQ(s.backend->binaries, 1u);
  EXPECT_EQ(s.backend->driver.loaded.size(), 1u);
  EXPECT_TRUE((*compiled)->isLoaded());
  // Loaded, the bytes live in the driver; the size stays known.
  EXPECT_TRUE((*compiled)->kernel.binary.empty());
  EXPECT_EQ((*compiled)->binarySize, 11u);
  llvm::Expected<const KernelVariant *> prepared =
      kernel.prepare({x, out, 256}, {{"BLOCK", 64}});
  ASSERT_EXPECTED(prepared);
  EXPECT_EQ(*prepared, *compiled);
  EXPECT_EQ(kernel.getStatistics().loads, 1u);
  // The default FACTOR=2 is baked into the specialization.
  EXPECT_EQ((*compiled)->signature, "*fp32:16,*fp32:16,i32:16,64,2");
}

TEST(LaunchPathTest, BindCompleteAndMissingArguments) {
  Session s;
  JitKernel &kernel = *s.rt->getJitKernel(s.path, "scale");
  BoundArgs bound;
  ASSERT_NO_ERROR(
      kernel.bind({KernelArg::pointer(64, "fp32")}, {{"BLOCK", 32}}, bound));
  EXPECT_EQ(bound.given,
            (llvm::SmallVector<bool, 16>{true, false, false, true, false}));
  EXPECT_EQ(errorOf(kernel.complete(bound)),
            "kernel 'scale' is missing arguments 'out_ptr', 'n'");
  ASSERT_NO_ERROR(kernel.bind(
      {KernelArg::pointer(64, "fp32"), KernelArg::pointer(128, "fp32"), 7},
      {{"BLOCK", 32}}, bound));
  ASSERT_NO_ERROR(kernel.complete(bound));
  EXPECT_EQ(bound.values[4], KernelArg::integer(2));
  EXPECT_EQ(kernel.findParam("n"), std::optional<unsigned>(2));
  EXPECT_EQ(kernel.findParam("m"), std::nullopt);
}

TEST(LaunchPathTest, TheStreamReachesTheDriver) {
  Session s;
  JitKernel &kernel = *s.rt->getJitKernel(s.path, "scale");
  Buffer x = s.alloc(1024, "fp32");
  LaunchOptions options;
  options.stream = 0x5eed;
  ASSERT_NO_ERROR(kernel.launch(1, {x, x, 256}, {{"BLOCK", 64}}, options));
  ASSERT_NO_ERROR(kernel.launch(1, {x, x, 256}, {{"BLOCK", 64}}));
  ASSERT_EQ(s.backend->driver.launches.size(), 2u);
  EXPECT_EQ(s.backend->driver.launches[0].config.stream, 0x5eedu);
  EXPECT_EQ(s.backend->driver.launches[1].config.stream, 0u);
  // The stream is not part of the specialization.
  EXPECT_EQ(kernel.getStatistics().loads, 1u);
}

TEST(LaunchPathTest, UntunedKernelKeepsHeuristicsAndSharesTheTable) {
  Session s;
  TunedKernel &tuned = *s.rt->getKernel(s.path, "tuned");
  ASSERT_TRUE(tuned.isAutotuned());
  ASSERT_TRUE(tuned.hasHeuristics());
  TunedKernel &untuned = tuned.getUntuned();
  EXPECT_NE(&untuned, &tuned);
  EXPECT_FALSE(untuned.isAutotuned());
  EXPECT_TRUE(untuned.hasHeuristics());
  EXPECT_EQ(&untuned.getJitKernel(), &tuned.getJitKernel());
  EXPECT_EQ(&untuned.getUntuned(), &untuned);

  Buffer x = s.alloc(1024, "fp32");
  // Triton's kernel.fn[grid](..., BLOCK=128, num_warps=4): no tuning, and
  // the heuristic sees BLOCK.
  LaunchOptions four;
  four.numWarps = 4;
  ASSERT_NO_ERROR(untuned.launch(2, {x, 256}, {{"BLOCK", 128}}, four));
  EXPECT_EQ(tuned.getStatistics().tunings, 0u);
  llvm::Expected<const KernelVariant *> variant =
      untuned.prepare({x, 256}, {{"BLOCK", 128}}, four);
  ASSERT_EXPECTED(variant);
  EXPECT_EQ((*variant)->signature, "*fp32:16,i32:16,128,True");

  // The tuned launch times both configs; the one the untuned launch
  // compiled is reused, not compiled again.
  s.backend->driver.timing = [](const CompiledKernel &k) {
    return k.numWarps == 4 ? 1.0 : 2.0;
  };
  ASSERT_NO_ERROR(tuned.launch(2, {x, 256}));
  EXPECT_EQ(tuned.getStatistics().tunings, 1u);
  EXPECT_EQ(s.backend->binaries, 2u);
  EXPECT_EQ(s.backend->driver.launches.back().config.numWarps, 4u);
  // A config's constexpr passed to the tuned kernel is an error.
  EXPECT_EQ(errorOf(tuned.launch(2, {x, 256}, {{"BLOCK", 64}})),
            "argument 'BLOCK' of kernel 'tuned' is set by the autotune "
            "config; do not pass it");
}

TEST(LaunchPathTest, StagedCompilationHashesTheModule) {
  Session s;
  KernelCompiler &compiler = s.rt->getCompiler();
  std::shared_ptr<KernelSource> source = *s.rt->getSource(s.path);
  CompileRequest request;
  request.kernel = "scale";
  request.signature = "*fp32:16,*fp32:16,i32,64";
  request.options.arch = "fake-arch";

  llvm::Expected<std::unique_ptr<CompileJob>> job =
      compiler.specialize(*source, request);
  ASSERT_EXPECTED(job);
  EXPECT_FALSE((*job)->isLowered());
  EXPECT_TRUE((*job)->getResult().cacheKey.empty());
  EXPECT_EQ((*job)->getResult().options.arch, "fake-arch");
  ASSERT_NO_ERROR(compiler.lower(**job));
  EXPECT_TRUE((*job)->isLowered());
  std::string key = (*job)->getResult().cacheKey;
  std::string moduleHash = (*job)->getResult().moduleHash;
  EXPECT_EQ(key.size(), 64u);
  EXPECT_EQ(moduleHash.size(), 64u);
  llvm::Expected<CompileResult> binary = compiler.run(**job, EmitStage::Binary);
  ASSERT_EXPECTED(binary);
  EXPECT_EQ(binary->cacheKey, key);
  EXPECT_FALSE(binary->cacheHit);
  // The job holds the source's lock until it goes.
  job->reset();

  // compile() is the same three stages: the same key, now a cache hit.
  llvm::Expected<CompileResult> again =
      compiler.compile(*source, request, EmitStage::Binary);
  ASSERT_EXPECTED(again);
  EXPECT_EQ(again->cacheKey, key);
  EXPECT_TRUE(again->cacheHit);

  // Text that lowers alike (a comment, blank lines) hashes to the same
  // module: the source hash differs, and so does the key.
  Session t(std::string(kKernels) + "\n# a comment\n\n");
  std::shared_ptr<KernelSource> other = *t.rt->getSource(t.path);
  llvm::Expected<CompileResult> commented =
      t.rt->getCompiler().compile(*other, request, EmitStage::Binary);
  ASSERT_EXPECTED(commented);
  EXPECT_EQ(commented->moduleHash, moduleHash);
  EXPECT_NE(commented->cacheKey, key);

  // Another constant in the kernel's code: another module.
  std::string doubled = kKernels;
  doubled.replace(doubled.find("* FACTOR"), 8, "* FACTOR * 2");
  Session u(doubled);
  std::shared_ptr<KernelSource> changed = *u.rt->getSource(u.path);
  llvm::Expected<CompileResult> other2 =
      u.rt->getCompiler().compile(*changed, request, EmitStage::Binary);
  ASSERT_EXPECTED(other2);
  EXPECT_NE(other2->moduleHash, moduleHash);

  // A kernel error comes back from the stage that finds it, with its line.
  request.signature = "fp32,*fp32:16,i32,64";
  llvm::Expected<std::unique_ptr<CompileJob>> bad =
      compiler.specialize(*source, request);
  ASSERT_EXPECTED(bad);
  std::string error = errorOf(compiler.lower(**bad));
  EXPECT_NE(error.find(s.path + ":"), std::string::npos) << error;
  EXPECT_NE(error.find("error:"), std::string::npos) << error;
}

TEST(LaunchPathTest, SessionSettingsAreTheRuntimeOptions) {
  SessionSettings settings;
  settings.backend = "cpu";
  settings.pluginPaths = {"/opt/plugins"};
  settings.modulePaths = {"/opt/kernels"};
  settings.device = 1;
  settings.arch = "x86-64";
  settings.cacheDirectory = "/tmp/tessera-cache";
  settings.disableCache = true;
  llvm::Expected<RuntimeOptions> options = settings.getRuntimeOptions();
  ASSERT_EXPECTED(options);
  EXPECT_EQ(options->backend, "cpu");
  EXPECT_EQ(options->pluginPaths, std::vector<std::string>{"/opt/plugins"});
  EXPECT_EQ(options->modulePaths, std::vector<std::string>{"/opt/kernels"});
  EXPECT_EQ(options->device, std::optional<unsigned>(1));
  EXPECT_EQ(options->arch, "x86-64");
  EXPECT_EQ(options->cacheDirectory,
            std::optional<std::string>("/tmp/tessera-cache"));
  EXPECT_EQ(options->disableCache, std::optional<bool>(true));

  // Unset settings stay unset, for the environment to fill.
  llvm::Expected<RuntimeOptions> empty = SessionSettings().getRuntimeOptions();
  ASSERT_EXPECTED(empty);
  EXPECT_EQ(empty->backend, "");
  EXPECT_FALSE(empty->device.has_value());
  EXPECT_FALSE(empty->cacheDirectory.has_value());
  EXPECT_FALSE(empty->disableCache.has_value());

  settings.logLevel = "loud";
  EXPECT_EQ(errorOf(settings.getRuntimeOptions()),
            "unknown log level 'loud'; expected trace, debug, info, warn, "
            "error, critical or off");
  ASSERT_NO_ERROR(setLogLevel("WARN"));
}
