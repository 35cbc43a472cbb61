//===- Attrs.cpp - Layout attributes of tessera_gpu and their LinearLayouts
//===//
#include "tessera/Dialect/TesseraGPU/IR/Dialect.h"
#include "tessera/Layout/LayoutConversions.h"

#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::tessera;
using namespace mlir::tessera::gpu;

#include "tessera/Dialect/TesseraGPU/IR/TesseraGPUAttrInterfaces.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "tessera/Dialect/TesseraGPU/IR/TesseraGPUAttrs.cpp.inc"

void TesseraGPUDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "tessera/Dialect/TesseraGPU/IR/TesseraGPUAttrs.cpp.inc"
      >();
}

namespace {
bool isPermutation(ArrayRef<unsigned> order) {
  SmallVector<bool> seen(order.size(), false);
  for (unsigned d : order) {
    if (d >= order.size() || seen[d])
      return false;
    seen[d] = true;
  }
  return true;
}

bool allPowersOfTwo(ArrayRef<unsigned> values) {
  return llvm::all_of(
      values, [](unsigned v) { return v > 0 && llvm::isPowerOf2_32(v); });
}

/// Shapes the layouts apply to: every dimension a power of two.
LogicalResult verifyShape(ArrayRef<int64_t> shape, unsigned rank,
                          function_ref<InFlightDiagnostic()> emitError) {
  if (shape.size() != rank)
    return emitError() << "layout of rank " << rank
                       << " applied to a tensor of rank " << shape.size();
  for (int64_t d : shape)
    if (d <= 0 || !llvm::isPowerOf2_64(d))
      return emitError() << "laid-out tensors need power-of-two dimensions, "
                            "got "
                         << d;
  return success();
}

/// Splits flattened bases (`rank` coordinates each) into a basis list.
SmallVector<LinearLayout::Basis> unflattenBases(ArrayRef<int32_t> flat,
                                                unsigned rank) {
  SmallVector<LinearLayout::Basis> bases;
  if (rank == 0)
    return bases;
  for (size_t i = 0; i + rank <= flat.size(); i += rank)
    bases.emplace_back(flat.begin() + i, flat.begin() + i + rank);
  return bases;
}

SmallVector<int32_t> flattenBases(ArrayRef<LinearLayout::Basis> bases) {
  SmallVector<int32_t> flat;
  for (const auto &b : bases)
    flat.append(b.begin(), b.end());
  return flat;
}

SmallVector<LinearLayout::NamedInt>
outDimsForShape(ArrayRef<int64_t> shape, SmallVectorImpl<std::string> &names) {
  names.clear();
  for (unsigned i = 0; i < shape.size(); ++i)
    names.push_back(getTensorDimName(i));
  SmallVector<LinearLayout::NamedInt> outDims;
  for (unsigned i = 0; i < shape.size(); ++i)
    outDims.push_back({names[i], int32_t(shape[i])});
  return outDims;
}

/// Builds the LinearLayout of explicit bases for a tensor of `shape`.
llvm::Expected<LinearLayout>
layoutFromBases(ArrayRef<std::pair<StringRef, ArrayRef<int32_t>>> dims,
                unsigned rank, ArrayRef<int64_t> shape) {
  LinearLayout::BasesT bases;
  for (auto [name, flat] : dims)
    bases.push_back({name.str(), unflattenBases(flat, rank)});
  SmallVector<std::string> names;
  auto outDims = outDimsForShape(shape, names);
  return LinearLayout::create(std::move(bases), outDims,
                              /*requireSurjective=*/true);
}

/// Prints `name = [[a, b], [c, d]]`.
void printBases(AsmPrinter &printer, StringRef name, ArrayRef<int32_t> flat,
                unsigned rank) {
  printer << name << " = [";
  auto bases = unflattenBases(flat, rank);
  llvm::interleaveComma(bases, printer, [&](const LinearLayout::Basis &b) {
    printer << "[";
    llvm::interleaveComma(b, printer);
    printer << "]";
  });
  printer << "]";
}

/// Parses `[[a, b], [c, d]]` into flattened coordinates; sets or checks the
/// rank (every basis has one coordinate per tensor dimension).
ParseResult parseBases(AsmParser &parser, SmallVectorImpl<int32_t> &flat,
                       std::optional<unsigned> &rank) {
  return parser.parseCommaSeparatedList(
      AsmParser::Delimiter::Square, [&]() -> ParseResult {
        SmallVector<int32_t> basis;
        if (parser.parseCommaSeparatedList(AsmParser::Delimiter::Square,
                                           [&]() -> ParseResult {
                                             int32_t v;
                                             if (parser.parseInteger(v))
                                               return failure();
                                             basis.push_back(v);
                                             return success();
                                           }))
          return failure();
        if (rank && *rank != basis.size())
          return parser.emitError(parser.getCurrentLocation())
                 << "every basis needs " << *rank << " coordinates, got "
                 << basis.size();
        rank = basis.size();
        flat.append(basis);
        return success();
      });
}

/// Parses `<[rank = R,] name = [[..]], ...>` with the given input dimension
/// names in order.
ParseResult parseNamedBases(AsmParser &parser, ArrayRef<StringRef> names,
                            SmallVectorImpl<SmallVector<int32_t>> &flats,
                            unsigned &rank) {
  std::optional<unsigned> parsedRank;
  flats.assign(names.size(), {});
  if (parser.parseLess())
    return failure();
  if (succeeded(parser.parseOptionalKeyword("rank"))) {
    unsigned r;
    if (parser.parseEqual() || parser.parseInteger(r) || parser.parseComma())
      return failure();
    parsedRank = r;
  }
  for (auto [i, name] : llvm::enumerate(names)) {
    if (i > 0 && parser.parseComma())
      return failure();
    if (parser.parseKeyword(name) || parser.parseEqual() ||
        parseBases(parser, flats[i], parsedRank))
      return failure();
  }
  if (parser.parseGreater())
    return failure();
  if (!parsedRank)
    return parser.emitError(parser.getCurrentLocation())
           << "a layout without bases needs an explicit `rank = N`";
  rank = *parsedRank;
  return success();
}

void printNamedBases(AsmPrinter &printer, unsigned rank,
                     ArrayRef<std::pair<StringRef, ArrayRef<int32_t>>> dims) {
  printer << "<";
  bool anyBasis =
      llvm::any_of(dims, [](const auto &d) { return !d.second.empty(); });
  if (!anyBasis)
    printer << "rank = " << rank << ", ";
  llvm::interleaveComma(dims, printer, [&](const auto &d) {
    printBases(printer, d.first, d.second, rank);
  });
  printer << ">";
}

LogicalResult verifyFlatBases(function_ref<InFlightDiagnostic()> emitError,
                              unsigned rank, ArrayRef<int32_t> flat,
                              StringRef name) {
  if (rank == 0 ? !flat.empty() : flat.size() % rank != 0)
    return emitError() << name << " bases must have " << rank
                       << " coordinates each";
  for (int32_t v : flat)
    if (v < 0)
      return emitError() << name << " basis coordinates must be non-negative";
  return success();
}

/// The LinearLayout of a layout attribute for `shape`, or the error that
/// makes the pair invalid.
template <typename AttrT>
LogicalResult
verifyLayoutForShape(AttrT attr, ArrayRef<int64_t> shape,
                     function_ref<InFlightDiagnostic()> emitError,
                     llvm::function_ref<llvm::Expected<LinearLayout>()> build) {
  if (failed(verifyShape(shape, attr.getRank(), emitError)))
    return failure();
  llvm::Expected<LinearLayout> layout = build();
  if (!layout) {
    std::string shapeStr;
    llvm::raw_string_ostream os(shapeStr);
    llvm::interleave(shape, os, "x");
    return emitError() << "layout " << attr << " does not fit a tensor of "
                       << "shape " << shapeStr << ": "
                       << llvm::toString(layout.takeError());
  }
  return success();
}
} // namespace

//===----------------------------------------------------------------------===//
// BlockedAttr
//===----------------------------------------------------------------------===//

LogicalResult BlockedAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                  ArrayRef<unsigned> sizePerThread,
                                  ArrayRef<unsigned> threadsPerWarp,
                                  ArrayRef<unsigned> warpsPerCTA,
                                  ArrayRef<unsigned> order,
                                  ArrayRef<unsigned> ctasPerCGA) {
  size_t rank = sizePerThread.size();
  if (rank == 0)
    return emitError() << "blocked layout needs at least one dimension";
  if (threadsPerWarp.size() != rank || warpsPerCTA.size() != rank ||
      order.size() != rank ||
      (!ctasPerCGA.empty() && ctasPerCGA.size() != rank))
    return emitError() << "blocked layout parameters must all have rank "
                       << rank;
  if (!isPermutation(order))
    return emitError() << "blocked layout order must be a permutation of 0.."
                       << rank - 1;
  for (auto [name, values] : {std::pair{"sizePerThread", sizePerThread},
                              std::pair{"threadsPerWarp", threadsPerWarp},
                              std::pair{"warpsPerCTA", warpsPerCTA},
                              std::pair{"CTAsPerCGA", ctasPerCGA}})
    if (!allPowersOfTwo(values))
      return emitError() << "blocked layout " << name
                         << " entries must be powers of two";
  return success();
}

SmallVector<unsigned> BlockedAttr::getCTAsPerCGAOrOnes() const {
  if (!getCTAsPerCGA().empty())
    return SmallVector<unsigned>(getCTAsPerCGA());
  return SmallVector<unsigned>(getSizePerThread().size(), 1);
}

unsigned BlockedAttr::getRank() const { return getSizePerThread().size(); }

LinearLayout BlockedAttr::toLinearLayout(ArrayRef<int64_t> shape) const {
  return blockedToLinearLayout(shape, getSizePerThread(), getThreadsPerWarp(),
                               getWarpsPerCTA(), getOrder(),
                               getCTAsPerCGAOrOnes());
}

LogicalResult BlockedAttr::verifyEncoding(
    ArrayRef<int64_t> shape, Type elementType,
    function_ref<InFlightDiagnostic()> emitError) const {
  return verifyLayoutForShape(*this, shape, emitError, [&]() {
    BlockedLayoutParams params{SmallVector<unsigned, 4>(getSizePerThread()),
                               SmallVector<unsigned, 4>(getThreadsPerWarp()),
                               SmallVector<unsigned, 4>(getWarpsPerCTA()),
                               SmallVector<unsigned, 4>(getOrder()),
                               SmallVector<unsigned, 4>(getCTAsPerCGAOrOnes())};
    if (llvm::Error err = verifyBlockedLayoutParams(shape, params))
      return llvm::Expected<LinearLayout>(std::move(err));
    return llvm::Expected<LinearLayout>(toLinearLayout(shape));
  });
}

//===----------------------------------------------------------------------===//
// SliceAttr
//===----------------------------------------------------------------------===//

LogicalResult SliceAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                unsigned dim, Attribute parent) {
  auto layout = dyn_cast<DistributedLayoutAttr>(parent);
  if (!layout)
    return emitError() << "slice parent must be a distributed layout, got "
                       << parent;
  if (dim >= layout.getRank())
    return emitError() << "slice dimension " << dim
                       << " is out of range for a rank-" << layout.getRank()
                       << " parent";
  return success();
}

unsigned SliceAttr::getRank() const {
  return cast<DistributedLayoutAttr>(getParent()).getRank() - 1;
}

/// The parent of a slice sees the sliced dimension with size 1.
static SmallVector<int64_t> sliceParentShape(ArrayRef<int64_t> shape,
                                             unsigned dim) {
  SmallVector<int64_t> parentShape(shape);
  parentShape.insert(parentShape.begin() + dim, 1);
  return parentShape;
}

LinearLayout SliceAttr::toLinearLayout(ArrayRef<int64_t> shape) const {
  auto parent = cast<DistributedLayoutAttr>(getParent());
  return sliceToLinearLayout(
      parent.toLinearLayout(sliceParentShape(shape, getDim())), getDim());
}

LogicalResult
SliceAttr::verifyEncoding(ArrayRef<int64_t> shape, Type elementType,
                          function_ref<InFlightDiagnostic()> emitError) const {
  if (failed(verifyShape(shape, getRank(), emitError)))
    return failure();
  if (auto parent = dyn_cast<VerifiableTensorEncoding>(getParent()))
    return parent.verifyEncoding(sliceParentShape(shape, getDim()), elementType,
                                 emitError);
  return success();
}

//===----------------------------------------------------------------------===//
// DotOperandAttr
//===----------------------------------------------------------------------===//

LogicalResult
DotOperandAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                       unsigned opIdx, Attribute parent, unsigned kWidth) {
  if (opIdx > 1)
    return emitError() << "dot operand index must be 0 (A) or 1 (B), got "
                       << opIdx;
  if (!isa<BlockedAttr>(parent))
    return emitError() << "dot operand layouts have a blocked parent (an FMA "
                          "dot); matrix-unit operands use linear layouts, "
                          "got parent "
                       << parent;
  return success();
}

unsigned DotOperandAttr::getRank() const {
  return cast<DistributedLayoutAttr>(getParent()).getRank();
}

LinearLayout DotOperandAttr::toLinearLayout(ArrayRef<int64_t> shape) const {
  auto parent = cast<BlockedAttr>(getParent());
  BlockedLayoutParams params{
      SmallVector<unsigned, 4>(parent.getSizePerThread()),
      SmallVector<unsigned, 4>(parent.getThreadsPerWarp()),
      SmallVector<unsigned, 4>(parent.getWarpsPerCTA()),
      SmallVector<unsigned, 4>(parent.getOrder()),
      SmallVector<unsigned, 4>(parent.getCTAsPerCGAOrOnes())};
  return dotOperandOfBlockedToLinearLayout(shape, params, getOpIdx());
}

LogicalResult DotOperandAttr::verifyEncoding(
    ArrayRef<int64_t> shape, Type elementType,
    function_ref<InFlightDiagnostic()> emitError) const {
  return verifyShape(shape, getRank(), emitError);
}

//===----------------------------------------------------------------------===//
// LinearAttr
//===----------------------------------------------------------------------===//

static constexpr StringRef kDistributedDims[] = {"register", "lane", "warp",
                                                 "block"};

LogicalResult LinearAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                 unsigned rank, ArrayRef<int32_t> registerBases,
                                 ArrayRef<int32_t> laneBases,
                                 ArrayRef<int32_t> warpBases,
                                 ArrayRef<int32_t> blockBases) {
  if (rank == 0)
    return emitError() << "linear layout needs at least one dimension";
  ArrayRef<int32_t> flats[] = {registerBases, laneBases, warpBases, blockBases};
  for (auto [name, flat] : llvm::zip(kDistributedDims, flats))
    if (failed(verifyFlatBases(emitError, rank, flat, name)))
      return failure();
  return success();
}

LinearAttr LinearAttr::get(MLIRContext *context, const LinearLayout &layout) {
  SmallVector<SmallVector<int32_t>> flats;
  for (StringRef name : kDistributedDims)
    flats.push_back(layout.hasInDim(name) ? flattenBases(layout.getBases(name))
                                          : SmallVector<int32_t>());
  return Base::get(context, layout.getNumOutDims(), flats[0], flats[1],
                   flats[2], flats[3]);
}

SmallVector<SmallVector<int32_t>> LinearAttr::getBases(StringRef inDim) const {
  ArrayRef<int32_t> flat = llvm::StringSwitch<ArrayRef<int32_t>>(inDim)
                               .Case("register", getRegisterBases())
                               .Case("lane", getLaneBases())
                               .Case("warp", getWarpBases())
                               .Default(getBlockBases());
  SmallVector<SmallVector<int32_t>> result;
  for (auto &b : unflattenBases(flat, getTensorRank()))
    result.emplace_back(b.begin(), b.end());
  return result;
}

unsigned LinearAttr::getRank() const { return getTensorRank(); }

LinearLayout LinearAttr::toLinearLayout(ArrayRef<int64_t> shape) const {
  llvm::Expected<LinearLayout> layout =
      layoutFromBases({{"register", getRegisterBases()},
                       {"lane", getLaneBases()},
                       {"warp", getWarpBases()},
                       {"block", getBlockBases()}},
                      getTensorRank(), shape);
  if (!layout)
    llvm::report_fatal_error(llvm::Twine("invalid linear layout: ") +
                             llvm::toString(layout.takeError()));
  return *layout;
}

LogicalResult
LinearAttr::verifyEncoding(ArrayRef<int64_t> shape, Type elementType,
                           function_ref<InFlightDiagnostic()> emitError) const {
  return verifyLayoutForShape(*this, shape, emitError, [&]() {
    return layoutFromBases({{"register", getRegisterBases()},
                            {"lane", getLaneBases()},
                            {"warp", getWarpBases()},
                            {"block", getBlockBases()}},
                           getTensorRank(), shape);
  });
}

Attribute LinearAttr::parse(AsmParser &parser, Type) {
  SmallVector<SmallVector<int32_t>> flats;
  unsigned rank;
  if (parseNamedBases(parser, kDistributedDims, flats, rank))
    return {};
  return parser.getChecked<LinearAttr>(parser.getContext(), rank, flats[0],
                                       flats[1], flats[2], flats[3]);
}

void LinearAttr::print(AsmPrinter &printer) const {
  printNamedBases(printer, getTensorRank(),
                  {{"register", getRegisterBases()},
                   {"lane", getLaneBases()},
                   {"warp", getWarpBases()},
                   {"block", getBlockBases()}});
}

//===----------------------------------------------------------------------===//
// Shared layouts
//===----------------------------------------------------------------------===//

LogicalResult
SwizzledSharedAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                           unsigned vec, unsigned perPhase, unsigned maxPhase,
                           ArrayRef<unsigned> order,
                           ArrayRef<unsigned> ctasPerCGA, unsigned blockCols) {
  if (order.empty())
    return emitError() << "shared layout needs at least one dimension";
  if (!isPermutation(order))
    return emitError() << "shared layout order must be a permutation of 0.."
                       << order.size() - 1;
  if (!allPowersOfTwo({vec, perPhase, maxPhase}))
    return emitError() << "vec, perPhase and maxPhase must be powers of two";
  if (!ctasPerCGA.empty() &&
      (ctasPerCGA.size() != order.size() || !allPowersOfTwo(ctasPerCGA)))
    return emitError() << "CTAsPerCGA needs one power of two per dimension";
  if (blockCols != 0 &&
      (!allPowersOfTwo({blockCols}) || blockCols < vec * maxPhase))
    return emitError() << "blockCols must be a power of two holding vec * "
                          "maxPhase elements";
  return success();
}

LinearLayout SwizzledSharedAttr::toLinearLayout(ArrayRef<int64_t> shape) const {
  return swizzledSharedToLinearLayout(shape, getVec(), getPerPhase(),
                                      getMaxPhase(), getOrder(),
                                      getCTAsPerCGA(), getBlockCols());
}

/// `[a, b, ...]` of unsigned integers.
static ParseResult parseUnsignedList(AsmParser &parser,
                                     SmallVectorImpl<unsigned> &values) {
  return parser.parseCommaSeparatedList(AsmParser::Delimiter::Square,
                                        [&]() -> ParseResult {
                                          unsigned value;
                                          if (parser.parseInteger(value))
                                            return failure();
                                          values.push_back(value);
                                          return success();
                                        });
}

Attribute SwizzledSharedAttr::parse(AsmParser &parser, Type) {
  unsigned vec, perPhase, maxPhase, blockCols = 0;
  SmallVector<unsigned> order, ctas;
  if (parser.parseLess() || parser.parseKeyword("vec") || parser.parseEqual() ||
      parser.parseInteger(vec) || parser.parseComma() ||
      parser.parseKeyword("perPhase") || parser.parseEqual() ||
      parser.parseInteger(perPhase) || parser.parseComma() ||
      parser.parseKeyword("maxPhase") || parser.parseEqual() ||
      parser.parseInteger(maxPhase) || parser.parseComma() ||
      parser.parseKeyword("order") || parser.parseEqual() ||
      parseUnsignedList(parser, order))
    return {};
  while (succeeded(parser.parseOptionalComma())) {
    if (succeeded(parser.parseOptionalKeyword("CTAsPerCGA"))) {
      if (parser.parseEqual() || parseUnsignedList(parser, ctas))
        return {};
    } else if (succeeded(parser.parseOptionalKeyword("blockCols"))) {
      if (parser.parseEqual() || parser.parseInteger(blockCols))
        return {};
    } else {
      parser.emitError(parser.getCurrentLocation(),
                       "expected 'CTAsPerCGA' or 'blockCols'");
      return {};
    }
  }
  if (parser.parseGreater())
    return {};
  return parser.getChecked<SwizzledSharedAttr>(
      parser.getContext(), vec, perPhase, maxPhase, order, ctas, blockCols);
}

void SwizzledSharedAttr::print(AsmPrinter &printer) const {
  auto list = [&](ArrayRef<unsigned> values) {
    printer << "[";
    llvm::interleaveComma(values, printer);
    printer << "]";
  };
  printer << "<vec = " << getVec() << ", perPhase = " << getPerPhase()
          << ", maxPhase = " << getMaxPhase() << ", order = ";
  list(getOrder());
  if (!getCTAsPerCGA().empty()) {
    printer << ", CTAsPerCGA = ";
    list(getCTAsPerCGA());
  }
  if (getBlockCols() != 0)
    printer << ", blockCols = " << getBlockCols();
  printer << ">";
}

static constexpr StringRef kSharedDims[] = {"offset", "block"};

LogicalResult
SharedLinearAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                         unsigned rank, ArrayRef<int32_t> offsetBases,
                         ArrayRef<int32_t> blockBases) {
  if (rank == 0)
    return emitError() << "linear layout needs at least one dimension";
  if (failed(verifyFlatBases(emitError, rank, offsetBases, "offset")) ||
      failed(verifyFlatBases(emitError, rank, blockBases, "block")))
    return failure();
  return success();
}

SharedLinearAttr SharedLinearAttr::get(MLIRContext *context,
                                       const LinearLayout &layout) {
  SmallVector<SmallVector<int32_t>> flats;
  for (StringRef name : kSharedDims)
    flats.push_back(layout.hasInDim(name) ? flattenBases(layout.getBases(name))
                                          : SmallVector<int32_t>());
  return Base::get(context, layout.getNumOutDims(), flats[0], flats[1]);
}

LinearLayout SharedLinearAttr::toLinearLayout(ArrayRef<int64_t> shape) const {
  llvm::Expected<LinearLayout> layout = layoutFromBases(
      {{"offset", getOffsetBases()}, {"block", getBlockBases()}},
      getTensorRank(), shape);
  if (!layout)
    llvm::report_fatal_error(llvm::Twine("invalid shared linear layout: ") +
                             llvm::toString(layout.takeError()));
  return *layout;
}

Attribute SharedLinearAttr::parse(AsmParser &parser, Type) {
  SmallVector<SmallVector<int32_t>> flats;
  unsigned rank;
  if (parseNamedBases(parser, kSharedDims, flats, rank))
    return {};
  return parser.getChecked<SharedLinearAttr>(parser.getContext(), rank,
                                             flats[0], flats[1]);
}

void SharedLinearAttr::print(AsmPrinter &printer) const {
  printNamedBases(printer, getTensorRank(),
                  {{"offset", getOffsetBases()}, {"block", getBlockBases()}});
}
