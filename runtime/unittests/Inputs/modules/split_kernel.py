# The kernel of ModuleEndToEndTest with its helpers in the package
# `modhelpers`; single_kernel.py is the same computation in one file.
import triton
import triton.language as tl

import modhelpers
from modhelpers.reduce import row_energy


@triton.jit
def energy(x_ptr, out_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * n_cols + cols, mask=mask, other=0.0)
    x = modhelpers.leaky(x)
    tl.store(out_ptr + row, tl.sum(row_energy(x[None, :], 1), axis=0))
