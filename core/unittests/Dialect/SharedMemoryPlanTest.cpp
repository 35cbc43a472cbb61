//===- SharedMemoryPlanTest.cpp - Buffers and scratch sharing bytes -------===//
#include "tessera/Dialect/TesseraGPU/IR/SharedMemoryPlan.h"
#include "tessera/Dialect/TesseraGPU/IR/Dialect.h"
#include "tessera/InitAll.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::tessera;
using namespace mlir::tessera::gpu;

namespace {

/// A 4 KiB swizzled tile type and a 256-byte plain one, and a loop that
/// reads what `%ring` holds; `$AFTER` follows the loop.
constexpr llvm::StringLiteral kPrelude = R"mlir(
#sw = #tessera_gpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]>
#plain = #tessera_gpu.shared<vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]>
#ld = #tessera_gpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
#ld2 = #tessera_gpu.blocked<sizePerThread = [8, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]>
module attributes {tessera_gpu.num_ctas = 1 : i32, tessera_gpu.num_warps = 4 : i32, tessera_gpu.threads_per_warp = 32 : i32} {
  func.func @kernel(%n: i32, %t: tensor<32x64xf16, #ld>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %ring = tessera_gpu.local_alloc : () -> !tessera_gpu.memdesc<32x64xf16, #sw, mutable>
    scf.for %i = %c0 to %n step %c1 : i32 {
      %x = tessera_gpu.local_load %ring : !tessera_gpu.memdesc<32x64xf16, #sw, mutable> -> tensor<32x64xf16, #ld>
      $INLOOP
    }
    $AFTER
    return
  }
}
)mlir";

class SharedMemoryPlanTest : public ::testing::Test {
protected:
  SharedMemoryPlanTest() {
    DialectRegistry registry;
    registerAllDialects(registry);
    ctx.appendDialectRegistry(registry);
    ctx.loadAllAvailableDialects();
  }

  /// Plans the prelude with `inLoop` in the loop and `after` after it;
  /// layout conversions take 1000 bytes of scratch.
  SharedMemoryPlan plan(StringRef inLoop, StringRef after,
                        ArrayRef<PlannedBuffer> planned = {}) {
    std::string text = kPrelude.str();
    text.replace(text.find("$INLOOP"), 7, inLoop.str());
    text.replace(text.find("$AFTER"), 6, after.str());
    module = parseSourceString<ModuleOp>(text, &ctx);
    EXPECT_TRUE(module);
    allocs.clear();
    module->walk([&](LocalAllocOp op) { allocs.push_back(op); });
    return planSharedMemory(
        *module,
        [](Operation *op) -> uint64_t {
          return isa<ConvertLayoutOp>(op) ? 1000 : 0;
        },
        planned);
  }

  scf::ForOp getLoop() {
    scf::ForOp loop;
    module->walk([&](scf::ForOp op) { loop = op; });
    return loop;
  }

  MLIRContext ctx;
  OwningOpRef<ModuleOp> module;
  SmallVector<Operation *> allocs;
};

constexpr llvm::StringLiteral kLater =
    "%later = tessera_gpu.local_alloc %t : (tensor<32x64xf16, #ld>) -> "
    "!tessera_gpu.memdesc<32x64xf16, #plain, mutable>\n"
    "%y = tessera_gpu.local_load %later : !tessera_gpu.memdesc<32x64xf16, "
    "#plain, mutable> -> tensor<32x64xf16, #ld>\n";
constexpr llvm::StringLiteral kConvert =
    "%c = tessera_gpu.convert_layout %t : tensor<32x64xf16, #ld> -> "
    "tensor<32x64xf16, #ld2>\n";

TEST_F(SharedMemoryPlanTest, BufferAfterABarrierReusesTheBytes) {
  SharedMemoryPlan p = plan("", "tessera_gpu.barrier\n" + kLater.str());
  ASSERT_EQ(allocs.size(), 2u);
  EXPECT_EQ(p.bufferOffsets.lookup(allocs[0]), 0u);
  EXPECT_EQ(p.bufferOffsets.lookup(allocs[1]), 0u);
  EXPECT_EQ(p.buffersEnd, 4096u);
  EXPECT_EQ(p.total(), 4096u);
}

TEST_F(SharedMemoryPlanTest, NoBarrierNoReuse) {
  // A slower thread may still read the ring when a faster one writes the
  // later buffer.
  SharedMemoryPlan p = plan("", kLater);
  EXPECT_EQ(p.bufferOffsets.lookup(allocs[1]), 4096u);
  EXPECT_EQ(p.total(), 8192u);
}

TEST_F(SharedMemoryPlanTest, ScratchAfterTheLoop) {
  SharedMemoryPlan p = plan("", "tessera_gpu.barrier\n" + kConvert.str());
  EXPECT_EQ(p.scratchOffset, 0u);
  EXPECT_EQ(p.scratchBytes, 1000u);
  EXPECT_EQ(p.total(), 4096u);
}

TEST_F(SharedMemoryPlanTest, ScratchInTheLoopFollowsTheRing) {
  SharedMemoryPlan p = plan(kConvert, "");
  EXPECT_EQ(p.scratchOffset, 4096u);
  EXPECT_EQ(p.total(), 4096u + 1000u);
}

TEST_F(SharedMemoryPlanTest, BufferInsideALoopWithoutBarrierLivesThroughIt) {
  // Allocated in the body and not freed by a barrier there: the next
  // iteration's reads of the ring may overlap its writes.
  SharedMemoryPlan p = plan(kLater, "");
  EXPECT_EQ(p.bufferOffsets.lookup(allocs[1]), 4096u);
}

TEST_F(SharedMemoryPlanTest, PlannedAndReplacedBuffers) {
  // A planned ring of three slots at the loop, in place of the buffer that
  // is there. Freed by a barrier right after the loop, its bytes go to the
  // later buffer; else it lives to the end.
  auto none = [](Operation *) -> uint64_t { return 0; };
  for (bool barrierAfter : {true, false}) {
    plan("", kLater);
    PlannedBuffer ring{getLoop(), 3 * 4096, kSwizzledBufferAlignment,
                       barrierAfter};
    Operation *old = allocs[0];
    SharedMemoryPlan p = planSharedMemory(*module, none, {ring}, {old});
    EXPECT_FALSE(p.bufferOffsets.count(old));
    EXPECT_EQ(p.bufferOffsets.lookup(allocs[1]),
              barrierAfter ? 0u : 3u * 4096u);
    EXPECT_EQ(p.buffersEnd, barrierAfter ? 3u * 4096u : 4u * 4096u);
  }
}

} // namespace
