//===- CompileRecord.cpp - A kernel a compile-only case compiled ----------===//
#include "tessera/Conformance/CompileRecord.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/ErrorHandling.h"

using namespace mlir::tessera::conformance;

llvm::StringRef
mlir::tessera::conformance::stringifyCompileOrigin(CompileOrigin origin) {
  switch (origin) {
  case CompileOrigin::Compiled:
    return "compiled";
  case CompileOrigin::DiskCache:
    return "disk-cache";
  case CompileOrigin::Reused:
    return "reused";
  }
  llvm_unreachable("unknown compile origin");
}

std::optional<CompileOrigin>
mlir::tessera::conformance::parseCompileOrigin(llvm::StringRef name) {
  return llvm::StringSwitch<std::optional<CompileOrigin>>(name)
      .Case("compiled", CompileOrigin::Compiled)
      .Case("disk-cache", CompileOrigin::DiskCache)
      .Case("reused", CompileOrigin::Reused)
      .Default(std::nullopt);
}

bool CompileRecord::isSameKernel(const CompileRecord &other) const {
  return kernel == other.kernel && signature == other.signature &&
         numWarps == other.numWarps && numStages == other.numStages;
}

llvm::json::Value
mlir::tessera::conformance::toJSON(const CompileRecord &record) {
  return llvm::json::Object{
      {"kernel", record.kernel},
      {"signature", record.signature},
      {"num_warps", record.numWarps},
      {"num_stages", record.numStages},
      {"registers", record.registers},
      {"spill_bytes", record.spillBytes},
      {"shared_memory_bytes", static_cast<int64_t>(record.sharedMemoryBytes)},
      {"format", record.format},
      {"binary_bytes", static_cast<int64_t>(record.binaryBytes)},
      {"compile_seconds", record.seconds},
      {"compile_steps", record.times.toJSON()},
      {"origin", stringifyCompileOrigin(record.origin)},
  };
}
