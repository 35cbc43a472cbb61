//===- HipApi.h - HIP runtime types and values we use -----------*- C++ -*-===//
//
// Declared here, not taken from hip_runtime_api.h, so that the backend
// builds without ROCm. Values are those of ROCm 6.x's public headers
// (include/hip/hip_runtime_api.h and driver_types.h; ROCm 7 keeps them).
// Enumerations are passed as int, which is how the C ABI passes them.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_BACKENDS_AMDGPU_HIPAPI_H
#define TESSERA_BACKENDS_AMDGPU_HIPAPI_H

#include <cstddef>
#include <cstdint>

namespace mlir::tessera::amdgpu::hip {

using hipError_t = int;
using hipDevice_t = int;
using hipDeviceptr_t = void *;
using hipModule_t = struct HipModule_st *;
using hipFunction_t = struct HipFunction_st *;
using hipStream_t = struct HipStream_st *;
using hipEvent_t = struct HipEvent_st *;

inline constexpr hipError_t hipSuccess = 0;
inline constexpr hipError_t hipErrorNoDevice = 100;
inline constexpr hipError_t hipErrorIllegalAddress = 700;
inline constexpr hipError_t hipErrorAssert = 710;
inline constexpr hipError_t hipErrorLaunchFailure = 719;

/// hipDeviceAttribute_t.
enum DeviceAttribute : int {
  CLOCK_RATE = 5,
  MEMORY_BUS_WIDTH = 59,
  MEMORY_CLOCK_RATE = 60,
  MULTIPROCESSOR_COUNT = 63,
  MAX_REGISTERS_PER_BLOCK = 71,
  MAX_SHARED_MEMORY_PER_BLOCK = 74,
  WARP_SIZE = 87,
};

/// hipFunction_attribute.
enum FunctionAttribute : int {
  FUNC_MAX_THREADS_PER_BLOCK = 0,
  FUNC_SHARED_SIZE_BYTES = 1,
  FUNC_LOCAL_SIZE_BYTES = 3,
  FUNC_NUM_REGS = 4,
};

/// hipDeviceProp_tR0600, what hipGetDevicePropertiesR0600 fills, as bytes:
/// only gcnArchName is read, since no device attribute reports the
/// architecture name. Layout of the struct in ROCm 6.0's
/// include/hip/hip_runtime_api.h (unchanged through ROCm 7) on LP64 Linux:
/// gcnArchName[256] follows name[256], the CUDA-compatible fields (ending in
/// unifiedFunctionPointers at byte 776), reserved[63] and hipReserved[32];
/// 56 bytes of HIP-only fields follow it. The R0600 suffix is the ABI
/// version: a runtime that changes the layout exports another symbol.
struct DevicePropR0600 {
  static constexpr size_t kUnifiedFunctionPointersOffset = 776;
  static constexpr size_t kReservedInts = 63 + 32;
  static constexpr size_t kGcnArchNameOffset = 1160;
  static constexpr size_t kGcnArchNameSize = 256;
  static constexpr size_t kSize = 1472;

  alignas(8) unsigned char bytes[kSize];
};
static_assert(DevicePropR0600::kGcnArchNameOffset ==
                  DevicePropR0600::kUnifiedFunctionPointersOffset + 4 +
                      DevicePropR0600::kReservedInts * 4,
              "gcnArchName follows unifiedFunctionPointers and 95 "
              "reserved ints");
static_assert(DevicePropR0600::kSize == DevicePropR0600::kGcnArchNameOffset +
                                            DevicePropR0600::kGcnArchNameSize +
                                            56,
              "hipDeviceProp_tR0600 is 1472 bytes");
static_assert(sizeof(DevicePropR0600) == DevicePropR0600::kSize &&
                  alignof(DevicePropR0600) == 8,
              "DevicePropR0600 must match the runtime's struct");

/// The runtime's entry points, one pointer per HipSymbols.def row.
struct Api {
#define TESSERA_HIP_SYMBOL(name, ret, params) ret(*name) params = nullptr;
#include "HipSymbols.def"
};

} // namespace mlir::tessera::amdgpu::hip

#endif // TESSERA_BACKENDS_AMDGPU_HIPAPI_H
