# A module whose jit function does not parse.
import triton


@triton.jit
def bad(x):
    return x +
