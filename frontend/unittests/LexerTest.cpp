//===- LexerTest.cpp - Tests of the Triton-language lexer -----------------===//
#include "TestUtils.h"

#include "gtest/gtest.h"

using namespace tessera::frontend;
using namespace tessera::frontend::test;

namespace {
/// Lexes `text` to the end; kinds spelled compactly for comparison.
std::vector<std::string> lexAll(llvm::StringRef text,
                                std::vector<std::string> *errors = nullptr) {
  Source src(text);
  Lexer lexer(src.buffer());
  std::vector<std::string> out;
  for (int guard = 0; guard < 10000; ++guard) {
    Token t = lexer.lex();
    switch (t.kind) {
    case TokenKind::eof:
      return out;
    case TokenKind::newline:
      out.push_back("NL");
      break;
    case TokenKind::indent:
      out.push_back("IN");
      break;
    case TokenKind::dedent:
      out.push_back("DE");
      break;
    case TokenKind::error:
      out.push_back("ERR");
      if (errors)
        errors->push_back(lexer.getError(t).message);
      break;
    default:
      out.push_back(t.spelling.str());
    }
  }
  return out;
}
using V = std::vector<std::string>;
} // namespace

TEST(LexerTest, IndentationAndNewlines) {
  EXPECT_EQ(
      lexAll("if x:\n    y\n\n    # c\n    z\nw\n"),
      (V{"if", "x", ":", "NL", "IN", "y", "NL", "z", "NL", "DE", "w", "NL"}));
  // Nested blocks close with several DEDENTs, and the file end closes all.
  EXPECT_EQ(lexAll("a:\n b:\n  c"), (V{"a", ":", "NL", "IN", "b", ":", "NL",
                                       "IN", "c", "NL", "DE", "DE"}));
}

TEST(LexerTest, TabsAdvanceToMultiplesOfEight) {
  // A tab and eight spaces are the same level in both tab sizes only when
  // consistent: "\t" vs "        " is ambiguous (TabError).
  std::vector<std::string> errors;
  lexAll("if x:\n\ty\n        z\n", &errors);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0], "inconsistent use of tabs and spaces in indentation");
  errors.clear();
  EXPECT_EQ(lexAll("if x:\n\ty\n\tz\n", &errors),
            (V{"if", "x", ":", "NL", "IN", "y", "NL", "z", "NL", "DE"}));
  EXPECT_TRUE(errors.empty());
}

TEST(LexerTest, InconsistentDedent) {
  std::vector<std::string> errors;
  lexAll("if x:\n    y\n  z\n", &errors);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0], "unindent does not match any outer indentation level");
}

TEST(LexerTest, ImplicitAndExplicitJoining) {
  EXPECT_EQ(lexAll("f(a,\n  b)\n"), (V{"f", "(", "a", ",", "b", ")", "NL"}));
  EXPECT_EQ(lexAll("x = 1 + \\\n    2\n"), (V{"x", "=", "1", "+", "2", "NL"}));
  std::vector<std::string> errors;
  lexAll("x = \\ 2\n", &errors);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0],
            "unexpected character after line continuation character");
}

TEST(LexerTest, Numbers) {
  EXPECT_EQ(lexAll("0x1F 0o17 0b1010 1_000 0 00 1.0 .5 1e-3 1_000.0 5."),
            (V{"0x1F", "0o17", "0b1010", "1_000", "0", "00", "1.0", ".5",
               "1e-3", "1_000.0", "5.", "NL"}));
  uint64_t v;
  ASSERT_TRUE(parseIntegerLiteral("0x1F", v));
  EXPECT_EQ(v, 31u);
  ASSERT_TRUE(parseIntegerLiteral("0b_1010", v));
  EXPECT_EQ(v, 10u);
  ASSERT_TRUE(parseIntegerLiteral("1_000_000", v));
  EXPECT_EQ(v, 1000000u);
  EXPECT_FALSE(parseIntegerLiteral("99999999999999999999999", v));
  EXPECT_DOUBLE_EQ(parseFloatLiteral("1_000.5"), 1000.5);
  EXPECT_DOUBLE_EQ(parseFloatLiteral("1e-3"), 1e-3);

  std::vector<std::string> errors;
  lexAll("3j", &errors);
  lexAll("012", &errors);
  lexAll("1__0", &errors);
  lexAll("0xZ", &errors);
  lexAll("1e", &errors);
  ASSERT_EQ(errors.size(), 5u);
  EXPECT_EQ(errors[0], "imaginary literals are not supported");
  EXPECT_NE(errors[1].find("leading zeros"), std::string::npos);
  EXPECT_EQ(errors[2], "invalid decimal literal");
  EXPECT_EQ(errors[3], "invalid hexadecimal literal");
}

TEST(LexerTest, Strings) {
  EXPECT_EQ(lexAll("'a' \"b\" '''c\nd''' r'\\n' b'x' f'{x}' rb'y' Br'z' u'w'"),
            (V{"'a'", "\"b\"", "'''c\nd'''", "r'\\n'", "b'x'", "f'{x}'",
               "rb'y'", "Br'z'", "u'w'", "NL"}));
  // Python 3.12 f-strings may nest the same quote inside a replacement field.
  EXPECT_EQ(lexAll("f\"{d[\"k\"]}\" x"), (V{"f\"{d[\"k\"]}\"", "x", "NL"}));

  StringLiteralInfo info;
  std::string msg;
  const char *ptr;
  ASSERT_TRUE(
      decodeStringLiteral("'a\\tb\\x41\\n\\u00e9\\101'", info, msg, ptr));
  EXPECT_EQ(info.value, "a\tbA\n\xc3\xa9"
                        "A");
  ASSERT_TRUE(decodeStringLiteral("r'a\\tb'", info, msg, ptr));
  EXPECT_EQ(info.value, "a\\tb");
  EXPECT_TRUE(info.isRaw);
  ASSERT_TRUE(decodeStringLiteral("f'{x}'", info, msg, ptr));
  EXPECT_TRUE(info.isFString);
  EXPECT_FALSE(decodeStringLiteral("'\\x4'", info, msg, ptr));

  std::vector<std::string> errors;
  lexAll("'abc\nx", &errors);
  lexAll("'''abc", &errors);
  ASSERT_EQ(errors.size(), 2u);
  EXPECT_EQ(errors[0], "unterminated string literal (detected at line 1)");
  EXPECT_NE(errors[1].find("unterminated triple-quoted string"),
            std::string::npos);
}

TEST(LexerTest, EveryOperator) {
  const char *ops[] = {
      "+",  "-",  "*",  "**",  "/",  "//",  "%",   "@",  "<<", ">>", "&",
      "|",  "^",  "~",  ":=",  "<",  ">",   "<=",  ">=", "==", "!=", ",",
      ":",  ";",  ".",  "...", "=",  "->",  "+=",  "-=", "*=", "/=", "//=",
      "%=", "@=", "&=", "|=",  "^=", ">>=", "<<=", "**="};
  for (const char *op : ops) {
    std::string text = std::string("a ") + op + " b";
    EXPECT_EQ(lexAll(text), (V{"a", op, "b", "NL"})) << op;
  }
  EXPECT_EQ(lexAll("([{}])"), (V{"(", "[", "{", "}", "]", ")", "NL"}));
}

TEST(LexerTest, KeywordsAndLocations) {
  Source src("def f(x):\n    return x  # c\n");
  Lexer lexer(src.buffer());
  Token def = lexer.lex();
  EXPECT_EQ(def.kind, TokenKind::kw_def);
  EXPECT_EQ(def.loc.line, 1u);
  EXPECT_EQ(def.loc.column, 1u);
  Token name = lexer.lex();
  EXPECT_EQ(name.kind, TokenKind::identifier);
  EXPECT_EQ(name.loc.column, 5u);
  EXPECT_EQ(name.endLoc.column, 6u);
  for (int i = 0; i < 5; ++i)
    lexer.lex(); // ( x ) : NL
  EXPECT_EQ(lexer.lex().kind, TokenKind::indent);
  Token ret = lexer.lex();
  EXPECT_EQ(ret.kind, TokenKind::kw_return);
  EXPECT_EQ(ret.loc.line, 2u);
  EXPECT_EQ(ret.loc.column, 5u);
  EXPECT_EQ(lookupKeyword("lambda"), TokenKind::kw_lambda);
  EXPECT_EQ(lookupKeyword("match"), TokenKind::identifier);
}

TEST(LexerTest, BracketErrors) {
  std::vector<std::string> errors;
  lexAll("f(a]", &errors);
  lexAll(")", &errors);
  lexAll("f(a,\n", &errors);
  lexAll("x = café", &errors);
  lexAll("a ? b", &errors);
  ASSERT_EQ(errors.size(), 5u);
  EXPECT_EQ(errors[0], "closing parenthesis ']' does not match opening "
                       "parenthesis '('");
  EXPECT_EQ(errors[1], "unmatched ')'");
  EXPECT_EQ(errors[2], "'(' was never closed");
  EXPECT_NE(errors[3].find("non-ASCII"), std::string::npos);
  EXPECT_EQ(errors[4], "invalid character '?'");
}
