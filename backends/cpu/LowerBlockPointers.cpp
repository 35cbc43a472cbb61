//===- LowerBlockPointers.cpp - Block pointers and descriptors on the CPU -===//
//
// A block pointer (tl.make_block_ptr) and a tensor descriptor
// (tl.make_tensor_descriptor) become their scalars (base address, shape,
// strides, offsets; see Lowering.h), carried through loops by the structural
// type conversion. Loads and stores through them are loop nests over the
// block computing each element's address; elements outside the checked
// dimensions' bounds read as the padding (zero or NaN) and are not written.
// There is no tensor-memory engine on a CPU: descriptors are plain strided
// accesses with every dimension checked.
//
//===----------------------------------------------------------------------===//
#include "Lowering.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <limits>

using namespace mlir;
using namespace mlir::tessera;
using namespace mlir::tessera::cpu;

namespace {

/// Where one element of a block lives and whether it is in bounds.
struct ElementAccess {
  Value address;
  /// Null when no dimension is checked.
  Value inBounds;
};

/// The address of the block element at `ivs` of a block starting at
/// `offsets` (i32) in a tensor of `shape` and `strides` (elements), with the
/// bounds of `checked` dimensions tested.
ElementAccess accessElement(OpBuilder &b, Location loc, Value base,
                            ValueRange shape, ValueRange strides,
                            ValueRange offsets, ValueRange ivs,
                            ArrayRef<bool> checked, int64_t elementBytes) {
  // Ops are created one by one: the order in which arguments are evaluated
  // is unspecified, and tests read the IR.
  Type i64 = b.getI64Type();
  Value zero = createZero(b, loc, i64);
  Value linear = zero;
  Value inBounds;
  for (size_t d = 0; d < ivs.size(); ++d) {
    Value offset = toI64(b, loc, offsets[d]);
    Value iv = arith::IndexCastOp::create(b, loc, i64, ivs[d]);
    Value coord = arith::AddIOp::create(b, loc, offset, iv);
    Value stride = toI64(b, loc, strides[d]);
    Value term = arith::MulIOp::create(b, loc, coord, stride);
    linear = arith::AddIOp::create(b, loc, linear, term);
    if (!checked[d])
      continue;
    Value lower =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, coord, zero);
    Value extent = toI64(b, loc, shape[d]);
    Value upper =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, coord, extent);
    Value ok = arith::AndIOp::create(b, loc, lower, upper);
    inBounds = inBounds ? arith::AndIOp::create(b, loc, inBounds, ok) : ok;
  }
  return {offsetAddress(b, loc, base, linear, elementBytes), inBounds};
}

/// The value out-of-bounds elements read as: zero, or NaN for floats when
/// `nan` (an i1, null for "never") holds.
Value paddingValue(OpBuilder &b, Location loc, Type type, Value nan) {
  Value zero = createZero(b, loc, type);
  auto floatType = dyn_cast<FloatType>(type);
  if (!nan || !floatType)
    return zero;
  Value nanValue = arith::ConstantOp::create(
      b, loc,
      b.getFloatAttr(floatType,
                     APFloat::getQNaN(floatType.getFloatSemantics())));
  return arith::SelectOp::create(b, loc, nan, nanValue, zero);
}

/// Loads a block: loop nest over `type`'s shape.
Value loadBlock(OpBuilder &b, Location loc, RankedTensorType type, Value base,
                ValueRange shape, ValueRange strides, ValueRange offsets,
                ArrayRef<bool> checked, Value nan, int64_t elementBytes) {
  Type elemType = type.getElementType();
  Value init = createEmpty(b, loc, type);
  return buildLoopNest(
             b, loc, type.getShape(), init,
             [&](OpBuilder &nb, Location l, ValueRange ivs,
                 ValueRange args) -> SmallVector<Value> {
               ElementAccess access =
                   accessElement(nb, l, base, shape, strides, offsets, ivs,
                                 checked, elementBytes);
               Value value;
               if (!access.inBounds) {
                 value = loadScalar(nb, l, elemType, access.address);
               } else {
                 auto ifOp = scf::IfOp::create(
                     nb, l, access.inBounds,
                     [&](OpBuilder &t, Location tl) {
                       scf::YieldOp::create(
                           t, tl, loadScalar(t, tl, elemType, access.address));
                     },
                     [&](OpBuilder &e, Location el) {
                       scf::YieldOp::create(e, el,
                                            paddingValue(e, el, elemType, nan));
                     });
                 value = ifOp.getResult(0);
               }
               return {tensor::InsertOp::create(nb, l, value, args[0], ivs)};
             })
      .front();
}

/// Stores a block, skipping out-of-bounds elements.
void storeBlock(OpBuilder &b, Location loc, Value value, Value base,
                ValueRange shape, ValueRange strides, ValueRange offsets,
                ArrayRef<bool> checked, int64_t elementBytes) {
  auto type = cast<RankedTensorType>(value.getType());
  buildLoopNest(b, loc, type.getShape(), ValueRange{},
                [&](OpBuilder &nb, Location l, ValueRange ivs,
                    ValueRange) -> SmallVector<Value> {
                  ElementAccess access =
                      accessElement(nb, l, base, shape, strides, offsets, ivs,
                                    checked, elementBytes);
                  Value element = tensor::ExtractOp::create(nb, l, value, ivs);
                  if (!access.inBounds) {
                    storeScalar(nb, l, element, access.address);
                    return {};
                  }
                  scf::IfOp::create(
                      nb, l, access.inBounds, [&](OpBuilder &t, Location tl) {
                        storeScalar(t, tl, element, access.address);
                        scf::YieldOp::create(t, tl);
                      });
                  return {};
                });
}

SmallVector<bool> checkedDims(ArrayRef<int32_t> boundaryCheck, int64_t rank) {
  SmallVector<bool> checked(rank, false);
  for (int32_t d : boundaryCheck)
    if (d >= 0 && d < rank)
      checked[d] = true;
  return checked;
}

struct MakeBlockPtrOpLowering : public OpConversionPattern<MakeBlockPtrOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(MakeBlockPtrOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    BlockPtrValues values;
    values.base = adaptor.getBase().front();
    for (ValueRange v : adaptor.getShape())
      values.shape.push_back(v.front());
    for (ValueRange v : adaptor.getStrides())
      values.strides.push_back(v.front());
    for (ValueRange v : adaptor.getOffsets())
      values.offsets.push_back(v.front());
    rewriter.replaceOpWithMultiple(op, {values.pack()});
    return success();
  }
};

struct AdvanceOpLowering : public OpConversionPattern<AdvanceOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(AdvanceOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    BlockPtrValues values = BlockPtrValues::unpack(adaptor.getPtr());
    for (auto [offset, delta] : llvm::zip(values.offsets, adaptor.getOffsets()))
      offset =
          arith::AddIOp::create(rewriter, op.getLoc(), offset, delta.front());
    rewriter.replaceOpWithMultiple(op, {values.pack()});
    return success();
  }
};

struct MakeTensorDescOpLowering : public OpConversionPattern<MakeTensorDescOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(MakeTensorDescOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    DescValues values;
    values.base = adaptor.getBase().front();
    for (ValueRange v : adaptor.getShape())
      values.shape.push_back(v.front());
    for (ValueRange v : adaptor.getStrides())
      values.strides.push_back(v.front());
    values.padding = arith::ConstantOp::create(
        rewriter, op.getLoc(),
        rewriter.getI32IntegerAttr(op.getPadding() == PaddingOption::nan));
    rewriter.replaceOpWithMultiple(op, {values.pack()});
    return success();
  }
};

SmallVector<Value> singles(ArrayRef<ValueRange> ranges) {
  SmallVector<Value> values;
  for (ValueRange r : ranges)
    values.push_back(r.front());
  return values;
}

struct DescriptorLoadOpLowering : public OpConversionPattern<DescriptorLoadOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(DescriptorLoadOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    DescValues desc = DescValues::unpack(adaptor.getDesc());
    auto type = getTypeConverter()->convertType<RankedTensorType>(op.getType());
    Value nan = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::ne, desc.padding,
        createZero(rewriter, loc, desc.padding.getType()));
    SmallVector<bool> checked(type.getRank(), true);
    SmallVector<Value> indices = singles(adaptor.getIndices());
    rewriter.replaceOp(op,
                       loadBlock(rewriter, loc, type, desc.base, desc.shape,
                                 desc.strides, indices, checked, nan,
                                 getElementByteSize(type.getElementType())));
    return success();
  }
};

struct DescriptorStoreOpLowering
    : public OpConversionPattern<DescriptorStoreOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(DescriptorStoreOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    DescValues desc = DescValues::unpack(adaptor.getDesc());
    Value src = adaptor.getSrc().front();
    auto type = cast<RankedTensorType>(src.getType());
    SmallVector<bool> checked(type.getRank(), true);
    SmallVector<Value> indices = singles(adaptor.getIndices());
    storeBlock(rewriter, op.getLoc(), src, desc.base, desc.shape, desc.strides,
               indices, checked, getElementByteSize(type.getElementType()));
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

LogicalResult cpu::lowerBlockPointerLoad(LoadOp op, ValueRange ptr,
                                         const TypeConverter &converter,
                                         ConversionPatternRewriter &rewriter) {
  Location loc = op.getLoc();
  if (op.getMask() || op.getOther())
    return op.emitError("a load through a block pointer takes no mask or "
                        "other value on the CPU backend");
  BlockPtrValues values = BlockPtrValues::unpack(ptr);
  auto type = converter.convertType<RankedTensorType>(op.getType());
  SmallVector<bool> checked =
      checkedDims(op.getBoundaryCheck(), type.getRank());
  Value nan;
  if (op.getPadding() == PaddingOption::nan)
    nan = arith::ConstantOp::create(rewriter, loc, rewriter.getBoolAttr(true));
  rewriter.replaceOp(op,
                     loadBlock(rewriter, loc, type, values.base, values.shape,
                               values.strides, values.offsets, checked, nan,
                               getElementByteSize(type.getElementType())));
  return success();
}

LogicalResult cpu::lowerBlockPointerStore(StoreOp op, ValueRange ptr,
                                          Value value,
                                          ConversionPatternRewriter &rewriter) {
  if (op.getMask())
    return op.emitError("a store through a block pointer takes no mask on "
                        "the CPU backend");
  BlockPtrValues values = BlockPtrValues::unpack(ptr);
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<bool> checked =
      checkedDims(op.getBoundaryCheck(), type.getRank());
  storeBlock(rewriter, op.getLoc(), value, values.base, values.shape,
             values.strides, values.offsets, checked,
             getElementByteSize(type.getElementType()));
  rewriter.eraseOp(op);
  return success();
}

void cpu::populateBlockPointerPatterns(const CpuTypeConverter &converter,
                                       RewritePatternSet &patterns) {
  patterns
      .add<MakeBlockPtrOpLowering, AdvanceOpLowering, MakeTensorDescOpLowering,
           DescriptorLoadOpLowering, DescriptorStoreOpLowering>(
          converter, patterns.getContext());
}
