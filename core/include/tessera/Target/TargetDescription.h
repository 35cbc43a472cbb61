//===- TargetDescription.h - What a target can do, as data ------*- C++ -*-===//
//
// The declarative half of the target interface: a plugin describes its
// hardware with these fields, all of which have defaults, and the core reads
// them (threads per warp for layouts, matrix instructions for dot
// selection, shared memory for pipelining depth, ...). A new capability is a
// new field here, never another virtual "supportsX()".
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_TARGET_TARGETDESCRIPTION_H
#define TESSERA_TARGET_TARGETDESCRIPTION_H

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>
#include <vector>

namespace mlir::tessera {

/// One matrix instruction of the target: a warp (or `warps` warps together)
/// computes an m x n x k product of `aType` x `bType` accumulated in
/// `accType`. Types use Triton's dtype names ("fp16", "bf16", "fp8e4nv",
/// "fp8e5", "fp32", "int8", "int32", "fp64", "tf32").
struct MatrixInstruction {
  /// The plugin's name for the instruction, echoed in remarks.
  std::string name;
  unsigned m = 0, n = 0, k = 0;
  std::string aType, bType, accType;
  /// Warps that execute one instruction together.
  unsigned warps = 1;
  /// The B operand (and possibly A) is read from shared memory.
  bool operandsFromShared = false;
};

/// Everything the core needs to know about a target; all fields have
/// defaults so a plugin states only what differs.
struct TargetDescription {
  /// The plugin's name ("cpu", "null", ...).
  std::string backend;
  /// The architecture compiled for ("x86-64", a GPU's generation name, ...).
  std::string arch;
  /// Threads that execute in lockstep and exchange registers.
  unsigned warpSize = 32;
  /// Most threads one block may have.
  unsigned maxThreadsPerBlock = 1024;
  /// Shared memory a block gets without asking, and at most, in bytes.
  uint64_t sharedMemoryPerBlock = 48 * 1024;
  uint64_t maxSharedMemoryPerBlock = 48 * 1024;
  /// 32-bit registers of a block, and at most per thread.
  unsigned registersPerBlock = 65536;
  unsigned maxRegistersPerThread = 255;
  /// Multiprocessors (compute units, cores) of the device; 0 when unknown.
  unsigned multiprocessorCount = 0;
  /// Matrix instructions, tried in order; none means every dot uses FMAs.
  std::vector<MatrixInstruction> matrixInstructions;
  /// Element types kernels may use (Triton dtype names); empty means all.
  std::vector<std::string> dtypes;
  /// Widest memory access of one thread, in bits.
  unsigned maxVectorBits = 128;
  /// Asynchronous global-to-shared copies.
  bool asyncCopy = false;
  /// Tensor-memory copies driven by descriptors (bulk tensor copies).
  bool tensorMemoryCopy = false;
  /// Clusters of blocks sharing memory, and their largest size.
  bool clusters = false;
  unsigned maxClusterSize = 1;
  /// Warp-specialized regions with per-partition register budgets.
  bool warpSpecialization = false;
  /// Inline assembly in kernels (tl.inline_asm_elementwise).
  bool inlineAsm = false;
  /// Further facts a plugin's own stages read.
  llvm::StringMap<std::string> extra;

  /// True when kernels may use `dtype` (a Triton dtype name).
  bool supportsDtype(llvm::StringRef dtype) const;

  /// A stable one-line text of every field, part of every cache key.
  std::string str() const;
};

} // namespace mlir::tessera

#endif // TESSERA_TARGET_TARGETDESCRIPTION_H
