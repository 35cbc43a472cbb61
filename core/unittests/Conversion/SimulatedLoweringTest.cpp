//===- SimulatedLoweringTest.cpp - The shared lowering run on host threads ===//
//
// Kernels of the tessera dialect go through convert-to-gpu and the shared
// lowering with the test target's hooks (tessera-test-lower-to-llvm), are
// compiled for the host with ORC's LLJIT, and run as one warp of 32 host
// threads: the hooks give each its lane, a std::barrier for barriers, a
// host buffer for shared memory, and plain host memory for global
// accesses. The results are checked against host references, which the
// lit tests of the lowering (IR patterns) cannot do.
//
//===----------------------------------------------------------------------===//
#include "tessera/InitAll.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/TargetSelect.h"

#include <gtest/gtest.h>

#include <barrier>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <thread>
#include <vector>

using namespace mlir;

namespace {

constexpr unsigned kThreads = 32;

/// The simulated block: each host thread's lane, the barrier they meet at,
/// and the shared memory they address.
thread_local int32_t currentLane = 0;
std::barrier<> *blockBarrier = nullptr;
std::vector<uint8_t> sharedMemory;

uint16_t halfBits(_Float16 v) {
  uint16_t bits;
  std::memcpy(&bits, &v, 2);
  return bits;
}

// The test target's hooks (TestLoweringHooks.cpp). Predicates are i1 values
// whose upper bits the caller leaves unspecified.
extern "C" int32_t hookThreadId() { return currentLane; }
extern "C" int32_t hookProgramId(int32_t) { return 0; }
extern "C" int32_t hookNumPrograms(int32_t) { return 1; }
extern "C" void hookBarrier() { blockBarrier->arrive_and_wait(); }
extern "C" void *hookSharedBase() { return sharedMemory.data(); }
extern "C" float hookLoadF32(const float *p, uint32_t pred, float other) {
  return (pred & 1) ? *p : other;
}
extern "C" void hookStoreF32(float *p, float v, uint32_t pred) {
  if (pred & 1)
    *p = v;
}
extern "C" _Float16 hookLoadF16(const _Float16 *p, uint32_t pred,
                                _Float16 other) {
  return (pred & 1) ? *p : other;
}
extern "C" void hookStoreF16(_Float16 *p, _Float16 v, uint32_t pred) {
  if (pred & 1)
    *p = v;
}

/// A kernel file lowered for the test target and compiled for the host.
class SimulatedKernel {
public:
  /// Lowers `source` (tessera IR without layouts) for one warp of 32.
  explicit SimulatedKernel(llvm::StringRef source) : context(makeRegistry()) {
    OwningOpRef<ModuleOp> module =
        parseSourceString<ModuleOp>(source, ParserConfig(&context));
    if (!module) {
      error = "the test module does not parse";
      return;
    }
    mlir::tessera::registerAllPasses();
    PassManager pm(&context);
    if (failed(parsePassPipeline(
            "tessera-convert-to-gpu{num-warps=1 threads-per-warp=32 "
            "target=test},canonicalize,"
            "tessera-test-lower-to-llvm{shared-address-space=0}",
            pm))) {
      error = "the pipeline does not parse";
      return;
    }
    if (failed(pm.run(*module))) {
      error = "the lowering failed";
      return;
    }
    if (auto bytes =
            (*module)->getAttrOfType<IntegerAttr>("tessera_gpu.shared_memory"))
      sharedBytes = bytes.getInt();
    module->walk([](LLVM::LLVMFuncOp func) {
      if (!func.isExternal())
        func.setLinkage(LLVM::Linkage::External);
    });
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    auto llvmContext = std::make_unique<llvm::LLVMContext>();
    std::unique_ptr<llvm::Module> llvmModule =
        translateModuleToLLVMIR(*module, *llvmContext, "simulated");
    if (!llvmModule) {
      error = "the translation to LLVM IR failed";
      return;
    }
    auto created = llvm::orc::LLJITBuilder().create();
    if (!created) {
      error = llvm::toString(created.takeError());
      return;
    }
    jit = std::move(*created);
    llvm::orc::MangleAndInterner mangle(jit->getExecutionSession(),
                                        jit->getDataLayout());
    llvm::orc::SymbolMap hooks;
    auto define = [&](llvm::StringRef name, auto *fn) {
      hooks[mangle(("tessera_test_" + name).str())] = {
          llvm::orc::ExecutorAddr::fromPtr(fn), llvm::JITSymbolFlags::Exported};
    };
    define("thread_id", &hookThreadId);
    define("program_id", &hookProgramId);
    define("num_programs", &hookNumPrograms);
    define("barrier", &hookBarrier);
    define("shared_base", &hookSharedBase);
    define("load_global_f32", &hookLoadF32);
    define("store_global_f32", &hookStoreF32);
    define("load_global_f16", &hookLoadF16);
    define("store_global_f16", &hookStoreF16);
    if (llvm::Error err = jit->getMainJITDylib().define(
            llvm::orc::absoluteSymbols(std::move(hooks)))) {
      error = llvm::toString(std::move(err));
      return;
    }
    if (llvm::Error err = jit->addIRModule(llvm::orc::ThreadSafeModule(
            std::move(llvmModule), std::move(llvmContext)))) {
      error = llvm::toString(std::move(err));
      return;
    }
  }

  const std::string &getError() const { return error; }

  /// Runs kernel `name` (taking `Args`) as one block of 32 threads.
  template <typename... Args> void run(llvm::StringRef name, Args... args) {
    auto symbol = jit->lookup(name);
    if (!symbol) {
      ADD_FAILURE() << llvm::toString(symbol.takeError());
      return;
    }
    auto *fn = symbol->toPtr<void(Args...)>();
    sharedMemory.assign(sharedBytes, 0);
    std::barrier<> barrier(kThreads);
    blockBarrier = &barrier;
    std::vector<std::thread> threads;
    for (unsigned lane = 0; lane < kThreads; ++lane)
      threads.emplace_back([=] {
        currentLane = int32_t(lane);
        fn(args...);
      });
    for (std::thread &t : threads)
      t.join();
    blockBarrier = nullptr;
  }

private:
  static DialectRegistry makeRegistry() {
    DialectRegistry registry;
    mlir::tessera::registerAllDialects(registry);
    registerBuiltinDialectTranslation(registry);
    registerLLVMDialectTranslation(registry);
    return registry;
  }

  MLIRContext context;
  std::unique_ptr<llvm::orc::LLJIT> jit;
  int64_t sharedBytes = 0;
  std::string error;
};

} // namespace

// A block pointer at (1, 1), advanced three columns in a loop; both
// dimensions checked, out-of-bounds elements read NaN; stored through a
// second block pointer. Every element must land once, where it belongs.
TEST(SimulatedLoweringTest, BlockPointerLoadAdvanceStore) {
  SimulatedKernel kernel(R"mlir(
func.func @block_copy(%src: !tessera.ptr<f32>, %dst: !tessera.ptr<f32>, %m: i64, %n: i64, %stride: i64) attributes {tessera.kernel} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %one = arith.constant 1 : i64
  %rows = arith.constant 8 : i64
  %cols = arith.constant 16 : i64
  %p = tessera.make_block_ptr %src, [%m, %n], [%stride, %one], [%c1, %c1] {order = array<i32: 1, 0>} : !tessera.ptr<f32> -> !tessera.ptr<tensor<8x16xf32>>
  %lb = arith.constant 0 : index
  %ub = arith.constant 3 : index
  %step = arith.constant 1 : index
  %q = scf.for %i = %lb to %ub step %step iter_args(%it = %p) -> (!tessera.ptr<tensor<8x16xf32>>) {
    %a = tessera.advance %it, [%c0, %c1] : !tessera.ptr<tensor<8x16xf32>>
    scf.yield %a : !tessera.ptr<tensor<8x16xf32>>
  }
  %x = tessera.load %q {boundaryCheck = array<i32: 0, 1>, padding = #tessera<padding nan>} : !tessera.ptr<tensor<8x16xf32>>
  %d = tessera.make_block_ptr %dst, [%rows, %cols], [%cols, %one], [%c0, %c0] {order = array<i32: 1, 0>} : !tessera.ptr<f32> -> !tessera.ptr<tensor<8x16xf32>>
  tessera.store %d, %x : !tessera.ptr<tensor<8x16xf32>>
  return
}
)mlir");
  ASSERT_EQ(kernel.getError(), "");
  const int64_t m = 6, n = 18, stride = 20;
  std::vector<float> src(m * stride);
  for (size_t i = 0; i < src.size(); ++i)
    src[i] = float(i) + 0.5f;
  // One guard element after the 8 x 16 output.
  std::vector<float> dst(8 * 16 + 1, -1.0f);
  kernel.run("block_copy", src.data(), dst.data(), m, n, stride);
  for (int64_t i = 0; i < 8; ++i)
    for (int64_t j = 0; j < 16; ++j) {
      int64_t row = 1 + i, col = 4 + j;
      float got = dst[i * 16 + j];
      if (row < m && col < n)
        EXPECT_EQ(got, src[row * stride + col]) << i << "," << j;
      else
        EXPECT_TRUE(std::isnan(got)) << i << "," << j << ": " << got;
    }
  EXPECT_EQ(dst.back(), -1.0f);
}

// A batched (three-dimensional) fp16 dot with an fp16 accumulator, loaded
// and stored through rank-3 block pointers, computed with the multiply-add
// fallback (the test target has no matrix instructions): each element is
// the exact sum rounded once, so within one fp16 ulp of the exact product.
TEST(SimulatedLoweringTest, BatchedFp16DotRoundsOnce) {
  SimulatedKernel kernel(R"mlir(
func.func @dot3d(%a: !tessera.ptr<f16>, %b: !tessera.ptr<f16>, %o: !tessera.ptr<f16>) attributes {tessera.kernel} {
  %c0 = arith.constant 0 : i32
  %one = arith.constant 1 : i64
  %two = arith.constant 2 : i64
  %c8 = arith.constant 8 : i64
  %c16 = arith.constant 16 : i64
  %c32 = arith.constant 32 : i64
  %c128 = arith.constant 128 : i64
  %c256 = arith.constant 256 : i64
  %c512 = arith.constant 512 : i64
  %pa = tessera.make_block_ptr %a, [%two, %c8, %c32], [%c256, %c32, %one], [%c0, %c0, %c0] {order = array<i32: 2, 1, 0>} : !tessera.ptr<f16> -> !tessera.ptr<tensor<2x8x32xf16>>
  %pb = tessera.make_block_ptr %b, [%two, %c32, %c16], [%c512, %c16, %one], [%c0, %c0, %c0] {order = array<i32: 2, 1, 0>} : !tessera.ptr<f16> -> !tessera.ptr<tensor<2x32x16xf16>>
  %po = tessera.make_block_ptr %o, [%two, %c8, %c16], [%c128, %c16, %one], [%c0, %c0, %c0] {order = array<i32: 2, 1, 0>} : !tessera.ptr<f16> -> !tessera.ptr<tensor<2x8x16xf16>>
  %x = tessera.load %pa : !tessera.ptr<tensor<2x8x32xf16>>
  %y = tessera.load %pb : !tessera.ptr<tensor<2x32x16xf16>>
  %zero = arith.constant dense<0.0> : tensor<2x8x16xf16>
  %d = tessera.dot %x, %y, %zero : tensor<2x8x32xf16> * tensor<2x32x16xf16> -> tensor<2x8x16xf16>
  tessera.store %po, %d : !tessera.ptr<tensor<2x8x16xf16>>
  return
}
)mlir");
  ASSERT_EQ(kernel.getError(), "");
  const int batch = 2, m = 8, n = 16, k = 32;
  std::mt19937 gen(17);
  std::normal_distribution<float> normal;
  std::vector<_Float16> a(batch * m * k), b(batch * k * n),
      o(batch * m * n, _Float16(std::numeric_limits<float>::quiet_NaN()));
  for (_Float16 &v : a)
    v = _Float16(normal(gen));
  for (_Float16 &v : b)
    v = _Float16(normal(gen));
  kernel.run("dot3d", a.data(), b.data(), o.data());
  unsigned beyondOneUlp = 0;
  for (int bi = 0; bi < batch; ++bi)
    for (int i = 0; i < m; ++i)
      for (int j = 0; j < n; ++j) {
        double exact = 0;
        for (int l = 0; l < k; ++l)
          exact +=
              double(a[(bi * m + i) * k + l]) * double(b[(bi * k + l) * n + j]);
        int exponent = std::max(std::ilogb(exact), -14);
        double ulp = std::ldexp(1.0, exponent - 10);
        double got = double(o[(bi * m + i) * n + j]);
        if (!(std::abs(got - exact) <= ulp))
          ++beyondOneUlp;
      }
  EXPECT_EQ(beyondOneUlp, 0u) << "first bits " << halfBits(o[0]);
}
