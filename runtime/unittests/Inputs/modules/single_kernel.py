# The kernel of ModuleEndToEndTest written in one file (see split_kernel.py).
import triton
import triton.language as tl

from triton.language.extra import libdevice

SLOPE = tl.constexpr(0.125)


@triton.jit
def leaky(x):
    return tl.where(x > 0, x, x * SLOPE)


@triton.jit
def soft(x):
    return libdevice.log1p(tl.exp(x))


@triton.jit
def row_energy(x, AXIS: tl.constexpr):
    return tl.sum(soft(x) * leaky(x), axis=AXIS)


@triton.jit
def energy(x_ptr, out_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * n_cols + cols, mask=mask, other=0.0)
    x = leaky(x)
    tl.store(out_ptr + row, tl.sum(row_energy(x[None, :], 1), axis=0))
