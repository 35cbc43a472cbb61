//===- CompiledKernel.h - A kernel a plugin compiled ------------*- C++ -*-===//
#ifndef TESSERA_BACKEND_COMPILEDKERNEL_H
#define TESSERA_BACKEND_COMPILEDKERNEL_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace mlir::tessera {

/// One parameter the launched kernel takes, after specialization dropped
/// constexprs and integers equal to 1. `type` uses Triton's signature
/// syntax: "*fp32" for a pointer, "i32", "fp32", "i1", ...
struct KernelParam {
  std::string name;
  std::string type;
};

/// What a plugin's emitter produced: the bytes its driver loads and what
/// the runtime needs to launch them. Serializable for the on-disk cache.
struct CompiledKernel {
  /// Plugin and architecture it was compiled for.
  std::string backend;
  std::string arch;
  /// The symbol of the kernel in `binary`.
  std::string name;
  /// What `binary` holds: "elf-object", "cubin", "ptx", "hsaco", "none"...
  std::string format;
  /// The loadable bytes.
  std::string binary;
  /// The parameters a launch passes, in order.
  std::vector<KernelParam> params;
  /// The launch shape it was compiled for.
  unsigned numWarps = 4;
  unsigned threadsPerWarp = 32;
  unsigned numCTAs = 1;
  unsigned numStages = 3;
  /// Dynamic shared memory a launch must provide, in bytes.
  uint64_t sharedMemoryBytes = 0;
  /// Registers per thread and spilled bytes, when the emitter knows.
  int registers = -1;
  int spillBytes = -1;
  /// Anything else the driver or a report needs. Keys ending in "-log"
  /// hold diagnostics only (an assembler's output, with its timing), which
  /// no launch reads.
  std::map<std::string, std::string> metadata;

  /// A self-describing byte string (a JSON header line, then the binary).
  std::string serialize() const;

  /// Reads what serialize() wrote; an error names what is malformed.
  static llvm::Expected<CompiledKernel> deserialize(llvm::StringRef bytes);
};

} // namespace mlir::tessera

#endif // TESSERA_BACKEND_COMPILEDKERNEL_H
