//===- Parser.cpp - Triton-language parser: tokens and statements ---------===//
#include "tessera/Frontend/Parser.h"
#include "tessera/Frontend/AST.h"
#include "tessera/Frontend/Diagnostics.h"
#include "tessera/Frontend/Limits.h"

#include "llvm/Support/FormatVariadic.h"

using namespace tessera::frontend;
using llvm::failure;
using llvm::LogicalResult;
using llvm::success;

Parser::Parser(Lexer &lexer, ASTContext &ctx, DiagnosticEngine &diags)
    : lexer(lexer), ctx(ctx), diags(diags) {
  tok = lexer.lex();
  lastEnd = tok.loc;
}

//===----------------------------------------------------------------------===//
// Tokens and errors
//===----------------------------------------------------------------------===//

Token Parser::consume() {
  Token t = tok;
  // Layout tokens do not extend a node's range: a block ends with its last
  // statement, not at the next line.
  if (!t.isAny(TokenKind::newline, TokenKind::indent, TokenKind::dedent,
               TokenKind::eof))
    lastEnd = t.endLoc;
  if (hasPeeked) {
    tok = peeked;
    hasPeeked = false;
  } else if (t.isNot(TokenKind::eof)) {
    tok = lexer.lex();
  }
  return t;
}

const Token &Parser::peek() {
  if (!hasPeeked) {
    peeked = tok.is(TokenKind::eof) ? tok : lexer.lex();
    hasPeeked = true;
  }
  return peeked;
}

bool Parser::consumeIf(TokenKind kind) {
  if (tok.isNot(kind))
    return false;
  consume();
  return true;
}

std::string Parser::describe(const Token &t) const {
  switch (t.kind) {
  case TokenKind::newline:
    return "end of line";
  case TokenKind::eof:
    return "end of file";
  case TokenKind::indent:
    return "indent";
  case TokenKind::dedent:
    return "unindent";
  case TokenKind::identifier:
    return ("name '" + t.spelling + "'").str();
  case TokenKind::integer:
  case TokenKind::floating:
    return ("number '" + t.spelling + "'").str();
  case TokenKind::string:
    return "string literal";
  default:
    return ("'" + t.spelling + "'").str();
  }
}

void Parser::error(const Token &t, const llvm::Twine &message) {
  errorPos = t.loc.getPointer();
  if (t.is(TokenKind::error)) {
    lexer.reportError(t, diags);
    return;
  }
  diags.error(t.loc.ptr, message).range(t.getRange().getSMRange());
}

void Parser::errorAt(SourceLoc loc, const llvm::Twine &message) {
  errorPos = loc.getPointer();
  diags.error(loc.ptr, message);
}

void Parser::errorExpected(const llvm::Twine &what) {
  if (tok.is(TokenKind::indent)) {
    error(tok, "unexpected indent");
    return;
  }
  error(tok, "expected " + what + ", found " + describe(tok));
}

bool Parser::expect(TokenKind kind, const llvm::Twine &context) {
  if (consumeIf(kind))
    return true;
  std::string what = ("'" + getTokenSpelling(kind) + "'").str();
  if (kind == TokenKind::newline)
    what = "end of line";
  errorExpected(context.isTriviallyEmpty() ? llvm::Twine(what)
                                           : llvm::Twine(what) + " " + context);
  return false;
}

bool Parser::enterNesting() {
  // Python itself gives up at 200 nested parentheses; each level costs a few
  // recursive calls here, and about one level of the tree that
  // parseStatement then checks against kMaxSyntaxDepth.
  constexpr unsigned kMaxNesting = 600;
  static_assert(kMaxNesting < kMaxSyntaxDepth);
  if (++nesting <= kMaxNesting)
    return true;
  error(tok, "too many nested expressions or blocks");
  return false;
}

void Parser::recoverAtTopLevel(const char *stmtStart) {
  const char *pos = errorPos ? errorPos : tok.loc.getPointer();
  if (!pos || pos < stmtStart)
    pos = stmtStart;
  const char *next = lexer.findNextTopLevelLine(stmtStart, pos);
  lexer.resetTo(next);
  hasPeeked = false;
  nesting = 0;
  errorPos = nullptr;
  tok = lexer.lex();
  lastEnd = tok.loc;
}

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

LogicalResult Parser::parseFile(llvm::SmallVectorImpl<Stmt *> &out) {
  while (!atEnd())
    if (failed(parseStatement(out)))
      return failure();
  return success();
}

Expr *Parser::parseExpressionInput() {
  Expr *e = parseStarExpressions();
  if (!e || failed(checkDepth(e)))
    return nullptr;
  consumeIf(TokenKind::newline);
  if (!atEnd()) {
    errorExpected("end of input");
    return nullptr;
  }
  return e;
}

/// The deepest node under `root`, counting `root` as depth 1, or the first
/// node found deeper than `limit`. Iterative: a chain of 10000 `+` is a
/// tree that deep, built by a loop of the parser, and every later stage
/// that recurses over it (lowering, printing) overflowed the stack.
static std::pair<unsigned, const Node *> findDeepest(const Node *root,
                                                     unsigned limit) {
  std::pair<unsigned, const Node *> deepest{1, root};
  llvm::SmallVector<std::pair<const Node *, unsigned>, 64> work{{root, 1}};
  while (!work.empty()) {
    auto [node, depth] = work.pop_back_val();
    if (depth > deepest.first)
      deepest = {depth, node};
    if (depth > limit)
      break;
    forEachChild(node, [&, depth = depth](const Node *child) {
      work.push_back({child, depth + 1});
    });
  }
  return deepest;
}

LogicalResult Parser::parseStatement(llvm::SmallVectorImpl<Stmt *> &out) {
  // Nested blocks come back here; the whole top-level statement is checked
  // once, when it is complete.
  bool outermost = nesting == 0;
  size_t first = out.size();
  if (failed(parseNestedStatement(out)))
    return failure();
  if (!outermost)
    return success();
  for (size_t i = first; i < out.size(); ++i)
    if (failed(checkDepth(out[i])))
      return failure();
  return success();
}

LogicalResult Parser::checkDepth(const Node *root) {
  auto [depth, node] = findDeepest(root, kMaxSyntaxDepth);
  if (depth <= kMaxSyntaxDepth)
    return success();
  errorAt(node->getLoc(),
          llvm::formatv("expressions and blocks nest too deeply here: more "
                        "than {0} levels",
                        kMaxSyntaxDepth)
              .str());
  return failure();
}

LogicalResult Parser::parseNestedStatement(llvm::SmallVectorImpl<Stmt *> &out) {
  NestingScope nest(*this);
  if (!nest.ok)
    return failure();
  Stmt *stmt = nullptr;
  switch (tok.kind) {
  case TokenKind::kw_if:
    stmt = parseIf(/*isElif=*/false);
    break;
  case TokenKind::kw_while:
    stmt = parseWhile();
    break;
  case TokenKind::kw_for:
    stmt = parseFor();
    break;
  case TokenKind::kw_try:
    stmt = parseTry();
    break;
  case TokenKind::kw_with:
    stmt = parseWith();
    break;
  case TokenKind::kw_def:
    stmt = parseFunctionDef(tok.loc, {});
    break;
  case TokenKind::kw_class:
    stmt = parseClassDef(tok.loc, {});
    break;
  case TokenKind::at:
    stmt = parseDecorated();
    break;
  case TokenKind::kw_async:
    error(tok, "'async' is not supported");
    return failure();
  case TokenKind::indent:
    error(tok, "unexpected indent");
    return failure();
  case TokenKind::dedent:
    error(tok, "unexpected unindent");
    return failure();
  case TokenKind::eof:
    errorExpected("a statement");
    return failure();
  default:
    return parseSimpleStatements(out);
  }
  if (!stmt)
    return failure();
  out.push_back(stmt);
  return success();
}

LogicalResult
Parser::parseSimpleStatements(llvm::SmallVectorImpl<Stmt *> &out) {
  for (;;) {
    Stmt *stmt = parseSimpleStatement();
    if (!stmt)
      return failure();
    out.push_back(stmt);
    if (consumeIf(TokenKind::semi)) {
      if (consumeIf(TokenKind::newline))
        return success();
      continue;
    }
    if (tok.is(TokenKind::eof))
      return success();
    if (!expect(TokenKind::newline, "after statement"))
      return failure();
    return success();
  }
}

Stmt *Parser::parseSimpleStatement() {
  SourceLoc start = tok.loc;
  switch (tok.kind) {
  case TokenKind::kw_pass:
    consume();
    return ctx.create<PassStmt>(rangeFrom(start));
  case TokenKind::kw_break:
    consume();
    return ctx.create<BreakStmt>(rangeFrom(start));
  case TokenKind::kw_continue:
    consume();
    return ctx.create<ContinueStmt>(rangeFrom(start));
  case TokenKind::kw_return:
    return parseReturn();
  case TokenKind::kw_raise:
    return parseRaise();
  case TokenKind::kw_global:
    return parseGlobal(/*isNonlocal=*/false);
  case TokenKind::kw_nonlocal:
    return parseGlobal(/*isNonlocal=*/true);
  case TokenKind::kw_del:
    return parseDel();
  case TokenKind::kw_assert:
    return parseAssert();
  case TokenKind::kw_import:
    return parseImport();
  case TokenKind::kw_from:
    return parseFromImport();
  case TokenKind::kw_yield:
    error(tok, "'yield' is not supported");
    return nullptr;
  default:
    return parseExprOrAssignment();
  }
}

/// The augmented-assignment operator spelled by `kind`, if any.
static std::optional<BinaryOpKind> getAugAssignOp(TokenKind kind) {
  switch (kind) {
  case TokenKind::plusequal:
    return BinaryOpKind::Add;
  case TokenKind::minusequal:
    return BinaryOpKind::Sub;
  case TokenKind::starequal:
    return BinaryOpKind::Mult;
  case TokenKind::atequal:
    return BinaryOpKind::MatMult;
  case TokenKind::slashequal:
    return BinaryOpKind::Div;
  case TokenKind::slashslashequal:
    return BinaryOpKind::FloorDiv;
  case TokenKind::percentequal:
    return BinaryOpKind::Mod;
  case TokenKind::starstarequal:
    return BinaryOpKind::Pow;
  case TokenKind::lesslessequal:
    return BinaryOpKind::LShift;
  case TokenKind::greatergreaterequal:
    return BinaryOpKind::RShift;
  case TokenKind::pipeequal:
    return BinaryOpKind::BitOr;
  case TokenKind::caretequal:
    return BinaryOpKind::BitXor;
  case TokenKind::ampequal:
    return BinaryOpKind::BitAnd;
  default:
    return std::nullopt;
  }
}

/// What Python calls an expression that cannot be assigned to.
static llvm::StringRef describeNonTarget(const Expr *e) {
  switch (e->getKind()) {
  case NodeKind::Call:
    return "function call";
  case NodeKind::IntLiteral:
  case NodeKind::FloatLiteral:
  case NodeKind::StringLiteral:
  case NodeKind::BoolLiteral:
  case NodeKind::NoneLiteral:
  case NodeKind::EllipsisLiteral:
    return "literal";
  case NodeKind::Compare:
    return "comparison";
  case NodeKind::Lambda:
    return "lambda";
  case NodeKind::IfExp:
    return "conditional expression";
  case NodeKind::Dict:
  case NodeKind::Set:
    return "display";
  case NodeKind::ListComp:
  case NodeKind::SetComp:
  case NodeKind::DictComp:
  case NodeKind::GeneratorExp:
    return "comprehension";
  case NodeKind::NamedExpr:
    return "named expression";
  default:
    return "expression";
  }
}

bool Parser::checkTarget(Expr *target, llvm::StringRef what) {
  switch (target->getKind()) {
  case NodeKind::Name:
  case NodeKind::Attribute:
  case NodeKind::Subscript:
    return true;
  case NodeKind::Tuple:
  case NodeKind::List:
    for (Expr *elt : llvm::cast<SequenceExpr>(target)->getElts())
      if (!checkTarget(elt, what))
        return false;
    return true;
  case NodeKind::Starred:
    return checkTarget(llvm::cast<StarredExpr>(target)->getValue(), what);
  default:
    errorAt(target->getLoc(),
            llvm::Twine("cannot ") + what + " " + describeNonTarget(target));
    return false;
  }
}

Stmt *Parser::parseExprOrAssignment() {
  SourceLoc start = tok.loc;
  Expr *first = parseStarExpressions();
  if (!first)
    return nullptr;

  if (tok.is(TokenKind::colon)) {
    if (llvm::isa<TupleExpr>(first)) {
      errorAt(first->getLoc(),
              "only a single target (not a tuple) can be annotated");
      return nullptr;
    }
    if (!llvm::isa<NameExpr, AttributeExpr, SubscriptExpr>(first)) {
      errorAt(first->getLoc(), llvm::Twine("illegal target for annotation: ") +
                                   describeNonTarget(first));
      return nullptr;
    }
    consume();
    Expr *annotation = parseExpression();
    if (!annotation)
      return nullptr;
    Expr *value = nullptr;
    if (consumeIf(TokenKind::equal)) {
      value = parseStarExpressions();
      if (!value)
        return nullptr;
    }
    return ctx.create<AnnAssignStmt>(rangeFrom(start), first, annotation,
                                     value);
  }

  if (std::optional<BinaryOpKind> op = getAugAssignOp(tok.kind)) {
    if (!llvm::isa<NameExpr, AttributeExpr, SubscriptExpr>(first)) {
      errorAt(first->getLoc(),
              llvm::Twine("'") + describeNonTarget(first) +
                  "' is an illegal target for augmented assignment");
      return nullptr;
    }
    consume();
    Expr *value = parseStarExpressions();
    if (!value)
      return nullptr;
    return ctx.create<AugAssignStmt>(rangeFrom(start), first, *op, value);
  }

  if (tok.isNot(TokenKind::equal))
    return ctx.create<ExprStmt>(rangeFrom(start), first);

  llvm::SmallVector<Expr *, 2> exprs{first};
  while (consumeIf(TokenKind::equal)) {
    if (tok.is(TokenKind::kw_yield)) {
      error(tok, "'yield' is not supported");
      return nullptr;
    }
    Expr *e = parseStarExpressions();
    if (!e)
      return nullptr;
    exprs.push_back(e);
  }
  Expr *value = exprs.pop_back_val();
  for (Expr *target : exprs)
    if (!checkTarget(target, "assign to"))
      return nullptr;
  return ctx.create<AssignStmt>(rangeFrom(start), ctx.copy<Expr *>(exprs),
                                value);
}

Stmt *Parser::parseReturn() {
  SourceLoc start = consume().loc;
  Expr *value = nullptr;
  if (!tok.isAny(TokenKind::newline, TokenKind::semi, TokenKind::eof)) {
    value = parseStarExpressions();
    if (!value)
      return nullptr;
  }
  return ctx.create<ReturnStmt>(rangeFrom(start), value);
}

Stmt *Parser::parseRaise() {
  SourceLoc start = consume().loc;
  Expr *exc = nullptr, *cause = nullptr;
  if (!tok.isAny(TokenKind::newline, TokenKind::semi, TokenKind::eof)) {
    if (!(exc = parseExpression()))
      return nullptr;
    if (consumeIf(TokenKind::kw_from) && !(cause = parseExpression()))
      return nullptr;
  }
  return ctx.create<RaiseStmt>(rangeFrom(start), exc, cause);
}

Stmt *Parser::parseGlobal(bool isNonlocal) {
  SourceLoc start = consume().loc;
  llvm::SmallVector<llvm::StringRef, 4> names;
  do {
    if (tok.isNot(TokenKind::identifier)) {
      errorExpected("a name");
      return nullptr;
    }
    names.push_back(consume().spelling);
  } while (consumeIf(TokenKind::comma));
  auto list = ctx.copy<llvm::StringRef>(names);
  if (isNonlocal)
    return ctx.create<NonlocalStmt>(rangeFrom(start), list);
  return ctx.create<GlobalStmt>(rangeFrom(start), list);
}

Stmt *Parser::parseDel() {
  SourceLoc start = consume().loc;
  Expr *targets = parseStarExpressions();
  if (!targets)
    return nullptr;
  llvm::SmallVector<Expr *, 2> list;
  auto *tuple = llvm::dyn_cast<TupleExpr>(targets);
  if (tuple && !tuple->isParenthesized())
    list.append(tuple->getElts().begin(), tuple->getElts().end());
  else
    list.push_back(targets);
  for (Expr *t : list)
    if (!checkTarget(t, "delete"))
      return nullptr;
  return ctx.create<DelStmt>(rangeFrom(start), ctx.copy<Expr *>(list));
}

Stmt *Parser::parseAssert() {
  SourceLoc start = consume().loc;
  Expr *test = parseExpression();
  if (!test)
    return nullptr;
  Expr *msg = nullptr;
  if (consumeIf(TokenKind::comma) && !(msg = parseExpression()))
    return nullptr;
  return ctx.create<AssertStmt>(rangeFrom(start), test, msg);
}

bool Parser::parseDottedName(std::string &name, SourceRange &range) {
  if (tok.isNot(TokenKind::identifier)) {
    errorExpected("a module name");
    return false;
  }
  range.begin = tok.loc;
  name = consume().spelling.str();
  while (tok.is(TokenKind::period)) {
    consume();
    if (tok.isNot(TokenKind::identifier)) {
      errorExpected("a name after '.'");
      return false;
    }
    name += '.';
    name += consume().spelling;
  }
  range.end = lastEnd;
  return true;
}

bool Parser::parseImportAlias(ImportAlias &alias, bool dotted) {
  std::string name;
  if (dotted) {
    if (!parseDottedName(name, alias.range))
      return false;
  } else {
    if (tok.isNot(TokenKind::identifier)) {
      errorExpected("a name to import");
      return false;
    }
    alias.range.begin = tok.loc;
    name = consume().spelling.str();
  }
  alias.name = ctx.copyString(name);
  if (consumeIf(TokenKind::kw_as)) {
    if (tok.isNot(TokenKind::identifier)) {
      errorExpected("a name after 'as'");
      return false;
    }
    alias.asName = consume().spelling;
  }
  alias.range.end = lastEnd;
  return true;
}

Stmt *Parser::parseImport() {
  SourceLoc start = consume().loc;
  llvm::SmallVector<ImportAlias, 2> names;
  do {
    ImportAlias alias;
    if (!parseImportAlias(alias, /*dotted=*/true))
      return nullptr;
    names.push_back(alias);
  } while (consumeIf(TokenKind::comma));
  return ctx.create<ImportStmt>(rangeFrom(start), ctx.copy<ImportAlias>(names));
}

Stmt *Parser::parseFromImport() {
  SourceLoc start = consume().loc;
  unsigned level = 0;
  while (tok.isAny(TokenKind::period, TokenKind::ellipsis))
    level += consume().spelling.size();
  std::string module;
  SourceRange moduleRange;
  if (tok.isNot(TokenKind::kw_import) || level == 0)
    if (!parseDottedName(module, moduleRange))
      return nullptr;
  if (!expect(TokenKind::kw_import, "after the module name"))
    return nullptr;
  llvm::SmallVector<ImportAlias, 4> names;
  if (tok.is(TokenKind::star)) {
    ImportAlias alias;
    alias.range = consume().getRange();
    alias.name = "*";
    names.push_back(alias);
  } else {
    bool paren = consumeIf(TokenKind::l_paren);
    do {
      if (paren && tok.is(TokenKind::r_paren))
        break; // Trailing comma.
      ImportAlias alias;
      if (!parseImportAlias(alias, /*dotted=*/false))
        return nullptr;
      names.push_back(alias);
    } while (consumeIf(TokenKind::comma));
    if (paren && !expect(TokenKind::r_paren, "to close the import list"))
      return nullptr;
  }
  return ctx.create<ImportFromStmt>(rangeFrom(start), ctx.copyString(module),
                                    level, ctx.copy<ImportAlias>(names));
}

bool Parser::parseBlock(llvm::StringRef construct, SourceLoc header,
                        StmtList &body) {
  if (!expect(TokenKind::colon, ("after " + construct).str()))
    return false;
  llvm::SmallVector<Stmt *, 8> stmts;
  if (tok.isNot(TokenKind::newline)) {
    // `if x: return y` on one line.
    if (failed(parseSimpleStatements(stmts)))
      return false;
    body = ctx.copy<Stmt *>(stmts);
    return true;
  }
  consume();
  if (tok.isNot(TokenKind::indent)) {
    if (tok.is(TokenKind::error)) {
      error(tok, "");
      return false;
    }
    error(tok, llvm::formatv("expected an indented block after {0} on line {1}",
                             construct, header.line));
    return false;
  }
  consume();
  while (tok.isNot(TokenKind::dedent)) {
    if (tok.is(TokenKind::eof)) {
      errorExpected("an unindent");
      return false;
    }
    if (failed(parseStatement(stmts)))
      return false;
  }
  consume();
  body = ctx.copy<Stmt *>(stmts);
  return true;
}

Stmt *Parser::parseIf(bool isElif) {
  SourceLoc start = consume().loc;
  Expr *test = parseNamedExpression();
  if (!test)
    return nullptr;
  if (tok.is(TokenKind::equal)) {
    errorPos = tok.loc.getPointer();
    diags.error(tok.loc.ptr, "invalid syntax: '=' in a condition")
        .hint("maybe you meant '==' or ':=' instead of '='?");
    return nullptr;
  }
  StmtList body, orelse;
  if (!parseBlock(isElif ? "'elif' statement" : "'if' statement", start, body))
    return nullptr;
  if (tok.is(TokenKind::kw_elif)) {
    Stmt *elif = parseIf(/*isElif=*/true);
    if (!elif)
      return nullptr;
    orelse = ctx.copy<Stmt *>({elif});
  } else if (tok.is(TokenKind::kw_else)) {
    SourceLoc elseLoc = consume().loc;
    if (!parseBlock("'else' statement", elseLoc, orelse))
      return nullptr;
  }
  return ctx.create<IfStmt>(rangeFrom(start), test, body, orelse, isElif);
}

Stmt *Parser::parseWhile() {
  SourceLoc start = consume().loc;
  Expr *test = parseNamedExpression();
  if (!test)
    return nullptr;
  StmtList body, orelse;
  if (!parseBlock("'while' statement", start, body))
    return nullptr;
  if (tok.is(TokenKind::kw_else)) {
    SourceLoc elseLoc = consume().loc;
    if (!parseBlock("'else' statement", elseLoc, orelse))
      return nullptr;
  }
  return ctx.create<WhileStmt>(rangeFrom(start), test, body, orelse);
}

Stmt *Parser::parseFor() {
  SourceLoc start = consume().loc;
  Expr *target = parseTargetList();
  if (!target || !checkTarget(target, "assign to"))
    return nullptr;
  if (!expect(TokenKind::kw_in, "after the 'for' target"))
    return nullptr;
  Expr *iter = parseStarExpressions();
  if (!iter)
    return nullptr;
  StmtList body, orelse;
  if (!parseBlock("'for' statement", start, body))
    return nullptr;
  if (tok.is(TokenKind::kw_else)) {
    SourceLoc elseLoc = consume().loc;
    if (!parseBlock("'else' statement", elseLoc, orelse))
      return nullptr;
  }
  return ctx.create<ForStmt>(rangeFrom(start), target, iter, body, orelse);
}

Stmt *Parser::parseTry() {
  SourceLoc start = consume().loc;
  StmtList body, orelse, finalbody;
  if (!parseBlock("'try' statement", start, body))
    return nullptr;
  llvm::SmallVector<ExceptHandler, 2> handlers;
  while (tok.is(TokenKind::kw_except)) {
    ExceptHandler handler;
    handler.range.begin = consume().loc;
    if (tok.is(TokenKind::star)) {
      error(tok, "'except*' is not supported");
      return nullptr;
    }
    if (tok.isNot(TokenKind::colon)) {
      if (!(handler.type = parseExpression()))
        return nullptr;
      if (consumeIf(TokenKind::kw_as)) {
        if (tok.isNot(TokenKind::identifier)) {
          errorExpected("a name after 'as'");
          return nullptr;
        }
        handler.name = consume().spelling;
      }
    }
    if (!parseBlock("'except' statement", handler.range.begin, handler.body))
      return nullptr;
    handler.range.end = lastEnd;
    handlers.push_back(handler);
  }
  if (tok.is(TokenKind::kw_else)) {
    SourceLoc elseLoc = consume().loc;
    if (!parseBlock("'else' statement", elseLoc, orelse))
      return nullptr;
  }
  if (tok.is(TokenKind::kw_finally)) {
    SourceLoc finallyLoc = consume().loc;
    if (!parseBlock("'finally' statement", finallyLoc, finalbody))
      return nullptr;
  }
  if (handlers.empty() && finalbody.empty()) {
    errorExpected("'except' or 'finally' block");
    return nullptr;
  }
  return ctx.create<TryStmt>(rangeFrom(start), body,
                             ctx.copy<ExceptHandler>(handlers), orelse,
                             finalbody);
}

Stmt *Parser::parseWith() {
  SourceLoc start = consume().loc;
  llvm::SmallVector<WithItem, 2> items;
  do {
    WithItem item;
    if (!(item.context = parseExpression()))
      return nullptr;
    if (consumeIf(TokenKind::kw_as)) {
      if (!(item.vars = parseTargetList()) ||
          !checkTarget(item.vars, "assign to"))
        return nullptr;
    }
    items.push_back(item);
  } while (consumeIf(TokenKind::comma));
  StmtList body;
  if (!parseBlock("'with' statement", start, body))
    return nullptr;
  return ctx.create<WithStmt>(rangeFrom(start), ctx.copy<WithItem>(items),
                              body);
}

Stmt *Parser::parseDecorated() {
  SourceLoc start = tok.loc;
  llvm::SmallVector<Expr *, 2> decorators;
  while (tok.is(TokenKind::at)) {
    consume();
    Expr *d = parseNamedExpression();
    if (!d)
      return nullptr;
    decorators.push_back(d);
    if (!expect(TokenKind::newline, "after the decorator"))
      return nullptr;
  }
  auto list = ctx.copy<Expr *>(decorators);
  if (tok.is(TokenKind::kw_def))
    return parseFunctionDef(tok.loc, list);
  if (tok.is(TokenKind::kw_class))
    return parseClassDef(tok.loc, list);
  (void)start;
  errorExpected("'def' or 'class' after decorators");
  return nullptr;
}

Stmt *Parser::parseFunctionDef(SourceLoc start,
                               llvm::ArrayRef<Expr *> decorators) {
  consume(); // 'def'
  if (tok.isNot(TokenKind::identifier)) {
    errorExpected("a function name");
    return nullptr;
  }
  Token nameTok = consume();
  if (!expect(TokenKind::l_paren, "after the function name"))
    return nullptr;
  llvm::SmallVector<Parameter, 8> params;
  if (!parseParameters(TokenKind::r_paren, /*allowAnnotations=*/true, params))
    return nullptr;
  if (!expect(TokenKind::r_paren, "to close the parameter list"))
    return nullptr;
  Expr *returns = nullptr;
  if (consumeIf(TokenKind::arrow) && !(returns = parseExpression()))
    return nullptr;
  StmtList body;
  if (!parseBlock("function definition", start, body))
    return nullptr;
  return ctx.create<FunctionDefStmt>(
      rangeFrom(start), nameTok.spelling, nameTok.loc, decorators,
      ctx.copy<Parameter>(params), returns, body);
}

Stmt *Parser::parseClassDef(SourceLoc start,
                            llvm::ArrayRef<Expr *> decorators) {
  consume(); // 'class'
  if (tok.isNot(TokenKind::identifier)) {
    errorExpected("a class name");
    return nullptr;
  }
  llvm::StringRef name = consume().spelling;
  llvm::ArrayRef<Expr *> bases;
  llvm::ArrayRef<Keyword> keywords;
  if (tok.is(TokenKind::l_paren)) {
    // Parse the bases as a call's arguments, then take them apart.
    Expr *call = parseCall(nullptr);
    if (!call)
      return nullptr;
    bases = llvm::cast<CallExpr>(call)->getArgs();
    keywords = llvm::cast<CallExpr>(call)->getKeywords();
  }
  StmtList body;
  if (!parseBlock("class definition", start, body))
    return nullptr;
  return ctx.create<ClassDefStmt>(rangeFrom(start), name, decorators, bases,
                                  keywords, body);
}
