# Helpers of the test package: jit functions and module constants.
import triton
import triton.language as tl

SCALE = tl.constexpr(3)
PLAIN = 7


@triton.jit
def helper(x):
    return x + 1


@triton.jit
def scale(x, F: tl.constexpr = SCALE):
    return x * F


@triton.jit
def uses_global(x):
    # A global of this module, not of the kernel's.
    return x * SCALE


def host_only(n):
    return n * 2
