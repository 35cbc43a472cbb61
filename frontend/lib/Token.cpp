//===- Token.cpp - Triton-language tokens ---------------------------------===//
#include "tessera/Frontend/Token.h"

#include "llvm/ADT/StringSwitch.h"

using namespace tessera::frontend;

llvm::StringRef tessera::frontend::getTokenSpelling(TokenKind kind) {
  switch (kind) {
#define TOK(ID, SPELLING)                                                      \
  case TokenKind::ID:                                                          \
    return SPELLING;
#include "tessera/Frontend/TokenKinds.def"
  }
  return "token";
}

bool tessera::frontend::isKeyword(TokenKind kind) {
  switch (kind) {
#define KEYWORD(ID, SPELLING)                                                  \
  case TokenKind::kw_##ID:                                                     \
    return true;
#include "tessera/Frontend/TokenKinds.def"
  default:
    return false;
  }
}

TokenKind tessera::frontend::lookupKeyword(llvm::StringRef text) {
  return llvm::StringSwitch<TokenKind>(text)
#define KEYWORD(ID, SPELLING) .Case(SPELLING, TokenKind::kw_##ID)
#include "tessera/Frontend/TokenKinds.def"
      .Default(TokenKind::identifier);
}
