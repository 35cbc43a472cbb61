//===- BuiltinsSort.cpp - sort, topk, bitonic_merge, flip, gather ---------===//
//
// Triton's standard library builds these from block operations, and so does
// Tessera: no dedicated op, so every backend lowers them with what it
// already has, and on GPUs the layout machinery keeps them in registers.
//
// For a step across bit j of a block's flat index, the block is reshaped
// (row-major) to [outer, 2, 2^j]: each pair lies along the middle axis. The
// partner of an element is found with an xor reduction over that axis (the
// pair's xor, xor-ed with oneself), which a GPU lowers to an in-thread
// operation, one shuffle or one shared-memory exchange depending on where
// the layout puts the bit; rank-3 views keep the cpu's loops shallow. A bitonic
// network of such compare-and-swaps sorts along the last dimension; bitonic
// top-k halves the block with elementwise maxima between merges; flip xor-swaps
// each bit of its axis.
//
// tl.gather is a one-hot selection: the index is compared with every source
// position along the axis and the matching element's bits are or-reduced.
//
//===----------------------------------------------------------------------===//
#include "Builtins.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

using namespace tessera::frontend;
using namespace tessera::frontend::codegen;
using llvm::failure;
using llvm::FailureOr;

namespace {

/// Triton's limit on the number of elements of a block.
constexpr int64_t kMaxTensorNumel = 1048576;

Value intConstant(int64_t v) { return Value::constant(HostValue::integer(v)); }

/// The signed integer type of `v`'s element width (v itself for integers).
TType intElementOf(const TType &t) {
  if (t.isInt())
    return t.getElement();
  return TType::scalar(getIntKind(t.getPrimitiveBitwidth(), /*isSigned=*/true));
}

/// `v`'s bits as integers of the same width (Triton's
/// `x.to(get_int_dtype(bitwidth, signed=True), bitcast=True)`).
FailureOr<Value> asInts(FunctionCodegen &cg, const Value &v) {
  return cg.bitcast(v, intElementOf(v.getType()));
}

/// The xor of the two elements of every pair along `axis`, kept as a size-1
/// axis (tl.xor_sum(x, axis, keep_dims=True)).
FailureOr<Value> xorAlong(FunctionCodegen &cg, const Value &ints,
                          int64_t axis) {
  FailureOr<std::vector<Value>> r = emitReduce(
      cg, {ints}, axis, /*keepDims=*/true,
      [](FunctionCodegen &cg, llvm::ArrayRef<Value> lhs,
         llvm::ArrayRef<Value> rhs) -> FailureOr<std::vector<Value>> {
        FailureOr<Value> x = cg.bitwise(BinaryOpKind::BitXor, lhs[0], rhs[0]);
        if (failed(x))
          return failure();
        return std::vector<Value>{*x};
      });
  if (failed(r))
    return failure();
  return (*r)[0];
}

/// tl.arange(0, n) reshaped so that its n values run along axis `axis` of
/// a block of rank `rank` (size 1 elsewhere).
FailureOr<Value> rangeAlong(FunctionCodegen &cg, int64_t n, int64_t rank,
                            int64_t axis) {
  CallArgs ar;
  ar.loc = cg.curLoc;
  ar.add(intConstant(0));
  ar.add(intConstant(n));
  std::optional<FailureOr<Value>> range =
      cg.callBuiltin("triton.language.arange", ar);
  if (failed(*range))
    return failure();
  std::vector<int64_t> shape(rank, 1);
  shape[axis] = n;
  return cg.reshape(**range, shape, /*canReorder=*/false);
}

/// log2 of a power of two.
int64_t log2Exact(int64_t n) { return int64_t(llvm::Log2_64(uint64_t(n))); }

/// The order of one bitonic merge: every run ascending, every run
/// descending, or runs alternating by the bit above the merged ones.
enum class MergeOrder { Ascending, Descending, Alternating };

/// One compare-and-swap step across bit `bit` of the flat index of `flat`
/// (rank 1, 2^D elements): each element keeps the smaller or the larger of
/// itself and its partner. The block is viewed as [outer, 2, inner] with the
/// pair along the middle axis (a reshape: free in registers on GPUs, and
/// shallow loops on the cpu). Runs are ordered downwards where `order` says
/// so; Alternating means where bit `runBit` of the flat index is set. The
/// left element of a pair keeps the smaller one in ascending runs and the
/// right one the larger, so an element takes its partner exactly when
/// (x > partner) differs from (descending ^ is_right): Triton's test, so
/// NaNs land where they land there.
FailureOr<Value> compareAndSwap(FunctionCodegen &cg, const Value &flat,
                                int64_t bit, MergeOrder order, int64_t runBit) {
  int64_t numel = flat.getType().getNumElements();
  int64_t inner = int64_t(1) << bit, outer = numel >> (bit + 1);
  FailureOr<Value> x = cg.reshape(flat, {outer, 2, inner}, false);
  if (failed(x))
    return failure();
  FailureOr<Value> ints = asInts(cg, *x);
  if (failed(ints))
    return failure();
  FailureOr<Value> pairXor = xorAlong(cg, *ints, 1);
  if (failed(pairXor))
    return failure();
  FailureOr<Value> partnerInts =
      cg.bitwise(BinaryOpKind::BitXor, *ints, *pairXor);
  if (failed(partnerInts))
    return failure();
  FailureOr<Value> partner = cg.bitcast(*partnerInts, x->getType());
  FailureOr<Value> side = rangeAlong(cg, 2, 3, 1);
  if (failed(partner) || failed(side))
    return failure();
  FailureOr<Value> isRight = cg.compare(CmpOpKind::Eq, *side, intConstant(1));
  if (failed(isRight))
    return failure();
  FailureOr<Value> wantsLarger = *isRight;
  if (order == MergeOrder::Descending) {
    wantsLarger = cg.logicalNot(*isRight);
  } else if (order == MergeOrder::Alternating) {
    // Bit runBit (> bit) of the flat index is bit runBit - bit - 1 of the
    // outer index.
    FailureOr<Value> outerIndex = rangeAlong(cg, outer, 3, 0);
    if (failed(outerIndex))
      return failure();
    FailureOr<Value> shifted = cg.shift(BinaryOpKind::RShift, *outerIndex,
                                        intConstant(runBit - bit - 1));
    if (failed(shifted))
      return failure();
    FailureOr<Value> low =
        cg.bitwise(BinaryOpKind::BitAnd, *shifted, intConstant(1));
    if (failed(low))
      return failure();
    FailureOr<Value> down = cg.compare(CmpOpKind::Eq, *low, intConstant(1));
    if (failed(down))
      return failure();
    wantsLarger = cg.bitwise(BinaryOpKind::BitXor, *down, *isRight);
  }
  FailureOr<Value> greater = cg.compare(CmpOpKind::Gt, *x, *partner);
  if (failed(wantsLarger) || failed(greater))
    return failure();
  FailureOr<Value> take =
      cg.bitwise(BinaryOpKind::BitXor, *greater, *wantsLarger);
  if (failed(take))
    return failure();
  FailureOr<Value> kept = cg.where(*take, *partner, *x);
  if (failed(kept))
    return failure();
  return cg.reshape(*kept, {numel}, false);
}

/// Merges the bitonic runs of 2^stages consecutive elements of `flat` into
/// sorted runs; alternating runs turn with bit `stages`.
FailureOr<Value> bitonicMerge(FunctionCodegen &cg, Value flat, int64_t stages,
                              MergeOrder order) {
  for (int64_t bit = stages - 1; bit >= 0; --bit) {
    FailureOr<Value> next = compareAndSwap(cg, flat, bit, order, stages);
    if (failed(next))
      return failure();
    flat = *next;
  }
  return flat;
}

/// `x` flattened row-major.
FailureOr<Value> flatten(FunctionCodegen &cg, const Value &x) {
  return cg.reshape(x, {x.getType().getNumElements()}, /*canReorder=*/false);
}

/// A block operand of sort-like functions: numbers, not pointers.
FailureOr<Value> requireSortable(FunctionCodegen &cg, const Value &v,
                                 llvm::StringRef fn, const Expr *at) {
  FailureOr<Value> x = cg.requireTensor(v, "the input of " + fn.str(), at);
  if (failed(x))
    return failure();
  if (!x->getType().isBlock())
    return cg.fail(at ? at->getLoc().ptr : cg.curLoc,
                   fn + " needs a block, got the scalar " + x->getType().str());
  if (x->getType().isPtrElement())
    return cg.fail(at ? at->getLoc().ptr : cg.curLoc,
                   fn + " needs a block of numbers, got " + x->getType().str());
  return x;
}

/// The sorted dimension: None or the last one (Triton sorts only along the
/// minor dimension); negative dimensions count from the end.
FailureOr<int64_t> readMinorDim(FunctionCodegen &cg, const Value &dimV,
                                const Expr *at, const Value &x,
                                llvm::StringRef fn) {
  int64_t rank = int64_t(x.getType().getShape().size());
  if (dimV.isNone())
    return rank - 1;
  FailureOr<int64_t> dim = cg.requireInt(dimV, "dim", at);
  if (failed(dim))
    return failure();
  int64_t d = *dim < 0 ? *dim + rank : *dim;
  if (d != rank - 1)
    return cg.fail(
        at ? at->getLoc().ptr : cg.curLoc,
        llvm::formatv(
            "{0} supports only the last dimension ({1}) of a rank-{2} "
            "block, got dim={3}",
            fn, rank - 1, rank, *dim));
  return d;
}

/// A `descending` argument: a constexpr boolean or 0/1.
FailureOr<bool> readDescending(FunctionCodegen &cg, const Value &v,
                               const Expr *at) {
  if (v.isNone())
    return false;
  if (v.isConstexpr() && v.getHost().isIntegral()) {
    int64_t d = v.getHost().getInt();
    if (d == 0 || d == 1)
      return d == 1;
  }
  return cg.fail(at ? at->getLoc().ptr : cg.curLoc,
                 "descending must be a compile-time boolean, got " +
                     v.typeStr());
}

/// Triton's sort_impl: a full bitonic sort along the last dimension, or,
/// with `k`, bitonic top-k (the k largest when descending, else the k
/// smallest, sorted). Top-k reduces with tl.max / tl.min, which compute
/// narrow types in 32 bits: the result then has that type, as in Triton.
FailureOr<Value> sortImpl(FunctionCodegen &cg, const Value &x,
                          std::optional<int64_t> k, bool descending) {
  llvm::ArrayRef<int64_t> shape = x.getType().getShape();
  int64_t n = shape.back();
  int64_t logN = log2Exact(n);
  int64_t logK = k ? log2Exact(*k) : logN;
  FailureOr<Value> h = flatten(cg, x);
  if (failed(h))
    return failure();
  MergeOrder last = descending ? MergeOrder::Descending : MergeOrder::Ascending;
  // Sort runs of 2, 4, ..., k, alternating up and down until the last.
  for (int64_t stage = 1; stage <= logK; ++stage) {
    h = bitonicMerge(cg, *h, stage,
                     stage < logN ? MergeOrder::Alternating : last);
    if (failed(h))
      return failure();
  }
  // Each halving keeps, position by position, the better of two adjacent
  // sorted runs of k (one up, one down): a bitonic run holding the best k
  // of both, merged again.
  for (int64_t step = logK + 1; step <= logN; ++step) {
    int64_t numel = h->getType().getNumElements();
    int64_t k = int64_t(1) << logK;
    FailureOr<Value> pairs = cg.reshape(*h, {numel / (2 * k), 2, k}, false);
    if (failed(pairs))
      return failure();
    CallArgs args;
    args.loc = cg.curLoc;
    args.add(*pairs);
    args.addKeyword("axis", intConstant(1));
    std::optional<FailureOr<Value>> best = cg.callBuiltin(
        descending ? "triton.language.max" : "triton.language.min", args);
    if (failed(*best))
      return failure();
    h = flatten(cg, **best);
    if (failed(h))
      return failure();
    h = bitonicMerge(cg, *h, logK,
                     step < logN ? MergeOrder::Alternating : last);
    if (failed(h))
      return failure();
  }
  std::vector<int64_t> outShape(shape.begin(), shape.end() - 1);
  outShape.push_back(int64_t(1) << logK);
  return cg.reshape(*h, outShape, /*canReorder=*/false);
}

FailureOr<Value> sortBuiltin(FunctionCodegen &cg, CallArgs &args) {
  FailureOr<BoundArgs> a =
      cg.bindArgs(args, "sort", {"x", "dim", "descending"}, 1);
  if (failed(a))
    return failure();
  FailureOr<Value> x = requireSortable(cg, (*a)[0], "sort", a->exprs[0]);
  if (failed(x))
    return failure();
  FailureOr<int64_t> dim = readMinorDim(cg, (*a)[1], a->exprs[1], *x, "sort");
  FailureOr<bool> desc = readDescending(cg, (*a)[2], a->exprs[2]);
  if (failed(dim) || failed(desc))
    return failure();
  return sortImpl(cg, *x, std::nullopt, *desc);
}

FailureOr<Value> topkBuiltin(FunctionCodegen &cg, CallArgs &args) {
  FailureOr<BoundArgs> a = cg.bindArgs(args, "topk", {"x", "k", "dim"}, 2);
  if (failed(a))
    return failure();
  FailureOr<Value> x = requireSortable(cg, (*a)[0], "topk", a->exprs[0]);
  if (failed(x))
    return failure();
  FailureOr<int64_t> k = cg.requireInt((*a)[1], "k", a->exprs[1]);
  FailureOr<int64_t> dim = readMinorDim(cg, (*a)[2], a->exprs[2], *x, "topk");
  if (failed(k) || failed(dim))
    return failure();
  int64_t n = x->getType().getShape().back();
  // Triton takes log2(k) rounded down, silently returning fewer elements
  // for other k; a clear error is kinder than a surprising shape.
  if (*k < 1 || *k > n || !llvm::isPowerOf2_64(uint64_t(*k)))
    return cg.fail(a->exprs[1] ? a->exprs[1]->getLoc().ptr : cg.curLoc,
                   llvm::formatv("topk's k must be a power of 2 between 1 and "
                                 "the size of the last dimension ({0}), got "
                                 "{1}",
                                 n, *k));
  return sortImpl(cg, *x, *k, /*descending=*/true);
}

FailureOr<Value> bitonicMergeBuiltin(FunctionCodegen &cg, CallArgs &args) {
  FailureOr<BoundArgs> a =
      cg.bindArgs(args, "bitonic_merge", {"x", "dim", "descending"}, 1);
  if (failed(a))
    return failure();
  FailureOr<Value> x =
      requireSortable(cg, (*a)[0], "bitonic_merge", a->exprs[0]);
  if (failed(x))
    return failure();
  FailureOr<int64_t> dim =
      readMinorDim(cg, (*a)[1], a->exprs[1], *x, "bitonic_merge");
  FailureOr<bool> desc = readDescending(cg, (*a)[2], a->exprs[2]);
  if (failed(dim) || failed(desc))
    return failure();
  FailureOr<Value> h = flatten(cg, *x);
  if (failed(h))
    return failure();
  h = bitonicMerge(cg, *h, log2Exact(x->getType().getShape().back()),
                   *desc ? MergeOrder::Descending : MergeOrder::Ascending);
  if (failed(h))
    return failure();
  return cg.reshape(*h, x->getType().getShape(), /*canReorder=*/false);
}

FailureOr<Value> flipBuiltin(FunctionCodegen &cg, CallArgs &args) {
  FailureOr<BoundArgs> a = cg.bindArgs(args, "flip", {"x", "dim"}, 1);
  if (failed(a))
    return failure();
  FailureOr<Value> x = requireSortable(cg, (*a)[0], "flip", a->exprs[0]);
  if (failed(x))
    return failure();
  llvm::ArrayRef<int64_t> shape = x->getType().getShape();
  int64_t rank = int64_t(shape.size());
  int64_t dim = rank - 1;
  if (!(*a)[1].isNone()) {
    FailureOr<int64_t> d = cg.requireInt((*a)[1], "dim", a->exprs[1]);
    if (failed(d))
      return failure();
    if (*d < -rank || *d >= rank)
      return cg.fail(a->exprs[1] ? a->exprs[1]->getLoc().ptr : cg.curLoc,
                     llvm::formatv("flip's dim must be in [{0}, {1}), got {2}",
                                   -rank, rank, *d));
    dim = *d < 0 ? *d + rank : *d;
  }
  int64_t steps = log2Exact(shape[dim]);
  if (steps == 0)
    return *x;
  // Reversing an index of 2^steps complements each of its bits: for each,
  // view the block as [outer, 2, inner] with that bit in the middle and swap
  // the halves of every pair (xor with the pair's xor).
  int64_t before = 1, after = 1;
  for (int64_t d = 0; d < rank; ++d) {
    if (d < dim)
      before *= shape[d];
    else if (d > dim)
      after *= shape[d];
  }
  FailureOr<Value> y = asInts(cg, *x);
  if (failed(y))
    return failure();
  for (int64_t i = 0; i < steps; ++i) {
    int64_t outer = before << i;
    int64_t inner = (shape[dim] >> (i + 1)) * after;
    FailureOr<Value> pairs = cg.reshape(*y, {outer, 2, inner}, false);
    if (failed(pairs))
      return failure();
    FailureOr<Value> pairXor = xorAlong(cg, *pairs, 1);
    if (failed(pairXor))
      return failure();
    y = cg.bitwise(BinaryOpKind::BitXor, *pairs, *pairXor);
    if (failed(y))
      return failure();
  }
  y = cg.reshape(*y, shape, /*canReorder=*/false);
  if (failed(y))
    return failure();
  return cg.bitcast(*y, x->getType());
}

FailureOr<Value> gatherBuiltin(FunctionCodegen &cg, CallArgs &args) {
  FailureOr<BoundArgs> a =
      cg.bindArgs(args, "gather", {"src", "index", "axis"}, 3);
  if (failed(a))
    return failure();
  FailureOr<Value> src = requireSortable(cg, (*a)[0], "gather", a->exprs[0]);
  FailureOr<Value> index =
      cg.requireTensor((*a)[1], "the index of gather", a->exprs[1]);
  FailureOr<int64_t> axisIn = cg.requireInt((*a)[2], "axis", a->exprs[2]);
  if (failed(src) || failed(index) || failed(axisIn))
    return failure();
  const Expr *indexAt = a->exprs[1];
  llvm::SMLoc indexLoc = indexAt ? indexAt->getLoc().ptr : cg.curLoc;
  if (!index->getType().isBlock() || !index->getType().isInt() ||
      index->getType().isBool())
    return cg.fail(indexLoc,
                   "gather's index must be a block of integers, got " +
                       index->getType().str());
  llvm::ArrayRef<int64_t> srcShape = src->getType().getShape();
  llvm::ArrayRef<int64_t> idxShape = index->getType().getShape();
  int64_t rank = int64_t(srcShape.size());
  if (int64_t(idxShape.size()) != rank)
    return cg.fail(indexLoc,
                   llvm::formatv("gather's source and index must have the "
                                 "same rank, got {0} and {1}",
                                 rank, idxShape.size()));
  if (*axisIn < -rank || *axisIn >= rank)
    return cg.fail(a->exprs[2] ? a->exprs[2]->getLoc().ptr : cg.curLoc,
                   llvm::formatv("gather axis {0} must be < source rank ({1})",
                                 *axisIn, rank));
  int64_t axis = *axisIn < 0 ? *axisIn + rank : *axisIn;
  for (int64_t d = 0; d < rank; ++d)
    if (d != axis && idxShape[d] != srcShape[d])
      return cg.fail(indexLoc,
                     llvm::formatv("gather's index dimension {0} ({1}) must "
                                   "match the source's ({2}): only the "
                                   "gathered axis {3} may differ",
                                   d, idxShape[d], srcShape[d], axis));
  int64_t work = index->getType().getNumElements() * srcShape[axis];
  if (work > kMaxTensorNumel)
    return cg.fail(llvm::formatv(
        "gather compares every index with every source position along the "
        "axis: {0} x {1} = {2} comparisons exceed the block limit of {3}",
        index->getType().getNumElements(), srcShape[axis], work,
        kMaxTensorNumel));
  // [..., I[axis], S[axis], ...]: output positions along `axis`, source
  // positions along axis + 1.
  FailureOr<Value> ints = asInts(cg, *src);
  if (failed(ints))
    return failure();
  Value srcWide = cg.expandDims(*ints, int(axis));
  Value idxWide = cg.expandDims(*index, int(axis + 1));
  CallArgs ar;
  ar.loc = cg.curLoc;
  ar.add(intConstant(0));
  ar.add(intConstant(srcShape[axis]));
  std::optional<FailureOr<Value>> range =
      cg.callBuiltin("triton.language.arange", ar);
  if (failed(*range))
    return failure();
  std::vector<int64_t> rangeShape(rank + 1, 1);
  rangeShape[axis + 1] = srcShape[axis];
  FailureOr<Value> positions =
      cg.reshape(**range, rangeShape, /*canReorder=*/false);
  if (failed(positions))
    return failure();
  FailureOr<Value> hit = cg.compare(CmpOpKind::Eq, idxWide, *positions);
  if (failed(hit))
    return failure();
  FailureOr<Value> picked = cg.where(*hit, srcWide, intConstant(0));
  if (failed(picked))
    return failure();
  FailureOr<std::vector<Value>> r = emitReduce(
      cg, {*picked}, axis + 1, /*keepDims=*/false,
      [](FunctionCodegen &cg, llvm::ArrayRef<Value> lhs,
         llvm::ArrayRef<Value> rhs) -> FailureOr<std::vector<Value>> {
        FailureOr<Value> o = cg.bitwise(BinaryOpKind::BitOr, lhs[0], rhs[0]);
        if (failed(o))
          return failure();
        return std::vector<Value>{*o};
      });
  if (failed(r))
    return failure();
  return cg.bitcast((*r)[0], src->getType());
}

} // namespace

void tessera::frontend::codegen::registerSortBuiltins(BuiltinRegistry &r) {
  r.addWithMethod("sort", sortBuiltin);
  r.addWithMethod("flip", flipBuiltin);
  r.addWithMethod("gather", gatherBuiltin);
  // Functions only in Triton 3.6, not tensor methods.
  r.add("triton.language.topk", topkBuiltin);
  r.add("triton.language.bitonic_merge", bitonicMergeBuiltin);
}
