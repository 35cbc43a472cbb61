//===- MatrixLoad.cpp - Shared-memory tiles read with ldmatrix ------------===//
//
// ldmatrix.x4 reads four 8 x 8 matrices of 16-bit elements: lanes 8i..8i+7
// give the addresses of the eight 16-byte rows of matrix i, and lane l
// receives, of each matrix, row l / 4 at columns 2 (l % 4) and
// 2 (l % 4) + 1 as one 32-bit register (.trans: those two rows at column
// l / 4). A layout qualifies when its first register basis and its lane
// bases are exactly that distribution (rows along dimension 0, or along
// dimension 1 for .trans) and every other register and warp basis moves by
// whole matrices: then each register pair is one matrix, and matrices
// 4j..4j+3 are those whose register indices differ in bits 1 and 2, so
// their origins follow from two register bases.
//
//===----------------------------------------------------------------------===//
#include "MmaLowering.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "tessera/Conversion/LoweringUtils.h"

using namespace mlir;
using namespace mlir::tessera;
using namespace mlir::tessera::nvptx;

namespace {

using Basis = LinearLayout::Basis;

/// 0: not an ldmatrix distribution; 1: plain; 2: transposed.
int classify(const LinearLayout &layout) {
  if (!layout.hasInDim(kRegisterDim) || !layout.hasInDim(kLaneDim) ||
      layout.getNumOutDims() != 2 ||
      layout.getInDimSizeLog2(kRegisterDim) < 1 ||
      layout.getInDimSizeLog2(kLaneDim) != 5)
    return 0;
  auto bases = [&](StringRef dim) {
    SmallVector<Basis> out(layout.getBases(dim).begin(),
                           layout.getBases(dim).end());
    return out;
  };
  SmallVector<Basis> lanes = bases(kLaneDim), regs = bases(kRegisterDim);
  int kind = 0;
  if (regs[0] == Basis{0, 1} &&
      lanes == SmallVector<Basis>{{0, 2}, {0, 4}, {1, 0}, {2, 0}, {4, 0}})
    kind = 1;
  if (regs[0] == Basis{1, 0} &&
      lanes == SmallVector<Basis>{{2, 0}, {4, 0}, {0, 1}, {0, 2}, {0, 4}})
    kind = 2;
  if (!kind)
    return 0;
  auto wholeMatrices = [](const Basis &basis) {
    return basis[0] % 8 == 0 && basis[1] % 8 == 0;
  };
  for (unsigned i = 1; i < regs.size(); ++i)
    if (!wholeMatrices(regs[i]) || regs[i] == Basis{0, 0})
      return 0;
  for (StringRef dim : {StringRef(kWarpDim), StringRef(kBlockDim)})
    if (layout.hasInDim(dim))
      for (const Basis &basis : layout.getBases(dim))
        if (!wholeMatrices(basis))
          return 0;
  return kind;
}

} // namespace

FailureOr<SmallVector<Value>> nvptx::loadMatrixTile(OpBuilder &b, Location loc,
                                                    const SharedTile &tile) {
  const LinearLayout &layout = *tile.layout;
  unsigned bits = tile.elementType.getIntOrFloatBitWidth();
  if (bits != 16 || tile.contiguous < 8 || !tile.elementType.isIntOrFloat())
    return failure();
  int kind = classify(layout);
  if (!kind)
    return failure();
  bool trans = kind == 2;

  // The warp's part of every coordinate (whole matrices).
  Value warpRow = createI32(b, loc, 0), warpCol = createI32(b, loc, 0);
  if (layout.hasInDim(kWarpDim))
    for (auto [i, basis] : llvm::enumerate(layout.getBases(kWarpDim))) {
      if (basis[0] == 0 && basis[1] == 0)
        continue;
      Value bit = LLVM::AndOp::create(
          b, loc, LLVM::LShrOp::create(b, loc, tile.warp, createI32(b, loc, i)),
          createI32(b, loc, 1));
      warpRow = LLVM::XOrOp::create(
          b, loc, warpRow,
          LLVM::MulOp::create(b, loc, bit, createI32(b, loc, basis[0])));
      warpCol = LLVM::XOrOp::create(
          b, loc, warpCol,
          LLVM::MulOp::create(b, loc, bit, createI32(b, loc, basis[1])));
    }

  int32_t numRegs = layout.getInDimSize(kRegisterDim);
  int32_t numMatrices = numRegs / 2;
  unsigned perLoad = numMatrices >= 4 ? 4 : numMatrices; // 1, 2 or 4
  auto regBasis = [&](unsigned i) -> Basis {
    return i < layout.getInDimSizeLog2(kRegisterDim)
               ? Basis(layout.getBasis(kRegisterDim, i))
               : Basis{0, 0};
  };
  Value lane = tile.lane;
  Value row = LLVM::AndOp::create(b, loc, lane, createI32(b, loc, 7));
  Value which = LLVM::LShrOp::create(b, loc, lane, createI32(b, loc, 3));
  // The two lane-selected matrix bits and the register bases they stand for.
  SmallVector<Value> selectBits;
  for (unsigned i = 0; (1u << i) < perLoad; ++i)
    selectBits.push_back(LLVM::AndOp::create(
        b, loc, LLVM::LShrOp::create(b, loc, which, createI32(b, loc, i)),
        createI32(b, loc, 1)));

  Type i32 = b.getI32Type();
  Type pair = VectorType::get({2}, tile.elementType);
  std::string text = "ldmatrix.sync.aligned.m8n8.x" + std::to_string(perLoad) +
                     (trans ? ".trans" : "") + ".shared.b16 {";
  for (unsigned i = 0; i < perLoad; ++i)
    text += (i ? ", $" : "$") + std::to_string(i);
  text += "}, [$" + std::to_string(perLoad) + "];";
  std::string constraints;
  for (unsigned i = 0; i < perLoad; ++i)
    constraints += "=r,";
  constraints += "r";
  Type resultType = perLoad == 1
                        ? i32
                        : Type(LLVM::LLVMStructType::getLiteral(
                              b.getContext(), SmallVector<Type>(perLoad, i32)));

  SmallVector<Value> result(numRegs);
  for (int32_t first = 0; first < numMatrices; first += perLoad) {
    // This lane's matrix: the group's first, moved by the register bases
    // of the selecting bits (register bits 1 and 2 of the pair index).
    auto origin = layout.apply({{kRegisterDim, 2 * first},
                                {kLaneDim, 0},
                                {kWarpDim, 0},
                                {kBlockDim, 0}});
    Value originRow = createI32(b, loc, origin[0].second);
    Value originCol = createI32(b, loc, origin[1].second);
    for (auto [i, bit] : llvm::enumerate(selectBits)) {
      Basis basis = regBasis(1 + i);
      originRow = LLVM::XOrOp::create(
          b, loc, originRow,
          LLVM::MulOp::create(b, loc, bit, createI32(b, loc, basis[0])));
      originCol = LLVM::XOrOp::create(
          b, loc, originCol,
          LLVM::MulOp::create(b, loc, bit, createI32(b, loc, basis[1])));
    }
    originRow = LLVM::XOrOp::create(b, loc, originRow, warpRow);
    originCol = LLVM::XOrOp::create(b, loc, originCol, warpCol);
    // Rows of the stored tile are dimension 0 either way; .trans only
    // changes how the 8 x 8 block is spread over the lanes.
    Value ptr = tile.address(
        b, loc, LLVM::AddOp::create(b, loc, originRow, row), originCol);
    auto load = LLVM::InlineAsmOp::create(
        b, loc, resultType, ValueRange{ptr}, text, constraints,
        /*has_side_effects=*/true, /*is_align_stack=*/false,
        LLVM::tailcallkind::TailCallKind::None,
        LLVM::AsmDialectAttr::get(b.getContext(), LLVM::AsmDialect::AD_ATT),
        /*operand_attrs=*/ArrayAttr());
    for (unsigned i = 0; i < perLoad; ++i) {
      Value word =
          perLoad == 1
              ? load.getResult(0)
              : LLVM::ExtractValueOp::create(b, loc, load.getResult(0), i)
                    .getResult();
      Value elements = LLVM::BitcastOp::create(b, loc, pair, word);
      int32_t reg = 2 * (first + i);
      for (int32_t e = 0; e < 2; ++e)
        result[reg + e] = LLVM::ExtractElementOp::create(b, loc, elements,
                                                         createI32(b, loc, e));
    }
  }
  return result;
}
