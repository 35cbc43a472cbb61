# A helper beside a kernel file that lives in a package.
import triton


@triton.jit
def offset(x):
    return x + 10
