//===- Parser.h - Triton-language parser ------------------------*- C++ -*-===//
//
// A recursive-descent parser for the Python subset that Triton kernels and
// their host files use, with Python's precedence. Each parse function reports
// its first error through the DiagnosticEngine and returns null / failure; it
// does not try to continue inside a statement. Recovery happens between
// top-level statements (recoverAtTopLevel), which is what the module scanner
// needs to skip host code it does not understand.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_FRONTEND_PARSER_H
#define TESSERA_FRONTEND_PARSER_H

#include "tessera/Frontend/AST.h"
#include "tessera/Frontend/Lexer.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/LogicalResult.h"

namespace tessera::frontend {

class DiagnosticEngine;

class Parser {
public:
  Parser(Lexer &lexer, ASTContext &ctx, DiagnosticEngine &diags);

  /// Parses one statement: a compound statement, or a logical line of simple
  /// statements separated by ';' (hence several may be appended to `out`).
  /// A top-level statement whose tree is deeper than kMaxSyntaxDepth
  /// (Limits.h) is an error, so that no later stage recurses past it.
  llvm::LogicalResult parseStatement(llvm::SmallVectorImpl<Stmt *> &out);

  /// Parses statements up to the end of the buffer; fails on the first error.
  llvm::LogicalResult parseFile(llvm::SmallVectorImpl<Stmt *> &out);

  /// Parses a single expression (tuples allowed) that must span the rest of
  /// the buffer (used for command-line values and tests).
  Expr *parseExpressionInput();

  /// True when the current token is the end of the buffer.
  bool atEnd() const { return tok.is(TokenKind::eof); }
  const Token &getCurrentToken() const { return tok; }

  /// Where the last error was found (the offending token), or null.
  const char *getErrorPos() const { return errorPos; }

  /// After a failed statement that started at `stmtStart`, skips to the next
  /// line that starts a top-level statement (see
  /// Lexer::findNextTopLevelLine) and resumes lexing there.
  void recoverAtTopLevel(const char *stmtStart);

private:
  // Tokens.
  Token consume();
  const Token &peek();
  bool consumeIf(TokenKind kind);
  bool expect(TokenKind kind, const llvm::Twine &context);
  /// Reports `message` at `t` (or the lexer's own message if `t` is an error
  /// token) and remembers the error position.
  void error(const Token &t, const llvm::Twine &message);
  void errorAt(SourceLoc loc, const llvm::Twine &message);
  /// "expected X, found Y" at the current token.
  void errorExpected(const llvm::Twine &what);
  std::string describe(const Token &t) const;
  SourceRange rangeFrom(SourceLoc begin) const { return {begin, lastEnd}; }

  // Statements (Parser.cpp).
  /// Reports an error at the first node of `root`'s tree deeper than
  /// kMaxSyntaxDepth, if there is one.
  llvm::LogicalResult checkDepth(const Node *root);
  /// parseStatement without the depth check of a top-level statement.
  llvm::LogicalResult parseNestedStatement(llvm::SmallVectorImpl<Stmt *> &out);
  llvm::LogicalResult parseSimpleStatements(llvm::SmallVectorImpl<Stmt *> &out);
  Stmt *parseSimpleStatement();
  Stmt *parseExprOrAssignment();
  Stmt *parseReturn();
  Stmt *parseRaise();
  Stmt *parseGlobal(bool isNonlocal);
  Stmt *parseDel();
  Stmt *parseAssert();
  Stmt *parseImport();
  Stmt *parseFromImport();
  Stmt *parseIf(bool isElif);
  Stmt *parseWhile();
  Stmt *parseFor();
  Stmt *parseTry();
  Stmt *parseWith();
  Stmt *parseDecorated();
  Stmt *parseFunctionDef(SourceLoc start, llvm::ArrayRef<Expr *> decorators);
  Stmt *parseClassDef(SourceLoc start, llvm::ArrayRef<Expr *> decorators);
  /// ':' then a simple statement line or NEWLINE INDENT statements DEDENT.
  bool parseBlock(llvm::StringRef construct, SourceLoc header, StmtList &body);
  bool parseDottedName(std::string &name, SourceRange &range);
  bool parseImportAlias(ImportAlias &alias, bool dotted);
  /// Checks that `target` can be assigned to; reports otherwise.
  bool checkTarget(Expr *target, llvm::StringRef what);

  // Expressions (ParseExpr.cpp).
  Expr *parseStarExpressions();
  Expr *parseStarExpression();
  Expr *parseExpression();
  Expr *parseNamedExpression();
  Expr *parseDisjunction();
  Expr *parseConjunction();
  Expr *parseInversion();
  Expr *parseComparison();
  Expr *parseBinary(unsigned minPrecedence);
  Expr *parseFactor();
  Expr *parsePower();
  Expr *parsePrimary();
  Expr *parseAtom();
  Expr *parseLambda();
  Expr *parseStrings();
  Expr *parseNumber();
  Expr *parseParenthesized();
  Expr *parseListDisplay();
  Expr *parseBraceDisplay();
  Expr *parseSubscriptIndex();
  Expr *parseSlice();
  Expr *parseCall(Expr *func);
  /// Targets of `for` and comprehensions: star_targets stopping before `in`.
  Expr *parseTargetList();
  bool parseComprehensionClauses(llvm::SmallVectorImpl<Comprehension> &out);
  bool parseParameters(TokenKind closer, bool allowAnnotations,
                       llvm::SmallVectorImpl<Parameter> &params);

  /// Guards recursion so that pathological nesting is an error, not a stack
  /// overflow.
  bool enterNesting();
  struct NestingScope {
    Parser &parser;
    bool ok;
    explicit NestingScope(Parser &parser)
        : parser(parser), ok(parser.enterNesting()) {}
    ~NestingScope() { --parser.nesting; }
  };

  Lexer &lexer;
  ASTContext &ctx;
  DiagnosticEngine &diags;
  Token tok;
  Token peeked;
  bool hasPeeked = false;
  SourceLoc lastEnd;
  const char *errorPos = nullptr;
  unsigned nesting = 0;
};

} // namespace tessera::frontend

#endif // TESSERA_FRONTEND_PARSER_H
