//===- Arguments.h - Python launch values as KernelArgs ---------*- C++ -*-===//
//
// A launch's positional and named Python values become runtime::KernelArgs
// in one pass in C++, as Triton's launcher reads them:
//
//   None, bool, int, float, str      None, i1, i32/i64, fp32, a constexpr
//   x.data_ptr() and x.dtype         a pointer to x.dtype's elements (torch
//                                    tensors; x.device must be the session's)
//   the buffer protocol, else         a pointer into host memory (NumPy
//   __array_interface__              arrays; only on the cpu backend)
//   __tessera_dtype__ = "fp16"       a dtype constexpr (the Python layer's
//                                    dtype objects, tl.float16)
//   __tessera_value__                the value it holds (tl.constexpr(3))
//   __index__ / __float__            an int / a float (NumPy scalars)
//
// Anything else, and a tensor on another device, is an error naming the
// parameter.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_PYTHON_ARGUMENTS_H
#define TESSERA_PYTHON_ARGUMENTS_H

#include "Binding.h"

namespace tessera::python {

/// One launch's values.
struct LaunchValues {
  llvm::SmallVector<rt::KernelArg, 16> args;
  llvm::SmallVector<rt::NamedKernelArg, 8> kwargs;
  /// The device index of the first PyTorch GPU tensor among them, or -1:
  /// the launch then goes on PyTorch's current stream of that device.
  int torchDevice = -1;
};

/// Converts `args` (a tuple) and `kwargs` (a dict, or None) for `kernel`
/// of `session`. Throws TypeError or ValueError naming the parameter.
void convertLaunchValues(const PySession &session, const rt::JitKernel &kernel,
                         nb::handle args, nb::handle kwargs, LaunchValues &out);

/// The Python value of a launch value (for META and defaults): None, bool,
/// int, float, str; a dtype as its Triton type name.
nb::object toPython(const rt::KernelArg &value);

/// The raw stream PyTorch launches on for GPU `device` now
/// (torch._C._cuda_getCurrentRawStream), or 0 where torch has none.
uint64_t getTorchCurrentStream(int device);

} // namespace tessera::python

#endif // TESSERA_PYTHON_ARGUMENTS_H
