//===- CodeObject.h - What an HSA code object says of a kernel --*- C++ -*-===//
//
// An HSACO carries, in its NT_AMDGPU_METADATA note (MessagePack), each
// kernel's resource usage as the code generator allocated it: vector,
// accumulation and scalar registers, spills, scratch and LDS. The plugin
// reports them with the compiled kernel; the conformance run lists them.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_BACKENDS_AMDGPU_CODEOBJECT_H
#define TESSERA_BACKENDS_AMDGPU_CODEOBJECT_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>

namespace mlir::tessera::amdgpu {

/// One kernel's resources, from the code object's metadata.
struct CodeObjectResources {
  /// Vector registers per lane (on CDNA the unified file: architectural
  /// VGPRs plus the accumulation registers `agprs` counts), scalar
  /// registers per wavefront.
  int64_t vgprs = 0, agprs = 0, sgprs = 0;
  /// Registers the allocator spilled.
  int64_t vgprSpills = 0, sgprSpills = 0;
  /// Scratch (private segment) bytes per lane and static LDS bytes.
  int64_t scratchBytes = 0, ldsBytes = 0;
  /// Wavefront size and the largest workgroup the kernel allows.
  int64_t wavefrontSize = 0, maxFlatWorkgroupSize = 0;
};

/// The resources of kernel `name` in the HSA code object `hsaco`; an error
/// when it is no AMDGPU ELF, carries no metadata or no such kernel.
llvm::Expected<CodeObjectResources> readKernelResources(llvm::StringRef hsaco,
                                                        llvm::StringRef name);

} // namespace mlir::tessera::amdgpu

#endif // TESSERA_BACKENDS_AMDGPU_CODEOBJECT_H
