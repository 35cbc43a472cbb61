//===- Language.h - What the Triton language offers -------------*- C++ -*-===//
//
// The names of the Triton language that Tessera implements, for host code
// that asks about them (`hasattr(tl.extra, "libdevice")`, `try: from
// triton.language.extra import libdevice`, `triton.__version__`) and for
// embedders that mirror the language on their side (the Python package).
// The answer comes from the same tables device code is lowered with, so a
// name is reported present exactly when a kernel can use it.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_FRONTEND_LANGUAGE_H
#define TESSERA_FRONTEND_LANGUAGE_H

#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace tessera::frontend {

/// The version of the Triton language Tessera implements: what
/// `triton.__version__` and `importlib.metadata.version("triton")` give.
inline constexpr llvm::StringLiteral kTritonLanguageVersion("3.6.0");

/// Whether `qualifiedName` (any spelling Triton accepts, such as
/// `triton.language.math.exp` or `triton.language.extra.M.libdevice.exp` for
/// an added target module M) names a module, dtype, function or object of
/// the language.
bool isLanguageName(llvm::StringRef qualifiedName);

/// Every canonical name of the language, sorted: modules, dtypes, builtins
/// (`triton.language.NAME`), tensor and descriptor methods are not
/// included, libdevice functions (`triton.language.extra.libdevice.NAME`).
std::vector<std::string> getLanguageNames();

/// Adds `name` to the per-target modules under `triton.language.extra`: as
/// Triton installs one per backend (`triton.language.extra.NAME` with its
/// `libdevice`), each target present names its own, and host code that
/// tests for it (`hasattr(tl.extra, NAME)`) sees it. Process-wide and
/// thread-safe; adding a name twice is harmless.
void addTargetLanguageModule(llvm::StringRef name);

/// The per-target modules added so far, sorted.
std::vector<std::string> getTargetLanguageModules();

} // namespace tessera::frontend

#endif // TESSERA_FRONTEND_LANGUAGE_H
