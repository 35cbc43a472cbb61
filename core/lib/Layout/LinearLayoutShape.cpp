//===- LinearLayoutShape.cpp - Reordering, reshaping and restricting ------===//
//
// Operations that change how the dimensions of a layout are named, ordered,
// sized or split, without solving anything.
//
//===----------------------------------------------------------------------===//

#include "tessera/Layout/LinearLayout.h"

#include "LayoutDetail.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVectorExtras.h"
#include "llvm/ADT/StringSet.h"

using namespace mlir::tessera;
using namespace mlir::tessera::detail;
using llvm::ArrayRef;
using llvm::SmallVector;
using llvm::StringRef;

/// Aborts unless \p dims are valid new dimensions: unique names and power-of-
/// two sizes whose log2 add up to \p totalLog2.
static void checkNewDims(StringRef what, ArrayRef<LinearLayout::NamedInt> dims,
                         unsigned totalLog2) {
  llvm::StringSet<> seen;
  unsigned log2Sum = 0;
  for (auto [name, size] : dims) {
    if (!seen.insert(name).second)
      fatal(what + ": duplicate dimension '" + name + "'");
    if (!isPowerOf2(size) || llvm::Log2_64(size) > kMaxDimSizeLog2)
      fatal(what + ": dimension '" + name + "' has invalid size " +
            llvm::Twine(size));
    log2Sum += llvm::Log2_32(size);
  }
  if (log2Sum != totalLog2)
    fatal(what + ": the new dimensions have 2^" + llvm::Twine(log2Sum) +
          " elements, expected 2^" + llvm::Twine(totalLog2));
}

/// The indices in \p names of the permutation \p newOrder; aborts unless it is
/// one.
static SmallVector<unsigned, 4> getPermutation(StringRef what,
                                               ArrayRef<StringRef> names,
                                               ArrayRef<StringRef> newOrder) {
  SmallVector<unsigned, 4> perm;
  if (newOrder.size() == names.size()) {
    for (StringRef name : newOrder) {
      const auto *it = llvm::find(names, name);
      unsigned idx = it - names.begin();
      if (it == names.end() || llvm::is_contained(perm, idx))
        break;
      perm.push_back(idx);
    }
  }
  if (perm.size() != names.size())
    fatal(what + ": the new order is not a permutation of the dimensions");
  return perm;
}

LinearLayout LinearLayout::transposeIns(ArrayRef<StringRef> newOrder) const {
  SmallVector<unsigned, 4> perm =
      getPermutation("transposeIns", getInDimNames(), newOrder);
  BasesT result;
  for (unsigned i : perm)
    result.push_back(bases[i]);
  return LinearLayout(std::move(result), outDims, UncheckedTag{});
}

LinearLayout LinearLayout::transposeOuts(ArrayRef<StringRef> newOrder) const {
  SmallVector<unsigned, 4> perm =
      getPermutation("transposeOuts", getOutDimNames(), newOrder);
  SmallVector<NamedIntOwned, 4> outs;
  for (unsigned o : perm)
    outs.push_back(outDims[o]);
  BasesT result;
  for (const auto &[name, dimBases] : bases) {
    auto &dim = result.emplace_back(name, SmallVector<Basis>{});
    for (const Basis &basis : dimBases)
      dim.second.push_back(
          llvm::map_to_vector<4>(perm, [&](unsigned o) { return basis[o]; }));
  }
  return LinearLayout(std::move(result), std::move(outs), UncheckedTag{});
}

LinearLayout LinearLayout::reshapeIns(ArrayRef<NamedInt> newIns) const {
  checkNewDims("reshapeIns", newIns, totalInLog2());
  // The flattened input lists the bases of the first dimension first, so
  // splitting that list in order is exactly the reshape.
  SmallVector<Basis, 32> flat;
  for (const auto &dim : bases)
    llvm::append_range(flat, dim.second);
  BasesT result;
  ArrayRef<Basis> rest(flat);
  for (auto [name, size] : newIns) {
    unsigned n = llvm::Log2_32(size);
    result.emplace_back(name.str(), SmallVector<Basis>(rest.take_front(n)));
    rest = rest.drop_front(n);
  }
  return LinearLayout(std::move(result), outDims, UncheckedTag{});
}

LinearLayout LinearLayout::reshapeOuts(ArrayRef<NamedInt> newOuts) const {
  checkNewDims("reshapeOuts", newOuts, totalOutLog2());
  SmallVector<NamedIntOwned, 4> outs;
  for (auto [name, size] : newOuts)
    outs.emplace_back(name.str(), size);
  LinearLayout result({}, std::move(outs), UncheckedTag{});
  for (const auto &[name, dimBases] : bases) {
    auto &dim = result.bases.emplace_back(name, SmallVector<Basis>{});
    for (const Basis &basis : dimBases)
      dim.second.push_back(result.unflattenOut(flattenOut(basis)));
  }
  return result;
}

LinearLayout LinearLayout::flattenIns() const {
  if (bases.empty())
    return *this;
  if (totalInLog2() > kMaxDimSizeLog2)
    fatal("flattenIns: more than 2^30 inputs");
  return reshapeIns({{bases.front().first, int32_t(getTotalInDimSize())}});
}

LinearLayout LinearLayout::flattenOuts() const {
  if (outDims.empty())
    return *this;
  if (totalOutLog2() > kMaxDimSizeLog2)
    fatal("flattenOuts: more than 2^30 outputs");
  return reshapeOuts({{outDims.front().first, int32_t(getTotalOutDimSize())}});
}

LinearLayout LinearLayout::sublayout(ArrayRef<StringRef> inDims,
                                     ArrayRef<StringRef> outDimNames) const {
  for (StringRef name : inDims)
    (void)inDimIndex(name);
  SmallVector<unsigned, 4> keptOuts;
  for (StringRef name : outDimNames)
    (void)outDimIndex(name);
  SmallVector<NamedIntOwned, 4> outs;
  for (auto [o, dim] : llvm::enumerate(outDims)) {
    if (!llvm::is_contained(outDimNames, dim.first))
      continue;
    keptOuts.push_back(o);
    outs.push_back(dim);
  }
  BasesT result;
  for (const auto &[name, dimBases] : bases) {
    if (!llvm::is_contained(inDims, name))
      continue;
    auto &dim = result.emplace_back(name, SmallVector<Basis>{});
    for (const Basis &basis : dimBases)
      dim.second.push_back(llvm::map_to_vector<4>(
          keptOuts, [&](unsigned o) { return basis[o]; }));
  }
  return LinearLayout(std::move(result), std::move(outs), UncheckedTag{});
}

bool LinearLayout::sublayoutIsZero(ArrayRef<StringRef> inDims,
                                   ArrayRef<StringRef> outDimNames) const {
  for (const auto &[name, dimBases] : bases) {
    if (!llvm::is_contained(inDims, name))
      continue;
    for (const Basis &basis : dimBases)
      for (auto [coord, out] : llvm::zip_equal(basis, outDims))
        if (coord != 0 && llvm::is_contained(outDimNames, out.first))
          return false;
  }
  return true;
}

LinearLayout LinearLayout::resizeInDim(StringRef inDim, int32_t newSize) const {
  if (!isPowerOf2(newSize))
    fatal("resizeInDim: size " + llvm::Twine(newSize) +
          " is not a power of two");
  BasesT result = bases;
  result[inDimIndex(inDim)].second.resize(llvm::Log2_32(newSize),
                                          Basis(outDims.size(), 0));
  return LinearLayout(std::move(result), outDims, UncheckedTag{});
}

LinearLayout LinearLayout::resizeOutDim(StringRef outDim,
                                        int32_t newSize) const {
  if (!isPowerOf2(newSize))
    fatal("resizeOutDim: size " + llvm::Twine(newSize) +
          " is not a power of two");
  unsigned o = outDimIndex(outDim);
  SmallVector<NamedIntOwned, 4> outs = outDims;
  outs[o].second = newSize;
  BasesT result = bases;
  for (auto &dim : result)
    for (Basis &basis : dim.second)
      basis[o] &= newSize - 1;
  return LinearLayout(std::move(result), std::move(outs), UncheckedTag{});
}

LinearLayout LinearLayout::renameInDim(StringRef from, StringRef to) const {
  unsigned i = inDimIndex(from);
  if (from != to && hasInDim(to))
    fatal("renameInDim: input dimension '" + to + "' exists already");
  LinearLayout result = *this;
  result.bases[i].first = to.str();
  return result;
}

LinearLayout LinearLayout::renameOutDim(StringRef from, StringRef to) const {
  unsigned o = outDimIndex(from);
  if (from != to && hasOutDim(to))
    fatal("renameOutDim: output dimension '" + to + "' exists already");
  LinearLayout result = *this;
  result.outDims[o].first = to.str();
  return result;
}

LinearLayout LinearLayout::concatIns(const LinearLayout &other) const {
  // other's coordinates, reordered to this layout's output order.
  SmallVector<unsigned, 4> fromOther;
  if (other.outDims.size() == outDims.size())
    for (const auto &[name, size] : outDims)
      if (std::optional<unsigned> o = other.findOutDim(name);
          o && other.outDims[*o].second == size)
        fromOther.push_back(*o);
  if (fromOther.size() != outDims.size())
    fatal("concatIns: " + toString() + " and " + other.toString() +
          " have different output dimensions");
  BasesT result = bases;
  for (const auto &[name, dimBases] : other.bases) {
    if (hasInDim(name))
      fatal("concatIns: input dimension '" + name + "' is in both layouts");
    auto &dim = result.emplace_back(name, SmallVector<Basis>{});
    for (const Basis &basis : dimBases)
      dim.second.push_back(llvm::map_to_vector<4>(
          fromOther, [&](unsigned o) { return basis[o]; }));
  }
  return LinearLayout(std::move(result), outDims, UncheckedTag{});
}

LinearLayout LinearLayout::concatOuts(const LinearLayout &other) const {
  if (other.bases.size() != bases.size())
    fatal("concatOuts: " + toString() + " and " + other.toString() +
          " have different input dimensions");
  SmallVector<NamedIntOwned, 4> outs = outDims;
  for (const auto &out : other.outDims) {
    if (hasOutDim(out.first))
      fatal("concatOuts: output dimension '" + out.first +
            "' is in both layouts");
    outs.push_back(out);
  }
  BasesT result = bases;
  for (auto &[name, dimBases] : result) {
    std::optional<unsigned> i = other.findInDim(name);
    if (!i || other.bases[*i].second.size() != dimBases.size())
      fatal("concatOuts: input dimension '" + name + "' differs in " +
            other.toString());
    for (auto [basis, otherBasis] :
         llvm::zip_equal(dimBases, other.bases[*i].second))
      llvm::append_range(basis, otherBasis);
  }
  return LinearLayout(std::move(result), std::move(outs), UncheckedTag{});
}

LinearLayout LinearLayout::removeZeroBasesAlongDim(StringRef inDim) const {
  BasesT result = bases;
  llvm::erase_if(result[inDimIndex(inDim)].second, [](const Basis &basis) {
    return llvm::all_of(basis, [](int32_t coord) { return coord == 0; });
  });
  return LinearLayout(std::move(result), outDims, UncheckedTag{});
}
