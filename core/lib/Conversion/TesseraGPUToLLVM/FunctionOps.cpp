//===- FunctionOps.cpp - Kernels, device functions, calls and returns -----===//
#include "Lowering.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

using namespace mlir;
using namespace mlir::tessera;
using namespace mlir::tessera::lowering;

namespace {

/// The LLVM result type of a function returning `results`: void, the one
/// result, or a struct of them.
Type getResultType(const TypeConverter &converter, TypeRange results,
                   MLIRContext *ctx) {
  if (results.empty())
    return LLVM::LLVMVoidType::get(ctx);
  SmallVector<Type> converted;
  for (Type t : results)
    converted.push_back(converter.convertType(t));
  if (converted.size() == 1)
    return converted.front();
  return LLVM::LLVMStructType::getLiteral(ctx, converted);
}

struct FuncOpLowering : public ConvertOpToLLVMPattern<func::FuncOp> {
  FuncOpLowering(GPUTypeConverter &converter, LoweringContext &ctx)
      : ConvertOpToLLVMPattern(converter), ctx(ctx) {}

  LogicalResult
  matchAndRewrite(func::FuncOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    const TypeConverter &converter = *getTypeConverter();
    FunctionType type = op.getFunctionType();
    bool isKernel = op->hasAttr(kKernelAttrName);
    if (isKernel && type.getNumResults() != 0)
      return op.emitError("a kernel returns nothing, but '")
             << op.getSymName() << "' returns " << type.getResults();

    TypeConverter::SignatureConversion signature(type.getNumInputs());
    for (auto [i, input] : llvm::enumerate(type.getInputs())) {
      Type converted = converter.convertType(input);
      if (!converted)
        return op.emitError("cannot pass an argument of type ")
               << input << " to a function on this target";
      signature.addInputs(i, converted);
    }
    for (Type result : type.getResults())
      if (!converter.convertType(result))
        return op.emitError("cannot return a value of type ")
               << result << " from a function on this target";
    auto llvmType = LLVM::LLVMFunctionType::get(
        getResultType(converter, type.getResults(), op.getContext()),
        signature.getConvertedTypes());
    auto func = LLVM::LLVMFuncOp::create(
        rewriter, op.getLoc(), op.getSymName(), llvmType,
        isKernel ? LLVM::Linkage::External : LLVM::Linkage::Internal);
    // Facts the frontend proved about pointer arguments stay visible to
    // LLVM: `tessera.divisibility` on a pointer is its alignment.
    for (auto [i, input] : llvm::enumerate(type.getInputs())) {
      auto divisibility =
          op.getArgAttrOfType<IntegerAttr>(i, "tessera.divisibility");
      if (divisibility && isa<PointerType>(input))
        func.setArgAttr(i, LLVM::LLVMDialect::getAlignAttrName(),
                        rewriter.getI64IntegerAttr(divisibility.getInt()));
    }
    // Tensor maps are hidden parameters the target passes as it likes
    // (finalizeKernel sees them marked).
    for (auto [i, input] : llvm::enumerate(type.getInputs()))
      if (isa<gpu::TensorMapType>(input))
        func.setArgAttr(i, kTensorMapArgAttrName, rewriter.getUnitAttr());
    // What earlier stages recorded on the function (the kernel mark, a
    // plugin's notes) stays on it.
    for (NamedAttribute attr : op->getDiscardableAttrs())
      func->setAttr(attr.getName(), attr.getValue());
    if (op.isDeclaration()) {
      func.setLinkage(LLVM::Linkage::External);
      rewriter.eraseOp(op);
      return success();
    }
    rewriter.inlineRegionBefore(op.getBody(), func.getBody(), func.end());
    if (failed(rewriter.convertRegionTypes(&func.getBody(), converter,
                                           &signature)))
      return failure();
    if (isKernel)
      ctx.hooks.finalizeKernel(func, ctx.numWarps * ctx.threadsPerWarp);
    rewriter.eraseOp(op);
    return success();
  }

  LoweringContext &ctx;
};

struct ReturnOpLowering : public ConvertOpToLLVMPattern<func::ReturnOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(func::ReturnOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    ValueRange operands = adaptor.getOperands();
    if (operands.empty()) {
      rewriter.replaceOpWithNewOp<LLVM::ReturnOp>(op, ValueRange{});
      return success();
    }
    if (operands.size() == 1) {
      rewriter.replaceOpWithNewOp<LLVM::ReturnOp>(op, operands);
      return success();
    }
    Type type = getResultType(*getTypeConverter(), op.getOperandTypes(),
                              op.getContext());
    Value packed = packRegisters(rewriter, op.getLoc(), type, operands);
    rewriter.replaceOpWithNewOp<LLVM::ReturnOp>(op, packed);
    return success();
  }
};

struct CallOpLowering : public ConvertOpToLLVMPattern<func::CallOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(func::CallOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type resultType = getResultType(*getTypeConverter(), op.getResultTypes(),
                                    op.getContext());
    SmallVector<Type> results;
    if (!isa<LLVM::LLVMVoidType>(resultType))
      results.push_back(resultType);
    auto call = LLVM::CallOp::create(rewriter, op.getLoc(), results,
                                     op.getCallee(), adaptor.getOperands());
    if (op.getNumResults() <= 1) {
      rewriter.replaceOp(op, call->getResults());
      return success();
    }
    SmallVector<Value> unpacked;
    for (unsigned i = 0; i < op.getNumResults(); ++i)
      unpacked.push_back(LLVM::ExtractValueOp::create(rewriter, op.getLoc(),
                                                      call.getResult(), i));
    rewriter.replaceOp(op, unpacked);
    return success();
  }
};

} // namespace

void lowering::populateFunctionPatterns(GPUTypeConverter &converter,
                                        RewritePatternSet &patterns,
                                        LoweringContext &ctx) {
  patterns.add<FuncOpLowering>(converter, ctx);
  patterns.add<ReturnOpLowering, CallOpLowering>(converter);
}
