//===- LayoutConversions.cpp - Named layouts as LinearLayouts -------------===//

#include "tessera/Layout/LayoutConversions.h"

#include "LayoutDetail.h"

#include "llvm/ADT/STLExtras.h"

using namespace mlir::tessera;
using namespace mlir::tessera::detail;
using llvm::ArrayRef;
using llvm::SmallVector;
using llvm::StringRef;

static llvm::Error makeError(const llvm::Twine &msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), msg);
}

/// Checks that \p values has \p rank powers of two (or is empty when
/// \p allowEmpty).
static llvm::Error checkPerDim(StringRef what, ArrayRef<unsigned> values,
                               size_t rank, bool allowEmpty = false) {
  if (values.empty() && allowEmpty)
    return llvm::Error::success();
  if (values.size() != rank)
    return makeError(what + " has " + llvm::Twine(values.size()) +
                     " entries, expected " + llvm::Twine(rank));
  for (unsigned v : values)
    if (!isPowerOf2(v) || v > (1u << kMaxDimSizeLog2))
      return makeError(what + " entry " + llvm::Twine(v) +
                       " is not a power of two");
  return llvm::Error::success();
}

static llvm::Error checkShapeAndOrder(ArrayRef<int64_t> shape,
                                      ArrayRef<unsigned> order) {
  for (int64_t size : shape)
    if (!isPowerOf2(size) || size > (int64_t(1) << kMaxDimSizeLog2))
      return makeError("shape entry " + llvm::Twine(size) +
                       " is not a power of two");
  SmallVector<bool, 4> seen(shape.size(), false);
  if (order.size() != shape.size())
    return makeError("order has " + llvm::Twine(order.size()) +
                     " entries, expected " + llvm::Twine(shape.size()));
  for (unsigned d : order) {
    if (d >= shape.size() || seen[d])
      return makeError("order is not a permutation of the dimensions");
    seen[d] = true;
  }
  return llvm::Error::success();
}

/// Aborts with the message of \p err, if any.
static void checkOrDie(StringRef what, llvm::Error err) {
  if (err)
    fatal(what + ": " + llvm::toString(std::move(err)));
}

static SmallVector<StringRef, 4> standardOrder(ArrayRef<std::string> names) {
  return SmallVector<StringRef, 4>(names.begin(), names.end());
}

static SmallVector<std::string, 4> tensorDimNames(unsigned rank) {
  SmallVector<std::string, 4> names;
  for (unsigned d = 0; d < rank; ++d)
    names.push_back(getTensorDimName(d));
  return names;
}

/// Fits \p layout, whose output dims are tensor dims "dim<d>", to the sizes
/// \p shape (indexed by d). Along a dimension where the layout is larger, its
/// coordinates are truncated: non-register bases beyond the shape become zero
/// (broadcast) and register bases beyond it are dropped. Along a dimension
/// where it is smaller, extra register bases repeat it, for the dimensions in
/// \p order, above the existing register bits.
static LinearLayout fitToShape(const LinearLayout &layout,
                               ArrayRef<int64_t> shape,
                               ArrayRef<unsigned> order) {
  SmallVector<std::string, 4> names = tensorDimNames(shape.size());
  auto dimIndex = [&](StringRef name) {
    return unsigned(llvm::find(names, name) - names.begin());
  };

  SmallVector<LinearLayout::NamedInt, 4> outs = layout.getOutDims();
  SmallVector<int32_t, 4> masks;
  for (auto &[name, size] : outs) {
    int64_t want = shape[dimIndex(name)];
    masks.push_back(int32_t(std::min<int64_t>(size, want)) - 1);
    size = std::min<int64_t>(size, want);
  }
  LinearLayout::BasesT bases;
  for (const auto &[name, dimBases] : layout.getBases()) {
    auto &dim = bases.emplace_back(name, SmallVector<LinearLayout::Basis>{});
    for (const LinearLayout::Basis &basis : dimBases) {
      LinearLayout::Basis masked = basis;
      bool truncated = false;
      for (auto [coord, mask] : llvm::zip_equal(masked, masks)) {
        truncated |= (coord & ~mask) != 0;
        coord &= mask;
      }
      bool isZero = llvm::all_of(masked, [](int32_t c) { return c == 0; });
      if (truncated && isZero && name == kRegisterDim)
        continue;
      dim.second.push_back(std::move(masked));
    }
  }
  LinearLayout result(std::move(bases), outs, /*requireSurjective=*/false);

  // Only add repeats where needed, so that layouts without registers (shared
  // memory) do not gain a register dimension.
  LinearLayout repeats;
  for (unsigned d : order) {
    int64_t have = result.getOutDimSize(names[d]);
    if (shape[d] > have)
      repeats *= LinearLayout::identity1D(int32_t(shape[d] / have),
                                          kRegisterDim, names[d]);
  }
  return result * repeats;
}

/// The block (CTA) layout: ctasPerCGA[d] CTAs along each dimension d, in
/// \p order, each owning a contiguous chunk; none along \p broadcastDim,
/// whose CTAs hold copies.
static LinearLayout blockLayout(ArrayRef<unsigned> ctasPerCGA,
                                ArrayRef<unsigned> order,
                                std::optional<unsigned> broadcastDim) {
  LinearLayout block;
  for (unsigned d : order) {
    std::string name = getTensorDimName(d);
    block *= d == broadcastDim
                 ? LinearLayout::zeros1D(ctasPerCGA[d], kBlockDim, name)
                 : LinearLayout::identity1D(ctasPerCGA[d], kBlockDim, name);
  }
  return block;
}

/// Places \p cta, the layout of one CTA's chunk, in the cluster and fits the
/// whole to \p shape; returns it with outputs in tensor order.
static LinearLayout placeInCluster(const LinearLayout &cta,
                                   ArrayRef<int64_t> shape,
                                   ArrayRef<unsigned> ctasPerCGA,
                                   ArrayRef<unsigned> order,
                                   std::optional<unsigned> broadcastDim) {
  LinearLayout whole = cta * blockLayout(ctasPerCGA, order, broadcastDim);
  // Only a tensor smaller than the cluster is smaller than `whole`: the
  // extra CTAs' bits become zero.
  whole = fitToShape(whole, shape, order);
  SmallVector<std::string, 4> names = tensorDimNames(shape.size());
  return whole.transposeOuts(standardOrder(names));
}

static SmallVector<unsigned, 4> ctasOrOnes(ArrayRef<unsigned> ctasPerCGA,
                                           size_t rank) {
  if (ctasPerCGA.empty())
    return SmallVector<unsigned, 4>(rank, 1);
  return SmallVector<unsigned, 4>(ctasPerCGA);
}

/// A distributed layout built from blocked parameters; along \p broadcastDim
/// (the K dimension of a dot operand) registers cover the whole tensor and
/// lanes, warps and blocks hold copies.
static LinearLayout buildDistributed(ArrayRef<int64_t> shape,
                                     const BlockedLayoutParams &params,
                                     std::optional<unsigned> broadcastDim) {
  size_t rank = shape.size();
  SmallVector<unsigned, 4> ctas = ctasOrOnes(params.ctasPerCGA, rank);
  SmallVector<int64_t, 4> chunk;
  for (unsigned d = 0; d < rank; ++d)
    chunk.push_back(d == broadcastDim
                        ? shape[d]
                        : std::max<int64_t>(1, shape[d] / ctas[d]));

  // One CTA tile: for each dimension, its registers, then lanes, then warps,
  // so that the product scales lanes above registers and warps above lanes.
  LinearLayout tile;
  for (unsigned d : params.order) {
    std::string name = getTensorDimName(d);
    if (d == broadcastDim) {
      tile *= LinearLayout::identity1D(int32_t(shape[d]), kRegisterDim, name);
      tile *= LinearLayout::zeros1D(params.threadsPerWarp[d], kLaneDim, name);
      tile *= LinearLayout::zeros1D(params.warpsPerCTA[d], kWarpDim, name);
      continue;
    }
    tile *=
        LinearLayout::identity1D(params.sizePerThread[d], kRegisterDim, name);
    tile *= LinearLayout::identity1D(params.threadsPerWarp[d], kLaneDim, name);
    tile *= LinearLayout::identity1D(params.warpsPerCTA[d], kWarpDim, name);
  }
  LinearLayout cta = fitToShape(tile, chunk, params.order);
  return placeInCluster(cta, shape, ctas, params.order, broadcastDim);
}

llvm::Error
mlir::tessera::verifyBlockedLayoutParams(ArrayRef<int64_t> shape,
                                         const BlockedLayoutParams &params) {
  if (llvm::Error err = checkShapeAndOrder(shape, params.order))
    return err;
  if (llvm::Error err =
          checkPerDim("sizePerThread", params.sizePerThread, shape.size()))
    return err;
  if (llvm::Error err =
          checkPerDim("threadsPerWarp", params.threadsPerWarp, shape.size()))
    return err;
  if (llvm::Error err =
          checkPerDim("warpsPerCTA", params.warpsPerCTA, shape.size()))
    return err;
  return checkPerDim("ctasPerCGA", params.ctasPerCGA, shape.size(),
                     /*allowEmpty=*/true);
}

LinearLayout
mlir::tessera::blockedToLinearLayout(ArrayRef<int64_t> shape,
                                     const BlockedLayoutParams &params) {
  checkOrDie("blockedToLinearLayout", verifyBlockedLayoutParams(shape, params));
  return buildDistributed(shape, params, std::nullopt);
}

LinearLayout mlir::tessera::blockedToLinearLayout(
    ArrayRef<int64_t> shape, ArrayRef<unsigned> sizePerThread,
    ArrayRef<unsigned> threadsPerWarp, ArrayRef<unsigned> warpsPerCTA,
    ArrayRef<unsigned> order, ArrayRef<unsigned> ctasPerCGA) {
  BlockedLayoutParams params;
  params.sizePerThread.assign(sizePerThread.begin(), sizePerThread.end());
  params.threadsPerWarp.assign(threadsPerWarp.begin(), threadsPerWarp.end());
  params.warpsPerCTA.assign(warpsPerCTA.begin(), warpsPerCTA.end());
  params.order.assign(order.begin(), order.end());
  params.ctasPerCGA.assign(ctasPerCGA.begin(), ctasPerCGA.end());
  return blockedToLinearLayout(shape, params);
}

LinearLayout mlir::tessera::sliceToLinearLayout(const LinearLayout &parent,
                                                unsigned dim) {
  unsigned rank = parent.getNumOutDims();
  if (dim >= rank)
    fatal("sliceToLinearLayout: dimension " + llvm::Twine(dim) +
          " out of range for " + parent.toString());
  SmallVector<StringRef, 4> kept = parent.getOutDimNames();
  kept.erase(kept.begin() + dim);
  LinearLayout sliced = parent.sublayout(parent.getInDimNames(), kept);
  if (sliced.hasInDim(kRegisterDim))
    sliced = sliced.removeZeroBasesAlongDim(kRegisterDim);

  // Renumber the remaining output dimensions dim0..dimN-2.
  SmallVector<std::string, 4> names = tensorDimNames(rank - 1);
  SmallVector<LinearLayout::NamedInt, 4> outs;
  for (auto [name, out] : llvm::zip_equal(names, sliced.getOutDims()))
    outs.emplace_back(name, out.second);
  return LinearLayout(LinearLayout::BasesT(sliced.getBases()), outs,
                      /*requireSurjective=*/false);
}

llvm::Error mlir::tessera::verifySwizzledSharedParams(
    ArrayRef<int64_t> shape, unsigned vec, unsigned perPhase, unsigned maxPhase,
    ArrayRef<unsigned> order, ArrayRef<unsigned> ctasPerCGA) {
  if (llvm::Error err = checkShapeAndOrder(shape, order))
    return err;
  if (!isPowerOf2(vec) || !isPowerOf2(perPhase) || !isPowerOf2(maxPhase))
    return makeError("vec (" + llvm::Twine(vec) + "), perPhase (" +
                     llvm::Twine(perPhase) + ") and maxPhase (" +
                     llvm::Twine(maxPhase) + ") must be powers of two");
  return checkPerDim("ctasPerCGA", ctasPerCGA, shape.size(),
                     /*allowEmpty=*/true);
}

LinearLayout mlir::tessera::swizzledSharedToLinearLayout(
    ArrayRef<int64_t> shape, unsigned vec, unsigned perPhase, unsigned maxPhase,
    ArrayRef<unsigned> order, ArrayRef<unsigned> ctasPerCGA,
    unsigned blockCols) {
  checkOrDie("swizzledSharedToLinearLayout",
             verifySwizzledSharedParams(shape, vec, perPhase, maxPhase, order,
                                        ctasPerCGA));
  if (blockCols != 0 && !isPowerOf2(blockCols))
    fatal("swizzledSharedToLinearLayout: blockCols (" + llvm::Twine(blockCols) +
          ") must be a power of two");
  size_t rank = shape.size();
  SmallVector<unsigned, 4> ctas = ctasOrOnes(ctasPerCGA, rank);
  SmallVector<int64_t, 4> chunk;
  for (unsigned d = 0; d < rank; ++d)
    chunk.push_back(std::max<int64_t>(1, shape[d] / ctas[d]));

  LinearLayout cta;
  if (rank == 1) {
    cta = LinearLayout::identity1D(int32_t(chunk[0]), kOffsetDim,
                                   getTensorDimName(0));
  } else {
    unsigned colDim = order[0], rowDim = order[1];
    int32_t numCols = int32_t(chunk[colDim]), numRows = int32_t(chunk[rowDim]);
    // A row of more than `blockCols` columns is cut into blocks, and each
    // block's column of the tile is stored whole before the next one.
    int32_t width =
        blockCols == 0 ? numCols : std::min<int32_t>(numCols, blockCols);
    int32_t groupSize = std::min<int32_t>(vec, width);
    // Bases are (row, col). The low offset bits walk a row (of a block);
    // the row bits also move the column by the row's phase, which is linear
    // in the row: it is a bit-field of it, and phase * vec wraps modulo the
    // row length. The block bits come last.
    SmallVector<LinearLayout::Basis> offsetBases;
    for (int32_t col = 1; col < width; col *= 2)
      offsetBases.push_back({0, col});
    for (int32_t row = 1; row < numRows; row *= 2) {
      int32_t phase = int32_t((row / perPhase) % maxPhase);
      offsetBases.push_back(
          {row, int32_t((int64_t(groupSize) * phase) % width)});
    }
    for (int32_t col = width; col < numCols; col *= 2)
      offsetBases.push_back({0, col});
    cta = LinearLayout({{kOffsetDim.str(), std::move(offsetBases)}},
                       {{getTensorDimName(rowDim), numRows},
                        {getTensorDimName(colDim), numCols}});
    for (unsigned d : llvm::drop_begin(order, 2))
      cta *= LinearLayout::identity1D(int32_t(chunk[d]), kOffsetDim,
                                      getTensorDimName(d));
  }
  return placeInCluster(cta, shape, ctas, order, std::nullopt);
}

LinearLayout mlir::tessera::identityStandardND(StringRef inDim,
                                               ArrayRef<int64_t> shape,
                                               ArrayRef<unsigned> order) {
  checkOrDie("identityStandardND", checkShapeAndOrder(shape, order));
  LinearLayout result;
  for (unsigned d : order)
    result *=
        LinearLayout::identity1D(int32_t(shape[d]), inDim, getTensorDimName(d));
  SmallVector<std::string, 4> names = tensorDimNames(shape.size());
  return result.transposeOuts(standardOrder(names));
}

LinearLayout mlir::tessera::dotOperandOfBlockedToLinearLayout(
    ArrayRef<int64_t> shape, const BlockedLayoutParams &parent,
    unsigned opIdx) {
  if (opIdx > 1 || shape.size() < 2)
    fatal("dotOperandOfBlockedToLinearLayout: operand " + llvm::Twine(opIdx) +
          " of rank " + llvm::Twine(shape.size()));
  checkOrDie("dotOperandOfBlockedToLinearLayout",
             verifyBlockedLayoutParams(shape, parent));
  unsigned kDim = opIdx == 0 ? shape.size() - 1 : shape.size() - 2;
  return buildDistributed(shape, parent, kDim);
}

SmallVector<LinearLayout::Basis>
mlir::tessera::getWarpGridBases(unsigned warpsM, unsigned warpsN,
                                int32_t mStride, int32_t nStride) {
  SmallVector<LinearLayout::Basis> bases;
  for (unsigned i = 0; (1u << i) < warpsM; ++i)
    bases.push_back({mStride << i, 0});
  for (unsigned i = 0; (1u << i) < warpsN; ++i)
    bases.push_back({0, nStride << i});
  return bases;
}

LinearLayout
mlir::tessera::tileMatrixLayout(SmallVector<LinearLayout::Basis> registers,
                                SmallVector<LinearLayout::Basis> lanes,
                                SmallVector<LinearLayout::Basis> warps,
                                std::array<int64_t, 2> shape,
                                std::array<unsigned, 2> repeatOrder) {
  using Basis = LinearLayout::Basis;
  std::array<int64_t, 2> covered = {1, 1};
  auto inside = [&](const Basis &basis) {
    return basis[0] < shape[0] && basis[1] < shape[1];
  };
  SmallVector<Basis> regs;
  for (const Basis &basis : registers)
    if (inside(basis))
      regs.push_back(basis);
  for (SmallVector<Basis> *bases : {&lanes, &warps})
    for (Basis &basis : *bases)
      if (!inside(basis))
        basis = {0, 0};
  for (const SmallVector<Basis> *bases : {&regs, &lanes, &warps})
    for (const Basis &basis : *bases)
      for (unsigned d = 0; d < 2; ++d)
        covered[d] = std::max<int64_t>(covered[d], 2 * int64_t(basis[d]));
  for (unsigned d : repeatOrder)
    for (int64_t step = covered[d]; step < shape[d]; step *= 2)
      regs.push_back(d == 0 ? Basis{int32_t(step), 0}
                            : Basis{0, int32_t(step)});
  LinearLayout::BasesT bases = {{kRegisterDim.str(), regs},
                                {kLaneDim.str(), lanes},
                                {kWarpDim.str(), warps},
                                {kBlockDim.str(), {}}};
  return LinearLayout(std::move(bases), {{"dim0", int32_t(shape[0])},
                                         {"dim1", int32_t(shape[1])}});
}

std::pair<int32_t, int32_t>
mlir::tessera::getRegisterOrigin(const LinearLayout &layout, int32_t reg) {
  auto out = layout.apply(
      {{kRegisterDim, reg}, {kLaneDim, 0}, {kWarpDim, 0}, {kBlockDim, 0}});
  return {out[0].second, out[1].second};
}
