//===- LoweringHooks.h - What a target lowers itself ------------*- C++ -*-===//
//
// The procedural half of the target interface (TargetDescription is the
// declarative half). The core's shared lowering of tessera_gpu to MLIR's
// LLVM dialect (TesseraGPUToLLVM.h) does everything it can in plain LLVM
// operations and asks these hooks for the few things only the target knows:
// thread and program indices, barriers, cross-lane exchange, shared memory,
// predicated memory access, matrix instructions, fp8 conversion, printing
// and assertions.
//
// Every hook may decline by returning failure() without creating anything;
// the core then falls back to a generic sequence (shuffles for a warp
// reduction, plain loads for shared memory, a branch around a global access,
// FMAs for a dot, a trap for an assertion) or, where no fallback exists
// (thread index, barrier, printing), reports an error naming the operation.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_CONVERSION_LOWERINGHOOKS_H
#define TESSERA_CONVERSION_LOWERINGHOOKS_H

#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Support/LLVM.h"

#include "tessera/Layout/LinearLayout.h"

#include <functional>
#include <string>

namespace mlir::tessera {

/// The combining operations a target may reduce across lanes natively.
enum class WarpReduceKind {
  Add,
  FAdd,
  Mul,
  FMul,
  MinS,
  MinU,
  MaxS,
  MaxU,
  /// NaN-propagating minimum and maximum (arith.minimumf, maximumf).
  MinF,
  MaxF,
  And,
  Or,
  Xor,
  /// Minimum and maximum ignoring a NaN operand (arith.minnumf, maxnumf).
  MinNumF,
  MaxNumF
};

/// A two-dimensional tile a layout conversion has written to shared memory,
/// for the target to read in the destination layout with its own
/// instructions. Rows (dimension 0) hold their elements in groups of
/// `contiguous` consecutive columns that are contiguous and aligned to the
/// group's size in bytes; the groups of a row may be permuted (swizzled), so
/// every address comes from `address`.
struct SharedTile {
  /// The conversion being lowered.
  Operation *op;
  /// The destination layout (register, lane, warp, block -> dim0, dim1).
  const LinearLayout *layout;
  /// Element type as stored (i8 for booleans and fp8, i64 for pointers).
  Type elementType;
  /// Columns per contiguous group.
  unsigned contiguous;
  /// The lane and warp index (i32) of the executing thread.
  Value lane, warp;
  /// The shared pointer of element (row, col) (i32 values).
  std::function<Value(OpBuilder &, Location, Value row, Value col)> address;
};

/// Register values of a dot's operands and accumulator, in the order of the
/// register input dimension of each operand's LinearLayout.
struct DotOperands {
  /// The tessera.dot being lowered.
  Operation *op;
  ArrayRef<Value> a, b, c;
  /// When A (B) was just read from a shared buffer with local_load: the
  /// buffer as lowered (a shared pointer) and its memdesc type, so that a
  /// target whose matrix unit reads shared memory itself can leave the
  /// registers unused. Null otherwise.
  Value aShared = nullptr, bShared = nullptr;
  Type aSharedType = nullptr, bSharedType = nullptr;
};

/// Target hooks of the shared lowering. The defaults decline.
class LoweringHooks {
public:
  virtual ~LoweringHooks();

  /// A short name for messages ("test", the plugin's name).
  virtual StringRef getName() const = 0;

  /// Declares the dialects the hooks create ops of (the target's intrinsic
  /// dialects), so
  /// that the lowering loads them before it runs.
  virtual void getDependentDialects(DialectRegistry &registry) const {}

  //===--- Indices -------------------------------------------------------===//

  /// This program's index along grid axis `axis` (0-2), as i32.
  virtual FailureOr<Value> getProgramId(OpBuilder &b, Location loc,
                                        unsigned axis);
  /// The number of programs along grid axis `axis`, as i32.
  virtual FailureOr<Value> getNumPrograms(OpBuilder &b, Location loc,
                                          unsigned axis);
  /// The calling thread's index within its block (0 to threads - 1), as i32.
  virtual FailureOr<Value> getThreadId(OpBuilder &b, Location loc);

  //===--- Synchronization and cross-lane exchange -----------------------===//

  /// Waits for every thread of the block and makes its shared-memory writes
  /// visible to all of them.
  virtual LogicalResult createBarrier(OpBuilder &b, Location loc);

  /// The value `value` (an integer or float of at most 32 bits) holds in lane
  /// `lane ^ laneMask` of the calling warp. Every lane of the warp calls it.
  virtual FailureOr<Value> shuffleXor(OpBuilder &b, Location loc, Value value,
                                      unsigned laneMask);

  /// Reduces `value` over the lanes that differ from the caller only in the
  /// bits of `laneMask`, every such lane getting the result. Declining falls
  /// back to a butterfly of shuffleXor.
  virtual FailureOr<Value> warpReduce(OpBuilder &b, Location loc, Value value,
                                      WarpReduceKind kind, unsigned laneMask);

  //===--- Memory --------------------------------------------------------===//

  /// The base of the block's dynamic shared memory, a pointer in the target's
  /// shared address space. Declining makes the core use an external,
  /// 1024-byte-aligned global `tessera_shared_memory` of zero size in that
  /// address space, which is how most LLVM targets spell dynamic shared
  /// memory.
  virtual FailureOr<Value> getSharedMemoryBase(OpBuilder &b, Location loc);

  /// Loads a `type` (scalar or vector) from global `ptr` when `pred` (i1) is
  /// true, else yields `other` (of `type`). Declining makes the core branch
  /// around a plain load.
  virtual FailureOr<Value> loadGlobal(OpBuilder &b, Location loc, Value ptr,
                                      Type type, Value pred, Value other);
  /// Stores `value` (scalar or vector) to global `ptr` when `pred` is true.
  virtual LogicalResult storeGlobal(OpBuilder &b, Location loc, Value ptr,
                                    Value value, Value pred);

  /// Loads a `type` from shared `ptr`; declining makes the core emit a plain
  /// load.
  virtual FailureOr<Value> loadShared(OpBuilder &b, Location loc, Value ptr,
                                      Type type);
  /// Stores `value` to shared `ptr` when `pred` is true; declining makes the
  /// core branch around a plain store.
  virtual LogicalResult storeShared(OpBuilder &b, Location loc, Value ptr,
                                    Value value, Value pred);

  /// The registers of `tile.layout` read from `tile`, in register order;
  /// e.g. with matrix loads that fill several lanes' registers at once.
  /// Declining makes the core load each register's elements itself.
  virtual FailureOr<SmallVector<Value>>
  loadSharedTile(OpBuilder &b, Location loc, const SharedTile &tile);

  /// Starts an asynchronous copy of `bytes` bytes from global `src` to
  /// shared `dst` (zero-filling when `pred` is false). Declining makes the
  /// core copy synchronously.
  virtual LogicalResult asyncCopy(OpBuilder &b, Location loc, Value dst,
                                  Value src, unsigned bytes, Value pred);

  /// The LLVM synchronization scope of atomics at Triton's `scope` ("cta",
  /// "gpu" or "sys"). The default, "", is the whole system: always correct,
  /// possibly slower than the target's narrower scopes.
  virtual std::string getSyncScope(StringRef scope);

  /// Closes the group of asynchronous copies started so far.
  virtual LogicalResult asyncCommitGroup(OpBuilder &b, Location loc);
  /// Waits until at most `pending` committed groups are still in flight.
  /// A target that implements asyncCopy implements both; declining them is
  /// right only where copies are synchronous.
  virtual LogicalResult asyncWait(OpBuilder &b, Location loc, unsigned pending);

  //===--- Compute -------------------------------------------------------===//

  /// The accumulator registers of `operands.op`'s result. Declining makes the
  /// core emit multiply-adds, which needs operand layouts that give each
  /// thread whole rows of A and columns of B for its accumulator elements.
  virtual FailureOr<SmallVector<Value>> lowerDot(OpBuilder &b, Location loc,
                                                 const DotOperands &operands);

  /// `registers` (accumulators of dots the target left running) once at
  /// most `pending` of the calling thread's dots still run, as values
  /// nothing reads before then. Declining passes them through, which is
  /// right for a target whose lowerDot always returns finished results.
  virtual FailureOr<SmallVector<Value>> waitForDots(OpBuilder &b, Location loc,
                                                    ValueRange registers,
                                                    unsigned pending);

  /// The float `x` (f16, bf16 or f32) rounded to nearest even into the
  /// 8-bit float type `dst`, as its i8 code: exactly the code the core's
  /// integer sequence gives (Fp8Conversions.h: past the largest finite,
  /// infinity where the format has one, else NaN; NaNs keep their sign), so
  /// results do not depend on the target. Declining makes the core emit that
  /// sequence (some twenty integer operations per element).
  virtual FailureOr<Value> narrowToFp8(OpBuilder &b, Location loc, Value x,
                                       FloatType dst);

  //===--- Debugging -----------------------------------------------------===//

  /// Prints `format` (printf syntax, already holding the program and element
  /// indices) with `args` (i32, i64, f64 or pointers). Declining is an error:
  /// the target cannot print.
  virtual LogicalResult printf(OpBuilder &b, Location loc, StringRef format,
                               ValueRange args);

  /// Reports a failed assertion and stops the kernel; called on the path
  /// where the condition is false. Declining makes the core emit a trap.
  virtual LogicalResult assertFail(OpBuilder &b, Location loc,
                                   StringRef message, StringRef file,
                                   StringRef function, unsigned line);

  //===--- Patterns ------------------------------------------------------===//

  /// Adds the target's own conversion patterns to the lowering (for example
  /// math functions through its math library); given a higher benefit they
  /// are tried before the core's. The default adds none.
  virtual void populatePatterns(LLVMTypeConverter &converter,
                                RewritePatternSet &patterns);

  //===--- Kernels -------------------------------------------------------===//

  /// Marks `func` as a kernel entry point launched with `threads` threads per
  /// block (calling convention, attributes). The default does nothing.
  virtual void finalizeKernel(LLVM::LLVMFuncOp func, unsigned threads);
};

} // namespace mlir::tessera

#endif // TESSERA_CONVERSION_LOWERINGHOOKS_H
