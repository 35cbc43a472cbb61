//===- Hooks.cpp - The AMDGPU target's lowering hooks ---------------------===//
//
// What the shared lowering cannot say in plain LLVM for CDNA GPUs: work-item
// and workgroup indices, barriers, cross-lane exchanges (CrossLane.h), MFMA
// dots, printf and assert through the HIP device library's hostcall
// buffer. Global and shared accesses decline: the core branches around
// plain vector loads and stores, which LLVM selects as global_load_dwordx4
// and ds_read_b128. Asynchronous copies decline too: pipelined loads go
// through registers into LDS.
//
//===----------------------------------------------------------------------===//
#include "Hooks.h"

#include "CrossLane.h"
#include "MfmaLowering.h"

#include "tessera/Backend/InlineMath.h"
#include "tessera/Conversion/LoweringUtils.h"
#include "tessera/Dialect/Tessera/IR/Dialect.h"

#include "mlir/Conversion/MathToROCDL/MathToROCDL.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::tessera;
using namespace mlir::tessera::amdgpu;

namespace {
/// libdevice functions ocml lacks (`div_rn`, `finitef`, `float2int_rz`,
/// `pow(x, int)`, fp32's directed arithmetic, ...; InlineMath.h) computed
/// from arith and math ops on the whole tensor, before the shared lowering
/// unpacks it: the new ops are lowered as any others (math ops through
/// ocml). A function no computation covers stays a call, resolved in ocml
/// or reported (MathLibrary.cpp).
struct InlineMathLowering : public OpConversionPattern<ExternElementwiseOp> {
  InlineMathLowering(const TypeConverter &converter, MLIRContext *ctx)
      : OpConversionPattern(converter, ctx, /*benefit=*/3) {}

  LogicalResult
  matchAndRewrite(ExternElementwiseOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type resultType = op->getResult(0).getType();
    SmallVector<Type> elements;
    for (Value operand : op->getOperands())
      elements.push_back(getElementTypeOrSelf(operand.getType()));
    if (!hasInlineMath(op.getSymbol(), elements,
                       getElementTypeOrSelf(resultType)))
      return failure();
    std::optional<Value> value = emitInlineMath(
        rewriter, op.getLoc(), op.getSymbol(), op->getOperands(), resultType);
    if (!value)
      return failure();
    rewriter.replaceOp(op, *value);
    return success();
  }
};

/// LLVM's AMDGPU address space of read-only data (string literals).
constexpr unsigned kConstantAddressSpace = 4;

/// HIP's device printf: a message opened in the hostcall buffer, the format
/// string appended, then the arguments seven at a time as 64-bit values
/// (integers zero-extended, doubles by their bits, pointers as addresses),
/// the last append closing the message.
void emitHipPrintf(OpBuilder &b, Location loc, StringRef format,
                   ValueRange args) {
  MLIRContext *ctx = b.getContext();
  Type i32 = b.getI32Type(), i64 = b.getI64Type();
  auto ptrType = LLVM::LLVMPointerType::get(ctx);
  declareFunction(b, loc, "__ockl_printf_begin",
                  LLVM::LLVMFunctionType::get(i64, {i64}));
  declareFunction(b, loc, "__ockl_printf_append_string_n",
                  LLVM::LLVMFunctionType::get(i64, {i64, ptrType, i64, i32}));
  SmallVector<Type> appendParams = {i64, i32};
  appendParams.append(7, i64);
  appendParams.push_back(i32);
  declareFunction(b, loc, "__ockl_printf_append_args",
                  LLVM::LLVMFunctionType::get(i64, appendParams));

  Value desc =
      LLVM::CallOp::create(b, loc, TypeRange{i64}, "__ockl_printf_begin",
                           ValueRange{createI64(b, loc, 0)})
          .getResult();
  Value text =
      getStringPointer(b, loc, format, "tessera_string", kConstantAddressSpace);
  desc = LLVM::CallOp::create(
             b, loc, TypeRange{i64}, "__ockl_printf_append_string_n",
             ValueRange{desc, text, createI64(b, loc, format.size() + 1),
                        createI32(b, loc, args.empty() ? 1 : 0)})
             .getResult();
  SmallVector<Value> words;
  for (Value v : args) {
    Type type = v.getType();
    if (isa<LLVM::LLVMPointerType>(type))
      words.push_back(LLVM::PtrToIntOp::create(b, loc, i64, v));
    else if (type.isF64())
      words.push_back(LLVM::BitcastOp::create(b, loc, i64, v));
    else if (type.isF32())
      words.push_back(LLVM::BitcastOp::create(
          b, loc, i64, LLVM::FPExtOp::create(b, loc, b.getF64Type(), v)));
    else if (type.getIntOrFloatBitWidth() < 64)
      words.push_back(LLVM::ZExtOp::create(b, loc, i64, v));
    else
      words.push_back(v);
  }
  for (size_t first = 0; first < words.size(); first += 7) {
    size_t count = std::min<size_t>(7, words.size() - first);
    SmallVector<Value> callArgs = {desc, createI32(b, loc, count)};
    for (size_t i = 0; i < 7; ++i)
      callArgs.push_back(i < count ? words[first + i] : createI64(b, loc, 0));
    callArgs.push_back(
        createI32(b, loc, first + count == words.size() ? 1 : 0));
    desc = LLVM::CallOp::create(b, loc, TypeRange{i64},
                                "__ockl_printf_append_args", callArgs)
               .getResult();
  }
}

/// `text` with every `%` doubled, for use as a printf format.
std::string escapePercent(StringRef text) {
  std::string out;
  for (char c : text) {
    out.push_back(c);
    if (c == '%')
      out.push_back('%');
  }
  return out;
}

class AMDGPUHooks : public LoweringHooks {
public:
  explicit AMDGPUHooks(const Arch &arch) : arch(arch) {}

  StringRef getName() const override { return kBackendName; }

  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<ROCDL::ROCDLDialect>();
  }

  FailureOr<Value> getProgramId(OpBuilder &b, Location loc,
                                unsigned axis) override {
    Type i32 = b.getI32Type();
    switch (axis) {
    case 0:
      return ROCDL::BlockIdXOp::create(b, loc, i32).getResult();
    case 1:
      return ROCDL::BlockIdYOp::create(b, loc, i32).getResult();
    case 2:
      return ROCDL::BlockIdZOp::create(b, loc, i32).getResult();
    }
    return failure();
  }

  FailureOr<Value> getNumPrograms(OpBuilder &b, Location loc,
                                  unsigned axis) override {
    // __ockl_get_num_groups: the grid size over the workgroup size, from
    // the dispatch's implicit arguments.
    Type i64 = b.getI64Type();
    Value groups;
    switch (axis) {
    case 0:
      groups = ROCDL::GridDimXOp::create(b, loc, i64);
      break;
    case 1:
      groups = ROCDL::GridDimYOp::create(b, loc, i64);
      break;
    case 2:
      groups = ROCDL::GridDimZOp::create(b, loc, i64);
      break;
    default:
      return failure();
    }
    return LLVM::TruncOp::create(b, loc, b.getI32Type(), groups).getResult();
  }

  FailureOr<Value> getThreadId(OpBuilder &b, Location loc) override {
    return ROCDL::ThreadIdXOp::create(b, loc, b.getI32Type()).getResult();
  }

  LogicalResult createBarrier(OpBuilder &b, Location loc) override {
    // s_barrier alone does not order LDS: HIP's __syncthreads fences the
    // workgroup on both sides of it.
    LLVM::FenceOp::create(b, loc, LLVM::AtomicOrdering::release, "workgroup");
    ROCDL::SBarrierOp::create(b, loc);
    LLVM::FenceOp::create(b, loc, LLVM::AtomicOrdering::acquire, "workgroup");
    return success();
  }

  FailureOr<Value> shuffleXor(OpBuilder &b, Location loc, Value value,
                              unsigned laneMask) override {
    return shuffleXorWave64(b, loc, value, laneMask);
  }

  FailureOr<Value> warpReduce(OpBuilder &b, Location loc, Value value,
                              WarpReduceKind kind, unsigned laneMask) override {
    return reduceWave64(b, loc, value, kind, laneMask);
  }

  FailureOr<SmallVector<Value>> lowerDot(OpBuilder &b, Location loc,
                                         const DotOperands &operands) override {
    return lowerMfmaDot(b, loc, operands, arch);
  }

  std::string getSyncScope(StringRef scope) override {
    if (scope == "cta")
      return "workgroup";
    if (scope == "gpu")
      return "agent";
    return "";
  }

  LogicalResult printf(OpBuilder &b, Location loc, StringRef format,
                       ValueRange args) override {
    emitHipPrintf(b, loc, format, args);
    return success();
  }

  LogicalResult assertFail(OpBuilder &b, Location loc, StringRef message,
                           StringRef file, StringRef function,
                           unsigned line) override {
    // HIP's device assert: the place and the condition on the host's
    // output, then a trap that aborts the dispatch.
    std::string text =
        escapePercent((file + ":" + llvm::Twine(line) + ": " + function +
                       ": Device-side assertion `" + message + "' failed.\n")
                          .str());
    emitHipPrintf(b, loc, text, {});
    LLVM::Trap::create(b, loc);
    return success();
  }

  void populatePatterns(LLVMTypeConverter &converter,
                        RewritePatternSet &patterns) override {
    // math ops on scalars become ocml calls, before MLIR's generic LLVM
    // intrinsics (which AMDGPU cannot select for most functions).
    populateMathToROCDLConversionPatterns(converter, patterns, std::nullopt);
    patterns.add<InlineMathLowering>(converter, patterns.getContext());
  }

  void finalizeKernel(LLVM::LLVMFuncOp func, unsigned threads) override {
    MLIRContext *ctx = func.getContext();
    func->setAttr("rocdl.kernel", UnitAttr::get(ctx));
    func->setAttr("rocdl.flat_work_group_size",
                  StringAttr::get(ctx, "1," + std::to_string(threads)));
    func->setAttr("rocdl.reqd_work_group_size",
                  DenseI32ArrayAttr::get(ctx, {int32_t(threads), 1, 1}));
  }

private:
  Arch arch;
};

} // namespace

std::shared_ptr<LoweringHooks>
mlir::tessera::amdgpu::createLoweringHooks(const Arch &arch) {
  return std::make_shared<AMDGPUHooks>(arch);
}
