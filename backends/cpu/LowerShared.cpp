//===- LowerShared.cpp - tessera_gpu shared memory on the CPU -------------===//
//
// A program instance is one thread, so "shared" memory is private memory:
// a memdesc becomes a memref (with a strided layout, so that indexed and
// transposed views keep their types), local loads and stores are copies,
// asynchronous copies are synchronous ones and every wait or barrier has
// nothing to wait for. Buffers come from memref.alloc; the bufferization
// stage frees them where their lifetime ends.
//
//===----------------------------------------------------------------------===//
#include "Lowering.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::tessera;
using namespace mlir::tessera::cpu;

namespace {

/// Casts `value` to `type` when only the layout differs.
Value castTo(OpBuilder &b, Location loc, Value value, Type type) {
  if (value.getType() == type)
    return value;
  return memref::CastOp::create(b, loc, type, value);
}

/// Copies the tensor `value` into `buffer`, element by element.
void copyIn(OpBuilder &b, Location loc, Value value, Value buffer) {
  auto type = cast<RankedTensorType>(value.getType());
  buildLoopNest(b, loc, type.getShape(), ValueRange{},
                [&](OpBuilder &nb, Location l, ValueRange ivs,
                    ValueRange) -> SmallVector<Value> {
                  Value x = tensor::ExtractOp::create(nb, l, value, ivs);
                  memref::StoreOp::create(nb, l, x, buffer, ivs);
                  return {};
                });
}

struct LocalAllocOpLowering : public OpConversionPattern<gpu::LocalAllocOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(gpu::LocalAllocOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = getTypeConverter()->convertType<MemRefType>(op.getType());
    auto plain = MemRefType::get(type.getShape(), type.getElementType());
    Value buffer = memref::AllocOp::create(rewriter, loc, plain);
    if (Value src = adaptor.getSrc())
      copyIn(rewriter, loc, src, buffer);
    rewriter.replaceOp(op, castTo(rewriter, loc, buffer, type));
    return success();
  }
};

struct LocalDeallocOpLowering
    : public OpConversionPattern<gpu::LocalDeallocOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(gpu::LocalDeallocOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.eraseOp(op);
    return success();
  }
};

struct LocalLoadOpLowering : public OpConversionPattern<gpu::LocalLoadOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(gpu::LocalLoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = getTypeConverter()->convertType<RankedTensorType>(op.getType());
    Value buffer = adaptor.getSrc();
    Value result =
        buildLoopNest(
            rewriter, loc, type.getShape(), createEmpty(rewriter, loc, type),
            [&](OpBuilder &b, Location l, ValueRange ivs,
                ValueRange args) -> SmallVector<Value> {
              Value x = memref::LoadOp::create(b, l, buffer, ivs);
              return {tensor::InsertOp::create(b, l, x, args[0], ivs)};
            })
            .front();
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct LocalStoreOpLowering : public OpConversionPattern<gpu::LocalStoreOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(gpu::LocalStoreOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    copyIn(rewriter, op.getLoc(), adaptor.getValue(), adaptor.getDst());
    rewriter.eraseOp(op);
    return success();
  }
};

struct MemDescIndexOpLowering
    : public OpConversionPattern<gpu::MemDescIndexOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(gpu::MemDescIndexOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = getTypeConverter()->convertType<MemRefType>(op.getType());
    auto srcType = cast<MemRefType>(adaptor.getSrc().getType());
    SmallVector<OpFoldResult> offsets, sizes, strides;
    offsets.push_back(Value(arith::IndexCastOp::create(
        rewriter, loc, rewriter.getIndexType(), adaptor.getIndex())));
    sizes.push_back(rewriter.getIndexAttr(1));
    strides.push_back(rewriter.getIndexAttr(1));
    for (int64_t size : srcType.getShape().drop_front()) {
      offsets.push_back(rewriter.getIndexAttr(0));
      sizes.push_back(rewriter.getIndexAttr(size));
      strides.push_back(rewriter.getIndexAttr(1));
    }
    auto viewType =
        cast<MemRefType>(memref::SubViewOp::inferRankReducedResultType(
            type.getShape(), srcType, offsets, sizes, strides));
    Value view = memref::SubViewOp::create(
        rewriter, loc, viewType, adaptor.getSrc(), offsets, sizes, strides);
    rewriter.replaceOp(op, castTo(rewriter, loc, view, type));
    return success();
  }
};

struct MemDescTransOpLowering
    : public OpConversionPattern<gpu::MemDescTransOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(gpu::MemDescTransOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = getTypeConverter()->convertType<MemRefType>(op.getType());
    SmallVector<unsigned> perm(op.getOrder().begin(), op.getOrder().end());
    AffineMap map = AffineMap::getPermutationMap(perm, rewriter.getContext());
    Value view = memref::TransposeOp::create(rewriter, loc, adaptor.getSrc(),
                                             AffineMapAttr::get(map));
    rewriter.replaceOp(op, castTo(rewriter, loc, view, type));
    return success();
  }
};

/// The copy happens now; the token is a dummy.
struct AsyncCopyOpLowering
    : public OpConversionPattern<gpu::AsyncCopyGlobalToLocalOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(gpu::AsyncCopyGlobalToLocalOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto ptrType = cast<RankedTensorType>(adaptor.getSrc().getType());
    Type elemType =
        cast<MemRefType>(adaptor.getDst().getType()).getElementType();
    Value src = adaptor.getSrc(), dst = adaptor.getDst(),
          mask = adaptor.getMask(), other = adaptor.getOther();
    bool isVolatile = op.getIsVolatile();
    buildLoopNest(rewriter, loc, ptrType.getShape(), ValueRange{},
                  [&](OpBuilder &b, Location l, ValueRange ivs,
                      ValueRange) -> SmallVector<Value> {
                    Value address = tensor::ExtractOp::create(b, l, src, ivs);
                    Value value;
                    auto load = [&](OpBuilder &t, Location tl) {
                      return loadScalar(t, tl, elemType, address, isVolatile);
                    };
                    if (!mask) {
                      value = load(b, l);
                    } else {
                      Value m = tensor::ExtractOp::create(b, l, mask, ivs);
                      value = scf::IfOp::create(
                                  b, l, m,
                                  [&](OpBuilder &t, Location tl) {
                                    scf::YieldOp::create(t, tl, load(t, tl));
                                  },
                                  [&](OpBuilder &e, Location el) {
                                    Value o = createZero(e, el, elemType);
                                    if (other)
                                      o = isa<RankedTensorType>(other.getType())
                                              ? Value(tensor::ExtractOp::create(
                                                    e, el, other, ivs))
                                              : other;
                                    scf::YieldOp::create(e, el, o);
                                  })
                                  .getResult(0);
                    }
                    memref::StoreOp::create(b, l, value, dst, ivs);
                    return {};
                  });
    rewriter.replaceOp(op, createZero(rewriter, loc, rewriter.getI32Type()));
    return success();
  }
};

/// Tokens of completed copies: nothing to wait for.
template <typename OpTy>
struct TokenOpLowering : public OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;

  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(
        op, createZero(rewriter, op.getLoc(), rewriter.getI32Type()));
    return success();
  }
};

struct BarrierOpLowering : public OpConversionPattern<gpu::BarrierOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(gpu::BarrierOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void cpu::populateSharedMemoryPatterns(const CpuTypeConverter &converter,
                                       RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  patterns
      .add<LocalAllocOpLowering, LocalDeallocOpLowering, LocalLoadOpLowering,
           LocalStoreOpLowering, MemDescIndexOpLowering, MemDescTransOpLowering,
           AsyncCopyOpLowering, TokenOpLowering<gpu::AsyncCommitGroupOp>,
           TokenOpLowering<gpu::AsyncWaitOp>, BarrierOpLowering>(converter,
                                                                 ctx);
}
