//===- TensorMaps.h - Tensor descriptors through TMA ------------*- C++ -*-===//
//
// On sm_90 a tensor descriptor whose base, shape and strides depend only on
// the kernel's parameters becomes a tensor map the launch encodes on the
// host (cuTensorMapEncodeTiled) and passes as a hidden `__grid_constant__`
// parameter; on sm_90a one made from values the kernel computes (pointers
// it loads) gets a map the kernel writes into global scratch memory the
// launch provides (`tensormap.replace`). Its block loads and stores become
// TMA copies (`cp.async.bulk.tensor`) between global memory and a swizzled
// shared buffer, loads completing on an mbarrier.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_BACKENDS_NVPTX_TENSORMAPS_H
#define TESSERA_BACKENDS_NVPTX_TENSORMAPS_H

#include "tessera/Backend/CompiledKernel.h"

#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Pass/Pass.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace mlir::tessera::nvptx {

/// The stage that moves tensor descriptors onto TMA (sm_90 and later).
inline constexpr llvm::StringLiteral kTensorMapsStage = "tensor-maps";

/// The kernel metadata entry (KernelRecord.h) the stage leaves on a kernel,
/// and so the CompiledKernel metadata key: one recipe string
/// (TensorMapRecipe::str) per hidden tensor-map parameter, in order, one per
/// line in the CompiledKernel.
inline constexpr llvm::StringLiteral kTensorMapsMetadata = "tensor-maps";

/// The kernel metadata entry of a kernel that writes tensor maps itself
/// (for descriptors made from values it loads): the bytes of global scratch
/// memory each program needs. The launch allocates that much per program
/// and passes its address as the last hidden parameter, after the maps.
inline constexpr llvm::StringLiteral kGlobalScratchMetadata = "global-scratch";

/// The size of one tensor map (CUtensorMap), also its alignment in global
/// memory.
inline constexpr int64_t kTensorMapBytes = 128;

/// How a launch builds one tensor map: the arguments of
/// cuTensorMapEncodeTiled, with launch expressions
/// (tessera/Analysis/LaunchExpression.h) where they depend on the kernel's
/// parameters. Dimensions are outermost first here (CUDA wants them
/// innermost first).
struct TensorMapRecipe {
  /// CUtensorMapDataType.
  unsigned dataType = 0;
  unsigned elementBytes = 0;
  /// The tensor's address.
  std::string base;
  /// Sizes and strides in elements (the last stride is 1).
  std::vector<std::string> dims, strides;
  /// The box one copy moves, in elements.
  std::vector<unsigned> box;
  /// CUtensorMapSwizzle: 0 none, 1 32-byte, 2 64-byte, 3 128-byte.
  unsigned swizzle = 0;
  /// Out-of-bounds elements read as NaN rather than zero.
  bool nanFill = false;
  /// Where the kernel makes the descriptor (`file:line:col`), for the
  /// launch's errors; may be empty.
  std::string where;

  /// One line: `key=value` fields separated by `|`, `at=` (the rest of the
  /// line, which may hold any character) last.
  std::string str() const;
  /// Reads what str() wrote; an error names the malformed field.
  static llvm::Expected<TensorMapRecipe> parse(llvm::StringRef text);
};

/// A recipe's values for one launch, as cuTensorMapEncodeTiled takes them:
/// dimensions innermost first, strides in bytes without the innermost one.
struct TensorMapValues {
  uint64_t base = 0;
  unsigned rank = 0;
  uint64_t dims[5] = {}, strides[4] = {};
  unsigned box[5] = {}, elementStrides[5] = {};
};

/// Evaluates `recipe` for a launch with `args` (LaunchExpression.h). The
/// kernel was compiled to tl.make_tensor_descriptor's contract: positive
/// sizes and strides, a 16-byte aligned base and row strides that are
/// multiples of 16 bytes; values breaking it are an error naming where the
/// kernel makes the descriptor.
llvm::Expected<TensorMapValues>
evaluateTensorMap(const TensorMapRecipe &recipe,
                  llvm::ArrayRef<KernelParam> params,
                  llvm::ArrayRef<void *> args);

/// The tensor-maps pass: `sharedMemoryLimit` bounds the buffers it adds;
/// `inKernelMaps` lets kernels write the maps of descriptors the launch
/// cannot build (tensormap.replace, sm_90a).
std::unique_ptr<Pass> createTensorMapsPass(uint64_t sharedMemoryLimit,
                                           bool inKernelMaps);

/// Lowers tessera_gpu's barrier and tensor-copy ops to mbarrier and
/// cp.async.bulk.tensor instructions.
void populateTensorCopyPatterns(LLVMTypeConverter &converter,
                                RewritePatternSet &patterns);

} // namespace mlir::tessera::nvptx

#endif // TESSERA_BACKENDS_NVPTX_TENSORMAPS_H
