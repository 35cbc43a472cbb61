//===- Token.h - Triton-language tokens -------------------------*- C++ -*-===//
#ifndef TESSERA_FRONTEND_TOKEN_H
#define TESSERA_FRONTEND_TOKEN_H

#include "tessera/Frontend/SourceLoc.h"

#include "llvm/ADT/StringRef.h"

namespace tessera::frontend {

/// Every kind of token, from TokenKinds.def.
enum class TokenKind : uint8_t {
#define TOK(ID, SPELLING) ID,
#include "tessera/Frontend/TokenKinds.def"
};

/// The fixed spelling of a keyword or operator, or a description of the other
/// kinds ("identifier", "newline", ...), for diagnostics.
llvm::StringRef getTokenSpelling(TokenKind kind);

/// True for `False` ... `yield`.
bool isKeyword(TokenKind kind);

/// The keyword kind spelled `text`, or TokenKind::identifier.
TokenKind lookupKeyword(llvm::StringRef text);

/// A token: its kind, its exact spelling in the buffer and where it starts
/// and ends. INDENT/DEDENT have an empty spelling at the first character of
/// their line; NEWLINE spells the line break (empty at end of file).
class Token {
public:
  TokenKind kind = TokenKind::eof;
  llvm::StringRef spelling;
  SourceLoc loc;
  SourceLoc endLoc;
  /// For TokenKind::error: index of the message in the lexer's error list.
  unsigned errorIndex = 0;

  bool is(TokenKind k) const { return kind == k; }
  bool isNot(TokenKind k) const { return kind != k; }
  template <typename... Ts> bool isAny(TokenKind k, Ts... ks) const {
    return is(k) || (is(ks) || ...);
  }
  bool isKeyword() const { return tessera::frontend::isKeyword(kind); }
  SourceRange getRange() const { return {loc, endLoc}; }
};

} // namespace tessera::frontend

#endif // TESSERA_FRONTEND_TOKEN_H
