# Helpers decorated through the compatibility module's `triton`.
from .compat_triton import triton, tl


@triton.jit
def aliased_helper(x):
    return x * 2 + tl.full(x.shape, 1, x.dtype)
