# Tutorial 01 with a deliberate compile error, for the compile-only test of
# the failure path: the operands of the addition have different shapes.
import triton
import triton.language as tl


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    offsets = tl.program_id(axis=0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    in_bounds = offsets < n_elements
    lhs = tl.load(x_ptr + offsets, mask=in_bounds)
    half = tl.arange(0, BLOCK_SIZE // 2)
    rhs = tl.load(y_ptr + half)
    tl.store(out_ptr + offsets, lhs + rhs, mask=in_bounds)
