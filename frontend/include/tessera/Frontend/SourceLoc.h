//===- SourceLoc.h - Locations in kernel source files -----------*- C++ -*-===//
//
// A location is a pointer into a buffer owned by an llvm::SourceMgr plus the
// line and column it names, cached so that later stages can build MLIR
// FileLineColLoc's without going back to the SourceMgr.
//
// Convention: lines and columns are 1-based; a column counts bytes from the
// start of the line (a tab is one column). This is what llvm::SourceMgr prints
// in diagnostics, so carets and the numbers in messages always agree.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_FRONTEND_SOURCELOC_H
#define TESSERA_FRONTEND_SOURCELOC_H

#include "llvm/Support/SMLoc.h"

#include <cstdint>

namespace tessera::frontend {

/// A point in a source buffer: the raw pointer and its 1-based line/column.
struct SourceLoc {
  llvm::SMLoc ptr;
  uint32_t line = 0;
  uint32_t column = 0;

  bool isValid() const { return ptr.isValid(); }
  const char *getPointer() const { return ptr.getPointer(); }
};

/// A half-open range [begin, end): `end` is one past the last character, as
/// Python's end_col_offset.
struct SourceRange {
  SourceLoc begin;
  SourceLoc end;

  llvm::SMRange getSMRange() const { return {begin.ptr, end.ptr}; }
};

} // namespace tessera::frontend

#endif // TESSERA_FRONTEND_SOURCELOC_H
