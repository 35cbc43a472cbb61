//===- Ops.cpp - Verifiers, folders and formats of tessera_gpu ops --------===//
#include "tessera/Dialect/TesseraGPU/IR/Dialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::tessera;
using namespace mlir::tessera::gpu;

namespace {
/// The shape and element type of a tensor and a buffer must agree.
LogicalResult verifySameShapeAndElement(Operation *op, RankedTensorType tensor,
                                        MemDescType buffer) {
  if (tensor.getShape() != buffer.getShape())
    return op->emitOpError("tensor shape ")
           << tensor << " does not match the buffer " << buffer;
  if (tensor.getElementType() != buffer.getElementType())
    return op->emitOpError("tensor element type ")
           << tensor.getElementType() << " does not match the buffer's "
           << buffer.getElementType();
  return success();
}

LogicalResult verifyDistributed(Operation *op, Type type, StringRef what) {
  auto tensor = cast<RankedTensorType>(type);
  if (!isa_and_nonnull<DistributedLayoutAttr>(tensor.getEncoding()))
    return op->emitOpError()
           << what << " needs a distributed layout, got " << type;
  return success();
}
} // namespace

//===----------------------------------------------------------------------===//
// convert_layout
//===----------------------------------------------------------------------===//

LogicalResult ConvertLayoutOp::verify() {
  if (failed(verifyDistributed(*this, getSrc().getType(), "source")) ||
      failed(verifyDistributed(*this, getType(), "result")))
    return failure();
  return success();
}

OpFoldResult ConvertLayoutOp::fold(FoldAdaptor adaptor) {
  if (getSrc().getType() == getType())
    return getSrc();
  if (auto splat = dyn_cast_or_null<SplatElementsAttr>(adaptor.getSrc()))
    return SplatElementsAttr::get(getType(), splat.getSplatValue<Attribute>());
  return {};
}

namespace {
/// convert(convert(x)) -> convert(x): only the final layout matters.
struct CombineConverts : public OpRewritePattern<ConvertLayoutOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ConvertLayoutOp op,
                                PatternRewriter &rewriter) const override {
    auto inner = op.getSrc().getDefiningOp<ConvertLayoutOp>();
    if (!inner)
      return failure();
    if (inner.getSrc().getType() == op.getType())
      rewriter.replaceOp(op, inner.getSrc());
    else
      rewriter.replaceOpWithNewOp<ConvertLayoutOp>(op, op.getType(),
                                                   inner.getSrc());
    return success();
  }
};

/// Ops that produce the same value in any layout are rebuilt in the target
/// layout instead of being converted: splats and ranges.
struct RematerializeCheapSources : public OpRewritePattern<ConvertLayoutOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ConvertLayoutOp op,
                                PatternRewriter &rewriter) const override {
    Operation *def = op.getSrc().getDefiningOp();
    if (auto splat = dyn_cast_or_null<SplatOp>(def)) {
      rewriter.replaceOpWithNewOp<SplatOp>(op, op.getType(), splat.getSrc());
      return success();
    }
    if (auto range = dyn_cast_or_null<MakeRangeOp>(def)) {
      rewriter.replaceOpWithNewOp<MakeRangeOp>(
          op, op.getType(), range.getStart(), range.getEnd());
      return success();
    }
    return failure();
  }
};
} // namespace

void ConvertLayoutOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                                  MLIRContext *context) {
  results.add<CombineConverts, RematerializeCheapSources>(context);
}

//===----------------------------------------------------------------------===//
// Shared memory
//===----------------------------------------------------------------------===//

namespace {
/// True when `op` may read or write memory (allocating is neither).
bool accessesMemory(Operation *op) {
  auto effects = dyn_cast<MemoryEffectOpInterface>(op);
  if (!effects)
    return !isMemoryEffectFree(op);
  SmallVector<MemoryEffects::EffectInstance> instances;
  effects.getEffects(instances);
  return llvm::any_of(instances, [](const MemoryEffects::EffectInstance &e) {
    return !isa<MemoryEffects::Allocate>(e.getEffect());
  });
}
} // namespace

LogicalResult BarrierOp::canonicalize(BarrierOp op, PatternRewriter &rewriter) {
  // A barrier orders the memory accesses before it against those after
  // it: with none since the previous barrier in the block, or since the
  // start of the kernel, it orders nothing.
  for (Operation *prev = op->getPrevNode(); prev; prev = prev->getPrevNode()) {
    if (isa<BarrierOp>(prev)) {
      rewriter.eraseOp(op);
      return success();
    }
    if (accessesMemory(prev))
      return failure();
  }
  // The start of a kernel, not of a function a caller's accesses precede.
  Block *block = op->getBlock();
  if (!isa<FunctionOpInterface>(block->getParentOp()) ||
      !block->getParentOp()->hasAttr(kKernelAttrName) || !block->isEntryBlock())
    return failure();
  rewriter.eraseOp(op);
  return success();
}

LogicalResult LocalAllocOp::verify() {
  MemDescType type = getType();
  if (!getSrc()) {
    if (!type.getMutableMemory())
      return emitOpError("an uninitialized buffer must be mutable");
    return success();
  }
  return verifySameShapeAndElement(*this, getSrc().getType(), type);
}

void LocalAllocOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  effects.emplace_back(MemoryEffects::Allocate::get(),
                       getOperation()->getOpResult(0), SharedMemory::get());
  if (getSrc())
    effects.emplace_back(MemoryEffects::Write::get(),
                         getOperation()->getOpResult(0), SharedMemory::get());
}

LogicalResult LocalLoadOp::verify() {
  return verifySameShapeAndElement(*this, getType(), getSrc().getType());
}

LogicalResult LocalStoreOp::verify() {
  if (!getDst().getType().getMutableMemory())
    return emitOpError("cannot store into an immutable buffer");
  return verifySameShapeAndElement(*this, getValue().getType(),
                                   getDst().getType());
}

/// A tensor copy names one index per dimension of its buffer.
static LogicalResult verifyTensorCopy(Operation *op, size_t indices,
                                      MemDescType buffer) {
  if (indices != buffer.getShape().size())
    return op->emitOpError("needs one index per dimension of ")
           << buffer << ", got " << indices;
  return success();
}

LogicalResult MakeTensorMapOp::verify() {
  auto desc = cast<TensorDescType>(getDesc().getType());
  if (getBox().size() != size_t(desc.getBlockType().getRank()))
    return emitOpError("needs one box size per dimension of ")
           << desc.getBlockType();
  if (llvm::any_of(getBox(), [](int32_t size) { return size < 1; }))
    return emitOpError("box sizes must be positive");
  MemDescType staging = getStaging().getType();
  if (!staging.getMutableMemory() ||
      staging.getNumElements() *
              staging.getElementType().getIntOrFloatBitWidth() !=
          128 * 8)
    return emitOpError("stages the map in a mutable 128-byte buffer, not ")
           << staging;
  return success();
}

LogicalResult AsyncTensorLoadOp::verify() {
  if (!getDst().getType().getMutableMemory())
    return emitOpError("cannot copy into an immutable buffer");
  // Every thread arrives for a token, so every thread must know it was
  // started.
  if (getPred() && getToken())
    return emitOpError("takes a predicate only without a token");
  return verifyTensorCopy(*this, getIndices().size(), getDst().getType());
}

LogicalResult DotWaitOp::verify() {
  if (getInputs().getTypes() != getOutputs().getTypes())
    return emitOpError("returns values of its operands' types");
  return success();
}

LogicalResult AsyncTensorStoreOp::verify() {
  return verifyTensorCopy(*this, getIndices().size(), getSrc().getType());
}

LogicalResult MemDescIndexOp::verify() {
  MemDescType src = getSrc().getType(), dst = getType();
  if (src.getShape().size() < 2)
    return emitOpError("indexing needs a buffer of rank 2 or more");
  if (dst.getShape() != src.getShape().drop_front())
    return emitOpError("result shape must drop the leading dimension of ")
           << src;
  if (dst.getElementType() != src.getElementType() ||
      dst.getMutableMemory() != src.getMutableMemory())
    return emitOpError("result must keep the element type and mutability");
  return success();
}

LogicalResult MemDescTransOp::verify() {
  MemDescType src = getSrc().getType(), dst = getType();
  ArrayRef<int32_t> order = getOrder();
  if (order.size() != src.getShape().size())
    return emitOpError("order needs one entry per dimension");
  SmallVector<bool> seen(order.size(), false);
  for (auto [i, d] : llvm::enumerate(order)) {
    if (d < 0 || d >= (int32_t)order.size() || seen[d])
      return emitOpError("order must be a permutation");
    seen[d] = true;
    if (dst.getShape()[i] != src.getShape()[d])
      return emitOpError("result dimension ")
             << i << " must be source dimension " << d;
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Asynchronous copies
//===----------------------------------------------------------------------===//

LogicalResult AsyncCopyGlobalToLocalOp::verify() {
  auto src = getSrc().getType();
  MemDescType dst = getDst().getType();
  if (!dst.getMutableMemory())
    return emitOpError("cannot copy into an immutable buffer");
  if (src.getShape() != dst.getShape())
    return emitOpError("pointer block ")
           << src << " and buffer " << dst << " differ in shape";
  if (cast<PointerType>(src.getElementType()).getPointeeType() !=
      dst.getElementType())
    return emitOpError("pointers point to ")
           << cast<PointerType>(src.getElementType()).getPointeeType()
           << " but the buffer holds " << dst.getElementType();
  if (getMask() && getMask().getType().getShape() != src.getShape())
    return emitOpError("mask must have the pointers' shape");
  if (getOther() && !getMask())
    return emitOpError("'other' needs a mask");
  return success();
}

//===----------------------------------------------------------------------===//
// warp_specialize
//===----------------------------------------------------------------------===//

void WarpSpecializeOp::print(OpAsmPrinter &p) {
  p << "(";
  p.printOperands(getCaptures());
  p << ")";
  p.printOptionalAttrDictWithKeyword((*this)->getAttrs(),
                                     {"partitionNumWarps"});
  p.printNewline();
  p << "default ";
  p.printRegion(getDefaultRegion(), /*printEntryBlockArgs=*/false);
  for (auto [i, region] : llvm::enumerate(getPartitionRegions())) {
    p.printNewline();
    p << "partition" << i << "(";
    llvm::interleaveComma(region.getArguments(), p, [&](BlockArgument arg) {
      p.printRegionArgument(arg);
    });
    p << ") num_warps(" << getPartitionNumWarps()[i] << ") ";
    p.printRegion(region, /*printEntryBlockArgs=*/false);
  }
  p << " : ";
  p.printFunctionalType(getCaptures().getTypes(), getResultTypes());
}

ParseResult WarpSpecializeOp::parse(OpAsmParser &parser,
                                    OperationState &result) {
  SmallVector<OpAsmParser::UnresolvedOperand> captures;
  SMLoc capturesLoc = parser.getCurrentLocation();
  if (parser.parseOperandList(captures, AsmParser::Delimiter::Paren) ||
      parser.parseOptionalAttrDictWithKeyword(result.attributes) ||
      parser.parseKeyword("default"))
    return failure();
  Region *defaultRegion = result.addRegion();
  if (parser.parseRegion(*defaultRegion, /*arguments=*/{}))
    return failure();

  SmallVector<int32_t> numWarps;
  SmallVector<std::unique_ptr<Region>> partitions;
  while (true) {
    StringRef keyword;
    if (failed(parser.parseOptionalKeyword(&keyword)))
      break;
    if (keyword != ("partition" + std::to_string(partitions.size())))
      return parser.emitError(parser.getCurrentLocation())
             << "expected 'partition" << partitions.size() << "', got '"
             << keyword << "'";
    SmallVector<OpAsmParser::Argument> args;
    int32_t warps = 0;
    if (parser.parseArgumentList(args, AsmParser::Delimiter::Paren,
                                 /*allowType=*/true) ||
        parser.parseKeyword("num_warps") || parser.parseLParen() ||
        parser.parseInteger(warps) || parser.parseRParen())
      return failure();
    auto region = std::make_unique<Region>();
    if (parser.parseRegion(*region, args))
      return failure();
    numWarps.push_back(warps);
    partitions.push_back(std::move(region));
  }
  for (auto &region : partitions)
    result.addRegion(std::move(region));
  result.addAttribute("partitionNumWarps",
                      parser.getBuilder().getDenseI32ArrayAttr(numWarps));

  FunctionType type;
  if (parser.parseColon() || parser.parseType(type) ||
      parser.resolveOperands(captures, type.getInputs(), capturesLoc,
                             result.operands))
    return failure();
  result.addTypes(type.getResults());
  return success();
}

LogicalResult WarpSpecializeOp::verify() {
  size_t n = getPartitionRegions().size();
  if (getPartitionNumWarps().size() != n)
    return emitOpError("expected ") << n << " partition warp counts, got "
                                    << getPartitionNumWarps().size();
  for (int32_t w : getPartitionNumWarps())
    if (w < 1 || !llvm::isPowerOf2_32(w))
      return emitOpError("partition warp counts must be powers of two, got ")
             << w;
  if (auto regs = getRequestedRegisters())
    if (regs->size() != n)
      return emitOpError("expected ")
             << n << " register budgets (one per partition), got "
             << regs->size();
  return success();
}

LogicalResult WarpSpecializeOp::verifyRegions() {
  Operation *yield = getDefaultRegion().front().getTerminator();
  if (!isa<WarpYieldOp>(yield))
    return emitOpError("default region must end with warp_yield");
  if (yield->getOperandTypes() != getResultTypes())
    return emitOpError("default region yields ")
           << yield->getNumOperands() << " values that do not match the "
           << getNumResults() << " results";
  for (auto [i, region] : llvm::enumerate(getPartitionRegions())) {
    Block &entry = region.front();
    if (entry.getArgumentTypes() != getCaptures().getTypes())
      return emitOpError("partition ")
             << i << " must take the captured values as its arguments";
    if (!isa<WarpReturnOp>(entry.getTerminator()))
      return emitOpError("partition ") << i << " must end with warp_return";
    // Partitions run on other warps: they may only use what was captured.
    WalkResult walk = region.walk([&](Operation *op) {
      for (Value operand : op->getOperands())
        if (!region.isAncestor(operand.getParentRegion()))
          return WalkResult::interrupt();
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      return emitOpError("partition ")
             << i << " uses a value defined outside it; capture it instead";
  }
  return success();
}

#define GET_OP_CLASSES
#include "tessera/Dialect/TesseraGPU/IR/TesseraGPUOps.cpp.inc"
