//===- SharedTiles.cpp - Swizzled row-major tiles in shared memory --------===//
//
// One addressing scheme serves the exchange's scratch and the buffers of
// software pipelining: rows stored one after the other, the aligned groups
// of `vec` elements of row r XOR-permuted by (r / perPhase) % maxPhase, so
// that the rows a column access or a matrix load touches fall in different
// banks. Reading a tile is offered to the target first (matrix loads), else
// done with vector loads along the rows.
//
//===----------------------------------------------------------------------===//
#include "Lowering.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tessera;
using namespace mlir::tessera::lowering;

SwizzledTile::SwizzledTile(ArrayRef<int64_t> shape, unsigned bytes,
                           unsigned vec, unsigned perPhase, unsigned maxPhase,
                           unsigned blockCols)
    : shape(shape), bytes(bytes), vec(vec), perPhase(perPhase),
      maxPhase(maxPhase) {
  for (int i = int(shape.size()) - 2; i >= 0; --i)
    strides.insert(strides.begin(), strides.front() * shape[i + 1]);
  this->blockCols = shape.back();
  if (shape.size() < 2)
    this->maxPhase = 1;
  else if (blockCols != 0 && blockCols < shape.back())
    this->blockCols = blockCols;
}

SwizzledTile SwizzledTile::forExchange(ArrayRef<int64_t> shape,
                                       unsigned bytes) {
  int64_t last = shape.back();
  int64_t vec = std::max<int64_t>(1, std::min<int64_t>(last, 16 / bytes));
  // Rows of fewer than eight groups share a phase with their neighbours, so
  // that eight consecutive rows still cover eight distinct 16-byte groups.
  int64_t groups = last / vec;
  return SwizzledTile(shape, bytes, vec, std::max<int64_t>(1, 8 / groups),
                      std::min<int64_t>(groups, 8));
}

std::optional<SwizzledTile> SwizzledTile::forBuffer(gpu::MemDescType type) {
  auto shared = dyn_cast<gpu::SwizzledSharedAttr>(type.getEncoding());
  ArrayRef<int64_t> shape = type.getShape();
  if (!shared || shared.getOrder().size() != shape.size())
    return std::nullopt;
  for (auto [i, d] : llvm::enumerate(shared.getOrder()))
    if (d != shape.size() - 1 - i)
      return std::nullopt;
  if (!shared.getCTAsPerCGA().empty() &&
      llvm::any_of(shared.getCTAsPerCGA(), [](unsigned n) { return n != 1; }))
    return std::nullopt;
  // A swizzle wider than the row, or phases beyond the row's groups, would
  // leave the row; such layouts take the general path.
  int64_t last = shape.back();
  int64_t width = last;
  if (shared.getBlockCols() != 0 && shape.size() >= 2)
    width = std::min<int64_t>(width, shared.getBlockCols());
  if (shared.getVec() > width ||
      (shape.size() >= 2 && shared.getMaxPhase() > 1 &&
       int64_t(shared.getVec()) * shared.getMaxPhase() > width))
    return std::nullopt;
  Type element = type.getElementType();
  unsigned bytes = isa<PointerType>(element) ? 8 : getElementBytes(element);
  return SwizzledTile(shape, bytes, shared.getVec(), shared.getPerPhase(),
                      shared.getMaxPhase(), shared.getBlockCols());
}

Value SwizzledTile::getOffset(OpBuilder &b, Location loc,
                              ArrayRef<Value> coords) const {
  unsigned rank = shape.size();
  Value col = coords.back();
  if (maxPhase > 1) {
    Value phase = coords[rank - 2];
    if (perPhase > 1)
      phase = LLVM::LShrOp::create(b, loc, phase,
                                   createI32(b, loc, llvm::Log2_64(perPhase)));
    phase = LLVM::AndOp::create(b, loc, phase, createI32(b, loc, maxPhase - 1));
    if (vec > 1)
      phase = LLVM::ShlOp::create(b, loc, phase,
                                  createI32(b, loc, llvm::Log2_64(vec)));
    col = LLVM::XOrOp::create(b, loc, col, phase);
  }
  Value flat = col;
  SmallVector<int64_t> rowStrides(strides);
  if (blockCols < shape.back()) {
    // The phase stays inside a block; the block bits pick a whole tile of
    // rows x blockCols.
    unsigned shift = llvm::Log2_64(blockCols);
    Value block = LLVM::LShrOp::create(b, loc, col, createI32(b, loc, shift));
    flat = LLVM::AddOp::create(
        b, loc,
        LLVM::AndOp::create(b, loc, col, createI32(b, loc, blockCols - 1)),
        LLVM::MulOp::create(b, loc, block,
                            createI32(b, loc, shape[rank - 2] * blockCols)));
    rowStrides[rank - 2] = blockCols;
  }
  for (unsigned d = 0; d + 1 < rank; ++d)
    flat = LLVM::AddOp::create(
        b, loc, flat,
        LLVM::MulOp::create(b, loc, coords[d],
                            createI32(b, loc, rowStrides[d])));
  return LLVM::MulOp::create(b, loc, flat, createI32(b, loc, bytes));
}

unsigned lowering::getTileAccessWidth(const LinearLayout &layout, unsigned rank,
                                      unsigned vec) {
  auto [dim, run] = getRegisterRun(layout);
  if (dim != int(rank) - 1)
    return 1;
  return std::min(run, vec);
}

FailureOr<SmallVector<Value>> lowering::readSwizzledTile(
    OpBuilder &b, Location loc, LoweringContext &ctx, Operation *op,
    ThreadIndex tid, const LinearLayout &layout, Type storage,
    const SwizzledTile &tile,
    llvm::function_ref<Value(OpBuilder &, Location, Value)> pointerAt) {
  unsigned rank = layout.getNumOutDims();
  if (rank == 2) {
    SharedTile shared;
    shared.op = op;
    shared.layout = &layout;
    shared.elementType = storage;
    shared.contiguous = tile.getVector();
    shared.lane = tid.lane;
    shared.warp = tid.warp;
    shared.address = [&](OpBuilder &ib, Location l, Value row,
                         Value col) -> Value {
      return pointerAt(ib, l, tile.getOffset(ib, l, {row, col}));
    };
    FailureOr<SmallVector<Value>> loaded =
        ctx.hooks.loadSharedTile(b, loc, shared);
    if (succeeded(loaded))
      return loaded;
  }
  unsigned bytes = getElementBytes(storage);
  SmallVector<SmallVector<Value>> coords = emitAllCoords(b, loc, layout, tid);
  unsigned width = getTileAccessWidth(layout, rank, tile.getVector());
  Type accessType =
      width == 1 ? storage : Type(VectorType::get({width}, storage));
  SmallVector<Value> result;
  for (size_t reg = 0; reg < coords.size(); reg += width) {
    Value ptr = pointerAt(b, loc, tile.getOffset(b, loc, coords[reg]));
    FailureOr<Value> loaded = ctx.hooks.loadShared(b, loc, ptr, accessType);
    if (failed(loaded))
      loaded = LLVM::LoadOp::create(b, loc, accessType, ptr, bytes * width)
                   .getResult();
    if (width == 1) {
      result.push_back(*loaded);
      continue;
    }
    for (unsigned i = 0; i < width; ++i)
      result.push_back(LLVM::ExtractElementOp::create(b, loc, *loaded,
                                                      createI32(b, loc, i)));
  }
  return result;
}
