//===- Expectations.h - Per-backend expected failures -----------*- C++ -*-===//
//
// conformance/expectations/<backend>.txt lists the cases a backend is known
// to fail, one entry per line: the case id (or a glob over case ids, `*`
// and `?`), whitespace, then the reason, which is mandatory:
//
//   # comments and blank lines are ignored
//   06_fused_attention/_attn_bwd/* dK off by one ulp, see issue 12
//
// An entry without a reason, a malformed glob or a repeated entry is an
// error naming file:line. A missing file means no expected failures.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_CONFORMANCE_EXPECTATIONS_H
#define TESSERA_CONFORMANCE_EXPECTATIONS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace mlir::tessera::conformance {

struct ExpectationEntry {
  /// The case id or glob, as written (checked when parsed).
  std::string pattern;
  std::string reason;
  /// 1-based line in the file.
  unsigned line = 0;

  /// True when `id` matches the pattern.
  bool matches(llvm::StringRef id) const;
};

class Expectations {
public:
  /// Parses `text` read from `filename` (used in messages).
  static llvm::Expected<Expectations> parse(llvm::StringRef text,
                                            llvm::StringRef filename);
  /// Reads and parses `path`; a file that does not exist gives no entries
  /// when `mayBeMissing`, an error otherwise.
  static llvm::Expected<Expectations> load(llvm::StringRef path,
                                           bool mayBeMissing);

  /// The first entry matching case `id`, or null.
  const ExpectationEntry *lookup(llvm::StringRef id) const;

  llvm::ArrayRef<ExpectationEntry> getEntries() const { return entries; }
  /// Where the entries came from ("" when there was no file).
  llvm::StringRef getFilename() const { return filename; }

  /// The entries that match none of `ids` (stale entries), for warnings.
  std::vector<const ExpectationEntry *>
  getUnmatched(llvm::ArrayRef<std::string> ids) const;

private:
  std::string filename;
  std::vector<ExpectationEntry> entries;
};

} // namespace mlir::tessera::conformance

#endif // TESSERA_CONFORMANCE_EXPECTATIONS_H
