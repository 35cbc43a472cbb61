//===- Lowering.h - Shared state of the lowering to LLVM --------*- C++ -*-===//
//
// What the patterns of the shared lowering have in common: the type
// converter (a laid-out tensor becomes an LLVM struct of the registers one
// thread holds, in the order of the register dimension of its LinearLayout),
// the pattern context (hooks, axis facts, shared-memory plan) and helpers
// that compute each register's tensor coordinates from the layout.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_LIB_CONVERSION_TESSERAGPUTOLLVM_LOWERING_H
#define TESSERA_LIB_CONVERSION_TESSERAGPUTOLLVM_LOWERING_H

#include "tessera/Analysis/AxisInfo.h"
#include "tessera/Conversion/Fp8Conversions.h"
#include "tessera/Conversion/LoweringUtils.h"
#include "tessera/Conversion/TesseraGPUToLLVM.h"
#include "tessera/Dialect/Tessera/IR/Dialect.h"
#include "tessera/Dialect/TesseraGPU/IR/Dialect.h"
#include "tessera/Dialect/TesseraGPU/IR/SharedMemoryPlan.h"
#include "tessera/Layout/LinearLayout.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/ADT/DenseMap.h"

namespace mlir::tessera::lowering {

/// Tensors with a distributed encoding become structs of their registers,
/// tessera pointers LLVM pointers, shared buffers pointers to shared memory.
class GPUTypeConverter : public LLVMTypeConverter {
public:
  GPUTypeConverter(MLIRContext *ctx, const LowerToLLVMOptions &options,
                   unsigned sharedAddressSpace);
};

/// The shared-memory plan of a module: where each buffer lives and where the
/// scratch space of layout conversions and reductions starts.
using SharedMemoryPlan = gpu::SharedMemoryPlan;

/// What every pattern may read.
struct LoweringContext {
  LoweringHooks &hooks;
  GPULoweringOptions options;
  unsigned threadsPerWarp = 32;
  unsigned numWarps = 4;
  const ModuleAxisInfoAnalysis &axis;
  SharedMemoryPlan plan;
};

/// A conversion pattern of the shared lowering.
template <typename SourceOp>
class GPUPattern : public ConvertOpToLLVMPattern<SourceOp> {
public:
  GPUPattern(GPUTypeConverter &converter, LoweringContext &ctx,
             PatternBenefit benefit = 1)
      : ConvertOpToLLVMPattern<SourceOp>(converter, benefit), ctx(ctx) {}

protected:
  LoweringContext &ctx;
};

//===--- Registers
//---------------------------------------------------------===//

/// The scalars `value` holds: the struct's elements for a laid-out tensor
/// (whose original type is `type`), `value` itself for a scalar.
SmallVector<Value> unpackRegisters(OpBuilder &b, Location loc, Value value,
                                   Type type);

/// The value of converted type `structType` holding `registers` (a single
/// register is returned as is when `structType` is not a struct).
Value packRegisters(OpBuilder &b, Location loc, Type structType,
                    ValueRange registers);

/// Number of registers one thread holds of `type` (1 for scalars).
int64_t getNumRegisters(Type type);

/// The LinearLayout of a laid-out tensor type.
LinearLayout getLayout(Type tensorType);

//===--- Coordinates
//-------------------------------------------------------===//

/// The calling thread's lane and warp, as i32.
struct ThreadIndex {
  Value lane, warp;
};

/// Reads the thread index through the hooks; emits an error on `op` when the
/// target declines.
FailureOr<ThreadIndex> getThreadIndex(OpBuilder &b, Location loc,
                                      LoweringContext &ctx, Operation *op);

/// The coordinates register `reg` maps to in lane 0 of warp 0.
SmallVector<int32_t> getRegisterCoords(const LinearLayout &layout, int32_t reg);

/// The part of each coordinate that depends on the thread (i32 per output
/// dimension): the XOR of the lane and warp bases of the set bits of `tid`.
/// A register's coordinates are its register part XOR this part.
SmallVector<Value> emitThreadCoords(OpBuilder &b, Location loc,
                                    const LinearLayout &layout,
                                    ThreadIndex tid);

/// XORs into `outs` (i32, one per output dimension of `layout`) the bases of
/// the set bits of the runtime i32 `index` along input dimension `inDim`:
/// applying a LinearLayout to a value known only at run time.
void xorBases(OpBuilder &b, Location loc, const LinearLayout &layout,
              StringRef inDim, Value index, SmallVector<Value> &outs);

/// The i32 coordinates of every register of `layout` in the calling thread.
SmallVector<SmallVector<Value>> emitAllCoords(OpBuilder &b, Location loc,
                                              const LinearLayout &layout,
                                              ThreadIndex tid);

/// True when the thread-dependent parts (lane and warp bases) of `a` and `b`
/// are the same map, so that registers with equal register-part coordinates
/// hold equal elements in every thread.
bool haveSameThreadMap(const LinearLayout &a, const LinearLayout &b);

/// For each register of `dst`, the register of `src` holding the same
/// element when both layouts place elements in threads alike
/// (haveSameThreadMap): the coordinates of a `dst` register, passed through
/// `project`, are looked up among the `src` registers. std::nullopt when
/// some element is missing.
std::optional<SmallVector<int32_t>> mapRegisters(
    const LinearLayout &src, const LinearLayout &dst,
    llvm::function_ref<SmallVector<int32_t>(ArrayRef<int32_t>)> project);

/// The dimension along which consecutive registers hold consecutive
/// elements, and how many (a power of two): registers [k * run, (k + 1) *
/// run) form one run. {-1, 1} when the first register step is not a unit
/// step.
std::pair<int, unsigned> getRegisterRun(const LinearLayout &layout);

/// An i1 that is true in exactly one of the threads holding copies of each
/// element (lanes and warps whose broadcast bits are zero), or null when no
/// thread bit is a broadcast.
Value emitOwnerPredicate(OpBuilder &b, Location loc, const LinearLayout &layout,
                         ThreadIndex tid);

//===--- Small builders ---------------------------------------------------===//

// createI32, createI64, createConstant, createZero and emitIf are public,
// for targets' hooks too: tessera/Conversion/LoweringUtils.h.

/// A pointer into shared memory `offset` bytes (i32 value) after the base.
FailureOr<Value> getSharedPointer(OpBuilder &b, Location loc,
                                  LoweringContext &ctx, Value byteOffset,
                                  Operation *op);

/// A vector of `regs`, or the one register when there is one.
Value buildVector(OpBuilder &b, Location loc, ArrayRef<Value> regs);

/// Loads `accessType` from global `ptr` when `pred` holds (always when
/// null), else yields `other`: through the target's hook, or a branch
/// around a plain load aligned to `alignment` bytes; a volatile load is
/// always the latter, with LLVM's volatile flag.
Value emitMaskedLoad(RewriterBase &rewriter, Location loc, LoweringContext &ctx,
                     Value ptr, Type accessType, Value pred, Value other,
                     unsigned alignment, bool isVolatile = false);
/// Stores `value` to global `ptr` when `pred` holds (always when null).
void emitMaskedStore(RewriterBase &rewriter, Location loc, LoweringContext &ctx,
                     Value ptr, Value value, Value pred, unsigned alignment);

/// How many registers one access through the pointers `ptr` moves: the run
/// of registers holding consecutive elements along one dimension, cut to
/// what the pointers' contiguity and alignment, the mask's constancy and the
/// target allow.
unsigned getVectorWidth(LoweringContext &ctx, Value ptr, Value mask,
                        Type elementType);

/// Bytes of one element of `type` in memory (pointers: 8).
unsigned getElementBytes(Type type);

//===--- Pattern sets
//------------------------------------------------------===//

void populateFunctionPatterns(GPUTypeConverter &converter,
                              RewritePatternSet &patterns,
                              LoweringContext &ctx);
void populateElementwisePatterns(GPUTypeConverter &converter,
                                 RewritePatternSet &patterns,
                                 LoweringContext &ctx);
void populateShapePatterns(GPUTypeConverter &converter,
                           RewritePatternSet &patterns, LoweringContext &ctx);
void populateMemoryPatterns(GPUTypeConverter &converter,
                            RewritePatternSet &patterns, LoweringContext &ctx);
void populateReducePatterns(GPUTypeConverter &converter,
                            RewritePatternSet &patterns, LoweringContext &ctx);
void populateScanPatterns(GPUTypeConverter &converter,
                          RewritePatternSet &patterns, LoweringContext &ctx);
void populateDotPatterns(GPUTypeConverter &converter,
                         RewritePatternSet &patterns, LoweringContext &ctx);
void populateDescriptorPatterns(GPUTypeConverter &converter,
                                RewritePatternSet &patterns,
                                LoweringContext &ctx);
void populateSharedMemoryPatterns(GPUTypeConverter &converter,
                                  RewritePatternSet &patterns,
                                  LoweringContext &ctx);
void populateHistogramPatterns(GPUTypeConverter &converter,
                               RewritePatternSet &patterns,
                               LoweringContext &ctx);
void populateMiscPatterns(GPUTypeConverter &converter,
                          RewritePatternSet &patterns, LoweringContext &ctx);

/// The shared-memory plan of `module`: the one the plan-shared-memory pass
/// recorded while the loops were still structured, else a plan of the
/// module as it is (with loops already branches, every buffer used in one
/// then lives to the end of its function).
SharedMemoryPlan planSharedMemory(ModuleOp module);

/// Scratch bytes a layout conversion of `type` needs (0 when it stays in
/// registers).
uint64_t getConvertScratchBytes(RankedTensorType src, RankedTensorType dst);

/// Moves the registers `srcRegs` of a tensor of `shape` from layout `src`
/// to `dst` through the scratch space (SharedExchange.cpp): barrier, every
/// thread writes its elements, barrier, every thread reads those of `dst`
/// (through LoweringHooks::loadSharedTile when the target takes it).
FailureOr<SmallVector<Value>>
exchangeThroughShared(ConversionPatternRewriter &rewriter, Location loc,
                      LoweringContext &ctx, Operation *op,
                      ArrayRef<Value> srcRegs, const LinearLayout &src,
                      const LinearLayout &dst, ArrayRef<int64_t> shape);
/// The alignment of the shared memory base and of swizzled buffers: the
/// period of the widest (128-byte rows, eight phases) swizzle pattern.
inline constexpr unsigned kSharedTileAlignment = gpu::kSwizzledBufferAlignment;

/// Addressing of a row-major shared tile whose groups of `vec` elements
/// are XOR-permuted within each row by the phase (row / perPhase) %
/// maxPhase (SharedTiles.cpp): the exchange's scratch, and buffers with a
/// row-major #tessera_gpu.shared layout, so that both read alike.
class SwizzledTile {
public:
  /// `blockCols` (0: whole rows) cuts the rows of the two minor dimensions
  /// into blocks stored one after the other (#tessera_gpu.shared's
  /// `blockCols`).
  SwizzledTile(ArrayRef<int64_t> shape, unsigned bytes, unsigned vec,
               unsigned perPhase, unsigned maxPhase, unsigned blockCols = 0);

  /// The swizzle the exchange uses for a tensor of `shape`: 16-byte groups,
  /// eight consecutive rows in eight different groups of banks.
  static SwizzledTile forExchange(ArrayRef<int64_t> shape, unsigned bytes);
  /// The addressing of a buffer of `type` when its layout is a
  /// #tessera_gpu.shared one stored row-major (order rank-1, ..., 0).
  static std::optional<SwizzledTile> forBuffer(gpu::MemDescType type);

  /// Elements per contiguous, aligned group of a row.
  unsigned getVector() const { return vec; }
  /// The byte offset (i32) of the element at `coords`.
  Value getOffset(OpBuilder &b, Location loc, ArrayRef<Value> coords) const;

private:
  SmallVector<int64_t> shape;
  SmallVector<int64_t> strides = {1};
  unsigned bytes;
  int64_t vec = 1, perPhase = 1, maxPhase = 1;
  /// Columns per block; the row length when rows are not cut.
  int64_t blockCols = 1;
};

/// The registers of `layout` (stored as `storage`) read from the swizzled
/// tile `tile` of shared memory, `pointerAt` giving the pointer at a byte
/// offset: through LoweringHooks::loadSharedTile for a rank-2 tile when the
/// target takes it, else with vector loads along the rows.
FailureOr<SmallVector<Value>> readSwizzledTile(
    OpBuilder &b, Location loc, LoweringContext &ctx, Operation *op,
    ThreadIndex tid, const LinearLayout &layout, Type storage,
    const SwizzledTile &tile,
    llvm::function_ref<Value(OpBuilder &, Location, Value)> pointerAt);

/// How many consecutive registers of `layout` hold consecutive elements of
/// one row group of `vec` elements: the width of its vector accesses to a
/// swizzled tile of rank `rank`.
unsigned getTileAccessWidth(const LinearLayout &layout, unsigned rank,
                            unsigned vec);

//===--- Reductions and scans
//----------------------------------------------===//

/// The bits of input dimension `inDim` of `layout` whose bases move along
/// `axis`; an error on `op` (which `what`s: "reduce", "scan") when one of
/// them also moves along another dimension.
FailureOr<SmallVector<unsigned>> getAxisBits(const LinearLayout &layout,
                                             StringRef inDim, unsigned axis,
                                             Operation *op, StringRef what);

/// The combine region `region` (arguments: the accumulators, then the new
/// values) applied to (`acc`, `cur`), inlined at the builder.
SmallVector<Value> inlineCombine(OpBuilder &b, Region &region,
                                 ArrayRef<Value> acc, ArrayRef<Value> cur);

/// The value the scalar `value` (integer, float or pointer of any width)
/// holds in lane `lane ^ mask`: narrower values travel in an i32, wider ones
/// in two. Fails when the target cannot shuffle.
FailureOr<Value> shuffleAny(OpBuilder &b, Location loc, LoweringHooks &hooks,
                            Value value, unsigned mask);

/// Bits `bits` of the i32 `value`, packed in that order from bit 0 (a
/// warp's slot among the warps that share a reduction or scan).
Value emitPackedBits(OpBuilder &b, Location loc, Value value,
                     ArrayRef<unsigned> bits);

/// The flat index (i32, row-major over `shape`) of the element at
/// `threadCoords` XOR `registerPart`, with the coordinate along `axis` cut
/// to its bits from `axisShift` up, and left out where none remain: where a
/// reduction's or scan's block of partial results lives in its scratch.
Value emitAxisBlockIndex(OpBuilder &b, Location loc,
                         ArrayRef<Value> threadCoords,
                         ArrayRef<int32_t> registerPart,
                         ArrayRef<int64_t> shape, unsigned axis,
                         unsigned axisShift);

/// The scratch through which a reduction or scan across warps exchanges
/// partial results: per operand, from the plan's scratch offset and 8-byte
/// aligned, `numSlots` x `numOut` elements, [slot][out].
class WarpScratch {
public:
  WarpScratch(LoweringContext &ctx, Operation *op, ValueRange srcs,
              uint64_t numSlots, int64_t numOut);

  /// Bytes the regions of operands `srcs` take.
  static uint64_t getBytes(ValueRange srcs, uint64_t numSlots, uint64_t numOut);

  /// The shared pointer to operand `i`'s element (`slot`, `out`) (i32).
  FailureOr<Value> getPointer(OpBuilder &b, Location loc, unsigned i,
                              Value slot, Value out) const;

private:
  LoweringContext &ctx;
  Operation *op;
  int64_t numOut;
  SmallVector<uint64_t> regionStart;
  SmallVector<unsigned> elementBytes;
};

/// Scratch bytes a reduction needs (0 when it stays within warps).
uint64_t getReduceScratchBytes(ReduceOp op);

/// Scratch bytes a scan needs (0 when it stays within warps).
uint64_t getScanScratchBytes(ScanOp op);
/// Bytes of the scratch space a histogram's counters take.
uint64_t getHistogramScratchBytes(HistogramOp op);

} // namespace mlir::tessera::lowering

#endif // TESSERA_LIB_CONVERSION_TESSERAGPUTOLLVM_LOWERING_H
