//===- LinearLayout.h - Layouts as linear maps over GF(2) -------*- C++ -*-===//
//
// A LinearLayout describes where the elements of a tensor live in hardware
// (registers, lanes, warps, blocks, or shared-memory offsets) as a linear map
// over GF(2) from hardware indices to tensor coordinates. Every named layout
// of the compiler (blocked, slice, dot operand, shared...) is a constructor of
// this one data structure, so that layout conversion, vectorization and
// swizzling are computed by the same algebra instead of being special-cased
// pair by pair.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_LAYOUT_LINEARLAYOUT_H
#define TESSERA_LAYOUT_LINEARLAYOUT_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>

namespace mlir::tessera {

/// Conventional input dimension names. Distributed tensors use register, lane,
/// warp and block (fastest to slowest); shared memory uses offset and block.
inline constexpr llvm::StringLiteral kRegisterDim = "register";
/// The lane (thread within a warp) input dimension.
inline constexpr llvm::StringLiteral kLaneDim = "lane";
/// The warp (within a block / CTA) input dimension.
inline constexpr llvm::StringLiteral kWarpDim = "warp";
/// The block (CTA within a cluster / CGA) input dimension.
inline constexpr llvm::StringLiteral kBlockDim = "block";
/// The element offset input dimension of shared-memory layouts.
inline constexpr llvm::StringLiteral kOffsetDim = "offset";

/// Returns the conventional name of tensor dimension \p i: "dim<i>".
std::string getTensorDimName(unsigned i);

/// A linear map over GF(2) from named input dimensions to named output
/// dimensions.
///
/// Semantics:
///  - Every dimension (input or output) has a power-of-two size. An input
///    dimension of size 2^k is given by k *bases*; basis i is the image of the
///    input whose only set bit is bit i. A basis is a vector of output
///    coordinates, one int per output dimension, each in [0, outSize).
///  - The image of an input is, for each output dimension separately, the XOR
///    of the bases of all set bits of all input dimensions. Hence
///    L(a ^ b) == L(a) ^ L(b).
///  - A zero basis means broadcast: flipping that input bit does not change the
///    element, so several hardware locations hold the same element. The map
///    goes from hardware to tensor, not back, because of this.
///
/// Conventions (used by every function that flattens dimensions: reshape*,
/// flatten*, applyFlat, getNumConsecutiveInOut, the free-variable order...):
///  - Output dimensions are listed in tensor order dim0..dimN-1 and flattened
///    ROW-MAJOR: the LAST output dimension is the most minor (fastest
///    varying), like a C array or an MLIR tensor shape.
///  - Input dimensions are listed from the fastest to the slowest hardware
///    index (register, lane, warp, block) and flattened with the FIRST input
///    dimension in the least significant bits.
///  - Dimension order is part of a layout's identity: equality compares names,
///    sizes and bases in order.
///
/// Limits: each dimension has at most 2^30 elements, and the flattened input
/// and output spaces have at most 2^62 elements (the algebra packs them into
/// 64-bit words).
///
/// Misuse that can come from user input (building a layout from arbitrary
/// bases, inverting a layout that is not invertible) is reported through the
/// `try*` / `create` functions returning llvm::Expected; the plain variants
/// abort with a message, also in Release builds. Asking for a dimension that
/// does not exist is a programming error and aborts too.
class LinearLayout {
public:
  /// One basis: a coordinate for each output dimension, in output order.
  using Basis = llvm::SmallVector<int32_t, 4>;
  /// The bases of one input dimension, lowest bit first.
  using DimBases = std::pair<std::string, llvm::SmallVector<Basis>>;
  /// All bases, one entry per input dimension, in input order.
  using BasesT = llvm::SmallVector<DimBases, 4>;
  /// A dimension name with a size (or, for apply, a value).
  using NamedInt = std::pair<llvm::StringRef, int32_t>;
  /// An owning dimension name with a size or value.
  using NamedIntOwned = std::pair<std::string, int32_t>;

  /// The empty layout: no input and no output dimensions; it maps the single
  /// point of its zero-dimensional input space to the single output point.
  LinearLayout() = default;

  /// Builds a layout from its bases and its output dimensions (with sizes, in
  /// order). Aborts with a message if the bases are malformed, or if
  /// \p requireSurjective is set and the layout does not cover every output
  /// element. Use create() to get the error instead.
  LinearLayout(BasesT bases, llvm::ArrayRef<NamedInt> outDims,
               bool requireSurjective = true);

  /// Like the constructor, but returns an error describing the first problem
  /// found instead of aborting: mismatched basis lengths, coordinates out of
  /// range, sizes that are not powers of two, duplicate names, or (when
  /// \p requireSurjective is set) a layout that is not surjective.
  static llvm::Expected<LinearLayout> create(BasesT bases,
                                             llvm::ArrayRef<NamedInt> outDims,
                                             bool requireSurjective = true);

  /// Builds a layout whose output dimension sizes are the smallest powers of
  /// two holding every coordinate of the bases. Aborts like the constructor.
  static LinearLayout withInferredOutSizes(BasesT bases,
                                           llvm::ArrayRef<std::string> outDims,
                                           bool requireSurjective = true);

  /// The empty layout (see the default constructor).
  static LinearLayout empty() { return LinearLayout(); }

  /// The identity from \p inDim to \p outDim, both of size \p size.
  static LinearLayout identity1D(int32_t size, llvm::StringRef inDim,
                                 llvm::StringRef outDim);

  /// Maps i in [0, size) of \p inDim to i * stride in \p outDim, whose size
  /// is size * stride; not surjective when stride > 1.
  static LinearLayout strided1D(int32_t size, int32_t stride,
                                llvm::StringRef inDim, llvm::StringRef outDim);

  /// Maps every i in [0, size) of \p inDim to 0 of \p outDim (of size
  /// \p outDimSize): \p inDim is entirely broadcast.
  static LinearLayout zeros1D(int32_t size, llvm::StringRef inDim,
                              llvm::StringRef outDim, int32_t outDimSize = 1);

  //===--------------------------------------------------------------------===//
  // Queries
  //===--------------------------------------------------------------------===//

  /// Input dimension names in order. The references live as long as this
  /// layout is neither modified nor moved.
  llvm::SmallVector<llvm::StringRef, 4> getInDimNames() const;
  /// Output dimension names in order (same lifetime rule).
  llvm::SmallVector<llvm::StringRef, 4> getOutDimNames() const;
  /// Input dimensions with their sizes, in order (same lifetime rule).
  llvm::SmallVector<NamedInt, 4> getInDims() const;
  /// Output dimensions with their sizes, in order (same lifetime rule).
  llvm::SmallVector<NamedInt, 4> getOutDims() const;

  /// Whether \p name is an input dimension.
  bool hasInDim(llvm::StringRef name) const;
  /// Whether \p name is an output dimension.
  bool hasOutDim(llvm::StringRef name) const;
  /// The number of input dimensions.
  unsigned getNumInDims() const { return bases.size(); }
  /// The number of output dimensions.
  unsigned getNumOutDims() const { return outDims.size(); }

  /// The size of input dimension \p name (2^number of its bases).
  int32_t getInDimSize(llvm::StringRef name) const;
  /// The log2 of the size of input dimension \p name.
  unsigned getInDimSizeLog2(llvm::StringRef name) const;
  /// The size of output dimension \p name.
  int32_t getOutDimSize(llvm::StringRef name) const;
  /// The log2 of the size of output dimension \p name.
  unsigned getOutDimSizeLog2(llvm::StringRef name) const;
  /// The product of all input dimension sizes.
  int64_t getTotalInDimSize() const { return int64_t(1) << totalInLog2(); }
  /// The sum of the log2 of all input dimension sizes.
  unsigned getTotalInDimSizeLog2() const { return totalInLog2(); }
  /// The product of all output dimension sizes.
  int64_t getTotalOutDimSize() const { return int64_t(1) << totalOutLog2(); }
  /// The sum of the log2 of all output dimension sizes.
  unsigned getTotalOutDimSizeLog2() const { return totalOutLog2(); }

  /// Basis \p i of input dimension \p inDim: one coordinate per output
  /// dimension, in output order.
  llvm::ArrayRef<int32_t> getBasis(llvm::StringRef inDim, unsigned i) const;
  /// Coordinate along \p outDim of basis \p i of input dimension \p inDim.
  int32_t getBasis(llvm::StringRef inDim, unsigned i,
                   llvm::StringRef outDim) const;
  /// All bases of input dimension \p inDim, lowest bit first.
  llvm::ArrayRef<Basis> getBases(llvm::StringRef inDim) const;
  /// All bases, per input dimension in order.
  llvm::ArrayRef<DimBases> getBases() const { return bases; }

  /// Whether every output element is the image of some input.
  bool isSurjective() const;
  /// Whether no two inputs have the same image (no zero or linearly dependent
  /// bases).
  bool isInjective() const;
  /// Whether the layout is a bijection.
  bool isInvertible() const { return isInjective() && isSurjective(); }

  /// Whether the layout does not mix the dimensions \p dims with anything
  /// else: for each name d in \p dims, input d maps identically onto output d
  /// (basis i of d is 2^i along d and zero along every other output), and no
  /// other input dimension has a nonzero coordinate along an output in
  /// \p dims. A name missing on one side counts as a dimension of size 1.
  /// Used on layout-conversion maps (whose inputs and outputs are both
  /// hardware dims) to see e.g. that data never crosses lanes or warps.
  bool isTrivialOver(llvm::ArrayRef<llvm::StringRef> dims) const;

  /// Structural equality: names, order, sizes and bases.
  bool operator==(const LinearLayout &other) const;
  /// Structural inequality.
  bool operator!=(const LinearLayout &other) const { return !(*this == other); }

  /// Prints the layout on one line in a stable format, e.g.
  /// `{register = [[0, 1], [0, 2]], lane = [[1, 0]]} -> {dim0 = 2, dim1 = 4}`.
  void print(llvm::raw_ostream &os) const;
  /// The string print() writes.
  std::string toString() const;

  //===--------------------------------------------------------------------===//
  // Applying the map
  //===--------------------------------------------------------------------===//

  /// Applies the layout to one value per input dimension (any order; each
  /// input dimension exactly once, each value in [0, size)). Returns one
  /// coordinate per output dimension, in output order.
  llvm::SmallVector<NamedIntOwned, 4> apply(llvm::ArrayRef<NamedInt> ins) const;

  /// Applies the layout to a flattened input index (first input dimension
  /// least significant) and returns the flattened output index (row-major:
  /// last output dimension least significant).
  int64_t applyFlat(int64_t flatIn) const;

  //===--------------------------------------------------------------------===//
  // Algebra
  //===--------------------------------------------------------------------===//

  /// The product of two layouts. Input and output dimensions are the unions of
  /// both operands' (in order of first appearance, left operand first). For an
  /// input dimension in both, \p rhs's bases become the higher bits. For an
  /// output dimension in both, the sizes multiply and \p rhs's coordinates
  /// are scaled by \p lhs's size so that they lie above \p lhs's. This is how
  /// a layout is tiled: e.g. per-register * per-lane * per-warp pieces.
  friend LinearLayout operator*(const LinearLayout &lhs,
                                const LinearLayout &rhs);
  /// In-place product, see operator*.
  LinearLayout &operator*=(const LinearLayout &rhs) {
    return *this = *this * rhs;
  }

  /// For this: X -> Y and \p outer: Y -> Z, returns outer o this: X -> Z.
  /// Every output dimension of this must be an input dimension of \p outer at
  /// least as big (output dims of size 1 may be missing); inputs of \p outer
  /// that this does not produce are taken as 0.
  LinearLayout compose(const LinearLayout &outer) const;

  /// For this: X -> Z and \p outer: Y -> Z, returns C: X -> Y with
  /// outer(C(x)) == this(x) for every x. \p outer need not be injective:
  /// where several y fit, the one whose free input bits of \p outer (see
  /// getFreeVariableMasks) are zero is chosen. Every output dimension of this
  /// must exist in \p outer (unless of size 1), and \p outer must cover the
  /// image of this; otherwise an error is returned. C's output dimensions are
  /// \p outer's input dimensions with their sizes. This is the workhorse of
  /// layout conversion, e.g. registers -> shared offsets is
  /// regLayout.invertAndCompose(sharedLayout).
  llvm::Expected<LinearLayout>
  tryInvertAndCompose(const LinearLayout &outer) const;
  /// Like tryInvertAndCompose, aborting with the error's message on failure.
  LinearLayout invertAndCompose(const LinearLayout &outer) const;

  /// The inverse of an invertible layout (outputs become inputs and vice
  /// versa); returns an error if the layout is not invertible.
  llvm::Expected<LinearLayout> tryInvert() const;
  /// Like tryInvert, aborting on failure.
  LinearLayout invert() const;

  /// A right inverse R of a surjective layout L (L(R(z)) == z), taking zero
  /// for L's free input bits; returns an error if L is not surjective.
  llvm::Expected<LinearLayout> tryPseudoinvert() const;
  /// Like tryPseudoinvert, aborting on failure.
  LinearLayout pseudoinvert() const;

  /// Reorders the input dimensions; \p newOrder is a permutation of them.
  /// The map is unchanged but the flattened input order changes.
  LinearLayout transposeIns(llvm::ArrayRef<llvm::StringRef> newOrder) const;
  /// Reorders the output dimensions (and the coordinates of every basis);
  /// \p newOrder is a permutation of them.
  LinearLayout transposeOuts(llvm::ArrayRef<llvm::StringRef> newOrder) const;

  /// Flattens the inputs (first dimension least significant) and splits them
  /// again into \p newIns (first least significant); total sizes must match.
  LinearLayout reshapeIns(llvm::ArrayRef<NamedInt> newIns) const;
  /// Flattens the outputs row-major and splits them again row-major into
  /// \p newOuts (last most minor); total sizes must match.
  LinearLayout reshapeOuts(llvm::ArrayRef<NamedInt> newOuts) const;
  /// Merges all input dimensions into one, named like the first.
  LinearLayout flattenIns() const;
  /// Merges all output dimensions into one (row-major), named like the first.
  LinearLayout flattenOuts() const;

  /// The restriction to the input dimensions \p inDims and the projection on
  /// the output dimensions \p outDims (both kept in this layout's order; every
  /// name must exist). The result need not be surjective.
  LinearLayout sublayout(llvm::ArrayRef<llvm::StringRef> inDims,
                         llvm::ArrayRef<llvm::StringRef> outDims) const;
  /// Whether every basis of \p inDims is zero along every one of \p outDims
  /// (names that are not dimensions of this layout are ignored).
  bool sublayoutIsZero(llvm::ArrayRef<llvm::StringRef> inDims,
                       llvm::ArrayRef<llvm::StringRef> outDims) const;

  /// Changes the size of input dimension \p inDim: shrinking drops its highest
  /// bases, growing appends zero (broadcast) bases.
  LinearLayout resizeInDim(llvm::StringRef inDim, int32_t newSize) const;
  /// Changes the size of output dimension \p outDim: growing keeps every
  /// coordinate (the result is not surjective), shrinking keeps coordinates
  /// modulo the new size (bits above it are dropped).
  LinearLayout resizeOutDim(llvm::StringRef outDim, int32_t newSize) const;

  /// Renames input dimension \p from to \p to (which must not exist yet).
  LinearLayout renameInDim(llvm::StringRef from, llvm::StringRef to) const;
  /// Renames output dimension \p from to \p to (which must not exist yet).
  LinearLayout renameOutDim(llvm::StringRef from, llvm::StringRef to) const;

  /// Places the input dimensions of \p other after this layout's. Both must
  /// have the same output dimensions (names and sizes, any order); the input
  /// dimensions must be disjoint. The result maps (x, y) to this(x) ^ other(y).
  LinearLayout concatIns(const LinearLayout &other) const;
  /// Places the output dimensions of \p other after this layout's. Both must
  /// have the same input dimensions (names and sizes, any order); the output
  /// dimensions must be disjoint. The result maps x to (this(x), other(x)).
  LinearLayout concatOuts(const LinearLayout &other) const;

  /// Drops the zero bases of input dimension \p inDim (e.g. registers that
  /// hold a copy of another register's element), shrinking it.
  LinearLayout removeZeroBasesAlongDim(llvm::StringRef inDim) const;

  /// For each input dimension, in order, a bitmask of its *free* bits: the
  /// bits whose basis is zero or a linear combination of the bases of earlier
  /// bits, in the flattened input order (first input dimension lowest, then
  /// by bit). A zero-basis bit can be flipped alone without changing the
  /// output; a dependent bit can, together with the earlier bits it depends
  /// on. Either way the non-free bits alone reach the whole image, each
  /// element exactly once, so setting free bits to zero picks one canonical
  /// owner per element (what invertAndCompose does). All masks are zero iff
  /// the layout is injective. Computed by Gaussian elimination over GF(2).
  llvm::SmallVector<NamedIntOwned, 4> getFreeVariableMasks() const;

  /// The largest 2^k such that bases 0..k-1 of the first input dimension map
  /// to flat output offsets 1, 2, 4, ..., 2^(k-1) (row-major outputs), i.e.
  /// how many consecutive elements a thread holds in consecutive registers:
  /// the vector width of its loads and stores. Zero (broadcast) bases end the
  /// run; drop them first with removeZeroBasesAlongDim if needed. 1 when
  /// there is no input or output dimension.
  int32_t getNumConsecutiveInOut() const;

  /// Quotient of a product from the left: if this == divisor * Q up to the
  /// order of dimensions, returns Q, else std::nullopt. That is, for every
  /// input dimension of \p divisor, the lowest bases of this are exactly the
  /// divisor's, and every other basis has, along each output dimension of the
  /// divisor, a multiple of the divisor's size there. Q has this layout's
  /// dimensions (in its order) with sizes divided. E.g.
  /// `ll.divideLeft(LinearLayout::identity1D(4, "register", "dim1"))` tells
  /// whether the lowest 2 register bits walk 4 consecutive dim1 elements and
  /// every other bit moves by whole groups of 4 along dim1 (so each thread's
  /// registers hold aligned 4-vectors).
  std::optional<LinearLayout> divideLeft(const LinearLayout &divisor) const;
  /// Quotient of a product from the right: if this == Q * divisor up to the
  /// order of dimensions, returns Q, else std::nullopt (the divisor's bases
  /// are the highest bits, its coordinates the highest).
  std::optional<LinearLayout> divideRight(const LinearLayout &divisor) const;

private:
  /// Selects the constructor that checks nothing but the size limits, for
  /// operations whose results are well-formed by construction.
  struct UncheckedTag {};
  LinearLayout(BasesT bases, llvm::SmallVector<NamedIntOwned, 4> outDims,
               UncheckedTag);

  /// Checks the invariants documented on create().
  llvm::Error verify(bool requireSurjective) const;

  std::optional<unsigned> findInDim(llvm::StringRef name) const;
  std::optional<unsigned> findOutDim(llvm::StringRef name) const;
  /// Index of input (output) dimension \p name; aborts if it does not exist.
  unsigned inDimIndex(llvm::StringRef name) const;
  unsigned outDimIndex(llvm::StringRef name) const;

  unsigned totalInLog2() const;
  unsigned totalOutLog2() const;
  unsigned outLog2(unsigned outIdx) const;

  /// The basis \p basis flattened row-major over the output dimensions.
  uint64_t flattenOut(llvm::ArrayRef<int32_t> basis) const;
  /// The inverse of flattenOut.
  Basis unflattenOut(uint64_t flat) const;
  /// Every basis flattened, in flattened input order.
  llvm::SmallVector<uint64_t, 32> flatBases() const;
  /// The number of linearly independent bases.
  unsigned getRank() const;

  BasesT bases;
  llvm::SmallVector<NamedIntOwned, 4> outDims;
};

/// The product of two layouts (see the friend declaration in LinearLayout).
LinearLayout operator*(const LinearLayout &lhs, const LinearLayout &rhs);

/// Prints \p layout as LinearLayout::print does.
inline llvm::raw_ostream &operator<<(llvm::raw_ostream &os,
                                     const LinearLayout &layout) {
  layout.print(os);
  return os;
}

} // namespace mlir::tessera

#endif // TESSERA_LAYOUT_LINEARLAYOUT_H
