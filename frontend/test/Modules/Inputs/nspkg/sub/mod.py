# A module of a namespace package (no __init__.py anywhere above it).
import triton


@triton.jit
def ns_helper(x):
    return x * 2
