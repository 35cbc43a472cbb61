//===- LinearLayout.cpp - Construction, queries and printing --------------===//
//
// The algebra (product, composition, inversion...) lives in
// LinearLayoutAlgebra.cpp and the reshaping operations in
// LinearLayoutShape.cpp.
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

std::string mlir::tessera::getTensorDimName(unsigned i) {
  return "dim" + std::to_string(i);
}

//===----------------------------------------------------------------------===//
// Construction
//===----------------------------------------------------------------------===//

LinearLayout::LinearLayout(BasesT bases, SmallVector<NamedIntOwned, 4> outDims,
                           UncheckedTag)
    : bases(std::move(bases)), outDims(std::move(outDims)) {
  // Internal operations produce well-formed bases by construction, but sizes
  // can still overflow (e.g. a product of two large layouts); that must not
  // silently wrap in the 64-bit flattened representation.
  for (const auto &[name, size] : this->outDims)
    if (!isPowerOf2(size) || llvm::Log2_64(size) > kMaxDimSizeLog2)
      fatal("output dimension '" + name + "' has invalid size " +
            llvm::Twine(size));
  for (const auto &[name, dimBases] : this->bases)
    if (dimBases.size() > kMaxDimSizeLog2)
      fatal("input dimension '" + name + "' is larger than 2^30");
  if (totalInLog2() > kMaxTotalSizeLog2 || totalOutLog2() > kMaxTotalSizeLog2)
    fatal("layout has more than 2^62 inputs or outputs");
}

LinearLayout::LinearLayout(BasesT bases, ArrayRef<NamedInt> outDims,
                           bool requireSurjective) {
  llvm::Expected<LinearLayout> layout =
      create(std::move(bases), outDims, requireSurjective);
  if (!layout)
    fatal(llvm::toString(layout.takeError()));
  *this = std::move(*layout);
}

static llvm::Error makeError(const llvm::Twine &msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), msg);
}

llvm::Expected<LinearLayout> LinearLayout::create(BasesT bases,
                                                  ArrayRef<NamedInt> outDims,
                                                  bool requireSurjective) {
  LinearLayout layout;
  layout.bases = std::move(bases);
  for (auto [name, size] : outDims)
    layout.outDims.emplace_back(name.str(), size);
  if (llvm::Error err = layout.verify(requireSurjective))
    return std::move(err);
  return layout;
}

llvm::Error LinearLayout::verify(bool requireSurjective) const {
  // Check sizes first: everything after flattens, which needs them valid.
  llvm::StringSet<> seen;
  for (const auto &[name, size] : outDims) {
    if (!seen.insert(name).second)
      return makeError("duplicate output dimension '" + name + "'");
    if (!isPowerOf2(size) || llvm::Log2_64(size) > kMaxDimSizeLog2)
      return makeError("output dimension '" + name + "' has size " +
                       llvm::Twine(size) +
                       ", expected a power of two no larger than 2^30");
  }
  seen.clear();
  for (const auto &[name, dimBases] : bases) {
    if (!seen.insert(name).second)
      return makeError("duplicate input dimension '" + name + "'");
    if (dimBases.size() > kMaxDimSizeLog2)
      return makeError("input dimension '" + name + "' has " +
                       llvm::Twine(dimBases.size()) +
                       " bases, more than the 30 allowed");
    for (auto [i, basis] : llvm::enumerate(dimBases)) {
      if (basis.size() != outDims.size())
        return makeError("basis " + llvm::Twine(i) + " of input dimension '" +
                         name + "' has " + llvm::Twine(basis.size()) +
                         " coordinates, expected one per output dimension (" +
                         llvm::Twine(outDims.size()) + ")");
      for (auto [coord, out] : llvm::zip_equal(basis, outDims))
        if (coord < 0 || coord >= out.second)
          return makeError("basis " + llvm::Twine(i) + " of input dimension '" +
                           name + "' has coordinate " + llvm::Twine(coord) +
                           " along output dimension '" + out.first +
                           "' of size " + llvm::Twine(out.second));
    }
  }
  if (totalInLog2() > kMaxTotalSizeLog2 || totalOutLog2() > kMaxTotalSizeLog2)
    return makeError("layout has more than 2^62 inputs or outputs");
  if (requireSurjective && !isSurjective())
    return makeError("layout is not surjective: its bases span 2^" +
                     llvm::Twine(getRank()) + " of the 2^" +
                     llvm::Twine(totalOutLog2()) +
                     " output elements: " + toString());
  return llvm::Error::success();
}

LinearLayout LinearLayout::withInferredOutSizes(BasesT bases,
                                                ArrayRef<std::string> outDims,
                                                bool requireSurjective) {
  // The XOR of coordinates below 2^k stays below 2^k, so the smallest power
  // of two above the largest coordinate is enough.
  SmallVector<int32_t, 4> sizes(outDims.size(), 1);
  for (const auto &[name, dimBases] : bases)
    for (const Basis &basis : dimBases)
      for (auto [o, coord] : llvm::enumerate(basis))
        if (o < sizes.size() && coord > 0)
          sizes[o] = std::max<int64_t>(sizes[o], llvm::PowerOf2Ceil(coord + 1));
  SmallVector<NamedInt, 4> outs;
  for (auto [name, size] : llvm::zip_equal(outDims, sizes))
    outs.emplace_back(name, size);
  return LinearLayout(std::move(bases), outs, requireSurjective);
}

LinearLayout LinearLayout::identity1D(int32_t size, StringRef inDim,
                                      StringRef outDim) {
  return strided1D(size, 1, inDim, outDim);
}

LinearLayout LinearLayout::strided1D(int32_t size, int32_t stride,
                                     StringRef inDim, StringRef outDim) {
  if (!isPowerOf2(size) || !isPowerOf2(stride))
    fatal("strided1D: size " + llvm::Twine(size) + " and stride " +
          llvm::Twine(stride) + " must be powers of two");
  BasesT bases(1, {inDim.str(), {}});
  for (int64_t v = stride; v < int64_t(size) * stride; v *= 2)
    bases[0].second.push_back({int32_t(v)});
  return LinearLayout(std::move(bases),
                      {{outDim.str(), int32_t(int64_t(size) * stride)}},
                      UncheckedTag{});
}

LinearLayout LinearLayout::zeros1D(int32_t size, StringRef inDim,
                                   StringRef outDim, int32_t outDimSize) {
  if (!isPowerOf2(size) || !isPowerOf2(outDimSize))
    fatal("zeros1D: sizes must be powers of two");
  BasesT bases(1, {inDim.str(), {}});
  bases[0].second.assign(llvm::Log2_32(size), Basis{0});
  return LinearLayout(std::move(bases), {{outDim.str(), outDimSize}},
                      UncheckedTag{});
}

//===----------------------------------------------------------------------===//
// Queries
//===----------------------------------------------------------------------===//

std::optional<unsigned> LinearLayout::findInDim(StringRef name) const {
  for (auto [i, dim] : llvm::enumerate(bases))
    if (dim.first == name)
      return i;
  return std::nullopt;
}

std::optional<unsigned> LinearLayout::findOutDim(StringRef name) const {
  for (auto [i, dim] : llvm::enumerate(outDims))
    if (dim.first == name)
      return i;
  return std::nullopt;
}

unsigned LinearLayout::inDimIndex(StringRef name) const {
  if (std::optional<unsigned> i = findInDim(name))
    return *i;
  fatal("no input dimension '" + name + "' in " + toString());
}

unsigned LinearLayout::outDimIndex(StringRef name) const {
  if (std::optional<unsigned> i = findOutDim(name))
    return *i;
  fatal("no output dimension '" + name + "' in " + toString());
}

unsigned LinearLayout::outLog2(unsigned outIdx) const {
  return llvm::Log2_32(outDims[outIdx].second);
}

unsigned LinearLayout::totalInLog2() const {
  unsigned total = 0;
  for (const auto &dim : bases)
    total += dim.second.size();
  return total;
}

unsigned LinearLayout::totalOutLog2() const {
  unsigned total = 0;
  for (unsigned o = 0, e = outDims.size(); o < e; ++o)
    total += outLog2(o);
  return total;
}

SmallVector<StringRef, 4> LinearLayout::getInDimNames() const {
  return llvm::map_to_vector<4>(
      bases, [](const DimBases &dim) -> StringRef { return dim.first; });
}

SmallVector<StringRef, 4> LinearLayout::getOutDimNames() const {
  return llvm::map_to_vector<4>(
      outDims, [](const NamedIntOwned &dim) -> StringRef { return dim.first; });
}

SmallVector<LinearLayout::NamedInt, 4> LinearLayout::getInDims() const {
  return llvm::map_to_vector<4>(bases, [](const DimBases &dim) {
    return NamedInt(dim.first, int32_t(1) << dim.second.size());
  });
}

SmallVector<LinearLayout::NamedInt, 4> LinearLayout::getOutDims() const {
  return llvm::map_to_vector<4>(outDims, [](const NamedIntOwned &dim) {
    return NamedInt(dim.first, dim.second);
  });
}

bool LinearLayout::hasInDim(StringRef name) const {
  return findInDim(name).has_value();
}

bool LinearLayout::hasOutDim(StringRef name) const {
  return findOutDim(name).has_value();
}

int32_t LinearLayout::getInDimSize(StringRef name) const {
  return int32_t(1) << getInDimSizeLog2(name);
}

unsigned LinearLayout::getInDimSizeLog2(StringRef name) const {
  return bases[inDimIndex(name)].second.size();
}

int32_t LinearLayout::getOutDimSize(StringRef name) const {
  return outDims[outDimIndex(name)].second;
}

unsigned LinearLayout::getOutDimSizeLog2(StringRef name) const {
  return outLog2(outDimIndex(name));
}

ArrayRef<LinearLayout::Basis> LinearLayout::getBases(StringRef inDim) const {
  return bases[inDimIndex(inDim)].second;
}

ArrayRef<int32_t> LinearLayout::getBasis(StringRef inDim, unsigned i) const {
  ArrayRef<Basis> dimBases = getBases(inDim);
  if (i >= dimBases.size())
    fatal("input dimension '" + inDim + "' has no basis " + llvm::Twine(i));
  return dimBases[i];
}

int32_t LinearLayout::getBasis(StringRef inDim, unsigned i,
                               StringRef outDim) const {
  return getBasis(inDim, i)[outDimIndex(outDim)];
}

uint64_t LinearLayout::flattenOut(ArrayRef<int32_t> basis) const {
  uint64_t flat = 0;
  for (unsigned o = 0, e = outDims.size(); o < e; ++o)
    flat = (flat << outLog2(o)) | uint64_t(basis[o]);
  return flat;
}

LinearLayout::Basis LinearLayout::unflattenOut(uint64_t flat) const {
  Basis basis(outDims.size(), 0);
  for (unsigned o = outDims.size(); o-- > 0;) {
    basis[o] = int32_t(flat & uint64_t(outDims[o].second - 1));
    flat >>= outLog2(o);
  }
  return basis;
}

SmallVector<uint64_t, 32> LinearLayout::flatBases() const {
  SmallVector<uint64_t, 32> flat;
  for (const auto &dim : bases)
    for (const Basis &basis : dim.second)
      flat.push_back(flattenOut(basis));
  return flat;
}

unsigned LinearLayout::getRank() const {
  GF2Echelon echelon;
  for (uint64_t v : flatBases())
    echelon.insert(v, 0);
  return echelon.rank();
}

bool LinearLayout::isSurjective() const { return getRank() == totalOutLog2(); }

bool LinearLayout::isInjective() const { return getRank() == totalInLog2(); }

bool LinearLayout::isTrivialOver(ArrayRef<StringRef> dims) const {
  auto inDims = [&](StringRef name) { return llvm::is_contained(dims, name); };
  for (StringRef d : dims) {
    std::optional<unsigned> in = findInDim(d), out = findOutDim(d);
    unsigned inLog2 = in ? bases[*in].second.size() : 0;
    unsigned outSizeLog2 = out ? outLog2(*out) : 0;
    if (inLog2 != outSizeLog2)
      return false;
    if (!in)
      continue;
    for (auto [i, basis] : llvm::enumerate(bases[*in].second))
      for (auto [o, coord] : llvm::enumerate(basis))
        if (coord != (o == *out ? int32_t(1) << i : 0))
          return false;
  }
  for (const auto &[name, dimBases] : bases) {
    if (inDims(name))
      continue;
    for (const Basis &basis : dimBases)
      for (auto [o, coord] : llvm::enumerate(basis))
        if (coord != 0 && inDims(outDims[o].first))
          return false;
  }
  return true;
}

bool LinearLayout::operator==(const LinearLayout &other) const {
  return bases == other.bases && outDims == other.outDims;
}

void LinearLayout::print(llvm::raw_ostream &os) const {
  os << '{';
  llvm::interleaveComma(bases, os, [&](const DimBases &dim) {
    os << dim.first << " = [";
    llvm::interleaveComma(dim.second, os, [&](const Basis &basis) {
      os << '[';
      llvm::interleaveComma(basis, os);
      os << ']';
    });
    os << ']';
  });
  os << "} -> {";
  llvm::interleaveComma(outDims, os, [&](const NamedIntOwned &dim) {
    os << dim.first << " = " << dim.second;
  });
  os << '}';
}

std::string LinearLayout::toString() const {
  std::string result;
  llvm::raw_string_ostream os(result);
  print(os);
  return result;
}

//===----------------------------------------------------------------------===//
// Applying the map
//===----------------------------------------------------------------------===//

SmallVector<LinearLayout::NamedIntOwned, 4>
LinearLayout::apply(ArrayRef<NamedInt> ins) const {
  if (ins.size() != bases.size())
    fatal("apply: expected one value per input dimension of " + toString());
  Basis result(outDims.size(), 0);
  SmallVector<bool, 4> given(bases.size(), false);
  for (auto [name, value] : ins) {
    unsigned i = inDimIndex(name);
    const auto &dimBases = bases[i].second;
    if (given[i] || value < 0 || value >= (int64_t(1) << dimBases.size()))
      fatal("apply: input '" + name + "' given twice or out of range");
    given[i] = true;
    for (auto [bit, basis] : llvm::enumerate(dimBases))
      if (value & (int32_t(1) << bit))
        for (auto [r, coord] : llvm::zip_equal(result, basis))
          r ^= coord;
  }
  SmallVector<NamedIntOwned, 4> outs;
  for (auto [dim, coord] : llvm::zip_equal(outDims, result))
    outs.emplace_back(dim.first, coord);
  return outs;
}

int64_t LinearLayout::applyFlat(int64_t flatIn) const {
  if (flatIn < 0 || flatIn >= getTotalInDimSize())
    fatal("applyFlat: input " + llvm::Twine(flatIn) + " out of range");
  uint64_t out = 0;
  for (auto [bit, v] : llvm::enumerate(flatBases()))
    if (uint64_t(flatIn) & (uint64_t(1) << bit))
      out ^= v;
  return int64_t(out);
}
