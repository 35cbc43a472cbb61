//===- ToStructured.cpp - tessera_gpu -> structured ops on tensors --------===//
//
// The first CPU stage. Before converting, it rejects what the CPU cannot run
// (inline assembly, warp specialization, unknown math functions) with the
// op's location, gives each kernel its grid as six trailing i32 arguments
// (program id x, y, z, then the number of programs) and records the
// kernel's Triton signature. Then one dialect conversion lowers every
// tessera / tessera_gpu op (patterns in the Lower*.cpp files). Last, each
// kernel gets its entry wrapper:
//
//   void <kernel>_cpu_entry(void **args, i32 pidX, i32 pidY, i32 pidZ,
//                           i32 numX, i32 numY, i32 numZ, void *context)
//
// which loads each parameter through `args` (a pointer per parameter to its
// value, as Driver::launch receives them) and calls the kernel.
//
//===----------------------------------------------------------------------===//
#include "Lowering.h"
#include "Passes.h"

#include "tessera/Backend/Signature.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Func/Transforms/FuncConversions.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"

using namespace mlir;
using namespace mlir::tessera;
using namespace mlir::tessera::cpu;

namespace {

struct ToStructuredPass
    : public PassWrapper<ToStructuredPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(ToStructuredPass)

  StringRef getArgument() const final { return "tessera-cpu-to-structured"; }
  StringRef getDescription() const final {
    return "Lower tessera / tessera_gpu ops to linalg, tensor, scf and LLVM "
           "memory operations for the CPU";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registerCpuDialects(registry);
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (failed(rejectUnsupported(module)) || failed(prepareKernels(module)))
      return signalPassFailure();
    annotateContiguity(module);
    if (failed(convert(module)))
      return signalPassFailure();
    createEntryWrappers(module);
  }

  /// Errors, with locations, for what no CPU lowering exists.
  LogicalResult rejectUnsupported(ModuleOp module) {
    bool failedAny = false;
    module.walk([&](Operation *op) {
      if (isa<InlineAsmElementwiseOp>(op)) {
        op->emitError("tessera.inline_asm_elementwise is not supported on "
                      "the CPU backend: inline assembly is written for a GPU "
                      "instruction set");
        failedAny = true;
      } else if (isa<gpu::WarpSpecializeOp>(op)) {
        op->emitError("tessera_gpu.warp_specialize is not supported on the "
                      "CPU backend: a program instance is one thread");
        failedAny = true;
      } else if (auto ext = dyn_cast<ExternElementwiseOp>(op)) {
        Type computeType;
        Type elemType = getElementTypeOrSelf(ext.getResult().getType());
        SmallVector<Type> operandTypes;
        for (Value src : ext.getSrcs())
          operandTypes.push_back(getElementTypeOrSelf(src.getType()));
        if (!hasInlineMath(ext.getSymbol(), operandTypes, elemType) &&
            resolveLibmSymbol(ext.getSymbol(), elemType, ext.getSrcs().size(),
                              computeType)
                .empty()) {
          (void)emitNoMathFunctionError(ext, elemType);
          failedAny = true;
        }
      }
    });
    return failure(failedAny);
  }

  /// Grid arguments and signatures of kernels; program ids elsewhere are
  /// errors (device functions are inlined by then).
  LogicalResult prepareKernels(ModuleOp module) {
    bool failedAny = false;
    for (auto func : module.getOps<func::FuncOp>()) {
      if (func.isExternal())
        continue;
      bool isKernel = func->hasAttr(kKernelAttrName);
      if (!isKernel) {
        func.walk([&](Operation *op) {
          if (isa<ProgramIdOp, NumProgramsOp>(op)) {
            op->emitError()
                << op->getName() << " in device function '" << func.getSymName()
                << "', which was not inlined into a kernel";
            failedAny = true;
          }
        });
        continue;
      }
      if (func.getNumResults() != 0) {
        func.emitError("a kernel returns no values");
        failedAny = true;
        continue;
      }
      if (failed(recordKernelSignature(func, "a CPU"))) {
        failedAny = true;
        continue;
      }
      OpBuilder b(func.getContext());
      unsigned first = func.getNumArguments();
      SmallVector<unsigned> positions(kNumGridArgs, first);
      SmallVector<Type> types(kNumGridArgs, b.getI32Type());
      SmallVector<DictionaryAttr> attrs(kNumGridArgs, b.getDictionaryAttr({}));
      SmallVector<Location> locs(kNumGridArgs, func.getLoc());
      if (failed(func.insertArguments(positions, types, attrs, locs))) {
        func.emitError("cannot add the grid arguments");
        failedAny = true;
        continue;
      }
      func.walk([&](Operation *op) {
        unsigned index;
        if (auto pid = dyn_cast<ProgramIdOp>(op))
          index = static_cast<unsigned>(pid.getAxis());
        else if (auto num = dyn_cast<NumProgramsOp>(op))
          index = 3 + static_cast<unsigned>(num.getAxis());
        else
          return;
        op->getResult(0).replaceAllUsesWith(func.getArgument(first + index));
        op->erase();
      });
    }
    return failure(failedAny);
  }

  LogicalResult convert(ModuleOp module) {
    MLIRContext *ctx = &getContext();
    CpuTypeConverter converter(ctx);
    RewritePatternSet patterns(ctx);
    populateElementwisePatterns(converter, patterns);
    populateShapePatterns(converter, patterns);
    populateMemoryPatterns(converter, patterns);
    populateBlockPointerPatterns(converter, patterns);
    populateComputePatterns(converter, patterns);
    populateDebugPatterns(converter, patterns);
    populateSharedMemoryPatterns(converter, patterns);
    populateFunctionOpInterfaceTypeConversionPattern<func::FuncOp>(patterns,
                                                                   converter);
    populateCallOpTypeConversionPattern(patterns, converter);
    populateReturnOpTypeConversionPattern(patterns, converter);
    populateBranchOpInterfaceTypeConversionPattern(patterns, converter);

    ConversionTarget target(*ctx);
    target.addIllegalDialect<TesseraDialect, gpu::TesseraGPUDialect>();
    target.addLegalDialect<linalg::LinalgDialect, tensor::TensorDialect,
                           memref::MemRefDialect, LLVM::LLVMDialect,
                           bufferization::BufferizationDialect>();
    scf::populateSCFStructuralTypeConversionsAndLegality(converter, patterns,
                                                         target);
    // Anything else is legal once its types are, except elementwise ops on
    // tensors (they become linalg) and splat constants (fills).
    target.markUnknownOpDynamicallyLegal([&](Operation *op) {
      if (auto func = dyn_cast<func::FuncOp>(op))
        return converter.isSignatureLegal(func.getFunctionType()) &&
               converter.isLegal(&func.getBody());
      if (isa<func::ReturnOp>(op))
        return isLegalForReturnOpTypeConversionPattern(op, converter);
      if (auto call = dyn_cast<func::CallOp>(op))
        return converter.isLegal(call);
      if (isa<cf::BranchOp, cf::CondBranchOp, cf::SwitchOp>(op))
        return isLegalForBranchOpInterfaceTypeConversionPattern(op, converter);
      if (!converter.isLegal(op))
        return false;
      if (isa<arith::ArithDialect, math::MathDialect>(op->getDialect()) &&
          isElementwise(op) &&
          (llvm::any_of(op->getOperandTypes(), llvm::IsaPred<TensorType>) ||
           llvm::any_of(op->getResultTypes(), llvm::IsaPred<TensorType>)))
        return false;
      if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
        auto attr = dyn_cast<DenseElementsAttr>(constant.getValue());
        if (attr && isa<RankedTensorType>(constant.getType()) && attr.isSplat())
          return false;
      }
      return true;
    });
    return applyPartialConversion(module, target, std::move(patterns));
  }

  /// `<kernel>_cpu_entry`: unpacks the launch's argument array and calls
  /// the kernel, which becomes private so that it inlines into its entry.
  void createEntryWrappers(ModuleOp module) {
    MLIRContext *ctx = &getContext();
    OpBuilder b(ctx);
    Type ptrType = LLVM::LLVMPointerType::get(ctx);
    Type i32 = b.getI32Type();
    SmallVector<func::FuncOp> kernels;
    for (auto func : module.getOps<func::FuncOp>())
      if (func->hasAttr(kKernelAttrName) && !func.isExternal())
        kernels.push_back(func);
    for (func::FuncOp kernel : kernels) {
      Location loc = kernel.getLoc();
      unsigned numParams = kernel.getNumArguments() - kNumGridArgs;
      SmallVector<Type> entryArgs{ptrType};
      entryArgs.append(kNumGridArgs, i32);
      entryArgs.push_back(ptrType);
      b.setInsertionPointAfter(kernel);
      std::string name = (kernel.getSymName() + kEntrySuffix).str();
      auto entry =
          func::FuncOp::create(b, loc, name, b.getFunctionType(entryArgs, {}));
      entry->setAttr(kEntryOfAttrName, b.getStringAttr(kernel.getSymName()));
      entry->setAttr(kSignatureTypesAttrName,
                     kernel->getAttr(kSignatureTypesAttrName));
      entry->setAttr(kSignatureNamesAttrName,
                     kernel->getAttr(kSignatureNamesAttrName));
      Block *body = entry.addEntryBlock();
      b.setInsertionPointToStart(body);
      Value args = body->getArgument(0);
      SmallVector<Value> operands;
      for (unsigned i = 0; i < numParams; ++i) {
        Type type = kernel.getArgumentTypes()[i];
        Value slot = LLVM::GEPOp::create(
            b, loc, ptrType, ptrType, args,
            ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(i)});
        Value valuePtr = LLVM::LoadOp::create(b, loc, ptrType, slot);
        // The launcher's argument storage need not be aligned.
        operands.push_back(loadScalar(b, loc, type, valuePtr,
                                      /*isVolatile=*/false,
                                      /*alignment=*/1));
      }
      for (unsigned i = 0; i < kNumGridArgs; ++i)
        operands.push_back(body->getArgument(1 + i));
      func::CallOp::create(b, loc, kernel, operands);
      func::ReturnOp::create(b, loc);
      kernel.setPrivate();
    }
  }
};

} // namespace

std::unique_ptr<Pass> cpu::createToStructuredPass() {
  return std::make_unique<ToStructuredPass>();
}
