//===- CudaApi.h - CUDA driver types and values we use ----------*- C++ -*-===//
//
// Declared here, not taken from cuda.h, so that the backend builds without
// the CUDA toolkit. Values are those of cuda.h (CUDA 12 and 13 agree); the
// function types match the ABI version asked for through cuGetProcAddress
// (kCudaApiVersion), which is why that version is pinned: newer versions
// return functions with other signatures (cuCtxSynchronize_v2 takes a
// context).
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_BACKENDS_NVPTX_CUDAAPI_H
#define TESSERA_BACKENDS_NVPTX_CUDAAPI_H

#include <cstddef>
#include <cstdint>

namespace mlir::tessera::nvptx::cuda {

using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
using CUcontext = struct CUctx_st *;
using CUmodule = struct CUmod_st *;
using CUfunction = struct CUfunc_st *;
using CUstream = struct CUstream_st *;
using CUevent = struct CUevent_st *;
using CUjit_option = int;

/// The opaque tensor map cuTensorMapEncodeTiled fills (cuda.h's CUtensorMap).
struct alignas(64) CUtensorMap {
  uint64_t opaque[16];
};

/// The CUDA version whose function signatures CudaSymbols.def declares.
inline constexpr int kCudaApiVersion = 12000;

inline constexpr CUresult CUDA_SUCCESS = 0;
inline constexpr CUresult CUDA_ERROR_NO_DEVICE = 100;

/// cuGetProcAddress flags and query results.
inline constexpr uint64_t CU_GET_PROC_ADDRESS_LEGACY_STREAM = 1;
inline constexpr int CU_GET_PROC_ADDRESS_SUCCESS = 0;

/// CUdevice_attribute.
enum DeviceAttribute : int {
  MAX_THREADS_PER_BLOCK = 1,
  MAX_SHARED_MEMORY_PER_BLOCK = 8,
  WARP_SIZE = 10,
  MAX_REGISTERS_PER_BLOCK = 12,
  CLOCK_RATE = 13,
  MULTIPROCESSOR_COUNT = 16,
  MEMORY_CLOCK_RATE = 36,
  GLOBAL_MEMORY_BUS_WIDTH = 37,
  COMPUTE_CAPABILITY_MAJOR = 75,
  COMPUTE_CAPABILITY_MINOR = 76,
  MAX_SHARED_MEMORY_PER_BLOCK_OPTIN = 97,
};

/// CUfunction_attribute.
enum FunctionAttribute : int {
  FUNC_MAX_THREADS_PER_BLOCK = 0,
  FUNC_SHARED_SIZE_BYTES = 1,
  FUNC_CONST_SIZE_BYTES = 2,
  FUNC_LOCAL_SIZE_BYTES = 3,
  FUNC_NUM_REGS = 4,
  FUNC_PTX_VERSION = 5,
  FUNC_BINARY_VERSION = 6,
  FUNC_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8,
};

/// CUjit_option.
enum JitOption : int {
  JIT_MAX_REGISTERS = 0,
  JIT_INFO_LOG_BUFFER = 3,
  JIT_INFO_LOG_BUFFER_SIZE_BYTES = 4,
  JIT_ERROR_LOG_BUFFER = 5,
  JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6,
  JIT_LOG_VERBOSE = 12,
};

/// CUevent_flags: CU_EVENT_DEFAULT records timing.
inline constexpr unsigned CU_EVENT_DEFAULT = 0;
/// CUstream_flags: CU_STREAM_DEFAULT synchronizes with the legacy default
/// stream, which orders our launches with cuMemcpy* and cuMemsetD8.
inline constexpr unsigned CU_STREAM_DEFAULT = 0;

/// The driver's entry points, one pointer per CudaSymbols.def row.
struct Api {
#define TESSERA_CUDA_SYMBOL(name, abiName, ret, params)                        \
  ret(*name) params = nullptr;
#include "CudaSymbols.def"
};

} // namespace mlir::tessera::nvptx::cuda

#endif // TESSERA_BACKENDS_NVPTX_CUDAAPI_H
