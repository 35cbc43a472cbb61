//===- Hooks.cpp - The null target's lowering hooks -----------------------===//
//
// What the core's shared lowering (tessera/Conversion/TesseraGPUToLLVM.h)
// asks a target for, in the order a bring-up implements it (docs/bring-up.md).
// The null target has no instructions of its own, so the hooks without a
// fallback in the core (indices, the barrier, the lane exchange) call
// external functions named `tessera_null_<hook>`, which a real target
// replaces by its intrinsics; every hook with a fallback declines, which is
// how a new target starts: correct, generic code first, the target's fast
// paths one hook at a time. LoweringHooks.h states each hook's contract.
//
//===----------------------------------------------------------------------===//
#include "Hooks.h"

#include "NullBackend.h"

#include "tessera/Conversion/LoweringUtils.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

using namespace mlir;
using namespace mlir::tessera;

namespace {

/// Calls the external function `tessera_null_<name>`, declaring it first.
Value callIntrinsic(OpBuilder &b, Location loc, StringRef name, Type result,
                    ValueRange args) {
  std::string symbol = (null::kIntrinsicPrefix + name).str();
  SmallVector<Type> params(args.getTypes());
  Type returned = result ? result : LLVM::LLVMVoidType::get(b.getContext());
  declareFunction(b, loc, symbol,
                  LLVM::LLVMFunctionType::get(returned, params));
  auto call = LLVM::CallOp::create(
      b, loc, result ? TypeRange{result} : TypeRange{}, symbol, args);
  return result ? call.getResult() : Value();
}

class NullHooks : public LoweringHooks {
public:
  StringRef getName() const override { return null::kBackendName; }

  //===--- 1. Indices: no fallback ---------------------------------------===//

  // TODO(newtarget): your target's block index (NVVM: nvvm.read.ptx.sreg.
  // ctaid.x; ROCDL: rocdl.workgroup.id.x), as i32.
  FailureOr<Value> getProgramId(OpBuilder &b, Location loc,
                                unsigned axis) override {
    return callIntrinsic(b, loc, "program_id", b.getI32Type(),
                         {createI32(b, loc, axis)});
  }

  // TODO(newtarget): the grid's size along `axis`, as i32.
  FailureOr<Value> getNumPrograms(OpBuilder &b, Location loc,
                                  unsigned axis) override {
    return callIntrinsic(b, loc, "num_programs", b.getI32Type(),
                         {createI32(b, loc, axis)});
  }

  // TODO(newtarget): the thread's index within its block, as i32. Lanes of
  // a warp are consecutive indices (TargetDescription::warpSize of them).
  FailureOr<Value> getThreadId(OpBuilder &b, Location loc) override {
    return callIntrinsic(b, loc, "thread_id", b.getI32Type(), {});
  }

  //===--- 2. Synchronization and exchange: no fallback ------------------===//

  // TODO(newtarget): a block-wide barrier that also orders shared memory
  // (a barrier alone may not: AMDGPU fences around s_barrier).
  LogicalResult createBarrier(OpBuilder &b, Location loc) override {
    callIntrinsic(b, loc, "barrier", Type(), {});
    return success();
  }

  // TODO(newtarget): the 32-bit value lane `lane ^ laneMask` holds (NVVM:
  // shfl.sync.bfly; AMDGPU: ds_bpermute or DPP). The core splits and widens
  // other sizes into 32-bit calls.
  FailureOr<Value> shuffleXor(OpBuilder &b, Location loc, Value value,
                              unsigned laneMask) override {
    Type i32 = b.getI32Type();
    Value bits = value.getType() == i32
                     ? value
                     : LLVM::BitcastOp::create(b, loc, i32, value).getResult();
    Value got = callIntrinsic(b, loc, "shuffle_xor", i32,
                              {bits, createI32(b, loc, laneMask)});
    return value.getType() == i32
               ? got
               : LLVM::BitcastOp::create(b, loc, value.getType(), got)
                     .getResult();
  }

  //===--- 3. Fast paths: every one declines, the core falls back --------===//

  // TODO(newtarget): a native cross-lane reduction (NVVM: redux.sync for
  // integers); declining makes a butterfly of shuffleXor.
  FailureOr<Value> warpReduce(OpBuilder &, Location, Value, WarpReduceKind,
                              unsigned) override {
    return failure();
  }

  // TODO(newtarget): predicated global accesses (NVVM: ld.global with a
  // predicate); declining branches around plain loads and stores, which
  // most LLVM targets select well.
  FailureOr<Value> loadGlobal(OpBuilder &, Location, Value, Type, Value,
                              Value) override {
    return failure();
  }
  LogicalResult storeGlobal(OpBuilder &, Location, Value, Value,
                            Value) override {
    return failure();
  }

  // TODO(newtarget): matrix loads from shared memory (NVVM: ldmatrix);
  // declining reads each register's elements.
  FailureOr<SmallVector<Value>> loadSharedTile(OpBuilder &, Location,
                                               const SharedTile &) override {
    return failure();
  }

  // TODO(newtarget): asynchronous global-to-shared copies (NVVM: cp.async)
  // and their groups; declining copies synchronously, and then
  // TargetDescription::asyncCopy stays false.
  LogicalResult asyncCopy(OpBuilder &, Location, Value, Value, unsigned,
                          Value) override {
    return failure();
  }

  // TODO(newtarget): the target's matrix instruction for the layouts its
  // TargetDescription::matrixInstructions and layout provider chose;
  // declining multiplies and adds (FMAs), right for any layout but slow,
  // and bounded by the elements a thread may hold.
  FailureOr<SmallVector<Value>> lowerDot(OpBuilder &, Location,
                                         const DotOperands &) override {
    return failure();
  }

  //===--- 4. Debugging --------------------------------------------------===//

  // TODO(newtarget): your device printf (CUDA: vprintf with an argument
  // buffer; HIP: the hostcall buffer). The null target calls C's printf,
  // variadic, which a target with a C runtime on the device can keep.
  LogicalResult printf(OpBuilder &b, Location loc, StringRef format,
                       ValueRange args) override {
    MLIRContext *ctx = b.getContext();
    auto ptr = LLVM::LLVMPointerType::get(ctx);
    declareFunction(b, loc, "printf",
                    LLVM::LLVMFunctionType::get(b.getI32Type(), {ptr},
                                                /*isVarArg=*/true));
    SmallVector<Value> operands = {
        getStringPointer(b, loc, format, "tessera_null_format")};
    operands.append(args.begin(), args.end());
    auto funcType = LLVM::LLVMFunctionType::get(b.getI32Type(), {ptr},
                                                /*isVarArg=*/true);
    LLVM::CallOp::create(b, loc, funcType, "printf", operands);
    return success();
  }

  // TODO(newtarget): report the assertion on the host (file, line,
  // message); declining traps, which stops the kernel without saying why.
  LogicalResult assertFail(OpBuilder &, Location, StringRef, StringRef,
                           StringRef, unsigned) override {
    return failure();
  }

  //===--- 5. Kernels ----------------------------------------------------===//

  // TODO(newtarget): the kernel calling convention and launch bounds
  // (NVVM: nvvm.kernel and maxntid; ROCDL: rocdl.kernel and
  // flat_work_group_size). The null target leaves the function as it is.
  void finalizeKernel(LLVM::LLVMFuncOp, unsigned) override {}
};

} // namespace

std::shared_ptr<LoweringHooks> mlir::tessera::null::createLoweringHooks() {
  return std::make_shared<NullHooks>();
}
