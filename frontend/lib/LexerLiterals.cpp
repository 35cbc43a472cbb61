//===- LexerLiterals.cpp - Values of literal tokens -----------------------===//
//
// Decoding of string, integer and float literal spellings, kept apart from the
// tokenizer: the lexer only finds where a literal ends, the parser asks for its
// value.
//
//===----------------------------------------------------------------------===//
#include "tessera/Frontend/Lexer.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/ConvertUTF.h"

#include <cstdlib>

using namespace tessera::frontend;

/// Appends code point `cp` as UTF-8.
static void appendUTF8(std::string &out, uint32_t cp) {
  char buf[UNI_MAX_UTF8_BYTES_PER_CODE_POINT];
  char *ptr = buf;
  if (llvm::ConvertCodePointToUTF8(cp, ptr))
    out.append(buf, ptr);
}

bool tessera::frontend::decodeStringLiteral(llvm::StringRef spelling,
                                            StringLiteralInfo &info,
                                            std::string &errorMessage,
                                            const char *&errorPtr) {
  size_t quotePos = spelling.find_first_of("'\"");
  llvm::StringRef prefix = spelling.take_front(quotePos);
  info.isRaw = prefix.contains_insensitive("r");
  info.isBytes = prefix.contains_insensitive("b");
  info.isFString = prefix.contains_insensitive("f");
  llvm::StringRef body = spelling.drop_front(quotePos);
  char quote = body.front();
  size_t quoteLen =
      body.starts_with(std::string(3, quote)) && body.size() >= 6 ? 3 : 1;
  if (body.size() < 2 * quoteLen) {
    // An unterminated literal reaches here only through error recovery.
    errorMessage = "unterminated string literal";
    errorPtr = spelling.data();
    return false;
  }
  body = body.drop_front(quoteLen).drop_back(quoteLen);
  info.value.clear();
  if (info.isRaw || info.isFString) {
    info.value = body.str();
    return true;
  }
  for (size_t i = 0; i < body.size(); ++i) {
    char c = body[i];
    if (c != '\\' || i + 1 == body.size()) {
      info.value.push_back(c);
      continue;
    }
    const char *escPtr = body.data() + i;
    char e = body[++i];
    switch (e) {
    case '\n':
      break;
    case '\r':
      if (i + 1 < body.size() && body[i + 1] == '\n')
        ++i;
      break;
    case '\\':
    case '\'':
    case '"':
      info.value.push_back(e);
      break;
    case 'a':
      info.value.push_back('\a');
      break;
    case 'b':
      info.value.push_back('\b');
      break;
    case 'f':
      info.value.push_back('\f');
      break;
    case 'n':
      info.value.push_back('\n');
      break;
    case 'r':
      info.value.push_back('\r');
      break;
    case 't':
      info.value.push_back('\t');
      break;
    case 'v':
      info.value.push_back('\v');
      break;
    case 'x': {
      if (i + 2 >= body.size() + 0 || !llvm::isHexDigit(body[i + 1]) ||
          !llvm::isHexDigit(body[i + 2])) {
        errorMessage = "truncated \\xXX escape";
        errorPtr = escPtr;
        return false;
      }
      unsigned v = llvm::hexDigitValue(body[i + 1]) * 16 +
                   llvm::hexDigitValue(body[i + 2]);
      i += 2;
      if (info.isBytes)
        info.value.push_back(static_cast<char>(v));
      else
        appendUTF8(info.value, v);
      break;
    }
    case 'u':
    case 'U': {
      if (info.isBytes) {
        info.value.push_back('\\');
        info.value.push_back(e);
        break;
      }
      size_t n = e == 'u' ? 4 : 8;
      uint32_t v = 0;
      for (size_t k = 1; k <= n; ++k) {
        if (i + k >= body.size() || !llvm::isHexDigit(body[i + k])) {
          errorMessage = e == 'u' ? "truncated \\uXXXX escape"
                                  : "truncated \\UXXXXXXXX escape";
          errorPtr = escPtr;
          return false;
        }
        v = v * 16 + llvm::hexDigitValue(body[i + k]);
      }
      if (v > 0x10FFFF) {
        errorMessage = "illegal Unicode character in escape";
        errorPtr = escPtr;
        return false;
      }
      i += n;
      appendUTF8(info.value, v);
      break;
    }
    case 'N':
      errorMessage = "\\N{...} escapes are not supported";
      errorPtr = escPtr;
      return false;
    default:
      if (e >= '0' && e <= '7') {
        unsigned v = 0, k = 0;
        while (k < 3 && i < body.size() && body[i] >= '0' && body[i] <= '7') {
          v = v * 8 + (body[i] - '0');
          ++i;
          ++k;
        }
        --i;
        if (info.isBytes)
          info.value.push_back(static_cast<char>(v & 0xFF));
        else
          appendUTF8(info.value, v);
        break;
      }
      // Python keeps unknown escapes verbatim (with a warning).
      info.value.push_back('\\');
      info.value.push_back(e);
      break;
    }
  }
  return true;
}

bool tessera::frontend::parseIntegerLiteral(llvm::StringRef spelling,
                                            uint64_t &value) {
  std::string digits;
  for (char c : spelling)
    if (c != '_')
      digits.push_back(c);
  unsigned radix = 10;
  llvm::StringRef text = digits;
  if (text.size() > 2 && text[0] == '0') {
    char b = llvm::toLower(text[1]);
    if (b == 'x' || b == 'o' || b == 'b') {
      radix = b == 'x' ? 16 : b == 'o' ? 8 : 2;
      text = text.drop_front(2);
    }
  }
  unsigned long long result;
  if (llvm::getAsUnsignedInteger(text, radix, result))
    return false;
  value = result;
  return true;
}

double tessera::frontend::parseFloatLiteral(llvm::StringRef spelling) {
  std::string digits;
  for (char c : spelling)
    if (c != '_')
      digits.push_back(c);
  return std::strtod(digits.c_str(), nullptr);
}
