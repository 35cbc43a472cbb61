//===- KernelModuleTest.cpp - Tests of the module scanner -----------------===//
#include "TestUtils.h"

#include "tessera/Frontend/Decorators.h"
#include "tessera/Frontend/KernelModule.h"

#include "gtest/gtest.h"

using namespace tessera::frontend;
using namespace tessera::frontend::test;

TEST(KernelModuleTest, ImportsAndQualifiedNames) {
  Source src("import triton\nimport triton.language as tl\n"
             "from triton import jit\n"
             "from triton.language.extra import libdevice\n"
             "import numpy.linalg\n");
  auto m = KernelModule::scan(src.sm, src.id, src.diags);
  ASSERT_EQ(m->getImports().size(), 5u);
  EXPECT_EQ(m->getImports()[1].boundName, "tl");
  EXPECT_EQ(m->getImports()[1].qualifiedName, "triton.language");
  EXPECT_EQ(m->getImports()[2].qualifiedName, "triton.jit");
  EXPECT_EQ(m->getImports()[3].qualifiedName,
            "triton.language.extra.libdevice");
  EXPECT_EQ(m->getImports()[4].boundName, "numpy");
  EXPECT_EQ(canonicalizeTritonName("triton.runtime.autotuner.Config"),
            "triton.Config");
}

TEST(KernelModuleTest, JitFunctionsAndDecorators) {
  Source src("import triton\nfrom triton import jit\n"
             "import triton.language as tl\n"
             "@triton.autotune(configs=[], key=['n'])\n"
             "@triton.heuristics({'E': lambda a: True})\n"
             "@triton.jit(do_not_specialize=['n'], noinline=True)\n"
             "def a(x, n):\n    return helper(x)\n"
             "@jit\ndef helper(x):\n    return x\n"
             "def host(x):\n    return x\n");
  auto m = KernelModule::scan(src.sm, src.id, src.diags);
  ASSERT_FALSE(src.diags.hadError()) << src.rendered();
  ASSERT_EQ(m->getJitFunctions().size(), 2u);
  const JitFunction *a = m->lookupJitFunction("a");
  ASSERT_TRUE(a);
  ASSERT_EQ(a->decorators.size(), 3u);
  EXPECT_EQ(a->decorators[0].kind, DecoratorKind::Autotune);
  EXPECT_EQ(a->decorators[1].kind, DecoratorKind::Heuristics);
  EXPECT_EQ(a->decorators[2].kind, DecoratorKind::Jit);
  EXPECT_TRUE(m->lookupJitFunction("helper"));
  EXPECT_FALSE(m->lookupJitFunction("host"));
  EXPECT_TRUE(m->lookupFunction("host"));
  EXPECT_EQ(m->lookupGlobal("host")->bindings.back().kind,
            BindingKind::HostFunction);

  HostEvaluator ev(m.get(), src.diags);
  llvm::FailureOr<JitOptions> opts = readJitOptions(ev, a->decorators[2]);
  ASSERT_TRUE(succeeded(opts));
  ASSERT_EQ(opts->doNotSpecialize.size(), 1u);
  EXPECT_EQ(opts->doNotSpecialize[0].repr(), "'n'");
  EXPECT_EQ(opts->noinline, true);
  llvm::FailureOr<AutotuneSpec> tune = readAutotune(ev, a->decorators[0]);
  ASSERT_TRUE(succeeded(tune));
  EXPECT_EQ(tune->key, std::vector<std::string>{"n"});
  EXPECT_TRUE(tune->configs.empty());
}

TEST(KernelModuleTest, ConstantsAndConstexpr) {
  Source src("import triton.language as tl\n"
             "A = 3\nB: tl.constexpr = 4\nC = tl.constexpr(5)\nD: int\n"
             "E = F = 6\n");
  auto m = KernelModule::scan(src.sm, src.id, src.diags);
  EXPECT_FALSE(m->lookupGlobal("A")->isConstexpr);
  EXPECT_TRUE(m->lookupGlobal("B")->isConstexpr);
  EXPECT_TRUE(m->lookupGlobal("C")->isConstexpr);
  EXPECT_FALSE(m->lookupGlobal("D"));
  EXPECT_TRUE(m->lookupGlobal("E") && m->lookupGlobal("F"));
  HostEvaluator ev(m.get(), src.diags);
  EXPECT_EQ(ev.evaluateGlobal("C", llvm::SMLoc())->repr(), "5");
}

TEST(KernelModuleTest, HostCodeIsSkippedSilently) {
  Source src("import triton\n"
             "async def fetch():\n    await x\n"
             "match command:\n    case 1:\n        pass\n"
             "type Alias = int\n"
             "print(f\"{x!r:>{w}} {d[\"k\"]}\")\n"
             "class Foo(Base):\n    x: int = 0\n"
             "    def method(self): return self.x\n"
             "if __name__ == '__main__':\n    main()\n"
             "with open(f) as g:\n    pass\n"
             "BAD = [1,, 2]\n"
             "@triton.jit\ndef kernel(x):\n    return x\n");
  auto m = KernelModule::scan(src.sm, src.id, src.diags);
  EXPECT_FALSE(src.diags.hadError()) << src.rendered();
  EXPECT_EQ(m->getNumSkippedStatements(), 4u);
  EXPECT_TRUE(m->lookupJitFunction("kernel"));
  EXPECT_EQ(m->lookupGlobal("Foo")->bindings.back().kind, BindingKind::Class);
  EXPECT_EQ(m->lookupGlobal("BAD")->bindings.back().kind,
            BindingKind::Unparsed);
}

TEST(KernelModuleTest, ErrorsInsideJitFunctionsAreReal) {
  Source src("import triton\n"
             "@triton.jit\ndef k(x):\n    y = (x +\n    return y\n"
             "@triton.jit\ndef ok(x):\n    return x\n");
  auto m = KernelModule::scan(src.sm, src.id, src.diags);
  EXPECT_EQ(src.diags.getNumErrors(), 1u);
  EXPECT_TRUE(m->lookupJitFunction("ok"));
  EXPECT_NE(src.rendered().find("test.py:5:5: error:"), std::string::npos)
      << src.rendered();
}

TEST(KernelModuleTest, DecoratorOrder) {
  Source src("import triton\n"
             "@triton.jit\n@triton.autotune(configs=[], key=[])\n"
             "def k(x):\n    pass\n"
             "@triton.heuristics({})\ndef h(x):\n    pass\n");
  auto m = KernelModule::scan(src.sm, src.id, src.diags);
  EXPECT_EQ(src.diags.getNumErrors(), 2u);
  EXPECT_NE(src.rendered().find("must be the decorator closest to 'def'"),
            std::string::npos);
  EXPECT_NE(src.rendered().find("must decorate a @triton.jit function"),
            std::string::npos);
}
