//===- TestLoweringHooks.cpp - Hooks of a pretend target, for lit tests ---===//
//
// `tessera-test-lower-to-llvm` runs the shared lowering with hooks that
// spell every target operation as a call to an external function named
// after the hook (`tessera_test_thread_id`, `tessera_test_barrier`, ...), so
// tests see exactly which hooks the core called and with what. The `decline`
// option names hooks that decline instead, to test the core's fallbacks.
//
//===----------------------------------------------------------------------===//
#include "tessera/Conversion/TesseraGPUToLLVM.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/ADT/StringSet.h"

using namespace mlir;
using namespace mlir::tessera;

namespace {

struct TestOptions : public PassPipelineOptions<TestOptions> {
  ListOption<std::string> decline{
      *this, "decline",
      llvm::cl::desc("Hooks that decline (thread-id, barrier, shuffle, "
                     "warp-reduce, load-global, store-global, async-copy, "
                     "dot, wait-for-dots, printf, assert, shared-base)")};
  ListOption<std::string> accept{
      *this, "accept",
      llvm::cl::desc("Optional hooks that accept (shared-tile, narrow-fp8); "
                     "they decline otherwise")};
  Option<unsigned> sharedAddressSpace{*this, "shared-address-space",
                                      llvm::cl::desc("Shared address space"),
                                      llvm::cl::init(3)};
  Option<unsigned> maxVectorBits{*this, "max-vector-bits",
                                 llvm::cl::desc("Widest access, in bits"),
                                 llvm::cl::init(128)};
};

/// A suffix naming `type` in a function name (i32, f16, v4f32, ptr1).
std::string mangle(Type type) {
  std::string s;
  llvm::raw_string_ostream os(s);
  if (auto vec = dyn_cast<VectorType>(type)) {
    os << "v" << vec.getNumElements() << mangle(vec.getElementType());
  } else if (auto ptr = dyn_cast<LLVM::LLVMPointerType>(type)) {
    os << "ptr" << ptr.getAddressSpace();
  } else {
    os << type;
  }
  return s;
}

class TestHooks : public LoweringHooks {
public:
  TestHooks(ArrayRef<std::string> declined, ArrayRef<std::string> accepted) {
    for (const std::string &name : accepted)
      this->accepted.insert(name);
    for (const std::string &name : declined)
      this->declined.insert(name);
  }

  StringRef getName() const override { return "test"; }

  FailureOr<Value> getProgramId(OpBuilder &b, Location loc,
                                unsigned axis) override {
    return call(b, loc, "program_id", b.getI32Type(), {constant(b, loc, axis)});
  }
  FailureOr<Value> getNumPrograms(OpBuilder &b, Location loc,
                                  unsigned axis) override {
    return call(b, loc, "num_programs", b.getI32Type(),
                {constant(b, loc, axis)});
  }
  FailureOr<Value> getThreadId(OpBuilder &b, Location loc) override {
    if (declined.contains("thread-id"))
      return failure();
    return call(b, loc, "thread_id", b.getI32Type(), {});
  }
  LogicalResult createBarrier(OpBuilder &b, Location loc) override {
    if (declined.contains("barrier"))
      return failure();
    call(b, loc, "barrier", Type(), {});
    return success();
  }
  FailureOr<Value> shuffleXor(OpBuilder &b, Location loc, Value value,
                              unsigned laneMask) override {
    if (declined.contains("shuffle"))
      return failure();
    return call(b, loc, "shuffle_xor_" + mangle(value.getType()),
                value.getType(), {value, constant(b, loc, laneMask)});
  }
  FailureOr<Value> warpReduce(OpBuilder &b, Location loc, Value value,
                              WarpReduceKind kind, unsigned laneMask) override {
    if (declined.contains("warp-reduce"))
      return failure();
    return call(b, loc,
                "warp_reduce_" + std::to_string(int(kind)) + "_" +
                    mangle(value.getType()),
                value.getType(), {value, constant(b, loc, laneMask)});
  }
  FailureOr<Value> getSharedMemoryBase(OpBuilder &b, Location loc) override {
    if (declined.contains("shared-base"))
      return failure();
    return call(b, loc, "shared_base",
                LLVM::LLVMPointerType::get(b.getContext(), 3), {});
  }
  /// Each register r is `tessera_test_load_shared_tile` of the address of
  /// element (r, lane).
  FailureOr<SmallVector<Value>>
  loadSharedTile(OpBuilder &b, Location loc, const SharedTile &tile) override {
    if (!accepted.contains("shared-tile"))
      return failure();
    SmallVector<Value> regs;
    for (int32_t r = 0; r < tile.layout->getInDimSize(kRegisterDim); ++r)
      regs.push_back(
          call(b, loc, "load_shared_tile", tile.elementType,
               {tile.address(b, loc, constant(b, loc, r), tile.lane)}));
    return regs;
  }
  /// `tessera_test_narrow_to_<fp8 type>`(x) -> i8.
  FailureOr<Value> narrowToFp8(OpBuilder &b, Location loc, Value x,
                               FloatType dst) override {
    if (!accepted.contains("narrow-fp8"))
      return failure();
    return call(b, loc, "narrow_to_" + mangle(dst), b.getI8Type(), {x});
  }
  FailureOr<Value> loadGlobal(OpBuilder &b, Location loc, Value ptr, Type type,
                              Value pred, Value other) override {
    if (declined.contains("load-global"))
      return failure();
    return call(b, loc, "load_global_" + mangle(type), type,
                {ptr, pred, other});
  }
  LogicalResult storeGlobal(OpBuilder &b, Location loc, Value ptr, Value value,
                            Value pred) override {
    if (declined.contains("store-global"))
      return failure();
    call(b, loc, "store_global_" + mangle(value.getType()), Type(),
         {ptr, value, pred});
    return success();
  }
  LogicalResult asyncCopy(OpBuilder &b, Location loc, Value dst, Value src,
                          unsigned bytes, Value pred) override {
    if (declined.contains("async-copy"))
      return failure();
    call(b, loc, "async_copy", Type(),
         {dst, src, constant(b, loc, bytes), pred});
    return success();
  }
  LogicalResult asyncCommitGroup(OpBuilder &b, Location loc) override {
    if (declined.contains("async-copy"))
      return failure();
    call(b, loc, "async_commit_group", Type(), {});
    return success();
  }
  LogicalResult asyncWait(OpBuilder &b, Location loc,
                          unsigned pending) override {
    if (declined.contains("async-copy"))
      return failure();
    call(b, loc, "async_wait", Type(), {constant(b, loc, pending)});
    return success();
  }
  FailureOr<SmallVector<Value>> waitForDots(OpBuilder &b, Location loc,
                                            ValueRange registers,
                                            unsigned pending) override {
    if (declined.contains("wait-for-dots"))
      return failure();
    // Each register comes back through a call, so that tests see which
    // values waited and for how many dots.
    SmallVector<Value> waited;
    for (Value reg : registers)
      waited.push_back(call(b, loc, "wait_for_dots_" + mangle(reg.getType()),
                            reg.getType(), {reg, constant(b, loc, pending)}));
    return waited;
  }
  LogicalResult printf(OpBuilder &b, Location loc, StringRef format,
                       ValueRange args) override {
    if (declined.contains("printf"))
      return failure();
    // The format travels as a constant global string.
    auto module =
        b.getInsertionBlock()->getParentOp()->getParentOfType<ModuleOp>();
    std::string name = "tessera_test_format_" + std::to_string(formats++);
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(module.getBody());
      std::string text = format.str() + '\0';
      LLVM::GlobalOp::create(
          b, loc, LLVM::LLVMArrayType::get(b.getI8Type(), text.size()),
          /*isConstant=*/true, LLVM::Linkage::Internal, name,
          b.getStringAttr(text));
    }
    SmallVector<Value> all{LLVM::AddressOfOp::create(
        b, loc, LLVM::LLVMPointerType::get(b.getContext()), name)};
    all.append(args.begin(), args.end());
    call(b, loc, "printf", Type(), all);
    return success();
  }
  LogicalResult assertFail(OpBuilder &b, Location loc, StringRef message,
                           StringRef file, StringRef function,
                           unsigned line) override {
    if (declined.contains("assert"))
      return failure();
    call(b, loc, "assert_fail", Type(), {constant(b, loc, line)});
    return success();
  }
  void finalizeKernel(LLVM::LLVMFuncOp func, unsigned threads) override {
    func->setAttr(
        "tessera_test.threads",
        IntegerAttr::get(IntegerType::get(func.getContext(), 32), threads));
  }

private:
  static Value constant(OpBuilder &b, Location loc, int64_t value) {
    return LLVM::ConstantOp::create(b, loc, b.getI32Type(),
                                    b.getI32IntegerAttr(value));
  }

  /// Calls `tessera_test_<name>`, declaring it on first use.
  Value call(OpBuilder &b, Location loc, const std::string &name, Type result,
             ValueRange args) {
    std::string symbol = "tessera_test_" + name;
    auto module =
        b.getInsertionBlock()->getParentOp()->getParentOfType<ModuleOp>();
    if (!module.lookupSymbol(symbol)) {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(module.getBody());
      SmallVector<Type> argTypes;
      for (Value v : args)
        argTypes.push_back(v.getType());
      Type resultType =
          result ? result : LLVM::LLVMVoidType::get(b.getContext());
      LLVM::LLVMFuncOp::create(
          b, loc, symbol, LLVM::LLVMFunctionType::get(resultType, argTypes));
    }
    auto op = LLVM::CallOp::create(
        b, loc, result ? TypeRange{result} : TypeRange{}, symbol, args);
    return result ? op.getResult() : Value();
  }

  llvm::StringSet<> declined, accepted;
  unsigned formats = 0;
};

} // namespace

void mlir::tessera::registerTestLowerToLLVMPass() {
  PassPipelineRegistration<TestOptions>(
      "tessera-test-lower-to-llvm",
      "The shared lowering to LLVM with hooks that call tessera_test_* "
      "functions (for tests)",
      [](OpPassManager &pm, const TestOptions &options) {
        GPULoweringOptions lowering;
        lowering.sharedAddressSpace = options.sharedAddressSpace;
        lowering.maxVectorBits = options.maxVectorBits;
        buildLowerToLLVMPipeline(
            pm, std::make_shared<TestHooks>(options.decline, options.accept),
            lowering);
      });
}
