//===- LowerToLLVM.cpp - The last CPU stage: to the LLVM dialect ----------===//
//
// Two passes. tessera-cpu-legalize-floats removes what LLVM cannot compile
// for a CPU: arithmetic on fp8 is done in f32 (MLIR's float emulation),
// conversions from and to fp8 are inline code (Fp8Codec.h; from f64 the
// runtime's exact converter rounds), and math functions on 8- and 16-bit
// floats compute in f32 (f64 for fma, so that it rounds once).
// tessera-cpu-convert-to-llvm then converts everything to the LLVM dialect
// in one full conversion (math through LLVM intrinsics where they exist and
// libm otherwise), leaving an op it cannot convert as an error with its
// location. Every function but the entry wrappers becomes internal, and
// kernels are always inlined into their entry.
//
//===----------------------------------------------------------------------===//
#include "Lowering.h"
#include "Passes.h"
#include "Runtime.h"

#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVM.h"
#include "mlir/Conversion/IndexToLLVM/IndexToLLVM.h"
#include "mlir/Conversion/LLVMCommon/ConversionTarget.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/MathToLibm/MathToLibm.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/UBToLLVM/UBToLLVM.h"
#include "mlir/Conversion/VectorToLLVM/ConvertVectorToLLVM.h"
#include "mlir/Dialect/AMX/Transforms.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

using namespace mlir;
using namespace mlir::tessera;
using namespace mlir::tessera::cpu;

namespace {

//===----------------------------------------------------------------------===//
// tessera-cpu-legalize-floats
//===----------------------------------------------------------------------===//

bool isFp8(Type type) { return getFp8Format(type) != Fp8Format::None; }

/// arith.extf from fp8: decoded to f32 inline (Fp8Codec.h; loops of it
/// vectorize), then a plain conversion to the destination, which holds
/// every fp8 value exactly too.
struct ExtFromFp8 : public OpRewritePattern<arith::ExtFOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(arith::ExtFOp op,
                                PatternRewriter &rewriter) const override {
    if (!isFp8(op.getIn().getType()))
      return failure();
    Location loc = op.getLoc();
    Value value = emitFp8ToF32(rewriter, loc, op.getIn());
    if (!value)
      return rewriter.notifyMatchFailure(op, "no decoding of this format");
    Type dst = op.getType();
    if (dst.getIntOrFloatBitWidth() > 32)
      value = arith::ExtFOp::create(rewriter, loc, dst, value);
    else if (dst != value.getType())
      value = arith::TruncFOp::create(rewriter, loc, dst, value);
    rewriter.replaceOp(op, value);
    return success();
  }
};

/// arith.truncf to fp8, rounding to nearest even once (inline from f32 and
/// narrower, through the runtime from f64).
struct TruncToFp8 : public OpRewritePattern<arith::TruncFOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(arith::TruncFOp op,
                                PatternRewriter &rewriter) const override {
    auto dst = dyn_cast<FloatType>(op.getType());
    if (!dst || !isFp8(dst))
      return failure();
    rewriter.replaceOp(op, emitToFp8(rewriter, op.getLoc(), op, op.getIn(), dst,
                                     /*towardZero=*/false));
    return success();
  }
};

/// A math op on floats narrower than 32 bits computes in f32 (f64 for fma)
/// and rounds its results back.
struct PromoteNarrowMath : public RewritePattern {
  PromoteNarrowMath(MLIRContext *ctx)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, ctx) {}

  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    if (!isa<math::MathDialect>(op->getDialect()) || op->getNumRegions())
      return failure();
    auto isNarrow = [](Type t) {
      auto f = dyn_cast<FloatType>(t);
      return f && f.getWidth() < 32;
    };
    if (!llvm::any_of(op->getOperandTypes(), isNarrow) &&
        !llvm::any_of(op->getResultTypes(), isNarrow))
      return failure();
    Location loc = op->getLoc();
    Type wide = isa<math::FmaOp>(op) ? Type(rewriter.getF64Type())
                                     : Type(rewriter.getF32Type());
    SmallVector<Value> operands;
    for (Value operand : op->getOperands())
      operands.push_back(
          isNarrow(operand.getType())
              ? Value(arith::ExtFOp::create(rewriter, loc, wide, operand))
              : operand);
    SmallVector<Type> types;
    for (Type type : op->getResultTypes())
      types.push_back(isNarrow(type) ? wide : type);
    OperationState state(loc, op->getName().getStringRef(), operands, types,
                         op->getAttrs());
    Operation *wideOp = rewriter.create(state);
    SmallVector<Value> results;
    for (auto [result, type] :
         llvm::zip(wideOp->getResults(), op->getResultTypes()))
      results.push_back(
          type == result.getType()
              ? result
              : Value(arith::TruncFOp::create(rewriter, loc, type, result)));
    rewriter.replaceOp(op, results);
    return success();
  }
};

struct LegalizeFloatsPass
    : public PassWrapper<LegalizeFloatsPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(LegalizeFloatsPass)

  StringRef getArgument() const final { return "tessera-cpu-legalize-floats"; }
  StringRef getDescription() const final {
    return "Compute fp8 arithmetic in f32, convert fp8 through the runtime "
           "and math on narrow floats in f32";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registerCpuDialects(registry);
  }

  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    ModuleOp module = getOperation();
    // fp8 arithmetic (and comparisons) in f32.
    SmallVector<Type> fp8Types{
        Float8E4M3FNType::get(ctx), Float8E5M2Type::get(ctx),
        Float8E4M3FNUZType::get(ctx), Float8E5M2FNUZType::get(ctx),
        Float8E4M3B11FNUZType::get(ctx)};
    TypeConverter emulation;
    arith::populateEmulateUnsupportedFloatsConversions(emulation, fp8Types,
                                                       Float32Type::get(ctx));
    RewritePatternSet emulationPatterns(ctx);
    arith::populateEmulateUnsupportedFloatsPatterns(emulationPatterns,
                                                    emulation);
    ConversionTarget target(*ctx);
    arith::populateEmulateUnsupportedFloatsLegality(target, emulation);
    if (failed(applyPartialConversion(module, target,
                                      std::move(emulationPatterns))))
      return signalPassFailure();

    RewritePatternSet patterns(ctx);
    patterns.add<ExtFromFp8, TruncToFp8, PromoteNarrowMath>(ctx);
    if (failed(applyPatternsGreedily(module, std::move(patterns))))
      return signalPassFailure();
  }
};

//===----------------------------------------------------------------------===//
// tessera-cpu-convert-to-llvm
//===----------------------------------------------------------------------===//

/// Removes the `tessera.` argument attributes (the frontend's
/// `tessera.divisibility`) that the func conversion copied onto `func`:
/// LLVM IR has no place for them, and the translation warned about each
/// one, printing the whole function, on every successful compilation.
/// Their facts were used by the lowering already.
void dropTesseraArgAttrs(LLVM::LLVMFuncOp func) {
  for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i) {
    DictionaryAttr attrs = func.getArgAttrDict(i);
    if (!attrs)
      continue;
    for (NamedAttribute attr : attrs)
      if (attr.getName().strref().starts_with("tessera."))
        func.removeArgAttr(i, attr.getName());
  }
}

struct ConvertToLLVMPass
    : public PassWrapper<ConvertToLLVMPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(ConvertToLLVMPass)

  StringRef getArgument() const final { return "tessera-cpu-convert-to-llvm"; }
  StringRef getDescription() const final {
    return "Convert arith, math, cf, func, memref, index and ub to the LLVM "
           "dialect; inline kernels into their CPU entry wrappers";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registerCpuDialects(registry);
  }

  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    ModuleOp module = getOperation();
    LLVMTypeConverter converter(ctx);
    RewritePatternSet patterns(ctx);
    arith::populateArithToLLVMConversionPatterns(converter, patterns);
    cf::populateControlFlowToLLVMConversionPatterns(converter, patterns);
    populateFuncToLLVMConversionPatterns(converter, patterns);
    populateFinalizeMemRefToLLVMConversionPatterns(converter, patterns);
    index::populateIndexToLLVMConversionPatterns(converter, patterns);
    ub::populateUBToLLVMConversionPatterns(converter, patterns);
    // The dot micro-kernels' loads, stores, broadcasts and FMAs, and AMX
    // tile operations (LLVM intrinsics).
    populateVectorToLLVMConversionPatterns(converter, patterns);
    populateAMXLegalizeForLLVMExportPatterns(converter, patterns);
    // LLVM's intrinsics first (they vectorize); libm for the rest.
    populateMathToLLVMConversionPatterns(converter, patterns,
                                         /*approximateLog1p=*/false,
                                         /*benefit=*/2);
    populateMathToLibmConversionPatterns(patterns, /*benefit=*/1);

    LLVMConversionTarget target(*ctx);
    target.addLegalOp<ModuleOp, UnrealizedConversionCastOp>();
    configureAMXLegalizeForExportTarget(target);
    if (failed(applyFullConversion(module, target, std::move(patterns))))
      return signalPassFailure();

    // Kernels inline into their entry wrappers, the only symbols exported.
    for (auto func : module.getOps<LLVM::LLVMFuncOp>()) {
      dropTesseraArgAttrs(func);
      if (func.isExternal())
        continue;
      if (func->hasAttr(kEntryOfAttrName)) {
        func.setLinkage(LLVM::Linkage::External);
        continue;
      }
      func.setLinkage(LLVM::Linkage::Internal);
      if (func->hasAttr(kSignatureTypesAttrName))
        func.setAlwaysInline(true);
    }
  }
};

} // namespace

std::unique_ptr<Pass> cpu::createLegalizeFloatsPass() {
  return std::make_unique<LegalizeFloatsPass>();
}

std::unique_ptr<Pass> cpu::createCpuConvertToLLVMPass() {
  return std::make_unique<ConvertToLLVMPass>();
}
