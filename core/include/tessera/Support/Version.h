//===- Version.h - Tessera version information ------------------*- C++ -*-===//
#ifndef TESSERA_SUPPORT_VERSION_H
#define TESSERA_SUPPORT_VERSION_H

#include "llvm/ADT/StringRef.h"

namespace mlir::tessera {

/// The Tessera release string, e.g. "0.1.0"; part of every cache key.
llvm::StringRef getTesseraVersion();

/// The major version of the LLVM that Tessera was built against.
unsigned getLLVMMajorVersion();

} // namespace mlir::tessera

#endif // TESSERA_SUPPORT_VERSION_H
