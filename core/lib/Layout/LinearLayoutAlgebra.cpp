//===- LinearLayoutAlgebra.cpp - Products, compositions and inverses ------===//
//
// The operations that need linear algebra over GF(2). Vectors are handled in
// their flattened form (LinearLayout::flattenOut), where XOR of flattened
// vectors is the flattening of the per-dimension XOR because every size is a
// power of two.
//
//===----------------------------------------------------------------------===//

#include "tessera/Layout/LinearLayout.h"

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

static std::string basisToString(ArrayRef<int32_t> basis) {
  std::string result;
  llvm::raw_string_ostream os(result);
  os << '[';
  llvm::interleaveComma(basis, os);
  os << ']';
  return result;
}

LinearLayout mlir::tessera::operator*(const LinearLayout &lhs,
                                      const LinearLayout &rhs) {
  using Basis = LinearLayout::Basis;
  SmallVector<LinearLayout::NamedIntOwned, 4> outs = lhs.outDims;
  // Where each output dimension of rhs goes, and by how many bits its
  // coordinates move up to lie above lhs's.
  SmallVector<unsigned, 4> rhsOutIdx, rhsShift;
  for (const auto &[name, size] : rhs.outDims) {
    if (std::optional<unsigned> o = lhs.findOutDim(name)) {
      rhsOutIdx.push_back(*o);
      rhsShift.push_back(lhs.outLog2(*o));
      int64_t product = int64_t(outs[*o].second) * size;
      if (product > (int64_t(1) << kMaxDimSizeLog2))
        fatal("product: output dimension '" + name + "' exceeds 2^30");
      outs[*o].second = int32_t(product);
    } else {
      rhsOutIdx.push_back(outs.size());
      rhsShift.push_back(0);
      outs.emplace_back(name, size);
    }
  }

  LinearLayout::BasesT bases;
  for (const auto &[name, dimBases] : lhs.bases) {
    auto &dim = bases.emplace_back(name, SmallVector<Basis>{});
    for (const Basis &basis : dimBases) {
      Basis widened(outs.size(), 0);
      llvm::copy(basis, widened.begin());
      dim.second.push_back(std::move(widened));
    }
  }
  for (const auto &[name, dimBases] : rhs.bases) {
    auto it = llvm::find_if(bases, [&](const LinearLayout::DimBases &d) {
      return d.first == name;
    });
    if (it == bases.end()) {
      bases.emplace_back(name, SmallVector<Basis>{});
      it = std::prev(bases.end());
    }
    for (const Basis &basis : dimBases) {
      Basis widened(outs.size(), 0);
      for (auto [j, coord] : llvm::enumerate(basis))
        widened[rhsOutIdx[j]] = coord << rhsShift[j];
      it->second.push_back(std::move(widened));
    }
  }
  return LinearLayout(std::move(bases), std::move(outs),
                      LinearLayout::UncheckedTag{});
}

LinearLayout LinearLayout::compose(const LinearLayout &outer) const {
  // Bit offset of each of outer's input dimensions in its flattened input.
  SmallVector<unsigned, 4> outerInShift;
  unsigned shift = 0;
  for (const auto &dim : outer.bases) {
    outerInShift.push_back(shift);
    shift += dim.second.size();
  }
  SmallVector<std::optional<unsigned>, 4> toOuterIn;
  for (auto [o, dim] : llvm::enumerate(outDims)) {
    std::optional<unsigned> i = outer.findInDim(dim.first);
    if (!i && dim.second != 1)
      fatal("compose: output dimension '" + dim.first + "' of " + toString() +
            " is not an input dimension of " + outer.toString());
    if (i && outer.bases[*i].second.size() < outLog2(o))
      fatal("compose: input dimension '" + dim.first + "' of " +
            outer.toString() + " is smaller than the output dimension of " +
            toString());
    toOuterIn.push_back(i);
  }

  SmallVector<uint64_t, 32> outerFlat = outer.flatBases();
  BasesT result;
  for (const auto &[name, dimBases] : bases) {
    auto &dim = result.emplace_back(name, SmallVector<Basis>{});
    for (const Basis &basis : dimBases) {
      uint64_t flatIn = 0;
      for (auto [coord, i] : llvm::zip_equal(basis, toOuterIn))
        if (i)
          flatIn |= uint64_t(coord) << outerInShift[*i];
      uint64_t flatOut = 0;
      for (auto [bit, v] : llvm::enumerate(outerFlat))
        if (flatIn & (uint64_t(1) << bit))
          flatOut ^= v;
      dim.second.push_back(outer.unflattenOut(flatOut));
    }
  }
  return LinearLayout(std::move(result), outer.outDims, UncheckedTag{});
}

llvm::Expected<LinearLayout>
LinearLayout::tryInvertAndCompose(const LinearLayout &outer) const {
  SmallVector<std::optional<unsigned>, 4> toOuterOut;
  for (const auto &[name, size] : outDims) {
    std::optional<unsigned> j = outer.findOutDim(name);
    if (!j && size != 1)
      return makeError("invertAndCompose: output dimension '" + name + "' of " +
                       toString() + " is not an output dimension of " +
                       outer.toString());
    toOuterOut.push_back(j);
  }

  // Tag outer's k-th flattened basis with bit k: solving then yields the
  // flattened input of outer directly. Dependent bases of outer are rejected
  // by insert(), so they (its free variables) always come out as zero.
  GF2Echelon echelon;
  for (auto [k, v] : llvm::enumerate(outer.flatBases()))
    echelon.insert(v, uint64_t(1) << k);

  BasesT result;
  for (const auto &[name, dimBases] : bases) {
    auto &dim = result.emplace_back(name, SmallVector<Basis>{});
    for (auto [i, basis] : llvm::enumerate(dimBases)) {
      Basis target(outer.outDims.size(), 0);
      bool inRange = true;
      for (auto [coord, j] : llvm::zip_equal(basis, toOuterOut)) {
        if (!j)
          continue; // A missing output dimension has size 1: coord is 0.
        inRange &= coord < outer.outDims[*j].second;
        target[*j] = coord;
      }
      std::optional<uint64_t> flatIn;
      if (inRange)
        flatIn = echelon.solve(outer.flattenOut(target));
      if (!flatIn)
        return makeError("invertAndCompose: basis " + llvm::Twine(i) +
                         " of input dimension '" + name + "' of " + toString() +
                         " maps to " + basisToString(basis) +
                         ", which is not in the image of " + outer.toString());
      Basis coords;
      for (const auto &outerDim : outer.bases) {
        unsigned width = outerDim.second.size();
        coords.push_back(int32_t(*flatIn & ((uint64_t(1) << width) - 1)));
        *flatIn >>= width;
      }
      dim.second.push_back(std::move(coords));
    }
  }
  SmallVector<NamedIntOwned, 4> outs;
  for (const auto &[name, dimBases] : outer.bases)
    outs.emplace_back(name, int32_t(1) << dimBases.size());
  return LinearLayout(std::move(result), std::move(outs), UncheckedTag{});
}

LinearLayout LinearLayout::invertAndCompose(const LinearLayout &outer) const {
  llvm::Expected<LinearLayout> result = tryInvertAndCompose(outer);
  if (!result)
    fatal(llvm::toString(result.takeError()));
  return std::move(*result);
}

/// The identity over the output dimensions of \p layout, in its order.
static LinearLayout identityOverOuts(const LinearLayout &layout) {
  LinearLayout identity;
  for (auto [name, size] : layout.getOutDims())
    identity *= LinearLayout::identity1D(size, name, name);
  return identity;
}

llvm::Expected<LinearLayout> LinearLayout::tryInvert() const {
  if (!isInvertible())
    return makeError("invert: layout is not invertible: " + toString());
  return identityOverOuts(*this).tryInvertAndCompose(*this);
}

LinearLayout LinearLayout::invert() const {
  llvm::Expected<LinearLayout> result = tryInvert();
  if (!result)
    fatal(llvm::toString(result.takeError()));
  return std::move(*result);
}

llvm::Expected<LinearLayout> LinearLayout::tryPseudoinvert() const {
  if (!isSurjective())
    return makeError("pseudoinvert: layout is not surjective: " + toString());
  return identityOverOuts(*this).tryInvertAndCompose(*this);
}

LinearLayout LinearLayout::pseudoinvert() const {
  llvm::Expected<LinearLayout> result = tryPseudoinvert();
  if (!result)
    fatal(llvm::toString(result.takeError()));
  return std::move(*result);
}

SmallVector<LinearLayout::NamedIntOwned, 4>
LinearLayout::getFreeVariableMasks() const {
  GF2Echelon echelon;
  SmallVector<NamedIntOwned, 4> masks;
  for (const auto &[name, dimBases] : bases) {
    int32_t mask = 0;
    for (auto [i, basis] : llvm::enumerate(dimBases))
      if (!echelon.insert(flattenOut(basis), 0))
        mask |= int32_t(1) << i;
    masks.emplace_back(name, mask);
  }
  return masks;
}

int32_t LinearLayout::getNumConsecutiveInOut() const {
  if (bases.empty() || outDims.empty())
    return 1;
  unsigned k = 0;
  for (const Basis &basis : bases.front().second) {
    if (flattenOut(basis) != (uint64_t(1) << k))
      break;
    ++k;
  }
  return int32_t(1) << k;
}

std::optional<LinearLayout>
LinearLayout::divideLeft(const LinearLayout &divisor) const {
  // Per output dimension of this: the divisor's size along it (1 if absent).
  SmallVector<int32_t, 4> divSize(outDims.size(), 1);
  SmallVector<std::optional<unsigned>, 4> divToThis;
  for (const auto &[name, size] : divisor.outDims) {
    std::optional<unsigned> o = findOutDim(name);
    if (!o ? size != 1 : size > outDims[*o].second)
      return std::nullopt;
    if (o)
      divSize[*o] = size;
    divToThis.push_back(o);
  }
  for (const auto &[name, dimBases] : divisor.bases)
    if (!findInDim(name) && !dimBases.empty())
      return std::nullopt;

  BasesT quotient;
  for (const auto &[name, dimBases] : bases) {
    ArrayRef<Basis> low;
    if (std::optional<unsigned> d = divisor.findInDim(name))
      low = divisor.bases[*d].second;
    if (low.size() > dimBases.size())
      return std::nullopt;
    // The lowest bits must be exactly the divisor's.
    for (auto [lowBasis, basis] : llvm::zip(low, dimBases)) {
      Basis expected(outDims.size(), 0);
      for (auto [coord, o] : llvm::zip_equal(lowBasis, divToThis))
        if (o)
          expected[*o] = coord;
      if (basis != expected)
        return std::nullopt;
    }
    // The others must lie above the divisor along every output dimension.
    auto &dim = quotient.emplace_back(name, SmallVector<Basis>{});
    for (const Basis &basis : ArrayRef(dimBases).drop_front(low.size())) {
      Basis scaled(basis);
      for (auto [coord, size] : llvm::zip_equal(scaled, divSize)) {
        if (coord % size != 0)
          return std::nullopt;
        coord /= size;
      }
      dim.second.push_back(std::move(scaled));
    }
  }
  SmallVector<NamedIntOwned, 4> outs = outDims;
  for (auto [out, size] : llvm::zip_equal(outs, divSize))
    out.second /= size;
  return LinearLayout(std::move(quotient), std::move(outs), UncheckedTag{});
}

std::optional<LinearLayout>
LinearLayout::divideRight(const LinearLayout &divisor) const {
  // Per output dimension of this: the quotient's size along it, which is the
  // factor scaling the divisor's coordinates.
  SmallVector<NamedIntOwned, 4> outs = outDims;
  SmallVector<std::optional<unsigned>, 4> divToThis;
  for (const auto &[name, size] : divisor.outDims) {
    std::optional<unsigned> o = findOutDim(name);
    if (!o ? size != 1 : size > outDims[*o].second)
      return std::nullopt;
    if (o)
      outs[*o].second /= size;
    divToThis.push_back(o);
  }
  for (const auto &[name, dimBases] : divisor.bases)
    if (!findInDim(name) && !dimBases.empty())
      return std::nullopt;

  BasesT quotient;
  for (const auto &[name, dimBases] : bases) {
    ArrayRef<Basis> high;
    if (std::optional<unsigned> d = divisor.findInDim(name))
      high = divisor.bases[*d].second;
    if (high.size() > dimBases.size())
      return std::nullopt;
    unsigned numLow = dimBases.size() - high.size();
    // The lowest bits belong to the quotient: they must stay below the
    // divisor's part of every output dimension.
    auto &dim = quotient.emplace_back(name, SmallVector<Basis>{});
    for (const Basis &basis : ArrayRef(dimBases).take_front(numLow)) {
      for (auto [coord, out] : llvm::zip_equal(basis, outs))
        if (coord >= out.second)
          return std::nullopt;
      dim.second.push_back(basis);
    }
    // The highest bits must be the divisor's, scaled above the quotient.
    for (auto [highBasis, basis] :
         llvm::zip(high, ArrayRef(dimBases).drop_front(numLow))) {
      Basis expected(outDims.size(), 0);
      for (auto [coord, o] : llvm::zip_equal(highBasis, divToThis))
        if (o)
          expected[*o] = coord * outs[*o].second;
      if (basis != expected)
        return std::nullopt;
    }
  }
  return LinearLayout(std::move(quotient), std::move(outs), UncheckedTag{});
}
