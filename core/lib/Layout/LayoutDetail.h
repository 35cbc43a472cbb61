//===- LayoutDetail.h - Internal helpers of the layout library --*- C++ -*-===//
//
// Not installed: shared by the LinearLayout implementation files only.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_LIB_LAYOUT_LAYOUTDETAIL_H
#define TESSERA_LIB_LAYOUT_LAYOUTDETAIL_H

#include "llvm/ADT/Twine.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/MathExtras.h"

#include <array>
#include <cstdint>
#include <optional>

namespace mlir::tessera::detail {

/// The largest log2 size of one dimension: sizes are int32_t.
inline constexpr unsigned kMaxDimSizeLog2 = 30;
/// The largest log2 size of all inputs (or outputs) together: flattened
/// indices are packed in 64-bit words with room to spare.
inline constexpr unsigned kMaxTotalSizeLog2 = 62;

/// Whether \p x is a positive power of two.
inline bool isPowerOf2(int64_t x) { return x > 0 && (x & (x - 1)) == 0; }

/// Aborts with \p msg. Used for programming errors that must not go unnoticed
/// in Release builds, where assert is compiled out.
[[noreturn]] inline void fatal(const llvm::Twine &msg) {
  llvm::reportFatalInternalError("LinearLayout: " + msg);
}

/// An echelon basis of a subspace of GF(2)^64, built one vector at a time.
/// Every stored row carries a tag: the XOR of the tags of the inserted vectors
/// it combines. Tagging inserted vector k with 1 << k lets solve() express a
/// vector as a combination of the inserted ones.
class GF2Echelon {
public:
  /// Adds \p v, tagged \p tag. Returns false, storing nothing, if \p v is zero
  /// or in the span of the vectors inserted before.
  bool insert(uint64_t v, uint64_t tag) {
    reduce(v, tag);
    if (v == 0)
      return false;
    // After reduction the leading bit of v is not the leading bit of any
    // stored row, so rows keep pairwise distinct leading bits.
    unsigned lead = 63 - llvm::countl_zero(v);
    rows[lead] = v;
    tags[lead] = tag;
    ++numRows;
    return true;
  }

  /// The XOR of the tags of inserted vectors whose XOR is \p v, or nullopt if
  /// \p v is not in their span. Only vectors that insert() kept take part, so
  /// rejected (dependent) vectors always get coefficient zero.
  std::optional<uint64_t> solve(uint64_t v) const {
    uint64_t tag = 0;
    reduce(v, tag);
    if (v != 0)
      return std::nullopt;
    return tag;
  }

  /// The dimension of the span.
  unsigned rank() const { return numRows; }

private:
  /// Clears from \p v, highest bit first, every bit that leads a stored row;
  /// stops at the first leading bit that no row has, which proves that \p v is
  /// independent of the rows.
  void reduce(uint64_t &v, uint64_t &tag) const {
    while (v != 0) {
      unsigned lead = 63 - llvm::countl_zero(v);
      if (rows[lead] == 0)
        return;
      v ^= rows[lead];
      tag ^= tags[lead];
    }
  }

  /// rows[b] is the stored row whose leading bit is b, or 0.
  std::array<uint64_t, 64> rows{};
  std::array<uint64_t, 64> tags{};
  unsigned numRows = 0;
};

} // namespace mlir::tessera::detail

#endif // TESSERA_LIB_LAYOUT_LAYOUTDETAIL_H
