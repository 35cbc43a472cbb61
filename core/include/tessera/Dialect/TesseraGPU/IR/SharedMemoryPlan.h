//===- SharedMemoryPlan.h - Where a block's shared memory goes --*- C++ -*-===//
//
// A kernel's buffers (local_alloc) and the scratch space of the operations
// that exchange values through shared memory (layout conversions,
// reductions, ...) share its block's shared memory. Two of them may take
// the same bytes when their lives do not overlap: a buffer lives from its
// allocation to its last use -- a use inside a loop the buffer was
// allocated outside keeps it alive for the whole loop -- and its bytes are
// free again only at the first block barrier after that (before it, a
// slower thread may still read them, or an asynchronous copy or matrix
// instruction still use them). The scratch space lives wherever an
// operation uses it (for the whole loop around one), likewise until a
// barrier. In program order each is placed at the lowest offset, aligned,
// that nothing placed before it whose life overlaps its own takes.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_DIALECT_TESSERAGPU_IR_SHAREDMEMORYPLAN_H
#define TESSERA_DIALECT_TESSERAGPU_IR_SHAREDMEMORYPLAN_H

#include "mlir/IR/Operation.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <algorithm>
#include <cstdint>

namespace mlir::tessera::gpu {

/// Alignment of a swizzled buffer: its pattern repeats every 1024 bytes.
inline constexpr uint64_t kSwizzledBufferAlignment = 1024;
/// Alignment of any other buffer, and of the scratch space.
inline constexpr uint64_t kBufferAlignment = 128;

/// A buffer a transformation would add (to size it before it exists):
/// allocated right before `at` (or `start`, an earlier operation of its
/// block) and used last by `at` (and what it holds).
struct PlannedBuffer {
  Operation *at = nullptr;
  uint64_t bytes = 0;
  uint64_t alignment = kSwizzledBufferAlignment;
  /// The transformation puts a block barrier right after `at`.
  bool barrierAfter = false;
  Operation *start = nullptr;
};

/// Where a block's shared memory goes.
struct SharedMemoryPlan {
  /// Byte offset of each local_alloc.
  llvm::DenseMap<Operation *, uint64_t> bufferOffsets;
  /// Byte offset of the scratch space.
  uint64_t scratchOffset = 0;
  /// Bytes of scratch the largest user needs.
  uint64_t scratchBytes = 0;
  /// The end of the buffer placed highest (planned ones included).
  uint64_t buffersEnd = 0;

  /// Total bytes a block needs.
  uint64_t total() const {
    return std::max((buffersEnd + kBufferAlignment - 1) / kBufferAlignment *
                        kBufferAlignment,
                    scratchOffset + scratchBytes);
  }
};

/// The local_alloc `view` (a buffer, or a slot or transposition of one) is
/// part of, or null.
Operation *getAllocation(Value view);

/// The bytes of `type`'s buffer (a memdesc type) and its alignment.
std::pair<uint64_t, uint64_t> getBufferBytesAndAlignment(Type type);

/// Plans the shared memory of `root` (a function or module): its buffers,
/// `planned` ones besides, and the scratch space of every operation for
/// which `getScratchBytes` is not 0 -- leaving out the `replaced`
/// operations (allocations and scratch users a transformation will
/// remove).
SharedMemoryPlan
planSharedMemory(Operation *root,
                 llvm::function_ref<uint64_t(Operation *)> getScratchBytes,
                 llvm::ArrayRef<PlannedBuffer> planned = {},
                 llvm::ArrayRef<Operation *> replaced = {});

} // namespace mlir::tessera::gpu

#endif // TESSERA_DIALECT_TESSERAGPU_IR_SHAREDMEMORYPLAN_H
