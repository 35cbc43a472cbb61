"""pkg.sub.deep: the end of a long attribute chain."""
import triton


@triton.jit
def negate(x):
    return -x


class Consts:
    """A class used as a namespace of constants in device code."""
    FACTOR = 5
