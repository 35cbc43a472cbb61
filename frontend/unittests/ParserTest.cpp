//===- ParserTest.cpp - Tests of the Triton-language parser ---------------===//
#include "TestUtils.h"

#include "gtest/gtest.h"

using namespace tessera::frontend;
using namespace tessera::frontend::test;

namespace {
/// A compact S-expression of an expression, to check precedence.
std::string sexpr(const Expr *e) {
  using llvm::cast;
  switch (e->getKind()) {
  case NodeKind::Name:
    return cast<NameExpr>(e)->getId().str();
  case NodeKind::IntLiteral:
    return std::to_string(cast<IntLiteralExpr>(e)->getValue());
  case NodeKind::BinOp: {
    auto *b = cast<BinOpExpr>(e);
    std::string out = "(";
    out += getSpelling(b->getOp());
    out += " " + sexpr(b->getLHS());
    out += " " + sexpr(b->getRHS());
    return out + ")";
  }
  case NodeKind::UnaryOp: {
    auto *u = cast<UnaryOpExpr>(e);
    std::string out = "(";
    out += getSpelling(u->getOp());
    out += " " + sexpr(u->getOperand());
    return out + ")";
  }
  case NodeKind::BoolOp: {
    auto *b = cast<BoolOpExpr>(e);
    std::string out = "(" + getSpelling(b->getOp()).str();
    for (const Expr *v : b->getValues())
      out += " " + sexpr(v);
    return out + ")";
  }
  case NodeKind::Compare: {
    auto *c = cast<CompareExpr>(e);
    std::string out = "(cmp " + sexpr(c->getLeft());
    for (size_t i = 0; i < c->getOps().size(); ++i)
      out += " " + getSpelling(c->getOps()[i]).str() + " " +
             sexpr(c->getComparators()[i]);
    return out + ")";
  }
  case NodeKind::IfExp: {
    auto *i = cast<IfExpExpr>(e);
    return "(if " + sexpr(i->getTest()) + " " + sexpr(i->getBody()) + " " +
           sexpr(i->getOrElse()) + ")";
  }
  default:
    return getNodeKindName(e->getKind()).str();
  }
}

std::string prec(llvm::StringRef text) {
  Source src(text);
  Lexer lexer(src.buffer());
  ASTContext ctx;
  Parser parser(lexer, ctx, src.diags);
  Expr *e = parser.parseExpressionInput();
  return e ? sexpr(e) : "ERROR: " + src.rendered();
}
} // namespace

TEST(ParserTest, Precedence) {
  EXPECT_EQ(prec("a + b * c"), "(+ a (* b c))");
  EXPECT_EQ(prec("a - b - c"), "(- (- a b) c)");
  EXPECT_EQ(prec("-2 ** 2"), "(- (** 2 2))");
  EXPECT_EQ(prec("2 ** -1"), "(** 2 (- 1))");
  EXPECT_EQ(prec("a ** b ** c"), "(** a (** b c))");
  EXPECT_EQ(prec("a | b ^ c & d << e + f"), "(| a (^ b (& c (<< d (+ e f)))))");
  EXPECT_EQ(prec("a // b % c @ d / e"), "(/ (@ (% (// a b) c) d) e)");
  EXPECT_EQ(prec("~a * -b"), "(* (~ a) (- b))");
  EXPECT_EQ(prec("not a and b or c"), "(or (and (not a) b) c)");
  EXPECT_EQ(prec("a < b <= c != d"), "(cmp a < b <= c != d)");
  EXPECT_EQ(prec("a not in b is not c in d is e"),
            "(cmp a not in b is not c in d is e)");
  EXPECT_EQ(prec("not a == b"), "(not (cmp a == b))");
  EXPECT_EQ(prec("a if b else c if d else e"), "(if b a (if d c e))");
  EXPECT_EQ(prec("a or b if c and d else e"), "(if (and c d) (or a b) e)");
  EXPECT_EQ(prec("(a + b) * c"), "(* (+ a b) c)");
}

TEST(ParserTest, Primaries) {
  EXPECT_EQ(exprDump("x[1:2, ::3, None, ...]"),
            "Subscript\n  value: Name 'x'\n  index: Tuple\n"
            "    elt: Slice\n      lower: IntLiteral 1\n"
            "      upper: IntLiteral 2\n    elt: Slice\n"
            "      step: IntLiteral 3\n    elt: NoneLiteral\n"
            "    elt: EllipsisLiteral\n");
  EXPECT_EQ(exprDump("f(a, *b, k=1, **d)"),
            "Call\n  func: Name 'f'\n  arg: Name 'a'\n  arg: Starred\n"
            "    value: Name 'b'\n  keyword: 'k'\n    value: IntLiteral 1\n"
            "  keyword: **\n    value: Name 'd'\n");
  EXPECT_EQ(exprDump("a.b.c"),
            "Attribute 'c'\n  value: Attribute 'b'\n    value: Name 'a'\n");
  EXPECT_EQ(exprDump("'a' \"b\" '''c'''"), "StringLiteral 'abc'\n");
  EXPECT_EQ(exprDump("f'{x}' 'y'"), "StringLiteral fstring '{x}y'\n");
  EXPECT_EQ(exprDump("(x := 3)"),
            "NamedExpr\n  target: Name 'x'\n  value: IntLiteral 3\n");
  EXPECT_EQ(exprDump("()"), "Tuple parenthesized\n");
  EXPECT_EQ(exprDump("(1,)"), "Tuple parenthesized\n  elt: IntLiteral 1\n");
  EXPECT_EQ(exprDump("{}"), "Dict\n");
  EXPECT_EQ(exprDump("{1, *a}"),
            "Set\n  elt: IntLiteral 1\n  elt: Starred\n    value: Name 'a'\n");
  EXPECT_EQ(exprDump("True, False, None, 1.5"),
            "Tuple\n  elt: BoolLiteral True\n  elt: BoolLiteral False\n"
            "  elt: NoneLiteral\n  elt: FloatLiteral 1.5\n");
}

TEST(ParserTest, Comprehensions) {
  EXPECT_EQ(
      exprDump("[x * y for x in a if x for y in b]"),
      "ListComp\n  elt: BinOp Mult\n    lhs: Name 'x'\n    rhs: Name 'y'\n"
      "  for: comprehension\n    target: Name 'x'\n    iter: Name 'a'\n"
      "    if: Name 'x'\n  for: comprehension\n    target: Name 'y'\n"
      "    iter: Name 'b'\n");
  EXPECT_EQ(exprDump("{k: v for k, v in d}"),
            "DictComp\n  key: Name 'k'\n  value: Name 'v'\n"
            "  for: comprehension\n    target: Tuple\n      elt: Name 'k'\n"
            "      elt: Name 'v'\n    iter: Name 'd'\n");
  EXPECT_EQ(exprDump("{x for x in s}").substr(0, 8), "SetComp\n");
  EXPECT_NE(exprDump("sum(x for x in s)").find("arg: GeneratorExp"),
            std::string::npos);
  EXPECT_EQ(exprDump("lambda a, b=1, *c, d, **e: a").substr(0, 7), "Lambda\n");
}

TEST(ParserTest, Statements) {
  EXPECT_EQ(parseAndDump("a = b = 1\n"),
            "Assign\n  target: Name 'a'\n  target: Name 'b'\n"
            "  value: IntLiteral 1\n");
  EXPECT_EQ(parseAndDump("(a, [b, c]) = x\n"),
            "Assign\n  target: Tuple parenthesized\n    elt: Name 'a'\n"
            "    elt: List\n      elt: Name 'b'\n      elt: Name 'c'\n"
            "  value: Name 'x'\n");
  EXPECT_EQ(parseAndDump("x: tl.constexpr = 3\ny: int\n"),
            "AnnAssign\n  target: Name 'x'\n  annotation: Attribute "
            "'constexpr'\n    value: Name 'tl'\n  value: IntLiteral 3\n"
            "AnnAssign\n  target: Name 'y'\n  annotation: Name 'int'\n");
  const char *augOps[] = {"+=", "-=", "*=", "/=", "//=", "%=", "**=",
                          "@=", "&=", "|=", "^=", "<<=", ">>="};
  for (const char *op : augOps)
    EXPECT_EQ(parseAndDump(std::string("a.b[0] ") + op + " 1\n").substr(0, 9),
              "AugAssign")
        << op;
  EXPECT_EQ(
      parseAndDump("for i in range(3):\n  pass\nelse:\n  pass\n").substr(0, 14),
      "For with-else\n");
  EXPECT_EQ(
      parseAndDump("while x:\n  break\nelse:\n  continue\n").substr(0, 16),
      "While with-else\n");
  EXPECT_EQ(parseAndDump("if a:\n  pass\nelif b:\n  pass\nelse:\n  pass\n"),
            "If\n  test: Name 'a'\n  body:\n    Pass\n  orelse:\n"
            "    If elif\n      test: Name 'b'\n      body:\n        Pass\n"
            "      orelse:\n        Pass\n");
  EXPECT_EQ(parseAndDump("return a, b\n"),
            "Return\n  value: Tuple\n    elt: Name 'a'\n    elt: Name 'b'\n");
  EXPECT_EQ(parseAndDump("assert x, 'm'\n"),
            "Assert\n  test: Name 'x'\n  msg: StringLiteral 'm'\n");
  EXPECT_EQ(parseAndDump("del a, b[0]\nglobal g, h\nnonlocal n\n"),
            "Del\n  target: Name 'a'\n  target: Subscript\n    value: Name "
            "'b'\n    index: IntLiteral 0\nGlobal 'g' 'h'\nNonlocal 'n'\n");
  EXPECT_EQ(parseAndDump("import a.b as c, d\nfrom ..m import (x as y, z,)\n"
                         "from k import *\n"),
            "Import 'a.b' as 'c' 'd'\nImportFrom '..m' 'x' as 'y' 'z'\n"
            "ImportFrom 'k' '*'\n");
  EXPECT_EQ(parseAndDump("with open(f) as g, h:\n  pass\n").substr(0, 5),
            "With\n");
  EXPECT_EQ(parseAndDump("try:\n  pass\nexcept E as e:\n  raise X from e\n"
                         "else:\n  pass\nfinally:\n  pass\n")
                .substr(0, 4),
            "Try\n");
  EXPECT_EQ(parseAndDump("class A(B, metaclass=M):\n  x = 1\n").substr(0, 13),
            "ClassDef 'A'\n");
  EXPECT_EQ(parseAndDump("x = 1; y = 2\n"),
            "Assign\n  target: Name 'x'\n  value: IntLiteral 1\n"
            "Assign\n  target: Name 'y'\n  value: IntLiteral 2\n");
  EXPECT_EQ(parseAndDump("if x: return 1\n"),
            "If\n  test: Name 'x'\n  body:\n    Return\n"
            "      value: IntLiteral 1\n");
}

TEST(ParserTest, FunctionDefinitions) {
  std::string dump = parseAndDump(
      "@triton.jit(noinline=True)\n"
      "def f(a, b: int = 2, /, c=3, *args, d, e: tl.constexpr = 4, **kw) "
      "-> None:\n"
      "    '''doc'''\n    return a\n");
  EXPECT_NE(dump.find("FunctionDef 'f'"), std::string::npos);
  EXPECT_NE(dump.find("param: 'a' positional-only"), std::string::npos);
  EXPECT_NE(dump.find("param: 'c'\n"), std::string::npos);
  EXPECT_NE(dump.find("param: 'args' *args"), std::string::npos);
  EXPECT_NE(dump.find("param: 'd' keyword-only"), std::string::npos);
  EXPECT_NE(dump.find("param: 'kw' **kwargs"), std::string::npos);
  EXPECT_NE(dump.find("returns: NoneLiteral"), std::string::npos);

  EXPECT_NE(parseAndDump("def f(a=1, b):\n  pass\n")
                .find("parameter without a default follows"),
            std::string::npos);
  EXPECT_NE(parseAndDump("def f(a, a):\n  pass\n").find("duplicate parameter"),
            std::string::npos);
}

TEST(ParserTest, Locations) {
  std::string dump = parseAndDump("x = foo(a,\n        b)\n", true);
  EXPECT_EQ(dump,
            "Assign <1:1-2:11>\n  target: Name 'x' <1:1-1:2>\n"
            "  value: Call <1:5-2:11>\n    func: Name 'foo' <1:5-1:8>\n"
            "    arg: Name 'a' <1:9-1:10>\n    arg: Name 'b' <2:9-2:10>\n");
}

TEST(ParserTest, Errors) {
  EXPECT_NE(parseAndDump("f() = 1\n").find("cannot assign to function call"),
            std::string::npos);
  EXPECT_NE(parseAndDump("a, b: int = 1\n").find("only a single target"),
            std::string::npos);
  EXPECT_NE(parseAndDump("if x:\npass\n")
                .find("expected an indented block "
                      "after 'if' statement on line 1"),
            std::string::npos);
  EXPECT_NE(parseAndDump("f(a=1, b)\n")
                .find("positional argument follows "
                      "keyword argument"),
            std::string::npos);
  EXPECT_NE(parseAndDump("if x = 1:\n  pass\n").find("maybe you meant '=='"),
            std::string::npos);
  EXPECT_NE(parseAndDump("  x = 1\n").find("unexpected indent"),
            std::string::npos);
  EXPECT_NE(parseAndDump("x = 'a' b'b'\n").find("cannot mix bytes"),
            std::string::npos);
}

TEST(ParserTest, Walk) {
  Source src("def f(x):\n    y = [i for i in x]\n    return (z := y)\n");
  Lexer lexer(src.buffer());
  ASTContext ctx;
  Parser parser(lexer, ctx, src.diags);
  llvm::SmallVector<Stmt *> stmts;
  ASSERT_TRUE(succeeded(parser.parseFile(stmts)));
  unsigned names = 0;
  bool walrus = false;
  walk(stmts[0], [&](const Node *n) {
    names += llvm::isa<NameExpr>(n);
    walrus |= llvm::isa<NamedExprExpr>(n);
    return true;
  });
  EXPECT_EQ(names, 6u); // y, i, i, x, z, y
  EXPECT_TRUE(walrus);

  struct Counter : ASTVisitor<Counter, unsigned> {
    unsigned visitStmt(Stmt *) { return 1; }
    unsigned visitExpr(Expr *) { return 0; }
  };
  EXPECT_EQ(Counter().visit(stmts[0]), 1u);
}
