//===- Lowering.h - Shared pieces of the CPU lowering -----------*- C++ -*-===//
//
// The CPU backend lowers tessera / tessera_gpu IR on tensors to MLIR's
// structured ops on tensors (linalg, tensor, scf with tensor.extract/insert)
// plus LLVM dialect memory operations on i64 addresses. Every op family has
// its own file; this header holds what they share: the type converter, the
// pattern entry points and small IR-building helpers.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_BACKENDS_CPU_LOWERING_H
#define TESSERA_BACKENDS_CPU_LOWERING_H

#include "tessera/Backend/InlineMath.h"
#include "tessera/Backend/KernelRecord.h"
#include "tessera/Dialect/Tessera/IR/Dialect.h"
#include "tessera/Dialect/TesseraGPU/IR/Dialect.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::tessera::cpu {

/// Suffix of the entry wrapper of a kernel: `<kernel>_cpu_entry`. A kernel
/// and its wrapper carry the signature record (KernelRecord.h); the wrapper
/// names the kernel it launches (kEntryOfAttrName).
constexpr llvm::StringLiteral kEntrySuffix = "_cpu_entry";
/// Number of trailing i32 arguments a lowered kernel takes: program id x, y,
/// z, then the grid size x, y, z.
constexpr unsigned kNumGridArgs = 6;

/// Types after the structured lowering: layouts (encodings) are dropped,
/// pointers become i64 addresses, shared-memory buffers become memrefs.
/// Block pointers and tensor descriptors become several scalars (see
/// BlockPtrValues and DescValues).
class CpuTypeConverter : public TypeConverter {
public:
  explicit CpuTypeConverter(MLIRContext *ctx);

  /// The element type a scalar of `type` becomes (i64 for pointers).
  Type convertElementType(Type type) const;
};

/// A block pointer as scalars: the base address, then per dimension the
/// shape (i64), the stride in elements (i64) and the offset (i32).
struct BlockPtrValues {
  Value base;
  SmallVector<Value> shape, strides, offsets;

  static BlockPtrValues unpack(ValueRange values);
  SmallVector<Value> pack() const;
};

/// A tensor descriptor as scalars: the base address, per dimension the
/// shape (i32) and stride in elements (i64), then the padding (i32: 0 zero,
/// 1 NaN) out-of-bounds elements read as.
struct DescValues {
  Value base;
  SmallVector<Value> shape, strides;
  Value padding;

  static DescValues unpack(ValueRange values);
  SmallVector<Value> pack() const;
};

//===----------------------------------------------------------------------===//
// Pattern sets, one per op family
//===----------------------------------------------------------------------===//

/// Elementwise ops (arith, math and tessera's own) on tensors become
/// linalg.generic (loop nests when they have side effects); scalar tessera
/// ops become arith/math/func; constants, splat, make_range, broadcast.
void populateElementwisePatterns(const CpuTypeConverter &converter,
                                 RewritePatternSet &patterns);
/// expand_dims, reshape, trans, join, split, cat, convert_layout.
void populateShapePatterns(const CpuTypeConverter &converter,
                           RewritePatternSet &patterns);
/// Loads, stores and atomics through pointers and blocks of pointers.
void populateMemoryPatterns(const CpuTypeConverter &converter,
                            RewritePatternSet &patterns);
/// Records, on every load and store through a block of pointers, how many
/// consecutive elements its pointers address along the last dimension, or
/// along another when the last has none (the axis-info analysis's
/// contiguity), which the memory patterns turn into consecutive accesses
/// LLVM vectorizes.
void annotateContiguity(ModuleOp module);

/// Block pointers and tensor descriptors.
void populateBlockPointerPatterns(const CpuTypeConverter &converter,
                                  RewritePatternSet &patterns);
/// reduce, scan, histogram, dot.
void populateComputePatterns(const CpuTypeConverter &converter,
                             RewritePatternSet &patterns);
/// print, assert, assume, hint, debug_barrier.
void populateDebugPatterns(const CpuTypeConverter &converter,
                           RewritePatternSet &patterns);
/// tessera_gpu shared memory, async copies and barriers.
void populateSharedMemoryPatterns(const CpuTypeConverter &converter,
                                  RewritePatternSet &patterns);

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

/// The indexing maps of the generic a dot lowers to, over the iteration
/// space (batch?, m, k, n): A (batch?, m, k), B (batch?, k, n), C (batch?,
/// m, n). VectorizeDots.cpp recognizes dots by them.
SmallVector<AffineMap> getDotIndexingMaps(MLIRContext *ctx, bool batched);

/// Marks the generic of a dot whose A and B elements widen from a type
/// bf16 holds exactly (bf16, the fp8 formats): VectorizeDots may narrow
/// them back to bf16 for AMX tiles.
constexpr llvm::StringLiteral kBf16OperandsAttr = "tessera_cpu.bf16_operands";

/// True when every value of the float type `type` is a bf16 value.
bool isExactInBf16(Type type);

/// The libm function for a math-library symbol the frontend emits
/// (`asin`, `asinf`, `__tessera_asinf`, ...) on elements of `type`, or an
/// empty string when there is none. `computeType` is set to the type the
/// call computes in (f32 for f16/bf16 elements).
std::string resolveLibmSymbol(StringRef symbol, Type type, unsigned numOperands,
                              Type &computeType);

/// Reports that no libm function or inline computation serves `op` on
/// elements of `elementType`; always failure.
LogicalResult emitNoMathFunctionError(ExternElementwiseOp op, Type elementType);

/// True for elementwise ops (tessera's and MLIR's).
bool isElementwise(Operation *op);

/// A `tensor.empty` of `type`.
Value createEmpty(OpBuilder &b, Location loc, RankedTensorType type);

/// The zero of a scalar type (integer or float).
Value createZero(OpBuilder &b, Location loc, Type type);

/// An index constant.
Value createIndex(OpBuilder &b, Location loc, int64_t value);

/// Builds a loop nest over every element of `shape` (outermost dimension
/// first) carrying `iterArgs`; returns the final values of `iterArgs`.
/// Used wherever element order or side effects matter.
SmallVector<Value> buildLoopNest(
    OpBuilder &b, Location loc, ArrayRef<int64_t> shape, ValueRange iterArgs,
    function_ref<SmallVector<Value>(OpBuilder &, Location, ValueRange ivs,
                                    ValueRange iterArgs)>
        body);

/// The number of bytes one element of `type` occupies in memory (i1 and
/// pointers included).
int64_t getElementByteSize(Type type);

/// Converts an integer `value` to i64 with sign extension (index: cast).
Value toI64(OpBuilder &b, Location loc, Value value, bool isSigned = true);

/// An `!llvm.ptr` from an i64 address (or the `!llvm.ptr` itself).
Value toLLVMPtr(OpBuilder &b, Location loc, Value address);

/// Loads one element of `type` (the converted element type, possibly i1 or
/// an fp8 type) from `address` (i64 or `!llvm.ptr`), aligned to
/// `alignment` bytes (0: the element's size).
Value loadScalar(OpBuilder &b, Location loc, Type type, Value address,
                 bool isVolatile = false, unsigned alignment = 0);

/// Stores the scalar `value` to the i64 address `address`.
void storeScalar(OpBuilder &b, Location loc, Value value, Value address);

/// `address + index * elementBytes`, index sign-extended to i64.
Value offsetAddress(OpBuilder &b, Location loc, Value address, Value index,
                    int64_t elementBytes);

/// Emits the scalar form of the elementwise op `op` applied to the
/// converted scalar `operands`, producing values of `resultTypes`. Ops from
/// other dialects are cloned; tessera's are lowered. Fails with an error on
/// `op` when it cannot be lowered.
FailureOr<SmallVector<Value>> emitScalarElementwise(OpBuilder &b, Operation *op,
                                                    ValueRange operands,
                                                    TypeRange resultTypes);

/// Loads through a block pointer (its scalars in `ptr`), checking the
/// bounds of the dimensions in `boundaryCheck` and padding the rest.
LogicalResult lowerBlockPointerLoad(LoadOp op, ValueRange ptr,
                                    const TypeConverter &converter,
                                    ConversionPatternRewriter &rewriter);
/// Stores through a block pointer, skipping out-of-bounds elements of the
/// checked dimensions.
LogicalResult lowerBlockPointerStore(StoreOp op, ValueRange ptr, Value value,
                                     ConversionPatternRewriter &rewriter);

/// Calls `name`, an internal always-inlined llvm.func taking `args` and
/// returning `resultType` (null: nothing), defined by `body` the first
/// time. LLVM operations the buffer deallocation pass cannot reason about
/// (atomics, assumptions) hide in such functions until LLVM inlines them.
Value callOutlined(OpBuilder &b, Location loc, Operation *anchor,
                   StringRef name, ValueRange args, Type resultType,
                   function_ref<Value(OpBuilder &, Location, ValueRange)> body);

/// Declares the private function `name` of `type` in the module of `op`
/// unless the module has the symbol.
void declareFunction(OpBuilder &b, Operation *op, StringRef name,
                     FunctionType type);

/// The f32 value of the fp8 scalar `x`, decoded inline (Fp8Codec.h); null
/// for a format without such a decoding.
Value emitFp8ToF32(OpBuilder &b, Location loc, Value x);

/// The float scalar `x` rounded to the fp8 type `dst`, to nearest even or
/// towards zero: inline (Fp8Codec.h) from f32, f16 and bf16, through the
/// runtime's converter (declared in the module of `anchor`) from f64.
Value emitToFp8(OpBuilder &b, Location loc, Operation *anchor, Value x,
                FloatType dst, bool towardZero);

/// A global string constant (NUL-terminated) in the module of `op`, shared
/// by every use of the same text; returns its address as `!llvm.ptr`.
Value getOrCreateStringConstant(OpBuilder &b, Location loc, Operation *op,
                                StringRef text);

} // namespace mlir::tessera::cpu

#endif // TESSERA_BACKENDS_CPU_LOWERING_H
