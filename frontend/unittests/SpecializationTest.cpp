//===- SpecializationTest.cpp - Signatures, specialization keys, lowering
//--===//
#include "tessera/Frontend/Compile.h"

#include "TestUtils.h"

#include "tessera/Dialect/Tessera/IR/Dialect.h"

#include "mlir/IR/MLIRContext.h"
#include "gtest/gtest.h"

using namespace tessera::frontend;
using namespace tessera::frontend::test;

namespace {
const char *kFile = R"(import triton
import triton.language as tl

DTYPE = tl.float16

@triton.autotune(configs=[triton.Config({'BLOCK': 64}, num_warps=2),
                          triton.Config({'BLOCK': 128}, num_stages=5)],
                 key=['n'])
@triton.jit
def k(x_ptr, n, scale, BLOCK: tl.constexpr, MODE: tl.constexpr = "fast"):
    offs = tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, tl.load(x_ptr + offs) * scale, mask=offs < n)
)";

/// Specializes kernel `k` of kFile; returns the key or "ERROR: diagnostics".
std::string keyOf(llvm::StringRef sig, std::vector<std::string> named = {},
                  std::optional<unsigned> config = std::nullopt) {
  Source src(kFile);
  auto m = KernelModule::scan(src.sm, src.id, src.diags);
  llvm::FailureOr<Specialization> spec =
      specializeKernel(*m, "k", sig, named, config, src.diags);
  if (failed(spec))
    return "ERROR: " + src.rendered();
  return spec->key();
}
} // namespace

TEST(SpecializationTest, Keys) {
  EXPECT_EQ(keyOf("*fp32:16,i32,fp32,256"),
            "k(*fp32:16,i32,fp32,BLOCK=256,MODE='fast')");
  EXPECT_EQ(keyOf("*fp16,i32:16,fp32", {"BLOCK=32", "MODE='exact'"}),
            "k(*fp16,i32:16,fp32,BLOCK=32,MODE='exact')");
  // `:1` makes an integer a constexpr equal to 1.
  EXPECT_EQ(keyOf("*bf16:16,i32:1,fp32,64"),
            "k(*bf16:16,n=1,fp32,BLOCK=64,MODE='fast')");
  // Literals may be any Python value, dtypes included.
  EXPECT_EQ(keyOf("*fp32,i64,fp32,16,DTYPE"),
            "k(*fp32,i64,fp32,BLOCK=16,MODE=triton.language.float16)");
  EXPECT_EQ(
      keyOf("*fp32,i32,fp32", {}, 1u),
      "k(*fp32,i32,fp32,BLOCK=128,MODE='fast'){num_warps=4,num_stages=5}");
  EXPECT_EQ(keyOf("*fp32,i32,fp32", {}, 0u),
            "k(*fp32,i32,fp32,BLOCK=64,MODE='fast'){num_warps=2,num_stages=3}");
}

TEST(SpecializationTest, Errors) {
  EXPECT_NE(keyOf("*fp32,i32").find("no value or type for parameter 'scale'"),
            std::string::npos);
  EXPECT_NE(keyOf("*fp32,i32,fp32").find("give it with --constexpr BLOCK"),
            std::string::npos);
  EXPECT_NE(keyOf("*fp32,i32,fp32,i32").find("is a tl.constexpr"),
            std::string::npos);
  EXPECT_NE(keyOf("*fp99,i32,fp32,16").find("unknown pointee type 'fp99'"),
            std::string::npos);
  EXPECT_NE(keyOf("*fp32,i32:8,fp32,16").find("unknown specialization ':8'"),
            std::string::npos);
  EXPECT_NE(keyOf("*fp32,i32,fp32:16,16").find("floating-point"),
            std::string::npos);
  EXPECT_NE(keyOf("*fp32,i32,fp32,16,1,2").find("has 6 entries"),
            std::string::npos);
  EXPECT_NE(keyOf("*fp32,i32,fp32", {"NOPE=1"})
                .find("no parameter named "
                      "'NOPE'"),
            std::string::npos);
  EXPECT_NE(keyOf("*fp32,i32,fp32", {}, 7u)
                .find("autotune config 7 does not "
                      "exist"),
            std::string::npos);
}

TEST(SpecializationTest, LoweringHonorsTheSpecialization) {
  Source src(kFile);
  auto m = KernelModule::scan(src.sm, src.id, src.diags);
  auto spec =
      specializeKernel(*m, "k", "*fp32:16,i32:1,fp32,256", {}, {}, src.diags);
  ASSERT_TRUE(succeeded(spec)) << src.rendered();
  mlir::MLIRContext ctx;
  auto ir = lowerKernel(*m, "k", *spec, ctx, src.diags);
  ASSERT_TRUE(ir) << src.rendered();
  auto fn = ir->lookupSymbol<mlir::func::FuncOp>("k");
  ASSERT_TRUE(fn);
  // n == 1 is a constant, not an argument: x_ptr and scale remain.
  EXPECT_EQ(fn.getNumArguments(), 2u);
  EXPECT_TRUE(fn->hasAttr("tessera.kernel"));
  EXPECT_TRUE(fn.getArgAttr(0, "tessera.divisibility"));
  EXPECT_FALSE(fn.getArgAttr(1, "tessera.divisibility"));
}

TEST(SpecializationTest, UserErrorsAreDiagnosedNotCrashed) {
  Source src("import triton\nimport triton.language as tl\n"
             "@triton.jit\ndef k(x):\n    y = undefined_name + 1\n");
  auto m = KernelModule::scan(src.sm, src.id, src.diags);
  auto spec = specializeKernel(*m, "k", "*fp32", {}, {}, src.diags);
  ASSERT_TRUE(succeeded(spec));
  mlir::MLIRContext ctx;
  EXPECT_FALSE(lowerKernel(*m, "k", *spec, ctx, src.diags));
  ASSERT_EQ(src.collected.size(), 1u);
  EXPECT_EQ(src.rendered(),
            "test.py:5:9: error: name 'undefined_name' is not defined\n"
            "    y = undefined_name + 1\n"
            "        ^\n");
}
