"""Conformance kernel 07: calling an external math library function (mirrors Triton tutorial 07).

Computes y[i] = asin(x[i]) through `libdevice.asin`, the target's math library entry point:
NVIDIA libdevice (__nv_asinf / __nv_asin), AMD ocml, or the CPU's libm / vector math.

Kernel `asin_kernel`
  signature : asin_kernel(x_ptr, y_ptr, n_elements, BLOCK_SIZE: constexpr)
              x_ptr, y_ptr : fp32 (fp64 also works: the fp64 libdevice variant is picked)
              n_elements   : int32
  grid      : (cdiv(n_elements, BLOCK_SIZE), 1, 1);  BLOCK_SIZE = 1024 by default
  inputs    : uniform in [-1, 1] (asin is NaN outside); reference torch.asin / numpy.arcsin
              in fp64, tolerance a few ulp

The tutorial also shows passing a custom libdevice path through `extern_libs`; Triton 3.6
resolves `triton.language.extra.libdevice` to the active backend's library by itself, and
that is the form used here.
"""
import triton
import triton.language as tl
from triton.language.extra import libdevice

BLOCK_SIZE = 1024


@triton.jit
def asin_kernel(x_ptr, y_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    offsets = tl.program_id(axis=0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    in_bounds = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=in_bounds)
    tl.store(y_ptr + offsets, libdevice.asin(x), mask=in_bounds)


if __name__ == "__main__":
    import torch

    assert torch.cuda.is_available(), "extern functions do not run in the Triton interpreter"
    n = 98431
    x = torch.rand(n, device="cuda") * 2 - 1
    y = torch.full_like(x, float("nan"))
    asin_kernel[(triton.cdiv(n, BLOCK_SIZE), )](x, y, n, BLOCK_SIZE=BLOCK_SIZE)
    torch.testing.assert_close(y, torch.asin(x))
    print("07_extern_functions: ok")
