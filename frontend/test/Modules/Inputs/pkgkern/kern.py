# A kernel file inside a package: relative imports resolve in its package.
import triton
import triton.language as tl

from .helpers import offset
from . import helpers


@triton.jit
def k(p):
    offs = tl.arange(0, 16)
    x = tl.load(p + offs)
    tl.store(p + offs, helpers.offset(offset(x)))
