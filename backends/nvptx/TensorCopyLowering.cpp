//===- TensorCopyLowering.cpp - mbarriers and TMA copies in PTX -----------===//
//
// Thread 0 initializes barriers, announces bytes and issues the copies; the
// other threads skip those instructions by predicate (no branches), and
// all of them arrive on and wait for a load's barrier. A copy of a block
// wider than one swizzle row (128 bytes) is one box per column block, each
// landing where the buffer's layout puts that block.
//
//===----------------------------------------------------------------------===//
#include "TensorMaps.h"

#include "InlinePtx.h"

#include "tessera/Conversion/LoweringUtils.h"
#include "tessera/Dialect/TesseraGPU/IR/Dialect.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::tessera;
using namespace mlir::tessera::nvptx;

namespace {

/// A shared pointer as the 32-bit address PTX's shared instructions take.
Value sharedAddress(OpBuilder &b, Location loc, Value ptr) {
  return LLVM::PtrToIntOp::create(b, loc, b.getI32Type(), ptr);
}

/// 1 in thread 0 of the block, 0 elsewhere (an i32 the asm tests).
Value isThreadZero(OpBuilder &b, Location loc) {
  Value tid = NVVM::ThreadIdXOp::create(b, loc, b.getI32Type());
  Value zero = createI32(b, loc, 0);
  Value eq = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, tid, zero);
  return LLVM::ZExtOp::create(b, loc, b.getI32Type(), eq);
}

/// The boxes of a copy of a rows x cols block: per column block, its first
/// column and its byte offset in the buffer.
SmallVector<std::pair<int64_t, int64_t>>
getBoxes(tessera::gpu::MemDescType type) {
  auto layout = cast<tessera::gpu::SwizzledSharedAttr>(type.getEncoding());
  int64_t rows = type.getShape()[0], cols = type.getShape()[1];
  int64_t width = layout.getBlockCols() ? layout.getBlockCols() : cols;
  unsigned bytes = type.getElementType().getIntOrFloatBitWidth() / 8;
  SmallVector<std::pair<int64_t, int64_t>> boxes;
  for (int64_t c = 0; c < cols; c += width)
    boxes.push_back({c, c * rows * bytes});
  return boxes;
}

/// Checks the buffer is a 2-D tile the copies understand.
LogicalResult checkBuffer(Operation *op, tessera::gpu::MemDescType type) {
  if (type.getShape().size() != 2 ||
      !isa<tessera::gpu::SwizzledSharedAttr>(type.getEncoding()))
    return op->emitError("TMA copies move 2-D blocks of swizzled buffers, "
                         "not ")
           << type;
  return success();
}

struct InitBarrierLowering
    : public ConvertOpToLLVMPattern<tessera::gpu::InitBarrierOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(tessera::gpu::InitBarrierOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value bar = sharedAddress(rewriter, loc, adaptor.getBarrier());
    emitInlinePtx(rewriter, loc, Type(), {isThreadZero(rewriter, loc), bar},
                  llvm::formatv("{{ .reg .pred p; setp.ne.b32 p, $0, 0; "
                                "@p mbarrier.init.shared::cta.b64 [$1], {0}; }",
                                op.getCount())
                      .str(),
                  "r,r");
    rewriter.eraseOp(op);
    return success();
  }
};

struct AsyncTensorLoadLowering
    : public ConvertOpToLLVMPattern<tessera::gpu::AsyncTensorLoadOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(tessera::gpu::AsyncTensorLoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    tessera::gpu::MemDescType type = op.getDst().getType();
    if (failed(checkBuffer(op, type)))
      return failure();
    unsigned bytes = type.getElementType().getIntOrFloatBitWidth() / 8;
    int64_t total = type.getNumElements() * bytes;
    Value elected = isThreadZero(rewriter, loc);
    Value bar = sharedAddress(rewriter, loc, adaptor.getBarrier());
    Value dst = sharedAddress(rewriter, loc, adaptor.getDst());
    // The bytes first, so that no copy completes against a barrier that
    // does not expect it yet.
    emitInlinePtx(
        rewriter, loc, Type(), {elected, bar},
        llvm::formatv("{{ .reg .pred p; setp.ne.b32 p, $0, 0; "
                      "@p mbarrier.expect_tx.relaxed.cta.shared::cta.b64 "
                      "[$1], {0}; }",
                      total)
            .str(),
        "r,r");
    Value row = adaptor.getIndices()[0], col = adaptor.getIndices()[1];
    for (auto [firstCol, offset] : getBoxes(type)) {
      Value boxCol = LLVM::AddOp::create(rewriter, loc, col,
                                         createI32(rewriter, loc, firstCol));
      Value boxDst = LLVM::AddOp::create(rewriter, loc, dst,
                                         createI32(rewriter, loc, offset));
      // Coordinates innermost first.
      emitInlinePtx(
          rewriter, loc, Type(),
          {elected, boxDst, adaptor.getMap(), boxCol, row, bar},
          "{ .reg .pred p; setp.ne.b32 p, $0, 0; "
          "@p cp.async.bulk.tensor.2d.shared::cluster.global.tile."
          "mbarrier::complete_tx::bytes [$1], [$2, {$3, $4}], [$5]; }",
          "r,r,l,r,r,r");
    }
    Value token =
        emitInlinePtx(rewriter, loc, rewriter.getI64Type(), {bar},
                      "mbarrier.arrive.shared::cta.b64 $0, [$1];", "=l,r")
            .getResult(0);
    rewriter.replaceOp(op, token);
    return success();
  }
};

struct WaitBarrierLowering
    : public ConvertOpToLLVMPattern<tessera::gpu::WaitBarrierOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(tessera::gpu::WaitBarrierOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value bar = sharedAddress(rewriter, loc, adaptor.getBarrier());
    // try_wait suspends for a while inside; the loop covers the time-outs.
    emitInlinePtx(rewriter, loc, Type(), {bar, adaptor.getToken()},
                  "{ .reg .pred done; tessera_wait: "
                  "mbarrier.try_wait.shared::cta.b64 done, [$0], $1; "
                  "@!done bra.uni tessera_wait; }",
                  "r,l");
    rewriter.eraseOp(op);
    return success();
  }
};

struct AsyncTensorStoreLowering
    : public ConvertOpToLLVMPattern<tessera::gpu::AsyncTensorStoreOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(tessera::gpu::AsyncTensorStoreOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    tessera::gpu::MemDescType type = op.getSrc().getType();
    if (failed(checkBuffer(op, type)))
      return failure();
    Value elected = isThreadZero(rewriter, loc);
    Value src = sharedAddress(rewriter, loc, adaptor.getSrc());
    Value row = adaptor.getIndices()[0], col = adaptor.getIndices()[1];
    for (auto [firstCol, offset] : getBoxes(type)) {
      Value boxCol = LLVM::AddOp::create(rewriter, loc, col,
                                         createI32(rewriter, loc, firstCol));
      Value boxSrc = LLVM::AddOp::create(rewriter, loc, src,
                                         createI32(rewriter, loc, offset));
      emitInlinePtx(
          rewriter, loc, Type(),
          {elected, adaptor.getMap(), boxCol, row, boxSrc},
          "{ .reg .pred p; setp.ne.b32 p, $0, 0; "
          "@p cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group "
          "[$1, {$2, $3}], [$4]; }",
          "r,l,r,r,r");
    }
    // The buffer is free once read; the next barrier tells the others.
    emitInlinePtx(rewriter, loc, Type(), {elected},
                  "{ .reg .pred p; setp.ne.b32 p, $0, 0; "
                  "@p cp.async.bulk.commit_group; "
                  "@p cp.async.bulk.wait_group.read 0; }",
                  "r");
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void nvptx::populateTensorCopyPatterns(LLVMTypeConverter &converter,
                                       RewritePatternSet &patterns) {
  patterns.add<InitBarrierLowering, AsyncTensorLoadLowering,
               WaitBarrierLowering, AsyncTensorStoreLowering>(converter);
}
