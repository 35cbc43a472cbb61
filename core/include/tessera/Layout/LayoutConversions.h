//===- LayoutConversions.h - Named layouts as LinearLayouts -----*- C++ -*-===//
//
// Pure functions building the LinearLayout of each named layout (blocked,
// slice, FMA dot operand, swizzled shared). The named layouts stay as
// readable attributes in the IR; everything the compiler computes from them
// goes through these functions.
//
// All results have output dimensions dim0..dimN-1 (tensor order, see
// getTensorDimName) with the tensor's sizes. Distributed layouts have input
// dimensions register, lane, warp, block; shared layouts offset, block.
// Every size and parameter must be a power of two; the verify* functions say
// why one is not, and the builders abort on invalid parameters.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_LAYOUT_LAYOUTCONVERSIONS_H
#define TESSERA_LAYOUT_LAYOUTCONVERSIONS_H

#include "tessera/Layout/LinearLayout.h"

#include <array>

namespace mlir::tessera {

/// The parameters of a blocked distributed layout, per tensor dimension
/// (index d is tensor dimension d). A CTA tile covers
/// sizePerThread[d] * threadsPerWarp[d] * warpsPerCTA[d] elements along d.
struct BlockedLayoutParams {
  /// Contiguous elements each thread holds along each dimension.
  llvm::SmallVector<unsigned, 4> sizePerThread;
  /// Lanes of a warp along each dimension (their product is the warp size).
  llvm::SmallVector<unsigned, 4> threadsPerWarp;
  /// Warps of a CTA along each dimension.
  llvm::SmallVector<unsigned, 4> warpsPerCTA;
  /// Tensor dimensions from fastest to slowest varying: order[0] gets the
  /// lowest register, lane and warp bits.
  llvm::SmallVector<unsigned, 4> order;
  /// CTAs of a cluster (CGA) along each dimension; empty means all ones.
  llvm::SmallVector<unsigned, 4> ctasPerCGA;
};

/// Checks that \p params fit a tensor of shape \p shape: every array has one
/// entry per dimension (ctasPerCGA may be empty), every size is a power of
/// two, and order is a permutation.
llvm::Error verifyBlockedLayoutParams(llvm::ArrayRef<int64_t> shape,
                                      const BlockedLayoutParams &params);

/// The blocked layout of a tensor of shape \p shape.
///
/// Each CTA owns the contiguous chunk shape[d] / ctasPerCGA[d] along each
/// dimension d (the block bits are the highest of every dimension). Within a
/// CTA, the tile built from sizePerThread, threadsPerWarp and warpsPerCTA (in
/// that bit order, dimensions taken in `order`) is fitted to the chunk:
///  - along a dimension where the chunk is smaller than the tile, lane and
///    warp bits beyond it become zero bases (those threads broadcast: they
///    hold copies), and register bits beyond it are dropped (a thread holds no
///    copy twice);
///  - along a dimension where the chunk is larger, the tile repeats: extra
///    register bases cover the rest, above all the tile's register bits, for
///    the dimensions in `order` (fastest first).
/// Block bits beyond a tensor smaller than the cluster are zero (broadcast).
LinearLayout blockedToLinearLayout(llvm::ArrayRef<int64_t> shape,
                                   const BlockedLayoutParams &params);

/// Convenience overload taking the parameters one by one.
LinearLayout blockedToLinearLayout(llvm::ArrayRef<int64_t> shape,
                                   llvm::ArrayRef<unsigned> sizePerThread,
                                   llvm::ArrayRef<unsigned> threadsPerWarp,
                                   llvm::ArrayRef<unsigned> warpsPerCTA,
                                   llvm::ArrayRef<unsigned> order,
                                   llvm::ArrayRef<unsigned> ctasPerCGA = {});

/// The layout of the tensor obtained by reducing tensor dimension \p dim of a
/// tensor laid out as \p parent (output dimensions dim0..dimN-1): output
/// dimension \p dim is removed and the later ones renumbered, so elements
/// that differed only along \p dim coincide. Register bases that became zero
/// are dropped (a thread keeps one copy), while lane, warp and block zero
/// bases stay: those threads hold the same element (broadcast).
LinearLayout sliceToLinearLayout(const LinearLayout &parent, unsigned dim);

/// Checks the parameters of a swizzled shared layout for \p shape (powers of
/// two, order a permutation, ctasPerCGA empty or one per dimension).
llvm::Error verifySwizzledSharedParams(llvm::ArrayRef<int64_t> shape,
                                       unsigned vec, unsigned perPhase,
                                       unsigned maxPhase,
                                       llvm::ArrayRef<unsigned> order,
                                       llvm::ArrayRef<unsigned> ctasPerCGA);

/// The XOR-swizzled shared-memory layout: input dimensions offset (element
/// offset within a CTA's buffer) and block, outputs dim0..dimN-1.
///
/// With c = order[0] the contiguous dimension (numCols elements) and
/// r = order[1] the row dimension, element (row, col) is stored at offset
///   row * numCols + (col ^ (vec * phase(row))) % numCols,
///   phase(row) = (row / perPhase) % maxPhase,
/// i.e. the groups of \p vec contiguous elements of a row are XOR-permuted by
/// the row's phase (a phase that does not fit in the row wraps around, and
/// vec is clamped to numCols). The offset is the linear map inverting this.
/// Dimensions order[2..] are batch dimensions, above the rows, unswizzled;
/// rank 1 is unswizzled. Each CTA of the cluster holds the chunk
/// shape[d] / ctasPerCGA[d] (empty ctasPerCGA means all ones). A nonzero
/// \p blockCols narrower than a row cuts the rows into blocks of that many
/// columns: the tile of block 0 (numRows x blockCols, swizzled within the
/// block) is stored first, then that of block 1, and so on.
LinearLayout swizzledSharedToLinearLayout(
    llvm::ArrayRef<int64_t> shape, unsigned vec, unsigned perPhase,
    unsigned maxPhase, llvm::ArrayRef<unsigned> order,
    llvm::ArrayRef<unsigned> ctasPerCGA = {}, unsigned blockCols = 0);

/// The identity from \p inDim to dim0..dimN-1 of sizes \p shape, with the
/// lowest bits of \p inDim on dimension order[0], then order[1], etc.
LinearLayout identityStandardND(llvm::StringRef inDim,
                                llvm::ArrayRef<int64_t> shape,
                                llvm::ArrayRef<unsigned> order);

/// The layout of operand \p opIdx (0: A of shape [..., M, K]; 1: B of shape
/// [..., K, N]) of an FMA dot whose result is laid out by the blocked layout
/// \p parent (over [..., M, N]). Each thread holds, in registers, the whole K
/// extent for the rows of A (columns of B) it owns in the result; the lanes,
/// warps and blocks that the result spreads along N (for A) or M (for B)
/// become zero bases: they hold the same operand elements. Registers follow
/// parent.order, K included.
LinearLayout
dotOperandOfBlockedToLinearLayout(llvm::ArrayRef<int64_t> shape,
                                  const BlockedLayoutParams &parent,
                                  unsigned opIdx);

/// A rank-2 distributed layout over \p shape built from the bases of one
/// matrix-instruction tile (what a target's matrix unit computes per warp)
/// and the warps' tiling: register bases reaching beyond the tensor are
/// dropped (a thread holds no element twice), lane and warp bases beyond it
/// become zero (those threads hold copies), and further register bases
/// repeat the tile over the rest of the tensor, dimension
/// \p repeatOrder[0] first. The block dimension is empty.
LinearLayout tileMatrixLayout(llvm::SmallVector<LinearLayout::Basis> registers,
                              llvm::SmallVector<LinearLayout::Basis> lanes,
                              llvm::SmallVector<LinearLayout::Basis> warps,
                              std::array<int64_t, 2> shape,
                              std::array<unsigned, 2> repeatOrder);

/// The warp bases of \p warpsM x \p warpsN warps tiling a matrix (both
/// powers of two), for tileMatrixLayout: the M warps first, \p mStride rows
/// apart, then the N warps, \p nStride columns apart (0 where the warps hold
/// the same data, as for the operand they share).
llvm::SmallVector<LinearLayout::Basis> getWarpGridBases(unsigned warpsM,
                                                        unsigned warpsN,
                                                        int32_t mStride,
                                                        int32_t nStride);

/// The (row, column) register \p reg of a rank-2 distributed \p layout
/// holds in lane 0 of warp 0: its place within the matrix-instruction tiles
/// (every thread's own part is the same XOR on all of them).
std::pair<int32_t, int32_t> getRegisterOrigin(const LinearLayout &layout,
                                              int32_t reg);

} // namespace mlir::tessera

#endif // TESSERA_LAYOUT_LAYOUTCONVERSIONS_H
