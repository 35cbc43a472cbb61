//===- PyFormat.h - Python-style printing of literals -----------*- C++ -*-===//
//
// Dumps and diagnostics print values the way Python's repr() does, so that
// what a user reads matches what Python would have shown them.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_FRONTEND_PYFORMAT_H
#define TESSERA_FRONTEND_PYFORMAT_H

#include "llvm/ADT/StringRef.h"

#include <string>

namespace tessera::frontend {

/// The shortest decimal that reads back as `value`, like Python's repr of a
/// float: "0.1", "1.0", "1e-05", "inf", "nan".
std::string formatPythonFloat(double value);

/// A single-quoted Python string literal for `text` (repr of a str).
std::string quotePythonString(llvm::StringRef text);

} // namespace tessera::frontend

#endif // TESSERA_FRONTEND_PYFORMAT_H
