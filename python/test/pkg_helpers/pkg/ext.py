"""pkg.ext: helpers built on pkg.utils through a relative import."""
import triton
import triton.language as tl

from .utils import helper as _scaled
from . import utils

try:  # module-level code the frontend must not have to evaluate
    from triton.language.extra.cuda import libdevice
except ImportError:
    from triton.language.extra import libdevice

if hasattr(tl, "definitely_not_a_triton_name"):
    SHIFT = tl.constexpr(100)
else:
    SHIFT = tl.constexpr(2)


@triton.jit
def helper(x):
    # (x * 3) + 2
    return _scaled(x) + SHIFT


@triton.jit
def twice_offset(x):
    return utils.add_offset(utils.add_offset(x))


@triton.jit
def sqrt_of(x):
    return libdevice.sqrt(x)
