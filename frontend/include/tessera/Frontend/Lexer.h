//===- Lexer.h - Triton-language lexer --------------------------*- C++ -*-===//
//
// Splits a buffer into tokens with Python's rules: INDENT/DEDENT from leading
// whitespace (tabs advance to the next multiple of 8, and indentation that is
// only consistent under one tab size is an error, as Python's TabError),
// NEWLINE at logical line ends only, implicit joining inside brackets and
// explicit joining with a backslash.
//
// The lexer never reports diagnostics itself: a malformed token becomes a
// TokenKind::error token whose message is kept in the lexer and reported by
// whoever consumes it. This lets the module scanner lex host code it may
// discard without spurious errors.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_FRONTEND_LEXER_H
#define TESSERA_FRONTEND_LEXER_H

#include "tessera/Frontend/Token.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/SMLoc.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tessera::frontend {

class DiagnosticEngine;

/// A lexical error attached to an error token.
struct LexError {
  llvm::SMLoc loc;
  std::string message;
  /// Optional second location (e.g. the unclosed bracket) and its note.
  llvm::SMLoc noteLoc;
  std::string note;
};

class Lexer {
public:
  /// Lexes `buffer`, which must be a buffer of the SourceMgr that diagnostics
  /// are reported against. Lexing starts at line 1.
  explicit Lexer(llvm::StringRef buffer);

  /// Produces the next token.
  Token lex();

  /// Reports the error carried by an error token to `diags`.
  void reportError(const Token &tok, DiagnosticEngine &diags) const;
  const LexError &getError(const Token &tok) const {
    return errors[tok.errorIndex];
  }

  /// Restarts lexing at `pos`, which must be the start of a line at
  /// indentation zero, outside any bracket or string (see
  /// findNextTopLevelLine).
  void resetTo(const char *pos);

  /// Finds the start of the next line after `errorPos` that begins a new
  /// top-level statement: column 1, not blank or a comment, and outside any
  /// bracket, string or backslash continuation, scanning from `stmtStart`.
  /// Returns the buffer end when there is none. Always > stmtStart.
  const char *findNextTopLevelLine(const char *stmtStart,
                                   const char *errorPos) const;

  llvm::StringRef getBuffer() const { return buffer; }

private:
  struct IndentLevel {
    unsigned column;    // with tabs to multiples of 8
    unsigned altColumn; // with tabs as one column, to detect ambiguity
  };
  struct OpenBracket {
    char ch;
    const char *ptr;
    uint32_t line, column;
  };

  SourceLoc locOf(const char *p) const;
  Token makeToken(TokenKind kind, const char *begin, const char *end);
  Token makeError(const char *begin, const char *end, std::string message,
                  const char *notePtr = nullptr, std::string note = {});
  /// Measures the indentation of a new logical line (skipping blank and
  /// comment lines); returns INDENT, DEDENT or an error, or nothing when the
  /// level is unchanged or the buffer ended.
  std::optional<Token> lexIndentation();
  Token lexAtEnd();
  Token lexIdentifier(const char *begin);
  Token lexNumber(const char *begin);
  Token lexString(const char *begin, const char *quote);
  Token lexPunctuation(const char *begin);
  Token lexNonAscii(const char *begin);
  /// Consumes a line break at `cur` (\n, \r\n or \r) and advances the line.
  void consumeLineBreak();

  llvm::StringRef buffer;
  const char *cur;
  const char *lineStart;
  uint32_t line = 1;
  /// Start of the token being lexed.
  SourceLoc tokStart;
  llvm::SmallVector<IndentLevel, 8> indents;
  llvm::SmallVector<OpenBracket, 8> brackets;
  unsigned pendingDedents = 0;
  bool atLineStart = true;
  /// Whether a token was produced on the current logical line (so that end of
  /// file without a final line break still ends the line with NEWLINE).
  bool lineHasTokens = false;
  std::vector<LexError> errors;
};

/// Decodes the value of a string literal token (prefixes, quotes, escapes;
/// raw strings verbatim; f-strings return their raw text). On a malformed
/// escape returns false and sets `errorMessage`/`errorPtr`.
struct StringLiteralInfo {
  std::string value;
  bool isBytes = false;
  bool isRaw = false;
  bool isFString = false;
};
bool decodeStringLiteral(llvm::StringRef spelling, StringLiteralInfo &info,
                         std::string &errorMessage, const char *&errorPtr);

/// Parses an integer literal spelling (decimal, 0x, 0o, 0b, underscores).
/// Returns false if it does not fit in 64 unsigned bits.
bool parseIntegerLiteral(llvm::StringRef spelling, uint64_t &value);

/// Parses a float literal spelling (underscores allowed).
double parseFloatLiteral(llvm::StringRef spelling);

} // namespace tessera::frontend

#endif // TESSERA_FRONTEND_LEXER_H
