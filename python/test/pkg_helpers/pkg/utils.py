"""Helpers of the test package (pkg.utils)."""
import triton
import triton.language as tl

SCALE = tl.constexpr(3)
OFFSET: tl.constexpr = 1  # constexpr by annotation


@triton.jit
def helper(x):
    return x * SCALE


@triton.jit
def add_offset(x):
    return x + OFFSET
