//===- PyFormat.cpp - Python-style printing of literals -------------------===//
#include "tessera/Frontend/PyFormat.h"

#include "llvm/ADT/StringExtras.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

using namespace tessera::frontend;

std::string tessera::frontend::formatPythonFloat(double value) {
  if (std::isnan(value))
    return "nan";
  if (std::isinf(value))
    return value < 0 ? "-inf" : "inf";
  char buf[64];
  // The fewest significant digits that read back as `value`, as Python's
  // repr; it then uses positional notation for exponents in [-4, 16).
  int digits = 1;
  for (; digits <= 17; ++digits) {
    std::snprintf(buf, sizeof(buf), "%.*e", digits - 1, value);
    if (std::strtod(buf, nullptr) == value)
      break;
  }
  std::string sci = buf;
  size_t e = sci.find('e');
  int exponent = std::atoi(sci.c_str() + e + 1);
  if (exponent >= -4 && exponent < 16) {
    int decimals = std::max(digits - 1 - exponent, 0);
    std::snprintf(buf, sizeof(buf), "%.*f", decimals, value);
    std::string text = buf;
    if (text.find('.') == std::string::npos)
      text += ".0";
    return text;
  }
  std::string exp = std::to_string(std::abs(exponent));
  if (exp.size() < 2)
    exp = "0" + exp;
  return sci.substr(0, e) + "e" + (exponent < 0 ? "-" : "+") + exp;
}

std::string tessera::frontend::quotePythonString(llvm::StringRef text) {
  // Python prefers single quotes unless the text has a single quote and no
  // double quote.
  char quote = (text.contains('\'') && !text.contains('"')) ? '"' : '\'';
  std::string out(1, quote);
  for (unsigned char c : text) {
    switch (c) {
    case '\\':
      out += "\\\\";
      break;
    case '\n':
      out += "\\n";
      break;
    case '\r':
      out += "\\r";
      break;
    case '\t':
      out += "\\t";
      break;
    default:
      if (c == static_cast<unsigned char>(quote)) {
        out += '\\';
        out += static_cast<char>(c);
      } else if (c < 0x20 || c == 0x7f) {
        out += "\\x";
        out += llvm::hexdigit(c >> 4, /*LowerCase=*/true);
        out += llvm::hexdigit(c & 15, /*LowerCase=*/true);
      } else {
        out += static_cast<char>(c);
      }
    }
  }
  out += quote;
  return out;
}
