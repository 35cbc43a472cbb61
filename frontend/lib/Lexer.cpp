//===- Lexer.cpp - Triton-language lexer ----------------------------------===//
#include "tessera/Frontend/Lexer.h"
#include "tessera/Frontend/Diagnostics.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <cstring>

using namespace tessera::frontend;

static bool isIdentStart(char c) { return llvm::isAlpha(c) || c == '_'; }
static bool isIdentChar(char c) { return llvm::isAlnum(c) || c == '_'; }
static bool isLineBreak(char c) { return c == '\n' || c == '\r'; }

Lexer::Lexer(llvm::StringRef buffer)
    : buffer(buffer), cur(buffer.begin()), lineStart(buffer.begin()) {
  indents.push_back({0, 0});
}

SourceLoc Lexer::locOf(const char *p) const {
  SourceLoc loc;
  loc.ptr = llvm::SMLoc::getFromPointer(p);
  loc.line = line;
  loc.column = static_cast<uint32_t>(p - lineStart + 1);
  return loc;
}

Token Lexer::makeToken(TokenKind kind, const char *begin, const char *end) {
  Token tok;
  tok.kind = kind;
  tok.spelling = llvm::StringRef(begin, end - begin);
  tok.loc = tokStart;
  tok.endLoc = locOf(end);
  return tok;
}

Token Lexer::makeError(const char *begin, const char *end, std::string message,
                       const char *notePtr, std::string note) {
  LexError err;
  err.loc = llvm::SMLoc::getFromPointer(begin);
  err.message = std::move(message);
  if (notePtr)
    err.noteLoc = llvm::SMLoc::getFromPointer(notePtr);
  err.note = std::move(note);
  errors.push_back(std::move(err));
  Token tok = makeToken(TokenKind::error, begin, end);
  tok.errorIndex = errors.size() - 1;
  return tok;
}

void Lexer::reportError(const Token &tok, DiagnosticEngine &diags) const {
  const LexError &err = errors[tok.errorIndex];
  InFlightDiagnostic diag = diags.error(err.loc, err.message);
  if (!err.note.empty())
    diag.note(err.noteLoc, err.note);
}

void Lexer::consumeLineBreak() {
  if (*cur == '\r') {
    ++cur;
    if (cur != buffer.end() && *cur == '\n')
      ++cur;
  } else {
    ++cur;
  }
  ++line;
  lineStart = cur;
}

Token Lexer::lex() {
  const char *end = buffer.end();
  if (pendingDedents) {
    --pendingDedents;
    tokStart = locOf(cur);
    return makeToken(TokenKind::dedent, cur, cur);
  }
  if (atLineStart) {
    atLineStart = false;
    if (std::optional<Token> tok = lexIndentation())
      return *tok;
  }
  for (;;) {
    while (cur != end && (*cur == ' ' || *cur == '\t' || *cur == '\f'))
      ++cur;
    if (cur == end)
      return lexAtEnd();
    char c = *cur;
    if (c == '#') {
      while (cur != end && !isLineBreak(*cur))
        ++cur;
      continue;
    }
    if (c == '\\') {
      tokStart = locOf(cur);
      const char *next = cur + 1;
      if (next != end && isLineBreak(*next)) {
        cur = next;
        consumeLineBreak();
        continue;
      }
      const char *begin = cur++;
      if (next == end)
        return makeError(begin, cur,
                         "unexpected end of file after line continuation "
                         "character");
      return makeError(begin, cur,
                       "unexpected character after line continuation "
                       "character");
    }
    if (isLineBreak(c)) {
      const char *begin = cur;
      tokStart = locOf(cur);
      consumeLineBreak();
      if (!brackets.empty())
        continue; // Implicit line joining.
      atLineStart = true;
      if (!lineHasTokens) {
        // A line holding only a continuation: nothing to end.
        if (std::optional<Token> tok = lexIndentation())
          return *tok;
        atLineStart = false;
        continue;
      }
      lineHasTokens = false;
      Token tok;
      tok.kind = TokenKind::newline;
      tok.spelling = llvm::StringRef(begin, cur - begin);
      tok.loc = tokStart;
      tok.endLoc = tokStart;
      tok.endLoc.ptr = llvm::SMLoc::getFromPointer(cur);
      tok.endLoc.column += tok.spelling.size();
      return tok;
    }
    tokStart = locOf(cur);
    lineHasTokens = true;
    if (isIdentStart(c))
      return lexIdentifier(cur);
    if (llvm::isDigit(c) ||
        (c == '.' && cur + 1 != end && llvm::isDigit(cur[1])))
      return lexNumber(cur);
    if (c == '\'' || c == '"')
      return lexString(cur, cur);
    if (static_cast<unsigned char>(c) >= 0x80)
      return lexNonAscii(cur);
    return lexPunctuation(cur);
  }
}

std::optional<Token> Lexer::lexIndentation() {
  const char *end = buffer.end();
  for (;;) {
    unsigned column = 0, altColumn = 0;
    const char *p = cur;
    for (; p != end; ++p) {
      if (*p == ' ') {
        ++column;
        ++altColumn;
      } else if (*p == '\t') {
        column = (column / 8 + 1) * 8;
        ++altColumn;
      } else if (*p == '\f') {
        column = altColumn = 0;
      } else {
        break;
      }
    }
    if (p == end) {
      cur = p;
      return std::nullopt;
    }
    if (*p == '#') {
      while (p != end && !isLineBreak(*p))
        ++p;
      cur = p;
      if (cur == end)
        return std::nullopt;
      consumeLineBreak();
      continue;
    }
    if (isLineBreak(*p)) {
      cur = p;
      consumeLineBreak();
      continue;
    }
    cur = p;
    tokStart = locOf(cur);
    const IndentLevel &top = indents.back();
    const char *inconsistent =
        "inconsistent use of tabs and spaces in indentation";
    if (column == top.column) {
      if (altColumn != top.altColumn)
        return makeError(cur, cur, inconsistent);
      return std::nullopt;
    }
    if (column > top.column) {
      if (altColumn <= top.altColumn)
        return makeError(cur, cur, inconsistent);
      indents.push_back({column, altColumn});
      return makeToken(TokenKind::indent, cur, cur);
    }
    unsigned count = 0;
    while (indents.size() > 1 && column < indents.back().column) {
      indents.pop_back();
      ++count;
    }
    if (column != indents.back().column)
      return makeError(cur, cur,
                       "unindent does not match any outer indentation level");
    if (altColumn != indents.back().altColumn)
      return makeError(cur, cur, inconsistent);
    pendingDedents = count - 1;
    return makeToken(TokenKind::dedent, cur, cur);
  }
}

Token Lexer::lexAtEnd() {
  const char *end = buffer.end();
  tokStart = locOf(end);
  if (!brackets.empty()) {
    OpenBracket open = brackets.back();
    brackets.clear();
    Token tok =
        makeError(end, end, llvm::formatv("'{0}' was never closed", open.ch));
    errors.back().loc = llvm::SMLoc::getFromPointer(open.ptr);
    return tok;
  }
  if (lineHasTokens) {
    lineHasTokens = false;
    return makeToken(TokenKind::newline, end, end);
  }
  if (indents.size() > 1) {
    indents.pop_back();
    return makeToken(TokenKind::dedent, end, end);
  }
  return makeToken(TokenKind::eof, end, end);
}

/// True if [begin, end) is a string prefix Python accepts.
static bool isStringPrefix(llvm::StringRef prefix) {
  std::string lower = prefix.lower();
  return lower == "r" || lower == "u" || lower == "b" || lower == "f" ||
         lower == "br" || lower == "rb" || lower == "fr" || lower == "rf";
}

Token Lexer::lexIdentifier(const char *begin) {
  const char *end = buffer.end();
  const char *p = begin;
  while (p != end && isIdentChar(*p))
    ++p;
  if (p != end && (*p == '\'' || *p == '"') &&
      isStringPrefix(llvm::StringRef(begin, p - begin)))
    return lexString(begin, p);
  if (p != end && static_cast<unsigned char>(*p) >= 0x80) {
    while (p != end &&
           (isIdentChar(*p) || static_cast<unsigned char>(*p) >= 0x80))
      ++p;
    cur = p;
    return makeError(begin, p,
                     "non-ASCII identifiers are not supported; use ASCII "
                     "letters, digits and '_'");
  }
  cur = p;
  llvm::StringRef text(begin, p - begin);
  return makeToken(lookupKeyword(text), begin, p);
}

Token Lexer::lexNonAscii(const char *begin) {
  const char *end = buffer.end();
  const char *p = begin;
  while (p != end &&
         (isIdentChar(*p) || static_cast<unsigned char>(*p) >= 0x80))
    ++p;
  cur = p;
  return makeError(begin, p,
                   "non-ASCII character outside a string or comment; only "
                   "ASCII identifiers are supported");
}

Token Lexer::lexNumber(const char *begin) {
  const char *end = buffer.end();
  const char *p = begin;
  auto consumeWord = [&]() {
    while (p != end && (isIdentChar(*p) || *p == '.'))
      ++p;
    cur = p;
  };
  // Digits with single underscores between them; false on a bad underscore.
  auto scanDigits = [&](auto isValid) {
    bool ok = true, lastUnderscore = false, any = false;
    while (p != end && (isValid(*p) || *p == '_')) {
      if (*p == '_') {
        if (lastUnderscore || !any)
          ok = false;
        lastUnderscore = true;
      } else {
        lastUnderscore = false;
        any = true;
      }
      ++p;
    }
    return ok && !lastUnderscore && any;
  };

  if (*p == '0' && p + 1 != end && llvm::StringRef("xXoObB").contains(p[1])) {
    char base = llvm::toLower(p[1]);
    p += 2;
    // Python allows one underscore right after the base prefix.
    if (p != end && *p == '_')
      ++p;
    bool ok;
    const char *name;
    if (base == 'x') {
      ok = scanDigits([](char c) { return llvm::isHexDigit(c); });
      name = "hexadecimal";
    } else if (base == 'o') {
      ok = scanDigits([](char c) { return c >= '0' && c <= '7'; });
      name = "octal";
    } else {
      ok = scanDigits([](char c) { return c == '0' || c == '1'; });
      name = "binary";
    }
    if (!ok || (p != end && (isIdentChar(*p) || *p == '.'))) {
      consumeWord();
      return makeError(begin, p, llvm::formatv("invalid {0} literal", name));
    }
    cur = p;
    return makeToken(TokenKind::integer, begin, p);
  }

  auto isDec = [](char c) { return llvm::isDigit(c); };
  bool ok = true, isFloat = false;
  if (*p != '.')
    ok = scanDigits(isDec);
  if (p != end && *p == '.') {
    isFloat = true;
    ++p;
    if (p != end && llvm::isDigit(*p))
      ok = scanDigits(isDec) && ok;
  }
  if (p != end && (*p == 'e' || *p == 'E')) {
    const char *q = p + 1;
    if (q != end && (*q == '+' || *q == '-'))
      ++q;
    if (q != end && llvm::isDigit(*q)) {
      p = q;
      ok = scanDigits(isDec) && ok;
      isFloat = true;
    } else {
      consumeWord();
      return makeError(begin, p, "invalid float literal: incomplete exponent");
    }
  }
  if (p != end && (*p == 'j' || *p == 'J')) {
    ++p;
    cur = p;
    return makeError(begin, p, "imaginary literals are not supported");
  }
  if (!ok || (p != end && isIdentChar(*p))) {
    consumeWord();
    return makeError(begin, p, "invalid decimal literal");
  }
  cur = p;
  if (!isFloat) {
    llvm::StringRef text(begin, p - begin);
    if (text.size() > 1 && text[0] == '0' &&
        text.find_first_not_of("0_") != llvm::StringRef::npos)
      return makeError(begin, p,
                       "leading zeros in decimal integer literals are not "
                       "permitted; use an 0o prefix for octal integers");
    return makeToken(TokenKind::integer, begin, p);
  }
  return makeToken(TokenKind::floating, begin, p);
}

Token Lexer::lexString(const char *begin, const char *quotePtr) {
  const char *end = buffer.end();
  llvm::StringRef prefix(begin, quotePtr - begin);
  bool isF = prefix.contains_insensitive("f");
  char quote = *quotePtr;
  bool triple =
      end - quotePtr >= 3 && quotePtr[1] == quote && quotePtr[2] == quote;
  const char *p = quotePtr + (triple ? 3 : 1);
  unsigned startLine = tokStart.line;
  int braceDepth = 0;
  auto newLine = [&](const char *&q) {
    if (*q == '\r' && q + 1 != end && q[1] == '\n')
      ++q;
    ++q;
    ++line;
    lineStart = q;
  };
  for (;;) {
    if (p == end || (!triple && isLineBreak(*p))) {
      cur = p;
      if (triple)
        return makeError(begin, p,
                         llvm::formatv("unterminated triple-quoted string "
                                       "literal (detected at line {0})",
                                       line));
      (void)startLine;
      return makeError(
          begin, p,
          llvm::formatv("unterminated string literal (detected at line {0})",
                        line));
    }
    char c = *p;
    if (c == '\\') {
      ++p;
      if (p != end) {
        if (isLineBreak(*p))
          newLine(p);
        else
          ++p;
      }
      continue;
    }
    if (isLineBreak(c)) {
      newLine(p);
      continue;
    }
    if (isF) {
      if (c == '{') {
        if (braceDepth == 0 && p + 1 != end && p[1] == '{') {
          p += 2;
          continue;
        }
        ++braceDepth;
        ++p;
        continue;
      }
      if (c == '}' && braceDepth > 0) {
        --braceDepth;
        ++p;
        continue;
      }
      if (braceDepth > 0 && (c == '\'' || c == '"')) {
        // A string nested in a replacement field, as Python 3.12 allows
        // even with the enclosing quote character.
        char inner = c;
        ++p;
        while (p != end && *p != inner && !isLineBreak(*p)) {
          if (*p == '\\' && p + 1 != end && !isLineBreak(p[1]))
            ++p;
          ++p;
        }
        if (p != end && *p == inner)
          ++p;
        continue;
      }
    }
    if (c == quote) {
      if (!triple) {
        ++p;
        break;
      }
      if (end - p >= 3 && p[1] == quote && p[2] == quote) {
        p += 3;
        break;
      }
    }
    ++p;
  }
  cur = p;
  return makeToken(TokenKind::string, begin, p);
}

namespace {
struct PunctEntry {
  llvm::StringLiteral spelling;
  TokenKind kind;
};
} // namespace

static const PunctEntry punctuators[] = {
#define PUNCT(ID, SPELLING) {SPELLING, TokenKind::ID},
#include "tessera/Frontend/TokenKinds.def"
};

static char closerFor(char open) {
  return open == '(' ? ')' : open == '[' ? ']' : '}';
}

Token Lexer::lexPunctuation(const char *begin) {
  llvm::StringRef rest(begin, buffer.end() - begin);
  char c = *begin;
  if (c == '\0') {
    cur = begin + 1;
    return makeError(begin, cur, "source code cannot contain null bytes");
  }
  // The table lists longer spellings first within each family; try 3, 2, 1.
  for (size_t len = 3; len >= 1; --len) {
    for (const PunctEntry &entry : punctuators) {
      if (entry.spelling.size() != len || !rest.starts_with(entry.spelling))
        continue;
      cur = begin + len;
      if (c == '(' || c == '[' || c == '{') {
        brackets.push_back({c, begin, tokStart.line, tokStart.column});
      } else if (c == ')' || c == ']' || c == '}') {
        if (brackets.empty())
          return makeError(begin, cur, llvm::formatv("unmatched '{0}'", c));
        OpenBracket open = brackets.pop_back_val();
        if (closerFor(open.ch) != c)
          return makeError(begin, cur,
                           llvm::formatv("closing parenthesis '{0}' does not "
                                         "match opening parenthesis '{1}'",
                                         c, open.ch),
                           open.ptr, "opening parenthesis is here");
      }
      return makeToken(entry.kind, begin, cur);
    }
  }
  cur = begin + 1;
  if (llvm::isPrint(c))
    return makeError(begin, cur, llvm::formatv("invalid character '{0}'", c));
  return makeError(begin, cur,
                   llvm::formatv("invalid character with code {0:x2}",
                                 static_cast<unsigned char>(c)));
}

void Lexer::resetTo(const char *pos) {
  line = 1;
  for (const char *p = buffer.begin(); p < pos; ++p) {
    if (*p == '\n' || (*p == '\r' && (p + 1 == pos || p[1] != '\n')))
      ++line;
  }
  cur = pos;
  lineStart = pos;
  indents.clear();
  indents.push_back({0, 0});
  brackets.clear();
  pendingDedents = 0;
  atLineStart = true;
  lineHasTokens = false;
}

/// True if the line at `p` starts with a keyword that opens a top-level
/// definition or import.
static bool startsDefinition(const char *p) {
  static const char *const keywords[] = {"def ",    "class ", "@",
                                         "import ", "from ",  "async "};
  for (const char *kw : keywords)
    if (std::strncmp(p, kw, std::strlen(kw)) == 0)
      return true;
  return false;
}

const char *Lexer::findNextTopLevelLine(const char *stmtStart,
                                        const char *errorPos) const {
  const char *end = buffer.end();
  const char *errorLine = errorPos;
  while (errorLine > buffer.begin() && !isLineBreak(errorLine[-1]))
    --errorLine;
  int depth = 0;
  const char *p = stmtStart;
  bool continued = false;
  bool pastError = false;
  while (p != end) {
    char c = *p;
    // Brackets still open where the parser gave up are probably the cause
    // of the error: forget them.
    if (!pastError && p >= errorPos) {
      pastError = true;
      depth = 0;
    }
    if (isLineBreak(c)) {
      if (c == '\r' && p + 1 != end && p[1] == '\n')
        ++p;
      ++p;
      if (p == end)
        break;
      // An unclosed bracket before the error would hide the rest of the
      // file, so a line that clearly opens a new definition is taken even at
      // a nonzero depth.
      bool candidate = (depth == 0 || startsDefinition(p)) && !continued &&
                       p > stmtStart && p >= errorLine;
      continued = false;
      if (candidate && !llvm::StringRef(" \t\f\r\n#").contains(*p))
        return p;
      continue;
    }
    continued = false;
    if (c == '#') {
      while (p != end && !isLineBreak(*p))
        ++p;
      continue;
    }
    if (c == '\\') {
      ++p;
      if (p != end && isLineBreak(*p))
        continued = true;
      else if (p != end)
        ++p;
      if (continued) {
        // Consume the break here so the continued line is not a candidate.
        if (*p == '\r' && p + 1 != end && p[1] == '\n')
          ++p;
        ++p;
      }
      continue;
    }
    if (c == '(' || c == '[' || c == '{') {
      ++depth;
    } else if (c == ')' || c == ']' || c == '}') {
      depth = depth > 0 ? depth - 1 : 0;
    } else if (c == '\'' || c == '"') {
      bool triple = end - p >= 3 && p[1] == c && p[2] == c;
      p += triple ? 3 : 1;
      while (p != end) {
        if (*p == '\\') {
          p += (p + 1 != end) ? 2 : 1;
          continue;
        }
        if (!triple && isLineBreak(*p))
          break;
        if (*p == c && (!triple || (end - p >= 3 && p[1] == c && p[2] == c))) {
          p += triple ? 3 : 1;
          break;
        }
        ++p;
      }
      continue;
    }
    ++p;
  }
  return end;
}
