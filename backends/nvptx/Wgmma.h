//===- Wgmma.h - Warpgroup dots reading shared memory -----------*- C++ -*-===//
//
// sm_90a's `wgmma.mma_async` reads B (and A, or A from registers) from
// shared memory through 64-bit matrix descriptors. The descriptors describe
// tiles whose rows are 32, 64 or 128 bytes long and XOR-swizzled in 16-byte
// groups by row, in blocks of that width: exactly the row-major swizzled
// `#tessera_gpu.shared` layouts with `blockCols` that pipelining gives its
// rings. `prepare-wgmma` makes sure every wgmma dot's B operand (and an fp8
// dot's A) is read from such a buffer; the lowering then builds the
// descriptors from the buffer's address and issues one instruction per
// 64-row block and K step of 32 bytes (16 fp16 or bf16, 32 fp8).
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_BACKENDS_NVPTX_WGMMA_H
#define TESSERA_BACKENDS_NVPTX_WGMMA_H

#include "Target.h"

#include "tessera/Conversion/LoweringHooks.h"
#include "tessera/Dialect/TesseraGPU/IR/Dialect.h"

#include "mlir/Pass/Pass.h"

#include <memory>
#include <optional>

namespace mlir::tessera::nvptx {

/// How a shared buffer holds a wgmma operand. "Rows" run along the
/// operand's non-contiguous dimension, each block of `width` contiguous
/// elements is `swizzle` bytes wide, and block b of row r starts at byte
/// b * rows * swizzle + r * swizzle.
struct WgmmaSharedOperand {
  /// K is the contiguous dimension (else M or N is: a transposed operand).
  bool kMajor = true;
  /// 32, 64 or 128: the row length in bytes, the descriptor's swizzle.
  int64_t swizzle = 128;
  /// Elements per row of a block, and rows.
  int64_t width = 0, rows = 0;
  unsigned elementBytes = 2;

  /// Byte offset of the element at (row, col) for `row` a multiple of 8 and
  /// `col` a multiple of 8 (16 bytes).
  int64_t getOffset(int64_t row, int64_t col) const {
    return (col / width) * rows * swizzle + row * swizzle +
           (col % width) * elementBytes;
  }
};

/// The descriptor view of operand `opIdx` (0: A, M x K; 1: B, K x N) held
/// by a buffer of `type`, or nullopt when wgmma cannot read it.
std::optional<WgmmaSharedOperand> getWgmmaSharedOperand(gpu::MemDescType type,
                                                        unsigned opIdx);

/// The `#tessera_gpu.shared` layout wgmma reads a row-major tile of `shape`
/// with `bytes`-byte elements from (rows of 32 bytes at least).
gpu::SwizzledSharedAttr
getWgmmaSharedLayout(MLIRContext *ctx, ArrayRef<int64_t> shape, unsigned bytes);

/// Lowers a dot that accelerate-dot gave wgmma layouts: descriptors for
/// the shared operands, a 16-bit A from registers otherwise, one
/// `wgmma.mma_async` per 64-row block and K step between a
/// `wgmma.fence` and a commit and wait. Declines other dots; an error when B
/// is not in a buffer wgmma reads.
FailureOr<SmallVector<Value>> lowerWgmmaDot(OpBuilder &b, Location loc,
                                            const DotOperands &operands,
                                            const Arch &arch);

/// The attribute (i32 n) async-wgmma gives a dot its lowering leaves
/// running: after issuing it, the thread waits only until n groups of
/// wgmma (this one included) are in flight.
inline constexpr llvm::StringLiteral kWgmmaPendingAttrName =
    "tessera_nvptx.wgmma_pending";

/// `values` (f32 or i32 registers) once at most `pending` of the thread's
/// wgmma groups are in flight; the wait takes and returns them, so that
/// nothing reads them before.
SmallVector<Value> emitWgmmaWait(OpBuilder &b, Location loc, ValueRange values,
                                 unsigned pending);

/// The pass that leaves the accumulator wgmma dots of loops the pipeliner
/// gave spare ring slots (kDotsInFlightAttrName) running into the next
/// iteration, where the buffers they read stay unwritten that long
/// (AsyncWgmma.cpp), and waits for them after the loop with dot_wait.
std::unique_ptr<Pass> createAsyncWgmmaPass();

/// The module attribute prepare-wgmma sets: barriers then also fence
/// shared-memory writes for wgmma's (asynchronous proxy) reads.
inline constexpr llvm::StringLiteral kAsyncProxyReadsAttrName =
    "tessera_nvptx.async_proxy_reads";

/// The pass that gives every wgmma dot a B operand (and an A operand when
/// it is one already, or is 8-bit) read from a descriptor-compatible shared
/// buffer:
/// pipelined operands keep their rings, others are stored to a buffer of
/// their own between two barriers. The source of a transposition is stored
/// row-major and viewed transposed, so that K stays contiguous.
std::unique_ptr<Pass> createPrepareWgmmaPass();

/// Shared memory, in bytes, `createPrepareWgmmaPass` will add to `module`
/// as it is before pipelining: one buffer per loop-invariant A it stages,
/// and one per 8-bit operand whose ring will not be K-major (the
/// pipeliner's laterSharedMemoryBytes hook, so that its rings leave room
/// for them).
uint64_t getPrepareWgmmaSharedBytes(Operation *module);

/// True for a layout conversion `createPrepareWgmmaPass` will drop: the
/// transposed B of wgmma dots that read it in place, as a K-major view of
/// the buffer it was just loaded from (the pipeliner's
/// laterDroppedConversion hook, so that its rings do not leave room for a
/// conversion that never happens).
bool isConversionReadInPlace(Operation *op);

} // namespace mlir::tessera::nvptx

#endif // TESSERA_BACKENDS_NVPTX_WGMMA_H
