//===- MemoryOps.cpp - Global loads, stores and atomics -------------------===//
//
// Loads and stores move as many consecutive registers at once as the layout
// keeps together and the axis analysis proves contiguous, aligned and
// equally masked (up to the target's widest access). Copies of an element in
// several threads are stored once, and atomics run once per element.
//
//===----------------------------------------------------------------------===//
#include "Lowering.h"

#include "tessera/Dialect/TesseraGPU/IR/LayoutUtils.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

#include <set>

using namespace mlir;
using namespace mlir::tessera;
using namespace mlir::tessera::lowering;

namespace {

Value createTrue(OpBuilder &b, Location loc) {
  return LLVM::ConstantOp::create(b, loc, b.getI1Type(), b.getBoolAttr(true));
}

} // namespace

unsigned lowering::getVectorWidth(LoweringContext &ctx, Value ptr, Value mask,
                                  Type elementType) {
  auto type = dyn_cast<RankedTensorType>(ptr.getType());
  if (!type)
    return 1;
  LinearLayout layout = getLayout(type);
  if (!layout.hasInDim(kRegisterDim) ||
      layout.getInDimSizeLog2(kRegisterDim) == 0)
    return 1;
  auto [dim, run] = getRegisterRun(layout);
  if (dim < 0)
    return 1;
  SmallVector<unsigned> order{unsigned(dim)};
  for (unsigned d = 0; d < type.getRank(); ++d)
    if (int(d) != dim)
      order.push_back(d);
  unsigned vec = std::min(run, ctx.axis.getAccessAlignment(ptr, mask, order));
  unsigned bits = std::max(8u, getElementBytes(elementType) * 8);
  vec = std::min(vec, std::max(1u, ctx.options.maxVectorBits / bits));
  return std::max(1u, vec);
}

Value lowering::buildVector(OpBuilder &b, Location loc, ArrayRef<Value> regs) {
  if (regs.size() == 1)
    return regs.front();
  auto type = VectorType::get({int64_t(regs.size())}, regs.front().getType());
  Value v = LLVM::UndefOp::create(b, loc, type);
  for (auto [i, reg] : llvm::enumerate(regs))
    v = LLVM::InsertElementOp::create(b, loc, v, reg, createI32(b, loc, i));
  return v;
}

Value lowering::emitMaskedLoad(RewriterBase &rewriter, Location loc,
                               LoweringContext &ctx, Value ptr, Type accessType,
                               Value pred, Value other, unsigned alignment,
                               bool isVolatile) {
  // A volatile load (a spin on a flag) must stay a volatile LLVM load, which
  // nothing hoists out of its loop: the target's hook is not asked.
  if (!isVolatile) {
    FailureOr<Value> loaded =
        ctx.hooks.loadGlobal(rewriter, loc, ptr, accessType,
                             pred ? pred : createTrue(rewriter, loc), other);
    if (succeeded(loaded))
      return *loaded;
  }
  auto plainLoad = [&](OpBuilder &b) {
    return LLVM::LoadOp::create(b, loc, accessType, ptr, alignment, isVolatile)
        .getResult();
  };
  if (!pred)
    return plainLoad(rewriter);
  return emitIf(rewriter, loc, pred, other,
                [&](OpBuilder &b) { return SmallVector<Value>{plainLoad(b)}; })
      .front();
}

void lowering::emitMaskedStore(RewriterBase &rewriter, Location loc,
                               LoweringContext &ctx, Value ptr, Value value,
                               Value pred, unsigned alignment) {
  if (succeeded(ctx.hooks.storeGlobal(rewriter, loc, ptr, value,
                                      pred ? pred : createTrue(rewriter, loc))))
    return;
  auto plainStore = [&](OpBuilder &b) {
    LLVM::StoreOp::create(b, loc, value, ptr, alignment);
    return SmallVector<Value>{};
  };
  if (!pred)
    plainStore(rewriter);
  else
    emitIf(rewriter, loc, pred, {}, plainStore);
}

namespace {

struct LoadLowering : public GPUPattern<LoadOp> {
  using GPUPattern::GPUPattern;
  LogicalResult
  matchAndRewrite(LoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto ptrElem = dyn_cast<PointerType>(getElementTypeOrSelf(op.getPtr()));
    if (!ptrElem || ptrElem.isBlockPointer())
      return rewriter.notifyMatchFailure(op, "a block pointer (DescriptorOps)");
    Type resultType = op.getType();
    Type element =
        getTypeConverter()->convertType(getElementTypeOrSelf(resultType));
    SmallVector<Value> ptrs =
        unpackRegisters(rewriter, loc, adaptor.getPtr(), op.getPtr().getType());
    SmallVector<Value> masks, others;
    if (adaptor.getMask())
      masks = unpackRegisters(rewriter, loc, adaptor.getMask(),
                              op.getMask().getType());
    if (adaptor.getOther())
      others = unpackRegisters(rewriter, loc, adaptor.getOther(),
                               op.getOther().getType());
    unsigned vec = getVectorWidth(ctx, op.getPtr(), op.getMask(),
                                  getElementTypeOrSelf(resultType));
    unsigned bytes = getElementBytes(element);
    SmallVector<Value> results;
    for (size_t r = 0; r < ptrs.size(); r += vec) {
      Type accessType =
          vec == 1 ? element : VectorType::get({int64_t(vec)}, element);
      SmallVector<Value> otherRegs;
      for (unsigned i = 0; i < vec; ++i)
        otherRegs.push_back(others.empty() ? createZero(rewriter, loc, element)
                                           : others[r + i]);
      Value other = buildVector(rewriter, loc, otherRegs);
      Value pred = masks.empty() ? Value() : masks[r];
      Value loaded =
          emitMaskedLoad(rewriter, loc, ctx, ptrs[r], accessType, pred, other,
                         vec * bytes, op.getIsVolatile());
      if (vec == 1) {
        results.push_back(loaded);
        continue;
      }
      for (unsigned i = 0; i < vec; ++i)
        results.push_back(LLVM::ExtractElementOp::create(
            rewriter, loc, loaded, createI32(rewriter, loc, i)));
    }
    rewriter.replaceOp(
        op,
        packRegisters(rewriter, loc,
                      getTypeConverter()->convertType(resultType), results));
    return success();
  }
};

struct StoreLowering : public GPUPattern<StoreOp> {
  using GPUPattern::GPUPattern;
  LogicalResult
  matchAndRewrite(StoreOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto ptrElem = dyn_cast<PointerType>(getElementTypeOrSelf(op.getPtr()));
    if (!ptrElem || ptrElem.isBlockPointer())
      return rewriter.notifyMatchFailure(op, "a block pointer (DescriptorOps)");
    Type valueType = op.getValue().getType();
    Type element =
        getTypeConverter()->convertType(getElementTypeOrSelf(valueType));
    SmallVector<Value> ptrs =
        unpackRegisters(rewriter, loc, adaptor.getPtr(), op.getPtr().getType());
    SmallVector<Value> values =
        unpackRegisters(rewriter, loc, adaptor.getValue(), valueType);
    SmallVector<Value> masks;
    if (adaptor.getMask())
      masks = unpackRegisters(rewriter, loc, adaptor.getMask(),
                              op.getMask().getType());

    // Only one thread writes each element: the one whose broadcast bits
    // are zero. For a scalar store, thread 0.
    Value owner;
    std::set<SmallVector<int32_t>> seen;
    SmallVector<bool> firstCopy(ptrs.size(), true);
    auto tensor = dyn_cast<RankedTensorType>(op.getPtr().getType());
    FailureOr<ThreadIndex> tid = getThreadIndex(rewriter, loc, ctx, op);
    if (failed(tid))
      return failure();
    if (tensor) {
      LinearLayout layout = getLayout(tensor);
      owner = emitOwnerPredicate(rewriter, loc, layout, *tid);
      for (size_t r = 0; r < ptrs.size(); ++r)
        firstCopy[r] = seen.insert(getRegisterCoords(layout, r)).second;
    } else {
      Value isFirst = LLVM::ICmpOp::create(
          rewriter, loc, LLVM::ICmpPredicate::eq,
          LLVM::OrOp::create(rewriter, loc, tid->lane, tid->warp),
          createI32(rewriter, loc, 0));
      owner = isFirst;
    }

    unsigned vec = getVectorWidth(ctx, op.getPtr(), op.getMask(),
                                  getElementTypeOrSelf(valueType));
    unsigned bytes = getElementBytes(element);
    for (size_t r = 0; r < ptrs.size(); r += vec) {
      if (!firstCopy[r])
        continue;
      Value value =
          buildVector(rewriter, loc, ArrayRef<Value>(values).slice(r, vec));
      Value pred = masks.empty() ? Value() : masks[r];
      if (owner)
        pred = pred
                   ? LLVM::AndOp::create(rewriter, loc, pred, owner).getResult()
                   : owner;
      emitMaskedStore(rewriter, loc, ctx, ptrs[r], value, pred, vec * bytes);
    }
    rewriter.eraseOp(op);
    return success();
  }
};

LLVM::AtomicOrdering getOrdering(MemSemantic sem) {
  switch (sem) {
  case MemSemantic::relaxed:
    return LLVM::AtomicOrdering::monotonic;
  case MemSemantic::acquire:
    return LLVM::AtomicOrdering::acquire;
  case MemSemantic::release:
    return LLVM::AtomicOrdering::release;
  case MemSemantic::acq_rel:
    return LLVM::AtomicOrdering::acq_rel;
  }
  llvm_unreachable("unknown memory semantic");
}

std::optional<LLVM::AtomicBinOp> getBinOp(RMWOp op, Type element) {
  bool isFloat = isa<FloatType>(element);
  switch (op) {
  case RMWOp::add:
    return isFloat ? LLVM::AtomicBinOp::fadd : LLVM::AtomicBinOp::add;
  case RMWOp::fadd:
    return LLVM::AtomicBinOp::fadd;
  case RMWOp::max:
    return isFloat ? LLVM::AtomicBinOp::fmax : LLVM::AtomicBinOp::max;
  case RMWOp::min:
    return isFloat ? LLVM::AtomicBinOp::fmin : LLVM::AtomicBinOp::min;
  case RMWOp::umax:
    return LLVM::AtomicBinOp::umax;
  case RMWOp::umin:
    return LLVM::AtomicBinOp::umin;
  case RMWOp::And:
    return LLVM::AtomicBinOp::_and;
  case RMWOp::Or:
    return LLVM::AtomicBinOp::_or;
  case RMWOp::Xor:
    return LLVM::AtomicBinOp::_xor;
  case RMWOp::xchg:
    return LLVM::AtomicBinOp::xchg;
  }
  return std::nullopt;
}

/// Runs `emitOne(reg, builder)` once per element of an atomic op (in the
/// owning thread, under its mask) and gives every thread the old values:
/// for a scalar, thread 0 runs it and shares the result through scratch.
template <typename OpT>
LogicalResult
lowerAtomic(OpT op, ConversionPatternRewriter &rewriter, LoweringContext &ctx,
            const TypeConverter &converter, Value adaptorPtr, Value adaptorMask,
            Type maskType,
            llvm::function_ref<Value(OpBuilder &, size_t, Value)> emitOne) {
  Location loc = op.getLoc();
  Type resultType = op.getType();
  Type element = converter.convertType(getElementTypeOrSelf(resultType));
  SmallVector<Value> ptrs =
      unpackRegisters(rewriter, loc, adaptorPtr, op.getPtr().getType());
  SmallVector<Value> masks;
  if (adaptorMask)
    masks = unpackRegisters(rewriter, loc, adaptorMask, maskType);
  FailureOr<ThreadIndex> tid = getThreadIndex(rewriter, loc, ctx, op);
  if (failed(tid))
    return failure();
  auto tensor = dyn_cast<RankedTensorType>(op.getPtr().getType());
  Value owner;
  if (tensor) {
    owner = emitOwnerPredicate(rewriter, loc, getLayout(tensor), *tid);
    if (owner && !op->use_empty())
      return op.emitError("atomics whose old values are used need a layout "
                          "without copies of an element in several threads");
  } else {
    owner = LLVM::ICmpOp::create(
        rewriter, loc, LLVM::ICmpPredicate::eq,
        LLVM::OrOp::create(rewriter, loc, tid->lane, tid->warp),
        createI32(rewriter, loc, 0));
  }
  SmallVector<Value> results;
  for (size_t r = 0; r < ptrs.size(); ++r) {
    Value pred = masks.empty() ? Value() : masks[r];
    if (owner)
      pred = pred ? LLVM::AndOp::create(rewriter, loc, pred, owner).getResult()
                  : owner;
    Value zero = createZero(rewriter, loc, element);
    if (!pred) {
      results.push_back(emitOne(rewriter, r, ptrs[r]));
      continue;
    }
    results.push_back(emitIf(rewriter, loc, pred, zero, [&](OpBuilder &b) {
                        return SmallVector<Value>{emitOne(b, r, ptrs[r])};
                      }).front());
  }
  if (!tensor && !op->use_empty()) {
    // Thread 0 holds the old value; every thread needs it.
    FailureOr<Value> slot =
        getSharedPointer(rewriter, loc, ctx,
                         createI32(rewriter, loc, ctx.plan.scratchOffset), op);
    if (failed(slot))
      return failure();
    if (failed(ctx.hooks.createBarrier(rewriter, loc)))
      return op.emitError("scalar atomics need a block barrier");
    Value stored = results.front();
    Type storage = stored.getType();
    if (isa<LLVM::LLVMPointerType>(storage))
      return op.emitError("atomics on pointers are not supported");
    emitIf(rewriter, loc, owner, {}, [&](OpBuilder &b) {
      LLVM::StoreOp::create(b, loc, stored, *slot);
      return SmallVector<Value>{};
    });
    (void)ctx.hooks.createBarrier(rewriter, loc);
    results.front() = LLVM::LoadOp::create(rewriter, loc, storage, *slot);
  }
  rewriter.replaceOp(
      op,
      packRegisters(rewriter, loc, converter.convertType(resultType), results));
  return success();
}

struct AtomicRMWLowering : public GPUPattern<AtomicRMWOp> {
  using GPUPattern::GPUPattern;
  LogicalResult
  matchAndRewrite(AtomicRMWOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type element = getElementTypeOrSelf(op.getType());
    std::optional<LLVM::AtomicBinOp> bin = getBinOp(op.getRmwOp(), element);
    if (!bin)
      return op.emitError("unsupported atomic operation");
    SmallVector<Value> vals = unpackRegisters(
        rewriter, op.getLoc(), adaptor.getVal(), op.getVal().getType());
    std::string scope =
        ctx.hooks.getSyncScope(stringifyMemScope(op.getScope()));
    LLVM::AtomicOrdering ordering = getOrdering(op.getSem());
    return lowerAtomic(op, rewriter, ctx, *getTypeConverter(), adaptor.getPtr(),
                       adaptor.getMask(),
                       op.getMask() ? op.getMask().getType() : Type(),
                       [&](OpBuilder &b, size_t r, Value ptr) -> Value {
                         auto rmw = LLVM::AtomicRMWOp::create(
                             b, op.getLoc(), *bin, ptr, vals[r], ordering);
                         if (!scope.empty())
                           rmw.setSyncscope(scope);
                         return rmw.getResult();
                       });
  }
};

struct AtomicCASLowering : public GPUPattern<AtomicCASOp> {
  using GPUPattern::GPUPattern;
  LogicalResult
  matchAndRewrite(AtomicCASOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    SmallVector<Value> cmps =
        unpackRegisters(rewriter, loc, adaptor.getCmp(), op.getCmp().getType());
    SmallVector<Value> vals =
        unpackRegisters(rewriter, loc, adaptor.getVal(), op.getVal().getType());
    std::string scope =
        ctx.hooks.getSyncScope(stringifyMemScope(op.getScope()));
    LLVM::AtomicOrdering ordering = getOrdering(op.getSem());
    // A failed exchange has no release side.
    LLVM::AtomicOrdering failure =
        ordering == LLVM::AtomicOrdering::acq_rel ||
                ordering == LLVM::AtomicOrdering::acquire
            ? LLVM::AtomicOrdering::acquire
            : LLVM::AtomicOrdering::monotonic;
    return lowerAtomic(
        op, rewriter, ctx, *getTypeConverter(), adaptor.getPtr(), Value(),
        Type(), [&](OpBuilder &b, size_t r, Value ptr) -> Value {
          auto cas = LLVM::AtomicCmpXchgOp::create(b, loc, ptr, cmps[r],
                                                   vals[r], ordering, failure);
          if (!scope.empty())
            cas.setSyncscope(scope);
          return LLVM::ExtractValueOp::create(b, loc, cas, 0).getResult();
        });
  }
};

} // namespace

void lowering::populateMemoryPatterns(GPUTypeConverter &converter,
                                      RewritePatternSet &patterns,
                                      LoweringContext &ctx) {
  patterns
      .add<LoadLowering, StoreLowering, AtomicRMWLowering, AtomicCASLowering>(
          converter, ctx);
}
