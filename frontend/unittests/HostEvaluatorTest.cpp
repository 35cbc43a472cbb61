//===- HostEvaluatorTest.cpp - Tests of host-expression evaluation --------===//
#include "TestUtils.h"

#include "tessera/Frontend/Decorators.h"
#include "tessera/Frontend/HostEvaluator.h"

#include "gtest/gtest.h"

using namespace tessera::frontend;
using namespace tessera::frontend::test;

namespace {
/// Evaluates `expr` in a module made of `prelude`; returns repr() or
/// "ERROR: <first message>".
std::string eval(llvm::StringRef expr, llvm::StringRef prelude = "") {
  std::string text = prelude.str() + "\n__result__ = " + expr.str() + "\n";
  Source src(text);
  std::unique_ptr<KernelModule> m =
      KernelModule::scan(src.sm, src.id, src.diags);
  HostEvaluator ev(m.get(), src.diags);
  ev.setEnvironment({{"TESSERA_SET", "1"}});
  const GlobalSymbol *result = m->lookupGlobal("__result__");
  if (!result || result->bindings.back().kind != BindingKind::Value)
    return "ERROR: did not parse";
  llvm::FailureOr<HostValue> v =
      ev.evaluateGlobal("__result__", result->bindings.back().loc.ptr);
  if (failed(v))
    return std::string("ERROR: ") + (src.collected.empty()
                                         ? std::string("?")
                                         : src.collected[0].message);
  return v->repr();
}
} // namespace

TEST(HostEvaluatorTest, PythonIntegerSemantics) {
  EXPECT_EQ(eval("7 // 2"), "3");
  EXPECT_EQ(eval("-7 // 2"), "-4");
  EXPECT_EQ(eval("7 // -2"), "-4");
  EXPECT_EQ(eval("-7 % 3"), "2");
  EXPECT_EQ(eval("7 % -3"), "-2");
  EXPECT_EQ(eval("7 / 2"), "3.5");
  EXPECT_EQ(eval("6 / 3"), "2.0");
  EXPECT_EQ(eval("2 ** 10"), "1024");
  EXPECT_EQ(eval("2 ** -1"), "0.5");
  EXPECT_EQ(eval("-2 ** 2"), "-4");
  EXPECT_EQ(eval("1 << 40"), "1099511627776");
  EXPECT_EQ(eval("-9 >> 1"), "-5");
  EXPECT_EQ(eval("~5 & 0xff | 0b1 ^ 3"), "250");
  EXPECT_EQ(eval("True + True"), "2");
  EXPECT_EQ(eval("True & False"), "False");
  EXPECT_EQ(eval("-7.5 // 2"), "-4.0");
  EXPECT_EQ(eval("-7.5 % 2"), "0.5");
  EXPECT_EQ(eval("0.1 + 0.2"), "0.30000000000000004");
  EXPECT_EQ(eval("1e16"), "1e+16");
  EXPECT_EQ(eval("1e-5"), "1e-05");
  EXPECT_EQ(eval("2 ** 63"), "ERROR: integer overflow in compile-time "
                             "arithmetic (Tessera evaluates host integers in "
                             "64 bits)");
  EXPECT_EQ(eval("1 // 0"), "ERROR: integer division or modulo by zero");
  EXPECT_EQ(eval("1 / 0"), "ERROR: division by zero");
}

TEST(HostEvaluatorTest, ContainersAndComparisons) {
  EXPECT_EQ(eval("[1, 2] + [3]"), "[1, 2, 3]");
  EXPECT_EQ(eval("(1,) * 3"), "(1, 1, 1)");
  EXPECT_EQ(eval("{'a': 1, **{'b': 2}}"), "{'a': 1, 'b': 2}");
  EXPECT_EQ(eval("{'a': 1}['a']"), "1");
  EXPECT_EQ(eval("[1, 2, 3][-1]"), "3");
  EXPECT_EQ(eval("[1, 2, 3, 4][::2]"), "[1, 3]");
  EXPECT_EQ(eval("'abc'[1:]"), "'bc'");
  EXPECT_EQ(eval("1 < 2 < 3"), "True");
  EXPECT_EQ(eval("1 < 3 < 2"), "False");
  EXPECT_EQ(eval("1 == 1.0"), "True");
  EXPECT_EQ(eval("'b' in ['a', 'b']"), "True");
  EXPECT_EQ(eval("'k' not in {'k': 1}"), "False");
  EXPECT_EQ(eval("None is None"), "True");
  EXPECT_EQ(eval("0 or 'x'"), "'x'");
  EXPECT_EQ(eval("1 and []"), "[]");
  EXPECT_EQ(eval("'y' if 0 else 'n'"), "'n'");
  EXPECT_EQ(eval("{'a': 1}['b']"), "ERROR: key 'b' is not in the dict");
  EXPECT_EQ(eval("[1][5]"), "ERROR: index 5 is out of range");
  EXPECT_EQ(eval("{'a': 1}.get('b', 7)"), "7");
}

TEST(HostEvaluatorTest, Builtins) {
  EXPECT_EQ(eval("triton.next_power_of_2(1000)", "import triton"), "1024");
  EXPECT_EQ(eval("triton.next_power_of_2(1)", "import triton"), "1");
  EXPECT_EQ(eval("triton.cdiv(10, 3)", "import triton"), "4");
  EXPECT_EQ(eval("tl.constexpr(5)", "import triton.language as tl"), "5");
  EXPECT_EQ(eval("min(3, 1, 2), max([4, 9]), abs(-3), abs(-2.5)"),
            "(1, 9, 3, 2.5)");
  EXPECT_EQ(eval("int(3.9), int('12'), float(2), len('abc'), bool([])"),
            "(3, 12, 2.0, 3, False)");
  EXPECT_EQ(eval("list(range(1, 10, 4)), tuple(range(3))"),
            "([1, 5, 9], (0, 1, 2))");
  EXPECT_EQ(eval("list(filter(lambda x: x % 2, range(6)))"), "[1, 3, 5]");
  EXPECT_EQ(eval("list(map(lambda x: x * x, [1, 2]))"), "[1, 4]");
  EXPECT_EQ(eval("sorted([3, 1, 2], reverse=True)"), "[3, 2, 1]");
  EXPECT_EQ(eval("dict(A=1, B=2)"), "{'A': 1, 'B': 2}");
  EXPECT_EQ(eval("list(zip([1, 2], 'ab')), sum([1, 2.5])"),
            "([(1, 'a'), (2, 'b')], 3.5)");
  EXPECT_EQ(
      eval("os.environ.get('TESSERA_SET'), 'NOPE' in os.environ", "import os"),
      "('1', False)");
  EXPECT_EQ(eval("torch.device_query.capability()", "import torch"),
            "ERROR: cannot evaluate call to 'torch.device_query.capability'"
            " at compile time");
  EXPECT_EQ(eval("undefined_name"), "ERROR: name 'undefined_name' is not "
                                    "defined");
}

TEST(HostEvaluatorTest, ComprehensionsAndFunctions) {
  EXPECT_EQ(eval("[x * y for x in [1, 2] for y in [10, 20] if x != y // 10]"),
            "[20, 20]");
  EXPECT_EQ(eval("{k: v for k, v in [('a', 1), ('b', 2)]}"),
            "{'a': 1, 'b': 2}");
  EXPECT_EQ(eval("{x % 2 for x in range(5)}"), "[0, 1]");
  const char *prelude = "def scale(x, factor=2, *rest, **kw):\n"
                        "    '''doc'''\n"
                        "    y = x * factor\n"
                        "    if y > 10:\n"
                        "        return y - len(rest)\n"
                        "    return y + len(kw)\n"
                        "sq = lambda v: v * v\n";
  EXPECT_EQ(eval("scale(3)", prelude), "6");
  EXPECT_EQ(eval("scale(3, 5, 1, 1)", prelude), "13");
  EXPECT_EQ(eval("scale(x=1, a=1, b=2)", prelude), "4");
  EXPECT_EQ(eval("sq(sq(3))", prelude), "81");
  EXPECT_EQ(eval("scale()", prelude), "ERROR: 'scale' is missing argument 'x'");
  EXPECT_EQ(eval("[(lambda: i)() for i in range(3)]"), "[0, 1, 2]");
}

TEST(HostEvaluatorTest, ConfigsAndGlobals) {
  const char *prelude =
      "import triton\n"
      "WARPS = [4, 8]\n"
      "BASE = 32\n"
      "BASE *= 2\n"
      "A, (B, C) = 1, (2, 3)\n"
      "configs = [triton.Config({'BLOCK': b}, num_warps=w, maxnreg=128)\n"
      "           for b in [BASE, 2 * BASE] for w in WARPS if b * w <= 512]\n"
      "def keep(c):\n"
      "    return c.kwargs['BLOCK'] == 64\n";
  EXPECT_EQ(eval("BASE, A, B, C", prelude), "(64, 1, 2, 3)");
  EXPECT_EQ(eval("len(configs), configs[2]", prelude),
            "(3, Config({'BLOCK': 128}, num_warps=4, num_stages=3, "
            "num_ctas=1, maxnreg=128))");
  EXPECT_EQ(eval("len(list(filter(keep, configs)))", prelude), "2");
  EXPECT_EQ(eval("configs[0].num_warps + configs[1].num_stages", prelude), "7");
  // Module code runs top to bottom: X is read before anything binds it.
  EXPECT_EQ(eval("X", "X = X + 1"),
            "ERROR: name 'X' is not defined yet where module '__main__' "
            "reads it");
  EXPECT_EQ(eval("Y", "import os\nif 'TESSERA_SET' in os.environ:\n"
                      "    Y = 1\nelse:\n    Y = 2\n"),
            "1");
}

TEST(HostEvaluatorTest, HeuristicsOverLaunchArguments) {
  Source src(
      "import triton\n"
      "@triton.heuristics({'BLOCK': lambda a: "
      "triton.next_power_of_2(a['n']),\n"
      "                    'EVEN': lambda a: a['n'] % a['BLOCK'] == 0})\n"
      "@triton.jit\n"
      "def k(x, n, BLOCK, EVEN):\n    pass\n");
  std::unique_ptr<KernelModule> m =
      KernelModule::scan(src.sm, src.id, src.diags);
  ASSERT_FALSE(src.diags.hadError()) << src.rendered();
  HostEvaluator ev(m.get(), src.diags);
  const JitFunction *fn = m->lookupJitFunction("k");
  ASSERT_TRUE(fn);
  const DecoratorInfo *d = fn->findDecorator(DecoratorKind::Heuristics);
  ASSERT_TRUE(d);
  llvm::FailureOr<HeuristicsSpec> spec = readHeuristics(ev, *d);
  ASSERT_TRUE(succeeded(spec));
  llvm::FailureOr<std::vector<HostKwarg>> out = evaluateHeuristics(
      ev, *spec, {{"n", HostValue::integer(96)}, {"x", HostValue::none()}});
  ASSERT_TRUE(succeeded(out));
  ASSERT_EQ(out->size(), 2u);
  EXPECT_EQ((*out)[0].second.repr(), "128");
  EXPECT_EQ((*out)[1].second.repr(), "False");
}
