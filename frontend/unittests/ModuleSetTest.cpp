//===- ModuleSetTest.cpp - Tests of module search and host evaluation -----===//
#include "TestUtils.h"

#include "tessera/Frontend/Decorators.h"
#include "tessera/Frontend/HostEvaluator.h"
#include "tessera/Frontend/Language.h"
#include "tessera/Frontend/ModuleSet.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

using namespace tessera::frontend;
using namespace tessera::frontend::test;

namespace {
/// A temporary directory tree of Python files, removed afterwards.
class Tree {
public:
  Tree() {
    llvm::SmallString<128> dir;
    EXPECT_FALSE(llvm::sys::fs::createUniqueDirectory("modset", dir));
    root = std::string(dir);
  }
  ~Tree() { llvm::sys::fs::remove_directories(root); }

  /// Writes `text` to `relative` (directories created).
  void write(llvm::StringRef relative, llvm::StringRef text) {
    llvm::SmallString<256> path(root);
    llvm::sys::path::append(path, relative);
    llvm::SmallString<256> dir(path);
    llvm::sys::path::remove_filename(dir);
    ASSERT_FALSE(llvm::sys::fs::create_directories(dir));
    std::error_code ec;
    llvm::raw_fd_ostream os(path, ec);
    ASSERT_FALSE(ec);
    os << text;
  }
  std::string path(llvm::StringRef relative) const {
    llvm::SmallString<256> p(root);
    llvm::sys::path::append(p, relative);
    return std::string(p);
  }

  std::string root;
};

/// A kernel file (the main module) over a search path, with an evaluator.
struct Program {
  Source src;
  ModuleSet modules;
  KernelModule *main;
  HostEvaluator eval;

  Program(llvm::StringRef text, std::vector<std::string> searchPath,
          llvm::StringRef package = "")
      : src(text), modules(src.sm, std::move(searchPath)),
        main(&modules.addModule(src.id, src.diags, "__main__", package)),
        eval(main, src.diags) {}

  /// The global `name` of the main module, or the rendered errors.
  std::string global(llvm::StringRef name) {
    src.collected.clear();
    llvm::FailureOr<HostValue> v = eval.evaluateGlobal(name, llvm::SMLoc());
    if (failed(v))
      return "ERROR: " + src.rendered();
    return v->repr();
  }
};
} // namespace

TEST(ModuleSetTest, FindsPackagesModulesAndNamespacePackages) {
  Tree t;
  t.write("pkg/__init__.py", "X = 1\n");
  t.write("pkg/sub/__init__.py", "");
  t.write("pkg/sub/leaf.py", "Y = 2\n");
  t.write("ns/part/mod.py", "Z = 3\n");
  t.write("plain.py", "W = 4\n");
  Source src("");
  ModuleSet modules(src.sm, {t.root});
  const KernelModule *leaf = modules.importModule("pkg.sub.leaf");
  ASSERT_TRUE(leaf);
  EXPECT_EQ(leaf->getModuleName(), "pkg.sub.leaf");
  EXPECT_EQ(leaf->getPackageName(), "pkg.sub");
  // Parents were imported first, each once.
  const KernelModule *pkg = modules.importModule("pkg");
  ASSERT_TRUE(pkg);
  EXPECT_EQ(pkg->getPackageName(), "pkg");
  EXPECT_EQ(modules.importModule("pkg.sub.leaf"), leaf);
  EXPECT_EQ(modules.getLoadedFiles().size(), 3u);
  const KernelModule *nsMod = modules.importModule("ns.part.mod");
  ASSERT_TRUE(nsMod);
  EXPECT_TRUE(nsMod->lookupGlobal("Z"));
  EXPECT_TRUE(modules.importModule("plain"));

  std::string why;
  EXPECT_FALSE(modules.importModule("pkg.nothing", &why));
  EXPECT_NE(why.find("module 'pkg.nothing' was not found"), std::string::npos)
      << why;
  EXPECT_FALSE(modules.importModule("plain.child", &why));
  EXPECT_NE(why.find("'plain' is a module, not a package"), std::string::npos)
      << why;
  EXPECT_FALSE(modules.importModule("triton.language", &why));
  EXPECT_NE(why.find("part of the Triton language"), std::string::npos);
  std::optional<MissingModule> missing = modules.findMissing("pkg.nothing.f");
  ASSERT_TRUE(missing);
  EXPECT_EQ(missing->name, "pkg.nothing");
}

TEST(ModuleSetTest, EarlierSearchPathEntriesWin) {
  Tree a, b;
  a.write("lib.py", "WHO = 'a'\n");
  b.write("lib.py", "WHO = 'b'\n");
  b.write("only_b.py", "WHO = 'only b'\n");
  Program p("import lib\nimport only_b\nA = lib.WHO\nB = only_b.WHO\n",
            {a.root, b.root});
  EXPECT_EQ(p.global("A"), "'a'");
  EXPECT_EQ(p.global("B"), "'only b'");
}

TEST(ModuleSetTest, RelativeImportsAndReExports) {
  Tree t;
  t.write("pkg/__init__.py", "from .impl import value as exported\n");
  t.write("pkg/impl.py", "value = 41 + 1\n");
  t.write("pkg/sub/__init__.py", "");
  t.write("pkg/sub/user.py", "from ..impl import value\n"
                             "from .. import impl\n"
                             "from . import sibling\n"
                             "got = (value, impl.value, sibling.S)\n");
  t.write("pkg/sub/sibling.py", "S = 's'\n");
  Program p("from pkg import exported\nfrom pkg.sub.user import got\n",
            {t.root});
  EXPECT_EQ(p.global("exported"), "42");
  EXPECT_EQ(p.global("got"), "(42, 42, 's')");

  Source src("");
  ModuleSet modules(src.sm, {t.root});
  const KernelModule *user = modules.importModule("pkg.sub.user");
  ASSERT_TRUE(user);
  llvm::Expected<std::string> up = modules.resolveRelative(*user, 3, "x");
  EXPECT_FALSE(up);
  EXPECT_NE(llvm::toString(up.takeError()).find("beyond top-level package"),
            std::string::npos);
}

TEST(ModuleSetTest, ModuleAttributesAndErrors) {
  Tree t;
  t.write("lib/__init__.py", "");
  t.write("lib/consts.py", "N = 8\n");
  Program p("import lib.consts\nimport lib.consts as c\nfrom lib import consts\n"
            "A = lib.consts.N\nB = c.N\nC = consts.N\nD = c.MISSING\n"
            "from lib import nothing\nE = nothing\n",
            {t.root});
  EXPECT_EQ(p.global("A"), "8");
  EXPECT_EQ(p.global("B"), "8");
  EXPECT_EQ(p.global("C"), "8");
  EXPECT_NE(p.global("D").find("module 'lib.consts' has no attribute "
                               "'MISSING'"),
            std::string::npos);
  EXPECT_NE(p.global("E").find("cannot import name 'nothing' from 'lib'"),
            std::string::npos);
}

TEST(ModuleSetTest, ModuleThatDoesNotParse) {
  Tree t;
  t.write("bad.py", "import triton\n@triton.jit\ndef f(x):\n    return x +\n");
  Source src("");
  ModuleSet modules(src.sm, {t.root});
  std::string why;
  EXPECT_FALSE(modules.importModule("bad", &why));
  EXPECT_NE(why.find("module 'bad' does not compile"), std::string::npos);
  EXPECT_NE(why.find("bad.py:4:"), std::string::npos) << why;
  // Remembered: the second import does not read the file again.
  EXPECT_FALSE(modules.importModule("bad"));
  EXPECT_EQ(modules.getLoadedFiles().size(), 1u);
}

TEST(ModuleSetTest, TryExceptImportErrorFollowsTheLanguage) {
  Program p("import triton.language as tl\n"
            "try:\n"
            "    from triton.language.extra import libdevice\n"
            "    A = 'new'\n"
            "except ImportError:\n"
            "    A = 'old'\n"
            "try:\n"
            "    from triton.language.extra.nope import libdevice as x\n"
            "    B = 'new'\n"
            "except ImportError:\n"
            "    B = 'old'\n"
            "else:\n"
            "    C = 'else'\n"
            "finally:\n"
            "    D = 'finally'\n"
            "try:\n"
            "    import not_on_the_path\n"
            "    E = 1\n"
            "except ImportError:\n"
            "    E = 2\n",
            {});
  EXPECT_EQ(p.global("A"), "'new'");
  EXPECT_EQ(p.global("libdevice"), "triton.language.extra.libdevice");
  EXPECT_EQ(p.global("B"), "'old'");
  EXPECT_NE(p.global("C").find("not bound under the conditions"),
            std::string::npos);
  EXPECT_EQ(p.global("D"), "'finally'");
  // Whether a module outside the search path imports cannot be known.
  EXPECT_NE(p.global("E").find("cannot tell whether this import succeeds"),
            std::string::npos);
}

TEST(ModuleSetTest, VersionsAndLanguageQueries) {
  // A target's module is present once the target adds it, as the runtime
  // does when it opens a target.
  EXPECT_FALSE(isLanguageName("triton.language.extra.acme"));
  addTargetLanguageModule("acme");
  Program p("import operator\nimport importlib.metadata\n"
            "import triton\nimport triton.language as tl\n"
            "from packaging import version\n"
            "V = triton.__version__\n"
            "NEW = version.parse(triton.__version__) >= "
            "version.parse('3.0.0')\n"
            "GE = operator.ge(tuple(int(x) for x in V.split('.')[:2]), "
            "(3, 6))\n"
            "META = importlib.metadata.version('triton')\n"
            "HAS = (hasattr(tl.extra, 'acme'), hasattr(tl, 'nosuch'), "
            "hasattr(tl, 'float8e4nv'), hasattr(tl.math, 'exp'))\n"
            "G = getattr(tl, 'nosuch', None)\n"
            "def pick(xs):\n"
            "    for x in xs:\n"
            "        if x > 2:\n"
            "            return x\n"
            "    return -1\n"
            "P = pick([1, 2, 5, 7])\n",
            {});
  EXPECT_EQ(p.global("V"), "'" + kTritonLanguageVersion.str() + "'");
  EXPECT_EQ(p.global("NEW"), "True");
  EXPECT_EQ(p.global("GE"), "True");
  EXPECT_EQ(p.global("META"), p.global("V"));
  EXPECT_EQ(p.global("HAS"), "(True, False, True, True)");
  EXPECT_EQ(p.global("G"), "None");
  EXPECT_EQ(p.global("P"), "5");
  EXPECT_TRUE(isLanguageName("triton.language.extra.acme.libdevice.exp"));
  EXPECT_TRUE(isLanguageName("triton.language.extra.acme.libdevice"));
  EXPECT_FALSE(isLanguageName("triton.language.extra.acme.other"));
  EXPECT_FALSE(isLanguageName("triton.language.extra.nosuch"));
  EXPECT_TRUE(isLanguageName("triton.language.math.exp"));
  EXPECT_FALSE(isLanguageName("triton.language.nosuch"));
}

TEST(ModuleSetTest, InjectedGlobalsAndEmbedderModules) {
  Source src("@triton.jit\ndef k(x):\n    return x\n");
  ModuleSet modules(src.sm, {});
  KernelModule &ns = modules.addEmptyModule("mylib.ops", "<mylib/ops.py>");
  ns.inject("SCALE", HostValue::integer(3), /*isConstexpr=*/true);
  KernelModule &m = modules.addModule(src.id, src.diags, "app", "", {},
                                      /*importable=*/false);
  m.inject("triton", HostValue::symbol("triton"), false);
  m.inject("ops", HostValue::module(&ns), false);
  m.inject("tensor", HostValue::opaque("torch.Tensor"), false);
  // Decorators are classified when the source is scanned, before any
  // injection: the embedder says which functions are jit.
  EXPECT_FALSE(m.lookupJitFunction("k"));
  EXPECT_TRUE(m.markJit("k", {}));
  EXPECT_TRUE(m.lookupJitFunction("k"));
  HostEvaluator eval(&m, src.diags);
  llvm::FailureOr<HostValue> ops = eval.evaluateGlobal("ops", llvm::SMLoc());
  ASSERT_TRUE(succeeded(ops));
  llvm::FailureOr<HostValue> scale =
      eval.getAttribute(*ops, "SCALE", llvm::SMLoc());
  ASSERT_TRUE(succeeded(scale));
  EXPECT_EQ(scale->repr(), "3");
  EXPECT_EQ(eval.evaluateGlobal("tensor", llvm::SMLoc())->repr(),
            "<torch.Tensor object>");
  EXPECT_FALSE(modules.importModule("mylib.ops"));
}

TEST(ModuleSetTest, ModuleCodeRunsTopToBottom) {
  Program p("try:\n"
            "    import triton\n"
            "except ImportError:\n"
            "    triton = None\n"
            "if triton is not None:\n"
            "    A = 'has triton'\n"
            "else:\n"
            "    class triton:\n"
            "        pass\n"
            "    A = 'none'\n"
            "X = 1\n"
            "Y = X + 1\n"
            "X = 5\n"
            "def read_x():\n"
            "    return X\n"
            "Z = read_x()\n"
            "X = 9\n",
            {});
  EXPECT_EQ(p.global("A"), "'has triton'");
  EXPECT_EQ(p.global("triton"), "triton");
  EXPECT_EQ(p.global("Y"), "2");
  // A function called at module level reads the globals of that moment.
  EXPECT_EQ(p.global("Z"), "5");
  EXPECT_EQ(p.global("X"), "9");
}

TEST(ModuleSetTest, HostFunctionsWithTryAndImportModule) {
  Program p("import importlib\n"
            "import operator\n"
            "from packaging.version import Version\n"
            "def compare_version(package, op, target):\n"
            "    try:\n"
            "        pkg = importlib.import_module(package)\n"
            "    except ImportError:\n"
            "        return False\n"
            "    return op(Version(pkg.__version__), Version(target))\n"
            "NEW = compare_version('triton', operator.ge, '3.0.0')\n"
            "OLD = compare_version('triton', operator.lt, '2.2')\n"
            "UNKNOWN = compare_version('torch', operator.ge, '2.4.0')\n",
            {});
  EXPECT_EQ(p.global("NEW"), "True");
  EXPECT_EQ(p.global("OLD"), "False");
  // Whether torch imports on the author's machine is not knowable here.
  EXPECT_NE(p.global("UNKNOWN").find("cannot import 'torch' at compile time"),
            std::string::npos);
}

TEST(ModuleSetTest, DecoratorsThroughAnotherModule) {
  Tree t;
  t.write("compat.py", "try:\n    import triton\nexcept ImportError:\n"
                       "    triton = None\n"
                       "if triton is None:\n"
                       "    class triton:\n        pass\n");
  t.write("helpers.py", "from compat import triton\n"
                        "import compat\n"
                        "@triton.jit\ndef a(x):\n    return x\n"
                        "@compat.triton.jit\ndef b(x):\n    return x\n"
                        "@triton.jit\n@other\ndef c(x):\n    return x\n"
                        "def host(x):\n    return x\n");
  Source src("");
  ModuleSet modules(src.sm, {t.root});
  const KernelModule *helpers = modules.importModule("helpers");
  ASSERT_TRUE(helpers);
  EXPECT_TRUE(helpers->lookupJitFunction("a"));
  EXPECT_TRUE(helpers->lookupJitFunction("b"));
  // @triton.jit must be the decorator closest to the def.
  EXPECT_FALSE(helpers->lookupJitFunction("c"));
  EXPECT_FALSE(helpers->lookupJitFunction("host"));
}
