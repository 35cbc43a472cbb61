//===- CompileRecord.h - A kernel a compile-only case compiled --*- C++ -*-===//
//
// `tessera conformance --compile-only` replaces every launch of a case by
// the compilation of exactly that specialization to the loadable binary.
// What each compilation produced is recorded for the report: the resource
// usage the backend's emitter states (registers, spills, shared memory),
// the binary's format and size, and what the compilation cost.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_CONFORMANCE_COMPILERECORD_H
#define TESSERA_CONFORMANCE_COMPILERECORD_H

#include "tessera/Support/StageTimes.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/JSON.h"

#include <cstdint>
#include <optional>
#include <string>

namespace mlir::tessera::conformance {

/// Where a recorded binary came from.
enum class CompileOrigin {
  /// Compiled for this case.
  Compiled,
  /// Read from the on-disk kernel cache.
  DiskCache,
  /// Compiled (or read) for an earlier case of the run.
  Reused,
};

/// "compiled", "disk-cache", "reused".
llvm::StringRef stringifyCompileOrigin(CompileOrigin origin);
/// The origin named `name`, or nullopt.
std::optional<CompileOrigin> parseCompileOrigin(llvm::StringRef name);

/// One distinct kernel specialization a case compiled.
struct CompileRecord {
  /// The @triton.jit function.
  std::string kernel;
  /// The ahead-of-time signature, constexprs included.
  std::string signature;
  int numWarps = 4;
  int numStages = 3;
  /// Registers per thread and spilled bytes; -1 where the backend does not
  /// report them (the cpu backend never does).
  int registers = -1;
  int spillBytes = -1;
  uint64_t sharedMemoryBytes = 0;
  /// What the binary is: "cubin", "hsaco", "elf-object", ...
  std::string format;
  uint64_t binaryBytes = 0;
  /// Wall time of the compilation (or cache read); for a reused binary,
  /// that of the case that compiled it.
  double seconds = 0;
  /// The wall time of each compilation step (empty for a binary read from
  /// the disk cache but the lookup, and for a reused one the compiling
  /// case's).
  StageTimes times;
  CompileOrigin origin = CompileOrigin::Compiled;

  /// True when both name the same binary (kernel, signature, launch shape).
  bool isSameKernel(const CompileRecord &other) const;
};

/// The record as JSON; -1 registers or spills stay -1.
llvm::json::Value toJSON(const CompileRecord &record);

} // namespace mlir::tessera::conformance

#endif // TESSERA_CONFORMANCE_COMPILERECORD_H
