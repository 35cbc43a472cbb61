//===- KernelSourceTest.cpp - What a kernel file's hash covers ------------===//
#include "FakeBackend.h"
#include "TestSupport.h"

#include "tessera/Runtime/AtomicFile.h"
#include "tessera/Runtime/KernelSource.h"

using namespace mlir::tessera::runtime;
using namespace mlir::tessera::runtime::testing;

namespace {
constexpr const char *kKernel = R"(import triton
import triton.language as tl
from helpers import scale
from .pkg.more import offset
import numpy

@triton.jit
def k(x_ptr, B: tl.constexpr):
    offs = tl.arange(0, B)
    tl.store(x_ptr + offs, scale(tl.load(x_ptr + offs)))
)";

struct Files {
  ScratchDirectory dir;
  std::string write(llvm::StringRef name, llvm::StringRef text) {
    std::string path = dir.path() + "/" + name.str();
    llvm::cantFail(writeFileAtomically(path, text));
    return path;
  }
  std::string hash() {
    llvm::Expected<std::unique_ptr<KernelSource>> source =
        KernelSource::load(dir.path() + "/kernel.py");
    if (!source)
      return "error: " + llvm::toString(source.takeError());
    return (*source)->getSourceHash();
  }
};
} // namespace

TEST(KernelSourceTest, HashCoversLocalImportsOnly) {
  Files f;
  f.write("kernel.py", kKernel);
  f.write("helpers.py", "import triton\nfrom common import C\n"
                        "@triton.jit\ndef scale(x):\n    return x * C\n");
  f.write("common.py", "C = 2\n");
  f.write("pkg/more.py", "def offset():\n    return 1\n");
  f.write("unrelated.py", "X = 1\n");
  std::string base = f.hash();
  ASSERT_EQ(base.size(), 64u) << base;

  llvm::Expected<std::unique_ptr<KernelSource>> source =
      KernelSource::load(f.dir.path() + "/kernel.py");
  ASSERT_EXPECTED(source);
  // Followed transitively (helpers -> common), `from .pkg.more import`
  // resolved, library imports (triton, numpy) left out.
  EXPECT_EQ(
      (*source)->getLocalImports(),
      (llvm::ArrayRef<std::string>{"common.py", "helpers.py", "pkg/more.py"}));

  // Files outside the set do not matter.
  f.write("unrelated.py", "X = 2\n");
  EXPECT_EQ(f.hash(), base);
  // The kernel, a direct import and an indirect one all do.
  f.write("common.py", "C = 3\n");
  std::string changedCommon = f.hash();
  EXPECT_NE(changedCommon, base);
  f.write("helpers.py", "import triton\nfrom common import C\n"
                        "@triton.jit\ndef scale(x):\n    return x + C\n");
  EXPECT_NE(f.hash(), changedCommon);
  std::string before = f.hash();
  f.write("kernel.py", std::string(kKernel) + "\n# edited\n");
  EXPECT_NE(f.hash(), before);
}

TEST(KernelSourceTest, ScanErrorsCarryTheLocation) {
  Files f;
  f.write("kernel.py", "import triton\n\n@triton.jit\ndef k(x):\n"
                       "    y = (x +\n");
  std::string error = f.hash();
  EXPECT_NE(error.find("kernel.py:"), std::string::npos) << error;
  EXPECT_NE(error.find("error:"), std::string::npos) << error;
  EXPECT_EQ(errorOf(KernelSource::load(f.dir.path() + "/missing.py"))
                .find("cannot read kernel file '"),
            0u);
}
