//===- SuiteTest.cpp - The tutorial suite's cases and workloads -----------===//
#include "tessera/Conformance/Suite.h"

#include "llvm/ADT/StringSet.h"

#include "gtest/gtest.h"

using namespace mlir::tessera::conformance;

namespace {
std::unique_ptr<Suite> makeSuite(ConfigMode mode, bool scaled = false) {
  SuiteOptions options;
  options.kernelDir = TESSERA_CONFORMANCE_KERNEL_DIR;
  options.configMode = mode;
  options.scaledBenchmarks = scaled;
  return buildTutorialSuite(options);
}

size_t countCases(const Suite &suite, llvm::StringRef prefix) {
  size_t n = 0;
  for (const CaseSpec &spec : suite.getCases())
    n += llvm::StringRef(spec.getId()).starts_with(prefix);
  return n;
}

TEST(SuiteTest, IdsAreUniqueAndWithoutSpaces) {
  for (ConfigMode mode :
       {ConfigMode::Tune, ConfigMode::Subset, ConfigMode::All}) {
    std::unique_ptr<Suite> suite = makeSuite(mode);
    llvm::StringSet<> ids;
    for (const CaseSpec &spec : suite->getCases()) {
      std::string id = spec.getId();
      EXPECT_TRUE(ids.insert(id).second) << "duplicate " << id;
      EXPECT_EQ(id.find_first_of(" \t[]{}"), std::string::npos) << id;
      EXPECT_TRUE(static_cast<bool>(spec.run)) << id;
    }
    for (const BenchSpec &spec : suite->getBenchmarks())
      EXPECT_TRUE(ids.insert(spec.getId()).second) << spec.getId();
  }
}

TEST(SuiteTest, EveryTutorialHasTheReadmeCases) {
  std::unique_ptr<Suite> suite = makeSuite(ConfigMode::Tune);
  EXPECT_EQ(countCases(*suite, "01_vector_add/add_kernel/"), 4u);
  EXPECT_EQ(countCases(*suite, "02_fused_softmax/softmax_kernel/"), 4u);
  // 1 config check, 5 small cases, fp16 and fp8 autotuned.
  EXPECT_EQ(countCases(*suite, "03_matmul/matmul_kernel/"), 8u);
  EXPECT_EQ(countCases(*suite, "04_low_memory_dropout/dropout_kernel/"), 1u);
  EXPECT_EQ(countCases(*suite, "04_low_memory_dropout/seeded_dropout_kernel/"),
            2u);
  EXPECT_EQ(countCases(*suite, "05_layer_norm/_layer_norm_fwd_fused/"), 3u);
  EXPECT_EQ(countCases(*suite, "05_layer_norm/_layer_norm_bwd_dx_fused+"), 3u);
  // configs, 4 small shapes, strided, causal and not autotuned.
  EXPECT_EQ(countCases(*suite, "06_fused_attention/_attn_fwd/"), 8u);
  EXPECT_EQ(countCases(*suite, "06_fused_attention/_attn_fwd_desc/"), 7u);
  EXPECT_EQ(countCases(*suite, "06_fused_attention/_attn_bwd_preprocess+"), 3u);
  EXPECT_EQ(countCases(*suite, "07_extern_functions/asin_kernel/"), 1u);
  EXPECT_EQ(countCases(*suite, "08_grouped_gemm/grouped_matmul_kernel/"), 4u);
  EXPECT_EQ(countCases(*suite, "08_grouped_gemm/grouped_matmul_desc_kernel/"),
            5u);
  // configs, 3 small shapes, fp16 and fp8 autotuned.
  EXPECT_EQ(countCases(*suite, "09_persistent_matmul/matmul_kernel/"), 6u);
  EXPECT_EQ(
      countCases(*suite,
                 "09_persistent_matmul/matmul_kernel_descriptor_persistent/"),
      9u);
}

TEST(SuiteTest, ConfigModesSelectConfigs) {
  std::unique_ptr<Suite> subset = makeSuite(ConfigMode::Subset);
  std::unique_ptr<Suite> all = makeSuite(ConfigMode::All);
  // 03: the first config and the smallest tile (32x64x32, config 8).
  EXPECT_EQ(countCases(*subset, "03_matmul/matmul_kernel/fp16,200x136x168,"),
            2u);
  EXPECT_EQ(countCases(*all, "03_matmul/matmul_kernel/fp16,200x136x168,"), 16u);
  EXPECT_EQ(countCases(*all, "09_persistent_matmul/"
                             "matmul_kernel_descriptor_persistent/fp8e4m3,"
                             "200x144x160,"),
            48u);
  for (const CaseSpec &spec : subset->getCases())
    EXPECT_EQ(spec.name.find("autotuned"), std::string::npos) << spec.getId();
}

TEST(SuiteTest, CompileOnlyRunsCompileEveryConfigForTune) {
  // Nothing can be timed without a device: tune compiles every config.
  EXPECT_EQ(getCompileOnlyConfigMode(ConfigMode::Tune), ConfigMode::All);
  EXPECT_EQ(getCompileOnlyConfigMode(ConfigMode::Subset), ConfigMode::Subset);
  EXPECT_EQ(getCompileOnlyConfigMode(ConfigMode::All), ConfigMode::All);
}

TEST(SuiteTest, Fp8CasesRequireFp8) {
  std::unique_ptr<Suite> suite = makeSuite(ConfigMode::Subset);
  size_t fp8 = 0;
  for (const CaseSpec &spec : suite->getCases()) {
    bool named = spec.name.find("fp8") != std::string::npos;
    bool required = llvm::is_contained(spec.requirements.dtypes, "fp8e4nv");
    EXPECT_EQ(named, required) << spec.getId();
    fp8 += required;
  }
  EXPECT_GT(fp8, 0u);
}

TEST(SuiteTest, BenchmarksCoverTheGuide) {
  std::unique_ptr<Suite> full = makeSuite(ConfigMode::Tune);
  llvm::StringSet<> ids;
  for (const BenchSpec &spec : full->getBenchmarks()) {
    ids.insert(spec.getId());
    EXPECT_FALSE(spec.scaled);
  }
  EXPECT_TRUE(ids.contains("01_vector_add/add_kernel/fp32,n=2^28"));
  EXPECT_TRUE(ids.contains("02_fused_softmax/softmax_kernel/fp32,4096x8192"));
  EXPECT_TRUE(
      ids.contains("05_layer_norm/_layer_norm_fwd_fused/fp16,4096x8192"));
  EXPECT_TRUE(ids.contains(
      "04_low_memory_dropout/seeded_dropout_kernel/fp32,n=2^26,p=0.5"));
  EXPECT_TRUE(ids.contains("03_matmul/matmul_kernel/fp16,8192x8192x8192"));
  EXPECT_TRUE(ids.contains(
      "03_matmul/matmul_kernel/fp8e4m3,8192x8192x8192,b-transposed"));
  EXPECT_TRUE(ids.contains("09_persistent_matmul/"
                           "matmul_kernel_descriptor_persistent/"
                           "fp8e4m3,8192x8192x8192"));
  EXPECT_TRUE(ids.contains("06_fused_attention/_attn_fwd/"
                           "fp16,Z=4,H=32,N_CTX=4096,D=128,causal"));
  EXPECT_TRUE(ids.contains("06_fused_attention/_attn_fwd_desc/"
                           "fp16,Z=4,H=32,N_CTX=4096,D=128,non-causal"));
  // The suite outlives the loop (a range-for over a member of a temporary
  // read freed memory: AddressSanitizer).
  std::unique_ptr<Suite> scaled = makeSuite(ConfigMode::Subset, true);
  for (const BenchSpec &spec : scaled->getBenchmarks())
    EXPECT_TRUE(spec.scaled) << spec.getId();
}
} // namespace
