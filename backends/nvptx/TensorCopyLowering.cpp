//===- TensorCopyLowering.cpp - mbarriers and TMA copies in PTX -----------===//
//
// Thread 0 initializes and invalidates barriers, announces bytes, issues
// the copies and waits for its stores to have read their buffers (one bulk
// group per store, waited for where wait_tensor_stores stands); the other
// threads skip those instructions by predicate (no branches). All threads
// arrive on a load's barrier and wait with their tokens, or (a load
// without a token) thread 0 arrives alone and all wait for the phase's
// parity. A map made in the
// kernel is assembled by warp 0 in shared memory and copied to its global
// slot with a release to the tensor-map proxy, which thread 0 acquires. A copy
// of a block wider than one swizzle row (128 bytes) is one box per column
// block, each landing where the buffer's layout puts that block.
//
//===----------------------------------------------------------------------===//
#include "TensorMaps.h"

#include "InlinePtx.h"

#include "tessera/Conversion/LoweringUtils.h"
#include "tessera/Dialect/Tessera/IR/Dialect.h"
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

/// Emits `instruction` (which names `operands` from $1) for the threads in
/// which `elected` ($0) is nonzero, by predicate: no branch.
void emitElected(OpBuilder &b, Location loc, Value elected, ValueRange operands,
                 const llvm::Twine &instruction, StringRef constraints) {
  SmallVector<Value> args{elected};
  llvm::append_range(args, operands);
  emitInlinePtx(
      b, loc, Type(), args,
      ("{ .reg .pred p; setp.ne.b32 p, $0, 0; @p " + instruction + " }").str(),
      constraints.empty() ? "r" : ("r," + constraints).str());
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
    emitElected(rewriter, loc, isThreadZero(rewriter, loc), {bar},
                llvm::formatv("mbarrier.init.shared::cta.b64 [$1], {0};",
                              op.getCount()),
                "r");
    rewriter.eraseOp(op);
    return success();
  }
};

struct InvalBarrierLowering
    : public ConvertOpToLLVMPattern<tessera::gpu::InvalBarrierOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(tessera::gpu::InvalBarrierOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value bar = sharedAddress(rewriter, loc, adaptor.getBarrier());
    emitElected(rewriter, loc, isThreadZero(rewriter, loc), {bar},
                "mbarrier.inval.shared::cta.b64 [$1];", "r");
    rewriter.eraseOp(op);
    return success();
  }
};

struct MakeTensorMapLowering
    : public ConvertOpToLLVMPattern<tessera::gpu::MakeTensorMapOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(tessera::gpu::MakeTensorMapOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto descType = cast<TensorDescType>(op.getDesc().getType());
    if (descType.getBlockType().getRank() != 2)
      return op.emitError("tensor maps are made for 2-D blocks, not ")
             << descType.getBlockType();
    // The descriptor's fields: base, sizes (i32), strides (i64).
    Value desc = adaptor.getDesc();
    auto field = [&](int64_t i) {
      return LLVM::ExtractValueOp::create(rewriter, loc, desc, i).getResult();
    };
    Type i64 = rewriter.getI64Type();
    Value base = LLVM::PtrToIntOp::create(rewriter, loc, i64, field(0));
    Value rows = field(1), cols = field(2);
    unsigned bytes =
        descType.getBlockType().getElementType().getIntOrFloatBitWidth() / 8;
    Value rowStride = LLVM::MulOp::create(
        rewriter, loc, field(3),
        LLVM::ConstantOp::create(rewriter, loc, i64, int64_t(bytes)));
    Value slot =
        LLVM::PtrToIntOp::create(rewriter, loc, i64, adaptor.getSlot());
    auto generic = LLVM::AddrSpaceCastOp::create(
        rewriter, loc, LLVM::LLVMPointerType::get(rewriter.getContext()),
        adaptor.getSlot());
    Value genericSlot = LLVM::PtrToIntOp::create(rewriter, loc, i64, generic);
    Value staging = sharedAddress(rewriter, loc, adaptor.getStaging());
    Value tid = NVVM::ThreadIdXOp::create(rewriter, loc, rewriter.getI32Type());
    Value laneOffset =
        LLVM::MulOp::create(rewriter, loc, tid, createI32(rewriter, loc, 4));
    Value laneWord = LLVM::AddOp::create(rewriter, loc, staging, laneOffset);
    ArrayRef<int32_t> box = op.getBox();
    // Warp 0 zeroes the staging buffer, thread 0 waits for its bulk copies
    // (one may still read the map the slot holds) and sets every field
    // (dimensions innermost first), and the warp copies the map into the
    // slot, releasing it to the tensor-map proxy; thread 0, which issues
    // the copies, acquires it.
    auto replace = [](StringRef name, StringRef bits, StringRef operands) {
      return ("@p tensormap.replace.tile." + name + ".shared::cta.b1024." +
              bits + " [$1], " + operands + "; ")
          .str();
    };
    std::string text =
        "{ .reg .pred w, p; .reg .b32 z; setp.lt.u32 w, $0, 32; "
        "setp.eq.u32 p, $0, 0; mov.b32 z, 0; "
        "@p cp.async.bulk.wait_group 0; @w st.shared.b32 [$2], z; "
        "@w bar.warp.sync -1; " +
        replace("global_address", "b64", "$5") + replace("rank", "b32", "1") +
        replace("box_dim", "b32", "0, $9") +
        replace("box_dim", "b32", "1, $10") +
        replace("global_dim", "b32", "0, $6") +
        replace("global_dim", "b32", "1, $7") +
        replace("global_stride", "b64", "0, $8") +
        replace("element_stride", "b32", "0, $11") +
        replace("element_stride", "b32", "1, $11") +
        replace("elemtype", "b32", std::to_string(op.getDataType())) +
        replace("interleave_layout", "b32", "0") +
        replace("swizzle_mode", "b32", std::to_string(op.getSwizzle())) +
        replace("fill_mode", "b32", op.getNanFill() ? "1" : "0") +
        "@w bar.warp.sync -1; "
        "@w tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic."
        "release.gpu.sync.aligned [$3], [$1], 128; "
        "@p fence.proxy.tensormap::generic.acquire.gpu [$4], 128; }";
    emitInlinePtx(rewriter, loc, Type(),
                  {tid, staging, laneWord, slot, genericSlot, base, cols, rows,
                   rowStride, createI32(rewriter, loc, box[1]),
                   createI32(rewriter, loc, box[0]),
                   createI32(rewriter, loc, 1)},
                  text, "r,r,r,l,l,l,r,r,l,r,r,r");
    rewriter.replaceOp(op, generic);
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
    if (Value pred = adaptor.getPred())
      elected = LLVM::AndOp::create(
          rewriter, loc, elected,
          LLVM::ZExtOp::create(rewriter, loc, rewriter.getI32Type(), pred));
    Value bar = sharedAddress(rewriter, loc, adaptor.getBarrier());
    Value dst = sharedAddress(rewriter, loc, adaptor.getDst());
    // The bytes first, so that no copy completes against a barrier that
    // does not expect it yet; without a token the issuing thread's arrival
    // is the copy's only one, made with them.
    bool tokens = bool(op.getToken());
    emitElected(rewriter, loc, elected, {bar},
                llvm::formatv(tokens ? "mbarrier.expect_tx.relaxed.cta.shared::"
                                       "cta.b64 [$1], {0};"
                                     : "mbarrier.arrive.expect_tx.shared::cta."
                                       "b64 _, [$1], {0};",
                              total),
                "r");
    Value row = adaptor.getIndices()[0], col = adaptor.getIndices()[1];
    for (auto [firstCol, offset] : getBoxes(type)) {
      Value boxCol = LLVM::AddOp::create(rewriter, loc, col,
                                         createI32(rewriter, loc, firstCol));
      Value boxDst = LLVM::AddOp::create(rewriter, loc, dst,
                                         createI32(rewriter, loc, offset));
      // Coordinates innermost first.
      emitElected(rewriter, loc, elected,
                  {boxDst, adaptor.getMap(), boxCol, row, bar},
                  "cp.async.bulk.tensor.2d.shared::cluster.global.tile."
                  "mbarrier::complete_tx::bytes [$1], [$2, {$3, $4}], [$5];",
                  "r,l,r,r,r");
    }
    if (!tokens) {
      rewriter.eraseOp(op);
      return success();
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
    bool parity = adaptor.getState().getType().isInteger(32);
    emitInlinePtx(rewriter, loc, Type(), {bar, adaptor.getState()},
                  llvm::formatv("{ .reg .pred done; tessera_wait: "
                                "mbarrier.try_wait{0}.shared::cta.b64 done, "
                                "[$0], $1; @!done bra.uni tessera_wait; }",
                                parity ? ".parity" : "")
                      .str(),
                  parity ? "r,r" : "r,l");
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
      emitElected(rewriter, loc, elected,
                  {adaptor.getMap(), boxCol, row, boxSrc},
                  "cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group "
                  "[$1, {$2, $3}], [$4];",
                  "l,r,r,r");
    }
    // One group per store; wait_tensor_stores waits for it to be read.
    emitElected(rewriter, loc, elected, {}, "cp.async.bulk.commit_group;", "");
    rewriter.eraseOp(op);
    return success();
  }
};

struct WaitTensorStoresLowering
    : public ConvertOpToLLVMPattern<tessera::gpu::WaitTensorStoresOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(tessera::gpu::WaitTensorStoresOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    // Only thread 0 started stores; `.read`: the buffers are free once
    // read, the global writes need not have landed.
    emitElected(
        rewriter, loc, isThreadZero(rewriter, loc), {},
        llvm::formatv("cp.async.bulk.wait_group.read {0};", op.getPending()),
        "");
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void nvptx::populateTensorCopyPatterns(LLVMTypeConverter &converter,
                                       RewritePatternSet &patterns) {
  patterns.add<InitBarrierLowering, InvalBarrierLowering, MakeTensorMapLowering,
               AsyncTensorLoadLowering, WaitBarrierLowering,
               AsyncTensorStoreLowering, WaitTensorStoresLowering>(converter);
}
