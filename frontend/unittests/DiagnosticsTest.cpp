//===- DiagnosticsTest.cpp - Diagnostics format and robustness ------------===//
#include "TestUtils.h"

#include "tessera/Frontend/KernelModule.h"

#include "gtest/gtest.h"

#include <random>

using namespace tessera::frontend;
using namespace tessera::frontend::test;

TEST(DiagnosticsTest, FormatWithCaretAndHint) {
  Source src("x = 1\ny = foo(\n", "k.py");
  const char *ptr = src.buffer().data() + 6;
  src.diags.error(llvm::SMLoc::getFromPointer(ptr), "bad thing")
      .hint("try this");
  EXPECT_EQ(src.diags.getNumErrors(), 1u);
  ASSERT_EQ(src.collected.size(), 1u);
  EXPECT_EQ(src.rendered(), "k.py:2:1: error: bad thing\ny = foo(\n^\n"
                            "k.py:2:1: note: try this\n");
  SourceLoc loc = src.diags.getSourceLoc(llvm::SMLoc::getFromPointer(ptr + 4));
  EXPECT_EQ(loc.line, 2u);
  EXPECT_EQ(loc.column, 5u);
}

TEST(DiagnosticsTest, CaptureDropsOrCommits) {
  Source src("x\n");
  llvm::SMLoc loc = llvm::SMLoc::getFromPointer(src.buffer().data());
  {
    DiagnosticCapture capture(src.diags);
    src.diags.error(loc, "dropped");
    EXPECT_TRUE(capture.hadError());
  }
  EXPECT_EQ(src.diags.getNumErrors(), 0u);
  {
    DiagnosticCapture capture(src.diags);
    src.diags.error(loc, "kept");
    capture.commit();
  }
  EXPECT_EQ(src.diags.getNumErrors(), 1u);
  ASSERT_EQ(src.collected.size(), 1u);
  EXPECT_EQ(src.collected[0].message, "kept");
}

TEST(DiagnosticsTest, ParseErrorHasFileLineColumn) {
  Source src("@triton.jit\ndef k(x):\n    return x +\n", "kern.py");
  Lexer lexer(src.buffer());
  ASTContext ctx;
  Parser parser(lexer, ctx, src.diags);
  llvm::SmallVector<Stmt *> stmts;
  EXPECT_TRUE(failed(parser.parseFile(stmts)));
  EXPECT_EQ(src.rendered(),
            "kern.py:3:15: error: expected an expression, found end of line\n"
            "    return x +\n              ^\n");
}

namespace {
/// Scans `text` as a module and parses it as a file: neither may crash.
void survive(const std::string &text) {
  Source src(text);
  std::unique_ptr<KernelModule> m =
      KernelModule::scan(src.sm, src.id, src.diags);
  ASSERT_TRUE(m);
  Lexer lexer(src.buffer());
  ASTContext ctx;
  Parser parser(lexer, ctx, src.diags);
  llvm::SmallVector<Stmt *> stmts;
  while (!parser.atEnd()) {
    const char *start = parser.getCurrentToken().loc.getPointer();
    if (failed(parser.parseStatement(stmts)))
      parser.recoverAtTopLevel(start);
  }
}
} // namespace

TEST(RobustnessTest, TruncatedFiles) {
  std::string kernel =
      "import triton\nimport triton.language as tl\n\n"
      "@triton.autotune(configs=[triton.Config({'B': b}) for b in [1, 2]],"
      " key=['n'])\n@triton.jit\ndef k(x_ptr, n, B: tl.constexpr):\n"
      "    '''doc'''\n    pid = tl.program_id(0)\n"
      "    for i in range(0, n, B):\n        x = tl.load(x_ptr + i, mask=i < n)"
      "\n    return f\"{x!r}\"\n";
  for (size_t n = 0; n <= kernel.size(); ++n)
    survive(kernel.substr(0, n));
}

TEST(RobustnessTest, RandomBytes) {
  std::mt19937 rng(1234);
  const std::string alphabet =
      "abc_XY019 \t\n\r\\'\"#()[]{}:;,.=+-*/%@<>!~^&|\x80\xff\x00";
  for (int iter = 0; iter < 400; ++iter) {
    std::string text;
    size_t len = rng() % 200;
    for (size_t i = 0; i < len; ++i)
      text.push_back(alphabet[rng() % alphabet.size()]);
    survive(text);
  }
  for (int iter = 0; iter < 100; ++iter) {
    std::string text;
    for (int i = 0; i < 300; ++i)
      text.push_back(char(rng() % 256));
    survive(text);
  }
}

TEST(RobustnessTest, PathologicalInputs) {
  survive(std::string(20000, '('));
  survive(std::string(20000, ')'));
  survive(std::string(20000, '-') + "1\n");
  survive(std::string(5000, 'n') + "ot x\n");
  std::string deep;
  for (int i = 0; i < 300; ++i)
    deep += std::string(i, ' ') + "if x:\n";
  survive(deep);
  survive("if x:\n\ty = 1\n        z = 2\n  w = 3\n");
  survive("def f(:\n  pass\nx = (1,\n2\n]\n}}}\n'''\n");
  survive("\\");
  survive("x = \\\n");
  survive("@\n@\ndef\n");
}
