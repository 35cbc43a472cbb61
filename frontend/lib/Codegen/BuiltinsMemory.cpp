//===- BuiltinsMemory.cpp - load, store, block pointers, descriptors ------===//
//
// Loads and stores through pointers, tensors of pointers and block pointers
// with Triton's checks and implicit conversions (mask and other broadcast
// to the pointer's shape, `other` and stored values cast to the pointee
// type, bool pointers accessed as int8), and tensor descriptors.
//
//===----------------------------------------------------------------------===//
#include "Builtins.h"

#include "llvm/Support/FormatVariadic.h"

using namespace tessera::frontend;
using namespace tessera::frontend::codegen;
using llvm::failure;
using llvm::FailureOr;
using llvm::LogicalResult;
using llvm::success;
namespace tt = mlir::tessera;

static llvm::SMLoc argLoc(FunctionCodegen &cg, const BoundArgs &a, size_t i) {
  return a.exprs[i] ? a.exprs[i]->getLoc().ptr : cg.curLoc;
}

static FailureOr<tt::CacheModifier>
readCache(FunctionCodegen &cg, const BoundArgs &a, size_t i, bool isStore) {
  FailureOr<std::string> s =
      cg.requireString(a[i], "cache_modifier", a.exprs[i]);
  if (failed(s))
    return failure();
  if (s->empty())
    return tt::CacheModifier::none;
  if (!isStore) {
    if (*s == ".ca")
      return tt::CacheModifier::ca;
    if (*s == ".cg")
      return tt::CacheModifier::cg;
    if (*s == ".cv")
      return tt::CacheModifier::cv;
  } else {
    if (*s == ".wb")
      return tt::CacheModifier::wb;
    if (*s == ".cg")
      return tt::CacheModifier::cg;
    if (*s == ".cs")
      return tt::CacheModifier::cs;
    if (*s == ".wt")
      return tt::CacheModifier::wt;
  }
  return cg.fail(
      argLoc(cg, a, i),
      "cache modifier '" + *s + "' is not supported by " +
          (isStore ? "stores (.wb, .cg, .cs, .wt)" : "loads (.ca, .cg, .cv)"));
}

static FailureOr<tt::EvictionPolicy>
readEviction(FunctionCodegen &cg, const BoundArgs &a, size_t i) {
  FailureOr<std::string> s =
      cg.requireString(a[i], "eviction_policy", a.exprs[i]);
  if (failed(s))
    return failure();
  if (s->empty())
    return tt::EvictionPolicy::normal;
  if (*s == "evict_last")
    return tt::EvictionPolicy::evict_last;
  if (*s == "evict_first")
    return tt::EvictionPolicy::evict_first;
  return cg.fail(argLoc(cg, a, i), "eviction policy '" + *s +
                                       "' is not supported (evict_first, "
                                       "evict_last)");
}

/// Reads a padding option into `out` (nullopt when not given).
static LogicalResult readPadding(FunctionCodegen &cg, const Value &v,
                                 const Expr *at,
                                 std::optional<tt::PaddingOption> &out) {
  FailureOr<std::string> s = cg.requireString(v, "padding_option", at);
  if (failed(s))
    return failure();
  out.reset();
  if (s->empty())
    return success();
  if (*s == "zero") {
    out = tt::PaddingOption::zero;
    return success();
  }
  if (*s == "nan") {
    out = tt::PaddingOption::nan;
    return success();
  }
  return cg.fail(at ? at->getLoc().ptr : cg.curLoc,
                 "padding option '" + *s + "' is not supported (zero, nan)");
}

/// Triton's _canonicalize_boundary_check: sorted distinct dimensions.
static FailureOr<std::vector<int32_t>> readBoundaryCheck(FunctionCodegen &cg,
                                                         const Value &v,
                                                         const Expr *at,
                                                         size_t rank) {
  std::vector<int32_t> dims;
  if (v.isNone())
    return dims;
  llvm::SmallVector<Value> elts;
  if (v.isTuple())
    elts.append(v.getElements().begin(), v.getElements().end());
  else
    elts.push_back(v);
  for (const Value &e : elts) {
    FailureOr<int64_t> d = cg.requireInt(e, "a boundary_check dimension", at);
    if (failed(d))
      return failure();
    if (*d < 0 || *d >= int64_t(rank))
      return cg.fail(at ? at->getLoc().ptr : cg.curLoc,
                     llvm::formatv("boundary_check dimension {0} is out of "
                                   "range for a rank-{1} block",
                                   *d, rank));
    dims.push_back(int32_t(*d));
  }
  llvm::sort(dims);
  if (std::adjacent_find(dims.begin(), dims.end()) != dims.end())
    return cg.fail(at ? at->getLoc().ptr : cg.curLoc,
                   "duplicate dimension in boundary_check");
  return dims;
}

/// A pointer to `int1` is accessed as a pointer to `int8`.
static FailureOr<Value> boolPtrAsInt8(FunctionCodegen &cg, const Value &ptr) {
  const TType &elem = ptr.getType().getElement();
  if (!elem.getPointee().isBool())
    return ptr;
  TType p8 =
      TType::pointer(TType::scalar(ScalarKind::Int8), elem.getAddressSpace());
  return cg.castTo(ptr, p8);
}

static FailureOr<Value> load(FunctionCodegen &cg, CallArgs &args) {
  FailureOr<BoundArgs> a = cg.bindArgs(
      args, "load",
      {"pointer", "mask", "other", "boundary_check", "padding_option",
       "cache_modifier", "eviction_policy", "volatile"},
      1);
  if (failed(a))
    return failure();
  FailureOr<tt::CacheModifier> cache = readCache(cg, *a, 5, false);
  FailureOr<tt::EvictionPolicy> evict = readEviction(cg, *a, 6);
  std::optional<tt::PaddingOption> padding;
  if (failed(readPadding(cg, (*a)[4], a->exprs[4], padding)))
    return failure();
  FailureOr<bool> isVolatile = cg.requireBool((*a)[7], "volatile", a->exprs[7]);
  if (failed(cache) || failed(evict) || failed(isVolatile))
    return failure();
  const Value &ptrArg = (*a)[0];
  if (!ptrArg.isTensor() || !ptrArg.getType().getElement().isPointer())
    return cg.fail(argLoc(cg, *a, 0), "unsupported pointer type " +
                                          ptrArg.typeStr() + " in tl.load");
  auto paddingAttr = [&]() -> tt::PaddingOptionAttr {
    if (!padding)
      return nullptr;
    return tt::PaddingOptionAttr::get(cg.getContext(), *padding);
  };

  if (ptrArg.getType().isBlockPointer()) {
    if (!(*a)[1].isNone() || !(*a)[2].isNone())
      return cg.fail("`mask` and `other` arguments cannot be specified for "
                     "loading block pointers",
                     "use boundary_check and padding_option");
    const TType &block = ptrArg.getType().getPointee();
    if (block.isInt() && padding == tt::PaddingOption::nan)
      return cg.fail(argLoc(cg, *a, 4), "padding option 'nan' is not "
                                        "supported for integer block "
                                        "pointers");
    FailureOr<std::vector<int32_t>> check =
        readBoundaryCheck(cg, (*a)[3], a->exprs[3], block.getShape().size());
    if (failed(check))
      return failure();
    auto op =
        tt::LoadOp::create(cg.b, cg.loc, block.toMLIR(cg.getContext()),
                           ptrArg.getHandle(), mlir::Value(), mlir::Value(),
                           *check, paddingAttr(), *cache, *evict, *isVolatile);
    return Value::tensor(op, block);
  }

  Value ptr = ptrArg;
  std::optional<Value> mask, other;
  if (!(*a)[1].isNone()) {
    FailureOr<Value> m = cg.requireTensor((*a)[1], "mask", a->exprs[1]);
    if (failed(m))
      return failure();
    mask = *m;
  }
  if (!(*a)[2].isNone()) {
    FailureOr<Value> o = cg.requireTensor((*a)[2], "other", a->exprs[2]);
    if (failed(o))
      return failure();
    other = *o;
  }
  if (!mask && other)
    return cg.fail(argLoc(cg, *a, 2), "`other` cannot be provided without "
                                      "`mask`");
  if (padding || !(*a)[3].isNone())
    return cg.fail("`padding_option` and `boundary_check` apply only to block "
                   "pointers; a tensor of pointers is guarded by `mask`");
  if (!ptr.getType().isBlock()) {
    if (mask && mask->getType().isBlock())
      return cg.fail(argLoc(cg, *a, 1), "the mask cannot be a block when the "
                                        "pointer is a scalar");
    if (other && other->getType().isBlock())
      return cg.fail(argLoc(cg, *a, 2), "`other` cannot be a block when the "
                                        "pointer is a scalar");
  } else {
    std::vector<Value> parts = {ptr};
    if (mask)
      parts.push_back(*mask);
    if (other)
      parts.push_back(*other);
    FailureOr<std::vector<Value>> b = cg.broadcastAll(parts);
    if (failed(b))
      return failure();
    ptr = (*b)[0];
    if (mask)
      mask = (*b)[1];
    if (other)
      other = (*b)[mask ? 2 : 1];
  }
  if (mask && !mask->getType().isBool())
    return cg.fail(argLoc(cg, *a, 1),
                   "the mask must have boolean type, got " + mask->typeStr());
  bool isBool = ptr.getType().getElement().getPointee().isBool();
  FailureOr<Value> p = boolPtrAsInt8(cg, ptr);
  if (failed(p))
    return failure();
  ptr = *p;
  TType elem = ptr.getType().getElement().getPointee();
  if (other) {
    FailureOr<Value> o = cg.castTo(*other, elem);
    if (failed(o))
      return failure();
    other = *o;
  }
  TType resultType = ptr.getType().withElement(elem);
  auto op = tt::LoadOp::create(
      cg.b, cg.loc, resultType.toMLIR(cg.getContext()), ptr.getHandle(),
      mask ? mask->getHandle() : mlir::Value(),
      other ? other->getHandle() : mlir::Value(), llvm::ArrayRef<int32_t>{},
      nullptr, *cache, *evict, *isVolatile);
  Value result = Value::tensor(op, resultType);
  if (isBool)
    return cg.castTo(result, TType::scalar(ScalarKind::Int1));
  return result;
}

static FailureOr<Value> store(FunctionCodegen &cg, CallArgs &args) {
  FailureOr<BoundArgs> a =
      cg.bindArgs(args, "store",
                  {"pointer", "value", "mask", "boundary_check",
                   "cache_modifier", "eviction_policy"},
                  2);
  if (failed(a))
    return failure();
  FailureOr<tt::CacheModifier> cache = readCache(cg, *a, 4, true);
  FailureOr<tt::EvictionPolicy> evict = readEviction(cg, *a, 5);
  if (failed(cache) || failed(evict))
    return failure();
  const Value &ptrArg = (*a)[0];
  if (!ptrArg.isTensor() || !ptrArg.getType().getElement().isPointer())
    return cg.fail(argLoc(cg, *a, 0), "unsupported pointer type " +
                                          ptrArg.typeStr() + " in tl.store");
  if (ptrArg.getType().getElement().isConstPointer())
    return cg.fail(argLoc(cg, *a, 0),
                   "cannot store to a constant pointer (" + ptrArg.typeStr() +
                       ")",
                   "the pointer comes from a tl.const parameter or a `*k` "
                   "signature entry");
  FailureOr<Value> value = cg.requireTensor((*a)[1], "value", a->exprs[1]);
  if (failed(value))
    return failure();

  if (ptrArg.getType().isBlockPointer()) {
    if (!(*a)[2].isNone())
      return cg.fail("a `mask` cannot be specified for storing through block "
                     "pointers",
                     "use boundary_check");
    const TType &block = ptrArg.getType().getPointee();
    Value v = *value;
    if (!v.getType().isBlock())
      v = cg.splat(v, block.getShape());
    if (v.getType().getShape() != block.getShape())
      return cg.fail(argLoc(cg, *a, 1),
                     "the value's shape " + v.getType().str() +
                         " does not match the block pointer's " + block.str());
    if (v.getType().getElement() != block.getElement())
      return cg.fail(
          argLoc(cg, *a, 1),
          "the value's element type " + v.getType().getElement().str() +
              " does not match the block's " + block.getElement().str(),
          "convert it with .to(...) first");
    FailureOr<std::vector<int32_t>> check =
        readBoundaryCheck(cg, (*a)[3], a->exprs[3], block.getShape().size());
    if (failed(check))
      return failure();
    tt::StoreOp::create(cg.b, cg.loc, ptrArg.getHandle(), v.getHandle(),
                        mlir::Value(), *check, *cache, *evict);
    return Value::none();
  }

  if (!(*a)[3].isNone())
    return cg.fail(argLoc(cg, *a, 3),
                   "`boundary_check` applies only to block pointers; a tensor "
                   "of pointers is guarded by `mask`");
  Value ptr = ptrArg, v = *value;
  std::optional<Value> mask;
  if (!(*a)[2].isNone()) {
    FailureOr<Value> m = cg.requireTensor((*a)[2], "mask", a->exprs[2]);
    if (failed(m))
      return failure();
    mask = *m;
  }
  if (!ptr.getType().isBlock()) {
    if (v.getType().isBlock())
      return cg.fail(argLoc(cg, *a, 1), "the value cannot be a block when the "
                                        "pointer is a scalar");
    if (mask && mask->getType().isBlock())
      return cg.fail(argLoc(cg, *a, 2), "the mask cannot be a block when the "
                                        "pointer is a scalar");
  } else {
    std::vector<int64_t> ptrShape(ptr.getType().getShape());
    std::vector<Value> parts = {ptr, v};
    if (mask)
      parts.push_back(*mask);
    FailureOr<std::vector<Value>> b = cg.broadcastAll(parts);
    if (failed(b))
      return failure();
    if ((*b)[0].getType().getShape() != llvm::ArrayRef<int64_t>(ptrShape)) {
      bool valueTooBig =
          v.getType().getShape() != llvm::ArrayRef<int64_t>(ptrShape) &&
          v.getType().isBlock();
      return cg.fail(argLoc(cg, *a, valueTooBig ? 1 : 2),
                     std::string("the stored ") +
                         (valueTooBig ? "value" : "mask") +
                         " does not fit the block of pointers it is stored "
                         "through: " +
                         (valueTooBig ? v.getType() : mask->getType()).str() +
                         " vs " + ptr.getType().str());
    }
    ptr = (*b)[0];
    v = (*b)[1];
    if (mask)
      mask = (*b)[2];
  }
  FailureOr<Value> p = boolPtrAsInt8(cg, ptr);
  if (failed(p))
    return failure();
  ptr = *p;
  FailureOr<Value> cv = cg.castTo(v, ptr.getType().getElement().getPointee());
  if (failed(cv))
    return failure();
  if (mask && !mask->getType().isBool())
    return cg.fail(argLoc(cg, *a, 2),
                   "the mask must have boolean type, got " + mask->typeStr());
  tt::StoreOp::create(cg.b, cg.loc, ptr.getHandle(), cv->getHandle(),
                      mask ? mask->getHandle() : mlir::Value(),
                      llvm::ArrayRef<int32_t>{}, *cache, *evict);
  return Value::none();
}

/// Triton's _convert_elem_to_ir_value: a shape, stride or offset as an i64
/// (`wide`) or i32 scalar.
static FailureOr<Value> indexValue(FunctionCodegen &cg, const Value &v,
                                   bool wide, const Expr *at) {
  TType target = TType::scalar(wide ? ScalarKind::Int64 : ScalarKind::Int32);
  if (v.isConstexpr() && v.getHost().isIntegral()) {
    int64_t x = v.getHost().getInt();
    if (!wide && (x < INT32_MIN || x > INT32_MAX))
      return cg.fail(at ? at->getLoc().ptr : cg.curLoc,
                     llvm::formatv("offsets and block shapes are 32-bit; {0} "
                                   "is out of range",
                                   x));
    return cg.scalarConstant(v.getHost(), target);
  }
  if (v.isTensor()) {
    if (v.getType().isBlock() && v.getType().getNumElements() != 1)
      return cg.fail(at ? at->getLoc().ptr : cg.curLoc,
                     "expected a scalar in shape/strides/offsets, got " +
                         v.getType().str());
    if (!v.getType().isInt())
      return cg.fail(at ? at->getLoc().ptr : cg.curLoc,
                     "expected an integer scalar in shape/strides/offsets, "
                     "got " +
                         v.getType().str());
    if (!wide && v.getType().getPrimitiveBitwidth() == 64)
      return cg.fail(at ? at->getLoc().ptr : cg.curLoc,
                     "offsets are 32-bit: this one is a 64-bit integer",
                     "add a `.to(tl.int32)` or use regular indexing for 64-bit "
                     "support");
    Value s = v;
    if (s.getType().isBlock()) {
      FailureOr<Value> u = unsplat(cg, s);
      if (failed(u))
        return failure();
      s = *u;
    }
    TType dst =
        TType::scalar(wide ? (s.getType().isSignedInt() ? ScalarKind::Int64
                                                        : ScalarKind::UInt64)
                           : (s.getType().isSignedInt() ? ScalarKind::Int32
                                                        : ScalarKind::UInt32));
    FailureOr<Value> c = cg.castTo(s, dst);
    if (failed(c))
      return failure();
    return Value::tensor(c->getHandle(), target);
  }
  return cg.fail(at ? at->getLoc().ptr : cg.curLoc,
                 "unsupported element in shape/strides/offsets: " +
                     v.typeStr());
}

static FailureOr<std::vector<Value>>
indexValues(FunctionCodegen &cg, const Value &list, bool wide, const Expr *at) {
  llvm::SmallVector<Value> elts;
  if (list.isTuple())
    elts.append(list.getElements().begin(), list.getElements().end());
  else
    elts.push_back(list);
  std::vector<Value> out;
  for (const Value &e : elts) {
    FailureOr<Value> v = indexValue(cg, e, wide, at);
    if (failed(v))
      return failure();
    out.push_back(*v);
  }
  return out;
}

static llvm::SmallVector<mlir::Value> handles(llvm::ArrayRef<Value> values) {
  llvm::SmallVector<mlir::Value> out;
  for (const Value &v : values)
    out.push_back(v.getHandle());
  return out;
}

static FailureOr<Value> makeBlockPtr(FunctionCodegen &cg, CallArgs &args) {
  FailureOr<BoundArgs> a = cg.bindArgs(
      args, "make_block_ptr",
      {"base", "shape", "strides", "offsets", "block_shape", "order"}, 6);
  if (failed(a))
    return failure();
  const Value &base = (*a)[0];
  if (!base.isTensor() || !base.getType().isPointer() ||
      base.getType().isBlockPointer())
    return cg.fail(argLoc(cg, *a, 0),
                   "expected `base` to be a pointer to a scalar, got " +
                       base.typeStr());
  FailureOr<std::vector<Value>> shape =
      indexValues(cg, (*a)[1], true, a->exprs[1]);
  FailureOr<std::vector<Value>> strides =
      indexValues(cg, (*a)[2], true, a->exprs[2]);
  FailureOr<std::vector<Value>> offsets =
      indexValues(cg, (*a)[3], false, a->exprs[3]);
  FailureOr<std::vector<int64_t>> blockShape =
      cg.requireShape((*a)[4], "block_shape", a->exprs[4]);
  if (failed(shape) || failed(strides) || failed(offsets) || failed(blockShape))
    return failure();
  llvm::SmallVector<int32_t> order;
  llvm::SmallVector<Value> orderElts;
  if ((*a)[5].isTuple())
    orderElts.append((*a)[5].getElements().begin(),
                     (*a)[5].getElements().end());
  else
    orderElts.push_back((*a)[5]);
  for (const Value &o : orderElts) {
    FailureOr<int64_t> d = cg.requireInt(o, "an order entry", a->exprs[5]);
    if (failed(d))
      return failure();
    order.push_back(int32_t(*d));
  }
  llvm::SmallVector<int32_t> sorted(order);
  llvm::sort(sorted);
  for (size_t i = 0; i < sorted.size(); ++i)
    if (sorted[i] != int32_t(i))
      return cg.fail(argLoc(cg, *a, 5), "expected a permutation of (0, 1, ..., "
                                        "len(order)-1) in order");
  size_t rank = blockShape->size();
  if (shape->size() != rank || strides->size() != rank ||
      offsets->size() != rank || order.size() != rank)
    return cg.fail("expected shape, strides, offsets, block_shape and order to "
                   "have the same length");
  FailureOr<Value> b = boolPtrAsInt8(cg, base);
  if (failed(b))
    return failure();
  TType tile = TType::block(b->getType().getPointee(), *blockShape);
  TType type = TType::pointer(tile, b->getType().getAddressSpace());
  auto op = tt::MakeBlockPtrOp::create(
      cg.b, cg.loc, type.toMLIR(cg.getContext()), b->getHandle(),
      handles(*shape), handles(*strides), handles(*offsets), order);
  return Value::tensor(op, type);
}

static FailureOr<Value> advance(FunctionCodegen &cg, CallArgs &args) {
  FailureOr<BoundArgs> a = cg.bindArgs(args, "advance", {"base", "offsets"}, 2);
  if (failed(a))
    return failure();
  const Value &base = (*a)[0];
  if (!base.isTensor() || !base.getType().isBlockPointer())
    return cg.fail(argLoc(cg, *a, 0),
                   "advance() needs a block pointer, got " + base.typeStr());
  FailureOr<std::vector<Value>> offsets =
      indexValues(cg, (*a)[1], false, a->exprs[1]);
  if (failed(offsets))
    return failure();
  if (offsets->size() != base.getType().getPointee().getShape().size())
    return cg.fail(argLoc(cg, *a, 1), "advance() needs one offset per "
                                      "dimension of the block");
  auto op = tt::AdvanceOp::create(cg.b, cg.loc,
                                  base.getType().toMLIR(cg.getContext()),
                                  base.getHandle(), handles(*offsets));
  return Value::tensor(op, base.getType());
}

static FailureOr<Value> makeTensorDescriptor(FunctionCodegen &cg,
                                             CallArgs &args) {
  FailureOr<BoundArgs> a = cg.bindArgs(
      args, "make_tensor_descriptor",
      {"base", "shape", "strides", "block_shape", "padding_option"}, 4);
  if (failed(a))
    return failure();
  const Value &base = (*a)[0];
  if (!base.isTensor() || !base.getType().isPointer() ||
      base.getType().isBlockPointer())
    return cg.fail(argLoc(cg, *a, 0),
                   "expected `base` to be a pointer to a scalar, got " +
                       base.typeStr());
  llvm::ArrayRef<Value> shapeV = (*a)[1].isTuple()
                                     ? (*a)[1].getElements()
                                     : llvm::ArrayRef<Value>((*a)[1]);
  llvm::ArrayRef<Value> stridesV = (*a)[2].isTuple()
                                       ? (*a)[2].getElements()
                                       : llvm::ArrayRef<Value>((*a)[2]);
  size_t ndim = shapeV.size();
  if (ndim < 1 || ndim > 5)
    return cg.fail(argLoc(cg, *a, 1),
                   llvm::formatv("expected 1 <= ndim <= 5 but got {0} "
                                 "dimensions",
                                 ndim));
  if (stridesV.size() != ndim)
    return cg.fail(argLoc(cg, *a, 2), llvm::formatv("expected {0} strides but "
                                                    "got {1}",
                                                    ndim, stridesV.size()));
  FailureOr<std::vector<int64_t>> blockShape =
      cg.requireShape((*a)[3], "block_shape", a->exprs[3]);
  if (failed(blockShape))
    return failure();
  if (blockShape->size() != ndim)
    return cg.fail(argLoc(cg, *a, 3),
                   llvm::formatv("expected block_shape to have {0} dimensions "
                                 "but got {1}",
                                 ndim, blockShape->size()));
  const TType &elem = base.getType().getPointee();
  int64_t elemBytes = elem.getPrimitiveBitwidth() / 8;
  if (blockShape->back() * elemBytes < 16)
    return cg.fail(argLoc(cg, *a, 3),
                   llvm::formatv("descriptor block shape must have at least 16 "
                                 "bytes in the last dimension, but got {0} * "
                                 "{1} = {2} bytes",
                                 blockShape->back(), elemBytes,
                                 blockShape->back() * elemBytes));
  const Value &last = stridesV.back();
  if (!(last.isConstexpr() && last.getHost().isIntegral() &&
        last.getHost().getInt() == 1))
    return cg.fail(argLoc(cg, *a, 2),
                   "the last stride of a tensor descriptor must be the "
                   "constant 1, got " +
                       last.typeStr());
  std::optional<tt::PaddingOption> padding;
  if (failed(readPadding(cg, (*a)[4], a->exprs[4], padding)))
    return failure();
  tt::PaddingOption pad = padding.value_or(tt::PaddingOption::zero);
  if (elem.isInt() && pad == tt::PaddingOption::nan)
    return cg.fail(argLoc(cg, *a, 4), "padding option 'nan' is not supported "
                                      "for integer blocks");
  std::vector<Value> shape, strides;
  for (const Value &s : shapeV) {
    FailureOr<Value> v = cg.makeScalar(s, TType::scalar(ScalarKind::Int32));
    if (failed(v))
      return failure();
    shape.push_back(*v);
  }
  for (const Value &s : stridesV) {
    FailureOr<Value> v = cg.makeScalar(s, TType::scalar(ScalarKind::Int64));
    if (failed(v))
      return failure();
    strides.push_back(*v);
  }
  TType block = TType::block(elem, *blockShape);
  TType type = TType::tensorDesc(block);
  auto op = tt::MakeTensorDescOp::create(
      cg.b, cg.loc, type.toMLIR(cg.getContext()), base.getHandle(),
      handles(shape), handles(strides), pad);
  return Value::descriptor(op, type, shape, strides);
}

static FailureOr<Value> descriptorLoadImpl(FunctionCodegen &cg,
                                           const Value &desc,
                                           const Value &offsetsV,
                                           const Expr *at) {
  if (!desc.isDescriptor())
    return cg.fail("expected a tensor descriptor, got " + desc.typeStr());
  const TType &block = desc.getType().getDescBlock();
  FailureOr<std::vector<Value>> offsets = indexValues(cg, offsetsV, false, at);
  if (failed(offsets))
    return failure();
  if (offsets->size() != block.getShape().size())
    return cg.fail(at ? at->getLoc().ptr : cg.curLoc,
                   llvm::formatv("expected {0} offsets, but got {1}",
                                 block.getShape().size(), offsets->size()));
  auto op =
      tt::DescriptorLoadOp::create(cg.b, cg.loc, block.toMLIR(cg.getContext()),
                                   desc.getHandle(), handles(*offsets));
  return Value::tensor(op, block);
}

static FailureOr<Value>
descriptorStoreImpl(FunctionCodegen &cg, const Value &desc,
                    const Value &offsetsV, const Value &value,
                    const Expr *offsetsAt, const Expr *valueAt) {
  if (!desc.isDescriptor())
    return cg.fail("expected a tensor descriptor, got " + desc.typeStr());
  const TType &block = desc.getType().getDescBlock();
  FailureOr<std::vector<Value>> offsets =
      indexValues(cg, offsetsV, false, offsetsAt);
  if (failed(offsets))
    return failure();
  if (offsets->size() != block.getShape().size())
    return cg.fail(offsetsAt ? offsetsAt->getLoc().ptr : cg.curLoc,
                   llvm::formatv("expected {0} offsets, but got {1}",
                                 block.getShape().size(), offsets->size()));
  FailureOr<Value> v = cg.requireTensor(value, "value", valueAt);
  if (failed(v))
    return failure();
  if (v->getType().getShape() != block.getShape())
    return cg.fail(valueAt ? valueAt->getLoc().ptr : cg.curLoc,
                   "the stored value has type " + v->getType().str() +
                       " but the descriptor's block is " + block.str());
  FailureOr<Value> c = cg.castTo(*v, block.getElement());
  if (failed(c))
    return failure();
  tt::DescriptorStoreOp::create(cg.b, cg.loc, desc.getHandle(),
                                handles(*offsets), c->getHandle());
  return Value::none();
}

static FailureOr<Value> descLoad(FunctionCodegen &cg, CallArgs &args) {
  FailureOr<BoundArgs> a = cg.bindArgs(args, "load", {"desc", "offsets"}, 2);
  if (failed(a))
    return failure();
  return descriptorLoadImpl(cg, (*a)[0], (*a)[1], a->exprs[1]);
}

static FailureOr<Value> descStore(FunctionCodegen &cg, CallArgs &args) {
  FailureOr<BoundArgs> a =
      cg.bindArgs(args, "store", {"desc", "offsets", "value"}, 3);
  if (failed(a))
    return failure();
  return descriptorStoreImpl(cg, (*a)[0], (*a)[1], (*a)[2], a->exprs[1],
                             a->exprs[2]);
}

static FailureOr<Value> descUnsupported(FunctionCodegen &cg, CallArgs &) {
  return cg.fail("descriptor atomics, gathers and scatters are not supported "
                 "yet");
}

void tessera::frontend::codegen::registerMemoryBuiltins(BuiltinRegistry &r) {
  r.add("triton.language.load", load);
  r.addWithMethod("store", store);
  r.add("triton.language.make_block_ptr", makeBlockPtr);
  r.addWithMethod("advance", advance);
  r.add("triton.language.make_tensor_descriptor", makeTensorDescriptor);
  r.add("tensor_descriptor.load", descLoad);
  r.add("tensor_descriptor.store", descStore);
  r.add("triton.language.load_tensor_descriptor", descLoad);
  r.add("triton.language.store_tensor_descriptor", descStore);
  for (const char *m : {"atomic_add", "atomic_min", "atomic_max", "atomic_and",
                        "atomic_or", "atomic_xor", "gather", "scatter"})
    r.add(std::string("tensor_descriptor.") + m, descUnsupported);
}
