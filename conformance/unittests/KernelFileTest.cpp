//===- KernelFileTest.cpp - Kernel files as data
//---------------------------===//
#include "tessera/Conformance/KernelFile.h"

#include "gtest/gtest.h"

using namespace mlir::tessera::conformance;

namespace {
std::string kernelPath(llvm::StringRef stem) {
  return std::string(TESSERA_CONFORMANCE_KERNEL_DIR) + "/" + stem.str() + ".py";
}

constexpr llvm::StringLiteral kTuned = R"py(import triton
import triton.language as tl

CONFIGS = [triton.Config({'BLOCK': b, 'FLAG': f}, num_warps=w)
           for b in [64, 16, 32] for f in [False, True] for w in [4]]


@triton.autotune(configs=CONFIGS,
                 key=['n'])
@triton.jit
def k(x, n, BLOCK: tl.constexpr, FLAG: tl.constexpr):
    pass


@triton.autotune(configs=[triton.Config({'BLOCK': 1, 'n': 2}, num_warps=3)],
                 key=['m'])
@triton.jit
def bad(x, n, BLOCK: tl.constexpr):
    pass
)py";

TEST(KernelFileTest, ReadsParamsAndConfigs) {
  llvm::Expected<std::unique_ptr<KernelFile>> file =
      KernelFile::fromText(kTuned, "tuned.py");
  ASSERT_TRUE(static_cast<bool>(file)) << llvm::toString(file.takeError());
  llvm::Expected<KernelInfo> k = (*file)->getKernel("k");
  ASSERT_TRUE(static_cast<bool>(k)) << llvm::toString(k.takeError());
  EXPECT_EQ(k->params, (std::vector<std::string>{"x", "n", "BLOCK", "FLAG"}));
  EXPECT_EQ(k->constexprParams, (std::vector<bool>{false, false, true, true}));
  EXPECT_TRUE(k->autotuned);
  ASSERT_EQ(k->configs.size(), 6u);
  EXPECT_EQ(k->configs[0].str(), "BLOCK=64, FLAG=False, num_warps=4, "
                                 "num_stages=3");
  EXPECT_TRUE(validateAutotuneConfigs(*k).empty());
  // First (64, False), smallest tile (16, False), then FLAG=True first at 1.
  EXPECT_EQ(selectRepresentativeConfigs(k->configs),
            (std::vector<unsigned>{0, 1, 2}));

  llvm::Expected<KernelInfo> bad = (*file)->getKernel("bad");
  ASSERT_TRUE(static_cast<bool>(bad));
  std::vector<std::string> problems = validateAutotuneConfigs(*bad);
  ASSERT_EQ(problems.size(), 3u);
  EXPECT_EQ(problems[0], "config 0 sets 'n', which is not a tl.constexpr "
                         "parameter");
  EXPECT_EQ(problems[1], "config 0 has num_warps=3, not a power of two");
  EXPECT_EQ(problems[2], "autotune key 'm' is not a parameter");

  llvm::Expected<KernelInfo> missing = (*file)->getKernel("nope");
  ASSERT_FALSE(static_cast<bool>(missing));
  EXPECT_NE(llvm::toString(missing.takeError()).find("(it has: k, bad)"),
            std::string::npos);
}

TEST(KernelFileTest, TutorialConfigsAreValid) {
  struct Expected {
    const char *stem, *kernel;
    size_t configs;
  } kernels[] = {
      {"03_matmul", "matmul_kernel", 16},
      {"06_fused_attention", "_attn_fwd", 12},
      {"06_fused_attention", "_attn_fwd_desc", 18},
      {"08_grouped_gemm", "grouped_matmul_kernel", 8},
      {"08_grouped_gemm", "grouped_matmul_desc_kernel", 8},
      {"09_persistent_matmul", "matmul_kernel", 16},
      {"09_persistent_matmul", "matmul_kernel_persistent", 16},
      {"09_persistent_matmul", "matmul_kernel_descriptor", 16},
      {"09_persistent_matmul", "matmul_kernel_descriptor_persistent", 48},
  };
  for (const Expected &e : kernels) {
    llvm::Expected<std::unique_ptr<KernelFile>> file =
        KernelFile::load(kernelPath(e.stem));
    ASSERT_TRUE(static_cast<bool>(file)) << llvm::toString(file.takeError());
    llvm::Expected<KernelInfo> k = (*file)->getKernel(e.kernel);
    ASSERT_TRUE(static_cast<bool>(k)) << llvm::toString(k.takeError());
    EXPECT_EQ(k->configs.size(), e.configs) << e.kernel;
    EXPECT_TRUE(validateAutotuneConfigs(*k).empty()) << e.kernel;
  }
}

TEST(KernelFileTest, RepresentativeConfigsOfTheTutorials) {
  llvm::Expected<std::unique_ptr<KernelFile>> file =
      KernelFile::load(kernelPath("09_persistent_matmul"));
  ASSERT_TRUE(static_cast<bool>(file));
  llvm::Expected<KernelInfo> k =
      (*file)->getKernel("matmul_kernel_descriptor_persistent");
  ASSERT_TRUE(static_cast<bool>(k));
  // Config 0 has the smallest tile and EPILOGUE_SUBTILE=True; config 1 is
  // the first with False.
  EXPECT_EQ(selectRepresentativeConfigs(k->configs),
            (std::vector<unsigned>{0, 1}));
}
} // namespace
