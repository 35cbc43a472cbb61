//===- VectorizeDots.cpp - Dots as register-blocked SIMD micro-kernels ----===//
//
// A dot reaches this pass as a linalg.generic on buffers: C[m, n] =
// fma(A[m, k], B[k, n], C[m, n]) over (m, k, n), n innermost (and a batch
// dimension first for 3-D dots). Lowered to plain loops, LLVM vectorizes the
// n loop and every multiply-add loads and stores its C vector: the loop is
// bound by stores, at a small fraction of the FMA units' throughput.
//
// This pass rewrites such a generic into register-blocked micro-kernels
// (the scheme of BLAS libraries): for each MR x (NV * VL) tile of C, the
// tile is loaded into MR * NV vector registers once, the whole K loop runs
// on registers (per k: NV vector loads of B's row, MR scalar broadcasts of
// A's column, MR * NV vector FMAs), and the tile is stored once. Columns
// advance in the outer loop so that a K x (NV * VL) panel of B stays in the
// L1 cache while every row tile passes over it. Each element still sums its
// products in k order with one fused multiply-add each, so results are
// bit-identical to the loops this replaces.
//
// The rows and columns the tiles do not cover run as the original generic
// on subviews (loops, as before). Only float accumulators whose B and C
// rows are contiguous (unit innermost stride) are rewritten; other dots
// keep their loops.
//
//===----------------------------------------------------------------------===//
#include "Lowering.h"
#include "Passes.h"

#include "mlir/Dialect/AMX/AMXDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Pass/Pass.h"

using namespace mlir;
using namespace mlir::tessera;
using namespace mlir::tessera::cpu;

namespace {

/// A dot generic's shape: static sizes and the operands.
struct DotShape {
  int64_t batch = 0; ///< 0 for a 2-D dot.
  int64_t m = 0, n = 0, k = 0;
  Value a, b, c;
  FloatType elemType;
};

/// True when `type` is a memref of static shape whose innermost dimension
/// has unit stride (a row can be read as a vector).
bool hasContiguousRows(MemRefType type) {
  SmallVector<int64_t> strides;
  int64_t offset;
  if (!type.hasStaticShape() ||
      failed(type.getStridesAndOffset(strides, offset)))
    return false;
  return !strides.empty() && strides.back() == 1;
}

/// Recognizes the generic the CPU lowering of `tessera.dot` builds (see
/// LowerCompute.cpp) on buffers of static shape.
std::optional<DotShape> matchDot(linalg::GenericOp op) {
  if (!op.hasPureBufferSemantics() || op.getNumDpsInputs() != 2 ||
      op.getNumDpsInits() != 1)
    return std::nullopt;
  auto aType = dyn_cast<MemRefType>(op.getDpsInputs()[0].getType());
  auto bType = dyn_cast<MemRefType>(op.getDpsInputs()[1].getType());
  auto cType = dyn_cast<MemRefType>(op.getDpsInits()[0].getType());
  if (!aType || !bType || !cType || !aType.hasStaticShape() ||
      !hasContiguousRows(bType) || !hasContiguousRows(cType))
    return std::nullopt;
  auto elemType = dyn_cast<FloatType>(cType.getElementType());
  if (!elemType || aType.getElementType() != elemType ||
      bType.getElementType() != elemType)
    return std::nullopt;
  int64_t rank = cType.getRank();
  if (rank != 2 && rank != 3)
    return std::nullopt;
  bool batched = rank == 3;

  // Iteration space (batch?, m, k, n): the maps and iterators DotOpLowering
  // builds.
  unsigned numDims = batched ? 4 : 3;
  unsigned k = batched ? 2 : 1;
  if (op.getIndexingMapsArray() !=
      cpu::getDotIndexingMaps(op.getContext(), batched))
    return std::nullopt;
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  for (unsigned i = 0; i < numDims; ++i)
    if ((iterators[i] == utils::IteratorType::reduction) != (i == k))
      return std::nullopt;

  // Body: yield fma(a, b, c).
  Block &body = op.getRegion().front();
  if (!llvm::hasSingleElement(body.without_terminator()))
    return std::nullopt;
  auto fma = dyn_cast<math::FmaOp>(body.front());
  if (!fma || fma.getA() != body.getArgument(0) ||
      fma.getB() != body.getArgument(1) || fma.getC() != body.getArgument(2))
    return std::nullopt;
  auto yield = cast<linalg::YieldOp>(body.getTerminator());
  if (yield.getNumOperands() != 1 || yield.getOperand(0) != fma.getResult())
    return std::nullopt;

  DotShape shape;
  ArrayRef<int64_t> cShape = cType.getShape();
  shape.batch = batched ? cShape[0] : 0;
  shape.m = cShape[rank - 2];
  shape.n = cShape[rank - 1];
  shape.k = aType.getShape()[rank - 1];
  shape.a = op.getDpsInputs()[0];
  shape.b = op.getDpsInputs()[1];
  shape.c = op.getDpsInits()[0];
  shape.elemType = elemType;
  return shape;
}

/// The micro-kernel's tile: MR rows by NV vectors of VL elements.
struct Tile {
  int64_t rows = 0, vectors = 0, lanes = 0;
  int64_t cols() const { return vectors * lanes; }
};

/// The largest tile that keeps its accumulators, one row of B and a
/// broadcast in `registers` vector registers of `vectorBits`, with the
/// lanes and rows powers of two that fit the dot (tile sizes of Triton
/// kernels are powers of two, so the tiles cover them exactly): never more
/// rows or columns than the dot has.
std::optional<Tile> chooseTile(const DotShape &dot, unsigned vectorBits,
                               unsigned registers) {
  Tile tile;
  tile.lanes = vectorBits / dot.elemType.getIntOrFloatBitWidth();
  while (tile.lanes > 1 && tile.lanes > dot.n)
    tile.lanes /= 2;
  // A vector of fewer than four lanes gains little over LLVM's own loops.
  if (tile.lanes < 4)
    return std::nullopt;
  tile.vectors = dot.n >= 2 * tile.lanes ? 2 : 1;
  int64_t maxRows =
      (static_cast<int64_t>(registers) - tile.vectors - 1) / tile.vectors;
  tile.rows = 1;
  while (tile.rows * 2 <= std::min<int64_t>(maxRows, dot.m))
    tile.rows *= 2;
  return tile;
}

/// Runs the original dot on the part [rowBegin, m) x [colBegin, colEnd) of
/// C (all of K), through subviews: the columns or rows no tile covers.
void emitRemainder(OpBuilder &b, linalg::GenericOp op, const DotShape &dot,
                   int64_t rowBegin, int64_t rowEnd, int64_t colBegin,
                   int64_t colEnd) {
  if (rowBegin >= rowEnd || colBegin >= colEnd)
    return;
  Location loc = op.getLoc();
  bool batched = dot.batch != 0;
  auto view = [&](Value memref, int64_t r0, int64_t rows, int64_t c0,
                  int64_t cols) -> Value {
    auto type = cast<MemRefType>(memref.getType());
    SmallVector<OpFoldResult> offsets, sizes, strides;
    if (batched) {
      offsets.push_back(b.getIndexAttr(0));
      sizes.push_back(b.getIndexAttr(type.getShape()[0]));
      strides.push_back(b.getIndexAttr(1));
    }
    offsets.append({b.getIndexAttr(r0), b.getIndexAttr(c0)});
    sizes.append({b.getIndexAttr(rows), b.getIndexAttr(cols)});
    strides.append({b.getIndexAttr(1), b.getIndexAttr(1)});
    return memref::SubViewOp::create(b, loc, memref, offsets, sizes, strides);
  };
  Value a = view(dot.a, rowBegin, rowEnd - rowBegin, 0, dot.k);
  Value bv = view(dot.b, 0, dot.k, colBegin, colEnd - colBegin);
  Value c =
      view(dot.c, rowBegin, rowEnd - rowBegin, colBegin, colEnd - colBegin);
  IRMapping mapping;
  mapping.map(dot.a, a);
  mapping.map(dot.b, bv);
  mapping.map(dot.c, c);
  b.clone(*op.getOperation(), mapping);
}

/// Replaces the dot `op` by micro-kernels of `tile` and loops for the
/// remainder.
void emitMicroKernels(linalg::GenericOp op, const DotShape &dot,
                      const Tile &tile) {
  OpBuilder b(op);
  Location loc = op.getLoc();
  int64_t rowsMain = dot.m - dot.m % tile.rows;
  int64_t colsMain = dot.n - dot.n % tile.cols();
  auto vecType = VectorType::get({tile.lanes}, dot.elemType);
  bool batched = dot.batch != 0;

  auto emitTiles = [&](OpBuilder &ob, Value batchIv) {
    auto indices = [&](Value row, Value col) {
      SmallVector<Value> result;
      if (batchIv)
        result.push_back(batchIv);
      result.append({row, col});
      return result;
    };
    // Columns outside, so that B's K x cols panel stays in the L1 cache
    // while every row tile passes over it.
    auto colLoop = scf::ForOp::create(ob, loc, createIndex(ob, loc, 0),
                                      createIndex(ob, loc, colsMain),
                                      createIndex(ob, loc, tile.cols()));
    OpBuilder cb = OpBuilder::atBlockBegin(colLoop.getBody());
    Value col0 = colLoop.getInductionVar();
    auto rowLoop = scf::ForOp::create(cb, loc, createIndex(cb, loc, 0),
                                      createIndex(cb, loc, rowsMain),
                                      createIndex(cb, loc, tile.rows));
    OpBuilder rb = OpBuilder::atBlockBegin(rowLoop.getBody());
    Value row0 = rowLoop.getInductionVar();

    SmallVector<Value> rowIdx, colIdx;
    for (int64_t r = 0; r < tile.rows; ++r)
      rowIdx.push_back(r == 0 ? row0
                              : Value(arith::AddIOp::create(
                                    rb, loc, row0, createIndex(rb, loc, r))));
    for (int64_t v = 0; v < tile.vectors; ++v)
      colIdx.push_back(
          v == 0 ? col0
                 : Value(arith::AddIOp::create(
                       rb, loc, col0, createIndex(rb, loc, v * tile.lanes))));
    SmallVector<Value> accs;
    for (int64_t r = 0; r < tile.rows; ++r)
      for (int64_t v = 0; v < tile.vectors; ++v)
        accs.push_back(vector::LoadOp::create(rb, loc, vecType, dot.c,
                                              indices(rowIdx[r], colIdx[v])));
    auto kLoop = scf::ForOp::create(
        rb, loc, createIndex(rb, loc, 0), createIndex(rb, loc, dot.k),
        createIndex(rb, loc, 1), accs,
        [&](OpBuilder &kb, Location kl, Value kIv, ValueRange iterArgs) {
          SmallVector<Value> bRow;
          for (int64_t v = 0; v < tile.vectors; ++v)
            bRow.push_back(vector::LoadOp::create(kb, kl, vecType, dot.b,
                                                  indices(kIv, colIdx[v])));
          SmallVector<Value> next;
          for (int64_t r = 0; r < tile.rows; ++r) {
            Value a =
                memref::LoadOp::create(kb, kl, dot.a, indices(rowIdx[r], kIv));
            Value splat = vector::BroadcastOp::create(kb, kl, vecType, a);
            for (int64_t v = 0; v < tile.vectors; ++v)
              next.push_back(vector::FMAOp::create(
                  kb, kl, splat, bRow[v], iterArgs[r * tile.vectors + v]));
          }
          scf::YieldOp::create(kb, kl, next);
        });
    for (int64_t r = 0; r < tile.rows; ++r)
      for (int64_t v = 0; v < tile.vectors; ++v)
        vector::StoreOp::create(rb, loc, kLoop.getResult(r * tile.vectors + v),
                                dot.c, indices(rowIdx[r], colIdx[v]));
  };

  if (batched) {
    auto batchLoop = scf::ForOp::create(b, loc, createIndex(b, loc, 0),
                                        createIndex(b, loc, dot.batch),
                                        createIndex(b, loc, 1));
    OpBuilder bb = OpBuilder::atBlockBegin(batchLoop.getBody());
    emitTiles(bb, batchLoop.getInductionVar());
  } else {
    emitTiles(b, Value());
  }
  // Columns right of the tiles (rows they cover), then the rows below.
  emitRemainder(b, op, dot, 0, rowsMain, colsMain, dot.n);
  emitRemainder(b, op, dot, rowsMain, dot.m, 0, dot.n);
  op.erase();
}

/// Rows and columns of an AMX accumulator tile, and the bf16 elements of
/// K one multiply takes.
constexpr int64_t kAmxRows = 16, kAmxCols = 16, kAmxDepth = 32;

/// True when the dot can run on AMX's bf16 tiles: its operands are exact in
/// bf16 (kBf16OperandsAttr), it accumulates in f32, and its sizes are whole
/// tiles.
bool fitsAmxTiles(linalg::GenericOp op, const DotShape &dot) {
  return op->hasAttr(kBf16OperandsAttr) && dot.elemType.isF32() &&
         dot.batch == 0 && dot.m % kAmxRows == 0 && dot.n % kAmxCols == 0 &&
         dot.k % kAmxDepth == 0;
}

/// Replaces the dot `op` by AMX tile operations: A narrowed to bf16 and B
/// to bf16 pairs of rows (row k/2 holds B[k][n], B[k+1][n] for each n, the
/// layout the tile multiply reads), in buffers of the function's frame;
/// then for each 16 x 16 tile of C, loaded once, one multiply per 32 steps
/// of K (products and sums in f32, rounded to nearest even per multiply,
/// subnormals flushed) and one store.
void emitAmxKernels(linalg::GenericOp op, const DotShape &dot) {
  Location loc = op.getLoc();
  auto func = op->getParentOfType<FunctionOpInterface>();
  OpBuilder entry = OpBuilder::atBlockBegin(&func.getFunctionBody().front());
  Type bf16 = entry.getBF16Type();
  IntegerAttr align = entry.getI64IntegerAttr(64);
  Value a = memref::AllocaOp::create(
      entry, loc, MemRefType::get({dot.m, dot.k}, bf16), align);
  Value pairs = memref::AllocaOp::create(
      entry, loc, MemRefType::get({dot.k / 2, dot.n * 2}, bf16), align);

  OpBuilder b(op);
  auto index = [&](OpBuilder &ob, int64_t value) {
    return createIndex(ob, loc, value);
  };
  // The tile walk (buildLoopNest's loops step by one).
  auto loop = [&](OpBuilder &ob, int64_t end, int64_t step,
                  function_ref<void(OpBuilder &, Value)> body) {
    // Each op in its own statement: argument order is unspecified.
    Value lower = index(ob, 0);
    Value upper = index(ob, end);
    Value stride = index(ob, step);
    auto forOp = scf::ForOp::create(ob, loc, lower, upper, stride);
    OpBuilder inner = OpBuilder::atBlockBegin(forOp.getBody());
    body(inner, forOp.getInductionVar());
  };
  auto narrow = [&](OpBuilder &ob, Value from, ValueRange at) {
    Value value = memref::LoadOp::create(ob, loc, from, at);
    return arith::TruncFOp::create(ob, loc, bf16, value);
  };
  buildLoopNest(b, loc, {dot.m, dot.k}, {},
                [&](OpBuilder &nb, Location, ValueRange ivs, ValueRange) {
                  Value value = narrow(nb, dot.a, ivs);
                  memref::StoreOp::create(nb, loc, value, a, ivs);
                  return SmallVector<Value>();
                });
  buildLoopNest(
      b, loc, {dot.k / 2, dot.n}, {},
      [&](OpBuilder &nb, Location, ValueRange ivs, ValueRange) {
        Value pair = ivs[0], col = ivs[1];
        Value even = arith::MulIOp::create(nb, loc, pair, index(nb, 2));
        Value odd = arith::AddIOp::create(nb, loc, even, index(nb, 1));
        Value at = arith::MulIOp::create(nb, loc, col, index(nb, 2));
        Value next = arith::AddIOp::create(nb, loc, at, index(nb, 1));
        Value first = narrow(nb, dot.b, {even, col});
        memref::StoreOp::create(nb, loc, first, pairs, ValueRange{pair, at});
        Value second = narrow(nb, dot.b, {odd, col});
        memref::StoreOp::create(nb, loc, second, pairs, ValueRange{pair, next});
        return SmallVector<Value>();
      });

  auto accType = amx::TileType::get({kAmxRows, kAmxCols}, dot.elemType);
  auto operandType = amx::TileType::get({kAmxRows, kAmxDepth}, bf16);
  loop(b, dot.n, kAmxCols, [&](OpBuilder &cb, Value col) {
    Value pairCol = arith::MulIOp::create(cb, loc, col, index(cb, 2));
    loop(cb, dot.m, kAmxRows, [&](OpBuilder &rb, Value row) {
      Value acc = amx::TileLoadOp::create(rb, loc, accType, dot.c,
                                          ValueRange{row, col});
      for (int64_t k = 0; k < dot.k; k += kAmxDepth) {
        Value lhs = amx::TileLoadOp::create(rb, loc, operandType, a,
                                            ValueRange{row, index(rb, k)});
        Value rhs = amx::TileLoadOp::create(
            rb, loc, operandType, pairs, ValueRange{index(rb, k / 2), pairCol});
        acc = amx::TileMulFOp::create(rb, loc, accType, lhs, rhs, acc);
      }
      amx::TileStoreOp::create(rb, loc, dot.c, ValueRange{row, col}, acc);
    });
  });
  op.erase();
}

struct VectorizeDotsPass
    : public PassWrapper<VectorizeDotsPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(VectorizeDotsPass)

  VectorizeDotsPass() = default;
  VectorizeDotsPass(const VectorizeDotsPass &other) : PassWrapper(other) {}
  VectorizeDotsPass(unsigned bits, unsigned regs, bool amx) {
    vectorBits = bits;
    registers = regs;
    amxBf16 = amx;
  }

  StringRef getArgument() const final { return "tessera-cpu-vectorize-dots"; }
  StringRef getDescription() const final {
    return "Dots on buffers -> register-blocked SIMD micro-kernels";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<amx::AMXDialect, arith::ArithDialect, memref::MemRefDialect,
                    scf::SCFDialect, vector::VectorDialect>();
  }

  void runOnOperation() override {
    SmallVector<std::pair<linalg::GenericOp, DotShape>> dots;
    getOperation().walk([&](linalg::GenericOp op) {
      if (std::optional<DotShape> dot = matchDot(op))
        dots.emplace_back(op, *dot);
    });
    for (auto &[op, dot] : dots) {
      if (amxBf16 && fitsAmxTiles(op, dot))
        emitAmxKernels(op, dot);
      else if (std::optional<Tile> tile =
                   chooseTile(dot, vectorBits, registers))
        emitMicroKernels(op, dot, *tile);
    }
  }

  Option<unsigned> vectorBits{*this, "vector-bits",
                              llvm::cl::desc("Width of a vector register"),
                              llvm::cl::init(128)};
  Option<unsigned> registers{*this, "registers",
                             llvm::cl::desc("Vector registers"),
                             llvm::cl::init(16)};
  Option<bool> amxBf16{*this, "amx-bf16",
                       llvm::cl::desc("Use AMX bf16 tiles where exact"),
                       llvm::cl::init(false)};
};

} // namespace

std::unique_ptr<Pass> cpu::createVectorizeDotsPass(unsigned vectorBits,
                                                   unsigned registers,
                                                   bool amxBf16) {
  return std::make_unique<VectorizeDotsPass>(vectorBits, registers, amxBf16);
}

std::unique_ptr<Pass> cpu::createVectorizeDotsPass() {
  return std::make_unique<VectorizeDotsPass>();
}
