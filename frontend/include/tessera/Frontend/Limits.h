//===- Limits.h - The frontend's limits on what a kernel may ask --*- C++
//-*-===//
//
// Inputs past these limits are errors that name the limit, never a crash
// or a compiler that does not finish: each bounds work or memory (stack
// depth, unrolled IR, elements of a block) that would otherwise grow with
// the input without end.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_FRONTEND_LIMITS_H
#define TESSERA_FRONTEND_LIMITS_H

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <limits>

namespace tessera::frontend {

/// Elements of one block, after any op that makes a shape (Triton's
/// TRITON_MAX_TENSOR_NUMEL).
inline constexpr int64_t kMaxBlockElements = 1048576;

/// The number of elements of a block of `shape`, saturated at INT64_MAX
/// where the product does not fit (a shape of 2**40 by 2**40 must not wrap
/// around to a small count); 0 when a dimension is 0 or negative.
inline int64_t countBlockElements(llvm::ArrayRef<int64_t> shape) {
  int64_t n = 1;
  for (int64_t d : shape) {
    if (d <= 0)
      return 0;
    if (__builtin_mul_overflow(n, d, &n))
      return std::numeric_limits<int64_t>::max();
  }
  return n;
}

/// Bodies of `tl.static_range` loops unrolled in one kernel, nested loops
/// counting their product: each is a copy of the body in the IR.
inline constexpr int64_t kMaxStaticRangeIterations = 8192;

/// Depth of an expression tree or of nested blocks, counted in AST nodes
/// from a statement down: the parser and every later stage recurse over
/// it. Python's own parser gives up at 200 nested parentheses; a chain of
/// `a + a + ... + a` is this deep in as many operators.
inline constexpr unsigned kMaxSyntaxDepth = 1000;

} // namespace tessera::frontend

#endif // TESSERA_FRONTEND_LIMITS_H
