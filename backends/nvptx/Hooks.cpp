//===- Hooks.cpp - The NVPTX target's lowering hooks ----------------------===//
//
// What the shared lowering cannot say in plain LLVM for NVIDIA GPUs: thread
// and block indices, barriers and shuffles, dots on the matrix units with
// ldmatrix operand loads, cp.async copies, printf and assert. Masked scalar
// global loads are predicated `ld.global` (ScalarLoad.h); other global and
// shared accesses decline: the core branches around plain (vectorized)
// loads and stores.
//
//===----------------------------------------------------------------------===//
#include "Hooks.h"

#include "Fp8Narrow.h"
#include "InlinePtx.h"
#include "MmaLowering.h"
#include "ScalarLoad.h"
#include "TensorMaps.h"
#include "Wgmma.h"

#include "tessera/Conversion/LoweringUtils.h"
#include "tessera/Conversion/TesseraGPUToLLVM.h"

#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/BuiltinOps.h"

using namespace mlir;
using namespace mlir::tessera;
using namespace mlir::tessera::nvptx;

namespace {

class NVPTXHooks : public LoweringHooks {
public:
  explicit NVPTXHooks(const Arch &arch) : arch(arch) {}

  StringRef getName() const override { return kBackendName; }

  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<NVVM::NVVMDialect>();
  }

  FailureOr<SmallVector<Value>>
  loadSharedTile(OpBuilder &b, Location loc, const SharedTile &tile) override {
    return loadMatrixTile(b, loc, tile);
  }

  FailureOr<Value> loadGlobal(OpBuilder &b, Location loc, Value ptr, Type type,
                              Value pred, Value other) override {
    return emitPredicatedScalarLoad(b, loc, ptr, type, pred, other);
  }

  FailureOr<Value> narrowToFp8(OpBuilder &b, Location loc, Value x,
                               FloatType dst) override {
    // cvt.rn.satfinite to e4m3x2 and e5m2x2 came with sm_89.
    if (arch.capability() < 89)
      return failure();
    return emitNarrowToFp8(b, loc, x, dst);
  }

  LogicalResult asyncCopy(OpBuilder &b, Location loc, Value dst, Value src,
                          unsigned bytes, Value pred) override {
    // cp.async moves 4, 8 or 16 bytes; 16 bypasses L1 (.cg), as the data
    // lands in shared memory anyway. A source size of 0 fills with zeros,
    // which is what a false mask asks for.
    if (bytes != 4 && bytes != 8 && bytes != 16)
      return failure();
    std::string text = std::string("cp.async.") + (bytes == 16 ? "cg" : "ca") +
                       ".shared.global [$0], [$1], " + std::to_string(bytes) +
                       ", $2;";
    Value srcSize = LLVM::SelectOp::create(
        b, loc, pred, createI32(b, loc, bytes), createI32(b, loc, 0));
    emitInlinePtx(b, loc, Type(), ValueRange{dst, src, srcSize}, text, "r,l,r");
    return success();
  }

  LogicalResult asyncCommitGroup(OpBuilder &b, Location loc) override {
    NVVM::CpAsyncCommitGroupOp::create(b, loc);
    return success();
  }

  LogicalResult asyncWait(OpBuilder &b, Location loc,
                          unsigned pending) override {
    NVVM::CpAsyncWaitGroupOp::create(b, loc, pending);
    return success();
  }

  FailureOr<SmallVector<Value>> lowerDot(OpBuilder &b, Location loc,
                                         const DotOperands &operands) override {
    FailureOr<SmallVector<Value>> wgmma = lowerWgmmaDot(b, loc, operands, arch);
    if (succeeded(wgmma))
      return wgmma;
    return lowerMmaDot(b, loc, operands, arch);
  }

  FailureOr<SmallVector<Value>> waitForDots(OpBuilder &b, Location loc,
                                            ValueRange registers,
                                            unsigned pending) override {
    // Only wgmma dots are left running (async-wgmma).
    return emitWgmmaWait(b, loc, registers, pending);
  }

  FailureOr<Value> getProgramId(OpBuilder &b, Location loc,
                                unsigned axis) override {
    Type i32 = b.getI32Type();
    switch (axis) {
    case 0:
      return NVVM::BlockIdXOp::create(b, loc, i32).getResult();
    case 1:
      return NVVM::BlockIdYOp::create(b, loc, i32).getResult();
    case 2:
      return NVVM::BlockIdZOp::create(b, loc, i32).getResult();
    }
    return failure();
  }

  FailureOr<Value> getNumPrograms(OpBuilder &b, Location loc,
                                  unsigned axis) override {
    Type i32 = b.getI32Type();
    switch (axis) {
    case 0:
      return NVVM::GridDimXOp::create(b, loc, i32).getResult();
    case 1:
      return NVVM::GridDimYOp::create(b, loc, i32).getResult();
    case 2:
      return NVVM::GridDimZOp::create(b, loc, i32).getResult();
    }
    return failure();
  }

  FailureOr<Value> getThreadId(OpBuilder &b, Location loc) override {
    return NVVM::ThreadIdXOp::create(b, loc, b.getI32Type()).getResult();
  }

  LogicalResult createBarrier(OpBuilder &b, Location loc) override {
    // wgmma reads shared memory through the asynchronous proxy: writes of
    // this thread (stores, completed cp.async) are fenced for it before the
    // barrier that publishes them.
    if (getEnclosingModule(b)->hasAttr(kAsyncProxyReadsAttrName))
      emitInlinePtx(b, loc, Type(), ValueRange{},
                    "fence.proxy.async.shared::cta;", "");
    NVVM::Barrier0Op::create(b, loc);
    return success();
  }

  FailureOr<Value> shuffleXor(OpBuilder &b, Location loc, Value value,
                              unsigned laneMask) override {
    Type type = value.getType();
    if (!type.isInteger(32) && !type.isF32())
      return failure();
    // All 32 lanes take part; clamp 31 and no segment mask: the whole warp.
    return NVVM::ShflOp::create(
               b, loc, type, createI32(b, loc, -1), value,
               createI32(b, loc, laneMask), createI32(b, loc, 0x1f),
               NVVM::ShflKindAttr::get(b.getContext(), NVVM::ShflKind::bfly),
               UnitAttr())
        .getResult();
  }

  std::string getSyncScope(StringRef scope) override {
    if (scope == "cta")
      return "block";
    if (scope == "gpu")
      return "device";
    return "";
  }

  LogicalResult printf(OpBuilder &b, Location loc, StringRef format,
                       ValueRange args) override {
    // vprintf(format, buffer): the arguments packed in a local struct, each
    // at its natural alignment, as CUDA's printf passes them.
    MLIRContext *ctx = b.getContext();
    auto ptrType = LLVM::LLVMPointerType::get(ctx);
    Value formatPtr = getStringPointer(b, loc, format, "tessera_printf_format");
    Value buffer = LLVM::ZeroOp::create(b, loc, ptrType);
    if (!args.empty()) {
      SmallVector<Type> types;
      for (Value v : args)
        types.push_back(v.getType());
      auto structType = LLVM::LLVMStructType::getLiteral(ctx, types);
      buffer = LLVM::AllocaOp::create(b, loc, ptrType, structType,
                                      createI32(b, loc, 1), 8);
      for (auto [i, v] : llvm::enumerate(args)) {
        Value field =
            LLVM::GEPOp::create(b, loc, ptrType, structType, buffer,
                                ArrayRef<LLVM::GEPArg>{0, int32_t(i)});
        LLVM::StoreOp::create(b, loc, v, field);
      }
    }
    declareFunction(
        b, loc, "vprintf",
        LLVM::LLVMFunctionType::get(b.getI32Type(), {ptrType, ptrType}));
    LLVM::CallOp::create(b, loc, TypeRange{b.getI32Type()}, "vprintf",
                         ValueRange{formatPtr, buffer});
    return success();
  }

  LogicalResult assertFail(OpBuilder &b, Location loc, StringRef message,
                           StringRef file, StringRef function,
                           unsigned line) override {
    // The CUDA runtime's device assert: prints the message with its place
    // and stops the kernel with cudaErrorAssert.
    MLIRContext *ctx = b.getContext();
    auto ptrType = LLVM::LLVMPointerType::get(ctx);
    declareFunction(
        b, loc, "__assertfail",
        LLVM::LLVMFunctionType::get(
            LLVM::LLVMVoidType::get(ctx),
            {ptrType, ptrType, b.getI32Type(), ptrType, b.getI64Type()}));
    Value args[] = {
        getStringPointer(b, loc, message, "tessera_assert_message"),
        getStringPointer(b, loc, file, "tessera_assert_file"),
        createI32(b, loc, line),
        getStringPointer(b, loc, function, "tessera_assert_function"),
        LLVM::ConstantOp::create(b, loc, b.getI64Type(),
                                 b.getI64IntegerAttr(1))};
    LLVM::CallOp::create(b, loc, TypeRange{}, "__assertfail", args);
    return success();
  }

  void populatePatterns(LLVMTypeConverter &converter,
                        RewritePatternSet &patterns) override {
    // math ops on scalars become libdevice calls, before MLIR's generic
    // LLVM intrinsics (which NVPTX cannot select for most functions).
    populateLibDeviceConversionPatterns(converter, patterns, /*benefit=*/10);
    populateTensorCopyPatterns(converter, patterns);
  }

  void finalizeKernel(LLVM::LLVMFuncOp func, unsigned threads) override {
    MLIRContext *ctx = func.getContext();
    func->setAttr(NVVM::NVVMDialect::getKernelFuncAttrName(),
                  UnitAttr::get(ctx));
    func->setAttr(NVVM::NVVMDialect::getMaxntidAttrName(),
                  DenseI32ArrayAttr::get(ctx, {int32_t(threads), 1, 1}));
    // Tensor maps travel by value in the parameter space (128 bytes,
    // 64-byte aligned) and are read there: `__grid_constant__`, so that
    // taking the address gives the parameter itself, not a local copy.
    for (unsigned i = 0; i < func.getNumArguments(); ++i) {
      if (!func.getArgAttr(i, kTensorMapArgAttrName))
        continue;
      func.removeArgAttr(i, kTensorMapArgAttrName);
      func.setArgAttr(i, LLVM::LLVMDialect::getByValAttrName(),
                      TypeAttr::get(LLVM::LLVMArrayType::get(
                          IntegerType::get(ctx, 8), 128)));
      func.setArgAttr(i, LLVM::LLVMDialect::getAlignAttrName(),
                      IntegerAttr::get(IntegerType::get(ctx, 64), 64));
      func.setArgAttr(i, NVVM::NVVMDialect::getGridConstantAttrName(),
                      UnitAttr::get(ctx));
    }
  }

private:
  Arch arch;
};

} // namespace

std::shared_ptr<LoweringHooks> nvptx::createLoweringHooks(const Arch &arch) {
  return std::make_shared<NVPTXHooks>(arch);
}
