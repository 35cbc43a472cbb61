//===- AtomicFile.h - Files that appear whole or not at all -----*- C++ -*-===//
//
// The kernel cache and the autotuning records are shared by every process
// of a user. A file is written to a temporary name in its final directory,
// flushed to disk and renamed over the final name, so that a reader sees
// either the old file, the new one, or none: never half of one.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_RUNTIME_ATOMICFILE_H
#define TESSERA_RUNTIME_ATOMICFILE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace mlir::tessera::runtime {

/// Writes `contents` to `path` atomically, creating its directory. The
/// temporary file (`.<name>.tmp-XXXXXX` beside `path`) is removed on failure.
llvm::Error writeFileAtomically(llvm::StringRef path, llvm::StringRef contents);

/// The whole content of `path`; fails naming the file.
llvm::Expected<std::string> readWholeFile(llvm::StringRef path);

} // namespace mlir::tessera::runtime

#endif // TESSERA_RUNTIME_ATOMICFILE_H
