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

#include <chrono>
#include <cstdint>
#include <string>

namespace mlir::tessera::runtime {

/// How old a temporary file must be before a writer in its directory takes
/// it for the orphan of a killed process: far longer than any write takes.
inline constexpr std::chrono::seconds kStaleTemporaryAge{600};

/// Writes `contents` to `path` atomically, creating its directory. The
/// temporary file (`.<name>.tmp-XXXXXX` beside `path`) is removed on failure;
/// after a successful write, the temporaries of the directory older than
/// kStaleTemporaryAge (left by processes killed while writing) are removed.
llvm::Error writeFileAtomically(llvm::StringRef path, llvm::StringRef contents);

/// Removes the temporaries of writeFileAtomically in `dir` whose last
/// change is older than `age`; returns how many it removed. Temporaries of
/// writes in progress are younger and stay.
unsigned removeStaleTemporaries(llvm::StringRef dir,
                                std::chrono::seconds age = kStaleTemporaryAge);

/// The largest file readWholeFile reads unless told otherwise: far above
/// any kernel binary, far below what exhausts memory.
inline constexpr uint64_t kMaxReadFileSize = uint64_t(1) << 30;

/// The whole content of `path`, a regular file of at most `maxSize` bytes;
/// fails naming the file, and the limit when it is larger. Anything but a
/// regular file (a FIFO, a device such as /dev/zero, a directory) is
/// refused without reading: opening never waits for a FIFO's writer.
llvm::Expected<std::string> readWholeFile(llvm::StringRef path,
                                          uint64_t maxSize = kMaxReadFileSize);

} // namespace mlir::tessera::runtime

#endif // TESSERA_RUNTIME_ATOMICFILE_H
