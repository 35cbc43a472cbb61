//===- FuzzSupport.h - Helpers shared by the fuzz targets -------*- C++ -*-===//
//
// Every target is a libFuzzer entry point, `LLVMFuzzerTestOneInput`: built
// with -fsanitize=fuzzer in the fuzzing configuration (TESSERA_FUZZ), and
// with ReplayMain.cpp everywhere else, where it runs the committed corpus
// files as regression tests.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_FUZZ_FUZZSUPPORT_H
#define TESSERA_FUZZ_FUZZSUPPORT_H

#include "llvm/ADT/StringRef.h"

#include <cstddef>
#include <cstdint>

namespace tessera::fuzz {

/// The input as text (it may hold any bytes, NUL included).
inline llvm::StringRef asText(const uint8_t *data, size_t size) {
  return llvm::StringRef(reinterpret_cast<const char *>(data), size);
}

/// Turns Tessera's logger off: a target sees millions of broken inputs,
/// and each would log a warning.
void silenceLogging();

} // namespace tessera::fuzz

#endif // TESSERA_FUZZ_FUZZSUPPORT_H
