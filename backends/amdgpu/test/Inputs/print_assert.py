# A kernel that prints and asserts, for the amdgpu print/assert test.
import triton
import triton.language as tl


@triton.jit
def print_assert(p, n):
    offs = tl.arange(0, 64)
    x = tl.load(p + offs)
    tl.device_print("x", x, n)
    tl.device_assert(x > 0, "x must be positive")
    tl.store(p + offs, x + 1)
