//===- ParseExpr.cpp - Triton-language parser: expressions ----------------===//
//
// Python's expression grammar, lowest precedence first:
//   lambda, `x if c else y`, or, and, not, comparisons (chained), |, ^, &,
//   << >>, + -, * / // % @, unary + - ~, ** (right-associative, and binding
//   tighter than a unary operator on its left: -2**2 == -(2**2)), await-free
//   primaries (attribute, subscript, call) and atoms.
//
//===----------------------------------------------------------------------===//
#include "tessera/Frontend/Diagnostics.h"
#include "tessera/Frontend/Parser.h"

#include "llvm/ADT/StringSet.h"

using namespace tessera::frontend;

Expr *Parser::parseStarExpressions() {
  SourceLoc start = tok.loc;
  Expr *first = parseStarExpression();
  if (!first)
    return nullptr;
  if (tok.isNot(TokenKind::comma))
    return first;
  llvm::SmallVector<Expr *, 4> elts{first};
  while (consumeIf(TokenKind::comma)) {
    // A trailing comma ends the tuple.
    if (tok.isAny(TokenKind::newline, TokenKind::equal, TokenKind::semi,
                  TokenKind::eof, TokenKind::r_paren, TokenKind::colon) ||
        (tok.kind >= TokenKind::plusequal && tok.kind <= TokenKind::caretequal))
      break;
    Expr *e = parseStarExpression();
    if (!e)
      return nullptr;
    elts.push_back(e);
  }
  return ctx.create<TupleExpr>(rangeFrom(start), ctx.copy<Expr *>(elts),
                               /*parenthesized=*/false);
}

Expr *Parser::parseStarExpression() {
  if (tok.isNot(TokenKind::star))
    return parseExpression();
  SourceLoc start = consume().loc;
  Expr *value = parseBinary(0);
  if (!value)
    return nullptr;
  return ctx.create<StarredExpr>(rangeFrom(start), value);
}

Expr *Parser::parseExpression() {
  NestingScope nest(*this);
  if (!nest.ok)
    return nullptr;
  if (tok.is(TokenKind::kw_lambda))
    return parseLambda();
  SourceLoc start = tok.loc;
  Expr *body = parseDisjunction();
  if (!body || tok.isNot(TokenKind::kw_if))
    return body;
  consume();
  Expr *test = parseDisjunction();
  if (!test)
    return nullptr;
  if (!expect(TokenKind::kw_else, "in conditional expression"))
    return nullptr;
  Expr *orelse = parseExpression();
  if (!orelse)
    return nullptr;
  return ctx.create<IfExpExpr>(rangeFrom(start), test, body, orelse);
}

Expr *Parser::parseNamedExpression() {
  if (tok.is(TokenKind::identifier) && peek().is(TokenKind::colonequal)) {
    Token name = consume();
    consume(); // ':='
    auto *target = ctx.create<NameExpr>(name.getRange(), name.spelling);
    Expr *value = parseExpression();
    if (!value)
      return nullptr;
    return ctx.create<NamedExprExpr>(rangeFrom(name.loc), target, value);
  }
  return parseExpression();
}

Expr *Parser::parseLambda() {
  SourceLoc start = consume().loc;
  llvm::SmallVector<Parameter, 4> params;
  if (!parseParameters(TokenKind::colon, /*allowAnnotations=*/false, params))
    return nullptr;
  if (!expect(TokenKind::colon, "after lambda parameters"))
    return nullptr;
  Expr *body = parseExpression();
  if (!body)
    return nullptr;
  return ctx.create<LambdaExpr>(rangeFrom(start), ctx.copy<Parameter>(params),
                                body);
}

bool Parser::parseParameters(TokenKind closer, bool allowAnnotations,
                             llvm::SmallVectorImpl<Parameter> &params) {
  llvm::StringSet<> seen;
  bool seenDefault = false, keywordOnly = false, bareStar = false;
  bool sawVarKeyword = false;
  auto parseOne = [&](ParamKind kind, SourceLoc start) -> bool {
    if (tok.isNot(TokenKind::identifier)) {
      errorExpected("a parameter name");
      return false;
    }
    Token name = consume();
    if (!seen.insert(name.spelling).second) {
      error(name, "duplicate parameter '" + name.spelling + "'");
      return false;
    }
    Parameter p;
    p.name = name.spelling;
    p.kind = kind;
    if (allowAnnotations && consumeIf(TokenKind::colon) &&
        !(p.annotation = parseExpression()))
      return false;
    if (tok.is(TokenKind::equal)) {
      if (kind == ParamKind::VarPositional || kind == ParamKind::VarKeyword) {
        error(tok, "variadic parameters cannot have a default value");
        return false;
      }
      consume();
      if (!(p.defaultValue = parseExpression()))
        return false;
      if (kind == ParamKind::Positional)
        seenDefault = true;
    } else if (kind == ParamKind::Positional && seenDefault) {
      error(name, "parameter without a default follows parameter with a "
                  "default");
      return false;
    }
    p.range = rangeFrom(start);
    params.push_back(p);
    return true;
  };

  while (tok.isNot(closer)) {
    if (sawVarKeyword) {
      error(tok, "no parameter may follow '**' parameter");
      return false;
    }
    SourceLoc start = tok.loc;
    if (tok.is(TokenKind::slash)) {
      Token slash = consume();
      if (keywordOnly || params.empty()) {
        error(slash, "'/' must follow at least one positional parameter");
        return false;
      }
      for (Parameter &p : params)
        p.kind = ParamKind::PositionalOnly;
    } else if (tok.is(TokenKind::star)) {
      Token star = consume();
      if (keywordOnly) {
        error(star, "'*' may appear only once in a parameter list");
        return false;
      }
      keywordOnly = true;
      if (tok.is(TokenKind::identifier)) {
        if (!parseOne(ParamKind::VarPositional, start))
          return false;
      } else {
        bareStar = true;
        if (!tok.is(TokenKind::comma)) {
          error(star, "named parameters must follow bare '*'");
          return false;
        }
      }
    } else if (tok.is(TokenKind::starstar)) {
      consume();
      if (!parseOne(ParamKind::VarKeyword, start))
        return false;
      sawVarKeyword = true;
    } else {
      if (!parseOne(keywordOnly ? ParamKind::KeywordOnly
                                : ParamKind::Positional,
                    start))
        return false;
      bareStar = false;
    }
    if (!consumeIf(TokenKind::comma))
      break;
  }
  if (bareStar) {
    error(tok, "named parameters must follow bare '*'");
    return false;
  }
  return true;
}

Expr *Parser::parseDisjunction() {
  SourceLoc start = tok.loc;
  Expr *first = parseConjunction();
  if (!first || tok.isNot(TokenKind::kw_or))
    return first;
  llvm::SmallVector<Expr *, 4> values{first};
  while (consumeIf(TokenKind::kw_or)) {
    Expr *e = parseConjunction();
    if (!e)
      return nullptr;
    values.push_back(e);
  }
  return ctx.create<BoolOpExpr>(rangeFrom(start), BoolOpKind::Or,
                                ctx.copy<Expr *>(values));
}

Expr *Parser::parseConjunction() {
  SourceLoc start = tok.loc;
  Expr *first = parseInversion();
  if (!first || tok.isNot(TokenKind::kw_and))
    return first;
  llvm::SmallVector<Expr *, 4> values{first};
  while (consumeIf(TokenKind::kw_and)) {
    Expr *e = parseInversion();
    if (!e)
      return nullptr;
    values.push_back(e);
  }
  return ctx.create<BoolOpExpr>(rangeFrom(start), BoolOpKind::And,
                                ctx.copy<Expr *>(values));
}

Expr *Parser::parseInversion() {
  if (tok.isNot(TokenKind::kw_not))
    return parseComparison();
  NestingScope nest(*this);
  if (!nest.ok)
    return nullptr;
  SourceLoc start = consume().loc;
  Expr *operand = parseInversion();
  if (!operand)
    return nullptr;
  return ctx.create<UnaryOpExpr>(rangeFrom(start), UnaryOpKind::Not, operand);
}

Expr *Parser::parseComparison() {
  SourceLoc start = tok.loc;
  Expr *left = parseBinary(0);
  if (!left)
    return nullptr;
  llvm::SmallVector<CmpOpKind, 2> ops;
  llvm::SmallVector<Expr *, 2> comparators;
  for (;;) {
    std::optional<CmpOpKind> op;
    switch (tok.kind) {
    case TokenKind::equalequal:
      op = CmpOpKind::Eq;
      break;
    case TokenKind::exclaimequal:
      op = CmpOpKind::NotEq;
      break;
    case TokenKind::less:
      op = CmpOpKind::Lt;
      break;
    case TokenKind::lessequal:
      op = CmpOpKind::LtE;
      break;
    case TokenKind::greater:
      op = CmpOpKind::Gt;
      break;
    case TokenKind::greaterequal:
      op = CmpOpKind::GtE;
      break;
    case TokenKind::kw_in:
      op = CmpOpKind::In;
      break;
    case TokenKind::kw_is:
      op = CmpOpKind::Is;
      break;
    case TokenKind::kw_not:
      if (peek().is(TokenKind::kw_in))
        op = CmpOpKind::NotIn;
      break;
    default:
      break;
    }
    if (!op)
      break;
    consume();
    if (*op == CmpOpKind::NotIn)
      consume(); // 'in'
    if (*op == CmpOpKind::Is && consumeIf(TokenKind::kw_not))
      op = CmpOpKind::IsNot;
    Expr *rhs = parseBinary(0);
    if (!rhs)
      return nullptr;
    ops.push_back(*op);
    comparators.push_back(rhs);
  }
  if (ops.empty())
    return left;
  return ctx.create<CompareExpr>(rangeFrom(start), left,
                                 ctx.copy<CmpOpKind>(ops),
                                 ctx.copy<Expr *>(comparators));
}

/// Binary operators between `|` and `*`, with their precedence (higher binds
/// tighter). All are left-associative.
static std::optional<std::pair<BinaryOpKind, unsigned>>
getBinaryOp(TokenKind kind) {
  using B = BinaryOpKind;
  switch (kind) {
  case TokenKind::pipe:
    return std::pair(B::BitOr, 1u);
  case TokenKind::caret:
    return std::pair(B::BitXor, 2u);
  case TokenKind::amp:
    return std::pair(B::BitAnd, 3u);
  case TokenKind::lessless:
    return std::pair(B::LShift, 4u);
  case TokenKind::greatergreater:
    return std::pair(B::RShift, 4u);
  case TokenKind::plus:
    return std::pair(B::Add, 5u);
  case TokenKind::minus:
    return std::pair(B::Sub, 5u);
  case TokenKind::star:
    return std::pair(B::Mult, 6u);
  case TokenKind::slash:
    return std::pair(B::Div, 6u);
  case TokenKind::slashslash:
    return std::pair(B::FloorDiv, 6u);
  case TokenKind::percent:
    return std::pair(B::Mod, 6u);
  case TokenKind::at:
    return std::pair(B::MatMult, 6u);
  default:
    return std::nullopt;
  }
}

Expr *Parser::parseBinary(unsigned minPrecedence) {
  SourceLoc start = tok.loc;
  Expr *lhs = parseFactor();
  if (!lhs)
    return nullptr;
  for (;;) {
    auto op = getBinaryOp(tok.kind);
    if (!op || op->second < minPrecedence)
      return lhs;
    SourceLoc opLoc = consume().loc;
    Expr *rhs = parseBinary(op->second + 1);
    if (!rhs)
      return nullptr;
    lhs = ctx.create<BinOpExpr>(rangeFrom(start), op->first, lhs, rhs, opLoc);
  }
}

Expr *Parser::parseFactor() {
  std::optional<UnaryOpKind> op;
  if (tok.is(TokenKind::plus))
    op = UnaryOpKind::UAdd;
  else if (tok.is(TokenKind::minus))
    op = UnaryOpKind::USub;
  else if (tok.is(TokenKind::tilde))
    op = UnaryOpKind::Invert;
  if (!op)
    return parsePower();
  NestingScope nest(*this);
  if (!nest.ok)
    return nullptr;
  SourceLoc start = consume().loc;
  Expr *operand = parseFactor();
  if (!operand)
    return nullptr;
  return ctx.create<UnaryOpExpr>(rangeFrom(start), *op, operand);
}

Expr *Parser::parsePower() {
  SourceLoc start = tok.loc;
  if (tok.is(TokenKind::kw_await)) {
    error(tok, "'await' is not supported");
    return nullptr;
  }
  Expr *base = parsePrimary();
  if (!base || tok.isNot(TokenKind::starstar))
    return base;
  SourceLoc opLoc = consume().loc;
  Expr *exponent = parseFactor();
  if (!exponent)
    return nullptr;
  return ctx.create<BinOpExpr>(rangeFrom(start), BinaryOpKind::Pow, base,
                               exponent, opLoc);
}

Expr *Parser::parsePrimary() {
  SourceLoc start = tok.loc;
  Expr *e = parseAtom();
  while (e) {
    if (tok.is(TokenKind::period)) {
      consume();
      if (tok.isNot(TokenKind::identifier)) {
        errorExpected("an attribute name after '.'");
        return nullptr;
      }
      Token attr = consume();
      e = ctx.create<AttributeExpr>(rangeFrom(start), e, attr.spelling,
                                    attr.loc);
    } else if (tok.is(TokenKind::l_paren)) {
      e = parseCall(e);
    } else if (tok.is(TokenKind::l_square)) {
      consume();
      Expr *index = parseSubscriptIndex();
      if (!index || !expect(TokenKind::r_square, "to close the subscript"))
        return nullptr;
      e = ctx.create<SubscriptExpr>(rangeFrom(start), e, index);
    } else {
      break;
    }
  }
  return e;
}

Expr *Parser::parseSubscriptIndex() {
  SourceLoc start = tok.loc;
  Expr *first = parseSlice();
  if (!first || tok.isNot(TokenKind::comma))
    return first;
  llvm::SmallVector<Expr *, 4> elts{first};
  while (consumeIf(TokenKind::comma)) {
    if (tok.is(TokenKind::r_square))
      break;
    Expr *e = parseSlice();
    if (!e)
      return nullptr;
    elts.push_back(e);
  }
  return ctx.create<TupleExpr>(rangeFrom(start), ctx.copy<Expr *>(elts),
                               /*parenthesized=*/false);
}

Expr *Parser::parseSlice() {
  SourceLoc start = tok.loc;
  Expr *lower = nullptr;
  if (tok.isNot(TokenKind::colon)) {
    lower = tok.is(TokenKind::star) ? parseStarExpression()
                                    : parseNamedExpression();
    if (!lower || tok.isNot(TokenKind::colon))
      return lower;
  }
  consume(); // ':'
  auto endsPart = [&] {
    return tok.isAny(TokenKind::colon, TokenKind::comma, TokenKind::r_square);
  };
  Expr *upper = nullptr, *step = nullptr;
  if (!endsPart() && !(upper = parseExpression()))
    return nullptr;
  if (consumeIf(TokenKind::colon)) {
    if (!tok.isAny(TokenKind::comma, TokenKind::r_square) &&
        !(step = parseExpression()))
      return nullptr;
  }
  return ctx.create<SliceExpr>(rangeFrom(start), lower, upper, step);
}

Expr *Parser::parseCall(Expr *func) {
  SourceLoc start = func ? func->getLoc() : tok.loc;
  consume(); // '('
  llvm::SmallVector<Expr *, 4> args;
  llvm::SmallVector<Keyword, 4> keywords;
  bool sawKeyword = false;
  while (tok.isNot(TokenKind::r_paren)) {
    SourceLoc argStart = tok.loc;
    if (tok.is(TokenKind::star)) {
      consume();
      Expr *value = parseExpression();
      if (!value)
        return nullptr;
      args.push_back(ctx.create<StarredExpr>(rangeFrom(argStart), value));
    } else if (tok.is(TokenKind::starstar)) {
      consume();
      Expr *value = parseExpression();
      if (!value)
        return nullptr;
      keywords.push_back({rangeFrom(argStart), {}, value});
      sawKeyword = true;
    } else if (tok.is(TokenKind::identifier) && peek().is(TokenKind::equal)) {
      llvm::StringRef name = consume().spelling;
      consume(); // '='
      Expr *value = parseExpression();
      if (!value)
        return nullptr;
      for (const Keyword &k : keywords)
        if (k.name == name) {
          errorAt(argStart, "keyword argument repeated: " + name);
          return nullptr;
        }
      keywords.push_back({rangeFrom(argStart), name, value});
      sawKeyword = true;
    } else {
      Expr *value = parseNamedExpression();
      if (!value)
        return nullptr;
      if (tok.isAny(TokenKind::kw_for, TokenKind::kw_async)) {
        llvm::SmallVector<Comprehension, 2> gens;
        if (!parseComprehensionClauses(gens))
          return nullptr;
        value = ctx.create<GeneratorExpExpr>(rangeFrom(argStart), value,
                                             ctx.copy<Comprehension>(gens));
        if (!args.empty() || !keywords.empty() ||
            tok.isNot(TokenKind::r_paren)) {
          errorAt(argStart, "generator expression must be parenthesized");
          return nullptr;
        }
      }
      if (sawKeyword) {
        errorAt(argStart, "positional argument follows keyword argument");
        return nullptr;
      }
      args.push_back(value);
    }
    if (!consumeIf(TokenKind::comma))
      break;
  }
  if (!expect(TokenKind::r_paren, "to close the call"))
    return nullptr;
  return ctx.create<CallExpr>(rangeFrom(start), func, ctx.copy<Expr *>(args),
                              ctx.copy<Keyword>(keywords));
}

Expr *Parser::parseTargetList() {
  SourceLoc start = tok.loc;
  llvm::SmallVector<Expr *, 4> elts;
  bool sawComma = false;
  do {
    if (tok.isAny(TokenKind::kw_in, TokenKind::equal) && sawComma)
      break; // Trailing comma.
    SourceLoc eltStart = tok.loc;
    bool starred = consumeIf(TokenKind::star);
    Expr *e = parseBinary(0);
    if (!e)
      return nullptr;
    if (starred)
      e = ctx.create<StarredExpr>(rangeFrom(eltStart), e);
    elts.push_back(e);
    if (tok.isNot(TokenKind::comma))
      break;
    consume();
    sawComma = true;
  } while (true);
  if (!sawComma && elts.size() == 1)
    return elts.front();
  return ctx.create<TupleExpr>(rangeFrom(start), ctx.copy<Expr *>(elts),
                               /*parenthesized=*/false);
}

bool Parser::parseComprehensionClauses(
    llvm::SmallVectorImpl<Comprehension> &out) {
  while (tok.isAny(TokenKind::kw_for, TokenKind::kw_async)) {
    if (tok.is(TokenKind::kw_async)) {
      error(tok, "asynchronous comprehensions are not supported");
      return false;
    }
    Comprehension c;
    c.range.begin = consume().loc;
    if (!(c.target = parseTargetList()) || !checkTarget(c.target, "assign to"))
      return false;
    if (!expect(TokenKind::kw_in, "in comprehension"))
      return false;
    if (!(c.iter = parseDisjunction()))
      return false;
    llvm::SmallVector<Expr *, 2> ifs;
    while (consumeIf(TokenKind::kw_if)) {
      Expr *cond = parseDisjunction();
      if (!cond)
        return false;
      ifs.push_back(cond);
    }
    c.ifs = ctx.copy<Expr *>(ifs);
    c.range.end = lastEnd;
    out.push_back(c);
  }
  return true;
}

Expr *Parser::parseAtom() {
  SourceLoc start = tok.loc;
  switch (tok.kind) {
  case TokenKind::identifier: {
    Token name = consume();
    return ctx.create<NameExpr>(name.getRange(), name.spelling);
  }
  case TokenKind::kw_True:
  case TokenKind::kw_False: {
    bool value = tok.is(TokenKind::kw_True);
    consume();
    return ctx.create<BoolLiteralExpr>(rangeFrom(start), value);
  }
  case TokenKind::kw_None:
    consume();
    return ctx.create<NoneLiteralExpr>(rangeFrom(start));
  case TokenKind::ellipsis:
    consume();
    return ctx.create<EllipsisLiteralExpr>(rangeFrom(start));
  case TokenKind::integer:
  case TokenKind::floating:
    return parseNumber();
  case TokenKind::string:
    return parseStrings();
  case TokenKind::l_paren:
  case TokenKind::l_square:
  case TokenKind::l_brace: {
    NestingScope nest(*this);
    if (!nest.ok)
      return nullptr;
    if (tok.is(TokenKind::l_paren))
      return parseParenthesized();
    if (tok.is(TokenKind::l_square))
      return parseListDisplay();
    return parseBraceDisplay();
  }
  case TokenKind::kw_yield:
    error(tok, "'yield' is not supported");
    return nullptr;
  case TokenKind::kw_lambda:
    return parseLambda();
  default:
    errorExpected("an expression");
    return nullptr;
  }
}

Expr *Parser::parseNumber() {
  Token t = consume();
  if (t.is(TokenKind::floating))
    return ctx.create<FloatLiteralExpr>(t.getRange(),
                                        parseFloatLiteral(t.spelling));
  uint64_t value = 0;
  bool fits = parseIntegerLiteral(t.spelling, value);
  return ctx.create<IntLiteralExpr>(t.getRange(), fits ? value : 0, fits);
}

Expr *Parser::parseStrings() {
  SourceLoc start = tok.loc;
  std::string value;
  bool isBytes = false, isFString = false, first = true;
  while (tok.is(TokenKind::string)) {
    StringLiteralInfo info;
    std::string message;
    const char *errPtr = nullptr;
    if (!decodeStringLiteral(tok.spelling, info, message, errPtr)) {
      errorPos = errPtr;
      diags.error(llvm::SMLoc::getFromPointer(errPtr), message);
      return nullptr;
    }
    if (!first && info.isBytes != isBytes) {
      error(tok, "cannot mix bytes and nonbytes literals");
      return nullptr;
    }
    isBytes = info.isBytes;
    isFString |= info.isFString;
    value += info.value;
    first = false;
    consume();
  }
  return ctx.create<StringLiteralExpr>(rangeFrom(start), ctx.copyString(value),
                                       isBytes, isFString);
}

Expr *Parser::parseParenthesized() {
  SourceLoc start = consume().loc; // '('
  if (consumeIf(TokenKind::r_paren))
    return ctx.create<TupleExpr>(rangeFrom(start), llvm::ArrayRef<Expr *>(),
                                 /*parenthesized=*/true);
  if (tok.is(TokenKind::kw_yield)) {
    error(tok, "'yield' is not supported");
    return nullptr;
  }
  Expr *first =
      tok.is(TokenKind::star) ? parseStarExpression() : parseNamedExpression();
  if (!first)
    return nullptr;
  if (tok.isAny(TokenKind::kw_for, TokenKind::kw_async)) {
    llvm::SmallVector<Comprehension, 2> gens;
    if (!parseComprehensionClauses(gens) ||
        !expect(TokenKind::r_paren, "to close the generator expression"))
      return nullptr;
    return ctx.create<GeneratorExpExpr>(rangeFrom(start), first,
                                        ctx.copy<Comprehension>(gens));
  }
  if (tok.isNot(TokenKind::comma)) {
    if (!expect(TokenKind::r_paren, "to close the parenthesis"))
      return nullptr;
    return first;
  }
  llvm::SmallVector<Expr *, 4> elts{first};
  while (consumeIf(TokenKind::comma)) {
    if (tok.is(TokenKind::r_paren))
      break;
    Expr *e = tok.is(TokenKind::star) ? parseStarExpression()
                                      : parseNamedExpression();
    if (!e)
      return nullptr;
    elts.push_back(e);
  }
  if (!expect(TokenKind::r_paren, "to close the tuple"))
    return nullptr;
  return ctx.create<TupleExpr>(rangeFrom(start), ctx.copy<Expr *>(elts),
                               /*parenthesized=*/true);
}

Expr *Parser::parseListDisplay() {
  SourceLoc start = consume().loc; // '['
  llvm::SmallVector<Expr *, 4> elts;
  if (tok.isNot(TokenKind::r_square)) {
    Expr *first = tok.is(TokenKind::star) ? parseStarExpression()
                                          : parseNamedExpression();
    if (!first)
      return nullptr;
    if (tok.isAny(TokenKind::kw_for, TokenKind::kw_async)) {
      llvm::SmallVector<Comprehension, 2> gens;
      if (!parseComprehensionClauses(gens) ||
          !expect(TokenKind::r_square, "to close the list comprehension"))
        return nullptr;
      return ctx.create<ListCompExpr>(rangeFrom(start), first,
                                      ctx.copy<Comprehension>(gens));
    }
    elts.push_back(first);
    while (consumeIf(TokenKind::comma)) {
      if (tok.is(TokenKind::r_square))
        break;
      Expr *e = tok.is(TokenKind::star) ? parseStarExpression()
                                        : parseNamedExpression();
      if (!e)
        return nullptr;
      elts.push_back(e);
    }
  }
  if (!expect(TokenKind::r_square, "to close the list"))
    return nullptr;
  return ctx.create<ListExpr>(rangeFrom(start), ctx.copy<Expr *>(elts));
}

Expr *Parser::parseBraceDisplay() {
  SourceLoc start = consume().loc; // '{'
  if (consumeIf(TokenKind::r_brace))
    return ctx.create<DictExpr>(rangeFrom(start), llvm::ArrayRef<Expr *>(),
                                llvm::ArrayRef<Expr *>());
  llvm::SmallVector<Expr *, 4> keys, values;
  // The first entry decides between a dict and a set.
  auto parseDictEntry = [&]() -> bool {
    if (consumeIf(TokenKind::starstar)) {
      Expr *v = parseBinary(0);
      if (!v)
        return false;
      keys.push_back(nullptr);
      values.push_back(v);
      return true;
    }
    Expr *k = parseExpression();
    if (!k || !expect(TokenKind::colon, "after the dictionary key"))
      return false;
    Expr *v = parseExpression();
    if (!v)
      return false;
    keys.push_back(k);
    values.push_back(v);
    return true;
  };

  bool isDict = tok.is(TokenKind::starstar);
  Expr *first = nullptr;
  if (!isDict) {
    first = tok.is(TokenKind::star) ? parseStarExpression()
                                    : parseNamedExpression();
    if (!first)
      return nullptr;
    isDict = tok.is(TokenKind::colon);
  }
  if (isDict) {
    if (first) {
      consume(); // ':'
      Expr *v = parseExpression();
      if (!v)
        return nullptr;
      if (tok.isAny(TokenKind::kw_for, TokenKind::kw_async)) {
        llvm::SmallVector<Comprehension, 2> gens;
        if (!parseComprehensionClauses(gens) ||
            !expect(TokenKind::r_brace, "to close the dict comprehension"))
          return nullptr;
        return ctx.create<DictCompExpr>(rangeFrom(start), first, v,
                                        ctx.copy<Comprehension>(gens));
      }
      keys.push_back(first);
      values.push_back(v);
    } else if (!parseDictEntry()) {
      return nullptr;
    }
    while (consumeIf(TokenKind::comma)) {
      if (tok.is(TokenKind::r_brace))
        break;
      if (!parseDictEntry())
        return nullptr;
    }
    if (!expect(TokenKind::r_brace, "to close the dictionary"))
      return nullptr;
    return ctx.create<DictExpr>(rangeFrom(start), ctx.copy<Expr *>(keys),
                                ctx.copy<Expr *>(values));
  }

  if (tok.isAny(TokenKind::kw_for, TokenKind::kw_async)) {
    llvm::SmallVector<Comprehension, 2> gens;
    if (!parseComprehensionClauses(gens) ||
        !expect(TokenKind::r_brace, "to close the set comprehension"))
      return nullptr;
    return ctx.create<SetCompExpr>(rangeFrom(start), first,
                                   ctx.copy<Comprehension>(gens));
  }
  llvm::SmallVector<Expr *, 4> elts{first};
  while (consumeIf(TokenKind::comma)) {
    if (tok.is(TokenKind::r_brace))
      break;
    Expr *e = tok.is(TokenKind::star) ? parseStarExpression()
                                      : parseNamedExpression();
    if (!e)
      return nullptr;
    elts.push_back(e);
  }
  if (!expect(TokenKind::r_brace, "to close the set"))
    return nullptr;
  return ctx.create<SetExpr>(rangeFrom(start), ctx.copy<Expr *>(elts));
}
